"""Computer players play every Teen Patti variant legally (docs/computer-players.md): each
decision goes through the engine's check, every hand ends with every chip kept, and a seen
hand's strength is the engine's variant hand (jokers counted, best three of four, Muflis low)."""

from __future__ import annotations

import random

import pytest

from engine.bots import STRENGTHS
from engine.bots.selfplay import Computer, play_hand
from engine.bots.teenpatti_odds import hand_place
from engine.fairness import seeded_deck
from engine.games import get_game

VARIANTS = ("muflis", "ak47", "joker", "four_card")


@pytest.mark.parametrize("variant", VARIANTS)
def test_computers_play_every_variant_legally_and_keep_every_chip(variant):
    rng = random.Random(f"variant-{variant}")
    decisions = 0
    for _ in range(40):
        game_name = rng.choice(["faras", "classic"])
        game = get_game(game_name)
        count = rng.randint(game.min_players, game.max_players)
        names = [f"P{index}" for index in range(count)]
        settings = game.settings({"variant": variant, "pot_limit_boots": rng.choice([None, 16, 64])})
        stacks = [rng.choice([10, 30, 200, 1000]) for _ in names]
        played = play_hand(
            game_name=game_name,
            settings=settings,
            players=list(zip(names, stacks, strict=True)),
            dealer=rng.randrange(count),
            deck=seeded_deck(rng.randrange(10**9)),
            strategies={name: Computer(rng.choice(STRENGTHS)) for name in names},
            rngs={name: random.Random(rng.randrange(10**9)) for name in names},
        )
        assert game.is_finished(played.state)
        assert sum(game.result(played.state).stacks.values()) == sum(stacks)
        decisions += played.decisions
    assert decisions > 100


def test_hand_place_follows_each_variant():
    standard = {"ranking": "standard", "best_run": "AKQ"}
    assert hand_place(["As", "Ad", "Ac"], {**standard, "variant": "muflis"}) < 0.001
    assert hand_place(["5s", "3h", "2d"], {**standard, "variant": "muflis"}) > 0.99
    # AK47: two jokers and a nine are a trail, far above the high card the cards show plainly.
    assert hand_place(["Ks", "Kd", "9c"], {**standard, "variant": "ak47"}) > 0.99
    assert hand_place(["Ks", "Qd", "9c"], standard) < 0.8
    # Joker: with 7h turned, 7s 9d 9c is a trail of nines; without the turned card only a pair.
    assert hand_place(["7s", "9d", "9c"], {**standard, "variant": "joker", "joker": "7h"}) > 0.99
    assert hand_place(["7s", "9d", "9c"], {**standard, "variant": "joker", "joker": "8h"}) < 0.99
    # Four-card: the best three of four.
    assert hand_place(["2s", "Ad", "Ac", "Ah"], {**standard, "variant": "four_card"}) > 0.99
