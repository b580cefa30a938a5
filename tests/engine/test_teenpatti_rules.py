"""Every rule of the three Teen Patti books, one test each, played through the engine's API.

Hands are dealt with ``deck_for_scenario`` so each test states the cards it needs.
"""

import copy

import pytest

from engine.api import Action, RuleError
from engine.cards import card_text, parse_cards
from engine.fairness import seeded_deck
from engine.teenpatti import preset_game

TRAIL = "As Ad Ah"
PURE_RUN = "2h 3h 4h"
RUN = "Qs Kd Ac"
WEAK = "2s 5d 9c"
WEAKER = "2c 4d 7s"


def deal(game="faras", *, dealer=0, stacks=None, **hands_and_settings):
    """Deal ``Name="As Kd 2c"`` hands (seat order as given); other keywords are settings."""
    settings = {key: value for key, value in hands_and_settings.items() if not key[0].isupper()}
    hands = {key: value for key, value in hands_and_settings.items() if key[0].isupper()}
    rules = preset_game(game)
    names = list(hands)
    deck = rules.deck_for_scenario(
        players=names,
        dealer=dealer,
        hands={name: parse_cards(cards.split()) for name, cards in hands.items()},
        board=None,
    )
    stacks = stacks or {}
    state, events = rules.start_hand(
        settings=rules.settings(settings),
        players=[(name, stacks.get(name, 1000)) for name in names],
        dealer=dealer,
        deck=deck,
    )
    return rules, state, events


def act(rules, state, *actions):
    events = []
    for action in actions:
        state, new_events = rules.apply(state, Action(*action))
        events.extend(new_events)
    return state, events


def stacks(rules, state):
    return dict(rules.result(state).stacks)


def verbs(rules, state, player=None):
    return [action.verb for action in rules.legal_actions(state, player)]


def legal(rules, state, verb, player=None):
    return next(action for action in rules.legal_actions(state, player) if action.verb == verb)


def refused(rules, state, action, code):
    before = copy.deepcopy(state)
    with pytest.raises(RuleError) as caught:
        rules.apply(state, Action(*action))
    assert caught.value.code == code
    assert caught.value.message
    assert state == before
    return caught.value


# --- boot and deal ---------------------------------------------------------------------------


def test_boot_everyone_pays_it_and_it_is_the_opening_stake():
    rules, state, events = deal(Asha=TRAIL, Bikash=PURE_RUN, Chandra=RUN)
    assert stacks(rules, state) == {"Asha": 990, "Bikash": 990, "Chandra": 990}
    assert state.pot == 30 and state.stake == 10
    assert [event.kind for event in events] == ["hand_started", "boot", "dealt"]


def test_deal_one_card_at_a_time_starting_after_the_dealer():
    rules = preset_game("faras")
    deck = seeded_deck("deal")
    state, events = rules.start_hand(
        settings=rules.settings(), players=[("A", 100), ("B", 100), ("C", 100)], dealer=1, deck=deck
    )
    # C (after the dealer B) gets cards 0, 3, 6; A gets 1, 4, 7; B, the dealer, 2, 5, 8.
    assert state.cards == ((deck[1], deck[4], deck[7]), (deck[2], deck[5], deck[8]), (deck[0], deck[3], deck[6]))
    assert events[2].data["order"] == ["C", "A", "B"]


@pytest.mark.parametrize(("dealer", "first"), [(0, "Bikash"), (1, "Chandra"), (2, "Asha")])
def test_betting_starts_with_the_player_after_the_dealer(dealer, first):
    rules, state, _ = deal(dealer=dealer, Asha=TRAIL, Bikash=PURE_RUN, Chandra=RUN)
    assert rules.to_act(state) == first


def test_two_players_the_one_who_does_not_deal_bets_first():
    rules, state, _ = deal(dealer=1, Asha=TRAIL, Bikash=PURE_RUN)
    assert rules.to_act(state) == "Asha"


def test_player_with_fewer_chips_than_the_boot_is_not_dealt_in():
    with pytest.raises(Exception) as caught:
        deal(stacks={"Bikash": 9}, Asha=TRAIL, Bikash=PURE_RUN, Chandra=RUN)
    assert getattr(caught.value, "field", None) == "players[1].stack"


