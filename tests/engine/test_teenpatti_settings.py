"""Settings: the spec's table, the three presets' defaults, ranges and player counts."""

import pytest

from engine.api import Action, SettingsError, TablePosition
from engine.cards import parse_card, parse_cards
from engine.fairness import seeded_deck
from engine.games import get_game
from engine.teenpatti import preset_game


def test_presets_have_the_spec_table_defaults():
    assert preset_game("faras").settings() == {
        "boot": 10, "blind_turns": 4, "stake_limit": None, "pot_limit_boots": 1024, "raise": "any",
        "sideshow": "previous", "blind_show": False, "best_run": "AKQ", "ranking": "standard",
    }  # fmt: skip
    assert preset_game("classic").settings() == {
        "boot": 10, "blind_turns": None, "stake_limit": None, "pot_limit_boots": None, "raise": "double",
        "sideshow": "previous_seen", "blind_show": True, "best_run": "AKQ", "ranking": "standard",
    }  # fmt: skip
    assert preset_game("999").settings() == {
        "boot": 10, "blind_turns": None, "stake_limit": None, "pot_limit_boots": None, "raise": "double",
        "sideshow": "off", "blind_show": True, "best_run": "A23", "ranking": "digits",
    }  # fmt: skip


def test_get_game_finds_the_presets():
    for name in ("faras", "classic", "999"):
        assert get_game(name).name == name


@pytest.mark.parametrize(("name", "low", "high"), [("faras", 2, 8), ("classic", 3, 7), ("999", 2, 16)])
def test_player_counts_per_preset(name, low, high):
    rules = preset_game(name)
    assert (rules.min_players, rules.max_players) == (low, high)
    for count in (low - 1, high + 1):
        with pytest.raises(SettingsError) as caught:
            rules.start_hand(
                settings=rules.settings(), players=[(f"P{i}", 100) for i in range(count)], dealer=0,
                deck=seeded_deck(1),
            )  # fmt: skip
        assert caught.value.field == "players"
    for count in (low, high):
        state, _ = rules.start_hand(
            settings=rules.settings(), players=[(f"P{i}", 100) for i in range(count)], dealer=0, deck=seeded_deck(1)
        )
        assert len(state.names) == count


@pytest.mark.parametrize(
    ("overrides", "field"),
    [
        ({"boot": 0}, "boot"),
        ({"boot": 101}, "boot"),
        ({"boot": "10"}, "boot"),
        ({"boot": True}, "boot"),
        ({"blind_turns": 1}, "blind_turns"),
        ({"blind_turns": 7}, "blind_turns"),
        ({"stake_limit": 15}, "stake_limit"),
        ({"stake_limit": 10}, "stake_limit"),
        ({"pot_limit_boots": 1}, "pot_limit_boots"),
        ({"raise": "triple"}, "raise"),
        ({"sideshow": "on"}, "sideshow"),
        ({"blind_show": "yes"}, "blind_show"),
        ({"best_run": "KQJ"}, "best_run"),
        ({"ranking": "poker"}, "ranking"),
        ({"small_blind": 5}, "small_blind"),
    ],
)
def test_settings_out_of_range_are_refused_naming_the_field(overrides, field):
    with pytest.raises(SettingsError) as caught:
        preset_game("faras").settings(overrides)
    assert caught.value.field == field
    assert caught.value.message


@pytest.mark.parametrize(
    "overrides",
    [
        {"boot": 1},
        {"boot": 100},
        {"blind_turns": 2},
        {"blind_turns": 6},
        {"blind_turns": None},
        {"stake_limit": 640},
        {"pot_limit_boots": None},
        {"sideshow": "off"},
        {"best_run": "A23"},
    ],
)
def test_settings_in_range_are_kept(overrides):
    settings = preset_game("faras").settings(overrides)
    assert {key: settings[key] for key in overrides} == overrides


def test_start_hand_refuses_bad_settings_naming_the_field():
    rules = preset_game("faras")
    settings = dict(rules.settings(), boot=500)
    with pytest.raises(SettingsError) as caught:
        rules.start_hand(settings=settings, players=[("A", 1000), ("B", 1000)], dealer=0, deck=seeded_deck(1))
    assert caught.value.field == "boot"


