"""What a table knows of money, and who keeps it: ``tables`` sits below the ledger.

The ledger's rows point at tables and seats, and its services read them; so ``tables`` never
imports the ledger (``tests/test_import_graph.py`` checks the apps' direction). A table still
records every chip it sells and pays out in the same transaction as the move that does it,
through the :class:`Bank` the ledger hands it when the site starts (``ledger.apps``, with
:func:`bank_set`). With no bank set, every money call raises (:func:`bank`): no chip moves
unrecorded. Beside it, pure: the payout tables a host picks by name, and how an amount of
money is written.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from decimal import Decimal
from fractions import Fraction
from typing import TYPE_CHECKING, Protocol

if TYPE_CHECKING:
    from tables.models import Seat, Table


class Bank(Protocol):
    """The ledger's services a table calls, each inside the table's write (its row locked).
    Refusals raise the ledger's errors (a ``ValueError`` with a ``code``); the chip invariant's
    failure raises too, and the write rolls back."""

    def record_buy_in(self, *, table: Table, seat: Seat, chips: int, price: Decimal, is_buy_back: bool) -> None:
        """A stack bought: the first (``is_buy_back=False``) or another one."""

    def record_cash_out(self, *, table: Table, seat: Seat, chips: int) -> None:
        """The chips a seat takes away (leaving, or at the game's end)."""

    def record_prizes(self, *, table: Table, places: Mapping[int, int], payouts: Sequence[int]) -> dict[int, Decimal]:
        """Every player's prize of a pool shared by places: seat id -> the money won."""

    def net_results(self, *, table: Table) -> dict[int, Decimal] | None:
        """Each seat's money result, or ``None`` while there is none to give."""

    def check_invariant(self, *, table: Table, chips_at_table: int) -> None:
        """Raise unless the chips at the table are the chips bought less the chips cashed out."""


_bank: list[Bank] = []


def bank_set(keeper: Bank) -> None:
    """The bank every table records with (the ledger's, set once when the site starts)."""
    _bank[:] = [keeper]


def bank() -> Bank:
    """The bank set by :func:`bank_set`; with none, a table cannot move a chip."""
    if not _bank:
        raise RuntimeError("No bank: the ledger app (ledger.apps) keeps the money of every table.")
    return _bank[0]


#: The payout tables a host may pick by name (book 001 has none: docs/rules.md). Percent of the
#: pool for first place, second, ... ; a host may also give their own.
PAYOUT_PRESETS: dict[str, tuple[int, ...]] = {
    "100": (100,),
    "65/35": (65, 35),
    "50/30/20": (50, 30, 20),
}


def format_minor_units(amount: int, *, digits: int = 2) -> str:
    """``-1350`` -> ``"-13.50"``; with ``digits=0``, ``-1350`` -> ``"-1350"``."""
    sign = "-" if amount < 0 else ""
    whole, part = divmod(abs(amount), 10**digits)
    if digits == 0:
        return f"{sign}{whole}"
    return f"{sign}{whole}.{part:0{digits}d}"


def format_chip_value(value: Fraction, *, digits: int = 2, max_places: int = 12) -> str:
    """A chip's value in currency units (``value`` is in minor units per chip).

    Exact when its decimal expansion ends within ``max_places`` places, else rounded
    half-even to ``max_places`` (for display only: settling uses the exact fraction).
    At least ``digits`` places are shown: ``"0.01"``, ``"0.005"``, ``"0.00"``.
    """
    units = value / 10**digits
    scaled = units * 10**max_places
    rounded = round(scaled)  # Fraction rounds half to even
    text = format_minor_units(rounded, digits=max_places)
    if "." in text:
        head, tail = text.split(".")
        tail = tail.rstrip("0").ljust(digits, "0")
        text = f"{head}.{tail}" if tail else head
    return text
