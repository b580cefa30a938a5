"""Benchmark: how well the computer players play, and how long they take to decide.

    .venv/bin/python benchmarks/bots.py            # the default run, a few minutes
    .venv/bin/python benchmarks/bots.py --scale 4  # four times the deals: narrower intervals
    .venv/bin/python benchmarks/bots.py --games holdem --scale 2
    .venv/bin/python benchmarks/bots.py --games faras --teen-patti-seats 2 --scale 4   # heads-up
    .venv/bin/python benchmarks/bots.py --games faras classic --variant muflis   # a Teen Patti variant
    .venv/bin/python benchmarks/bots.py ladder --games holdem --seats 2 6   # the ladder (benchmarks/ladder.py)

``bots.py ladder ...`` runs the ladder of ``benchmarks/ladder.py`` with the same arguments:
every strength against every simple opponent of ``benchmarks/baselines.py`` and head to
head, in every game and seat count. What follows describes this script's own run.

Everything runs on the engine alone (no database). For each game a *hero* strategy
plays a *field* of one other strategy, one hand at a time from fresh stacks:

- three seats for the Teen Patti games (the hero and two of the field; Classic is for 3
  to 7 players, book 004), heads-up for hold'em;
- every deck is dealt once for each seat the hero can take (seats rotated, deals
  duplicated: the hero gets the cards and the position each field player had), so the
  luck of the deal largely cancels;
- each rotation is its own session, so a hard player's opponent model grows over the
  run exactly as at a table, from the events its seat may see.

A deck's result is the hero's net chips over all its rotations; the 95% confidence
interval is 1.96 standard errors of those results. Results are in big blinds per 100
hands (hold'em, blinds 10/20) or boots per 100 hands (Teen Patti, boot 10, 100 boots
each, the book's 1,000 chips). Hold'em stacks are drawn per deck (8 to 100 big blinds),
the same for every seat, so the short-stack play is measured too.

It prints:

1. the ladder: hard vs normal, normal vs easy, easy vs a player who calls everything;
2. the opponent model: hard and normal each against a very loose and a very tight
   player on the same decks, the paired difference hard - normal with its interval,
   and the pots each won without a showdown (steals) per 100 hands;
3. decision time per strength (median and 99th percentile) against the engine's own
   time for a whole hand (start, every action's legal moves and apply), measured in
   this run on the same hands. Both are CPU time of this process (``time.process_time``),
   so other work on a shared machine does not inflate them.
"""

from __future__ import annotations

import argparse
import math
import random
import statistics
import sys
import time
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from engine.api import Action
from engine.bots.history import History
from engine.bots.holdem import read_table as read_holdem
from engine.bots.holdem_odds import starting_strength
from engine.bots.selfplay import Computer, Strategy, play_hand
from engine.bots.teenpatti_odds import hand_place
from engine.bots.teenpatti_table import read_table as read_teenpatti
from engine.fairness import seeded_deck
from engine.games import get_game

BIG_BLIND = 20
BOOT = 10
TEEN_PATTI_STACK = 100 * BOOT
HOLDEM_DEPTHS = (8, 15, 25, 50, 100)  # stacks in big blinds, one drawn per deck

# Deals per match in the default run (--scale multiplies them).
DEALS = {"faras": 200, "classic": 200, "999": 200, "holdem": 150}
SEATS = {"faras": 3, "classic": 3, "999": 3, "holdem": 2}


# --- reference players (benchmark only) ----------------------------------------------------------


class CallingStation:
    """Calls everything and never raises or folds. Teen Patti: bets blind until it must
    look, chaals every turn, refuses sideshows, and with two left asks for the show as
    soon as it may (the call-down)."""

    def __call__(
        self, *, game: str, view: Mapping[str, Any], player: str, rng: random.Random, history: History | None
    ) -> Action:
        legal = {entry["verb"] for entry in view["legal"]}
        if game == "holdem":
            for verb in ("check", "call", "allin"):
                if verb in legal:
                    return Action(player, verb)
            return Action(player, "fold")
        if "refuse" in legal:
            return Action(player, "refuse")
        for verb in ("show", "chaal", "see"):
            if verb in legal:
                return Action(player, verb)
        return Action(player, "pack")


