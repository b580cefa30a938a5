"""Rule book 001 (no-limit hold'em), one test per rule, through the replay format and the API.

The hand scenarios in ``holdem_scenarios/`` are the book's own examples written as replay
files (``shared/spec/hand-scenario.md``); each carries an ``expect`` block that the replay
output must match. The tests below them pin what a scenario file cannot easily say.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from engine.api import Action, RuleError, SettingsError
from engine.cards import NEW_DECK, card_text, parse_cards
from engine.games import get_game
from engine.holdem import HOLDEM
from engine.replay import parse_scenario, run_scenario

SCENARIOS = sorted((Path(__file__).parent / "holdem_scenarios").glob("*.json"))
REPO = Path(__file__).resolve().parents[2]


def _load(path: Path) -> dict:
    return json.loads(path.read_text(encoding="utf-8"))


def _shown_and_mucked(events: list[dict]) -> tuple[list[str], list[str]]:
    shown = [event["player"] for event in events if event["kind"] == "show"]
    mucked = [event["player"] for event in events if event["kind"] == "muck"]
    return shown, mucked


@pytest.mark.parametrize("path", SCENARIOS, ids=[path.stem for path in SCENARIOS])
def test_book_scenario(path: Path) -> None:
    """Each scenario file: the replay output matches its ``expect`` block."""
    scenario = _load(path)
    expect = scenario["expect"]
    status, output = run_scenario(scenario)
    assert status == (0 if expect["ok"] else 1), output
    for key in ("ok", "finished", "stacks", "pots", "to_act", "legal"):
        if key in expect:
            assert output[key] == expect[key], (key, output[key])
    for key, value in expect.get("error", {}).items():
        assert output["error"][key] == value, output["error"]
    if "hole" in expect:
        hole = {e["player"]: e["cards"] for e in output["events"] if e["kind"] == "hole_cards"}
        assert hole == expect["hole"]
    if "board" in expect:
        assert [e for e in output["events"] if e["kind"] == "board"][-1]["board"] == expect["board"]
    if "shown" in expect:
        assert _shown_and_mucked(output["events"]) == (expect["shown"], expect["mucked"])
    if output["ok"] and output["finished"]:
        start = sum(player["stack"] for player in scenario["players"])
        assert sum(output["stacks"].values()) == start


def test_scenario_files_exist_for_the_book_examples() -> None:
    names = {path.stem for path in SCENARIOS}
    assert "asha_all_in_200_against_500_and_500_main_pot_600_side_pot_600" in names
    assert "min_raise_before_the_flop_is_to_40" in names
    assert "after_a_raise_to_100_the_next_raise_is_to_at_least_180" in names


def test_replay_command_line_answers_for_holdem(tmp_path: Path) -> None:
    """``python -m engine replay FILE`` for hold'em: exit 0 with the spec's output, 1 on a refusal."""
    done = SCENARIOS[[p.stem for p in SCENARIOS].index("asha_all_in_200_against_500_and_500_main_pot_600_side_pot_600")]
    run = subprocess.run(
        [sys.executable, "-m", "engine", "replay", str(done)], capture_output=True, text=True, cwd=REPO, check=False
    )
    assert run.returncode == 0, run.stderr
    output = json.loads(run.stdout)
    assert output["stacks"] == {"Asha": 600, "Bikash": 600, "Chandra": 0}
    assert [pot["amount"] for pot in output["pots"]] == [600, 600]
    refused = SCENARIOS[[p.stem for p in SCENARIOS].index("min_raise_before_the_flop_is_to_40")]
    run = subprocess.run(
        [sys.executable, "-m", "engine", "replay", str(refused)], capture_output=True, text=True, cwd=REPO, check=False
    )
    assert run.returncode == 1
    assert json.loads(run.stdout)["error"]["code"] == "raise_too_small"
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps({**_load(refused), "settings": {"big_blind": "twenty"}}))
    run = subprocess.run(
        [sys.executable, "-m", "engine", "replay", str(bad)], capture_output=True, text=True, cwd=REPO, check=False
    )
    assert run.returncode == 2
    assert json.loads(run.stdout)["error"]["field"] == "settings.big_blind"


# --- helpers for API-level tests -----------------------------------------------------------------

THREE = [("Asha", 1000), ("Bikash", 1000), ("Chandra", 1000)]


def deal(players=THREE, dealer=0, hands=None, board=None, settings=None, deck=None):
    settings = HOLDEM.settings(settings or {})
    if deck is None:
        deck = HOLDEM.deck_for_scenario(
            players=[name for name, _ in players],
            dealer=dealer,
            hands={name: parse_cards(cards) for name, cards in (hands or {}).items()},
            board=parse_cards(board) if board else None,
        )
    return HOLDEM.start_hand(settings=settings, players=players, dealer=dealer, deck=deck)


def play(state, *actions):
    events = []
    for action in actions:
        state, new = HOLDEM.apply(state, Action(*action))
        events.extend(new)
    return state, events


def kinds(events):
    return [event.kind for event in events]


# --- dealing ---------------------------------------------------------------------------------------


def test_deal_one_card_at_a_time_from_the_left_of_the_button_with_burns_before_flop_turn_and_river():
    deck = list(NEW_DECK)
    state, events = deal(dealer=0, deck=deck)
    hole = {event.data["player"]: event.data["cards"] for event in events if event.kind == "hole_cards"}
    # Left of the button (Asha) is Bikash, then Chandra, then Asha; two rounds of one card.
    assert hole == {
        "Bikash": [card_text(deck[0]), card_text(deck[3])],
        "Chandra": [card_text(deck[1]), card_text(deck[4])],
        "Asha": [card_text(deck[2]), card_text(deck[5])],
    }
    state, events = play(state, ("Asha", "call"), ("Bikash", "call"), ("Chandra", "check"))
    assert state.board == (deck[7], deck[8], deck[9])  # deck[6] burnt
    state, _ = play(state, ("Bikash", "check"), ("Chandra", "check"), ("Asha", "check"))
    assert state.board[3] == deck[11]  # deck[10] burnt
    state, _ = play(state, ("Bikash", "check"), ("Chandra", "check"), ("Asha", "check"))
    assert state.board[4] == deck[13]  # deck[12] burnt


def test_deck_for_scenario_deals_the_named_hands_and_board_heads_up():
    state, events = deal(
        players=THREE[:2],
        dealer=1,
        hands={"Asha": ["As", "Kd"], "Bikash": ["2c", "2d"]},
        board=["3h", "4h", "5h", "6h", "7h"],
    )
    hole = {event.data["player"]: event.data["cards"] for event in events if event.kind == "hole_cards"}
    assert hole == {"Asha": ["As", "Kd"], "Bikash": ["2c", "2d"]}
    state, events = play(state, ("Bikash", "allin"), ("Asha", "call"))
    assert [card_text(c) for c in state.board] == ["3h", "4h", "5h", "6h", "7h"]


def test_blinds_posted_left_of_the_button_and_first_to_act_is_left_of_the_big_blind():
    state, events = deal(players=[*THREE, ("Dev", 1000)], dealer=2)
    blinds = [(e.data["player"], e.data["blind"], e.data["amount"]) for e in events if e.kind == "blind"]
    assert blinds == [("Dev", "small", 10), ("Asha", "big", 20)]
    assert HOLDEM.to_act(state) == "Bikash"


def test_after_the_flop_the_first_player_still_in_left_of_the_button_acts_first():
    state, _ = deal(dealer=0)
    state, _ = play(state, ("Asha", "call"), ("Bikash", "fold"), ("Chandra", "check"))
    assert HOLDEM.to_act(state) == "Chandra"


def test_big_blind_gets_the_option_when_everyone_calls():
    state, _ = deal(dealer=0)
    state, _ = play(state, ("Asha", "call"), ("Bikash", "call"))
    assert HOLDEM.to_act(state) == "Chandra"
    verbs = [a.verb for a in HOLDEM.legal_actions(state)]
    assert "check" in verbs and "raise" in verbs


# --- betting ---------------------------------------------------------------------------------------


def test_raise_is_to_a_total_for_the_round_and_bet_and_raise_minimums_are_in_legal_actions():
    state, _ = deal(dealer=0)
    state, events = play(state, ("Asha", "raise", 100))
    assert events[0].data == {"player": "Asha", "verb": "raise", "amount": 100, "total": 100, "all_in": False}
    raise_ = next(a for a in HOLDEM.legal_actions(state) if a.verb == "raise")
    assert (raise_.min, raise_.max, raise_.cost) == (180, 1000, 170)


def test_short_all_in_raise_is_allowed_for_less_than_the_minimum():
    state, _ = deal(players=[("Asha", 30), ("Bikash", 1000), ("Chandra", 1000)], dealer=0)
    state, events = play(state, ("Asha", "allin"))
    assert events[0].data["verb"] == "raise" and events[0].data["total"] == 30 and events[0].data["all_in"]
    # The minimum raise stays a full raise over the big blind: 30 + 20.
    assert next(a for a in HOLDEM.legal_actions(state) if a.verb == "raise").min == 50


def test_short_all_in_leaves_players_who_have_not_acted_free_to_raise():
    state, _ = deal(players=[("Asha", 1000), ("Bikash", 1000), ("Chandra", 1000), ("Dev", 130)], dealer=0)
    # Preflop: Dev (UTG) calls, Asha calls, Bikash calls, Chandra checks.
    state, _ = play(state, ("Dev", "call"), ("Asha", "call"), ("Bikash", "call"), ("Chandra", "check"))
    state, _ = play(state, ("Bikash", "bet", 100), ("Chandra", "call"), ("Dev", "allin"))  # Dev: 110, adds 10
    assert HOLDEM.to_act(state) == "Asha"
    assert "raise" in [a.verb for a in HOLDEM.legal_actions(state)]  # Asha has not acted this round
    state, _ = play(state, ("Asha", "call"))
    assert [a.verb for a in HOLDEM.legal_actions(state)] == ["fold", "call"]  # Bikash had acted
    with pytest.raises(RuleError) as refused:
        HOLDEM.apply(state, Action("Bikash", "allin"))
    assert refused.value.code == "betting_closed"


def test_a_full_raise_after_a_short_all_in_reopens_the_betting():
    state, _ = deal(players=[("Asha", 1000), ("Bikash", 1000), ("Chandra", 1000), ("Dev", 130)], dealer=0)
    state, _ = play(state, ("Dev", "call"), ("Asha", "call"), ("Bikash", "call"), ("Chandra", "check"))
    state, _ = play(state, ("Bikash", "bet", 100), ("Chandra", "call"), ("Dev", "allin"), ("Asha", "raise", 300))
    assert "raise" in [a.verb for a in HOLDEM.legal_actions(state)]


def test_when_everyone_else_is_all_in_you_can_only_call_or_fold_and_match_what_they_put_in():
    state, _ = deal(players=[("Asha", 1000), ("Bikash", 15)], dealer=0)  # heads-up, Bikash's big blind is 15
    assert [a.verb for a in HOLDEM.legal_actions(state)] == ["fold", "call"]
    call = next(a for a in HOLDEM.legal_actions(state) if a.verb == "call")
    assert call.cost == 5  # Asha's 10 matches Bikash's 15, not the full 20
    with pytest.raises(RuleError) as refused:
        HOLDEM.apply(state, Action("Asha", "raise", 100))
    assert refused.value.code == "cannot_raise"


def test_no_more_betting_when_at_most_one_player_still_in_has_chips_hands_turned_up_and_board_run_out():
    state, _ = deal(
        players=[("Asha", 200), ("Bikash", 1000), ("Chandra", 1000)],
        dealer=0,
        hands={"Asha": ["As", "Ad"], "Bikash": ["Ks", "Kd"], "Chandra": ["Qs", "Qd"]},
    )
    state, events = play(state, ("Asha", "allin"), ("Bikash", "call"), ("Chandra", "fold"))
    order = kinds(events)
    # Bikash still has chips but nobody to bet against: both hands turned up before the board is dealt.
    assert order.index("show") < order.index("board")
    assert [e.data["player"] for e in events if e.kind == "show"] == ["Bikash", "Asha"]
    assert all(e.data["reason"] == "all_in" for e in events if e.kind == "show")
    assert [e.data["street"] for e in events if e.kind == "board"] == ["flop", "turn", "river"]
    assert HOLDEM.is_finished(state)


def test_showdown_with_someone_all_in_turns_every_hand_over_at_once():
    state, _ = deal(
        players=[("Asha", 100), ("Bikash", 1000), ("Chandra", 1000)],
        dealer=0,
        hands={"Asha": ["2s", "7d"], "Bikash": ["Ks", "Kd"], "Chandra": ["Qs", "Qd"]},
        board=["2c", "8h", "9d", "3s", "Jh"],
    )
    state, events = play(state, ("Asha", "allin"), ("Bikash", "call"), ("Chandra", "call"))
    for _ in range(3):
        state, new = play(state, ("Bikash", "check"), ("Chandra", "check"))
        events += new
    shown = [e.data["player"] for e in events if e.kind == "show"]
    assert sorted(shown) == ["Asha", "Bikash", "Chandra"]  # Asha's losing hand is shown too
    assert "muck" not in kinds(events)


def test_side_pots_are_paid_from_the_last_side_pot_back_to_the_main_pot():
    path = next(p for p in SCENARIOS if p.stem.startswith("asha_all_in"))
    _, output = run_scenario(_load(path))
    awarded = [e for e in output["events"] if e["kind"] == "pot_awarded"]
    assert [e["pot"] for e in awarded] == [1, 0]
    assert awarded[0]["amount"] == 600 and awarded[0]["eligible"] == ["Bikash", "Chandra"]


def test_several_side_pots_are_paid_from_the_last_side_pot_back_to_the_main_pot():
    path = next(p for p in SCENARIOS if p.stem.startswith("several_all_ins_make_several_side_pots"))
    _, output = run_scenario(_load(path))
    awarded = [e for e in output["events"] if e["kind"] == "pot_awarded"]
    assert [(e["pot"], e["amount"], e["winners"]) for e in awarded] == [
        (2, 600, ["Chandra"]),
        (1, 600, ["Bikash"]),
        (0, 400, ["Asha"]),
    ]
    assert {"kind": "uncalled", "player": "Dev", "amount": 400} in output["events"]


def test_the_five_winning_cards_are_named():
    state, _ = deal(
        players=THREE[:2],
        dealer=0,
        hands={"Asha": ["Ah", "Kh"], "Bikash": ["2c", "2d"]},
        board=["Qh", "Jh", "Th", "3s", "9h"],
    )
    state, events = play(state, ("Asha", "allin"), ("Bikash", "call"))
    awarded = next(e for e in events if e.kind == "pot_awarded")
    assert awarded.data["winners"] == ["Asha"]
    assert awarded.data["hands"]["Asha"] == {"category": "straight_flush", "cards": ["Ah", "Kh", "Qh", "Jh", "Th"]}


def test_split_pot_names_each_winners_five_cards_and_shares():
    path = next(p for p in SCENARIOS if p.stem.startswith("equal_hands_share"))
    _, output = run_scenario(_load(path))
    awarded = next(e for e in output["events"] if e["kind"] == "pot_awarded")
    assert awarded["shares"] == {"Chandra": 13, "Asha": 12}
    assert awarded["hands"]["Asha"]["cards"] == ["Ah", "Kc", "Qd", "Jh", "Ts"]


def test_the_view_counts_every_chip_in_the_middle_and_the_pots_as_they_form():
    """Issue 13: shove, call, then all in on the flop. The centre must show all the chips in
    the middle (the pots plus this round's bets), never a sum the page works out."""
    state, _ = deal(players=[("Asha", 600), ("Bikash", 1000), ("Chandra", 1000)], dealer=0)
    state, _ = play(state, ("Asha", "allin"), ("Bikash", "call"), ("Chandra", "call"))
    view = HOLDEM.view(state, None)
    assert view["street"] == "flop" and view["pot"] == 1800 == sum(pot["amount"] for pot in view["pots"])
    state, _ = play(state, ("Bikash", "bet", 40))
    view = HOLDEM.view(state, "Chandra")
    assert view["pot"] == 1840
    assert {"verb": "call", "cost": 40} in view["legal"]
    state, _ = play(state, ("Chandra", "allin"), ("Bikash", "call"))
    view = HOLDEM.view(state, None)
    assert view["result"] is not None
    pots = view["result"]["pots"]
    assert [pot["amount"] for pot in pots] == [1800, 800]
    assert view["pot"] == 2600 == sum(view["result"]["payouts"].values())
    assert sum(view["result"]["stacks"].values()) == 2600


def test_a_finished_view_names_each_winners_share_with_the_odd_chip_and_their_five():
    path = next(p for p in SCENARIOS if p.stem.startswith("equal_hands_share"))
    scenario = _load(path)
    _, output = run_scenario(scenario)
    awarded = next(e for e in output["events"] if e["kind"] == "pot_awarded")
    parsed = parse_scenario(scenario)
    state, _ = HOLDEM.start_hand(
        settings=parsed.settings, players=parsed.players, dealer=parsed.dealer, deck=parsed.deck
    )
    state, _ = play(state, *[(a.player, a.verb, a.amount) for a in parsed.actions])
    result = HOLDEM.view(state, None)["result"]
    assert result["payouts"] == awarded["shares"] == {"Chandra": 13, "Asha": 12}
    assert result["best_cards"]["Asha"] == awarded["hands"]["Asha"]["cards"]
    assert result["hands"]["Chandra"] == {"category": awarded["hands"]["Chandra"]["category"]}


def test_uncalled_chips_event_names_player_and_amount():
    path = next(p for p in SCENARIOS if p.stem == "chips_nobody_calls_go_back")
    _, output = run_scenario(_load(path))
    assert {"kind": "uncalled", "player": "Asha", "amount": 300} in output["events"]


def test_a_win_without_showdown_shows_no_cards():
    state, _ = deal(dealer=0)
    state, events = play(state, ("Asha", "fold"), ("Bikash", "fold"))
    assert "show" not in kinds(events) and "muck" not in kinds(events)
    assert HOLDEM.result(state).stacks == {"Asha": 1000, "Bikash": 990, "Chandra": 1010}
    assert all(player["cards"] is None for player in HOLDEM.view(state, None)["players"])


# --- refusals --------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("actions", "code"),
    [
        ([("Bikash", "call")], "not_your_turn"),
        ([("Nobody", "call")], "unknown_player"),
        ([("Asha", "check")], "cannot_check"),
        ([("Asha", "bet", 100)], "cannot_bet"),
        ([("Asha", "raise", 1001)], "not_enough_chips"),
        ([("Asha", "raise", 39)], "raise_too_small"),
        ([("Asha", "raise", "lots")], "bad_amount"),
        ([("Asha", "shove")], "unknown_verb"),
        ([("Asha", "call"), ("Bikash", "call"), ("Chandra", "call")], "nothing_to_call"),
        ([("Asha", "call"), ("Bikash", "call"), ("Chandra", "check"), ("Bikash", "raise", 40)], "cannot_raise"),
        ([("Asha", "call"), ("Bikash", "call"), ("Chandra", "check"), ("Bikash", "bet", 19)], "bet_too_small"),
        ([("Asha", "fold"), ("Bikash", "fold"), ("Chandra", "check")], "hand_over"),
    ],
)
def test_refusals_have_stable_codes_and_change_nothing(actions, code):
    state, _ = deal(dealer=0)
    state, _ = play(state, *actions[:-1])
    before = HOLDEM.view(state, "Asha")
    with pytest.raises(RuleError) as refused:
        HOLDEM.apply(state, Action(*actions[-1]))
    assert refused.value.code == code
    assert refused.value.message
    with pytest.raises(RuleError):
        HOLDEM.check(state, Action(*actions[-1]))
    assert HOLDEM.view(state, "Asha") == before


