"""Players' actions written in worker processes, off the web server's GIL.

A daphne process runs its event loop (every socket's frames) and the services it calls
for them (``database_sync_to_async`` threads) under one interpreter lock. At 100 tables
the services' threads and the loop waited for each other: the action's tail was spent
waiting for the lock, not working (docs/live-play.md, "Issue 13's fifth round").

With ``DASHAIN_SERVICE_PROCESSES`` = N (PostgreSQL and Redis only), each web process
starts N worker processes, and a player's action (``tables.services.hand_act``) runs in
the worker of its table (table id modulo N), one call at a time per worker. The worker
runs the service exactly as a thread would, in its own transaction on its own database
connection, and publishes the news through Redis like any other process; the web process
gets back the seq (or the refusal) for its ``ack`` (or ``error``). The same table always
goes to the same worker, so the worker's cache of the live hand's state stays warm.

A worker that dies (killed, out of memory) loses no action: what it had not committed
was rolled back by PostgreSQL; the call is made once more in a fresh worker with the
same client action id, which the log already holds if the first commit happened (the
resend is a no-op, ``hand_act``). News the dead worker had not yet published is filled
in by each socket from the log, as with any news the layer loses.
"""

from __future__ import annotations

import asyncio
import logging
import multiprocessing
import os
import threading
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any

from django.conf import settings
from django.utils.translation import gettext_lazy

from tables.service_worker import ready, run, worker_start
from tables.services.errors import ServiceError

logger = logging.getLogger(__name__)

LOST = gettext_lazy("The server lost your move on the way. Look at the table, then try again if it is not there.")


#: Settings a service reads while it runs, given to each worker as its web process has them.
WORKER_PLAY_SETTINGS = ("DASHAIN_NEXT_HAND_DELAY", "DASHAIN_COMPUTER_PAUSE", "DASHAIN_CLOCK_SWEEP_SECONDS")


def _enabled_count() -> int:
    return int(getattr(settings, "DASHAIN_SERVICE_PROCESSES", 0) or 0)


class ServiceProcesses:
    """N single-worker process pools, one per slice of the tables."""

    def __init__(self, count: int) -> None:
        self.count = count
        self._pools: list[ProcessPoolExecutor | None] = [None] * count
        self._lock = threading.Lock()

    def _pool(self, index: int) -> ProcessPoolExecutor:
        with self._lock:
            pool = self._pools[index]
            if pool is None:
                pool = self._pools[index] = ProcessPoolExecutor(
                    max_workers=1,
                    mp_context=multiprocessing.get_context("spawn"),
                    initializer=worker_start,
                    initargs=(_worker_settings(), os.getpid()),
                )
            return pool

    def _replace(self, index: int, broken: ProcessPoolExecutor) -> None:
        with self._lock:
            if self._pools[index] is broken:
                self._pools[index] = None
                broken.shutdown(wait=False, cancel_futures=True)

    def start(self) -> None:
        """Start every worker now (each sets Django up once), so no action waits for it."""
        for index in range(self.count):
            self._pool(index).submit(ready)

    async def call(self, table_id: int, function: str, kwargs: dict[str, Any], *, repeatable: bool) -> Any:
        """``function`` (``"module:name"``) called with ``kwargs`` in the worker of ``table_id``;
        its result, or its :class:`ServiceError` raised here. When the worker dies during the
        call, a ``repeatable`` call (a no-op when made again) is made once more in a fresh
        worker; any other is refused with ``lost`` (it may or may not have been made)."""
        index = table_id % self.count
        loop = asyncio.get_running_loop()
        for attempt in (1, 2):
            pool = self._pool(index)
            try:
                outcome = await loop.run_in_executor(pool, run, function, kwargs)
            except BrokenProcessPool:
                self._replace(index, pool)
                logger.warning("the worker of table %s died during %s", table_id, function)
                if attempt == 2 or not repeatable:
                    raise ServiceError("lost", LOST) from None
                continue
            if outcome[0] == "refused":
                _kind, code, message, field = outcome
                raise ServiceError(code, message, field=field)
            return outcome[1]
        raise AssertionError("unreachable")

    def pids(self) -> list[int]:
        """The worker processes' ids (for tests and the load benchmark)."""
        with self._lock:
            pools = [pool for pool in self._pools if pool is not None]
        return [pid for pool in pools for pid in (getattr(pool, "_processes", None) or {})]

    def shutdown(self) -> None:
        with self._lock:
            pools, self._pools = self._pools, [None] * self.count
        for pool in pools:
            if pool is not None:
                pool.shutdown(wait=True, cancel_futures=True)


_processes: ServiceProcesses | None = None
_processes_lock = threading.Lock()


def service_processes() -> ServiceProcesses | None:
    """This web process's workers, made at first use; None when the setting is 0."""
    global _processes
    count = _enabled_count()
    if count <= 0:
        return None
    with _processes_lock:
        if _processes is None or _processes.count != count:
            if _processes is not None:  # the setting changed (a test's override): the old workers stop
                _processes.shutdown()
            _processes = ServiceProcesses(count)
        return _processes


def service_processes_start() -> None:
    """At the web server's start-up: start the workers if the setting asks for them."""
    workers = service_processes()
    if workers is not None:
        workers.start()


def _worker_settings() -> dict[str, Any]:
    """What the worker must share with its web process beyond the environment: the database
    it writes (a test run's own) and the channel layer it publishes on (a site's prefix)."""
    from django.db import connections

    return {
        "database_name": connections["default"].settings_dict["NAME"],
        "channel_layers": settings.CHANNEL_LAYERS,
        # The play settings the web process has now (a test's override among them).
        "play": {name: getattr(settings, name, None) for name in WORKER_PLAY_SETTINGS},
        "setup": getattr(settings, "DASHAIN_SERVICE_WORKER_SETUP", "") or "",
    }
