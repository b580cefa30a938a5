"""Fault tests: PostgreSQL stopped and started under a running site; every player is told,
nothing is lost, and every connection is healthy after.

Rules pinned (issue 30; docs/operations.md, "The database stopped"):

- a request made while the database is away is answered ``unavailable`` (an error frame
  with its id) and the socket stays open; the same move resent with the same id once the
  database is back is played once;
- a socket that connects while it is away is accepted, told ``unavailable`` and closed
  with 4503: never an HTTP 500, never 1011;
- the first move and the first connect after the database is back succeed, although the
  web process's connection pool kept its connections through the restart: the pool's
  check (Django's ``CONN_HEALTH_CHECKS``, on by default) replaces each broken one;
- the table clock carries on: a reminder or a deal that fell due while the database was
  away comes within ``BOUND`` seconds of its return;
- no acknowledged move is lost or played twice, chips are conserved, the log has no gap,
  and every player heard the events in order (``assert_table_sound``).

The site runs as docs/deployment.md says (``DEBUG=false``, daphne, a Celery worker, Redis,
PostgreSQL through its connection pool) on a PostgreSQL server of the test's own
(``tests/tables/private_postgres.py``), so stopping it disturbs no one. Marked ``postgres``
and ``redis``: CI runs it in its PostgreSQL pass.
"""

from __future__ import annotations

import asyncio
import os
import shutil
import tempfile
import time
from pathlib import Path
from typing import Any

import pytest

from tests.tables.faults import Player, Site, players_at, wait_until
from tests.tables.private_postgres import PrivatePostgres, postgres_bin
from tests.tables.test_clock_faults import (
    BOUND,
    _act,
    _events,
    _heard_by_all,
    _next_hand_in_time,
    _start,
    _when,
    assert_table_sound,
    on_turn,
)

pytestmark = [pytest.mark.postgres, pytest.mark.redis]

#: The seconds the database stays away in each outage.
OUTAGE = 3.0


@pytest.fixture(scope="module")
def database():
    if postgres_bin() is None:
        pytest.skip("needs PostgreSQL's server programs (initdb, pg_ctl) to run a server of its own")
    server = PrivatePostgres()
    try:
        server.start()
        server.create_database("dashain_faults")
        yield server
    finally:
        server.destroy()


@pytest.fixture(scope="module")
def site(database):
    workdir = Path(tempfile.mkdtemp(prefix="dashain-dbfaults-"))
    # The pool keeps connections between calls: one left idle through a restart would be
    # used broken without the health check.
    site = Site(workdir, database_url=database.url("dashain_faults"), with_redis=True)
    site.env.update(DEBUG="false", DASHAIN_REDIS_WITHOUT_PASSWORD="true")
    try:
        site.start_redis()
        site.run("prepare", str(workdir))
        site.web_env["DASHAIN_CLOCK_SWEEP_SECONDS"] = "0"  # the worker's sweep carries the clock
        site.start_worker()
        site.start_web()
        yield site
    finally:
        site.stop_all()
        if os.environ.get("DASHAIN_KEEP_FAULT_LOGS") != "1":
            shutil.rmtree(workdir, ignore_errors=True)


@pytest.fixture(autouse=True)
def _database_running(database):
    """Each test starts with the database up, whatever the one before left."""
    if not database.running():
        database.start()


async def _all_heard_past(players: list[Player], seq: int, timeout: float) -> bool:
    """Whether every player heard news past ``seq`` (an action and the turn after it come together)."""
    return await wait_until(lambda: all(player.seq > seq for player in players), timeout) is not None


def _assert_no_crash(players: list[Player]) -> None:
    """No socket closed by a server error (1011) and no handshake answered with HTTP."""
    for player in players:
        assert 1011 not in player.closes, player.closes
        assert player.statuses == [], player.statuses