def test_apply_leaves_the_state_it_was_given_unchanged():
    state, _ = deal(dealer=0)
    before = HOLDEM.view(state, "Asha")
    HOLDEM.apply(state, Action("Asha", "raise", 100))
    assert HOLDEM.view(state, "Asha") == before


@pytest.mark.parametrize(
    ("overrides", "field"),
    [
        ({"small_blind": 0}, "small_blind"),
        ({"small_blind": "ten"}, "small_blind"),
        ({"big_blind": 5}, "big_blind"),
        ({"big_blind": 20.5}, "big_blind"),
        ({"blinds_every": 7}, "blinds_every"),
        ({"game_length": 45}, "game_length"),
        ({"ante": 5}, "ante"),
    ],
)
def test_settings_are_validated_naming_the_field(overrides, field):
    with pytest.raises(SettingsError) as refused:
        HOLDEM.settings(overrides)
    assert refused.value.field == field


def test_settings_defaults_are_the_books():
    settings = get_game("holdem").settings()
    assert (settings["small_blind"], settings["big_blind"]) == (10, 20)


@pytest.mark.parametrize("count", [1, 7])
def test_two_to_six_players(count):
    players = [(f"P{i}", 1000) for i in range(count)]
    with pytest.raises(SettingsError) as refused:
        deal(players=players, dealer=0, deck=list(NEW_DECK))
    assert refused.value.field == "players"


