"""The threads that run the services for the sockets (``tables.consumers.database_sync_to_async``):
on PostgreSQL at most ``DASHAIN_DB_THREADS`` of them, in parallel; on SQLite one."""

from __future__ import annotations

import asyncio
import threading
import time

import pytest

from tables import consumers


def _recorder(seen: list[int], running: list[int], most: list[int], lock: threading.Lock):
    def call() -> None:
        with lock:
            seen.append(threading.get_ident())
            running[0] += 1
            most[0] = max(most[0], running[0])
        time.sleep(0.05)  # long enough for the calls to overlap when they can
        with lock:
            running[0] -= 1

    return call


@pytest.fixture
def fresh_threads(monkeypatch):
    """A new pool for the test (the process keeps one, made at the first call)."""
    monkeypatch.setattr(consumers, "_threads", None)
    yield
    if consumers._threads is not None:
        consumers._threads.shutdown(wait=True)


@pytest.mark.parametrize("threads", [1, 2, 3])
async def test_on_postgresql_services_run_in_at_most_the_set_number_of_threads(
    threads, settings, monkeypatch, fresh_threads
):
    settings.DASHAIN_DB_THREADS = threads
    monkeypatch.setattr(consumers, "_parallel_database", lambda: True)
    seen: list[int] = []
    running, most = [0], [0]
    call = _recorder(seen, running, most, threading.Lock())

    await asyncio.gather(*(consumers.database_sync_to_async(call)() for _ in range(8)))

    assert len(seen) == 8
    assert most[0] == threads  # as many at once as allowed, never more
    assert len(set(seen)) == threads
    assert threading.get_ident() not in seen  # never on the event loop's thread


async def test_on_sqlite_services_run_one_at_a_time(settings, monkeypatch, fresh_threads):
    settings.DASHAIN_DB_THREADS = 4
    monkeypatch.setattr(consumers, "_parallel_database", lambda: False)
    seen: list[int] = []
    running, most = [0], [0]
    call = _recorder(seen, running, most, threading.Lock())

    await asyncio.gather(*(consumers.database_sync_to_async(call)() for _ in range(4)))

    assert most[0] == 1
    assert consumers._threads is None  # the pool is PostgreSQL's only
