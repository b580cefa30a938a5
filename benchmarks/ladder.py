"""Benchmark: every computer strength against the simple opponents of
``benchmarks/baselines.py`` and head to head, with duplicate deals and seats rotated.

    .venv/bin/python benchmarks/ladder.py                          # every game, 2 and 3 seats
    .venv/bin/python benchmarks/ladder.py --games faras --seats 3 --decks 300
    .venv/bin/python benchmarks/ladder.py --games holdem --seats 2 6 --decks 200
    .venv/bin/python benchmarks/ladder.py --memory                 # hard with and without memory

A *match* is one strength (the hero) in one seat and one opponent in all the others. Each
deck is dealt once for every seat the hero can take, with the same dealer (seats rotated,
deals duplicated: the hero gets each opponent's cards and position once), so the luck of
the deal largely cancels. Each rotation is a session of its own: a hard player's opponent
model grows over the decks from the events its seat may see, as at a table. Every hand
starts from fresh stacks: Teen Patti 100 boots (boot 10, each preset's own settings),
hold'em 100 big blinds (blinds 10/20).

A deck's result is the hero's net over its rotations, in boots or big blinds. The figure
printed is per 100 hands with a 95% interval (1.96 standard errors of the decks' results);
"ahead" or "behind" when the interval excludes 0, else "not separated".

It also prints decision time per strength (CPU time, ``time.process_time``: median and
99th percentile) against a reference measured in the same run: the engine's own time for
one hand (start, and each action's legal moves and apply) on hands of this run.
"""

from __future__ import annotations

import argparse
import math
import random
import statistics
import sys
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks.baselines import NAMES, baseline
from benchmarks.bots import engine_seconds_per_hand
from engine.api import Action
from engine.bots import choose_action, wants_to_act
from engine.bots.history import History
from engine.fairness import seeded_deck
from engine.games import get_game

BOOT = 10
BIG_BLIND = 20
STRENGTHS = ("easy", "normal", "hard")

Decide = Callable[[Mapping[str, Any], str, random.Random, History], Action]


@dataclass
class Timer:
    seconds: dict[str, list[float]] = field(default_factory=dict)
    engine_hands: list[tuple[Any, ...]] = field(default_factory=list)


def strategy(game: str, name: str, timer: Timer | None = None) -> Decide:
    """A strength (``hard``, ``normal``, ``easy``) or a baseline's name."""
    if name in STRENGTHS or name == "hard-nomem":
        strength = "hard" if name == "hard-nomem" else name
        times = timer.seconds.setdefault(strength, []) if timer is not None else None

        def computer(view: Mapping[str, Any], player: str, rng: random.Random, history: History) -> Action:
            if times is None:
                return choose_action(game=game, view=view, player=player, strength=strength, rng=rng, history=history)
            start = time.process_time()
            action = choose_action(game=game, view=view, player=player, strength=strength, rng=rng, history=history)
            times.append(time.process_time() - start)
            return action

        return computer
    simple = baseline(name, game)
    return lambda view, player, rng, history: simple(view, player, rng)


def play_one(
    game_name: str,
    settings: Mapping[str, Any],
    players: Sequence[tuple[str, int]],
    dealer: int,
    deck: Sequence[int],
    deciders: Mapping[str, Decide],
    rngs: Mapping[str, random.Random],
    histories: dict[str, History],
    forget: set[str],
) -> tuple[dict[str, int], list[Action]]:
    """One hand; returns each player's net and the actions taken. ``histories`` is updated
    with the events each seat may see (a name in ``forget`` starts every hand afresh)."""
    game = get_game(game_name)
    state, events = game.start_hand(settings=settings, players=players, dealer=dealer, deck=deck)
    names = [name for name, _ in players]
    for name in names:
        start = History() if name in forget else histories[name]
        histories[name] = start.observe_engine_events(events, name)
    actions: list[Action] = []
    while not game.is_finished(state):
        player = game.to_act(state)
        assert player is not None
        view = game.view(state, player)
        if not wants_to_act(view, player):
            raise RuntimeError(f"{player} is to act but has no move")
        action = deciders[player](view, player, rngs[player], histories[player])
        state, events = game.apply(state, action)  # apply checks: an illegal move fails here
        actions.append(action)
        for name in names:
            histories[name] = histories[name].observe_engine_events(events, name)
        if len(actions) > 5000:
            raise RuntimeError("a hand that does not end")
    stacks = game.result(state).stacks
    return {name: stacks[name] - stack for name, stack in players}, actions


@dataclass
class Match:
    game: str
    seats: int
    hero: str
    field: str
    per_deck: list[float]

    @property
    def hands(self) -> int:
        return len(self.per_deck) * self.seats

    @property
    def per_100(self) -> float:
        return 100 * sum(self.per_deck) / self.hands

    @property
    def ci(self) -> float:
        if len(self.per_deck) < 2:
            return math.inf
        return 1.96 * statistics.stdev(self.per_deck) / math.sqrt(len(self.per_deck)) * 100 / self.seats

    def verdict(self) -> str:
        if self.per_100 - self.ci > 0:
            return "ahead"
        if self.per_100 + self.ci < 0:
            return "behind"
        return "not separated"


