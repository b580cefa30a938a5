"""The calls into the ledger (``ledger.services``), made inside the table's transaction.

The ledger app records buy-ins and cash-outs and checks that the chips at a table
equal the chips bought less the chips cashed out. Its functions are imported by name,
so a rename fails at import (and in mypy), never by silently recording nothing.
"""

from __future__ import annotations

from decimal import Decimal

from ledger.services import ledger_check_invariant, ledger_record_buy_in, ledger_record_cash_out
from tables.models import Seat, Table


def ledger_buy_in(*, table: Table, seat: Seat, chips: int, price: Decimal, is_buy_back: bool) -> None:
    ledger_record_buy_in(table=table, seat=seat, chips=chips, price=price, is_buy_back=is_buy_back)


def ledger_cash_out(*, table: Table, seat: Seat, chips: int) -> None:
    ledger_record_cash_out(table=table, seat=seat, chips=chips)


def ledger_check(*, table: Table, chips_at_table: int) -> None:
    ledger_check_invariant(table=table, chips_at_table=chips_at_table)
