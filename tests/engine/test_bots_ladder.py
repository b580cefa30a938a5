"""Computer players against the simple opponents of ``benchmarks/baselines.py`` (issue 27).

Strength is measured by ``benchmarks/ladder.py``; these tests are small, fixed duplicate
matches (seeded decks, every deck dealt once per seat), so each gives the same result on
every run. They check that the hard player is not beaten by any one-trick opponent where
its margin in the benchmark is wide, that every move it makes against them is legal,
and that with a long memory it still decides from its seat's view alone.
"""

from __future__ import annotations

import random

import pytest

from benchmarks.baselines import NAMES, baseline
from benchmarks.ladder import Timer, play_match, strategy
from engine.bots import History, choose_action
from engine.fairness import seeded_deck
from engine.games import get_game
from tests.engine.test_bots import _swap_hidden_cards


@pytest.mark.parametrize("opponent", NAMES)
def test_hard_beats_each_simple_opponent_at_faras_heads_up(opponent):
    # 40 decks, each dealt to both seats. In the benchmark (300 decks) hard leads every one
    # of these by several times its interval.
    match = play_match("faras", 2, "hard", opponent, 40)
    assert match.hands == 80
    assert match.per_100 > 0, f"hard {match.per_100:+.1f} boots/100 against {opponent}"


@pytest.mark.parametrize("opponent", ["station", "maniac"])
@pytest.mark.parametrize(("game_name", "seats"), [("999", 2), ("classic", 3), ("999", 3), ("faras", 3)])
def test_no_strength_loses_to_a_player_who_never_looks_or_always_raises(game_name, seats, opponent):
    # Heads-up at 999 against the station, who stays blind and never raises, nothing can be
    # won (a seen player may not ask a blind one for a show): even is the best, and the
    # duplicate deal makes it exactly even. The maniac's doubling brings a raise it cannot
    # cover within reach. Three-handed, the first to run dry in a chip race loses all it bet.
    for strength in ("easy", "normal", "hard"):
        match = play_match(game_name, seats, strength, opponent, 12)
        assert match.per_100 >= 0, f"{strength} {match.per_100:+.1f} boots/100 against the {opponent}"


def test_the_simple_opponents_play_legal_moves_in_every_game():
    # play_one applies each move with the engine, which refuses an illegal one.
    for game_name in ("faras", "classic", "999", "holdem"):
        for opponent in NAMES:
            match = play_match(game_name, 3, "easy", opponent, 3)
            assert len(match.per_deck) == 3


def test_ladder_matches_repeat_exactly():
    first = play_match("faras", 3, "hard", "random", 6)
    second = play_match("faras", 3, "hard", "random", 6)
    assert first.per_deck == second.per_deck


@pytest.mark.parametrize("game_name", ["faras", "999", "holdem"])
def test_hard_with_a_long_memory_decides_the_same_whatever_the_cards_it_cannot_see(game_name):
    # Hard's model after many hands against simple opponents; at each of its decisions the
    # cards it may not see are dealt again at random, and it must decide the same.
    game = get_game(game_name)
    rng = random.Random(f"memory-peek-{game_name}")
    settings = {"small_blind": 10, "big_blind": 20} if game_name == "holdem" else game.settings()
    names = ["H", "X", "Y"] if game_name != "999" else ["H", "X"]
    histories = dict.fromkeys(names, History())
    compared = 0
    for number in range(30 if game_name == "holdem" else 60):
        kinds = [NAMES[(number + index) % len(NAMES)] for index in range(len(names))]
        opponents = {name: baseline(kind, game_name) for name, kind in zip(names, kinds, strict=True)}
        state, events = game.start_hand(
            settings=settings,
            players=[(name, 1000) for name in names],
            dealer=number % len(names),
            deck=seeded_deck(rng.randrange(10**9)),
        )
        histories = {name: h.observe_engine_events(events, name) for name, h in histories.items()}
        while not game.is_finished(state):
            player = game.to_act(state)
            assert player is not None
            view = game.view(state, player)
            if player == "H":
                seed = rng.randrange(10**9)
                other = _swap_hidden_cards(game_name, state, player, rng)
                decided = [
                    choose_action(
                        game=game_name,
                        view=game.view(each, player),
                        player=player,
                        strength="hard",
                        rng=random.Random(seed),
                        history=histories[player],
                    )
                    for each in (state, other)
                ]
                assert decided[0] == decided[1]
                compared += 1
                action = decided[0]
            else:
                action = opponents[player](view, player, rng)
            state, events = game.apply(state, action)
            histories = {name: h.observe_engine_events(events, name) for name, h in histories.items()}
    assert histories["H"].record("X").hands > 20
    assert compared > 40


def test_a_ladder_strategy_is_a_computer_or_a_baseline():
    computer = strategy("faras", "hard")
    simple = strategy("faras", "maniac")
    game = get_game("faras")
    state, _ = game.start_hand(
        settings=game.settings(), players=[("A", 1000), ("B", 1000)], dealer=0, deck=seeded_deck(1)
    )
    view = game.view(state, "B")
    assert simple(view, "B", random.Random(1), History()).verb == "raise"
    assert computer(view, "B", random.Random(1), History()).verb in ("chaal", "raise", "see", "pack")


def test_ladder_settings_other_than_the_preset_reach_every_hand():
    # ``--set blind_turns=2``: every hand of the match is dealt under the changed setting,
    # and it changes the play (at the preset, no limit, a station is never made to look).
    timer = Timer()
    changed = play_match("999", 2, "hard", "station", 6, timer, {"blind_turns": 2})
    assert timer.engine_hands, "no hand was recorded"
    assert all(hand[0]["blind_turns"] == 2 for hand in timer.engine_hands)
    assert all(hand[0]["ranking"] == "digits" for hand in timer.engine_hands)  # the rest is the preset's
    looks = [action for hand in timer.engine_hands for action in hand[4] if action.verb == "see"]
    assert looks, "with two blind turns somebody must look"
    assert play_match("999", 2, "hard", "station", 6).per_deck != changed.per_deck
