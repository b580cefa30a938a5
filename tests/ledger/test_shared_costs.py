"""A shared cost is a ledger line of its own (docs/ledger.md, "Shared costs"): written only by
``ledger_record_cost``, counted in the ledger's report of its table (nets, transfers, the
report's page and CSV, the transfers a host may mark paid), and audited by ``ledger_check``.
The kitchen night's page is read as a person would and compared with the ledger to the cent."""

from __future__ import annotations

import re
from decimal import Decimal
from io import StringIO

import pytest
from django.core.management import CommandError, call_command
from django.db.models import QuerySet
from django.urls import reverse
from django.utils import timezone

from homegames.checks import ledger_problems
from kitchen.services import kitchen_cost_add
from ledger.models import AppendOnlyError, SharedCost
from ledger.selectors import ledger_report
from ledger.services import LedgerError, ledger_record_cost, transfer_mark_paid
from ledger.settlement import minimum_transfers
from tables.models import Event, Seat, Table
from tests.kitchen.conftest import host_seat, make_user
from tests.kitchen.test_season_costs import cents, csv_rows, kitchen_cash_night, night_nets, table_rows
from tests.ledger.conftest import make_seat, make_table


@pytest.fixture
def users(db):
    return {name: make_user(name.lower()) for name in ("Asha", "Bikash", "Chandra", "Dipa")}


@pytest.fixture
def cash_night(users):
    """Six people, a 25.03 pizza Chandra paid shared by five, settled (tests.kitchen.test_season_costs)."""
    return kitchen_cash_night(users["Asha"], users)


def page_transfers(page: str) -> list[tuple[str, str, int]]:
    return sorted(
        (payer, payee, cents(amount))
        for payer, payee, amount in re.findall(r"<li>(\w+) pays (\w+) ([\d.]+)</li>", page)
    )


def test_the_ledgers_report_is_the_night_pages_settle_up_to_the_cent(client, users, cash_night):
    table, chips, costs = cash_night
    client.force_login(users["Asha"])
    page = client.get(reverse("kitchen:night", kwargs={"code": table.code})).content.decode()
    shown = {
        name: tuple(cents(cells[label]) for label in ("Chips", "Share of costs", "Paid for costs", "Net"))
        for name, cells in table_rows(page, "kitchen-settle").items()
    }
    report = ledger_report(table=table)
    in_ledger = {
        line.name: tuple(int(money * 100) for money in (line.net_money, line.cost_share, line.costs_paid, line.net))
        for line in report.players
    }
    assert in_ledger == shown
    assert {name: net for name, (_c, _s, _p, net) in in_ledger.items()} == night_nets(chips, costs)
    assert {name: chips_result for name, (chips_result, _s, _p, _n) in in_ledger.items()} == chips
    listed = sorted((t.payer_name, t.payee_name, int(t.amount * 100)) for t in report.transfers)
    assert listed == page_transfers(page) and listed
    [cost] = report.costs
    assert (cost.cost.what, cost.cost.amount, cost.cost.paid_by.display_name) == ("Pizza", Decimal("25.03"), "Chandra")
    assert {name: int(share * 100) for name, share in cost.sharers} == costs[0][2]

    # The ledger's own page and CSV of the table say the same, the costs apart.
    report_page = client.get(reverse("ledger:table_report", kwargs={"code": table.code})).content.decode()
    assert "Share of costs" in report_page and "Paid for costs" in report_page
    rows = csv_rows(client.get(reverse("ledger:table_report_csv", kwargs={"code": table.code})))
    header = rows[0]
    assert header[-6:] == ["Bought for", "Chips", "Share of costs", "Paid for costs", "Net", "Currency"]
    csv_nets = {row[0]: cents(row[header.index("Net")]) for row in rows[1 : rows.index([])]}
    assert csv_nets == night_nets(chips, costs)
    csv_transfers = sorted((row[0], row[1], cents(row[2])) for row in rows[rows.index([]) + 2 :] if row)
    assert csv_transfers == listed


def test_a_host_may_mark_paid_only_the_transfers_that_count_the_costs(users, cash_night):
    table, chips, _costs = cash_night
    report = ledger_report(table=table)
    seats = {seat.display_name: seat for seat in Seat.objects.filter(table=table)}
    chips_only = {f"{seats[name].pk:012d}": result for name, result in chips.items()}
    listed = {(t.payer_seat_id, t.payee_seat_id, t.amount) for t in report.transfers}
    without_costs = {
        (int(t.payer), int(t.payee), Decimal(t.amount) / 100) for t in minimum_transfers(chips_only)
    } - listed
    assert without_costs  # the costs change who pays whom
    payer, payee, amount = next(iter(sorted(without_costs)))
    with pytest.raises(LedgerError) as refused:
        transfer_mark_paid(
            table=table,
            payer_seat=Seat.objects.get(pk=payer),
            payee_seat=Seat.objects.get(pk=payee),
            amount=amount,
            by=users["Asha"],
        )
    assert refused.value.code == "no_such_transfer"
    for payer, payee, amount in listed:
        transfer_mark_paid(
            table=table,
            payer_seat=Seat.objects.get(pk=payer),
            payee_seat=Seat.objects.get(pk=payee),
            amount=amount,
            by=users["Asha"],
        )
    assert all(t.paid for t in ledger_report(table=table).transfers)


def _tamper(cost: SharedCost, **fields) -> None:
    """A change made in the database behind the write path (the model refuses it)."""
    QuerySet.update(SharedCost.objects.filter(pk=cost.pk), **fields)


