"""The calls into the ledger (``ledger.services``), made inside the table's transaction.

The ledger app records buy-ins and cash-outs and checks that the chips at a table
equal the chips bought less the chips cashed out. It is built beside this app; until
its services exist these calls do nothing, so live play works on its own.
"""

from __future__ import annotations

from decimal import Decimal
from typing import Any

from tables.models import Seat, Table


def _ledger(name: str) -> Any:
    try:
        from ledger import services
    except ImportError:
        return None
    return getattr(services, name, None)


def ledger_buy_in(*, table: Table, seat: Seat, chips: int, price: Decimal, is_buy_back: bool) -> None:
    record = _ledger("ledger_record_buy_in")
    if record is not None:
        record(table=table, seat=seat, chips=chips, price=price, is_buy_back=is_buy_back)


def ledger_cash_out(*, table: Table, seat: Seat, chips: int) -> None:
    record = _ledger("ledger_record_cash_out")
    if record is not None:
        record(table=table, seat=seat, chips=chips)


def ledger_check(*, table: Table, chips_at_table: int) -> None:
    check = _ledger("ledger_check_invariant")
    if check is not None:
        check(table=table, chips_at_table=chips_at_table)
