"""Players' actions written in worker processes, off the web server's GIL.

A daphne process runs its event loop (every socket's frames) and the services it calls
for them (``database_sync_to_async`` threads) under one interpreter lock. At 100 tables
the services' threads and the loop waited for each other: the action's tail was spent
waiting for the lock, not working (docs/measurements/live-play.md, "Issue 13's fifth round").

With ``DASHAIN_SERVICE_PROCESSES`` = N (PostgreSQL and Redis only), each web process
starts N worker processes, and a player's move (``tables.services.hand_act``, ``hand_see``)
runs in the worker of its table (table id modulo N), in one of its threads. The
worker runs the service exactly as a thread would, in its own transaction on its own
database connection, and publishes the news through Redis like any other process; the web
process gets back the seq (or the refusal) for its ``ack`` (or ``error``) on a pipe its
event loop reads itself. The same table always goes to the same worker, so the worker's
cache of the live hand's state stays warm.

A worker that dies (killed, out of memory) loses no action: what it had not committed
was rolled back by PostgreSQL; the call is made once more in a fresh worker with the
same client action id, which the log already holds if the first commit happened (the
resend is a no-op, ``hand_act``). News the dead worker had not yet published is filled
in by each socket from the log, as with any news the layer loses.
"""

from __future__ import annotations

import asyncio
import itertools
import logging
import multiprocessing
import pickle
import threading
from typing import Any

from django.conf import settings
from django.utils.translation import gettext_lazy

from tables.service_worker import worker_main
from tables.services.errors import ServiceError

logger = logging.getLogger(__name__)

NOT_AN_ACTION = gettext_lazy("That is not an action.")
LOST = gettext_lazy("The server lost your move on the way. Look at the table, then try again if it is not there.")


#: Settings a service reads while it runs, given to each worker as its web process has them.
WORKER_PLAY_SETTINGS = ("DASHAIN_NEXT_HAND_DELAY", "DASHAIN_COMPUTER_PAUSE")


def _enabled_count() -> int:
    return int(getattr(settings, "DASHAIN_SERVICE_PROCESSES", 0) or 0)


class WorkerLost(Exception):
    """The worker process ended (killed, out of memory) before it answered."""


class WorkerFailed(Exception):
    """The call raised something other than a refusal in the worker (its traceback's text)."""


class _Worker:
    """One worker process and the pipe to it. Calls go down the pipe numbered, and come back
    with their number as each ends (the worker makes several at once); the web process's event
    loop reads the answers itself (``add_reader``), so no thread of the web process waits on
    the pipe or takes the interpreter lock for it."""

    def __init__(self, shared: dict[str, Any]) -> None:
        context = multiprocessing.get_context("spawn")
        here, there = context.Pipe(duplex=True)
        self.process = context.Process(target=worker_main, args=(there, shared), name="dashain-service", daemon=True)
        self.process.start()
        there.close()
        self.pipe = here
        self.loop: asyncio.AbstractEventLoop | None = None
        self.waiting: dict[int, asyncio.Future[tuple[Any, ...]]] = {}
        self.numbers = itertools.count()
        self.lost = False

    def attach(self, loop: asyncio.AbstractEventLoop) -> None:
        """Read the answers on ``loop`` (the web server's; each test has its own)."""
        if self.loop is loop or self.lost:
            return
        if self.loop is not None and not self.loop.is_closed():
            self.loop.remove_reader(self.pipe.fileno())
        for answer in self.waiting.values():  # (asked on another loop, which no longer runs)
            answer.cancel()
        self.waiting.clear()
        self.loop = loop
        loop.add_reader(self.pipe.fileno(), self._answered)

    def send(self, function: str, kwargs: dict[str, Any]) -> asyncio.Future[tuple[Any, ...]]:
        loop = asyncio.get_running_loop()
        self.attach(loop)
        answer: asyncio.Future[tuple[Any, ...]] = loop.create_future()
        if self.lost:
            answer.set_exception(WorkerLost())
            return answer
        number = next(self.numbers)
        try:
            request = pickle.dumps((number, function, kwargs))  # a few hundred bytes
        except Exception:  # (a client's value nested too deep to pickle: not an action)
            answer.set_exception(ServiceError("bad_verb", NOT_AN_ACTION))
            return answer
        try:
            self.pipe.send_bytes(request)
        except OSError:
            self._lose()
            answer.set_exception(WorkerLost())
            return answer
        self.waiting[number] = answer
        return answer

    def _answered(self) -> None:
        try:
            number, outcome = pickle.loads(self.pipe.recv_bytes())  # noqa: S301 (our own child, on a private pipe)
        except (EOFError, OSError):
            self._lose()
            return
        answer = self.waiting.pop(number, None)
        if answer is not None and not answer.done():
            answer.set_result(outcome)

    def _lose(self) -> None:
        if self.lost:
            return
        self.lost = True
        if self.loop is not None and not self.loop.is_closed():
            self.loop.remove_reader(self.pipe.fileno())
        self.pipe.close()
        waiting, self.waiting = self.waiting, {}
        for answer in waiting.values():
            if not answer.done():
                answer.set_exception(WorkerLost())

    def stop(self) -> None:
        """End the worker (from the loop's thread, or once its loop has stopped)."""
        self._lose()
        self.process.terminate()
        self.process.join(timeout=5)


class ServiceProcesses:
    """N worker processes, one per slice of the tables (table id modulo N)."""

    def __init__(self, count: int) -> None:
        self.count = count
        self._workers: list[_Worker | None] = [None] * count
        self._lock = threading.Lock()

    def _worker(self, index: int) -> _Worker:
        with self._lock:
            worker = self._workers[index]
            if worker is not None and worker.lost:
                worker.stop()
                worker = None
            if worker is None:
                worker = self._workers[index] = _Worker(_worker_settings())
            return worker

    def start(self) -> None:
        """Start every worker now (each sets Django up once, ~1 s), so no action waits for it."""
        for index in range(self.count):
            self._worker(index)

    async def call(self, table_id: int, function: str, kwargs: dict[str, Any], *, repeatable: bool) -> Any:
        """``function`` (``"module:name"``) called with ``kwargs`` in the worker of ``table_id``;
        its result, or its :class:`ServiceError` raised here. When the worker dies during the
        call, a ``repeatable`` call (a no-op when made again) is made once more in a fresh
        worker; any other is refused with ``lost`` (it may or may not have been made)."""
        index = table_id % self.count
        for attempt in (1, 2):
            try:
                outcome = await self._worker(index).send(function, kwargs)
            except WorkerLost:
                logger.warning("the worker of table %s died during %s", table_id, function)
                if attempt == 2 or not repeatable:
                    raise ServiceError("lost", LOST) from None
                continue
            if outcome[0] == "refused":
                _kind, code, message, field = outcome
                raise ServiceError(code, message, field=field)
            if outcome[0] == "failed":
                raise WorkerFailed(outcome[1])
            return outcome[1]
        raise AssertionError("unreachable")

    def pids(self) -> list[int]:
        """The worker processes' ids (for tests and the load benchmark)."""
        with self._lock:
            workers = [worker for worker in self._workers if worker is not None and not worker.lost]
        return [worker.process.pid for worker in workers if worker.process.pid is not None]

    def shutdown(self) -> None:
        with self._lock:
            workers, self._workers = self._workers, [None] * self.count
        for worker in workers:
            if worker is not None:
                worker.stop()


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
