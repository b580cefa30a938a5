"""Each game's TableRules (engine.api) say what its rules do: every property is checked
against the engine's own behaviour, so a rule changed in one place and not the other fails.

Rules pinned: book 000 (Teen Patti): three cards each, a boot, blind or seen play with
``see``, and a player with fewer chips than the boot is not dealt in; book 001 (hold'em):
two hole cards and a board, small and big blinds, a player with any chips is dealt in,
everyone starts with 1,000 play chips.
"""

from __future__ import annotations

import json

import pytest

from engine.api import Action, TablePosition
from engine.games import GAME_NAMES, get_game
from engine.holdem import hand as holdem_hand
from engine.teenpatti import hand as teenpatti_hand


def _start(name: str, players: int = 3):
    game = get_game(name)
    settings = game.settings({})
    names = [f"p{i}" for i in range(players)]
    return (
        game,
        settings,
        game.start_hand(settings=settings, players=[(n, 1000) for n in names], dealer=0, deck=list(range(52))),
    )


@pytest.mark.parametrize("name", GAME_NAMES)
def test_the_verbs_are_the_engines_verbs(name):
    rules = get_game(name).table_rules
    verbs = teenpatti_hand.VERBS if rules.has_blind_and_seen else holdem_hand.VERBS
    assert sorted(rules.action_verbs) == sorted(verbs)
    assert rules.fold_verb in rules.action_verbs
    assert ("see" in rules.action_verbs) == rules.has_blind_and_seen


@pytest.mark.parametrize("name", GAME_NAMES)
def test_hole_cards_board_and_forced_bets_match_a_deal(name):
    game, _settings, (state, _events) = _start(name)
    rules = game.table_rules
    if rules.has_blind_and_seen:
        state, _events = game.apply(state, Action("p1", "see"))  # Teen Patti cards are seen, not shown
    dealt = game.view(state, "p1")
    me = next(player for player in dealt["players"] if player["name"] == "p1")
    assert len(me["cards"]) == rules.hole_cards
    assert ("board" in dealt) == rules.has_board
    assert rules.raise_step_setting in dealt
    if rules.forced_bets == "blinds":
        assert {"small_blind", "big_blind"} <= set(dealt)
    else:
        assert rules.forced_bets == "boot" and "boot" in dealt
    assert ("button" in dealt) == rules.dealer_is_button


@pytest.mark.parametrize("name", GAME_NAMES)
def test_the_fewest_chips_to_be_dealt_in(name):
    """With exactly the minimum a player is dealt in; with one chip less they are left out."""
    game = get_game(name)
    settings = game.settings({})
    fewest = game.table_rules.min_stack_to_play(settings)
    seats = [(f"p{i}", 1000) for i in range(game.min_players)]
    dealt = game.plan_hand(settings=settings, seats=[*seats, ("short", fewest)], previous=TablePosition())
    assert dealt is not None and "short" in [name for name, _stack in dealt.players]
    left_out = game.plan_hand(settings=settings, seats=[*seats, ("short", fewest - 1)], previous=TablePosition())
    assert left_out is not None and "short" not in [name for name, _stack in left_out.players]


def test_holdem_starts_everyone_with_the_same_play_chips_and_teen_patti_lets_the_host_choose():
    holdem = get_game("holdem").table_rules
    assert holdem.fixed_buy_in == 1000 and holdem.play_chips_only and not holdem.rebuys_allowed
    for name in ("faras", "classic", "999"):
        rules = get_game(name).table_rules
        assert rules.fixed_buy_in is None and rules.rebuys_allowed and rules.seating_after_start


@pytest.mark.parametrize("name", GAME_NAMES)
def test_the_page_gets_every_rule_as_json(name):
    game = get_game(name)
    sent = json.loads(json.dumps(game.table_rules.to_json(game.settings({}))))
    # The variant fields are sent worked out for the table's settings, as the minimum stack is.
    worked_out = {"min_stack_setting", "variant_setting", "variant_hole_cards", "variants_turning_a_card"}
    # Which downloads the history page offers is no rule of the table page's.
    history_only = {"poker_hand_histories"}
    fields = set(type(game.table_rules).__dataclass_fields__) - worked_out - history_only
    assert set(sent) == fields | {"min_stack_to_play", "variant", "turns_a_card"}
