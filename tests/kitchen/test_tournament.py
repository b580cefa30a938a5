"""A hold'em tournament at the kitchen table: the structure checked, the clock derived from
stored times (start, pause, resume, level back; a restart changes nothing), re-buys in their
period only, eliminations in order with a tie, prizes 50/30/20 to the cent through the ledger."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from decimal import Decimal
from unittest import mock

import pytest

from kitchen.clock import check_levels, clock_state, standard_levels
from kitchen.models import Elimination, TournamentClock
from kitchen.rules import state_now
from kitchen.services import kitchen_buy_in, kitchen_cash_out, kitchen_settle
from kitchen.tournament import (
    kitchen_clock_back,
    kitchen_clock_pause,
    kitchen_clock_resume,
    kitchen_clock_start,
    kitchen_eliminate,
    kitchen_tournament_open,
)
from ledger.models import LedgerEntry
from ledger.selectors import ledger_report
from tables.models import Event, Table
from tables.services import ServiceError
from tests.kitchen.conftest import add_by_name, host_seat, join_as, make_user

T0 = datetime(2026, 12, 5, 20, 0, tzinfo=UTC)
LEVELS = [
    {"small": 10, "big": 20, "ante": 0, "seconds": 600},
    {"small": 20, "big": 40, "ante": 0, "seconds": 600},
    {"break": True, "seconds": 300},
    {"small": 50, "big": 100, "ante": 10, "seconds": 600},
]


def at(seconds: float):
    """Freeze the services' clock ``seconds`` after T0."""
    return mock.patch("django.utils.timezone.now", return_value=T0 + timedelta(seconds=seconds))


def open_tournament(host, *, rebuy_levels=2, payouts=(50, 30, 20), levels=LEVELS):
    return kitchen_tournament_open(
        host=host,
        starting_chips=5000,
        buy_in_price="10.00",
        levels=list(levels),
        rebuy_levels=rebuy_levels,
        payouts=list(payouts),
    )


def _refused(code, table, call, **kwargs):
    before = (
        LedgerEntry.objects.filter(table=table).count(),
        Event.objects.filter(table=table).count(),
        list(TournamentClock.objects.values_list("started", "elapsed_ms", "running_since")),
        Elimination.objects.count(),
    )
    with pytest.raises(ServiceError) as caught:
        call(**kwargs)
    assert caught.value.code == code
    after = (
        LedgerEntry.objects.filter(table=table).count(),
        Event.objects.filter(table=table).count(),
        list(TournamentClock.objects.values_list("started", "elapsed_ms", "running_since")),
        Elimination.objects.count(),
    )
    assert after == before


def test_the_clock_is_computed_from_its_stored_times():
    state = clock_state(LEVELS, elapsed_ms=0, running_since=T0, started=True, now=T0 + timedelta(seconds=725))
    assert (state.index, state.level_number, state.level_left_ms) == (1, 2, 475_000)
    assert state.deadline == T0 + timedelta(seconds=1200)
    brk = clock_state(LEVELS, elapsed_ms=1_250_000, running_since=None, started=True, now=T0)
    assert (brk.index, brk.level_number, brk.level_left_ms, brk.deadline) == (2, 0, 250_000, None)
    last = clock_state(LEVELS, elapsed_ms=10**9, running_since=None, started=True, now=T0)
    assert (last.index, last.level_left_ms) == (3, None)  # the last level goes on


@pytest.mark.parametrize(
    "levels",
    [
        [],
        [{"small": 10, "big": 20, "ante": 0, "seconds": 0}],
        [{"small": 10, "big": 20, "ante": 0, "seconds": -60}],
        [{"small": 0, "big": 20, "ante": 0, "seconds": 60}],
        [{"small": 30, "big": 20, "ante": 0, "seconds": 60}],
        [{"small": 10, "big": 20, "ante": -1, "seconds": 60}],
        [{"break": True, "seconds": 60}, {"small": 10, "big": 20, "seconds": 60}],
        [{"small": 10, "big": 20, "ante": 0, "seconds": 60.5}],
    ],
)
def test_a_structure_that_cannot_be_played_is_refused_and_opens_nothing(host, levels):
    with pytest.raises(ServiceError) as caught:
        open_tournament(host, levels=levels)
    assert caught.value.code == "bad_levels"
    assert not Table.objects.exists()


def test_bad_payouts_and_rebuy_periods_are_refused(host):
    for payouts in ([50, 30], [0, 100], [], [50.0, 50]):
        with pytest.raises(ServiceError) as caught:
            open_tournament(host, payouts=payouts)
        assert caught.value.code == "bad_payouts"
    with pytest.raises(ServiceError) as caught:
        open_tournament(host, rebuy_levels=9)
    assert caught.value.code == "bad_rebuys"
    assert not Table.objects.exists()


def test_the_standard_structure_is_playable():
    assert check_levels(standard_levels(20)) == standard_levels(20)


