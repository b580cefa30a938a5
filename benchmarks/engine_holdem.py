"""Benchmark: the hold'em engine against PokerKit, and the hand evaluator against treys.

    .venv/bin/python benchmarks/engine_holdem.py [HANDS]

1. Random 6-player no-limit hands (random stacks and legal actions) are first played
   through both engines in lockstep (tests/engine/test_holdem_pokerkit.py), which
   records each hand's actions and checks the results agree.
2. The recorded hands are then replayed and timed through each engine alone: the
   engine does ``start_hand`` and, for every action, ``legal_actions`` and ``apply``
   (what a live table does); PokerKit creates its state, deals the same cards and
   plays the same operations. Final stacks are compared again, hand for hand.
3. Seven-card evaluations per second: ``engine.holdem.evaluator.hand_value`` beside
   treys' ``Evaluator.evaluate`` on the same random hands.

Prints hands/s for both, their ratio, and evaluations/s. Uses PokerKit and treys
(requirements-dev.txt); the engine itself never imports them.
"""

from __future__ import annotations

import random
import sys
import time
import warnings
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TypeVar

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from engine.api import Action
from engine.holdem import HOLDEM
from engine.holdem.evaluator import hand_value
from engine.holdem.state import HandState
from tests.engine.test_holdem_pokerkit import (
    HandScript,
    play_both,
    pokerkit_payout,
    pokerkit_replay,
    random_table,
)


def engine_replay(script: HandScript) -> tuple[list[int], dict[str, int]]:
    """Final stacks by seat, and what the pots paid each player."""
    settings = {"small_blind": script.small_blind, "big_blind": script.big_blind}
    state, events = HOLDEM.start_hand(settings=settings, players=script.players, dealer=script.button, deck=script.deck)
    paid: dict[str, int] = {}
    actions: list[Action] = script.actions
    for action in actions:
        HOLDEM.legal_actions(state)
        state, new = HOLDEM.apply(state, action)
        events += new
    for event in events:
        if event.kind == "pot_awarded":
            for name, won in event.data["shares"].items():
                paid[name] = paid.get(name, 0) + won
    return list(HOLDEM.result(state).stacks.values()), paid


Item = TypeVar("Item")


def _timed(function: Callable[[Item], object], items: Sequence[Item], repeat: int) -> float:
    best = float("inf")
    for _ in range(repeat):
        start = time.process_time()
        for item in items:
            function(item)
        best = min(best, time.process_time() - start)
    return best


def bench_hands(count: int) -> dict[str, float]:
    rng = random.Random(6)
    scripts = [play_both(random_table(rng, number, players=6), rng) for number in range(count)]
    engine_seconds = _timed(engine_replay, scripts, repeat=3)
    kit_seconds = _timed(pokerkit_replay, scripts, repeat=1)
    identical = accounted = 0
    for script in scripts:
        ours, paid = engine_replay(script)
        kit = pokerkit_replay(script)
        names = [name for name, _ in script.players]
        order = [names[(script.button + 1 + k) % len(names)] for k in range(len(names))]
        state_result = HOLDEM.result(_final_state(script))
        kit_paid = pokerkit_payout(state_result.pots, order)
        expected_kit = [
            stack - paid.get(name, 0) + kit_paid.get(name, 0) for name, stack in zip(names, ours, strict=True)
        ]
        identical += ours == kit
        accounted += expected_kit == kit
    return {
        "hands": count,
        "engine_hands_per_second": count / engine_seconds,
        "pokerkit_hands_per_second": count / kit_seconds,
        "identical": identical,
        "agree_after_odd_chip_accounting": accounted,
    }


def _final_state(script: HandScript) -> HandState:
    settings = {"small_blind": script.small_blind, "big_blind": script.big_blind}
    state, _ = HOLDEM.start_hand(settings=settings, players=script.players, dealer=script.button, deck=script.deck)
    for action in script.actions:
        state, _ = HOLDEM.apply(state, action)
    return state


def bench_evaluator(count: int) -> dict[str, float]:
    from treys import Card, Evaluator

    from engine.cards import card_text

    rng = random.Random(7)
    hands = [rng.sample(range(52), 7) for _ in range(count)]
    start = time.process_time()
    for cards in hands:
        hand_value(cards)
    ours = count / (time.process_time() - start)
    treys_hands = [[Card.new(card_text(c)) for c in cards] for cards in hands]
    evaluator = Evaluator()
    start = time.process_time()
    for cards in treys_hands:
        evaluator.evaluate(cards[:2], cards[2:])
    theirs = count / (time.process_time() - start)
    return {"engine_evaluations_per_second": ours, "treys_evaluations_per_second": theirs}


def main(argv: list[str] | None = None) -> int:
    arguments = sys.argv[1:] if argv is None else argv
    count = int(arguments[0]) if arguments else 1000
    warnings.simplefilter("ignore")
    hands = bench_hands(count)
    ratio = hands["engine_hands_per_second"] / hands["pokerkit_hands_per_second"]
    print(f"6-player no-limit hands: {hands['hands']}")
    print(f"  engine    {hands['engine_hands_per_second']:>10,.0f} hands/s")
    print(f"  pokerkit  {hands['pokerkit_hands_per_second']:>10,.0f} hands/s")
    print(f"  ratio     {ratio:>10.1f}x")
    print(
        f"  results   {hands['identical']} of {count} identical stacks; "
        f"{hands['agree_after_odd_chip_accounting']} agree once PokerKit's merged-pot odd chips are accounted for"
    )
    evaluations = bench_evaluator(200_000)
    print("7-card evaluations:")
    print(f"  engine    {evaluations['engine_evaluations_per_second']:>10,.0f} /s")
    print(f"  treys     {evaluations['treys_evaluations_per_second']:>10,.0f} /s")
    speedup = evaluations["engine_evaluations_per_second"] / evaluations["treys_evaluations_per_second"]
    print(f"  ratio     {speedup:>10.1f}x")
    return 0 if hands["agree_after_odd_chip_accounting"] == count else 1


if __name__ == "__main__":
    sys.exit(main())
