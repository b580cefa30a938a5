"""Fault tests: kill the site's processes at chosen points; the table carries on.

Rules pinned (DESIGN.md, "Timers: the table clock"; issue 12): everything due later is a
due time in the database, done once by "do what is due" under the table's lock; the
queued task is only the fast path, and the sweep (every web process and worker, at start
and every second here) does whatever a lost task would have done. A committed action is
always answered; news lost with Redis is caught up from the log.

Each test asserts, after the fault:

- what was due happens within ``BOUND`` seconds of being due, or of the process that
  does it being back when it was down at that moment (the next hand dealt, reminders);
- every acknowledged action is in the log once (a resend of one whose ack was lost is
  answered with the first seq);
- chips are conserved (the ledger's invariant: chips at the table = bought - cashed out);
- the log's seqs run 1..last with no gap, and every player heard events in order.

Two setups: the default (daphne alone: SQLite, in-memory layer, the worker thread in the
web process) runs everywhere; PostgreSQL + Redis (daphne, a Celery worker, a
``redis-server`` of the test's own) is marked ``postgres`` and ``redis``, so CI runs it.
In the Redis setup the web process runs no sweep loop, so the worker's sweep is what is
tested there (and the default setup tests the web process's).
"""

from __future__ import annotations

import asyncio
import os
import shutil
import tempfile
import time
from datetime import datetime
from pathlib import Path

import pytest

from tests.tables.faults import Player, Site, database_for, players_at, reconnected, wait_until

#: Seconds within which something due must happen (sweep every 1 s here, on 2 busy cores).
BOUND = 4.0
#: A socket that heard nothing checks the log after TableConsumer.quiet_seconds (1 s); the
#: bounds below allow it this long, as when it was 5 s.
QUIET = 5.0
CHOICES = {"turn_timer": 5, "hand_pause": 3}


def _site(with_redis: bool):
    workdir = Path(tempfile.mkdtemp(prefix="dashain-faults-"))
    database_url, drop = database_for(workdir, os.environ.get("DATABASE_URL", "") if with_redis else "")
    site = Site(workdir, database_url=database_url, with_redis=with_redis)
    try:
        if with_redis:
            site.start_redis()
        site.run("prepare", str(workdir))
        if with_redis:
            # The web process sweeps nothing here: the worker's sweep must carry the table.
            site.web_env["DASHAIN_CLOCK_SWEEP_SECONDS"] = "0"
            site.start_worker()
        site.start_web()
        yield site
    finally:
        site.stop_all()
        drop()
        if os.environ.get("DASHAIN_KEEP_FAULT_LOGS") != "1":
            shutil.rmtree(workdir, ignore_errors=True)


@pytest.fixture(scope="module")
def default_site():
    yield from _site(with_redis=False)


@pytest.fixture(scope="module")
def redis_site():
    yield from _site(with_redis=True)


def _when(iso: str) -> float:
    return datetime.fromisoformat(iso).timestamp()


def on_turn(players: list[Player]) -> Player:
    turn = next(player.turn for player in players if player.turn)
    return next(player for player in players if str(player.seat) == turn["player"])


async def _start(site: Site, players: list[Player]) -> None:
    reply = await players[0].request({"type": "host", "verb": "start"})
    assert reply is not None and reply["type"] == "ack", reply
    assert await wait_until(lambda: all(player.turn for player in players), 10) is not None


async def _act(player: Player, verb: str, request_id: str) -> dict | None:
    return await player.request({"type": "action", "verb": verb, "id": request_id}, timeout=10)


def _events(check: dict, kind: str) -> list[dict]:
    return [event for event in check["events"] if event["kind"] == kind]


def assert_table_sound(site: Site, code: str, players: list[Player], acked: dict[str, int]) -> dict:
    """Every acked action once (at its acked seq), chips conserved, no gap in the log or in what players heard."""
    check = site.check(code)
    assert [event["seq"] for event in check["events"]] == list(range(1, check["last_seq"] + 1))
    assert check["chips_error"] is None, check["chips_error"]
    for client_action_id, seq in acked.items():
        found = [event for event in check["events"] if event["client_action_id"] == client_action_id]
        assert [event["seq"] for event in found] == [seq], (client_action_id, found)
    for player in players:
        assert player.out_of_order == [], player.out_of_order
    return check


async def _heard_by_all(players: list[Player], kind: str, *, number: int | None = None, timeout: float) -> bool:
    def heard() -> bool:
        return all(
            any(number is None or event.get("data", {}).get("number") == number for event in player.heard_kinds(kind))
            for player in players
        )

    return await wait_until(heard, timeout) is not None


