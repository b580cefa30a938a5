"""Players' moves played by Channels' workers (tables.live.move_workers, DASHAIN_MOVE_WORKERS),
end to end: real sockets in this process, a real ``manage.py runworker --layer moves
table-moves`` process, PostgreSQL and Redis.

Rules pinned: a move played by a worker is acked with its seq, applied once, and its news
(with the pushed view) reaches every socket in order; a refusal is the same ``error`` frame
as without workers (in the player's language) and changes nothing; a resend is a no-op;
with no worker to answer, a move with an id is sent again and played once when a worker
comes (the first answer, late, is dropped), one without an id is answered ``lost``; the
setting is refused without PostgreSQL and Redis.
"""

from __future__ import annotations

import asyncio
import os
import random
import signal
import subprocess
import sys
import urllib.parse
from collections.abc import Iterator
from typing import Any

import pytest
from channels.db import database_sync_to_async
from django.db import connection
from django.test import override_settings

import tables.services
from tables.live import move_workers
from tables.models import Event
from tests.config.test_settings import ROOT, clean_environment
from tests.tables.conftest import repeatable_decks
from tests.tables.move_checks import (
    WAIT,
    _not_here,
    chips_kept,
    connect_in_nepali,
    events_with_id,
    refusals,
    table_state,
    turn_now,
    whole_log,
)
from tests.tables.test_consumer_play import buy_back_the_broke, check_no_leaks, open_ws_table
from tests.tables.ws import play_random_hands, users_of

pytestmark = [pytest.mark.postgres, pytest.mark.redis]


def _worker_environment() -> dict[str, str]:
    """The worker plays on this test's database and Redis names, dealing the next hand at once."""
    settings_dict = connection.settings_dict
    database = urllib.parse.urlunsplit(
        (
            "postgres",
            f"{settings_dict['USER']}:{settings_dict['PASSWORD']}@{settings_dict['HOST']}:{settings_dict['PORT']}",
            f"/{settings_dict['NAME']}",
            "",
            "",
        )
    )
    return {
        **os.environ,
        "DATABASE_URL": database,
        "DASHAIN_MOVE_WORKERS": "true",
        "DASHAIN_NEXT_HAND_DELAY": "0",
        "DASHAIN_CLOCK_SWEEP_SECONDS": "0",
        "DASHAIN_INPROCESS_WORKER": "false",
    }


def start_worker() -> subprocess.Popen:
    return subprocess.Popen(
        [sys.executable, "manage.py", "runworker", "--layer", "moves", "table-moves"],
        cwd=ROOT,
        env=_worker_environment(),
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )


def stop(worker: subprocess.Popen) -> None:
    if worker.poll() is None:
        worker.send_signal(signal.SIGKILL)
    worker.wait(timeout=10)


@pytest.fixture
def moves_on(transactional_db) -> Iterator[None]:
    with override_settings(DASHAIN_MOVE_WORKERS=True, DASHAIN_NEXT_HAND_DELAY=0):
        yield


@pytest.fixture(autouse=True)
def _repeatable_decks(monkeypatch):
    repeatable_decks(monkeypatch, random.Random(2028))


