"""Players' actions in worker processes (tables.service_processes, DASHAIN_SERVICE_PROCESSES),
end to end through real sockets on PostgreSQL and Redis.

Rules pinned: an action played in a worker is acked with its seq, applied once, and its news
(with the pushed view) reaches every socket of the table in order; a refusal is the same
``error`` frame as without workers and changes nothing; a resend is a no-op; a worker killed
idle or in the middle of an action is replaced and the action applied exactly once; the
worker plays with the web process's database and play settings; the setting is refused
without PostgreSQL and Redis.

Each test that starts workers starts one pool (two spawned processes, each sets Django up),
so the checks are grouped in few tests.
"""

from __future__ import annotations

import asyncio
import logging
import os
import random
import signal
import subprocess
import sys
import time
from typing import Any

import psycopg
import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.conf import settings
from django.db import connection
from django.test import override_settings

import tables.service_processes as service_processes_module
import tables.services
from config.asgi import application
from tables import selectors
from tables.models import Event, Seat, Table
from tables.service_processes import ServiceProcesses, service_processes
from tables.services.acting import hand_see as hand_see_here
from tests.config.test_settings import ROOT, clean_environment
from tests.tables.conftest import repeatable_decks
from tests.tables.leaks import card_owners, cards_revealed, leaks_in_snapshot
from tests.tables.test_consumer_play import buy_back_the_broke, check_no_leaks, open_ws_table
from tests.tables.ws import Client, _session_cookie, play_random_hands, sync_all, users_of

WAIT = 60  # seconds any one step may take on a busy machine before the test fails


@pytest.fixture
def workers(transactional_db):
    """Two worker processes for this test, made under its settings, stopped after it."""
    with override_settings(DASHAIN_SERVICE_PROCESSES=2, DASHAIN_NEXT_HAND_DELAY=0):
        assert service_processes_module._processes is None, "a pool left over from another test"
        pool = service_processes()
        assert pool is not None and pool.count == 2
        pool.start()
        try:
            yield pool
        finally:
            pool.shutdown()
            service_processes_module._processes = None


@pytest.fixture(autouse=True)
def _repeatable_decks(monkeypatch):
    repeatable_decks(monkeypatch, random.Random(2027))


def worker_view() -> dict[str, Any]:
    """Called in a worker (``pool.call``): what it plays with."""
    return {
        "pid": os.getpid(),
        "database": connection.settings_dict["NAME"],
        "next_hand_delay": settings.DASHAIN_NEXT_HAND_DELAY,
    }


def _not_here(**kwargs: Any) -> int:
    raise AssertionError(f"hand_act ran in the web process, not in a worker: {kwargs}")


def table_pids(pool: ServiceProcesses, table_id: int) -> list[int]:
    """The pid of the worker that plays ``table_id``'s actions (empty before it started)."""
    worker = pool._workers[table_id % pool.count]
    return [] if worker is None or worker.lost or worker.process.pid is None else [worker.process.pid]


def table_state(table_id: int) -> dict[str, Any]:
    """What a refused action must leave as it was."""
    table = Table.objects.get(pk=table_id)
    return {
        "last_seq": table.last_seq,
        "events": Event.objects.filter(table=table).count(),
        "stacks": dict(Seat.objects.filter(table=table).values_list("pk", "stack")),
    }


def chips_kept(table_id: int) -> tuple[int, int]:
    """(chips bought, chips in seats and the live hand): equal when no chip was created or lost."""
    table = Table.objects.get(pk=table_id)
    seats = list(Seat.objects.filter(table=table))
    bought = sum(seat.buy_ins for seat in seats) * table.buy_in_chips
    hand = selectors.hand_live(table=table)
    if hand is None:
        return bought, sum(seat.stack for seat in seats)
    state, _seq = selectors.hand_state(table=table, hand=hand)
    dealt = {str(name) for name, _stack in hand.plan["players"]}
    outside = sum(seat.stack for seat in seats if seat.engine_name not in dealt)
    return bought, outside + sum(state.stacks) + state.pot  # a Teen Patti hand: stacks and pot


def events_with_id(table_id: int, client_action_id: str) -> list[int]:
    return list(
        Event.objects.filter(table_id=table_id, client_action_id=client_action_id).values_list("seq", flat=True)
    )


def whole_log(table_id: int) -> bool:
    table = Table.objects.get(pk=table_id)
    seqs = list(Event.objects.filter(table=table).order_by("seq").values_list("seq", flat=True))
    return seqs == list(range(1, table.last_seq + 1))