def _next_hand_in_time(check: dict, number: int, back_at: float) -> float:
    """Seconds from when hand ``number`` was due (end of the last + pause, or the process back) to its deal."""
    ended = next(e for e in _events(check, "hand_ended") if e["data"].get("number") == number - 1)
    started = next(e for e in _events(check, "hand_started") if e["data"].get("number") == number)
    due = max(ended["at"] + CHOICES["hand_pause"], back_at)
    return started["at"] - due


# --- the scenarios (each setup runs them on a table of its own) ------------------------


async def kill_web_between_commit_and_queue(site: Site) -> None:
    # No turn timer: the hand's end stores the only due time (the next deal), so the action
    # that ends it queues the clock's task (a time later than one already due queues none).
    table = site.open_table("faras", 2, {"hand_pause": CHOICES["hand_pause"]})
    players = await players_at(site, table)
    try:
        await _start(site, players)
        packer = on_turn(players)
        site.arm_kill_before_queue()
        before = [player.snapshots for player in players]
        assert await _act(packer, "pack", "p1") is None  # the process died before answering
        assert site.web_died(), "the armed fault did not kill the web process"
        site.start_web()
        back_at = time.time()
        await reconnected(players, before)
        # The resend is answered with the seq of the action committed before the kill.
        reply = await _act(packer, "pack", "p1")
        assert reply is not None and reply["type"] == "ack", reply
        acked = {f"{packer.seat}:p1": reply["seq"]}
        # The next deal (stored, its task never queued) comes, and the table carries on.
        assert await _heard_by_all(players, "hand_started", number=2, timeout=CHOICES["hand_pause"] + BOUND + 5)
        check = assert_table_sound(site, table["code"], players, acked)
        assert _next_hand_in_time(check, 2, back_at) <= BOUND
        actor = on_turn(players)
        reply = await _act(actor, "chaal", "a2")
        assert reply is not None and reply["type"] == "ack", reply
    finally:
        for player in players:
            await player.stop()


async def _kill_web_between_hands(site: Site, players: list[Player], code: str, number: int) -> int:
    """A phase: the hand ``number`` ends, the web process is killed in the pause, the next hand comes."""
    packer = on_turn(players)
    reply = await _act(packer, "pack", f"p{number}")
    assert reply is not None and reply["type"] == "ack", reply
    assert await _heard_by_all(players, "hand_ended", number=number, timeout=5)
    before = [player.snapshots for player in players]
    site.kill_web()  # the pause between hands has begun; its task (in memory) dies here
    await asyncio.sleep(1)
    site.start_web()
    back_at = time.time()
    await reconnected(players, before)
    assert await _heard_by_all(players, "hand_started", number=number + 1, timeout=CHOICES["hand_pause"] + BOUND + 5)
    check = assert_table_sound(site, code, players, {f"{packer.seat}:p{number}": reply["seq"]})
    assert _next_hand_in_time(check, number + 1, back_at) <= BOUND
    return number + 1


async def kill_web_while_a_reminder_is_pending_then_between_hands(site: Site) -> None:
    table = site.open_table("faras", 2, CHOICES)
    players = await players_at(site, table)
    try:
        await _start(site, players)
        await asyncio.sleep(1)
        before = [player.snapshots for player in players]
        site.kill_web()
        site.start_web()
        back_at = time.time()
        await reconnected(players, before)
        # Reminded at the deadline, and once more a timer's length later (book 000: never acts).
        assert await _heard_by_all(players, "reminder", timeout=2 * CHOICES["turn_timer"] + 2 * BOUND + 5)
        assert await wait_until(lambda: all(len(p.heard_kinds("reminder")) >= 2 for p in players), 15) is not None
        check = assert_table_sound(site, table["code"], players, {})
        first, second = _events(check, "reminder")[:2]
        assert (first["data"]["count"], second["data"]["count"]) == (1, 2)
        deadline = _when(first["data"]["deadline"])
        assert first["at"] - max(deadline, back_at) <= BOUND
        assert second["at"] - (first["at"] + CHOICES["turn_timer"]) <= BOUND
        assert not [e for e in check["events"] if e["kind"] == "action" and e["actor"] is not None]
        # The same table goes on through a kill in the pause between hands.
        await _kill_web_between_hands(site, players, table["code"], 1)
    finally:
        for player in players:
            await player.stop()