# --- blind and seen, chaal, raise, pack ----------------------------------------------------------


def test_blind_chaal_costs_the_stake_and_seen_chaal_twice_the_stake():
    rules, state, _ = deal(Asha=TRAIL, Bikash=PURE_RUN, Chandra=RUN)
    assert legal(rules, state, "chaal").cost == 10
    state, events = act(rules, state, ("Bikash", "chaal"), ("Chandra", "see"))
    assert events[0].data == {"player": "Bikash", "amount": 10, "stake": 10, "blind": True, "pot": 40, "stack": 980}
    assert legal(rules, state, "chaal").cost == 20
    state, _ = act(rules, state, ("Chandra", "chaal"))
    assert stacks(rules, state) == {"Asha": 990, "Bikash": 980, "Chandra": 970}
    assert state.pot == 60


def test_book_example_asha_raises_blind_to_20_bikash_seen_pays_40_to_chaal_or_80_to_raise_to_40():
    rules, state, _ = deal(dealer=2, Asha=WEAK, Bikash=RUN, Chandra=WEAKER)
    state, events = act(rules, state, ("Asha", "raise", 20))
    assert events[0].data["amount"] == 20 and state.stake == 20
    state, _ = act(rules, state, ("Bikash", "see"))
    assert legal(rules, state, "chaal").cost == 40
    chaal_state, _ = act(rules, state, ("Bikash", "chaal"))
    assert stacks(rules, chaal_state)["Bikash"] == 990 - 40
    raise_state, events = act(rules, state, ("Bikash", "raise", 40))
    assert events[0].data["amount"] == 80 and raise_state.stake == 40


def test_see_is_allowed_at_any_time_and_does_not_use_the_turn():
    rules, state, _ = deal(Asha=TRAIL, Bikash=PURE_RUN, Chandra=RUN)
    assert rules.to_act(state) == "Bikash"
    assert verbs(rules, state, "Asha") == ["see"]  # not her turn, still may look
    state, events = act(rules, state, ("Asha", "see"))
    assert rules.to_act(state) == "Bikash"
    assert [event.kind for event in events] == ["see", "cards"]
    assert events[1].visible_to == frozenset({"Asha"}) and events[1].data["cards"] == ["As", "Ad", "Ah"]
    state, _ = act(rules, state, ("Bikash", "see"))
    assert rules.to_act(state) == "Bikash"


def test_once_seen_a_player_stays_seen():
    rules, state, _ = deal(Asha=TRAIL, Bikash=PURE_RUN, Chandra=RUN)
    state, _ = act(rules, state, ("Asha", "see"))
    refused(rules, state, ("Asha", "see"), "already_seen")
    assert "see" not in verbs(rules, state, "Asha")


def test_blind_turn_limit_four_blind_bets_then_must_see():
    rules, state, _ = deal(Asha=TRAIL, Bikash=PURE_RUN)
    for _ in range(4):
        state, _ = act(rules, state, ("Bikash", "chaal"), ("Asha", "chaal"))
    assert state.blind_used == [4, 4]  # the boot does not count
    assert verbs(rules, state) == ["see", "pack"]
    refused(rules, state, ("Bikash", "chaal"), "must_see")
    refused(rules, state, ("Bikash", "raise", 20), "must_see")
    state, _ = act(rules, state, ("Bikash", "see"), ("Bikash", "chaal"))
    assert rules.to_act(state) == "Asha"


@pytest.mark.parametrize("limit", [2, 6])
def test_blind_turn_limit_setting(limit):
    rules, state, _ = deal(blind_turns=limit, Asha=TRAIL, Bikash=PURE_RUN)
    for _ in range(limit):
        state, _ = act(rules, state, ("Bikash", "chaal"), ("Asha", "chaal"))
    refused(rules, state, ("Bikash", "chaal"), "must_see")


def test_blind_turns_null_means_no_limit():
    rules, state, _ = deal("classic", Asha=TRAIL, Bikash=PURE_RUN, Chandra=RUN)
    for _ in range(10):
        state, _ = act(rules, state, ("Bikash", "chaal"), ("Chandra", "chaal"), ("Asha", "chaal"))
    assert "chaal" in verbs(rules, state)