async def turn_now(table_id: int, clients: list[Client]) -> dict[str, Any]:
    await sync_all(table_id, clients)
    turn = clients[0].turn
    assert turn and turn.get("legal"), turn
    return turn


async def connect_in_nepali(code: str, user: Any) -> Client:
    """Another socket of ``user``, whose browser asks for Nepali."""
    session_key = await database_sync_to_async(_session_cookie)(user, None)
    headers = [
        (b"origin", b"http://localhost"),
        (b"cookie", f"sessionid={session_key}".encode()),
        (b"host", b"localhost"),
        (b"accept-language", b"ne"),
    ]
    communicator = WebsocketCommunicator(application, f"/ws/table/{code}/", headers=headers)
    connected, _code = await communicator.connect(timeout=WAIT)
    assert connected
    client = Client(communicator, "ne")
    await client.read_one()  # the snapshot
    return client


async def refusals(
    clients: dict[str, Client], watchers: list[Client], nepali: Client, turn: dict[str, Any], tag: str
) -> list:
    """Refused actions of every kind, the frames that came back (their ids left out)."""
    actor = clients[turn["player"]]
    other = next(client for name, client in clients.items() if name != turn["player"])
    verb = next(entry["verb"] for entry in turn["legal"] if entry["verb"] != "see")  # "see" is allowed out of turn
    sent = [
        (other, {"verb": verb}),  # out of turn
        (actor, {"verb": verb, "amount": "ten"}),  # an amount that is no number
        (actor, {"verb": verb, "amount": -5}),  # a negative amount
        (actor, {"verb": "chaal", "amount": 10**8}),  # more chips than anyone has
        (actor, {"verb": "steal"}),  # no such action
        (nepali, {"verb": verb, "amount": -5}),  # the refusal in the player's language
        (watchers[0], {"verb": verb}),  # a guest watching: no seat in the hand
        (watchers[1], {"verb": verb}),  # a member watching
    ]
    frames = []
    for index, (client, message) in enumerate(sent):
        reply = await asyncio.wait_for(
            client.request({"type": "action", "id": f"{tag}-{index}", **message}), timeout=WAIT
        )
        assert reply["type"] == "error", reply
        frames.append({key: value for key, value in reply.items() if key != "id"})
    return frames


