"""The chip invariant's one statement (``ledger.invariant_sql``) counts what the ORM counts.

Rules pinned: at the end of every hand the chips at the table must equal the chips bought
less the chips cashed out by the entries (the record, a reversal subtracting what it
cancels) AND by the table's running totals; the check reads both in one statement, and
still raises :class:`InvariantError` when either is wrong, naming what it found.
"""

from __future__ import annotations

import random
from decimal import Decimal

import pytest
from django.db import connection, transaction
from django.db.models import F
from django.test.utils import CaptureQueriesContext

from ledger import invariant_sql
from ledger.invariant_sql import ledger_chips_held
from ledger.models import LedgerEntry, TableLedger
from ledger.selectors import ledger_chip_totals
from ledger.services import (
    InvariantError,
    ledger_check_invariant,
    ledger_record_buy_in,
    ledger_record_cash_out,
    ledger_reverse,
)
from tests.ledger.conftest import make_seat

pytestmark = pytest.mark.django_db

TEN = Decimal("10.00")


def _by_the_orm(table) -> tuple[int, int | None]:
    """The two counts as the ORM queries read them (the check before it was one statement)."""
    totals = ledger_chip_totals(table=table)
    summary = TableLedger.objects.filter(table=table).values_list("chips_bought", "chips_cashed_out").first()
    return totals.bought - totals.cashed_out, summary[0] - summary[1] if summary else None


def test_a_table_with_no_entries_holds_nothing_and_has_no_totals(table):
    assert ledger_chips_held(table=table) == _by_the_orm(table) == (0, None)
    ledger_check_invariant(table=table, chips_at_table=0)
    with pytest.raises(InvariantError):
        ledger_check_invariant(table=table, chips_at_table=1)


@pytest.mark.parametrize("seed", range(6))
def test_random_buy_ins_cash_outs_and_reversals_count_as_the_orm_counts(host, table, seed):
    """Entries of every kind, reversals of buy-ins, buy-backs and cash-outs among them."""
    rng = random.Random(seed)
    seats = [make_seat(table, None, f"P{n}", n) for n in range(1, 4)]
    held = dict.fromkeys(seats, 0)
    reversible: list[LedgerEntry] = []
    for _step in range(rng.randrange(5, 25)):
        seat = rng.choice(seats)
        move = rng.random()
        with transaction.atomic():
            if move < 0.45 or not any(held.values()):
                chips = rng.choice([100, 500, 1000])
                price = TEN * chips / 1000
                entry = ledger_record_buy_in(
                    table=table, seat=seat, chips=chips, price=price, is_buy_back=bool(held[seat])
                )
                held[seat] += chips
            elif move < 0.75 and held[seat]:
                chips = rng.randrange(0, held[seat] + 1)
                entry = ledger_record_cash_out(table=table, seat=seat, chips=chips)
                held[seat] -= chips
            elif reversible:
                entry = reversible.pop(rng.randrange(len(reversible)))
                if entry.kind != LedgerEntry.Kind.CASH_OUT and held[entry.seat] < entry.chips:
                    continue  # its chips have been played away: the host would not reverse it
                ledger_reverse(entry=entry, by=host)
                sign = 1 if entry.kind == LedgerEntry.Kind.CASH_OUT else -1
                held[entry.seat] += sign * entry.chips
                continue
            else:
                continue
        reversible.append(entry)
        found = ledger_chips_held(table=table)
        assert found == _by_the_orm(table) == (sum(held.values()), sum(held.values()))
        ledger_check_invariant(table=table, chips_at_table=sum(held.values()))


def test_totals_that_disagree_with_the_entries_fail_the_check(table):
    """The running totals are checked too: entries right, totals off by 5 chips."""
    seat = make_seat(table, None, "Asha", 1)
    ledger_record_buy_in(table=table, seat=seat, chips=1000, price=TEN, is_buy_back=False)
    ledger_check_invariant(table=table, chips_at_table=1000)
    TableLedger.objects.filter(table=table).update(chips_bought=F("chips_bought") + 5)
    assert ledger_chips_held(table=table) == _by_the_orm(table) == (1000, 1005)
    with pytest.raises(InvariantError) as caught:
        ledger_check_invariant(table=table, chips_at_table=1000)
    assert (caught.value.expected, caught.value.found) == (1000, 1005)


def test_entries_that_disagree_with_the_totals_fail_the_check(table):
    """The entries are the record: one written past the totals (not through the service)
    makes the chips at the table, which agree with the totals, wrong."""
    seat = make_seat(table, None, "Asha", 1)
    ledger_record_buy_in(table=table, seat=seat, chips=1000, price=TEN, is_buy_back=False)
    LedgerEntry.objects.create(
        table=table, seat=seat, player_name="Asha", kind=LedgerEntry.Kind.BUY_BACK, chips=300, price=Decimal("3.00")
    )
    assert ledger_chips_held(table=table) == _by_the_orm(table) == (1300, 1000)
    with pytest.raises(InvariantError) as caught:
        ledger_check_invariant(table=table, chips_at_table=1000)
    assert (caught.value.expected, caught.value.found) == (1300, 1000)
    # Chips matching the entries still fail on the totals.
    with pytest.raises(InvariantError) as caught:
        ledger_check_invariant(table=table, chips_at_table=1300)
    assert (caught.value.expected, caught.value.found) == (1300, 1000)


def test_the_check_is_one_statement_and_other_tables_do_not_count(host, table):
    from tests.ledger.conftest import make_table

    other = make_table(host)
    seat, stranger = make_seat(table, None, "Asha", 1), make_seat(other, None, "Bikash", 1)
    ledger_record_buy_in(table=table, seat=seat, chips=1000, price=TEN, is_buy_back=False)
    ledger_record_buy_in(table=other, seat=stranger, chips=500, price=TEN / 2, is_buy_back=False)
    with CaptureQueriesContext(connection) as captured:
        ledger_check_invariant(table=table, chips_at_table=1000)
    assert len(captured.captured_queries) == (1 if connection.vendor in invariant_sql.SUPPORTED_VENDORS else 2)
    assert ledger_chips_held(table=other) == (500, 500)


def test_on_another_database_the_orm_queries_run(monkeypatch, table):
    monkeypatch.setattr(invariant_sql, "SUPPORTED_VENDORS", frozenset())
    seat = make_seat(table, None, "Asha", 1)
    ledger_record_buy_in(table=table, seat=seat, chips=1000, price=TEN, is_buy_back=False)
    assert ledger_chips_held(table=table) == (1000, 1000)
    with pytest.raises(InvariantError):
        ledger_check_invariant(table=table, chips_at_table=999)
