"""The bank of a kitchen-table night: buy-ins and re-buys at the host's price (recorded by the
host, or asked for by a player and confirmed by the host), cash-outs counted in chips, the
balance, recounts and spreading a short count, settling; every refusal writes nothing."""

from __future__ import annotations

from decimal import Decimal

import pytest

from kitchen.selectors import kitchen_bank, kitchen_settle_up
from kitchen.services import (
    kitchen_ask,
    kitchen_buy_in,
    kitchen_cash_out,
    kitchen_recount,
    kitchen_settle,
    kitchen_spread,
    spread_shares,
)
from ledger.models import LedgerEntry
from ledger.selectors import ledger_chip_totals, ledger_report
from tables.events import EventKind
from tables.models import Event, Table
from tables.services import ServiceError, request_approve, request_deny, table_start, table_update_settings
from tests.kitchen.conftest import add_by_name, host_seat, join_as, make_user, open_night


def _written(table: Table) -> tuple[int, int]:
    return LedgerEntry.objects.filter(table=table).count(), Event.objects.filter(table=table).count()


def _refused(code: str, table: Table, call, **kwargs) -> None:
    before = _written(table)
    with pytest.raises(ServiceError) as caught:
        call(**kwargs)
    assert caught.value.code == code
    assert _written(table) == before


def test_the_host_records_buy_ins_and_rebuys_at_the_nights_price(night):
    host = host_seat(night)
    kitchen_buy_in(table_id=night.pk, seat_id=host.pk, player_seat_id=host.pk)
    bikash = add_by_name(night, "Bikash")
    kitchen_buy_in(table_id=night.pk, seat_id=host.pk, player_seat_id=bikash.pk)
    kitchen_buy_in(table_id=night.pk, seat_id=host.pk, player_seat_id=bikash.pk)
    bank = {line.seat.display_name: line for line in kitchen_bank(table=night).lines}
    assert (bank["Asha"].buy_ins, bank["Asha"].bought, bank["Asha"].paid) == (1, 1000, Decimal("10.00"))
    assert (bank["Bikash"].buy_ins, bank["Bikash"].bought, bank["Bikash"].paid) == (3, 3000, Decimal("30.00"))
    kinds = [e.kind for e in Event.objects.filter(table=night).order_by("seq")]
    assert kinds.count(EventKind.SEAT_TAKEN) == 2 and kinds.count(EventKind.SEAT_BOUGHT_BACK) == 2
    assert ledger_chip_totals(table=night).bought == 4000


def test_a_player_asks_from_their_phone_and_the_host_confirms(night):
    chandra = join_as(night, make_user("chandra"))
    request = kitchen_ask(table_id=night.pk, seat_id=chandra.pk)
    assert ledger_chip_totals(table=night).bought == 0  # asking buys nothing
    request_approve(table_id=night.pk, seat_id=host_seat(night).pk, request=request)
    again = kitchen_ask(table_id=night.pk, seat_id=chandra.pk)  # a re-buy, now seated
    request_deny(table_id=night.pk, seat_id=host_seat(night).pk, request=again)
    line = next(line for line in kitchen_bank(table=night).lines if line.seat.pk == chandra.pk)
    assert (line.buy_ins, line.bought) == (1, 1000)


def test_a_player_cannot_record_a_buy_in_or_cash_out_not_even_their_own(night):
    dev = join_as(night, make_user("dev"))
    bikash = add_by_name(night, "Bikash")
    _refused("not_host", night, kitchen_buy_in, table_id=night.pk, seat_id=dev.pk, player_seat_id=bikash.pk)
    _refused("not_host", night, kitchen_buy_in, table_id=night.pk, seat_id=dev.pk, player_seat_id=dev.pk)
    _refused("not_host", night, kitchen_cash_out, table_id=night.pk, seat_id=dev.pk, player_seat_id=bikash.pk, chips=1)
    request = kitchen_ask(table_id=night.pk, seat_id=dev.pk)
    _refused("not_host", night, request_approve, table_id=night.pk, seat_id=dev.pk, request=request)


