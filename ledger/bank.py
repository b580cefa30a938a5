"""The ledger as the bank of every table (``tables.money.Bank``): the services a table's
write calls, handed to ``tables`` when the site starts (``ledger.apps``), so that ``tables``
records its chips without importing the ledger, which sits above it."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from decimal import Decimal
from typing import TYPE_CHECKING

from ledger.services import (
    ledger_check_invariant,
    ledger_net_results,
    ledger_record_buy_in,
    ledger_record_cash_out,
    ledger_record_prizes,
)

if TYPE_CHECKING:
    from tables.models import Seat, Table


class LedgerBank:
    """Each call is the ledger's service of the same name (``ledger.services``)."""

    def record_buy_in(self, *, table: Table, seat: Seat, chips: int, price: Decimal, is_buy_back: bool) -> None:
        ledger_record_buy_in(table=table, seat=seat, chips=chips, price=price, is_buy_back=is_buy_back)

    def record_cash_out(self, *, table: Table, seat: Seat, chips: int) -> None:
        ledger_record_cash_out(table=table, seat=seat, chips=chips)

    def record_prizes(self, *, table: Table, places: Mapping[int, int], payouts: Sequence[int]) -> dict[int, Decimal]:
        return {
            entry.seat_id: entry.price for entry in ledger_record_prizes(table=table, places=places, payouts=payouts)
        }

    def net_results(self, *, table: Table) -> dict[int, Decimal] | None:
        return ledger_net_results(table=table)

    def check_invariant(self, *, table: Table, chips_at_table: int) -> None:
        ledger_check_invariant(table=table, chips_at_table=chips_at_table)
