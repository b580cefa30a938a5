"""Background threads of a process: the in-process Celery worker, and the table clock's sweep.

**The worker** (default setup with no Redis).

Celery's in-memory transport (``CELERY_BROKER_URL = "memory://"``) only reaches a
worker in the same process, so ``config.asgi`` starts one here when
``settings.DASHAIN_INPROCESS_WORKER`` is true. It runs the solo pool in a daemon
thread: the clock's tasks (the next deal, reminders) wait for their countdown in Celery's own
timer, then run their service, which broadcasts through the server's event loop
(see ``tables.broadcast.broadcast``). With ``REDIS_URL`` run ``celery -A config
worker`` instead and leave ``DASHAIN_INPROCESS_WORKER`` off.

**The sweep** (every web process and every Celery worker): a daemon thread that runs
``tables.services.table_clock_sweep`` at start and every ``DASHAIN_CLOCK_SWEEP_SECONDS``,
so whatever a lost task would have done happens within seconds (docs/operations.md).
"""

from __future__ import annotations

import logging
import threading
import time
from typing import Any

from django.dispatch import Signal

logger = logging.getLogger(__name__)

#: Sent after each sweep of the table clock, by the same loop: other apps' due things ride on
#: it (the e-mails of home game nights, ``homegames.services.notices_sweep``) without the
#: tables importing them. A receiver's failure is logged and stops nothing.
swept = Signal()

_lock = threading.Lock()
_thread: threading.Thread | None = None


def inprocess_worker_start() -> threading.Thread:
    """Start the worker thread once per process; returns it."""
    global _thread
    with _lock:
        if _thread is not None and _thread.is_alive():
            return _thread
        import tables.celery_tasks  # noqa: F401  (registers the tasks with the app)
        from config.celery import app

        worker = app.WorkController(
            pool_cls="solo",
            concurrency=1,
            hostname="dashain-inprocess@localhost",
            without_heartbeat=True,
            without_mingle=True,
            without_gossip=True,
            optimization="fair",
            loglevel="WARNING",
        )
        _thread = threading.Thread(target=_run, args=(worker,), name="dashain-worker", daemon=True)
        _thread.start()
        return _thread


def _run(worker: Any) -> None:
    try:
        worker.start()
    except Exception:
        logger.exception("the in-process Celery worker stopped")


# --- the clock's sweep -----------------------------------------------------------

_sweeper_lock = threading.Lock()
_sweeper: threading.Thread | None = None


def clock_sweeper_start(interval: float | None = None) -> threading.Thread | None:
    """Start the table clock's sweep loop in this process (once); returns its thread.

    It runs :func:`tables.services.table_clock_sweep` at once (a process that starts
    does what became overdue while nothing ran) and then every ``interval`` seconds
    (``DASHAIN_CLOCK_SWEEP_SECONDS``; 0 or less: no loop). Every web process and every
    Celery worker runs one; the table's row lock makes them safe together.
    """
    global _sweeper
    from django.conf import settings

    if interval is None:
        interval = float(settings.DASHAIN_CLOCK_SWEEP_SECONDS or 0)
    if interval <= 0:
        return None
    with _sweeper_lock:
        if _sweeper is not None and _sweeper.is_alive():
            return _sweeper
        _sweeper = threading.Thread(target=_sweep_loop, args=(interval,), name="dashain-clock", daemon=True)
        _sweeper.start()
        return _sweeper


def _sweep_loop(interval: float) -> None:
    from django.db import close_old_connections

    from tables.services import table_clock_sweep

    while True:
        try:
            table_clock_sweep()
        except Exception:  # the database is down: try again next time
            logger.warning("the clock's sweep failed; trying again in %s s", interval, exc_info=True)
        for receiver, error in swept.send_robust(sender=None):
            if isinstance(error, Exception):
                logger.warning("%s failed in the clock's sweep", receiver, exc_info=error)
        close_old_connections()
        time.sleep(interval)
