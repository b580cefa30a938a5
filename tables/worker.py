"""A Celery worker inside the web process, for the default setup with no Redis.

Celery's in-memory transport (``CELERY_BROKER_URL = "memory://"``) only reaches a
worker in the same process, so ``config.asgi`` starts one here when
``settings.DASHAIN_INPROCESS_WORKER`` is true. It runs the solo pool in a daemon
thread: reminders and next-hand tasks wait for their countdown in Celery's own
timer, then run their service, which broadcasts through the server's event loop
(see ``tables.services.log.broadcast``). With ``REDIS_URL`` run ``celery -A config
worker`` instead and leave ``DASHAIN_INPROCESS_WORKER`` off.
"""

from __future__ import annotations

import logging
import threading
from typing import Any

logger = logging.getLogger(__name__)

_lock = threading.Lock()
_worker: Any = None
_thread: threading.Thread | None = None


def inprocess_worker_start() -> threading.Thread:
    """Start the worker thread once per process; returns it."""
    global _worker, _thread
    with _lock:
        if _thread is not None and _thread.is_alive():
            return _thread
        import tables.tasks  # noqa: F401  (registers the tasks with the app)
        from config.celery import app

        _worker = app.WorkController(
            pool_cls="solo",
            concurrency=1,
            hostname="dashain-inprocess@localhost",
            without_heartbeat=True,
            without_mingle=True,
            without_gossip=True,
            optimization="fair",
            loglevel="WARNING",
        )
        _thread = threading.Thread(target=_run, args=(_worker,), name="dashain-worker", daemon=True)
        _thread.start()
        return _thread


def _run(worker: Any) -> None:
    try:
        worker.start()
    except Exception:
        logger.exception("the in-process Celery worker stopped")


def inprocess_worker_stop() -> None:
    """Stop the worker (tests)."""
    global _worker, _thread
    with _lock:
        if _worker is not None:
            _worker.stop(in_sighandler=False)
        if _thread is not None:
            _thread.join(timeout=10)
        _worker, _thread = None, None