async def _idle_connections_everywhere(players: list[Player]) -> None:
    """Requests from every player at once, a few rounds, all answered: before a restart it
    leaves a kept connection in each of the web process's database threads; after it, each
    of those has answered again (without the health check one of them fails here)."""
    for _ in range(6):
        replies = await asyncio.gather(*(player.request({"type": "ping"}) for player in players for _ in range(3)))
        assert all(reply is not None and reply["type"] == "pong" for reply in replies), replies


async def test_a_move_and_a_connect_while_the_database_is_away_are_told_and_recover(site, database):
    table = site.open_table("faras", 3, {"turn_timer": 60, "hand_pause": 3})
    players = await players_at(site, table)
    late: Player | None = None
    late_task = None
    try:
        await _start(site, players)
        await _idle_connections_everywhere(players)
        actor = on_turn(players)
        other, quiet = [player for player in players if player is not actor]  # quiet: sends nothing in the outage
        sockets = [player.socket for player in players]

        database.stop("fast")
        reply = await _act(actor, "chaal", "c1")
        assert reply is not None and reply["type"] == "error" and reply["code"] == "unavailable", reply
        assert reply["message"]
        pong = await other.request({"type": "ping"})
        assert pong is not None and pong["type"] == "error" and pong["code"] == "unavailable", pong
        # A socket that connects now is told and closed with 4503, as often as it tries.
        late = Player(site, table["code"], site.sessions()["host"], table["seats"][0])
        late_task = asyncio.ensure_future(late._run())
        assert await wait_until(lambda: late.closes.count(4503) >= 2, 10) is not None, late.closes
        assert late.errors and all(error["code"] == "unavailable" for error in late.errors), late.errors
        assert late.snapshots == 0
        await asyncio.sleep(max(0.0, OUTAGE - 2))
        # The sockets that were open are still the same ones.
        assert [player.socket for player in players] == sockets

        database.start()
        # The first request after the database is back, from a socket that was quiet all along.
        pong = await quiet.request({"type": "ping"})
        assert pong is not None and pong["type"] == "pong", pong
        # The first move: the same one, with its id, played once.
        reply = await _act(actor, "chaal", "c1")
        assert reply is not None and reply["type"] == "ack", reply
        acked = {f"{actor.seat}:c1": reply["seq"]}
        assert await wait_until(lambda: other.seq >= reply["seq"], 5) is not None
        # Every thread's connection, idle through the restart, answers its next request.
        await _idle_connections_everywhere(players)
        # The first connect after it is accepted at once.
        fresh = Player(site, table["code"], site.sessions()["bina"], table["seats"][1])
        await fresh.start()
        assert fresh.closes == [] and fresh.snapshots == 1
        await fresh.stop()
        assert await wait_until(lambda: late.snapshots >= 1, 5) is not None, late.closes
        assert [player.socket for player in players] == sockets
        # And the table carries on to its next hand.
        for count in (1, 2):
            packer = on_turn(players)
            reply = await _act(packer, "pack", f"p{count}")
            assert reply is not None and reply["type"] == "ack", reply
            acked[f"{packer.seat}:p{count}"] = reply["seq"]
            assert await _all_heard_past(players, reply["seq"], 5)
        assert await _heard_by_all(players, "hand_started", number=2, timeout=3 + BOUND + 2)
        assert_table_sound(site, table["code"], players, acked)
        _assert_no_crash([*players, late, fresh])
    finally:
        if late_task is not None:
            late_task.cancel()
        for player in players:
            await player.stop()


