"""Database connections end with their request or call, or come from a bounded pool.

Rules pinned (issue 34, config/settings.py ``database_connections``; docs/deployment.md,
"Database connections"):

- a ``DATABASE_URL`` that keeps connections (``conn_max_age``) is refused with a clear
  error: under daphne (ASGI) it left one idle PostgreSQL session per request until the
  server refused more;
- on PostgreSQL each process has Django's psycopg pool, of at most ``DATABASE_POOL_SIZE``
  connections (10 by default; 0: none, a connection per request or call); the size and
  the URL's own ``pool`` are checked;
- a pool never crosses a fork (the Celery worker forks its pool's processes): the child
  gets connections of its own, and the parent's go on working.

``tests/config/test_database_connections_daphne.py`` counts the sessions a real daphne holds.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from tests.config.test_settings import PRODUCTION, ROOT, clean_environment, manage, settings_seen_with


@pytest.mark.parametrize(
    "query", ["?conn_max_age=600", "?conn_max_age=None", "?conn_max_age=1&conn_health_checks=true"]
)
def test_a_database_url_that_keeps_connections_is_refused(query):
    environment = clean_environment(**PRODUCTION | {"DATABASE_URL": PRODUCTION["DATABASE_URL"] + query})

    result = manage("check", environment=environment)

    assert result.returncode != 0
    assert "DATABASE_URL keeps connections (conn_max_age=" in result.stderr
    assert "DATABASE_POOL_SIZE" in result.stderr


def test_postgresql_gets_a_pool_of_ten_connections_by_default():
    database = settings_seen_with(clean_environment(**PRODUCTION))["database"]

    assert database["CONN_MAX_AGE"] == 0
    pool = database["OPTIONS"]["pool"]
    assert pool["max_size"] == 10
    assert pool["min_size"] == 2
    assert pool["timeout"] == pool["reconnect_timeout"] == 2.0


@pytest.mark.parametrize(("size", "most", "fewest"), [("4", 4, 2), ("1", 1, 1), ("40", 40, 2)])
def test_the_pool_size_is_the_operators(size, most, fewest):
    database = settings_seen_with(clean_environment(**PRODUCTION | {"DATABASE_POOL_SIZE": size}))["database"]

    assert (database["OPTIONS"]["pool"]["max_size"], database["OPTIONS"]["pool"]["min_size"]) == (most, fewest)


def test_the_pools_wait_is_the_operators():
    database = settings_seen_with(clean_environment(**PRODUCTION | {"DATABASE_POOL_TIMEOUT": "0.5"}))["database"]

    assert database["OPTIONS"]["pool"]["timeout"] == database["OPTIONS"]["pool"]["reconnect_timeout"] == 0.5


def test_pool_size_zero_means_a_connection_per_request_closed_after_it():
    database = settings_seen_with(clean_environment(**PRODUCTION | {"DATABASE_POOL_SIZE": "0"}))["database"]

    assert "pool" not in database.get("OPTIONS", {})
    assert database["CONN_MAX_AGE"] == 0


def test_sqlite_has_no_pool_and_keeps_no_connection():
    database = settings_seen_with(clean_environment())["database"]

    assert database["ENGINE"] == "django.db.backends.sqlite3"
    assert "pool" not in database["OPTIONS"]
    assert database["CONN_MAX_AGE"] == 0


@pytest.mark.parametrize(
    ("variables", "message"),
    [
        ({"DATABASE_POOL_SIZE": "ten"}, "DATABASE_POOL_SIZE is a whole number"),
        ({"DATABASE_POOL_SIZE": "-1"}, "DATABASE_POOL_SIZE is 0 (no pool) or more"),
        ({"DATABASE_URL": PRODUCTION["DATABASE_URL"] + "?pool=true"}, "DATABASE_URL may not set pool"),
        ({"DATABASE_POOL_TIMEOUT": "two"}, "DATABASE_POOL_TIMEOUT is a number of seconds"),
        ({"DATABASE_POOL_TIMEOUT": "0"}, "DATABASE_POOL_TIMEOUT is more than 0"),
        ({"DATABASE_POOL_TIMEOUT": "601"}, "DATABASE_POOL_TIMEOUT is more than 0"),
    ],
)
def test_a_pool_set_wrong_is_refused(variables, message):
    result = manage("check", environment=clean_environment(**PRODUCTION | variables))

    assert result.returncode != 0
    assert message in result.stderr


FORK_CHECK = """
import json, os, threading
import django
django.setup()
import config  # the Celery app, loaded by every process of the site
from django.db import connection

def backend_pid():
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_backend_pid()")
        return cursor.fetchone()[0]

seen = {}
def request():
    seen["parent"] = backend_pid()
    connection.close()  # given back to the pool, as at the end of a request
thread = threading.Thread(target=request)
thread.start()
thread.join()
read, write = os.pipe()
child = os.fork()
if child == 0:
    os.close(read)
    try:
        answer = {"child": backend_pid()}
        connection.close()
    except Exception as error:
        answer = {"child_error": repr(error)}
    os.write(write, json.dumps(answer).encode())
    os._exit(0)
os.close(write)
os.waitpid(child, 0)
seen.update(json.loads(os.read(read, 4096)))
seen["parent_after"] = backend_pid()
print(json.dumps(seen))
"""


@pytest.mark.postgres
def test_a_forked_process_never_talks_on_its_parents_pooled_connections():
    """The parent's pooled connection was PostgreSQL session P; the child, forked after,
    must get a session of its own (with the inherited pool it got P, the parent's socket),
    and the parent goes on querying afterwards."""
    environment = {**os.environ, "DJANGO_SETTINGS_MODULE": "config.settings", "PYTHONPATH": str(ROOT)}
    environment.pop("DATABASE_POOL_SIZE", None)
    # What is checked is whose session the child talks on, not how fast a session opens: the
    # child's new pool opens its sessions after the fork, which on a machine loaded to 12 took
    # longer than the 2 s a request waits (PoolTimeout), so the child waits longer here.
    environment["DATABASE_POOL_TIMEOUT"] = "60"
    done = subprocess.run(
        [sys.executable, "-c", FORK_CHECK], cwd=ROOT, env=environment, capture_output=True, text=True, timeout=120
    )

    assert done.returncode == 0, done.stderr[-3000:]
    seen = json.loads(done.stdout.strip().splitlines()[-1])
    assert "child" in seen, seen
    assert seen["child"] != seen["parent"]
    assert seen["parent_after"] != seen["child"]