def play_match(
    game_name: str,
    seats: int,
    hero: str,
    field_name: str,
    decks: int,
    timer: Timer | None = None,
    changes: Mapping[str, Any] | None = None,
) -> Match:
    """``hero`` in one seat and ``field_name`` in the others, every deck dealt once per seat."""
    game = get_game(game_name)
    unit = BIG_BLIND if game_name == "holdem" else BOOT
    if game_name == "holdem":
        settings: Mapping[str, Any] = {"small_blind": BIG_BLIND // 2, "big_blind": BIG_BLIND}
        stack = 100 * BIG_BLIND
    else:
        settings = game.settings(changes)
        stack = 100 * BOOT
    names = [f"S{index + 1}" for index in range(seats)]
    hero_decide = strategy(game_name, hero, timer)
    field_decide = strategy(game_name, field_name, timer)
    sessions = [dict.fromkeys(names, History()) for _ in range(seats)]
    seed = f"ladder|{game_name}|{seats}|{hero}|{field_name}"
    if changes:
        seed += "|" + ",".join(f"{key}={value}" for key, value in sorted(changes.items()))
    deck_rng = random.Random(f"ladder|{game_name}|{seats}|decks")  # the same decks for every match
    per_deck = []
    for number in range(decks):
        deck = seeded_deck(deck_rng.randrange(2**63))
        dealer = number % seats
        net = 0
        for rotation in range(seats):
            hero_name = names[rotation]
            deciders = {name: hero_decide if name == hero_name else field_decide for name in names}
            rngs = {name: random.Random(f"{seed}|{number}|{rotation}|{name}") for name in names}
            forget = {hero_name} if hero == "hard-nomem" else set()
            nets, actions = play_one(
                game_name,
                settings,
                [(name, stack) for name in names],
                dealer,
                deck,
                deciders,
                rngs,
                sessions[rotation],
                forget,
            )
            net += nets[hero_name]
            if timer is not None and len(timer.engine_hands) < 300:
                timer.engine_hands.append((settings, [(name, stack) for name in names], dealer, deck, actions))
        per_deck.append(net / unit)
    return Match(game_name, seats, hero, field_name, per_deck)


def paired(first: Match, second: Match) -> tuple[float, float]:
    """first - second on the same decks, per 100 hands, with its 95% interval."""
    differences = [a - b for a, b in zip(first.per_deck, second.per_deck, strict=True)]
    mean = 100 * sum(differences) / first.hands
    ci = 1.96 * statistics.stdev(differences) / math.sqrt(len(differences)) * 100 / first.seats
    return mean, ci


def line(match: Match) -> str:
    unit = "bb" if match.game == "holdem" else "boots"
    return (
        f"  {match.game:>7} {match.seats} seats  {match.hero:>10} vs {match.field:<8} {match.hands:>6} hands  "
        f"{match.per_100:+9.1f} ± {match.ci:6.1f} {unit}/100  {match.verdict()}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", nargs="+", default=["faras", "classic", "999", "holdem"])
    parser.add_argument("--seats", nargs="+", type=int, default=[2, 3])
    parser.add_argument("--decks", type=int, default=300, help="decks per match (each dealt once per seat)")
    parser.add_argument("--strengths", nargs="+", default=list(STRENGTHS))
    parser.add_argument("--opponents", nargs="*", default=list(NAMES), help="none: head to head only")
    parser.add_argument("--no-h2h", action="store_true", help="skip the head-to-head matches")
    parser.add_argument("--memory", action="store_true", help="also hard without memory, paired on the same decks")
    parser.add_argument(
        "--set",
        nargs="*",
        default=[],
        metavar="KEY=VALUE",
        help="Teen Patti: host settings other than the preset's, e.g. blind_turns=4 (a number, or null)",
    )
    args = parser.parse_args()
    changes = {key: None if value == "null" else int(value) for key, value in (item.split("=", 1) for item in args.set)}
    if changes:
        print(f"Settings changed from each preset's: {changes}")
    print(f"Ladder: {args.decks} decks per match, each dealt once per seat. Python {sys.version.split()[0]}.")
    for game_name in args.games:
        game = get_game(game_name)
        timer = Timer()
        for seats in args.seats:
            if not game.min_players <= seats <= game.max_players:
                continue
            started = time.perf_counter()
            for opponent in args.opponents:
                results = {}
                for hero in args.strengths:
                    results[hero] = play_match(game_name, seats, hero, opponent, args.decks, timer, changes)
                    print(line(results[hero]), flush=True)
                if args.memory and "hard" in results:
                    nomem = play_match(game_name, seats, "hard-nomem", opponent, args.decks, changes=changes)
                    print(line(nomem))
                    mean, ci = paired(results["hard"], nomem)
                    print(f"    memory's worth (hard - hard without memory): {mean:+.1f} ± {ci:.1f}", flush=True)
            if not args.no_h2h:
                for hero, field_name in (("hard", "normal"), ("normal", "easy"), ("hard", "easy")):
                    if hero in args.strengths and field_name in args.strengths:
                        match = play_match(game_name, seats, hero, field_name, args.decks, timer, changes)
                        print(line(match), flush=True)
            print(f"  ({time.perf_counter() - started:.0f} s)")
        reference = engine_seconds_per_hand(game_name, timer.engine_hands)
        print(f" {game_name} decision time (reference: the engine, {reference * 1e3:.3f} ms per hand)")
        for name in STRENGTHS:
            times = sorted(timer.seconds.get(name, []))
            if not times:
                continue
            median = statistics.median(times)
            p99 = times[min(len(times) - 1, int(len(times) * 0.99))]
            print(
                f"  {name:>6}: median {median * 1e3:.3f} ms ({median / reference:.2f}x), "
                f"p99 {p99 * 1e3:.3f} ms ({p99 / reference:.2f}x), {len(times)} decisions",
                flush=True,
            )


if __name__ == "__main__":
    main()
