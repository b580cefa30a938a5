"""The ledger's services: append-only entries, reversals, the chip invariant, home games."""

from __future__ import annotations

from decimal import Decimal

import pytest
from django.db import IntegrityError, connection, transaction

from homegames.models import Night
from homegames.services_members import home_game_add_table, home_game_create
from ledger.models import AppendOnlyError, LedgerEntry, TableLedger
from ledger.selectors import ledger_chip_totals, ledger_report
from ledger.services import (
    InvariantError,
    LedgerError,
    ledger_check_invariant,
    ledger_record_buy_in,
    ledger_record_cash_out,
    ledger_reverse,
    transfer_mark_paid,
)
from tests.ledger.conftest import make_seat, make_table, make_user

TEN = Decimal("10.00")


def buy(table, seat, *, again=False, chips=1000, price=TEN):
    """A buy-in as live play does it: a ledger entry and the chips on the seat, in one transaction."""
    with transaction.atomic():
        entry = ledger_record_buy_in(table=table, seat=seat, chips=chips, price=price, is_buy_back=again)
        seat.stack += chips
        seat.save(update_fields=["stack"])
    return entry


def cash_out(table, seat):
    with transaction.atomic():
        entry = ledger_record_cash_out(table=table, seat=seat, chips=seat.stack)
        seat.stack = 0
        seat.save(update_fields=["stack"])
    return entry


def move(winner, loser, chips):
    """A hand's result between two seats (what the engine would settle), no chip created."""
    loser.stack -= chips
    winner.stack += chips
    loser.save(update_fields=["stack"])
    winner.save(update_fields=["stack"])


def stacks(*seats):
    return sum(seat.stack for seat in seats)


# --- Append-only ------------------------------------------------------------------


def test_entry_cannot_be_edited_or_deleted(table):
    """Ledger rule: entries are never edited or deleted; corrections are reversals."""
    seat = make_seat(table, None, "Asha", 1)
    entry = buy(table, seat)
    entry.chips = 5
    with pytest.raises(AppendOnlyError):
        entry.save()
    with pytest.raises(AppendOnlyError):
        entry.delete()
    with pytest.raises(AppendOnlyError):
        LedgerEntry.objects.filter(pk=entry.pk).update(chips=5)
    with pytest.raises(AppendOnlyError):
        LedgerEntry.objects.filter(pk=entry.pk).delete()
    assert LedgerEntry.objects.get(pk=entry.pk).chips == 1000


def test_database_trigger_refuses_update_below_the_orm(table):
    """Ledger rule: the database itself refuses an UPDATE of an entry."""
    seat = make_seat(table, None, "Asha", 1)
    entry = buy(table, seat)
    with pytest.raises(Exception, match="append-only"), transaction.atomic(), connection.cursor() as cursor:
        cursor.execute("UPDATE ledger_ledgerentry SET chips = 1 WHERE id = %s", [entry.pk])
    assert LedgerEntry.objects.get(pk=entry.pk).chips == 1000


@pytest.mark.postgres
def test_postgres_trigger_refuses_delete_below_the_orm(table):
    """Ledger rule: on PostgreSQL the database itself refuses a DELETE of an entry too."""
    seat = make_seat(table, None, "Asha", 1)
    entry = buy(table, seat)
    with pytest.raises(Exception, match="append-only"), transaction.atomic(), connection.cursor() as cursor:
        cursor.execute("DELETE FROM ledger_ledgerentry WHERE id = %s", [entry.pk])
    assert LedgerEntry.objects.filter(pk=entry.pk).exists()


def test_database_constraints_refuse_bad_rows(table):
    """Chips and prices are never negative; a reversal always points at an entry."""
    seat = make_seat(table, None, "Asha", 1)
    with pytest.raises(IntegrityError), transaction.atomic():
        LedgerEntry.objects.create(table=table, seat=seat, player_name="A", kind="buy_in", chips=10, price=-1)
    with pytest.raises(IntegrityError), transaction.atomic():
        LedgerEntry.objects.create(table=table, seat=seat, player_name="A", kind="reversal", chips=10, price=0)
    with pytest.raises(IntegrityError), transaction.atomic():
        LedgerEntry.objects.create(table=table, seat=seat, player_name="A", kind="cash_out", chips=10, price=TEN)
    with pytest.raises(IntegrityError), transaction.atomic():
        LedgerEntry.objects.create(table=table, seat=seat, player_name="A", kind="buy_in", chips=0, price=TEN)
    assert not LedgerEntry.objects.exists()


