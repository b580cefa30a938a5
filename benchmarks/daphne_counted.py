"""daphne, counting every SQL statement the server runs and the row locks among them,
and timing the pauses of its event loop.

For ``benchmarks/live_load.py``: ``python -m benchmarks.daphne_counted COUNTS_FILE <daphne
arguments>``. Each database connection the server opens gets an execute wrapper (Django's
``connection.execute_wrapper``) that adds to two counters; on ``SIGUSR1`` the counters are
written to ``COUNTS_FILE`` as JSON, so the load generator can take the difference over its
measuring window. A lock is a statement with ``FOR UPDATE`` (``select_for_update``).

Two more records, for the tail (the 99th percentile) rather than the mean:

- ``gc``: every collection of Python's garbage collector, ``[generation, milliseconds,
  CPU milliseconds, objects collected]`` (``gc.callbacks``; the collector holds the GIL, so every thread
  waits while it runs; on a busy machine the wall time includes time the process was
  not given a core, the CPU time does not);
- ``lags``: how late the event loop ran a callback it had asked for every
  ``LAG_EVERY`` seconds, in milliseconds: the time a frame that arrived then waited
  before the loop could look at it.

Both are lists that only grow; the load generator keeps the part written during its
window. Nothing else about the server changes.
"""

from __future__ import annotations

import gc
import json
import signal
import sys
import threading
import time
from pathlib import Path
from typing import Any

LAG_EVERY = 0.01

_counts = {"queries": 0, "locks": 0}
_gc: list[list[float]] = []
_lags: list[float] = []
_lock = threading.Lock()
_gc_started: dict[str, float] = {}


def _count(execute: Any, sql: str, params: Any, many: bool, context: Any) -> Any:
    with _lock:
        _counts["queries"] += 1
        if "FOR UPDATE" in sql.upper():
            _counts["locks"] += 1
    return execute(sql, params, many, context)


def _on_connection(sender: Any, connection: Any, **kwargs: Any) -> None:
    if _count not in connection.execute_wrappers:
        connection.execute_wrappers.append(_count)


def _on_gc(phase: str, info: dict[str, Any]) -> None:
    # Called with the collector's own lock held, by whichever thread triggered it.
    if phase == "start":
        _gc_started["at"], _gc_started["cpu"] = time.perf_counter(), time.thread_time()
    elif "at" in _gc_started:
        wall = time.perf_counter() - _gc_started.pop("at")
        cpu = time.thread_time() - _gc_started.pop("cpu")
        _gc.append([info["generation"], 1000 * wall, 1000 * cpu, info["collected"]])


def _lag_probe() -> None:
    """Once the server's loop runs: ask it to call back every LAG_EVERY s and note how late it was."""
    from twisted.internet import reactor

    loop = reactor._asyncioEventloop  # daphne's loop (twisted's asyncio reactor)

    def tick(expected: float) -> None:
        now = loop.time()
        _lags.append(1000 * (now - expected))
        loop.call_at(now + LAG_EVERY, tick, now + LAG_EVERY)

    loop.call_soon(tick, loop.time())


def main() -> None:
    counts_file = Path(sys.argv[1])
    from django.db.backends.signals import connection_created

    connection_created.connect(_on_connection, weak=False)
    gc.callbacks.append(_on_gc)

    def dump(signum: int, frame: Any) -> None:
        with _lock:
            text = json.dumps({**_counts, "gc": list(_gc), "lags": list(_lags)})
        counts_file.write_text(text)

    signal.signal(signal.SIGUSR1, dump)
    from daphne.cli import CommandLineInterface
    from twisted.internet import reactor

    reactor.callWhenRunning(_lag_probe)  # daphne installs the asyncio reactor on import
    CommandLineInterface().run(sys.argv[2:])


if __name__ == "__main__":
    main()
