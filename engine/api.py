"""The one small API every game's rules share.

A game is a module-like object found by :func:`engine.games.get_game`. Its state is
a value: ``apply`` never changes the state it is given, it returns a new one with
the events the action caused. Everything a caller needs is here:

- :class:`Action`: what a player asks to do (``verb`` from the spec's verb tables).
- :class:`LegalAction`: a verb allowed now, with the least and most amount it takes.
- :class:`Event`: what happened, with ``visible_to`` saying who may see it.
- :class:`RuleError`: every refusal, with a stable ``code`` and a readable message.
- :class:`Game`: the protocol each game implements.
- :func:`is_whole_number`: the one check that a number from JSON is an ``int`` and not ``true``.

Players are named by strings (seat names) that are unique within a hand.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol, TypeGuard


def is_whole_number(value: object) -> TypeGuard[int]:
    """An ``int`` that is not a ``bool``: JSON's ``true`` is not a number of chips or a seat."""
    return isinstance(value, int) and not isinstance(value, bool)


class RuleError(ValueError):
    """An action the rules do not allow. ``code`` is stable; ``message`` is for people."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message

    def to_json(self) -> dict[str, str]:
        return {"code": self.code, "message": self.message}


class SettingsError(ValueError):
    """A game setting outside what the rule books allow. ``field`` names the setting."""

    def __init__(self, field: str, message: str) -> None:
        super().__init__(f"{field}: {message}")
        self.field = field
        self.message = message


@dataclass(frozen=True, slots=True)
class Action:
    """A player's request: ``Action("Asha", "raise", 20)``."""

    player: str
    verb: str
    amount: int | None = None


@dataclass(frozen=True, slots=True)
class LegalAction:
    """A verb the player may use now. ``min``/``max`` bound its amount where it takes one;
    ``cost`` is what it would put in the pot now (for a raise: at ``min``)."""

    verb: str
    min: int | None = None
    max: int | None = None
    cost: int | None = None

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"verb": self.verb}
        if self.min is not None:
            out["min"] = self.min
        if self.max is not None:
            out["max"] = self.max
        return out


@dataclass(frozen=True, slots=True)
class Event:
    """Something that happened in a hand.

    ``visible_to`` is ``None`` when everyone at the table (players and spectators)
    may see it, else the set of player names that may. A viewer who may not see an
    event still learns that it happened (its sequence number), never its data.
    """

    kind: str
    data: Mapping[str, Any] = field(default_factory=dict)
    visible_to: frozenset[str] | None = None

    def visible(self, viewer: str | None) -> bool:
        return self.visible_to is None or (viewer is not None and viewer in self.visible_to)

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"kind": self.kind, **self.data}
        if self.visible_to is not None:
            out["visible_to"] = sorted(self.visible_to)
        return out


@dataclass(frozen=True, slots=True)
class PotResult:
    amount: int
    eligible: tuple[str, ...]
    winners: tuple[str, ...]

    def to_json(self) -> dict[str, Any]:
        return {"amount": self.amount, "eligible": list(self.eligible), "winners": list(self.winners)}


@dataclass(frozen=True, slots=True)
class HandResult:
    """Every player's chips after the pots are paid, and the pots."""

    stacks: Mapping[str, int]
    pots: tuple[PotResult, ...]


@dataclass(frozen=True, slots=True)
class TablePosition:
    """What the hands before leave for the next one's plan (kept by the table)."""

    dealer: str | None = None  # the dealer (hold'em: the button) of the last hand
    big_blind: str | None = None  # hold'em: who posted the big blind in the last hand
    hands_played: int = 0

    def next_dealer(self, names: Sequence[str], dealt_in: Sequence[int]) -> int:
        """Who deals the next hand, as an index into ``dealt_in``: the seats (indices into
        ``names``, every seat at the table in order) of the players dealt in, in seat order.
        The deal moves to the first of them after this position's dealer, going round the
        table; the first of them deals when there was no dealer or the dealer has left."""
        if self.dealer is None or self.dealer not in names:
            return 0
        last = names.index(self.dealer)
        count = len(names)
        for step in range(1, count + 1):
            seat = (last + step) % count
            if seat in dealt_in:
                return dealt_in.index(seat)
        return 0


@dataclass(frozen=True, slots=True)
class HandPlan:
    """Who is dealt in, who deals, and the settings of the next hand (hold'em: its blind level)."""

    players: tuple[tuple[str, int], ...]
    dealer: int
    settings: Mapping[str, Any]
    position: TablePosition  # what to keep for the hand after this one


class Game(Protocol):
    """What every game's rules provide (Teen Patti presets and hold'em alike)."""

    name: str
    min_players: int
    max_players: int

    def settings(self, overrides: Mapping[str, Any] | None = None) -> Mapping[str, Any]:
        """The preset's defaults with ``overrides`` applied; raises :class:`SettingsError`."""

    def plan_hand(
        self, *, settings: Mapping[str, Any], seats: Sequence[tuple[str, int]], previous: TablePosition
    ) -> HandPlan | None:
        """The next hand at a table: ``seats`` are the players taking part, in seat order, with
        their stacks. Players who cannot be dealt in (Teen Patti: fewer chips than the boot;
        hold'em: no chips) are left out; ``None`` when too few remain to play."""

    def deck_for_scenario(
        self,
        *,
        players: Sequence[str],
        dealer: int,
        hands: Mapping[str, Sequence[int]],
        board: Sequence[int] | None,
    ) -> list[int]:
        """A 52-card deck (top first) that deals exactly these ``hands`` (and hold'em ``board``),
        dealing as the rule book says; for the replay format's ``hands`` field."""

    def start_hand(
        self,
        *,
        settings: Mapping[str, Any],
        players: Sequence[tuple[str, int]],
        dealer: int,
        deck: Sequence[int],
    ) -> tuple[Any, list[Event]]:
        """Deal a hand: ``players`` in seat order with their stacks, ``dealer`` an index
        into it, ``deck`` 52 cards top first. Returns the state and the opening events
        (boot or blinds, the deal). A player's cards reach that player only, and only
        when the rules let them look: hold'em hole cards at the deal; Teen Patti cards
        when the player sees (a ``cards`` event), so a look is always recorded."""

    def legal_actions(self, state: Any, player: str | None = None) -> list[LegalAction]:
        """The verbs ``player`` (default: the one to act) may use now."""

    def check(self, state: Any, action: Action) -> None:
        """Raise :class:`RuleError` if the rules do not allow ``action`` now."""

    def apply(self, state: Any, action: Action) -> tuple[Any, list[Event]]:
        """Check, then return the new state and the events. The old state is unchanged."""

    def to_act(self, state: Any) -> str | None:
        """Whose turn it is, or ``None`` when the hand is over."""

    def is_finished(self, state: Any) -> bool: ...

    def result(self, state: Any) -> HandResult:
        """Stacks and pots of a finished hand."""

    def view(self, state: Any, viewer: str | None) -> dict[str, Any]:
        """A JSON-ready picture of the hand as ``viewer`` may see it (``None``: a spectator)."""