async def test_the_clock_carries_on_across_outages_during_a_turn_and_between_hands(site, database):
    choices = {"turn_timer": 5, "hand_pause": 3}
    table = site.open_table("faras", 2, choices)
    players = await players_at(site, table)
    try:
        await _start(site, players)
        await _idle_connections_everywhere(players)
        # The turn's deadline (5 s) passes while the database is away.
        await asyncio.sleep(1)
        database.stop("fast")
        await asyncio.sleep(choices["turn_timer"])
        database.start()
        back_at = time.time()
        assert await _heard_by_all(players, "reminder", timeout=BOUND + 5)
        check = site.check(table["code"])
        first = _events(check, "reminder")[0]
        assert first["at"] - max(_when(first["data"]["deadline"]), back_at) <= BOUND
        # Nobody sent anything in the outage: every thread's connection, idle through the
        # restart, answers its first request after it.
        await _idle_connections_everywhere(players)
        # Between hands: the pause (3 s) ends while the database is away.
        packer = on_turn(players)
        reply = await _act(packer, "pack", "p1")
        assert reply is not None and reply["type"] == "ack", reply
        assert await _heard_by_all(players, "hand_ended", number=1, timeout=5)
        database.stop("fast")
        await asyncio.sleep(choices["hand_pause"] + 1)
        database.start()
        back_at = time.time()
        assert await _heard_by_all(players, "hand_started", number=2, timeout=BOUND + 5)
        check = assert_table_sound(site, table["code"], players, {f"{packer.seat}:p1": reply["seq"]})
        assert _next_hand_in_time(check, 2, back_at) <= BOUND
        _assert_no_crash(players)
    finally:
        for player in players:
            await player.stop()


async def _play_on(players: list[Player], acked: dict[str, int], answers: list[dict[str, Any]], seconds: float) -> None:
    """Players chaal in turn for ``seconds``, as the page does: a move answered
    ``unavailable`` is sent again with the same id until it is answered otherwise."""
    until = time.monotonic() + seconds
    count = 0
    pending: tuple[Player, dict[str, Any]] | None = None
    while time.monotonic() < until:
        if pending is None:
            if await wait_until(lambda: any(player.turn for player in players), 10) is None:
                raise AssertionError("nobody is to act")
            count += 1
            actor = on_turn(players)
            legal = [entry["verb"] for entry in (actor.turn or {}).get("legal", [])]
            # Chaal; once the table's blind limit is reached, see first (then chaal again).
            seeing = "chaal" not in legal and "see" in legal
            message = {"type": "see"} if seeing else {"type": "action", "verb": "chaal"}
            pending = (actor, {**message, "id": f"s{count}"})
        actor, message = pending
        reply = await actor.request(message)
        assert reply is not None, f"no answer to {message}"
        request_id = message["id"]
        answers.append(reply)
        if reply["type"] == "error" and reply["code"] == "unavailable":
            await asyncio.sleep(0.3)
            continue
        pending = None
        if reply["type"] == "ack":
            acked[f"{actor.seat}:{request_id}"] = reply["seq"]
            # Every player has heard it (and the turn that follows it, in the same news).
            assert await _all_heard_past(players, reply["seq"], 10)
            await asyncio.sleep(0.2)  # a person's pace (the sockets' rate limit is 10 messages a second)


async def test_the_database_crashing_amid_play_loses_no_acknowledged_move(site, database):
    """``pg_ctl stop -m immediate``: the server stops at once, as in a crash, whatever
    transaction is in flight; it recovers from its log when it starts again."""
    table = site.open_table("faras", 2, {"hand_pause": 3})
    players = await players_at(site, table)
    try:
        await _start(site, players)
        acked: dict[str, int] = {}
        answers: list[dict[str, Any]] = []
        playing = asyncio.ensure_future(_play_on(players, acked, answers, seconds=4 + OUTAGE + 4))
        await asyncio.sleep(2)
        database.stop("immediate")
        await asyncio.sleep(OUTAGE)
        database.start()
        await playing
        kinds = {(answer["type"], answer.get("code")) for answer in answers}
        assert ("error", "unavailable") in kinds and ("ack", None) in kinds, kinds
        assert kinds <= {("ack", None), ("error", "unavailable")}, kinds
        assert assert_table_sound(site, table["code"], players, acked)["last_seq"] >= max(acked.values())
        # The moves after the database came back were all played (nothing refused for good).
        assert answers[-1]["type"] == "ack"
        _assert_no_crash(players)
    finally:
        for player in players:
            await player.stop()