@pytest.mark.postgres
@pytest.mark.redis
async def test_players_play_through_the_workers_and_every_socket_hears_it(workers, monkeypatch):
    table, seats, clients, watchers = await open_ws_table("faras", 3, {"buy_in_chips": 300})
    everyone = [*clients.values(), *watchers]

    # The worker plays with this test's database and its override of the pause between hands.
    seen = await asyncio.wait_for(workers.call(table.pk, f"{__name__}:worker_view", {}, repeatable=False), timeout=WAIT)
    assert seen["pid"] != os.getpid() and [seen["pid"]] == table_pids(workers, table.pk)
    assert seen["database"] == connection.settings_dict["NAME"]
    assert seen["next_hand_delay"] == 0

    # Refusals without workers first, then the same with them: the same frames, nothing changed.
    turn = await turn_now(table.pk, everyone)
    [actor_user] = await users_of([next(seat for seat in seats if str(seat.pk) == turn["player"])])
    nepali = await connect_in_nepali(table.code, actor_user)
    before = await database_sync_to_async(table_state)(table.pk)
    with override_settings(DASHAIN_SERVICE_PROCESSES=0):
        here = await refusals(clients, watchers, nepali, turn, "here")
    monkeypatch.setattr(tables.services, "hand_act", _not_here)  # from now on only a worker may play
    there = await refusals(clients, watchers, nepali, turn, "there")
    assert there == here
    assert {frame["code"] for frame in there} >= {"not_your_turn", "bad_amount", "not_in_hand"}, there
    assert there[-3]["message"] != there[2]["message"]  # the Nepali sentence, not the English one
    assert await database_sync_to_async(table_state)(table.pk) == before
    await nepali.close()

    # A resend of an action with the same id: the same seq, no second event.
    actor = clients[turn["player"]]
    verb = next(entry["verb"] for entry in turn["legal"] if entry["verb"] != "see")
    first = await asyncio.wait_for(actor.request({"type": "action", "id": "once", "verb": verb}), timeout=WAIT)
    assert first["type"] == "ack", first
    after_first = await database_sync_to_async(table_state)(table.pk)
    again = await asyncio.wait_for(actor.request({"type": "action", "id": "once", "verb": verb}), timeout=WAIT)
    assert again == first
    assert await database_sync_to_async(table_state)(table.pk) == after_first
    assert await database_sync_to_async(events_with_id)(table.pk, f"{actor.seat_id}:once") == [first["seq"]]

    # A write from this process, not the worker (a look out of turn, made here as another
    # process of the site would), then an action in the worker, whose cached state of the
    # hand must not miss that write.
    turn = await turn_now(table.pk, everyone)
    looker = next(client for name, client in clients.items() if name != turn["player"])
    look_seq = await database_sync_to_async(hand_see_here)(table_id=table.pk, seat_id=looker.seat_id)
    actor = clients[turn["player"]]
    verb = next(entry["verb"] for entry in turn["legal"] if entry["verb"] != "see")
    after_look = await asyncio.wait_for(actor.request({"type": "action", "verb": verb}), timeout=WAIT)
    assert after_look["type"] == "ack" and after_look["seq"] > look_seq, after_look

    # Random play through the workers: hands end, the next follows at once (no clock runs
    # here), and every socket reads each seq once, in order (the Client checks) with its view.
    rng = random.Random(7)
    asked = 0

    async def now_and_then_a_snapshot() -> None:  # as the page asks after a long gap
        nonlocal asked
        if rng.random() < 0.2:
            asked += 1
            for client in everyone:
                await client.snapshot_now()

    played = await asyncio.wait_for(
        play_random_hands(
            table.pk,
            clients,
            watchers,
            rng,
            max_actions=60,
            see_out_of_turn=True,  # looks out of turn, in the worker too
            on_idle=lambda: database_sync_to_async(buy_back_the_broke)(table.pk),
            on_action=now_and_then_a_snapshot,
        ),
        timeout=WAIT * 3,
    )
    assert played >= 40
    await database_sync_to_async(table.refresh_from_db)()
    assert table.hands_played >= 3, "hands did not follow one another in the worker"
    assert await database_sync_to_async(whole_log)(table.pk)
    for client in everyone:
        assert client.last_seq == table.last_seq
        news = [frame for frame in client.frames if frame.get("type") == "events" and "id" not in frame]
        assert news and all("screen" in frame for frame in news), client.name  # the pushed view
        assert len(client.snapshots) == 1 + asked, "news came without a view, so the socket read a snapshot"
    assert asked > 0

    # Each ack is the one event of its action id, with that seq; no action is in the log twice
    # or without its ack.
    acks: dict[str, int] = {}
    for client in clients.values():
        for frame in client.frames:
            if frame.get("type") == "ack" and "seq" in frame:
                acks[f"{client.seat_id}:{frame['id']}"] = frame["seq"]
    logged = await database_sync_to_async(
        lambda: list(
            Event.objects.filter(table_id=table.pk, client_action_id__isnull=False).values_list(
                "client_action_id", "seq"
            )
        )
    )()
    assert len(acks) >= played + 3  # and the one resent, the look from here and the action after it
    assert sorted(logged) == sorted(acks.items())

    bought, held = await database_sync_to_async(chips_kept)(table.pk)
    assert held == bought
    # No frame, snapshot or pushed view shows a player another's hidden cards.
    await check_no_leaks(table, clients, watchers)
    owners = await database_sync_to_async(card_owners)(table)
    reveals = await database_sync_to_async(cards_revealed)(table)
    cards_in_views = 0
    for name, client in [*clients.items(), ("spectator", watchers[0]), ("spectator", watchers[1])]:
        for screen in client.screens:
            leaks, checked = leaks_in_snapshot(name, screen, owners, reveals)
            assert leaks == [], leaks[:5]
            cards_in_views += checked
    assert cards_in_views > 0, "no pushed view held a card: the check would prove nothing"
    for client in everyone:
        await client.close()


async def _read_until_reply(client: Client, request_id: str) -> dict[str, Any]:
    while True:
        for reply in client.replies:
            if reply.get("id") == request_id:
                return reply
        await client.read_one(timeout=WAIT)


async def _waiting_for_a_lock(database: dict[str, Any]) -> int:
    """How many connections to the test database wait for a lock: the worker that waits for
    the table's row lock (a second waiter queues behind the first one, not the holder)."""
    async with await psycopg.AsyncConnection.connect(**database, autocommit=True) as probe:
        cursor = await probe.execute(
            "select count(*) from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock'"
        )
        row = await cursor.fetchone()
    assert row is not None
    return int(row[0])