def test_raise_any_in_steps_of_a_boot_as_far_as_chips_go():
    rules, state, _ = deal(Asha=TRAIL, Bikash=PURE_RUN, Chandra=RUN)
    raise_action = legal(rules, state, "raise")
    assert (raise_action.min, raise_action.max, raise_action.cost) == (20, 990, 20)
    refused(rules, state, ("Bikash", "raise", 10), "raise_too_small")
    refused(rules, state, ("Bikash", "raise", 25), "raise_not_multiple_of_boot")
    refused(rules, state, ("Bikash", "raise", 1000), "not_enough_chips")
    state, _ = act(rules, state, ("Bikash", "raise", 990))
    assert state.stake == 990 and stacks(rules, state)["Bikash"] == 0


def test_raise_seen_player_max_is_half_the_chips():
    rules, state, _ = deal(Asha=TRAIL, Bikash=PURE_RUN, Chandra=RUN)
    state, _ = act(rules, state, ("Bikash", "see"))
    assert legal(rules, state, "raise").max == 490


def test_raise_double_new_stake_at_most_twice_the_current():
    rules, state, _ = deal("classic", Asha=TRAIL, Bikash=PURE_RUN, Chandra=RUN)
    raise_action = legal(rules, state, "raise")
    assert (raise_action.min, raise_action.max) == (20, 20)
    refused(rules, state, ("Bikash", "raise", 30), "raise_too_large")
    state, _ = act(rules, state, ("Bikash", "raise", 20))
    assert (legal(rules, state, "raise").min, legal(rules, state, "raise").max) == (30, 40)


def test_stake_limit_caps_every_raise():
    rules, state, _ = deal(stake_limit=40, Asha=TRAIL, Bikash=PURE_RUN, Chandra=RUN)
    assert legal(rules, state, "raise").max == 40
    refused(rules, state, ("Bikash", "raise", 50), "raise_over_stake_limit")
    state, _ = act(rules, state, ("Bikash", "raise", 40))
    assert "raise" not in verbs(rules, state)


def test_pack_leaves_the_bets_in_the_pot_and_the_last_player_takes_it():
    rules, state, _ = deal(Asha=WEAK, Bikash=WEAKER, Chandra=RUN)
    state, events = act(
        rules, state, ("Bikash", "chaal"), ("Chandra", "pack"), ("Asha", "raise", 30), ("Bikash", "pack")
    )
    assert rules.is_finished(state)
    result = rules.result(state)
    assert result.stacks == {"Asha": 1000 - 10 - 30 + 70, "Bikash": 980, "Chandra": 990}
    assert [pot.to_json() for pot in result.pots] == [{"amount": 70, "eligible": ["Asha"], "winners": ["Asha"]}]
    assert events[-1].kind == "hand_finished" and events[-1].data["reason"] == "last_player"


def test_packed_player_is_skipped_and_cannot_act():
    rules, state, _ = deal(Asha=WEAK, Bikash=WEAKER, Chandra=RUN, Dev="Ks Kc 3d")
    state, _ = act(rules, state, ("Bikash", "chaal"), ("Chandra", "pack"))
    assert rules.to_act(state) == "Dev"
    refused(rules, state, ("Chandra", "see"), "already_packed")
    assert rules.legal_actions(state, "Chandra") == []


def test_no_all_in_chaal_with_three_or_more_in_a_short_player_must_pack():
    rules, state, _ = deal(stacks={"Chandra": 25}, Asha=TRAIL, Bikash=PURE_RUN, Chandra=RUN)
    state, _ = act(rules, state, ("Bikash", "raise", 20))
    assert verbs(rules, state) == ["see", "pack"]
    error = refused(rules, state, ("Chandra", "chaal"), "not_enough_chips")
    assert "no all-in chaal" in error.message


# --- show ------------------------------------------------------------------------------------------


