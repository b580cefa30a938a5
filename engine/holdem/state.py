"""The state of one hold'em hand, and where its cards lie in the deck.

:class:`HandState` is what :mod:`engine.holdem.hand` plays on (a value: ``apply`` copies
it) and :mod:`engine.holdem.showdown` pays out from; the positions say which deck card
goes to whom (rule book 001: one card at a time from the left of the button, a burn
before the flop, the turn and the river).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engine.api import HandResult
from engine.cards import NEW_DECK, card_text

STREET_NAMES = ("preflop", "flop", "turn", "river", "finished")
PREFLOP, FLOP, TURN, RIVER, FINISHED = range(5)
CARD_TEXT = tuple(card_text(card) for card in NEW_DECK)  # card -> "As", looked up rather than built


class HandState:
    """The whole of one hand. Treat it as read-only: :func:`engine.holdem.hand.apply` returns a new one.

    Players are seat indices ``0 .. n-1`` in the order given to :func:`engine.holdem.hand.start_hand`.
    """

    __slots__ = (
        "acted_at",
        "awards",
        "bets",
        "big_blind",
        "big_blind_seat",
        "board",
        "button",
        "committed",
        "current_bet",
        "deck",
        "folded",
        "hole",
        "last_aggressor",
        "min_raise",
        "names",
        "result",
        "revealed",
        "seat_of",
        "small_blind",
        "small_blind_seat",
        "stacks",
        "starting_stacks",
        "street",
        "to_act",
    )

    names: tuple[str, ...]
    seat_of: dict[str, int]
    button: int
    small_blind: int
    big_blind: int
    small_blind_seat: int
    big_blind_seat: int
    deck: tuple[int, ...]
    hole: tuple[tuple[int, int], ...]
    board: tuple[int, ...]
    street: int
    starting_stacks: tuple[int, ...]
    stacks: list[int]  # chips behind, not yet in any bet
    bets: list[int]  # chips put in during this betting round
    committed: list[int]  # chips put in during the whole hand (bets included)
    folded: list[bool]
    acted_at: list[int]  # the current bet when the player last acted this round, -1 if not yet
    current_bet: int  # the bet to call this round
    min_raise: int  # the last full bet or raise of this round: a raise adds at least this
    last_aggressor: int  # who last bet or raised in this round, -1 if nobody
    to_act: int  # seat to act, -1 when nobody is (the hand is over)
    revealed: tuple[int, ...]  # seats whose hands everyone has seen
    result: HandResult | None
    # Once the pots are paid: {"payouts": {name: chips won, odd chips included},
    # "best": {winner: {"category", "cards": the five}}} (best is empty without a showdown).
    awards: Mapping[str, Any] | None

    def copy(self) -> HandState:
        new = HandState.__new__(HandState)
        new.names = self.names
        new.seat_of = self.seat_of
        new.button = self.button
        new.small_blind = self.small_blind
        new.big_blind = self.big_blind
        new.small_blind_seat = self.small_blind_seat
        new.big_blind_seat = self.big_blind_seat
        new.deck = self.deck
        new.hole = self.hole
        new.board = self.board
        new.street = self.street
        new.starting_stacks = self.starting_stacks
        new.stacks = self.stacks[:]
        new.bets = self.bets[:]
        new.committed = self.committed[:]
        new.folded = self.folded[:]
        new.acted_at = self.acted_at[:]
        new.current_bet = self.current_bet
        new.min_raise = self.min_raise
        new.last_aggressor = self.last_aggressor
        new.to_act = self.to_act
        new.revealed = self.revealed
        new.result = self.result
        new.awards = self.awards
        return new

    def __repr__(self) -> str:
        return (
            f"HandState(street={STREET_NAMES[self.street]}, to_act={self.to_act}, stacks={self.stacks}, "
            f"bets={self.bets}, committed={self.committed}, board={[CARD_TEXT[c] for c in self.board]})"
        )


# --- dealing -----------------------------------------------------------------------------------


def hole_card_positions(player_count: int, button: int) -> dict[int, tuple[int, int]]:
    """Deck positions of each seat's two hole cards: one card at a time from the left of the button."""
    positions: dict[int, tuple[int, int]] = {}
    for k in range(player_count):
        seat = (button + 1 + k) % player_count
        positions[seat] = (k, player_count + k)
    return positions


def board_positions(player_count: int) -> tuple[int, int, int, int, int]:
    """Deck positions of the five board cards (burns before the flop, turn and river are skipped)."""
    base = 2 * player_count
    return (base + 1, base + 2, base + 3, base + 5, base + 7)


def blind_seats(player_count: int, button: int) -> tuple[int, int]:
    """Small and big blind seats; heads-up the button posts the small blind."""
    if player_count == 2:
        return button, (button + 1) % 2
    return (button + 1) % player_count, (button + 2) % player_count


# --- starting a hand ---------------------------------------------------------------------------