class Loose:
    """A very loose player: plays nearly every hand and calls nearly every bet, and raises
    at random now and then."""

    def __call__(
        self, *, game: str, view: Mapping[str, Any], player: str, rng: random.Random, history: History | None
    ) -> Action:
        legal = {entry["verb"]: entry for entry in view["legal"]}
        if game == "holdem":
            table = read_holdem(view, player)
            if rng.random() < 0.15:
                for verb in ("bet", "raise"):
                    if verb in legal:
                        low, high = int(legal[verb]["min"]), int(legal[verb]["max"])
                        return Action(player, verb, min(high, max(low, table.pot)))
            if table.to_call * 3 > table.me.stack + table.me.bet and rng.random() < 0.4:
                return Action(player, "fold" if "check" not in legal else "check")
            for verb in ("check", "call", "allin"):
                if verb in legal:
                    return Action(player, verb)
            return Action(player, "fold")
        tp = read_teenpatti(view, player)
        if "accept" in legal:
            return Action(player, "accept")
        if tp.cards is None:
            if "chaal" not in legal or rng.random() < 0.5:
                return Action(player, "see")
            return Action(player, "chaal")
        if hand_place(tp.cards, tp.settings) < 0.05 and rng.random() < 0.5:
            return Action(player, "pack")
        if "show" in legal and tp.pot >= 20 * tp.boot and rng.random() < 0.4:
            return Action(player, "show")
        if "raise" in legal and rng.random() < 0.2 and tp.me.stack > 10 * tp.stake:
            return Action(player, "raise", int(legal["raise"]["min"]))
        for verb in ("chaal", "show"):
            if verb in legal:
                return Action(player, verb)
        return Action(player, "pack")


class Tight:
    """A very tight player: plays only the best hands, and those firmly; folds the rest
    to any bet."""

    def __call__(
        self, *, game: str, view: Mapping[str, Any], player: str, rng: random.Random, history: History | None
    ) -> Action:
        legal = {entry["verb"]: entry for entry in view["legal"]}
        if game == "holdem":
            table = read_holdem(view, player)
            assert table.me.cards is not None
            strong = starting_strength(table.me.cards) > 0.9
            if table.street == "preflop":
                if strong:
                    for verb in ("raise", "bet"):
                        if verb in legal:
                            return Action(player, verb, int(legal[verb]["min"]))
                    return Action(player, "call" if "call" in legal else "check")
                return Action(player, "check" if "check" in legal else "fold")
            from engine.bots.holdem_odds import Opponent, equity

            win = equity(hole=table.me.cards, board=table.board, opponents=[Opponent(1.0)], rng=rng, trials=60)
            if "check" in legal:
                return Action(player, "check")
            if win > 0.7:
                return Action(player, "call" if "call" in legal else "allin")
            return Action(player, "fold")
        tp = read_teenpatti(view, player)
        if "accept" in legal:
            place = hand_place(tp.cards or [], tp.settings)
            return Action(player, "accept" if place > 0.85 else "refuse")
        if tp.cards is None:
            if "chaal" in legal and tp.me.blind_turns_used < 1:
                return Action(player, "chaal")
            return Action(player, "see")
        place = hand_place(tp.cards, tp.settings)
        if place < 0.75 or (place < 0.88 and tp.stake >= 3 * tp.boot):
            return Action(player, "pack")  # and a raised stake scares it off all but the best
        if "show" in legal and place < 0.9:
            return Action(player, "show")
        if "raise" in legal and place > 0.9 and tp.me.stack > 10 * tp.stake:
            return Action(player, "raise", int(legal["raise"]["min"]))
        for verb in ("chaal", "show"):
            if verb in legal:
                return Action(player, verb)
        return Action(player, "pack")


STRATEGIES: dict[str, Strategy] = {
    "hard": Computer("hard"),
    "normal": Computer("normal"),
    "easy": Computer("easy"),
    "station": CallingStation(),
    "loose": Loose(),
    "tight": Tight(),
}


# --- timing --------------------------------------------------------------------------------------


@dataclass
class Timings:
    decisions: dict[str, list[float]] = field(default_factory=dict)  # strategy -> seconds per decision

    def wrap(self, name: str, strategy: Strategy) -> Strategy:
        times = self.decisions.setdefault(name, [])

        def timed(
            *, game: str, view: Mapping[str, Any], player: str, rng: random.Random, history: History | None
        ) -> Action:
            start = time.process_time()
            action = strategy(game=game, view=view, player=player, rng=rng, history=history)
            times.append(time.process_time() - start)
            return action

        return timed


# --- matches -------------------------------------------------------------------------------------