@pytest.mark.postgres
@pytest.mark.redis
async def test_a_verb_nested_too_deep_to_send_to_a_worker_is_refused_and_the_socket_lives(workers):
    table, _seats, clients, watchers = await open_ws_table("faras", 2, {"buy_in_chips": 300})
    turn = await turn_now(table.pk, [*clients.values(), *watchers])
    actor = clients[turn["player"]]
    before = await database_sync_to_async(table_state)(table.pk)
    deep: Any = []
    for _ in range(900):  # JSON reads it (under 4 KB); pickling it for the worker does not
        deep = [deep]
    refused = await asyncio.wait_for(actor.request({"type": "action", "verb": deep}), timeout=WAIT)
    assert refused["type"] == "error" and refused["code"] == "bad_verb", refused
    assert await database_sync_to_async(table_state)(table.pk) == before
    verb = next(entry["verb"] for entry in turn["legal"] if entry["verb"] != "see")
    played = await asyncio.wait_for(actor.request({"type": "action", "verb": verb}), timeout=WAIT)
    assert played["type"] == "ack", played


@pytest.mark.postgres
@pytest.mark.redis
async def test_a_killed_worker_is_replaced_and_its_action_applied_once(workers, caplog):
    caplog.set_level(logging.WARNING, logger="tables.service_processes")
    table, _seats, clients, watchers = await open_ws_table("faras", 3, {"buy_in_chips": 300})
    everyone = [*clients.values(), *watchers]
    turn = await turn_now(table.pk, everyone)
    actor = clients[turn["player"]]
    verb = next(entry["verb"] for entry in turn["legal"] if entry["verb"] != "see")
    ack = await asyncio.wait_for(actor.request({"type": "action", "id": "warm", "verb": verb}), timeout=WAIT)
    assert ack["type"] == "ack", ack

    # Killed while idle: the next action goes to a new worker; the other worker is left alone.
    [killed] = table_pids(workers, table.pk)
    [other] = [pid for pid in workers.pids() if pid != killed]
    os.kill(killed, signal.SIGKILL)
    turn = await turn_now(table.pk, everyone)
    actor = clients[turn["player"]]
    verb = next(entry["verb"] for entry in turn["legal"] if entry["verb"] != "see")
    ack = await asyncio.wait_for(actor.request({"type": "action", "id": "after-kill", "verb": verb}), timeout=WAIT)
    assert ack["type"] == "ack", ack
    assert await database_sync_to_async(events_with_id)(table.pk, f"{actor.seat_id}:after-kill") == [ack["seq"]]
    [replacement] = table_pids(workers, table.pk)
    assert replacement != killed and other in workers.pids()
    await asyncio.wait_for(sync_all(table.pk, everyone), timeout=WAIT)  # its news reached every socket

    # Killed in the middle of an action: the test holds the table's row lock, so the worker
    # waits inside hand_act; it is killed there, the lock released, and the action (made
    # again in a fresh worker) is applied once and acked.
    turn = await turn_now(table.pk, everyone)
    actor = clients[turn["player"]]
    verb = next(entry["verb"] for entry in turn["legal"] if entry["verb"] != "see")
    before = await database_sync_to_async(table_state)(table.pk)
    caplog.clear()
    database = {
        "dbname": connection.settings_dict["NAME"],
        "user": connection.settings_dict["USER"],
        "password": connection.settings_dict["PASSWORD"],
        "host": connection.settings_dict["HOST"] or "127.0.0.1",
        "port": connection.settings_dict["PORT"] or 5432,
    }
    async with await psycopg.AsyncConnection.connect(**database) as holder:
        await holder.execute("select id from tables_table where id = %s for update", [table.pk])
        await actor.send({"type": "action", "id": "mid-kill", "verb": verb})
        for _ in range(WAIT * 10):
            if await _waiting_for_a_lock(database) == 1:
                break
            await asyncio.sleep(0.1)
        else:
            pytest.fail("the worker never waited for the table's lock")
        [blocked] = table_pids(workers, table.pk)
        os.kill(blocked, signal.SIGKILL)
        for _ in range(WAIT * 10):  # the call is made again in a new worker, which waits too
            pids = table_pids(workers, table.pk)
            if pids and pids[0] != blocked and await _waiting_for_a_lock(database) == 2:
                break
            await asyncio.sleep(0.1)
        else:
            pytest.fail("no new worker took the action up again")
        assert await database_sync_to_async(table_state)(table.pk) == before  # nothing written yet
        await holder.rollback()  # the lock released, nothing changed by the test
    reply = await asyncio.wait_for(_read_until_reply(actor, "mid-kill"), timeout=WAIT)
    assert reply["type"] == "ack", reply
    assert await database_sync_to_async(events_with_id)(table.pk, f"{actor.seat_id}:mid-kill") == [reply["seq"]]
    assert any("died" in record.getMessage() for record in caplog.records), "the call was not made again"
    await asyncio.wait_for(sync_all(table.pk, everyone), timeout=WAIT)
    assert await database_sync_to_async(whole_log)(table.pk)
    bought, held = await database_sync_to_async(chips_kept)(table.pk)
    assert held == bought
    for client in everyone:
        await client.close()