async def kill_worker_with_tasks_reserved(site: Site) -> None:
    table = site.open_table("faras", 2, CHOICES)
    players = await players_at(site, table)
    try:
        await _start(site, players)  # the reminder's task (countdown 5 s) is now reserved by the worker
        await asyncio.sleep(1)
        site.kill_worker()
        back_at = site.start_worker()
        assert await _heard_by_all(players, "reminder", timeout=CHOICES["turn_timer"] + BOUND + 10)
        check = assert_table_sound(site, table["code"], players, {})
        first = _events(check, "reminder")[0]
        # The bound runs from the deadline, or from when the new worker was ready if later.
        assert first["at"] - max(_when(first["data"]["deadline"]), back_at) <= BOUND
        assert [event["data"]["count"] for event in _events(check, "reminder")] == [1, 2][
            : len(_events(check, "reminder"))
        ]
    finally:
        for player in players:
            await player.stop()


async def stop_redis_during_a_turn_then_between_hands(site: Site) -> None:
    table = site.open_table("faras", 2, CHOICES)
    players = await players_at(site, table)
    try:
        await _start(site, players)
        actor = on_turn(players)
        other = next(player for player in players if player is not actor)
        site.stop_redis()
        reply = await _act(actor, "chaal", "c1")
        # Committed, so answered: the broker and the layer being down reach no player.
        assert reply is not None and reply["type"] == "ack", reply
        acked = {f"{actor.seat}:c1": reply["seq"]}
        # A socket that connects now is told to come back, not failed with a 500.
        late = Player(site, table["code"], site.sessions()["host"], table["seats"][0])
        late_task = asyncio.ensure_future(late._run())
        assert await wait_until(lambda: 4503 in late.closes, 10) is not None, late.closes
        late_task.cancel()
        await asyncio.sleep(2)
        site.start_redis()
        # The other player hears the action once Redis is back (the socket's own catch-up).
        assert await wait_until(lambda: other.seq >= reply["seq"], QUIET + BOUND) is not None
        # The clock carries on: the next turn's reminder, then the next hand.
        assert await _heard_by_all(players, "reminder", timeout=CHOICES["turn_timer"] + QUIET + BOUND + 5)
        packer = on_turn(players)
        reply = await _act(packer, "pack", "p1")
        assert reply is not None and reply["type"] == "ack", reply
        acked[f"{packer.seat}:p1"] = reply["seq"]
        assert await _heard_by_all(players, "hand_started", number=2, timeout=CHOICES["hand_pause"] + BOUND + 5)
        assert_table_sound(site, table["code"], players, acked)
        # Between hands: Redis stops while the pause runs; the deal needs only the database.
        packer = on_turn(players)
        reply = await _act(packer, "pack", "p2")
        assert reply is not None and reply["type"] == "ack", reply
        acked[f"{packer.seat}:p2"] = reply["seq"]
        assert await _heard_by_all(players, "hand_ended", number=2, timeout=5)
        site.stop_redis()
        await asyncio.sleep(2)
        site.start_redis()
        back_at = time.time()
        assert await _heard_by_all(players, "hand_started", number=3, timeout=CHOICES["hand_pause"] + QUIET + BOUND + 5)
        heard_after = time.time() - back_at
        check = assert_table_sound(site, table["code"], players, acked)
        # Dealt by the worker's sweep on time; only the news waited for Redis.
        assert _next_hand_in_time(check, 3, 0) <= BOUND
        assert heard_after <= QUIET + BOUND
    finally:
        for player in players:
            await player.stop()


# --- the default setup: one daphne process, no Redis ---------------------------------


async def test_default_kill_web_between_commit_and_queue(default_site):
    await kill_web_between_commit_and_queue(default_site)


async def test_default_kill_web_while_a_reminder_is_pending_then_between_hands(default_site):
    await kill_web_while_a_reminder_is_pending_then_between_hands(default_site)


# --- PostgreSQL + Redis: daphne, a Celery worker, redis-server -------------------------


@pytest.mark.postgres
@pytest.mark.redis
async def test_redis_kill_web_between_commit_and_queue(redis_site):
    await kill_web_between_commit_and_queue(redis_site)


@pytest.mark.postgres
@pytest.mark.redis
async def test_redis_kill_web_while_a_reminder_is_pending_then_between_hands(redis_site):
    await kill_web_while_a_reminder_is_pending_then_between_hands(redis_site)


@pytest.mark.postgres
@pytest.mark.redis
async def test_redis_kill_worker_with_tasks_reserved(redis_site):
    await kill_worker_with_tasks_reserved(redis_site)


@pytest.mark.postgres
@pytest.mark.redis
async def test_redis_stopped_and_started_during_a_turn_then_between_hands(redis_site):
    await stop_redis_during_a_turn_then_between_hands(redis_site)