def test_a_cash_out_counts_the_chips_handed_back_and_never_more_than_the_bank_gave_out(night):
    host = host_seat(night)
    bikash = add_by_name(night, "Bikash")
    chandra = add_by_name(night, "Chandra")
    kitchen_cash_out(table_id=night.pk, seat_id=host.pk, player_seat_id=bikash.pk, chips=1700)
    _refused(
        "more_than_bank",
        night,
        kitchen_cash_out,
        table_id=night.pk,
        seat_id=host.pk,
        player_seat_id=chandra.pk,
        chips=301,
    )
    _refused(
        "bad_chips", night, kitchen_cash_out, table_id=night.pk, seat_id=host.pk, player_seat_id=chandra.pk, chips=-1
    )
    _refused(
        "bad_chips", night, kitchen_cash_out, table_id=night.pk, seat_id=host.pk, player_seat_id=chandra.pk, chips="12"
    )
    _refused(
        "not_seated", night, kitchen_cash_out, table_id=night.pk, seat_id=host.pk, player_seat_id=bikash.pk, chips=0
    )
    kitchen_cash_out(table_id=night.pk, seat_id=host.pk, player_seat_id=chandra.pk, chips=300)
    bank = kitchen_bank(table=night)
    assert (bank.bought, bank.cashed_out, bank.balanced) == (2000, 2000, True)


def _short_night(host_user):
    """Bikash bought 2 stacks, Chandra 1, Dev 1 (1,000 chips for 10.00); they hand back 2,000,
    700 and 1,000: 300 chips short."""
    table = open_night(host_user)
    host = host_seat(table)
    seats = {name: add_by_name(table, name) for name in ("Bikash", "Chandra", "Dev")}
    kitchen_buy_in(table_id=table.pk, seat_id=host.pk, player_seat_id=seats["Bikash"].pk)
    for name, chips in (("Bikash", 2000), ("Chandra", 700), ("Dev", 1000)):
        kitchen_cash_out(table_id=table.pk, seat_id=host.pk, player_seat_id=seats[name].pk, chips=chips)
    return table, host, seats


def test_nothing_settles_while_the_bank_does_not_balance(host):
    table, hostseat, _seats = _short_night(host)
    bank = kitchen_bank(table=table)
    assert (bank.bought, bank.cashed_out, bank.difference) == (4000, 3700, 300)
    _refused("unbalanced", table, kitchen_settle, table_id=table.pk, seat_id=hostseat.pk)
    assert Table.objects.get(pk=table.pk).status != Table.Status.ENDED


def test_a_recount_replaces_a_players_count_with_the_reason(host):
    table, hostseat, seats = _short_night(host)
    _refused(
        "no_reason",
        table,
        kitchen_recount,
        table_id=table.pk,
        seat_id=hostseat.pk,
        player_seat_id=seats["Chandra"].pk,
        chips=1000,
        reason=" ",
    )
    _refused(
        "more_than_bank",
        table,
        kitchen_recount,
        table_id=table.pk,
        seat_id=hostseat.pk,
        player_seat_id=seats["Chandra"].pk,
        chips=1001,
        reason="x",
    )
    kitchen_recount(
        table_id=table.pk,
        seat_id=hostseat.pk,
        player_seat_id=seats["Chandra"].pk,
        chips=1000,
        reason="a 100 under the bowl",
    )
    assert kitchen_bank(table=table).balanced
    reversal = LedgerEntry.objects.get(table=table, kind=LedgerEntry.Kind.REVERSAL)
    assert reversal.note == "a 100 under the bowl" and reversal.recorded_by == host
    kitchen_settle(table_id=table.pk, seat_id=hostseat.pk)
    nets = {line.name: line.net_money for line in ledger_report(table=table).players}
    assert nets == {"Bikash": Decimal("0.00"), "Chandra": Decimal("0.00"), "Dev": Decimal("0.00")}


def test_a_short_count_spread_by_stacks(host):
    table, hostseat, seats = _short_night(host)
    # 300 over 2,000 / 700 / 1,000 (of 3,700): 162.16, 56.75, 81.08 -> 162, 57, 81.
    shares = kitchen_spread(table_id=table.pk, seat_id=hostseat.pk, how="stacks", reason="a short count")
    assert shares == {seats["Bikash"].pk: 162, seats["Chandra"].pk: 57, seats["Dev"].pk: 81}
    kitchen_settle(table_id=table.pk, seat_id=hostseat.pk)
    report = ledger_report(table=table)
    assert report.is_final and sum(line.net_money for line in report.players) == 0
    assert Table.objects.get(pk=table.pk).status == Table.Status.ENDED