def _audit() -> tuple[int, str]:
    out = StringIO()
    try:
        call_command("ledger_check", stdout=out)
    except CommandError as error:
        return error.returncode, out.getvalue()
    return 0, out.getvalue()


def test_the_audit_finds_a_cost_whose_shares_were_changed_in_the_database(client, users, cash_night):
    table, _chips, _costs = cash_night
    assert _audit() == (0, "ledger_check: every night is settled once and every table's chips balance.\n")
    cost = SharedCost.objects.get(table=table)
    before = ledger_report(table=table)
    first, second, *_rest = sorted(cost.shares)

    # Shares a host could have chosen, but not the ones recorded: the log tells.
    _tamper(cost, shares={**cost.shares, first: 3})
    status, out = _audit()
    assert status == 1 and f"cost_not_logged: table id {table.pk}: its ledger holds 1 shared costs" in out
    assert "its cost 1 differs from what was recorded" in out
    assert [p.code for p in ledger_problems()] == ["cost_not_logged"]
    moved = ledger_report(table=table)
    assert sum(line.net for line in moved.players) == 0  # still cent-true, but not what was recorded
    assert [line.net for line in moved.players] != [line.net for line in before.players]

    # Shares no host could have chosen: named, and never split into money.
    _tamper(cost, shares={**cost.shares, first: 0, second: "2"})
    status, out = _audit()
    assert status == 1 and f"cost_unsound: shared cost {cost.pk} (Pizza) of table {table.code}" in out
    assert "has 0 shares, not 1 to 100" in out
    damaged = ledger_report(table=table)
    assert damaged.error == "A shared cost here has been damaged, so there is no fair settlement."
    assert damaged.transfers == [] and {line.net for line in damaged.players} == {Decimal("0.00")}
    client.force_login(users["Asha"])
    assert client.get(reverse("kitchen:night", kwargs={"code": table.code})).status_code == 200
    stranger = make_seat(make_table(users["Bikash"]), None, "Stranger", 1)
    _tamper(cost, shares={str(stranger.pk): 1})
    assert "its sharer" in _audit()[1] and "is not at its table" in _audit()[1]


def test_a_cost_is_written_only_by_its_service_and_never_changed(users):
    host = users["Asha"]
    table = make_table(host)
    asha, bikash = make_seat(table, host, "Asha", 1), make_seat(table, None, "Bikash", 2)
    computer = Seat.objects.create(table=table, display_name="Bot", computer="easy", number=3)
    ended = make_table(host)
    Table.objects.filter(pk=ended.pk).update(status=Table.Status.ENDED, ended_at=timezone.now())
    ended.refresh_from_db()
    late = make_seat(ended, host, "Asha", 1)
    good = {"paid_by": asha.pk, "amount": "12.00", "what": "Pizza", "shares": {asha.pk: 1, bikash.pk: 2}}
    refusals = [
        ("bad_amount", table, {"amount": 12.0}),
        ("bad_amount", table, {"amount": Decimal("-1")}),
        ("bad_amount", table, {"amount": "0.00"}),
        ("bad_amount", table, {"amount": "1.001"}),
        ("no_what", table, {"what": "  "}),
        ("no_sharers", table, {"shares": {}}),
        ("bad_shares", table, {"shares": {computer.pk: 1}}),
        ("bad_shares", table, {"shares": {asha.pk: 101}}),
        ("bad_shares", table, {"shares": {str(asha.pk): 1}}),
        ("bad_payer", table, {"paid_by": computer.pk}),
        ("ended", ended, {"paid_by": late.pk, "shares": {late.pk: 1}}),
    ]
    for code, where, change in refusals:
        with pytest.raises(LedgerError) as refused:
            ledger_record_cost(table=where, **{**good, **change}, by=host)
        assert refused.value.code == code, change
    assert SharedCost.objects.count() == 0
    cost = ledger_record_cost(table=table, **good, by=host)
    assert (cost.amount, cost.shares, cost.recorded_by) == (
        Decimal("12.00"),
        {str(asha.pk): 1, str(bikash.pk): 2},
        host,
    )
    cost.what = "Drinks"
    with pytest.raises(AppendOnlyError):
        cost.save()
    with pytest.raises(AppendOnlyError):
        cost.delete()
    with pytest.raises(AppendOnlyError):
        SharedCost.objects.filter(pk=cost.pk).update(amount=Decimal("1.00"))
    with pytest.raises(AppendOnlyError):
        SharedCost.objects.all().delete()
    assert SharedCost.objects.get(pk=cost.pk).what == "Pizza"


def test_the_kitchen_records_the_cost_in_the_ledger_and_the_tables_log(users):
    from tests.kitchen.conftest import add_by_name, open_night

    table = open_night(users["Asha"])
    asha = host_seat(table)
    bikash = add_by_name(table, "Bikash")
    cost = kitchen_cost_add(
        table_id=table.pk, seat_id=asha.pk, paid_by=bikash.pk, amount="7.50", what="Chai", shares={asha.pk: 1}
    )
    assert isinstance(cost, SharedCost) and cost.table_id == table.pk
    event = Event.objects.get(table=table, kind="kitchen_cost")
    assert event.payload == {
        "what": "Chai",
        "amount": "7.50",
        "paid_by": bikash.pk,
        "payer": "Bikash",
        "shares": {str(asha.pk): 1},
        "by": asha.display_name,
    }
    assert ledger_problems() == []
