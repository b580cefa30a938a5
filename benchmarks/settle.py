"""Benchmark: the exact fewest-transfers settlement beside a greedy one, for 8, 12 and 16 players.

    .venv/bin/python benchmarks/settle.py [--rounds 20] [--seed 1]

Balances are random whole cents (up to +-500.00) that add up to zero. For each table
size it prints the slowest and mean time of the exact settlement and of the greedy
one, and how many transfers each needed in total (and their ratio). Needs no Django.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from ledger.settlement import greedy_transfers, minimum_transfers


def random_balances(rng: random.Random, players: int) -> dict[str, int]:
    amounts = [rng.randint(-50_000, 50_000) for _ in range(players - 1)]
    amounts.append(-sum(amounts))
    return {f"player{i:02}": amount for i, amount in enumerate(amounts)}


def small_balances(rng: random.Random, players: int) -> dict[str, int]:
    """Whole 5.00 steps, as home games often end: many groups that settle among themselves."""
    amounts = [rng.randint(-6, 6) * 500 for _ in range(players - 1)]
    amounts.append(-sum(amounts))
    return {f"player{i:02}": amount for i, amount in enumerate(amounts)}


def run(
    players: int, rounds: int, rng: random.Random, make: Callable[[random.Random, int], dict[str, int]]
) -> dict[str, float]:
    exact_times, greedy_times = [], []
    exact_count = greedy_count = 0
    for _ in range(rounds):
        balances = make(rng, players)
        started = time.perf_counter()
        exact = minimum_transfers(balances)
        exact_times.append(time.perf_counter() - started)
        started = time.perf_counter()
        greedy = greedy_transfers(balances)
        greedy_times.append(time.perf_counter() - started)
        assert len(exact) <= len(greedy)
        exact_count += len(exact)
        greedy_count += len(greedy)
    return {
        "exact_mean_ms": statistics.mean(exact_times) * 1000,
        "exact_max_ms": max(exact_times) * 1000,
        "greedy_mean_ms": statistics.mean(greedy_times) * 1000,
        "exact_transfers": exact_count,
        "greedy_transfers": greedy_count,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=20)
    parser.add_argument("--seed", type=int, default=1)
    options = parser.parse_args()
    rng = random.Random(options.seed)
    print(f"{options.rounds} random tables per row, seed {options.seed}")
    header = (
        f"{'balances':<10} {'players':>7} {'exact mean':>11} {'exact max':>10} {'greedy mean':>12}"
        f" {'exact transfers':>16} {'greedy transfers':>17} {'greedy/exact':>13}"
    )
    print(header)
    for label, make in (("random", random_balances), ("5.00 steps", small_balances)):
        for players in (8, 12, 16):
            row = run(players, options.rounds, rng, make)
            ratio = row["greedy_transfers"] / row["exact_transfers"]
            print(
                f"{label:<10} {players:>7} {row['exact_mean_ms']:>9.1f}ms {row['exact_max_ms']:>8.1f}ms"
                f" {row['greedy_mean_ms']:>10.3f}ms {row['exact_transfers']:>16} {row['greedy_transfers']:>17}"
                f" {ratio:>13.3f}"
            )


if __name__ == "__main__":
    main()