def test_totals_constraint_refuses_more_chips_out_than_in(table):
    """Invariant, database half: no more chips leave a table than were bought."""
    seat = make_seat(table, None, "Asha", 1)
    buy(table, seat)
    with pytest.raises(LedgerError) as caught:
        ledger_record_cash_out(table=table, seat=seat, chips=1001)
    assert caught.value.code == "chips_created"
    assert not LedgerEntry.objects.filter(kind="cash_out").exists()
    assert TableLedger.objects.get(table=table).chips_cashed_out == 0


@pytest.mark.parametrize(
    ("chips", "price", "code"),
    [(0, TEN, "bad_chips"), (-5, TEN, "bad_chips"), (1.5, TEN, "bad_chips"), (True, TEN, "bad_chips"),
     (1000, 10.0, "bad_price"), (1000, Decimal("-1"), "bad_price"), (1000, Decimal("0.001"), "bad_price"),
     (1000, "ten", "bad_price")],
)  # fmt: skip
def test_bad_buy_in_refused_and_nothing_written(table, chips, price, code):
    seat = make_seat(table, None, "Asha", 1)
    with pytest.raises(LedgerError) as caught:
        ledger_record_buy_in(table=table, seat=seat, chips=chips, price=price, is_buy_back=False)
    assert caught.value.code == code
    assert not LedgerEntry.objects.exists()


def test_seat_of_another_table_refused(host, table):
    other = make_table(host)
    seat = make_seat(other, None, "Asha", 1)
    with pytest.raises(LedgerError) as caught:
        ledger_record_buy_in(table=table, seat=seat, chips=1000, price=TEN, is_buy_back=False)
    assert caught.value.code == "wrong_table"


# --- Reversals ----------------------------------------------------------------------


def test_reversal_cancels_a_mistaken_buy_back_once(host, table):
    """A mistake is corrected by a reversing entry, which cannot be repeated or reversed."""
    seat = make_seat(table, None, "Asha", 1)
    buy(table, seat)
    mistake = buy(table, seat, again=True)
    reversal = ledger_reverse(entry=mistake, by=host, note="pressed twice")
    seat.stack -= 1000
    seat.save()
    assert reversal.reverses == mistake and reversal.chips == 1000
    totals = ledger_chip_totals(table=table)
    assert (totals.bought, totals.cashed_out, totals.paid) == (1000, 0, TEN)
    ledger_check_invariant(table=table, chips_at_table=seat.stack)
    with pytest.raises(LedgerError) as caught:
        ledger_reverse(entry=mistake, by=host)
    assert caught.value.code == "already_reversed"
    with pytest.raises(LedgerError) as caught:
        ledger_reverse(entry=reversal, by=host)
    assert caught.value.code == "reverse_reversal"
    assert LedgerEntry.objects.count() == 3


def test_reversed_cash_out_returns_chips_to_the_table(host, table):
    seat = make_seat(table, None, "Asha", 1)
    buy(table, seat)
    out = cash_out(table, seat)
    ledger_check_invariant(table=table, chips_at_table=0)
    ledger_reverse(entry=out, by=host)
    ledger_check_invariant(table=table, chips_at_table=1000)


# --- The invariant ------------------------------------------------------------------


def test_invariant_holds_through_buy_ins_hands_and_cash_outs(table):
    """Rule: chips at the table == chips bought - chips cashed out, at the end of every hand."""
    asha, bikash = make_seat(table, None, "Asha", 1), make_seat(table, None, "Bikash", 2)
    buy(table, asha)
    buy(table, bikash)
    move(asha, bikash, 1000)
    ledger_check_invariant(table=table, chips_at_table=stacks(asha, bikash))
    buy(table, bikash, again=True)
    move(bikash, asha, 300)
    ledger_check_invariant(table=table, chips_at_table=stacks(asha, bikash))
    cash_out(table, asha)
    ledger_check_invariant(table=table, chips_at_table=stacks(asha, bikash))


def test_invariant_error_names_the_difference(table):
    """A chip created or lost is an error, never a silent adjustment."""
    asha = make_seat(table, None, "Asha", 1)
    buy(table, asha)
    with pytest.raises(InvariantError) as caught:
        ledger_check_invariant(table=table, chips_at_table=999)
    assert (caught.value.expected, caught.value.found, caught.value.code) == (1000, 999, "chips_invariant")


# --- A table simulated through the services and the tables models --------------------