def _settings_with(**variables: str) -> subprocess.CompletedProcess:
    environment = clean_environment(DEBUG="true", **variables)
    script = "from django.conf import settings; print(settings.DASHAIN_SERVICE_PROCESSES)"
    return subprocess.run(
        [sys.executable, "-c", script], cwd=ROOT, env=environment, capture_output=True, text=True, timeout=120
    )


POSTGRES = "postgres://dashain:secret@db.internal:5432/dashain"
REDIS = "redis://127.0.0.1:6379/0"


@pytest.mark.parametrize(
    "variables",
    [
        {"DASHAIN_SERVICE_PROCESSES": "2", "REDIS_URL": REDIS},  # SQLite
        {"DASHAIN_SERVICE_PROCESSES": "2", "DATABASE_URL": POSTGRES},  # no Redis
        {"DASHAIN_SERVICE_PROCESSES": "-1", "DATABASE_URL": POSTGRES, "REDIS_URL": REDIS},
        {"DASHAIN_SERVICE_PROCESSES": "65", "DATABASE_URL": POSTGRES, "REDIS_URL": REDIS},
    ],
)
def test_the_setting_is_refused_without_postgresql_and_redis_or_out_of_range(variables):
    result = _settings_with(**variables)
    assert result.returncode != 0
    assert "ImproperlyConfigured" in result.stderr and "DASHAIN_SERVICE_PROCESSES" in result.stderr


def test_the_setting_is_taken_with_postgresql_and_redis():
    result = _settings_with(DASHAIN_SERVICE_PROCESSES="2", DATABASE_URL=POSTGRES, REDIS_URL=REDIS)
    assert result.returncode == 0, result.stderr
    assert result.stdout.split() == ["2"]


KILLED_PARENT = """
import os, sys, time
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
import django
django.setup()
from tables.service_processes import ServiceProcesses
if __name__ == "__main__":
    import asyncio

    async def pids():  # each worker set up and answering: it reads its pipe
        return [await workers.call(index, "os:getpid", {}, repeatable=False) for index in (0, 1)]

    workers = ServiceProcesses(2)
    workers.start()
    print(" ".join(str(pid) for pid in asyncio.run(pids())), flush=True)
    time.sleep(120)
"""


def test_workers_end_when_their_web_process_is_killed_outright(tmp_path):
    """A daphne killed with SIGKILL runs no exit handler: its workers see their parent go and end."""
    script = tmp_path / "parent.py"
    script.write_text(KILLED_PARENT)
    parent = subprocess.Popen(
        [sys.executable, str(script)],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        text=True,
        env={
            **os.environ,
            "PYTHONPATH": str(ROOT),
            # (the workers' warm-up opens the database: one of its own, no service needed)
            "DATABASE_URL": f"sqlite:///{tmp_path / 'site.sqlite3'}",
            "REDIS_URL": "",
        },
    )
    try:
        pids = [int(pid) for pid in parent.stdout.readline().split()]
        assert len(pids) == 2 and all(_alive(pid) for pid in pids)
        time.sleep(0.5)  # idle, waiting for the next call
        parent.send_signal(signal.SIGKILL)
        parent.wait(timeout=10)
        deadline = time.monotonic() + 10
        while any(_alive(pid) for pid in pids) and time.monotonic() < deadline:
            time.sleep(0.1)
        assert not any(_alive(pid) for pid in pids), "a worker outlived its web process"
    finally:
        parent.kill()
        parent.wait()


def _alive(pid: int) -> bool:
    """The process exists and is not a zombie waiting for its (gone) parent to reap it."""
    try:
        with open(f"/proc/{pid}/stat") as stat:
            return stat.read().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False
