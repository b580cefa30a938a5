"""The worker process side of ``tables.service_processes``: set-up and the call.

Imported by a fresh process before Django is set up (it unpickles :func:`worker_main`),
so nothing here imports a model at the top.

A worker publishes the news of a call itself, from the thread that made the call, once the
call is done and before it answers (:func:`run`): the layer sends wait in a list meanwhile
(``tables.news.layer_sends_hold``). An event loop in a thread of its own did that
first, but the two threads then waited for each other's turn at the interpreter lock on
every action (``benchmarks/live_load.py``, docs/live-play.md).
"""

from __future__ import annotations

import importlib
import logging
import os
import pickle
import signal
import threading
import traceback
from typing import Any

logger = logging.getLogger(__name__)

#: Calls a worker makes at once, each in a thread of its own: most of a call is spent
#: waiting for PostgreSQL, and the table's row lock keeps one table's moves one at a time.
THREADS = 4


def worker_start(shared: dict[str, Any]) -> None:
    """Set Django up in a fresh worker with its web process's database, layer and play settings."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the web process stops its workers itself
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    import django
    from django.conf import settings

    django.setup()
    settings.DATABASES["default"]["NAME"] = shared["database_name"]
    settings.CHANNEL_LAYERS = shared["channel_layers"]
    for name, value in shared["play"].items():
        setattr(settings, name, value)

    from tables.news import layer_sends_hold

    layer_sends_hold()
    if shared["setup"]:
        module, _, name = shared["setup"].partition(":")
        getattr(importlib.import_module(module), name)()
    _warm_up()
    from config.collector import collector_settle

    collector_settle()  # as in the web process: the tail of every action depends on it


def _warm_up() -> None:
    """Import the services and open the channel layer's Redis connection now, not at the first
    player's action (each calling thread opens its database connection: ``worker_main``)."""
    import tables.services  # noqa: F401 (imported for its import time)
    from tables.news import layer_send

    layer_send("service-worker-started", {"type": "none"})
    _publish_held()


def _publish_held() -> None:
    """Publish the layer sends this thread's call made, in order, in one round trip to Redis.
    A failure is logged: the log is the record, and each socket fills a gap from it."""
    from tables.news import layer_sends_held

    sends = layer_sends_held()
    if not sends:
        return
    from channels.layers import get_channel_layer

    layer = get_channel_layer()
    try:
        send_many = getattr(layer, "group_send_many_blocking", None)
        if send_many is not None:
            send_many(sends)
        elif layer is not None:
            from asgiref.sync import async_to_sync

            for group, message in sends:
                async_to_sync(layer.group_send)(group, message)
    except Exception:
        logger.exception("group sends to %s failed", sorted({group for group, _ in sends}))


def worker_main(pipe: Any, shared: dict[str, Any]) -> None:
    """The worker process: set up, then make each call sent down ``pipe`` in one of
    :data:`THREADS` threads and send back ``(call number, outcome)`` as each ends, until the
    web process closes the pipe (``tables.service_processes._Worker``)."""
    from concurrent.futures import ThreadPoolExecutor

    worker_start(shared)
    answering = threading.Lock()

    def answer(number: int, function: str, kwargs: dict[str, Any]) -> None:
        outcome = run(function, kwargs)
        try:
            data = pickle.dumps((number, outcome))
        except Exception:  # (a result that cannot cross: a bug, said as such)
            data = pickle.dumps((number, ("failed", traceback.format_exc())))
        with answering:
            pipe.send_bytes(data)

    with ThreadPoolExecutor(max_workers=THREADS, thread_name_prefix="dashain-service") as calls:
        # Every thread started and its database connection opened now: the pool makes a
        # thread only when a call finds none free, and a move would wait for that thread's
        # connection (tens of ms), at the first busy moment of the day.
        all_started = threading.Barrier(THREADS)
        for _ in range(THREADS):
            calls.submit(_connection_open, all_started)
        while True:
            try:
                number, function, kwargs = pickle.loads(pipe.recv_bytes())  # noqa: S301 (from our own parent, on a private pipe)
            except (EOFError, OSError):  # the web process closed it, or ended (even killed outright)
                return
            calls.submit(answer, number, function, kwargs)


def _connection_open(all_started: threading.Barrier) -> None:
    from django.db import connection

    connection.ensure_connection()
    all_started.wait(timeout=60)  # (so that each of these runs in a thread of its own)


def run(function: str, kwargs: dict[str, Any]) -> tuple[Any, ...]:
    """In the worker: call ``function`` as a service thread would (the connection checked
    before and after), then publish its news; a refusal comes back as a value, with its
    translatable message."""
    from django.db import close_old_connections

    from tables.services.errors import DATABASE_UNAVAILABLE, ServiceError, unavailable_error

    module, _, name = function.partition(":")
    target = getattr(importlib.import_module(module), name)
    close_old_connections()
    try:
        return ("done", target(**kwargs))
    except ServiceError as error:
        return ("refused", error.code, error.message, error.field)
    except DATABASE_UNAVAILABLE:  # the database is away: the player is told to try again
        logger.warning("%s: database unavailable", function, exc_info=True)
        refusal = unavailable_error()
        return ("refused", refusal.code, refusal.message, refusal.field)
    except Exception:
        logger.exception("%s failed in a service worker", function)
        return ("failed", traceback.format_exc())
    finally:
        _publish_held()
        close_old_connections()