async def test_players_play_through_channels_workers_and_every_socket_hears_it(moves_on, monkeypatch):
    worker = start_worker()
    try:
        table, seats, clients, watchers = await open_ws_table("faras", 3, {"buy_in_chips": 300})
        everyone = [*clients.values(), *watchers]
        turn = await turn_now(table.pk, everyone)
        [actor_user] = await users_of([next(seat for seat in seats if str(seat.pk) == turn["player"])])
        nepali = await connect_in_nepali(table.code, actor_user)
        before = await database_sync_to_async(table_state)(table.pk)
        with override_settings(DASHAIN_MOVE_WORKERS=False):
            here = await refusals(clients, watchers, nepali, turn, "here")
        monkeypatch.setattr(tables.services, "hand_act", _not_here)  # from now on only a worker may play
        # (the consumer hands the client whatever tables.services.hand_act is: send it by its name)
        monkeypatch.setitem(move_workers._MOVE_NAMES, _not_here, "hand_act")
        there = await refusals(clients, watchers, nepali, turn, "there")
        assert there == here
        assert {frame["code"] for frame in there} >= {"not_your_turn", "bad_amount", "not_in_hand"}, there
        assert there[-3]["message"] != there[2]["message"]  # the Nepali sentence, not the English one
        assert await database_sync_to_async(table_state)(table.pk) == before
        await nepali.close()

        # A resend with the same id: the same seq, no second event.
        actor = clients[turn["player"]]
        verb = next(entry["verb"] for entry in turn["legal"] if entry["verb"] != "see")
        first = await asyncio.wait_for(actor.request({"type": "action", "id": "once", "verb": verb}), timeout=WAIT)
        assert first["type"] == "ack", first
        again = await asyncio.wait_for(actor.request({"type": "action", "id": "once", "verb": verb}), timeout=WAIT)
        assert again == first
        assert await database_sync_to_async(events_with_id)(table.pk, f"{actor.seat_id}:once") == [first["seq"]]

        rng = random.Random(8)

        async def now_and_then_a_snapshot() -> None:  # as the page asks after a long gap
            if rng.random() < 0.2:
                for client in everyone:
                    await client.snapshot_now()

        played = await asyncio.wait_for(
            play_random_hands(
                table.pk,
                clients,
                watchers,
                rng,
                max_actions=40,
                see_out_of_turn=True,
                on_idle=lambda: database_sync_to_async(buy_back_the_broke)(table.pk),
                on_action=now_and_then_a_snapshot,
            ),
            timeout=WAIT * 3,
        )
        assert played >= 30
        await database_sync_to_async(table.refresh_from_db)()
        assert table.hands_played >= 2, "hands did not follow one another in the worker"
        assert await database_sync_to_async(whole_log)(table.pk)
        for client in everyone:
            assert client.last_seq == table.last_seq
        bought, held = await database_sync_to_async(chips_kept)(table.pk)
        assert held == bought
        await check_no_leaks(table, clients, watchers)
        for client in everyone:
            await client.close()
    finally:
        stop(worker)


async def _flush_moves() -> None:
    """Nothing left on the moves channel for the next test (a move nobody took stays 30 s)."""
    from channels.layers import get_channel_layer

    await get_channel_layer(move_workers.MOVES_LAYER).flush()