def test_show_costs_twice_the_stake_and_the_better_hand_takes_the_pot():
    rules, state, _ = deal(dealer=1, Asha=PURE_RUN, Bikash=RUN)
    state, _ = act(rules, state, ("Asha", "see"), ("Asha", "chaal"), ("Bikash", "see"))
    assert legal(rules, state, "show").cost == 20
    state, events = act(rules, state, ("Bikash", "show"))
    assert [event.kind for event in events] == ["show", "showdown", "hand_finished"]
    assert events[0].data["amount"] == 20
    showdown = events[1]
    assert showdown.visible_to is None
    assert showdown.data["cards"] == {"Asha": ["2h", "3h", "4h"], "Bikash": ["Qs", "Kd", "Ac"]}
    assert showdown.data["winners"] == ["Asha"]
    assert stacks(rules, state) == {"Asha": 1030, "Bikash": 970}


def test_show_exact_tie_goes_to_the_player_who_did_not_ask():
    rules, state, _ = deal(dealer=1, Asha="As 7d 3c", Bikash="Ah 7s 3d")
    state, _ = act(rules, state, ("Asha", "see"), ("Bikash", "see"), ("Asha", "show"))
    assert rules.result(state).pots[0].winners == ("Bikash",)


def test_show_needs_two_players_left():
    rules, state, _ = deal(Asha=TRAIL, Bikash=PURE_RUN, Chandra=RUN)
    state, _ = act(rules, state, ("Bikash", "see"))
    refused(rules, state, ("Bikash", "show"), "show_needs_two")


def test_show_blind_player_cannot_ask_in_faras():
    rules, state, _ = deal(dealer=1, Asha=TRAIL, Bikash=PURE_RUN)
    assert "show" not in verbs(rules, state)
    refused(rules, state, ("Asha", "show"), "show_blind_not_allowed")


@pytest.mark.parametrize("game", ["faras", "classic", "999"])
def test_show_seen_player_cannot_ask_a_blind_player(game):
    rules, state, _ = deal(game, dealer=1, Asha=TRAIL, Bikash=PURE_RUN, Chandra=RUN)
    state, _ = act(rules, state, ("Chandra", "pack"), ("Asha", "see"))
    assert "show" not in verbs(rules, state)
    refused(rules, state, ("Asha", "show"), "show_against_blind")


def test_blind_show_costs_one_stake_where_allowed():
    rules, state, _ = deal("999", dealer=1, Asha="9s 9d 2c", Bikash="Ks Qd Tc")
    assert legal(rules, state, "show").cost == 10
    state, events = act(rules, state, ("Asha", "show"))
    assert events[0].data["blind"] is True and events[0].data["amount"] == 10
    assert rules.result(state).pots[0].winners == ("Asha",)  # 992 beats 000
    assert stacks(rules, state) == {"Asha": 1010, "Bikash": 990}


def test_blind_show_against_a_seen_player_is_allowed_in_classic():
    rules, state, _ = deal("classic", Asha=TRAIL, Bikash=PURE_RUN, Chandra=RUN)
    state, _ = act(rules, state, ("Bikash", "pack"), ("Chandra", "see"), ("Chandra", "chaal"))
    state, events = act(rules, state, ("Asha", "show"))
    assert events[0].data["amount"] == 10
    assert rules.result(state).pots[0].winners == ("Asha",)


def test_show_for_everything_left_with_two_players_makes_no_side_pot():
    rules, state, _ = deal(dealer=1, stacks={"Bikash": 40}, Asha=WEAK, Bikash=TRAIL)
    state, _ = act(rules, state, ("Asha", "see"), ("Asha", "raise", 50), ("Bikash", "see"))
    # Bikash has 30 left; a chaal costs 100: he may show for what he has.
    assert verbs(rules, state) == ["pack", "show"]
    assert legal(rules, state, "show").cost == 30
    refused(rules, state, ("Bikash", "chaal"), "not_enough_chips")
    state, _ = act(rules, state, ("Bikash", "show"))
    result = rules.result(state)
    assert [pot.to_json() for pot in result.pots] == [
        {"amount": 150, "eligible": ["Asha", "Bikash"], "winners": ["Bikash"]}
    ]
    assert result.stacks == {"Asha": 890, "Bikash": 150}


