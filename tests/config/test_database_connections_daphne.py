"""A real daphne holds no more PostgreSQL sessions than its pool, whatever it serves.

Rule pinned (issue 34; docs/deployment.md, "Database connections"): under daphne every HTTP
request runs in a thread of its own, and the table sockets' service calls in the event
loop's thread pool; the web process also runs the clock's sweep and, without Redis, the
Celery worker thread. All of them take their connections from one pool of
``DATABASE_POOL_SIZE``, so many requests and many sockets at once leave at most that many
sessions in ``pg_stat_activity`` for the site's database, during the load and after it.
With README's former ``?conn_max_age=600`` the same requests left one idle session each.

The site runs in a subprocess (``tests/tables/fault_site.py``) on a PostgreSQL database of
its own, beside the suite's; the count reads ``pg_stat_activity`` from another database.
"""

from __future__ import annotations

import asyncio
import os
import shutil
import tempfile
import threading
import urllib.request
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from tests.tables.faults import Player, Site, database_for

pytestmark = pytest.mark.postgres

POOL_SIZE = 3
REQUESTS = 40
SOCKETS = 30


#: The web process's sessions are told apart by their application name (libpq reads PGAPPNAME):
#: the suite's commands that prepare the site and open its table are processes of their own,
#: with pools of their own, and a backend of one that just exited can still be listed.
WEB_APPLICATION = "dashain-web-under-test"


def site_sessions(database_url: str) -> int:
    """How many sessions the web process has open on the database of ``database_url``."""
    import environ
    import psycopg

    settings_dict = environ.Env.db_url_config(database_url)
    options = dict(
        user=settings_dict["USER"],
        password=settings_dict["PASSWORD"],
        host=settings_dict["HOST"] or None,
        port=settings_dict["PORT"] or None,
        autocommit=True,
    )
    with psycopg.connect(dbname="postgres", **options) as connection:
        row = connection.execute(
            "SELECT count(*) FROM pg_stat_activity WHERE datname = %s AND application_name = %s",
            [settings_dict["NAME"], WEB_APPLICATION],
        ).fetchone()
    assert row is not None
    return int(row[0])


class SessionCounter:
    """Counts the database's sessions every 20 ms on a thread of its own; ``peak`` is the most seen."""

    def __init__(self, database_url: str) -> None:
        self.database_url = database_url
        self.counts: list[int] = []
        self.stopping = threading.Event()
        self.thread = threading.Thread(target=self._run, daemon=True)

    def _run(self) -> None:
        while not self.stopping.wait(0.02):
            self.counts.append(site_sessions(self.database_url))

    def __enter__(self) -> SessionCounter:
        self.thread.start()
        return self

    def __exit__(self, *_exc: object) -> None:
        self.stopping.set()
        self.thread.join(timeout=10)

    @property
    def peak(self) -> int:
        return max(self.counts, default=0)


@pytest.fixture
def site():
    workdir = Path(tempfile.mkdtemp(prefix="dashain-connections-"))
    database_url, drop = database_for(workdir, os.environ.get("DATABASE_URL", ""))
    site = Site(workdir, database_url=database_url, with_redis=False)
    site.env.update(
        DEBUG="false",
        DATABASE_POOL_SIZE=str(POOL_SIZE),
        # Many sockets of one person from one address: the limits per person are not what is measured.
        DASHAIN_SOCKETS_PER_PERSON="1000",
        DASHAIN_READS_PER_PERSON_BURST="1000",
    )
    site.web_env["PGAPPNAME"] = WEB_APPLICATION
    try:
        site.run("prepare", str(workdir))
        site.start_web()
        yield site
    finally:
        site.stop_all()
        drop()
        shutil.rmtree(workdir, ignore_errors=True)


def test_many_requests_and_sockets_at_once_hold_at_most_the_pools_connections(site):
    table = site.open_table("faras", 2, {})
    session = site.sessions()["host"]
    database_url = site.env["DATABASE_URL"]

    def home_page(_number: int) -> int:
        request = urllib.request.Request(f"http://127.0.0.1:{site.port}/", headers={"Cookie": f"sessionid={session}"})
        with urllib.request.urlopen(request, timeout=60) as response:
            return response.status

    async def sockets() -> list[int]:
        players = [Player(site, table["code"], session, table["seats"][0]) for _ in range(SOCKETS)]
        await asyncio.gather(*(player.start() for player in players))
        snapshots = [player.snapshots for player in players]
        await asyncio.gather(*(player.stop() for player in players))
        return snapshots

    with SessionCounter(database_url) as counter:
        with ThreadPoolExecutor(20) as requests:
            statuses = list(requests.map(home_page, range(REQUESTS)))
        snapshots = asyncio.run(sockets())
    after = site_sessions(database_url)

    assert statuses == [200] * REQUESTS  # each one read the session and the user from the database
    assert snapshots == [1] * SOCKETS
    assert counter.counts and counter.peak >= 1  # the count sees the site's sessions
    assert counter.peak <= POOL_SIZE, counter.peak
    assert after <= POOL_SIZE, after