@pytest.mark.parametrize(
    ("players", "dealer", "deck", "field"),
    [
        ([("A", 100), ("A", 100)], 0, seeded_deck(1), "players[1].name"),
        ([("A", 100), ("", 100)], 0, seeded_deck(1), "players[1].name"),
        ([("A", 100), ("B", -1)], 0, seeded_deck(1), "players[1].stack"),
        ([("A", 100), ("B", 100)], 2, seeded_deck(1), "dealer"),
        ([("A", 100), ("B", 100)], 0, seeded_deck(1)[:51], "deck"),
        ([("A", 100), ("B", 100)], 0, [0] * 52, "deck"),
    ],
)
def test_start_hand_refuses_a_hand_that_cannot_be_dealt(players, dealer, deck, field):
    rules = preset_game("faras")
    with pytest.raises(SettingsError) as caught:
        rules.start_hand(settings=rules.settings(), players=players, dealer=dealer, deck=deck)
    assert caught.value.field == field


# --- the table around the hands -----------------------------------------------------------------


FIRST_HAND = TablePosition()


def plan(seats, previous=FIRST_HAND, **settings):
    rules = preset_game("faras")
    return rules.plan_hand(settings=rules.settings(settings), seats=seats, previous=previous)


def test_plan_first_hand_the_first_player_deals():
    result = plan([("A", 100), ("B", 100), ("C", 100)])
    assert result.players == (("A", 100), ("B", 100), ("C", 100))
    assert result.dealer == 0 and result.position.dealer == "A" and result.position.hands_played == 1


def test_plan_dealer_moves_one_seat_each_hand():
    seats = [("A", 100), ("B", 100), ("C", 100)]
    position = TablePosition()
    dealers = []
    for _ in range(4):
        result = plan(seats, position)
        dealers.append(result.players[result.dealer][0])
        position = result.position
    assert dealers == ["A", "B", "C", "A"]
    assert position.hands_played == 4


def test_plan_player_with_fewer_chips_than_the_boot_is_not_dealt_in():
    result = plan([("A", 100), ("B", 9), ("C", 10)], TablePosition(dealer="A", hands_played=1))
    assert result.players == (("A", 100), ("C", 10))
    assert result.players[result.dealer][0] == "C"  # B is skipped for the deal too


def test_plan_too_few_players_with_a_boot_means_no_hand():
    assert plan([("A", 100), ("B", 9)]) is None


def test_plan_chips_carry_from_hand_to_hand():
    rules = preset_game("faras")
    seats = [("A", 100), ("B", 100)]
    first = rules.plan_hand(settings=rules.settings(), seats=seats, previous=TablePosition())
    state, _ = rules.start_hand(
        settings=first.settings, players=first.players, dealer=first.dealer, deck=seeded_deck(2)
    )
    state, _ = rules.apply(state, Action(rules.to_act(state), "pack"))
    stacks = rules.result(state).stacks
    second = rules.plan_hand(settings=first.settings, seats=list(stacks.items()), previous=first.position)
    assert dict(second.players) == stacks == {"A": 110, "B": 90}
    assert second.players[second.dealer][0] == "B"


def test_deck_for_scenario_deals_the_given_hands():
    rules = preset_game("classic")
    hands = {
        "A": parse_cards(["As", "Ad", "Ah"]),
        "B": parse_cards(["2h", "3h", "4h"]),
        "C": parse_cards(["Qs", "Kd", "Ac"]),
    }
    for dealer in range(3):
        deck = rules.deck_for_scenario(players=["A", "B", "C"], dealer=dealer, hands=hands, board=None)
        assert sorted(deck) == list(range(52))
        state, _ = rules.start_hand(settings=rules.settings(), players=[("A", 99), ("B", 99), ("C", 99)],
                                    dealer=dealer, deck=deck)  # fmt: skip
        assert state.cards == tuple(tuple(hands[name]) for name in "ABC")


@pytest.mark.parametrize(
    ("hands", "board", "field"),
    [
        ({"A": ["As", "Ad", "Ah"]}, None, "hands.B"),
        ({"A": ["As", "Ad"], "B": ["2h", "3h", "4h"]}, None, "hands.A"),
        ({"A": ["As", "Ad", "Ah"], "B": ["As", "3h", "4h"]}, None, "hands.B"),
        ({"A": ["As", "Ad", "Ah"], "B": ["2h", "3h", "4h"], "Z": ["5h", "6h", "7h"]}, None, "hands.Z"),
        ({"A": ["As", "Ad", "Ah"], "B": ["2h", "3h", "4h"]}, ["5h", "6h", "7h", "8h", "9h"], "board"),
    ],
)
def test_deck_for_scenario_refuses_bad_hands_naming_the_field(hands, board, field):
    rules = preset_game("faras")
    with pytest.raises(SettingsError) as caught:
        rules.deck_for_scenario(
            players=["A", "B"],
            dealer=0,
            hands={name: [parse_card(card) for card in cards] for name, cards in hands.items()},
            board=None if board is None else parse_cards(board),
        )
    assert caught.value.field == field