def test_simulated_night_report_matches_the_chips(host, table):
    """A night played through the ledger services and tables models: the report's
    balances are the chips at the end times the chip value, minus what each paid."""
    asha = make_seat(table, host, "Asha", 1)
    bikash = make_seat(table, make_user("bikash"), "Bikash", 2)
    chandra = make_seat(table, None, "Chandra", 3)
    seats = (asha, bikash, chandra)
    for seat in seats:
        buy(table, seat)
    move(asha, bikash, 1000)  # Bikash is out of chips
    ledger_check_invariant(table=table, chips_at_table=stacks(*seats))
    buy(table, bikash, again=True)
    move(asha, bikash, 150)
    move(chandra, bikash, 200)
    ledger_check_invariant(table=table, chips_at_table=stacks(*seats))
    provisional = ledger_report(table=table)
    assert not provisional.is_final and not provisional.error
    for seat in seats:
        cash_out(table, seat)
    ledger_check_invariant(table=table, chips_at_table=0)
    report = ledger_report(table=table)
    assert report.is_final and not report.error
    lines = {line.name: line for line in report.players}
    assert {name: line.chips_end for name, line in lines.items()} == {"Asha": 2150, "Bikash": 650, "Chandra": 1200}
    assert {name: line.net_money for name, line in lines.items()} == {
        "Asha": Decimal("11.50"),
        "Bikash": Decimal("-13.50"),
        "Chandra": Decimal("2.00"),
    }
    assert lines["Bikash"].buy_ins == 2
    assert sum(line.net_money for line in report.players) == 0
    assert [(t.payer_name, t.payee_name, t.amount) for t in report.transfers] == [
        ("Bikash", "Asha", Decimal("11.50")),
        ("Bikash", "Chandra", Decimal("2.00")),
    ]
    # Before the cash-outs the report counted the seats' live stacks: the same chips.
    assert [line.chips_end for line in provisional.players] == [line.chips_end for line in report.players]


def test_report_waits_while_chips_are_in_a_pot(table):
    asha, bikash = make_seat(table, None, "Asha", 1), make_seat(table, None, "Bikash", 2)
    buy(table, asha)
    buy(table, bikash)
    asha.stack -= 10  # the boot is in the pot
    asha.save()
    report = ledger_report(table=table)
    assert report.error and report.transfers == []


# --- Transfers paid and home games ---------------------------------------------------


def _settled_table(host):
    table = make_table(host)
    asha, bikash = make_seat(table, host, "Asha", 1), make_seat(table, None, "Bikash", 2)
    buy(table, asha)
    buy(table, bikash)
    move(asha, bikash, 400)
    cash_out(table, asha)
    cash_out(table, bikash)
    return table, asha, bikash


def test_only_a_party_or_the_host_marks_a_listed_transfer_paid(host):
    """The payer, the payee or the host (tests/ledger/test_transfer_marks.py has the rest)."""
    table, asha, bikash = _settled_table(host)
    stranger = make_user("stranger")
    with pytest.raises(LedgerError) as caught:
        transfer_mark_paid(table=table, payer_seat=bikash, payee_seat=asha, amount=Decimal("4.00"), by=stranger)
    assert caught.value.code == "not_party"
    with pytest.raises(LedgerError) as caught:
        transfer_mark_paid(table=table, payer_seat=bikash, payee_seat=asha, amount=Decimal("5.00"), by=host)
    assert caught.value.code == "no_such_transfer"
    transfer_mark_paid(table=table, payer_seat=bikash, payee_seat=asha, amount=Decimal("4.00"), by=host)
    assert [t.paid for t in ledger_report(table=table).transfers] == [True]


def test_home_game_nights_belong_to_one_home_game(host):
    table, _, _ = _settled_table(host)
    first = home_game_create(name="Friday Faras", host=host)
    second = home_game_create(name="Saturday", host=host)
    home_game_add_table(home_game=first, table=table, by=host)
    with pytest.raises(LedgerError) as caught:
        home_game_add_table(home_game=second, table=table, by=host)
    assert caught.value.code == "already_in_home_game"
    assert Night.objects.get(table=table).home_game == first
    other = make_user("other")
    with pytest.raises(LedgerError):
        home_game_add_table(home_game=first, table=make_table(other), by=host)
    with pytest.raises(LedgerError):
        home_game_create(name="  ", host=host)


def test_every_table_records_with_the_ledger_and_moves_no_chip_without_a_bank(monkeypatch):
    """``tables`` sits below the ledger and records chips through ``tables.money.bank()``: the
    ledger is that bank from the site's start, and with none set a table's money call raises."""
    from ledger.bank import LedgerBank
    from tables import money

    assert isinstance(money.bank(), LedgerBank)
    monkeypatch.setattr(money, "_bank", [])
    with pytest.raises(RuntimeError, match="No bank"):
        money.bank()
