"""Benchmark: the Teen Patti engine's hands per second and three-card comparisons per second.

    .venv/bin/python benchmarks/engine.py [HANDS]

1. Random legal hands of Faras for 3, 6 and 8 players and of 999 for 16 players (stacks
   of 1,000, boot 10, preset settings; every player's choice drawn at random among the
   legal actions, with now and then a blind player looking out of turn) are first
   played and their actions recorded. They are then replayed and timed: ``start_hand``
   and, for every action, ``legal_actions`` and ``apply`` (what a live table does).
   The reference, timed in the same run on the same hands, is the same rules built the
   naive way: each ``apply`` deep-copies the state (``copy.deepcopy``) and every hand is
   scored from scratch (``evaluate_hand``) instead of looked up in the 22,100-hand table.
   Then each Teen Patti variant (Muflis, AK47, Joker, Four-card; docs/rules.md) is played and
   replayed the same way at Faras for 6 players, beside plain Faras: hands per second and
   the ratio to Faras (the joker hands' cache is emptied before each timed replay).
2. Three-card comparisons per second: ``compare_hands`` (two table look-ups) beside two
   from-scratch ``evaluate_hand`` calls, on the same random pairs.

If ``benchmarks/engine_holdem.py`` is there, its benchmark runs afterwards.
"""

from __future__ import annotations

import copy
import importlib.util
import random
import sys
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from unittest import mock

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from engine.api import Action
from engine.fairness import seeded_deck
from engine.teenpatti import hand as teenpatti_hand
from engine.teenpatti import preset_game
from engine.teenpatti import state as teenpatti_state
from engine.teenpatti.ranking import compare_hands, evaluate_hand
from engine.teenpatti.variants import _best_with_jokers

VARIANTS = ("muflis", "ak47", "joker", "four_card")

TABLES = (("faras", 3), ("faras", 6), ("faras", 8), ("999", 16))

Script = tuple[list[tuple[str, int]], int, list[int], list[Action]]


def random_scripts(preset: str, players: int, count: int, seed: int, variant: str = "none") -> list[Script]:
    """Play ``count`` random legal hands and keep their deals and actions."""
    rules = preset_game(preset)
    rng = random.Random(seed)
    settings = rules.settings({"variant": variant})
    names = [f"P{i}" for i in range(players)]
    scripts = []
    for number in range(count):
        seats = [(name, 1000) for name in names]
        dealer = number % players
        deck = seeded_deck(f"{seed}-{preset}-{players}-{number}")
        state, _ = rules.start_hand(settings=settings, players=seats, dealer=dealer, deck=deck)
        actions = []
        while not rules.is_finished(state):
            blind = [
                name for name in names if not state.seen[state.index[name]] and not state.packed[state.index[name]]
            ]
            if blind and rng.random() < 0.1:
                action = Action(rng.choice(blind), "see")
            else:
                player = rules.to_act(state)
                assert player is not None  # the hand is not finished
                pick = rng.choice(rules.legal_actions(state))
                amount = None
                if pick.verb == "raise":
                    assert pick.min is not None and pick.max is not None  # a raise is bounded
                    amount = rng.randrange(pick.min, pick.max + 1, 10)
                action = Action(player, pick.verb, amount)
            state, _ = rules.apply(state, action)
            actions.append(action)
        scripts.append((seats, dealer, deck, actions))
    return scripts


def replay_rate(preset: str, scripts: list[Script], variant: str = "none") -> tuple[float, int]:
    """Hands per second replaying ``scripts`` as a live table would, and the total chips check."""
    rules = preset_game(preset)
    settings = rules.settings({"variant": variant})
    started = time.perf_counter()
    chips = 0
    for seats, dealer, deck, actions in scripts:
        state, _ = rules.start_hand(settings=settings, players=seats, dealer=dealer, deck=deck)
        for action in actions:
            rules.legal_actions(state)
            state, _ = rules.apply(state, action)
        chips += sum(rules.result(state).stacks.values())
    return len(scripts) / (time.perf_counter() - started), chips


