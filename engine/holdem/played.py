"""A finished hold'em hand as its event log tells it: the common reading behind the hand
history formats other poker tools read (:mod:`engine.holdem.phh`, :mod:`engine.holdem.pokerstars`).

The input is one hand in the export format (``engine.export.hand_export``: its ``events``,
oldest first, each ``{"kind", "data", ...}``; optionally ``names``, seat id to display
name, and ``seats``, seat id to the number of the seat the player sat in when the hand was
dealt). Only the rules' own events are read (:mod:`engine.holdem.hand` lists them): the
engine's ``hand_started`` (the one with a ``button``), ``blind``, ``hole_cards``, the
engine's ``action`` (the one with a ``total``; a player's recorded request has none),
``uncalled``, ``board``, ``show``, ``muck``, ``pot_awarded`` and ``hand_finished``.
Nothing is worked out again: stacks, pots and winners are the log's.

:func:`played_hand` returns ``None`` for a hand that did not finish (called off when the
game ended): it has no result to write. A log that is not a hold'em hand, or seat numbers
that are not the hand's seat order (:func:`seat_order_check`), raise :class:`HandHistoryError`.

Seat numbers matter to a reader: PokerStars text names no positions, so a reader (PokerKit's
parser, a tracker) puts the players round the table by their seat numbers and finds the
blinds and the turns from the button's seat. Numbers out of the order the hand was dealt in
would have it play another hand; they are refused rather than written.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any


class HandHistoryError(ValueError):
    """An exported hand that cannot be written as a hand history (not hold'em, or no log)."""


@dataclass(frozen=True, slots=True)
class Step:
    """One thing that happened after the blinds, in the log's order.

    ``kind``: ``action`` (``verb`` fold/check/call/bet/raise, ``amount`` put in now,
    ``total`` the player's bet this round after it, ``raise_by`` what it added to the bet
    to call, ``all_in``), ``uncalled`` (``amount`` back to ``player``), ``board``
    (``street``, ``cards`` new, ``board`` all so far), ``show`` (``cards``) or ``muck``.
    """

    kind: str
    player: str = ""
    verb: str = ""
    amount: int = 0
    total: int = 0
    raise_by: int = 0
    all_in: bool = False
    street: str = ""
    cards: tuple[str, ...] = ()
    board: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class Pot:
    amount: int
    eligible: tuple[str, ...]
    winners: tuple[str, ...]
    shares: Mapping[str, int]


@dataclass(frozen=True, slots=True)
class PlayedHand:
    """A finished hand. Players are seat ids in seat order; ``names`` gives who they are."""

    number: int
    table: str
    players: tuple[str, ...]
    starting_stacks: Mapping[str, int]
    button: str
    small_blind: int
    big_blind: int
    blinds: tuple[tuple[str, str, int, bool], ...]  # (player, "small"/"big", amount posted, all in)
    hole_cards: Mapping[str, tuple[str, str]]
    steps: tuple[Step, ...]
    pots: tuple[Pot, ...]  # main pot first
    final_stacks: Mapping[str, int]
    names: Mapping[str, str]
    seats: Mapping[str, int]  # the export's seat numbers; empty when it gave none

    @property
    def board(self) -> tuple[str, ...]:
        boards = [step.board for step in self.steps if step.kind == "board"]
        return boards[-1] if boards else ()

    def won(self, player: str) -> int:
        """Chips ``player`` took from the pots."""
        return sum(pot.shares.get(player, 0) for pot in self.pots)

    def left_of_button(self) -> tuple[str, ...]:
        """The players from the first left of the button round to the button."""
        index = self.players.index(self.button)
        count = len(self.players)
        return tuple(self.players[(index + 1 + k) % count] for k in range(count))

    def shown(self) -> dict[str, tuple[str, ...]]:
        return {step.player: step.cards for step in self.steps if step.kind == "show"}


def seat_order_check(hand: PlayedHand, seats: Mapping[str, int]) -> None:
    """Raise :class:`HandHistoryError` unless ``seats`` gives every player of ``hand`` a
    different seat number from 1, rising round the table in the hand's seat order (from any
    player: the numbers may wrap round once, as 4, 6, 1, 2)."""
    given = [seats.get(player) for player in hand.players]
    numbers = [number for number in given if type(number) is int and number >= 1]
    if len(numbers) != len(given):
        raise HandHistoryError(f"Hand {hand.number}: every player needs a seat number from 1, not {given}.")
    count = len(numbers)
    wraps = sum(1 for index in range(count) if numbers[index] >= numbers[(index + 1) % count])
    if len(set(numbers)) != count or wraps > 1:
        raise HandHistoryError(f"Hand {hand.number}: the seat numbers {numbers} are not the hand's seat order.")


def _data(event: Mapping[str, Any]) -> Mapping[str, Any]:
    data = event.get("data")
    if isinstance(data, Mapping):
        return data
    return {key: value for key, value in event.items() if key not in ("kind", "seq", "visible_to")}


def played_hand(hand: Mapping[str, Any]) -> PlayedHand | None:
    """Read one exported hold'em hand; ``None`` if it did not finish."""
    if hand.get("game") != "holdem":
        raise HandHistoryError(f"Only hold'em hands have a hand history here, not {hand.get('game')!r}.")
    events: Sequence[Mapping[str, Any]] = hand.get("events") or []
    start: Mapping[str, Any] | None = None
    blinds: list[tuple[str, str, int, bool]] = []
    hole: dict[str, tuple[str, str]] = {}
    steps: list[Step] = []
    pots: list[tuple[int, Pot]] = []
    final: Mapping[str, int] | None = None
    current_bet = 0
    for event in events:
        kind, data = event.get("kind"), _data(event)
        if kind == "hand_started" and "button" in data:
            start = data
            current_bet = int(data["big_blind"])
        elif kind == "blind":
            blinds.append((str(data["player"]), str(data["blind"]), int(data["amount"]), bool(data["all_in"])))
        elif kind == "hole_cards":
            first, second = (str(card) for card in data["cards"])
            hole[str(data["player"])] = (first, second)
        elif kind == "action" and "total" in data:
            verb, total = str(data["verb"]), int(data["total"])
            raise_by = total - current_bet if verb in ("bet", "raise") else 0
            if verb in ("bet", "raise"):
                current_bet = total
            steps.append(
                Step(
                    "action",
                    player=str(data["player"]),
                    verb=verb,
                    amount=int(data["amount"]),
                    total=total,
                    raise_by=raise_by,
                    all_in=bool(data["all_in"]),
                )
            )
        elif kind == "uncalled":
            steps.append(Step("uncalled", player=str(data["player"]), amount=int(data["amount"])))
        elif kind == "board":
            current_bet = 0
            steps.append(
                Step(
                    "board",
                    street=str(data["street"]),
                    cards=tuple(str(card) for card in data["cards"]),
                    board=tuple(str(card) for card in data["board"]),
                )
            )
        elif kind == "show":
            steps.append(Step("show", player=str(data["player"]), cards=tuple(str(card) for card in data["cards"])))
        elif kind == "muck":
            steps.append(Step("muck", player=str(data["player"])))
        elif kind == "pot_awarded":
            pot = Pot(
                amount=int(data["amount"]),
                eligible=tuple(str(name) for name in data["eligible"]),
                winners=tuple(str(name) for name in data["winners"]),
                shares={str(name): int(won) for name, won in data["shares"].items()},
            )
            pots.append((int(data["pot"]), pot))
        elif kind == "hand_finished":
            final = {str(name): int(chips) for name, chips in data["stacks"].items()}
    if start is None:
        raise HandHistoryError("The hand's log has no start of a hold'em hand.")
    if final is None:
        return None
    players = tuple(str(player["name"]) for player in start["players"])
    names = hand.get("names") or {}
    seats = hand.get("seats") or {}
    if not isinstance(seats, Mapping):
        raise HandHistoryError(f"Hand {hand.get('hand_number')}: seats must map each player to a seat number.")
    pots.sort(key=lambda numbered: numbered[0])  # paid last side pot first; written main pot first
    played = PlayedHand(
        number=int(hand.get("hand_number", 0)),
        table=str(hand.get("table", "")),
        players=players,
        starting_stacks={str(player["name"]): int(player["stack"]) for player in start["players"]},
        button=str(start["button"]),
        small_blind=int(start["small_blind"]),
        big_blind=int(start["big_blind"]),
        blinds=tuple(blinds),
        hole_cards=hole,
        steps=tuple(steps),
        pots=tuple(pot for _index, pot in pots),
        final_stacks=final,
        names={player: str(names.get(player, player)) for player in players},
        seats=dict(seats),
    )
    if played.seats:
        seat_order_check(played, played.seats)
    return played
