"""Computer players play every Teen Patti variant legally (docs/computer-players.md): each
decision goes through the engine's check, every hand ends with every chip kept, and a seen
hand's strength is the engine's variant hand (jokers counted, best three of four, Muflis low)."""

from __future__ import annotations

import random

import pytest

from engine.bots import STRENGTHS, History
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
    # AK47: two jokers and a nine are a trail: high even among AK47 hands, where many
    # hands hold a joker; the same three cards read plainly are a middling high card.
    ak47 = {**standard, "variant": "ak47"}
    assert hand_place(["Ks", "Kd", "9c"], ak47) > 0.85
    assert hand_place(["Ks", "Qd", "9c"], standard) < 0.8
    # a plain pair is worth less among AK47 hands (full of jokers) than among plain hands
    assert hand_place(["9s", "9d", "2c"], ak47) < hand_place(["9s", "9d", "2c"], standard)
    # Joker: with 7h turned, 7s 9d 9c is a trail of nines; with 8h turned only a pair of nines.
    assert hand_place(["7s", "9d", "9c"], {**standard, "variant": "joker", "joker": "7h"}) > 0.9
    assert hand_place(["7s", "9d", "9c"], {**standard, "variant": "joker", "joker": "8h"}) < 0.9
    # Four-card: the best three of four; a pair is worth less where everyone holds four cards.
    four = {**standard, "variant": "four_card"}
    assert hand_place(["2s", "Ad", "Ac", "Ah"], four) > 0.99
    assert hand_place(["2s", "5d", "9c", "9h"], four) < hand_place(["5d", "9c", "9h"], standard)


def test_the_history_reads_shown_hands_as_the_variant_ranks_them():
    players = [{"name": "Asha", "stack": 100}, {"name": "Bikash", "stack": 100}]

    def read(variant: str, shown: list[str], turned: str | None = None) -> float:
        settings = {"ranking": "standard", "best_run": "AKQ", "variant": variant}
        events = [{"kind": "hand_started", "players": players, "settings": settings}]
        if turned:
            events.append({"kind": "joker", "card": turned, "rank": turned[0]})
        events += [
            {"kind": "see", "player": "Asha"},
            {"kind": "chaal", "player": "Asha", "blind": False},
            {"kind": "showdown", "reason": "show", "cards": {"Asha": shown, "Bikash": ["2s", "3d", "5h"]}},
        ]
        return History().observe_all(events).record("Asha").shown_places

    assert read("muflis", ["As", "Ad", "Ah"]) < 0.01  # the worst hand of Muflis
    assert read("joker", ["7s", "9d", "9c"], turned="7h") > read("joker", ["7s", "9d", "9c"], turned="8h")
    assert read("four_card", ["2s", "Ad", "Ac", "Ah"]) > 0.99