def test_best_run_a23_setting_decides_a_show():
    hands = {"Asha": "Ah 2d 3c", "Bikash": "As Kd Qc"}
    for best_run, winner in (("AKQ", "Bikash"), ("A23", "Asha")):
        rules, state, _ = deal(dealer=1, best_run=best_run, **hands)
        state, _ = act(rules, state, ("Asha", "see"), ("Bikash", "see"), ("Asha", "show"))
        assert rules.result(state).pots[0].winners == (winner,)


def test_digit_ranking_decides_a_999_show():
    rules, state, _ = deal("999", dealer=1, Asha="As Ad Ah", Bikash="4h 3h 2h")
    state, events = act(rules, state, ("Asha", "see"), ("Bikash", "see"), ("Asha", "show"))
    showdown = next(event for event in events if event.kind == "showdown")
    assert showdown.data["hands"] == {
        "Asha": {"category": "digits", "value": 111},
        "Bikash": {"category": "digits", "value": 432},
    }
    assert rules.result(state).pots[0].winners == ("Bikash",)


# --- sideshow ---------------------------------------------------------------------------------------


def sideshow_table(game="faras", **hands):
    hands = hands or {"Asha": TRAIL, "Bikash": WEAK, "Chandra": RUN}
    rules, state, _ = deal(game, **hands)
    state, _ = act(rules, state, ("Bikash", "see"), ("Bikash", "chaal"), ("Chandra", "see"))
    return rules, state


def test_sideshow_asks_the_previous_player_and_costs_a_seen_chaal():
    rules, state = sideshow_table()
    assert legal(rules, state, "sideshow").cost == 20
    state, events = act(rules, state, ("Chandra", "sideshow"))
    assert events[0].kind == "sideshow"
    assert events[0].data == {
        "player": "Chandra",
        "partner": "Bikash",
        "amount": 20,
        "stake": 10,
        "pot": 70,
        "stack": 970,
    }
    assert rules.to_act(state) == "Bikash"
    assert verbs(rules, state) == ["accept", "refuse"]
    assert rules.view(state, "Asha")["sideshow"] == {"asker": "Chandra", "partner": "Bikash"}


def test_sideshow_accepted_lower_hand_packs_and_turn_passes_after_the_asker():
    rules, state = sideshow_table()
    state, events = act(rules, state, ("Chandra", "sideshow"), ("Bikash", "accept"))
    assert [event.kind for event in events[1:]] == ["sideshow_accepted", "sideshow_result", "pack"]
    assert events[-1].data == {"player": "Bikash", "reason": "sideshow"}
    assert state.packed == [False, True, False]
    assert rules.to_act(state) == "Asha"


def test_sideshow_tie_packs_the_player_who_asked():
    rules, state = sideshow_table(Asha="Ks Kd Kc", Bikash="As 7d 3c", Chandra="Ah 7s 3d")
    state, events = act(rules, state, ("Chandra", "sideshow"), ("Bikash", "accept"))
    assert events[-1].data == {"player": "Chandra", "reason": "sideshow"}
    assert rules.to_act(state) == "Asha"


def test_sideshow_result_reaches_only_the_two_the_table_learns_who_packed():
    rules, state = sideshow_table()
    state, events = act(rules, state, ("Chandra", "sideshow"), ("Bikash", "accept"))
    result = next(event for event in events if event.kind == "sideshow_result")
    assert result.visible_to == frozenset({"Bikash", "Chandra"})
    assert result.data["cards"] == {"Chandra": ["Qs", "Kd", "Ac"], "Bikash": ["2s", "5d", "9c"]}
    for event in events:
        if event.visible("Asha"):
            assert "cards" not in event.data
    asha_view = rules.view(state, "Asha")
    assert [player["cards"] for player in asha_view["players"]] == [None, None, None]
    bikash_view = rules.view(state, "Bikash")
    assert bikash_view["players"][2]["cards"] == ["Qs", "Kd", "Ac"]


def test_sideshow_refused_the_bet_stays_in_and_play_moves_on():
    rules, state = sideshow_table()
    state, events = act(rules, state, ("Chandra", "sideshow"), ("Bikash", "refuse"))
    assert events[-1].kind == "sideshow_refused"
    assert state.pot == 70 and state.packed == [False, False, False]
    assert rules.to_act(state) == "Asha"
    assert all(player["cards"] is None for player in rules.view(state, "Bikash")["players"][::2])


