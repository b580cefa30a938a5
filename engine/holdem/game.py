"""A whole game of hold'em, hand after hand (rule book 001, "Leaving the table and winning").

This module owns what lies between hands: everyone starts with 1,000 chips; a player
with no chips after a hand leaves the table; the game ends when one player has every
chip, or after ``game_length`` (30 or 60) hands, when the biggest stack wins; the
placings.

A live table keeps a :class:`GameProgress` (a value) and, after each hand, calls
:func:`game_record_hand`; :func:`game_is_over` says when to stop and
:func:`game_placings` gives the final order. :func:`game_play` runs a whole game with
a function choosing every action (computer players, tests, benchmarks).

Placings: players still at the table by chips, most first; then those who went out,
the last one out first. Two or more going out in the same hand are ranked by the
chips they started that hand with, more first. Players level share a place, and the
next place skips (1, 1, 3).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from engine.api import Action, Event, HandPlan, HandResult, LegalAction, TablePosition
from engine.fairness import seeded_deck
from engine.holdem.rules import HOLDEM
from engine.holdem.state import HandState
from engine.holdem.table import STARTING_STACK, holdem_settings


@dataclass(frozen=True, slots=True)
class KnockedOut:
    """A player who went out: in which hand (1 = the first) and with how many chips they started it.

    A player who left the table with chips (or was sent from it) went out too, in the order
    they left (book 001: "placed in the order they went out"): ``left`` counts the leavers
    after hand ``hand_number`` (1 for the first), so a player who left after a hand places
    above those who went broke in it, and a later leaver above an earlier one.
    """

    name: str
    hand_number: int
    chips_at_start_of_hand: int
    left: int = 0


@dataclass(frozen=True, slots=True)
class GameProgress:
    """Where a game stands between hands."""

    seats: tuple[str, ...]  # seat order, every player who sat down
    stacks: tuple[int, ...]  # chips per seat (0: out)
    position: TablePosition  # button, last big blind, hands played
    knocked_out: tuple[KnockedOut, ...] = ()  # in the order they went out


@dataclass(frozen=True, slots=True)
class Placing:
    name: str
    place: int  # 1 is first; players level share a place
    chips: int  # chips at the end (0 for players who went out)


def game_start(*, players: Sequence[str], starting_stack: int = STARTING_STACK) -> GameProgress:
    """A new game: ``players`` in seat order, each with the book's 1,000 chips."""
    if not HOLDEM.min_players <= len(players) <= HOLDEM.max_players:
        raise ValueError(f"Hold'em is for 2 to 6 players, not {len(players)}.")
    if len(set(players)) != len(players):
        raise ValueError("Player names must be different.")
    return GameProgress(
        seats=tuple(players), stacks=(starting_stack,) * len(players), position=TablePosition(), knocked_out=()
    )


def game_is_over(*, progress: GameProgress, settings: Mapping[str, Any]) -> bool:
    """One player (or nobody) has chips, or the hands the host chose have been played."""
    if sum(1 for stack in progress.stacks if stack > 0) <= 1:
        return True
    length = settings.get("game_length")
    return length is not None and progress.position.hands_played >= length


def game_next_hand(*, progress: GameProgress, settings: Mapping[str, Any]) -> HandPlan | None:
    """The plan of the next hand, or ``None`` when the game is over."""
    if game_is_over(progress=progress, settings=settings):
        return None
    seats = list(zip(progress.seats, progress.stacks, strict=True))
    return HOLDEM.plan_hand(settings=settings, seats=seats, previous=progress.position)


def game_record_hand(*, progress: GameProgress, plan: HandPlan, result: HandResult) -> GameProgress:
    """The game after a finished hand: new stacks, the plan's position, who went out."""
    stacks = list(progress.stacks)
    for name, stack in result.stacks.items():
        stacks[progress.seats.index(name)] = stack
    if sum(stacks) != sum(progress.stacks):
        raise ValueError("A hand's result must neither create nor lose chips.")
    hand_number = plan.position.hands_played
    out = [
        KnockedOut(name, hand_number, started)
        for name, started in plan.players
        if result.stacks.get(name, started) == 0
    ]
    # Within one hand, the one who started it with fewer chips goes out first (finishes lower).
    out.sort(key=lambda knocked: knocked.chips_at_start_of_hand)
    return GameProgress(
        seats=progress.seats,
        stacks=tuple(stacks),
        position=plan.position,
        knocked_out=progress.knocked_out + tuple(out),
    )


def game_placings(*, progress: GameProgress) -> list[Placing]:
    """Everyone's place, first place first (see the module's docstring)."""
    ranked: list[tuple[tuple[int, int, int, int], str, int]] = []
    for name, stack in zip(progress.seats, progress.stacks, strict=True):
        if stack > 0:
            ranked.append(((1, stack, 0, 0), name, stack))
    for knocked in progress.knocked_out:
        key = (0, knocked.hand_number, knocked.left, knocked.chips_at_start_of_hand)
        ranked.append((key, knocked.name, 0))
    ranked.sort(key=lambda row: row[0], reverse=True)
    placings: list[Placing] = []
    for index, (key, name, chips) in enumerate(ranked):
        place = index + 1
        if index and key == ranked[index - 1][0]:
            place = placings[-1].place
        placings.append(Placing(name=name, place=place, chips=chips))
    return placings


Chooser = Callable[[HandState, str, list[LegalAction]], Action]


def game_play(
    *,
    players: Sequence[str],
    settings: Mapping[str, Any] | None = None,
    seed: int | str,
    choose: Chooser,
    on_events: Callable[[list[Event]], None] | None = None,
    max_hands: int = 10_000,
) -> tuple[GameProgress, list[Placing]]:
    """Play a whole game: each hand's deck is ``seeded_deck(f"{seed}|{hand number}")`` and
    ``choose(state, player, legal)`` picks every action. Stops after ``max_hands`` at most."""
    settings = holdem_settings(settings)
    progress = game_start(players=players)
    for _ in range(max_hands):
        plan = game_next_hand(progress=progress, settings=settings)
        if plan is None:
            break
        deck = seeded_deck(f"{seed}|{plan.position.hands_played}")
        state, events = HOLDEM.start_hand(settings=plan.settings, players=plan.players, dealer=plan.dealer, deck=deck)
        if on_events:
            on_events(events)
        while state.to_act >= 0:
            player = state.names[state.to_act]
            state, events = HOLDEM.apply(state, choose(state, player, HOLDEM.legal_actions(state)))
            if on_events:
                on_events(events)
        progress = game_record_hand(progress=progress, plan=plan, result=HOLDEM.result(state))
    return progress, game_placings(progress=progress)