def test_pause_resume_and_level_back_by_the_host_only(host):
    table = open_tournament(host)
    hostseat = host_seat(table)
    dev = join_as(table, make_user("dev"))
    for call in (kitchen_clock_start, kitchen_clock_pause, kitchen_clock_resume, kitchen_clock_back):
        _refused("not_host", table, call, table_id=table.pk, seat_id=dev.pk)
    with at(0):
        kitchen_clock_start(table_id=table.pk, seat_id=hostseat.pk)
    clock = TournamentClock.objects.get()
    with at(700):
        kitchen_clock_pause(table_id=table.pk, seat_id=hostseat.pk)
    clock.refresh_from_db()  # a restart reads the same stored values
    assert state_now(clock, T0 + timedelta(hours=2)).elapsed_ms == 700_000  # paused: time stands
    with at(1000):
        kitchen_clock_resume(table_id=table.pk, seat_id=hostseat.pk)
    clock.refresh_from_db()
    assert state_now(clock, T0 + timedelta(seconds=1010)).elapsed_ms == 710_000
    with at(1010):
        kitchen_clock_back(table_id=table.pk, seat_id=hostseat.pk)  # to the start of level 2
    clock.refresh_from_db()
    assert state_now(clock, T0 + timedelta(seconds=1010)).elapsed_ms == 600_000
    with at(1012):
        kitchen_clock_back(table_id=table.pk, seat_id=hostseat.pk)  # within 5 s: level 1
    clock.refresh_from_db()
    now = T0 + timedelta(seconds=1012)
    assert (state_now(clock, now).index, state_now(clock, now).level_left_ms) == (0, 600_000)
    with at(1012):
        _refused("already_started", table, kitchen_clock_start, table_id=table.pk, seat_id=hostseat.pk)
        _refused("not_paused", table, kitchen_clock_resume, table_id=table.pk, seat_id=hostseat.pk)


def test_rebuys_in_the_period_only(host):
    table = open_tournament(host, rebuy_levels=2)
    hostseat = host_seat(table)
    bikash = add_by_name(table, "Bikash")
    _refused("rebuy_closed", table, kitchen_buy_in, table_id=table.pk, seat_id=hostseat.pk, player_seat_id=bikash.pk)
    with at(0):
        kitchen_clock_start(table_id=table.pk, seat_id=hostseat.pk)
    with at(1300):  # the break after level 2: still open
        kitchen_buy_in(table_id=table.pk, seat_id=hostseat.pk, player_seat_id=bikash.pk)
    with at(1500):  # level 3
        _refused(
            "rebuy_closed", table, kitchen_buy_in, table_id=table.pk, seat_id=hostseat.pk, player_seat_id=bikash.pk
        )
    _refused(
        "tournament", table, kitchen_cash_out, table_id=table.pk, seat_id=hostseat.pk, player_seat_id=bikash.pk, chips=1
    )
    _refused("tournament", table, kitchen_settle, table_id=table.pk, seat_id=hostseat.pk)


def test_ten_players_a_tie_for_third_and_prizes_to_the_cent(host):
    """Ten buy in at 10.00 and one re-buys (pool 110.00); 50/30/20 with two going out together
    with four left: they share third and fourth, 20% + 0% = 11.00 each; second 33.00, first 55.00."""
    table = open_tournament(host)
    hostseat = host_seat(table)
    kitchen_buy_in(table_id=table.pk, seat_id=hostseat.pk, player_seat_id=hostseat.pk)
    players = [hostseat] + [add_by_name(table, name) for name in "BCDEFGHIJ"]
    with at(0):
        kitchen_clock_start(table_id=table.pk, seat_id=hostseat.pk)
    with at(60):
        kitchen_buy_in(table_id=table.pk, seat_id=hostseat.pk, player_seat_id=players[1].pk)
    places = []
    with at(2000):
        _refused("bad_players", table, kitchen_eliminate, table_id=table.pk, seat_id=hostseat.pk, player_seat_ids=[])
        for player in players[9:3:-1]:  # J, I, H, G, F, E: tenth to fifth
            places.append(kitchen_eliminate(table_id=table.pk, seat_id=hostseat.pk, player_seat_ids=[player.pk]))
        _refused(
            "already_out",
            table,
            kitchen_eliminate,
            table_id=table.pk,
            seat_id=hostseat.pk,
            player_seat_ids=[players[9].pk],
        )
        _refused(
            "already_out", table, kitchen_buy_in, table_id=table.pk, seat_id=hostseat.pk, player_seat_id=players[9].pk
        )
        _refused(
            "last_player",
            table,
            kitchen_eliminate,
            table_id=table.pk,
            seat_id=hostseat.pk,
            player_seat_ids=[p.pk for p in players[:4]],
        )
        places.append(
            kitchen_eliminate(table_id=table.pk, seat_id=hostseat.pk, player_seat_ids=[players[3].pk, players[2].pk])
        )
        places.append(kitchen_eliminate(table_id=table.pk, seat_id=hostseat.pk, player_seat_ids=[players[1].pk]))
    assert places == [10, 9, 8, 7, 6, 5, 3, 2]
    assert Event.objects.filter(table=table, kind="seat_out").count() == 9  # everyone out, in the log
    table.refresh_from_db()
    assert table.status == Table.Status.ENDED
    report = ledger_report(table=table)
    prizes = {line.name: (line.place, line.prize, line.net_money) for line in report.players}
    assert prizes["Asha"] == (1, Decimal("55.00"), Decimal("45.00"))
    assert prizes["B"] == (2, Decimal("33.00"), Decimal("13.00"))
    assert prizes["C"] == prizes["D"] == (3, Decimal("11.00"), Decimal("1.00"))
    assert prizes["J"] == (10, Decimal("0.00"), Decimal("-10.00"))
    assert sum(line.prize for line in report.players) == Decimal("110.00")
    assert report.is_final and sum(line.net_money for line in report.players) == 0
