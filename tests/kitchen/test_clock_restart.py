"""The tournament clock survives a restart of the server (issue 39): its state is two stored
values and the log, so a process started afterwards, which shares nothing with the one that
ran the clock but the database, reads the same level, time left and deadline, to the
millisecond, as the formula gives from the server's time; and the levels as played are in
the log with the moment each began."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from datetime import timedelta
from pathlib import Path

import pytest
from django.db import connection

from kitchen.models import TournamentClock
from kitchen.rules import state_now
from kitchen.services import kitchen_buy_in
from kitchen.tournament import kitchen_clock_pause, kitchen_clock_resume, kitchen_clock_start, kitchen_eliminate
from kitchen.tv import tv_state
from tables.models import Event
from tests.kitchen.conftest import add_by_name, host_seat, make_user
from tests.kitchen.test_tournament import T0, at, open_tournament

ROOT = Path(__file__).resolve().parents[2]

pytestmark = pytest.mark.postgres


def read_in_a_new_process(table, now):
    """The TV state at ``now`` as a freshly started process reads it from the database."""
    settings = connection.settings_dict
    url = "postgres://{USER}:{PASSWORD}@{HOST}:{PORT}/{NAME}".format(**{**settings, "PORT": settings["PORT"] or 5432})
    env = dict(os.environ, DATABASE_URL=url)
    out = subprocess.run(
        [sys.executable, "-m", "tests.kitchen.clock_reader", table.code, table.invite_token, now.isoformat()],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        check=True,
        timeout=120,
    )
    return json.loads(out.stdout)


@pytest.mark.django_db(transaction=True)
def test_a_new_server_process_reads_the_clock_to_the_millisecond():
    if connection.vendor != "postgresql":
        pytest.skip("a second process reads the test database only on PostgreSQL")
    host = make_user("asha")
    table = open_tournament(host)
    hostseat = host_seat(table)
    kitchen_buy_in(table_id=table.pk, seat_id=hostseat.pk, player_seat_id=hostseat.pk)
    add_by_name(table, "Bina")
    chet = add_by_name(table, "Chet")
    with at(0):
        kitchen_clock_start(table_id=table.pk, seat_id=hostseat.pk)
    with at(700):  # level 2, 100 s in
        kitchen_clock_pause(table_id=table.pk, seat_id=hostseat.pk)
    with at(1000):  # paused for 300 s
        kitchen_clock_resume(table_id=table.pk, seat_id=hostseat.pk)
    with at(1610.25):  # 1,310.25 s played: the break after level 2 began at 1,200 s of play
        kitchen_eliminate(table_id=table.pk, seat_id=hostseat.pk, player_seat_ids=[chet.pk])

    now = T0 + timedelta(seconds=1650.5)  # 1,350.5 s played: the break, 149.5 s left
    fresh = read_in_a_new_process(table, now)
    assert (fresh["index"], fresh["title"], fresh["left_ms"]) == (2, "Break", 149_500)
    assert fresh["deadline_ms"] == int((T0 + timedelta(seconds=1800)).timestamp() * 1000)
    assert fresh["now_ms"] == int(now.timestamp() * 1000)
    assert (fresh["players"], fresh["pool"]) == (2, "30.00")
    # Read here too, at the same moment: every page is sent the same deadline.
    clock = TournamentClock.objects.get()
    with at(1650.5):
        here = tv_state(table, clock)
    assert here == fresh
    assert state_now(clock, now).elapsed_ms == 1_350_500
    # The log has each level as played, with the moment it began (the pause moved the break).
    began = [
        (payload["level"], payload["at"])
        for payload in Event.objects.filter(table=table, kind="kitchen_level")
        .order_by("seq")
        .values_list("payload", flat=True)
    ]
    assert began == [
        (1, T0.isoformat()),
        (2, (T0 + timedelta(seconds=600)).isoformat()),
        (3, (T0 + timedelta(seconds=1500)).isoformat()),
    ]