# --- who sees what ---------------------------------------------------------------------------------


def test_hole_cards_go_to_their_owner_only_and_the_view_hides_other_hands():
    state, events = deal(dealer=0)
    for event in events:
        if event.kind == "hole_cards":
            assert event.visible_to == frozenset({event.data["player"]})
        else:
            assert event.visible_to is None
    view = HOLDEM.view(state, "Bikash")
    cards = {player["name"]: player["cards"] for player in view["players"]}
    assert cards["Bikash"] is not None and cards["Asha"] is None and cards["Chandra"] is None
    assert all(player["cards"] is None for player in HOLDEM.view(state, None)["players"])


def test_mucked_hands_stay_hidden_in_events_and_views():
    path = next(p for p in SCENARIOS if p.stem.startswith("showdown_the_last_to_bet"))
    scenario = _load(path)
    _, output = run_scenario(scenario)
    asha_cards = set(scenario["hands"]["Asha"])
    for event in output["events"]:
        if event.get("visible_to") is None and event["kind"] != "pot_awarded":
            assert not asha_cards & set(json.dumps(event).replace('"', " ").split()), event
    state, _ = deal(dealer=0, hands=scenario["hands"], board=scenario["board"])
    state, _ = play(state, *[tuple(a) for a in scenario["actions"]])
    view = HOLDEM.view(state, "Chandra")
    cards = {player["name"]: player["cards"] for player in view["players"]}
    assert cards["Asha"] is None and cards["Bikash"] == ["Kc", "Kd"] and cards["Chandra"] == ["5c", "5d"]


