"""With Redis: a real ``celery -A config worker`` process delivers a turn reminder to the sockets.

Rule pinned (DESIGN.md, timers): the reminder is queued after commit with the turn's
countdown, runs in a separate worker process, reminds only the turn still waiting and
reaches the players through channels-redis; it never acts. Needs PostgreSQL (the worker
process reads the same test database) and Redis.
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
import uuid
from pathlib import Path

import pytest
from channels.db import database_sync_to_async
from django.db import connection

from tables.models import Event
from tables.services import table_start
from tests.tables.conftest import open_table
from tests.tables.ws import connect, users_of

pytestmark = [pytest.mark.redis, pytest.mark.postgres, pytest.mark.django_db(transaction=True)]

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def celery_worker_process(settings, monkeypatch):
    """A Celery worker process on its own queue (so no other worker on this Redis takes the task)."""
    from config.celery import app

    queue = f"dashain-test-{uuid.uuid4().hex[:8]}"
    monkeypatch.setattr(app.conf, "task_default_queue", queue)
    db = connection.settings_dict
    env = dict(os.environ)
    env["DATABASE_URL"] = f"postgres://{db['USER']}:{db['PASSWORD']}@{db['HOST']}:{db['PORT']}/{db['NAME']}"
    env["DASHAIN_INPROCESS_WORKER"] = "false"
    worker = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "celery",
            "-A",
            "config",
            "worker",
            "-P",
            "solo",
            "-Q",
            queue,
            "--without-heartbeat",
            "--without-mingle",
            "--without-gossip",
            "--loglevel",
            "WARNING",
        ],
        cwd=ROOT,
        env=env,
    )
    yield worker
    worker.terminate()
    try:
        worker.wait(timeout=20)
    except subprocess.TimeoutExpired:
        worker.kill()


async def test_a_celery_worker_process_reminds_the_waiting_player(celery_worker_process):
    table, seats = await database_sync_to_async(open_table)("faras", 2, {"turn_timer": 5}, False)
    users = await users_of(seats)
    _ok, client, _ = await connect(table.code, user=users[0])
    await database_sync_to_async(table_start)(table_id=table.pk, seat_id=seats[0].pk)
    started = time.monotonic()
    reminder = None
    while reminder is None and time.monotonic() - started < 60:
        # One long read: the worker process may take a while to start on a busy machine,
        # and a read that times out would end the socket (asgiref cancels the app).
        frame = await client.read_one(timeout=max(1.0, 60 - (time.monotonic() - started)))
        for event in frame.get("events", []):
            if event.get("kind") == "reminder":
                reminder = event
    assert celery_worker_process.poll() is None, "the worker process died"
    assert reminder is not None, "no reminder reached the socket"
    actions = await database_sync_to_async(
        lambda: Event.objects.filter(table=table, kind="action", actor__isnull=False).count()
    )()
    assert actions == 0
    await client.close()