def test_sideshow_needs_three_players_in():
    rules, state, _ = deal(dealer=1, Asha=TRAIL, Bikash=RUN)
    state, _ = act(rules, state, ("Asha", "see"), ("Asha", "chaal"), ("Bikash", "see"))
    refused(rules, state, ("Bikash", "sideshow"), "sideshow_needs_three")


def test_sideshow_asker_must_have_seen():
    rules, state, _ = deal(Asha=TRAIL, Bikash=WEAK, Chandra=RUN)
    state, _ = act(rules, state, ("Bikash", "see"), ("Bikash", "chaal"))
    refused(rules, state, ("Chandra", "sideshow"), "sideshow_needs_seen")


def test_sideshow_partner_must_have_seen():
    rules, state, _ = deal(Asha=TRAIL, Bikash=WEAK, Chandra=RUN)
    state, _ = act(rules, state, ("Bikash", "chaal"), ("Chandra", "see"))
    assert "sideshow" not in verbs(rules, state)
    refused(rules, state, ("Chandra", "sideshow"), "sideshow_partner_blind")


def test_sideshow_needs_someone_who_has_bet_before_you():
    rules, state, _ = deal(Asha=TRAIL, Bikash=WEAK, Chandra=RUN)
    state, _ = act(rules, state, ("Asha", "see"), ("Bikash", "see"))
    refused(rules, state, ("Bikash", "sideshow"), "sideshow_no_partner")


def test_sideshow_previous_seen_skips_blind_players_in_classic():
    rules, state, _ = deal("classic", Asha=TRAIL, Bikash=WEAK, Chandra=RUN, Dev=PURE_RUN)
    state, _ = act(rules, state, ("Bikash", "see"), ("Bikash", "chaal"), ("Chandra", "chaal"), ("Dev", "see"))
    state, events = act(rules, state, ("Dev", "sideshow"))
    assert events[0].data["partner"] == "Bikash"
    faras, state, _ = deal("faras", Asha=TRAIL, Bikash=WEAK, Chandra=RUN, Dev=PURE_RUN)
    state, _ = act(faras, state, ("Bikash", "see"), ("Bikash", "chaal"), ("Chandra", "chaal"), ("Dev", "see"))
    refused(faras, state, ("Dev", "sideshow"), "sideshow_partner_blind")


def test_sideshow_off_in_999():
    rules, state = sideshow_table("999")
    assert "sideshow" not in verbs(rules, state)
    refused(rules, state, ("Chandra", "sideshow"), "sideshow_off")


def test_sideshow_pending_only_the_partner_answers_and_only_accept_or_refuse():
    rules, state = sideshow_table()
    refused(rules, state, ("Bikash", "accept"), "no_sideshow_pending")
    refused(rules, state, ("Chandra", "refuse"), "no_sideshow_pending")
    state, _ = act(rules, state, ("Chandra", "sideshow"))
    refused(rules, state, ("Asha", "chaal"), "not_your_turn")
    refused(rules, state, ("Chandra", "accept"), "not_your_turn")
    refused(rules, state, ("Bikash", "chaal"), "sideshow_answer_needed")
    assert verbs(rules, state, "Asha") == ["see"]  # a blind player may still look
    state, _ = act(rules, state, ("Asha", "see"))
    assert rules.to_act(state) == "Bikash"


# --- pot limit ----------------------------------------------------------------------------------------


def test_pot_limit_everyone_still_in_shows_blind_players_included():
    rules, state, _ = deal(pot_limit_boots=6, Asha=TRAIL, Bikash=WEAK, Chandra=RUN)
    state, _ = act(rules, state, ("Bikash", "chaal"))  # pot 40: 4 boots
    state, events = act(rules, state, ("Chandra", "raise", 20))  # pot 60: the limit
    assert [event.kind for event in events] == ["raise", "showdown", "hand_finished"]
    assert events[1].data["reason"] == "pot_limit" and events[1].visible_to is None
    assert set(events[1].data["cards"]) == {"Asha", "Bikash", "Chandra"}
    assert rules.result(state).pots[0].winners == ("Asha",)
    assert stacks(rules, state) == {"Asha": 1050, "Bikash": 980, "Chandra": 970}
    spectator = rules.view(state, None)
    assert all(player["cards"] for player in spectator["players"])


