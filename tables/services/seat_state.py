"""What a seat may do now, asked by several services: is it dealt in, has it buy-backs left."""

from __future__ import annotations

from tables import selectors
from tables.models import Hand, Seat, Table


def players_of(hand: Hand) -> list[str]:
    """The engine names of the players dealt in ``hand`` (from its recorded plan)."""
    return [str(name) for name, _stack in hand.plan["players"]]


def in_live_hand(table: Table, seat: Seat) -> bool:
    """Whether ``seat`` is dealt in the hand being played."""
    hand = selectors.hand_live(table=table)
    return hand is not None and seat.engine_name in players_of(hand)


def buy_backs_left(table: Table, seat: Seat) -> bool:
    """Whether the seat may still buy in again within the table's limit (``None``: no limit)."""
    limit = table.settings.get("buy_backs")
    return limit is None or seat.buy_backs_used < limit