class _ScratchTable:
    """Stands in for the precomputed table: scores each hand from scratch when asked."""

    def __init__(self, ranking: str, best_run: str) -> None:
        self.ranking, self.best_run = ranking, best_run

    def __getitem__(self, bits: int) -> int:
        cards = [card for card in range(52) if bits >> card & 1]
        return evaluate_hand(cards, ranking=self.ranking, best_run=self.best_run)


@contextmanager
def naive_engine() -> Iterator[None]:
    """The same rules with a deep copy per action and no ranking table."""
    with (
        mock.patch.object(teenpatti_state.HandState, "copy", copy.deepcopy),
        mock.patch.object(teenpatti_hand, "score_table", _ScratchTable),
    ):
        yield


def comparison_rates(count: int, seed: int) -> tuple[float, float]:
    rng = random.Random(seed)
    pairs = []
    for _ in range(count):
        cards = rng.sample(range(52), 6)
        pairs.append((tuple(cards[:3]), tuple(cards[3:])))
    compare_hands(*pairs[0])  # build the table outside the timing

    def timed(compare: Callable[[Sequence[int], Sequence[int]], int]) -> tuple[float, int]:
        started = time.perf_counter()
        wins = 0
        for first, second in pairs:
            wins += compare(first, second)
        return count / (time.perf_counter() - started), wins

    def from_scratch(first: Sequence[int], second: Sequence[int]) -> int:
        left, right = evaluate_hand(first), evaluate_hand(second)
        return (left > right) - (left < right)

    table_rate, table_wins = timed(compare_hands)
    scratch_rate, scratch_wins = timed(from_scratch)
    assert table_wins == scratch_wins, "the table and the from-scratch evaluation disagree"
    return table_rate, scratch_rate


def main(argv: list[str] | None = None) -> int:
    arguments = sys.argv[1:] if argv is None else argv
    count = int(arguments[0]) if arguments else 2000
    print(f"Teen Patti random legal hands ({count} per table, replayed: start_hand + legal_actions + apply)")
    print(f"  {'table':<18}{'actions/hand':>13}{'engine hands/s':>16}{'naive hands/s':>15}{'ratio':>8}")
    for preset, players in TABLES:
        scripts = random_scripts(preset, players, count, seed=1)
        actions = sum(len(script[3]) for script in scripts) / count
        engine_rate, engine_chips = replay_rate(preset, scripts)
        with naive_engine():
            naive_rate, naive_chips = replay_rate(preset, scripts)
        assert engine_chips == naive_chips == 1000 * players * count
        print(
            f"  {preset + ' x ' + str(players):<18}{actions:>13.1f}{engine_rate:>16,.0f}{naive_rate:>15,.0f}"
            f"{engine_rate / naive_rate:>7.1f}x"
        )
    print(f"Variants at faras x 6 ({count} hands each), beside plain Faras")
    print(f"  {'variant':<18}{'actions/hand':>13}{'engine hands/s':>16}{'vs faras':>10}")
    plain = random_scripts("faras", 6, count, seed=3)
    faras_rate, _chips = replay_rate("faras", plain)
    print(f"  {'none (faras)':<18}{sum(len(s[3]) for s in plain) / count:>13.1f}{faras_rate:>16,.0f}{1:>9.2f}x")
    for variant in VARIANTS:
        scripts = random_scripts("faras", 6, count, seed=3, variant=variant)
        _best_with_jokers.cache_clear()
        rate, chips = replay_rate("faras", scripts, variant)
        assert chips == 1000 * 6 * count
        actions = sum(len(script[3]) for script in scripts) / count
        print(f"  {variant:<18}{actions:>13.1f}{rate:>16,.0f}{rate / faras_rate:>9.2f}x")
    table_rate, scratch_rate = comparison_rates(200_000, seed=2)
    print("Three-card comparisons (200,000 random pairs)")
    print(f"  table look-up   {table_rate:>12,.0f} /s")
    print(f"  from scratch    {scratch_rate:>12,.0f} /s")
    print(f"  ratio           {table_rate / scratch_rate:>12.1f}x")
    if importlib.util.find_spec("benchmarks.engine_holdem") is not None:
        from benchmarks import engine_holdem

        print()
        return engine_holdem.main([])
    return 0


if __name__ == "__main__":
    sys.exit(main())