def test_pot_limit_tied_hands_split_odd_chip_to_first_winner_clockwise_after_dealer():
    rules, state, _ = deal(
        boot=5,
        pot_limit_boots=4,
        stacks={"Asha": 100, "Bikash": 100, "Chandra": 100},
        Asha="As 7d 3c",
        Bikash="Ah 7s 3d",
        Chandra="Ac 7h 3s",
    )
    state, events = act(rules, state, ("Bikash", "chaal"))  # pot 20 = 4 boots, three-way tie
    assert events[-1].data["payouts"] == {"Asha": 6, "Bikash": 7, "Chandra": 7}
    assert stacks(rules, state) == {"Asha": 101, "Bikash": 97, "Chandra": 102}
    assert rules.result(state).pots[0].winners == ("Asha", "Bikash", "Chandra")


def test_pot_limit_null_means_no_group_show():
    rules, state, _ = deal(pot_limit_boots=None, Asha=TRAIL, Bikash=WEAK, Chandra=RUN)
    state, _ = act(rules, state, ("Bikash", "raise", 990))
    assert not rules.is_finished(state)


def test_hand_over_refuses_every_action():
    rules, state, _ = deal(dealer=1, Asha=TRAIL, Bikash=RUN)
    state, _ = act(rules, state, ("Asha", "pack"))
    refused(rules, state, ("Bikash", "see"), "hand_over")
    assert rules.to_act(state) is None and rules.legal_actions(state) == []


def test_cards_in_events_use_the_spec_notation():
    rules, state, _ = deal(Asha="Td 9d 8d", Bikash=WEAK, Chandra=RUN)
    state, events = act(rules, state, ("Asha", "see"))
    assert (
        events[1].data["cards"] == [card_text(card) for card in parse_cards(["Td", "9d", "8d"])] == ["Td", "9d", "8d"]
    )
    assert events[1].data["hand"] == {"category": "pure_sequence"}


# --- documented choices (docs/rules.md, "Choices where the books are silent or disagree") ------------


def test_blind_turn_limit_a_player_who_must_see_may_still_pack():
    rules, state, _ = deal(blind_turns=2, Asha=TRAIL, Bikash=PURE_RUN, Chandra=RUN)
    for _ in range(2):
        state, _ = act(rules, state, ("Bikash", "chaal"), ("Chandra", "chaal"), ("Asha", "chaal"))
    assert verbs(rules, state) == ["see", "pack"]
    state, events = act(rules, state, ("Bikash", "pack"))
    assert events[0].data == {"player": "Bikash", "reason": "pack"}
    assert rules.to_act(state) == "Chandra"


def test_blind_show_counts_as_a_blind_bet_and_needs_a_see_at_the_blind_turn_limit():
    rules, state, _ = deal("999", dealer=1, blind_turns=2, Asha="9s 9d 2c", Bikash="Ks Qd Tc")
    for _ in range(2):
        state, _ = act(rules, state, ("Asha", "chaal"), ("Bikash", "chaal"))
    assert "show" not in verbs(rules, state)
    refused(rules, state, ("Asha", "show"), "must_see")
    state, _ = act(rules, state, ("Asha", "see"))
    refused(rules, state, ("Asha", "show"), "show_against_blind")  # Bikash is still blind


def test_sideshow_previous_is_the_player_who_bet_just_before_skipping_packed_players():
    rules, state, _ = deal(Asha=TRAIL, Bikash=WEAK, Chandra=RUN, Dev=PURE_RUN)
    state, _ = act(rules, state, ("Bikash", "see"), ("Dev", "see"), ("Bikash", "chaal"), ("Chandra", "pack"))
    state, events = act(rules, state, ("Dev", "sideshow"))
    assert events[0].data["partner"] == "Bikash"
    state, events = act(rules, state, ("Bikash", "accept"))
    assert events[-1].data == {"player": "Bikash", "reason": "sideshow"}
    assert rules.to_act(state) == "Asha"