def test_a_short_count_spread_evenly_gives_the_odd_chip_to_the_first_to_join(host):
    table, hostseat, seats = _short_night(host)
    kitchen_recount(table_id=table.pk, seat_id=hostseat.pk, player_seat_id=seats["Dev"].pk, chips=999, reason="r")
    # 301 short, evenly over three: 101 to Bikash (first to join), 100 each to the others.
    shares = kitchen_spread(table_id=table.pk, seat_id=hostseat.pk, how="even", reason="no idea")
    assert shares == {seats["Bikash"].pk: 101, seats["Chandra"].pk: 100, seats["Dev"].pk: 100}
    assert kitchen_bank(table=table).balanced


def test_spreading_is_refused_while_someone_holds_chips_or_nothing_is_missing(night):
    host = host_seat(night)
    bikash = add_by_name(night, "Bikash")
    _refused("still_holding", night, kitchen_spread, table_id=night.pk, seat_id=host.pk, how="even", reason="r")
    _refused("still_holding", night, kitchen_settle, table_id=night.pk, seat_id=host.pk)
    kitchen_cash_out(table_id=night.pk, seat_id=host.pk, player_seat_id=bikash.pk, chips=1000)
    _refused("balanced", night, kitchen_spread, table_id=night.pk, seat_id=host.pk, how="even", reason="r")
    _refused("bad_spread", night, kitchen_spread, table_id=night.pk, seat_id=host.pk, how="luck", reason="r")


def test_nobody_but_the_host_corrects_or_settles(host):
    table, _hostseat, seats = _short_night(host)
    eve = join_as(table, make_user("eve"))
    _refused(
        "not_host",
        table,
        kitchen_recount,
        table_id=table.pk,
        seat_id=eve.pk,
        player_seat_id=seats["Dev"].pk,
        chips=1,
        reason="r",
    )
    _refused("not_host", table, kitchen_spread, table_id=table.pk, seat_id=eve.pk, how="even", reason="r")
    _refused("not_host", table, kitchen_settle, table_id=table.pk, seat_id=eve.pk)


@pytest.mark.parametrize(
    ("total", "weights", "expected"),
    [
        (300, {1: 2000, 2: 700, 3: 1000}, {1: 162, 2: 57, 3: 81}),
        (2, {1: 1, 2: 1, 3: 1}, {1: 1, 2: 1, 3: 0}),
        (1, {5: 3, 4: 1}, {5: 1, 4: 0}),
        (7, {1: 1}, {1: 7}),
    ],
)
def test_spread_shares_add_up_and_follow_the_documented_order(total, weights, expected):
    assert spread_shares(total, weights) == expected
    assert sum(spread_shares(total, weights).values()) == total


def test_a_settled_nights_settle_up_is_the_ledgers(host):
    table, hostseat, seats = _short_night(host)
    kitchen_recount(table_id=table.pk, seat_id=hostseat.pk, player_seat_id=seats["Chandra"].pk, chips=1000, reason="r")
    kitchen_settle(table_id=table.pk, seat_id=hostseat.pk)
    table.refresh_from_db()
    settle = kitchen_settle_up(table=table)
    assert settle.final and settle.transfers == []
    _refused("ended", table, kitchen_buy_in, table_id=table.pk, seat_id=hostseat.pk, player_seat_id=seats["Dev"].pk)


def test_a_kitchen_night_is_never_dealt(night):
    """Its table is an ordinary one underneath: the online table's "Start" is refused, and the
    setting that says so cannot be changed."""
    host = host_seat(night)
    add_by_name(night, "Bikash")
    kitchen_buy_in(table_id=night.pk, seat_id=host.pk, player_seat_id=host.pk)
    _refused("not_dealt", night, table_start, table_id=night.pk, seat_id=host.pk)
    _refused(
        "invalid_settings",
        night,
        table_update_settings,
        table_id=night.pk,
        seat_id=host.pk,
        choices={"not_dealt": False},
    )
    assert Table.objects.get(pk=night.pk).status == Table.Status.WAITING
