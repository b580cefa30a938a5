"""The state of one Teen Patti hand: :class:`HandState`, how a finished hand ended
(:class:`Outcome`), the order of the deal, and a hand's cards and label as people read them.

:mod:`engine.teenpatti.hand` deals and plays on it; :mod:`engine.teenpatti.showdown` ends it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from engine.api import PotResult
from engine.cards import card_text
from engine.teenpatti.ranking import hand_label
from engine.teenpatti.settings import Settings
from engine.view_types import HandLabel


@dataclass(frozen=True, slots=True)
class Outcome:
    """How a finished hand ended and who was paid what."""

    reason: str  # "last_player", "show" or "pot_limit"
    winners: tuple[str, ...]
    payouts: tuple[tuple[str, int], ...]
    pots: tuple[PotResult, ...]


class HandState:
    """A hand in play. Per-player lists are indexed by seat order (``names``).

    Treat it as a value: every field is replaced, never changed, by :func:`engine.teenpatti.hand.apply`.
    """

    __slots__ = (
        "acted",
        "bets",
        "blind_used",
        "cards",
        "dealer",
        "game",
        "in_count",
        "index",
        "known_by",
        "labels",
        "names",
        "outcome",
        "packed",
        "pending",
        "pot",
        "public",
        "scores",
        "seen",
        "settings",
        "stacks",
        "stake",
        "start_stacks",
        "turn",
        "turned",
    )

    game: str
    settings: Settings
    names: tuple[str, ...]
    index: dict[str, int]
    dealer: int
    start_stacks: tuple[int, ...]
    cards: tuple[tuple[int, ...], ...]  # three each (Four-card: four), in the order dealt
    scores: tuple[int, ...]
    labels: tuple[HandLabel, ...] | None  # each hand's label under a variant (None: no variant)
    turned: int | None  # the Joker variant's face-up card
    stacks: list[int]  # chips not in the pot
    bets: list[int]  # chips each player has put in the pot this hand, boot included
    seen: list[bool]
    packed: list[bool]
    blind_used: list[int]  # blind bets made (the boot does not count)
    acted: list[bool]  # has made a bet after the boot
    known_by: list[int]  # bit j set: player j has been shown this player's cards (sideshow)
    public: list[bool]  # cards turned up for everyone (show, pot-limit show)
    stake: int
    pot: int
    turn: int  # index of the player to act, -1 when the hand is over
    pending: tuple[int, int] | None  # (asker, partner) of an unanswered sideshow
    in_count: int  # players not packed
    outcome: Outcome | None

    def copy(self) -> HandState:
        """A new state sharing every per-player list with this one. Whoever changes a list
        of the copy replaces it first (``new.stacks = new.stacks.copy()``), so this state
        is never changed: copy on write keeps ``apply`` cheap."""
        new = object.__new__(HandState)
        for name in _FIELDS:
            setattr(new, name, getattr(self, name))
        return new

    def _key(self) -> tuple[Any, ...]:
        return tuple(getattr(self, name) for name in self.__slots__ if name != "index")

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, HandState):
            return NotImplemented
        return self._key() == other._key()

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"<HandState {self.game} to_act={self.to_act!r} pot={self.pot} stake={self.stake}>"

    @property
    def to_act(self) -> str | None:
        return None if self.turn < 0 else self.names[self.turn]

    @property
    def finished(self) -> bool:
        return self.turn < 0


_FIELDS = HandState.__slots__


def deal_order(player_count: int, dealer: int) -> list[int]:
    """Seats in the order they get cards and bet: the player after the dealer first."""
    return [(dealer + 1 + k) % player_count for k in range(player_count)]


def cards_text(state: HandState, seat: int) -> list[str]:
    """``seat``'s cards in the spec's notation, in the order dealt."""
    return [card_text(card) for card in state.cards[seat]]


def hand_label_of(state: HandState, seat: int) -> HandLabel:
    """What ``seat``'s hand is, for people (under a variant: with the three cards it plays)."""
    if state.labels is not None:
        label: HandLabel = {**state.labels[seat]}
        return label
    return hand_label(state.scores[seat], state.settings.ranking)
