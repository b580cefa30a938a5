"""The worker process side of ``tables.service_processes``: set-up and the call.

Imported by a fresh process before Django is set up (it unpickles :func:`worker_start`),
so nothing here imports a model at the top.
"""

from __future__ import annotations

import asyncio
import importlib
import os
import signal
import threading
import time
from typing import Any


def worker_start(shared: dict[str, Any], parent_pid: int) -> None:
    """Set Django up in a fresh worker, and give it an event loop of its own for its news."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the web process stops its workers itself
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    import django
    from django.conf import settings

    django.setup()
    settings.DATABASES["default"]["NAME"] = shared["database_name"]
    settings.CHANNEL_LAYERS = shared["channel_layers"]
    for name, value in shared["play"].items():
        setattr(settings, name, value)

    from tables.services.log import remember_server_loop

    loop = asyncio.new_event_loop()
    started = threading.Event()

    def remember() -> None:
        remember_server_loop(loop)
        started.set()

    def run_loop() -> None:
        asyncio.set_event_loop(loop)
        loop.call_soon(remember)
        loop.run_forever()

    threading.Thread(target=run_loop, name="dashain-news", daemon=True).start()
    started.wait(timeout=10)
    threading.Thread(target=_exit_with_parent, args=(parent_pid,), name="dashain-parent", daemon=True).start()
    if shared["setup"]:
        module, _, name = shared["setup"].partition(":")
        getattr(importlib.import_module(module), name)()
    _warm_up(loop)
    from config.collector import collector_settle

    collector_settle()  # as in the web process: the tail of every action depends on it


def _warm_up(loop: asyncio.AbstractEventLoop) -> None:
    """Open the database connection and the channel layer's Redis connection now, not at the
    first player's action."""
    from channels.layers import get_channel_layer
    from django.db import connection

    import tables.services  # noqa: F401 (imported for its import time)

    connection.ensure_connection()
    layer = get_channel_layer()
    if layer is not None:
        sent = asyncio.run_coroutine_threadsafe(layer.group_send("service-worker-started", {"type": "none"}), loop)
        sent.result(timeout=10)


def _exit_with_parent(parent_pid: int) -> None:
    """A worker whose web process was killed outright ends too."""
    while os.getppid() == parent_pid:
        time.sleep(1.0)
    os._exit(0)


def ready() -> bool:
    return True


def run(function: str, kwargs: dict[str, Any]) -> tuple[Any, ...]:
    """In the worker: call ``function`` as a service thread would (the connection checked
    before and after); a refusal comes back as a value, with its translatable message."""
    from django.db import close_old_connections

    from tables.services.errors import ServiceError

    module, _, name = function.partition(":")
    target = getattr(importlib.import_module(module), name)
    close_old_connections()
    try:
        return ("done", target(**kwargs))
    except ServiceError as error:
        return ("refused", error.code, error.message, error.field)
    finally:
        close_old_connections()