def test_pot_limit_reached_by_a_sideshow_makes_everyone_show_and_no_answer_is_awaited():
    rules, state, _ = deal(pot_limit_boots=7, Asha="Ks Kh Kc", Bikash=WEAK, Chandra=RUN)
    state, _ = act(rules, state, ("Bikash", "see"), ("Bikash", "chaal"), ("Chandra", "see"))  # pot 50
    state, events = act(rules, state, ("Chandra", "sideshow"))  # pot 70: the limit
    assert [event.kind for event in events] == ["sideshow", "showdown", "hand_finished"]
    assert events[1].data["reason"] == "pot_limit" and set(events[1].data["cards"]) == {"Asha", "Bikash", "Chandra"}
    assert state.pending is None and rules.is_finished(state)
    assert rules.result(state).pots[0].winners == ("Asha",)


def test_show_whose_bet_reaches_the_pot_limit_is_decided_as_a_show_tie_to_the_player_who_did_not_ask():
    rules, state, _ = deal(dealer=1, pot_limit_boots=5, Asha="As 7d 3c", Bikash="Ah 7s 3d")
    state, _ = act(rules, state, ("Asha", "see"), ("Asha", "chaal"), ("Bikash", "see"))  # pot 40
    state, events = act(rules, state, ("Bikash", "show"))  # pot 60: over the limit, but a show was asked
    assert events[1].data["reason"] == "show"
    assert rules.result(state).pots[0].winners == ("Asha",)
    assert stacks(rules, state) == {"Asha": 1030, "Bikash": 970}


def test_seen_player_two_left_opponent_blind_short_of_a_chaal_must_pack():
    rules, state, _ = deal(dealer=1, stacks={"Asha": 40}, Asha=WEAK, Bikash=TRAIL)
    state, _ = act(rules, state, ("Asha", "see"), ("Asha", "chaal"), ("Bikash", "raise", 30))
    # Asha has 10 left, a seen chaal costs 60, and Bikash is blind: no show can be asked of him.
    assert verbs(rules, state) == ["pack"]
    refused(rules, state, ("Asha", "chaal"), "not_enough_chips")
    refused(rules, state, ("Asha", "show"), "show_against_blind")


def test_raise_double_a_seen_player_pays_two_to_four_times_the_stake():
    rules, state, _ = deal("999", Asha=TRAIL, Bikash=PURE_RUN, Chandra=RUN)
    state, _ = act(rules, state, ("Bikash", "see"))
    assert legal(rules, state, "chaal").cost == 20
    raise_action = legal(rules, state, "raise")
    assert (raise_action.min, raise_action.max, raise_action.cost) == (20, 20, 40)
    state, events = act(rules, state, ("Bikash", "raise", 20))
    assert events[0].data["amount"] == 40 and state.stake == 20


def test_pot_limit_the_boot_is_not_a_bet_the_first_bet_after_it_makes_everyone_show():
    rules, state, _ = deal(pot_limit_boots=3, Asha=TRAIL, Bikash=WEAK, Chandra=RUN)
    assert state.pot == 30 and not rules.is_finished(state)  # the boot alone reaches the limit
    state, _ = act(rules, state, ("Bikash", "pack"))  # a pack is not a bet
    assert rules.to_act(state) == "Chandra"
    state, events = act(rules, state, ("Chandra", "chaal"))
    assert events[1].data["reason"] == "pot_limit" and set(events[1].data["cards"]) == {"Asha", "Chandra"}


def test_show_for_everything_left_a_player_at_no_chips_may_still_ask_for_nothing():
    rules, state, _ = deal(dealer=1, stacks={"Asha": 50}, Asha=TRAIL, Bikash=WEAK)
    state, _ = act(rules, state, ("Asha", "see"), ("Asha", "raise", 20), ("Bikash", "see"), ("Bikash", "chaal"))
    assert stacks(rules, state)["Asha"] == 0
    assert verbs(rules, state) == ["pack", "show"] and legal(rules, state, "show").cost == 0
    state, events = act(rules, state, ("Asha", "show"))
    assert events[0].data["amount"] == 0
    assert stacks(rules, state) == {"Asha": 100, "Bikash": 950}