@dataclass
class MatchResult:
    game: str
    hero: str
    field: str
    per_deck: list[float]  # the hero's net per deck, in big blinds or boots, over its rotations
    hands: int
    steals: int  # pots the hero won without a showdown
    recorded: list[tuple[Any, ...]]  # some hands, to time the engine alone

    @property
    def per_100(self) -> float:
        return 100 * sum(self.per_deck) / self.hands

    @property
    def ci_per_100(self) -> float:
        if len(self.per_deck) < 2:
            return math.inf
        rotations = self.hands / len(self.per_deck)
        return 1.96 * statistics.stdev(self.per_deck) / math.sqrt(len(self.per_deck)) * 100 / rotations


def _won_without_showdown(game_name: str, events: list[Any], hero: str) -> bool:
    if game_name == "holdem":
        shown = any(event.kind in ("show", "muck") for event in events)
        won = any(event.kind == "pot_awarded" and hero in event.data["winners"] for event in events)
        return won and not shown
    finished = events[-1]
    return bool(finished.data["reason"] == "last_player" and finished.data["winners"] == [hero])


def play_match(game_name: str, hero: str, field_name: str, deals: int, seed: str, timings: Timings) -> MatchResult:
    game = get_game(game_name)
    seats = SEATS[game_name]
    unit = BIG_BLIND if game_name == "holdem" else BOOT
    settings: Mapping[str, Any] = (
        {"small_blind": BIG_BLIND // 2, "big_blind": BIG_BLIND}
        if game_name == "holdem"
        else game.settings(
            {"variant": VARIANT[0]} if VARIANT[0] != "none" and game.settings()["ranking"] == "standard" else None
        )
    )
    names = [f"Seat{index + 1}" for index in range(seats)]
    hero_strategy = timings.wrap(hero, STRATEGIES[hero])
    field_strategy = timings.wrap(field_name, STRATEGIES[field_name])
    histories = [dict.fromkeys(names, History()) for _ in range(seats)]  # one session per rotation
    deck_rng = random.Random(f"{seed}|decks")
    per_deck: list[float] = []
    steals = 0
    recorded: list[tuple[Any, ...]] = []
    for deal in range(deals):
        deck = seeded_deck(deck_rng.randrange(2**63))
        depth = deck_rng.choice(HOLDEM_DEPTHS) * BIG_BLIND if game_name == "holdem" else TEEN_PATTI_STACK
        dealer = deal % seats
        net = 0
        for rotation in range(seats):
            hero_name = names[rotation]
            strategies = {name: hero_strategy if name == hero_name else field_strategy for name in names}
            rngs = {name: random.Random(f"{seed}|{deal}|{rotation}|{name}") for name in names}
            played = play_hand(
                game_name=game_name,
                settings=settings,
                players=[(name, depth) for name in names],
                dealer=dealer,
                deck=deck,
                strategies=strategies,
                rngs=rngs,
                histories=histories[rotation],
            )
            histories[rotation] = played.histories
            net += game.result(played.state).stacks[hero_name] - depth
            steals += _won_without_showdown(game_name, played.events, hero_name)
            if len(recorded) < 200:
                actions = _actions_of(game_name, played.events)
                recorded.append((settings, [(name, depth) for name in names], dealer, deck, actions))
        per_deck.append(net / unit)
    return MatchResult(game_name, hero, field_name, per_deck, deals * seats, steals, recorded)


def _actions_of(game_name: str, events: list[Any]) -> list[Action]:
    if game_name == "holdem":
        return [
            Action(event.data["player"], event.data["verb"], event.data["total"])
            if event.data["verb"] in ("bet", "raise")
            else Action(event.data["player"], event.data["verb"])
            for event in events
            if event.kind == "action"
        ]
    from engine.teenpatti import actions_from_events

    return actions_from_events(events)


def engine_seconds_per_hand(game_name: str, recorded: list[tuple[Any, ...]]) -> float:
    """The engine alone on recorded hands: start, then each action's legal moves and apply."""
    game = get_game(game_name)
    best = math.inf
    for _ in range(3):
        start = time.process_time()
        for settings, players, dealer, deck, actions in recorded:
            state, _ = game.start_hand(settings=settings, players=players, dealer=dealer, deck=deck)
            for action in actions:
                game.legal_actions(state)
                state, _ = game.apply(state, action)
        best = min(best, time.process_time() - start)
    return best / max(1, len(recorded))


# --- the report ----------------------------------------------------------------------------------


def _line(result: MatchResult, unit: str) -> str:
    low = result.per_100 - result.ci_per_100
    verdict = (
        "ahead (95%)" if low > 0 else ("behind (95%)" if result.per_100 + result.ci_per_100 < 0 else "not separated")
    )
    return (
        f"  {result.hero:>6} vs {result.field:<7} {result.hands:>6} hands  "
        f"{result.per_100:+8.1f} ± {result.ci_per_100:5.1f} {unit}/100  {verdict}"
    )


def _paired(first: MatchResult, second: MatchResult) -> tuple[float, float]:
    """hard - normal on the same decks, per 100 hands, with its 95% interval."""
    differences = [a - b for a, b in zip(first.per_deck, second.per_deck, strict=True)]
    rotations = first.hands / len(first.per_deck)
    mean = 100 * sum(differences) / first.hands
    ci = 1.96 * statistics.stdev(differences) / math.sqrt(len(differences)) * 100 / rotations
    return mean, ci


def run(games: list[str], scale: float) -> None:
    print(f"Computer players, engine alone; deals scaled x{scale:g}. Python {sys.version.split()[0]}.")
    for game_name in games:
        deals = max(20, round(DEALS[game_name] * scale))
        unit = "bb" if game_name == "holdem" else "boots"
        timings = Timings()
        started = time.perf_counter()
        print(f"\n{game_name}: {SEATS[game_name]} seats, {deals} decks per match, every deck dealt once per seat")
        recorded: list[tuple[Any, ...]] = []
        print(" ladder")
        for hero, field_name in (("hard", "normal"), ("normal", "easy"), ("easy", "station")):
            result = play_match(game_name, hero, field_name, deals, f"{game_name}-{hero}-{field_name}", timings)
            recorded += result.recorded
            print(_line(result, unit), flush=True)
        print(" opponent model (same decks for hard and normal)")
        for field_name in ("loose", "tight"):
            seed = f"{game_name}-model-{field_name}"
            hard = play_match(game_name, "hard", field_name, deals, seed, timings)
            normal = play_match(game_name, "normal", field_name, deals, seed, timings)
            print(_line(hard, unit))
            print(_line(normal, unit))
            mean, ci = _paired(hard, normal)
            print(
                f"    hard - normal vs {field_name}: {mean:+.1f} ± {ci:.1f} {unit}/100; steals per 100 hands: "
                f"hard {100 * hard.steals / hard.hands:.1f}, normal {100 * normal.steals / normal.hands:.1f}",
                flush=True,
            )
        engine_time = engine_seconds_per_hand(game_name, recorded)
        print(f" decision time (engine alone: {engine_time * 1e3:.3f} ms per hand)")
        for name in ("easy", "normal", "hard"):
            times = sorted(timings.decisions.get(name, []))
            if not times:
                continue
            median = statistics.median(times)
            p99 = times[min(len(times) - 1, int(len(times) * 0.99))]
            print(
                f"  {name:>6}: median {median * 1e3:.3f} ms ({median / engine_time:.1f}x a hand), "
                f"p99 {p99 * 1e3:.3f} ms ({p99 / engine_time:.1f}x), {len(times)} decisions"
            )
        print(f" ({time.perf_counter() - started:.0f} s)")


#: The Teen Patti variant Faras and Classic are played with (``--variant``; 999 has none).
VARIANT = ["none"]


def main() -> None:
    if sys.argv[1:2] == ["ladder"]:
        from benchmarks import ladder  # it imports this module: imported here, when asked for

        sys.argv = [f"{sys.argv[0]} ladder", *sys.argv[2:]]
        ladder.main()
        return
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", nargs="+", default=["faras", "classic", "999", "holdem"])
    parser.add_argument("--scale", type=float, default=1.0, help="multiply the number of deals (default 1)")
    parser.add_argument("--teen-patti-seats", type=int, default=3, help="seats at Faras and 999 tables (default 3)")
    parser.add_argument(
        "--variant",
        default="none",
        choices=["none", "muflis", "ak47", "joker", "four_card"],
        help="the Teen Patti variant at Faras and Classic tables (docs/rules.md, Variants)",
    )
    args = parser.parse_args()
    VARIANT[0] = args.variant
    for name in ("faras", "999"):
        SEATS[name] = args.teen_patti_seats
    SEATS["classic"] = max(3, args.teen_patti_seats)
    run(args.games, args.scale)


if __name__ == "__main__":
    main()