def test_view_shape_for_the_player_to_act():
    state, _ = deal(dealer=0)
    state, _ = play(state, ("Asha", "raise", 100))
    view = HOLDEM.view(state, "Bikash")
    assert view["to_act"] == "Bikash"
    assert view["current_bet"] == 100 and view["min_raise_to"] == 180
    raise_entry = {"verb": "raise", "min": 180, "max": 1000, "cost": 170, "per_chip": 1, "step": 20, "start": 180}
    assert raise_entry in view["legal"]  # Bikash has 10 in: raising to 180 costs 170
    assert {"verb": "call", "cost": 90} in view["legal"]
    assert view["pot"] == 130  # every chip in the middle, this round's bets included
    assert HOLDEM.view(state, "Asha")["legal"] == []
    assert [p["bet"] for p in view["players"]] == [100, 10, 20]
    assert view["pots"] == [] and view["result"] is None
    json.dumps(view)  # JSON-ready


def test_an_all_in_bet_below_the_big_blind_does_not_reopen_the_betting_for_players_who_checked():
    """Book: a short all-in does not open the betting again for players who already acted;
    it holds for an all-in bet below the big blind after checks (docs: our reading)."""
    state, _ = deal(players=[("Asha", 1000), ("Bikash", 1000), ("Chandra", 35)], dealer=0)
    state, _ = play(state, ("Asha", "call"), ("Bikash", "call"), ("Chandra", "check"))
    state, _ = play(state, ("Bikash", "check"), ("Chandra", "allin"))  # Chandra bets 15, under the big blind
    assert HOLDEM.to_act(state) == "Asha"
    assert "raise" in [a.verb for a in HOLDEM.legal_actions(state)]  # Asha has not acted on the flop
    state, _ = play(state, ("Asha", "call"))
    assert [a.verb for a in HOLDEM.legal_actions(state)] == ["fold", "call"]  # Bikash checked before it


def test_a_player_with_nothing_to_call_and_nobody_left_to_bet_against_gets_no_turn():
    # Heads-up: Bikash's big blind is all in for 5, less than Asha's small blind of 10.
    state, events = deal(players=[("Asha", 1000), ("Bikash", 5)], dealer=0)
    assert HOLDEM.is_finished(state)
    assert {"kind": "uncalled", "player": "Asha", "amount": 5} in [e.to_json() for e in events]
    assert sum(HOLDEM.result(state).stacks.values()) == 1005


def test_folding_is_allowed_even_when_a_check_is_free():
    state, _ = deal(dealer=0)
    state, _ = play(state, ("Asha", "call"), ("Bikash", "call"))
    state, events = play(state, ("Chandra", "fold"))
    assert events[0].data["verb"] == "fold"
    assert HOLDEM.to_act(state) == "Bikash"