async def test_with_no_worker_a_move_is_sent_again_and_played_once_or_answered_lost(moves_on, monkeypatch):
    await _flush_moves()
    worker = start_worker()  # it sets Django up while the table opens
    table, _seats, clients, watchers = await open_ws_table("faras", 2, {"buy_in_chips": 300})
    everyone = [*clients.values(), *watchers]
    turn = await turn_now(table.pk, everyone)
    actor = clients[turn["player"]]
    verb = next(entry["verb"] for entry in turn["legal"] if entry["verb"] != "see")
    actions_before = await database_sync_to_async(
        lambda: Event.objects.filter(table_id=table.pk, kind="action").count()
    )()

    # A worker that stalls with the move in hand (stopped here; a long collection or an
    # overloaded machine elsewhere): the move is not answered in time and is sent again; the
    # worker then plays both messages, the move and its no-op resend; the answer to the
    # first (given up on) is dropped, and the move is in the log once.
    try:
        warm = await asyncio.wait_for(actor.request({"type": "action", "id": "warm", "verb": verb}), timeout=WAIT)
        assert warm["type"] == "ack", warm  # the worker is up and listening
        monkeypatch.setattr(move_workers, "ANSWER_SECONDS", 1.0)
        turn = await turn_now(table.pk, everyone)
        actor = clients[turn["player"]]
        verb = next(entry["verb"] for entry in turn["legal"] if entry["verb"] != "see")
        worker.send_signal(signal.SIGSTOP)
        sent = asyncio.ensure_future(actor.request({"type": "action", "id": "late", "verb": verb}))
        await asyncio.sleep(1.5)  # past the first wait: the move was sent again
        worker.send_signal(signal.SIGCONT)
        reply = await asyncio.wait_for(sent, timeout=WAIT)
        assert reply["type"] == "ack", reply
        assert await database_sync_to_async(events_with_id)(table.pk, f"{actor.seat_id}:late") == [reply["seq"]]
        actions = await database_sync_to_async(lambda: Event.objects.filter(table_id=table.pk, kind="action").count())()
        assert actions == actions_before + 2, "a move was played more than once"
        # The same socket's next move gets its own answer, not the late one's (the other
        # player moves in between, through their own socket).
        late_actor = actor
        for _ in range(6):
            turn = await turn_now(table.pk, everyone)
            mover = clients[turn["player"]]
            verb = next(entry["verb"] for entry in turn["legal"] if entry["verb"] != "see")
            if mover is late_actor:
                break
            other = await asyncio.wait_for(mover.request({"type": "action", "verb": verb}), timeout=WAIT)
            assert other["type"] == "ack", other
        assert mover is late_actor
        nxt = await asyncio.wait_for(mover.request({"type": "action", "id": "next", "verb": verb}), timeout=WAIT)
        assert nxt["type"] == "ack" and nxt["seq"] > reply["seq"], nxt
        assert await database_sync_to_async(events_with_id)(table.pk, f"{mover.seat_id}:next") == [nxt["seq"]]
    finally:
        worker.send_signal(signal.SIGCONT)
        stop(worker)

    # No worker, and a move without an id (the page's moves always carry one; another client's
    # might not): it may or may not be played later, so it is answered "lost", changing nothing now.
    before = await database_sync_to_async(table_state)(table.pk)
    turn = await turn_now(table.pk, everyone)
    client = move_workers.MoveClient()
    move = {"table_id": table.pk, "seat_id": int(turn["player"]), "verb": verb}
    with pytest.raises(tables.services.ServiceError) as lost:
        await client.play(tables.services.hand_act, move, repeatable=False)
    assert lost.value.code == "lost"
    # With an id too, when no worker answers either time.
    with pytest.raises(tables.services.ServiceError) as lost:
        await client.play(tables.services.hand_act, {**move, "client_action_id": "nobody"}, repeatable=True)
    assert lost.value.code == "lost"
    assert await database_sync_to_async(table_state)(table.pk) == before
    await _flush_moves()
    for client_socket in everyone:
        await client_socket.close()


async def test_a_move_too_deep_to_send_is_refused_before_it_leaves(moves_on):
    deep: Any = []
    for _ in range(5000):
        deep = [deep]
    with pytest.raises(tables.services.ServiceError) as refused:
        await move_workers.MoveClient().play(
            tables.services.hand_act, {"table_id": 1, "seat_id": 1, "verb": deep}, repeatable=True
        )
    assert refused.value.code == "bad_verb"


SET_UP = "import os, django; os.environ['DJANGO_SETTINGS_MODULE'] = 'config.settings'; django.setup()"


def _settings_check(**variables: str) -> subprocess.CompletedProcess:
    environment = clean_environment(DEBUG="true", **variables)
    return subprocess.run(
        [
            sys.executable,
            "-c",
            "import django, os; os.environ['DJANGO_SETTINGS_MODULE']='config.settings'; django.setup()",
        ],
        cwd=ROOT,
        env=environment,
        capture_output=True,
        text=True,
        check=False,
    )


@pytest.mark.parametrize(
    "variables",
    [
        {"DASHAIN_MOVE_WORKERS": "true"},
        {"DASHAIN_MOVE_WORKERS": "true", "REDIS_URL": "redis://127.0.0.1:6379/0"},
    ],
)
def test_the_setting_is_refused_without_postgresql_and_redis(variables):
    done = _settings_check(**variables)
    assert done.returncode != 0 and "DASHAIN_MOVE_WORKERS" in done.stderr, done.stderr[-500:]
