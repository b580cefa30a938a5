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

With ``--trace`` (before the daphne arguments) the server also notes, for each action, when
its socket's handler began and ended, when the service thread began and ended it and the
CPU that thread spent (``tables.services.hand_act``), and when each socket's news handler
began and ended for each event seq (``TableConsumer.table_events``): ``[stage, table id,
seq, time]`` in ``trace``. The times are ``time.perf_counter()`` (CLOCK_MONOTONIC, shared
by every process of the machine), so the load generator can put them beside its own.
"""

from __future__ import annotations

import gc
import json
import os
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
_trace: list[list[Any]] = []


def _trace_install() -> None:
    """Wrap the action handler, the action service and the news handler to note their times."""
    from tables.live import commands, consumers

    act_handler = commands.action_play

    async def on_action(session: Any, command: Any) -> Any:
        began = time.perf_counter()
        reply: Any = await act_handler(session, command)
        _trace.append(["handler", session.table_id, reply["seq"], began])
        _trace.append(["handler_end", session.table_id, reply["seq"], time.perf_counter()])
        return reply

    commands.action_play = on_action  # looked up on the module at each action
    _trace_service()
    news_handler = consumers.TableConsumer.table_events

    async def table_events(self: Any, message: Any) -> None:
        began = time.perf_counter()
        await news_handler(self, message)
        ended = time.perf_counter()
        table_id = self.session.table_id if self.session is not None else None
        for event in message.get("events") or ():
            _trace.append(["news", table_id, event["seq"], began])
            _trace.append(["news_end", table_id, event["seq"], ended])

    setattr(consumers.TableConsumer, "table_events", table_events)  # noqa: B010 (mypy: no method assignment)


def _trace_service() -> None:
    """Note when the action's service began and ended, and its thread's CPU (in the server,
    or in a service worker)."""
    from tables import services

    hand_act = services.hand_act

    def traced_hand_act(**kwargs: Any) -> int:
        began, cpu = time.perf_counter(), time.thread_time()
        seq = hand_act(**kwargs)
        ended = time.perf_counter()
        _trace.append(["service", kwargs["table_id"], seq, began])
        _trace.append(["service_end", kwargs["table_id"], seq, ended])
        _trace.append(["service_cpu", kwargs["table_id"], seq, time.thread_time() - cpu])
        return seq

    services.hand_act = traced_hand_act  # looked up on the module at each call


def _count(execute: Any, sql: str, params: Any, many: bool, context: Any) -> Any:
    with _lock:
        _counts["queries"] += 1
        if "FOR UPDATE" in sql.upper():
            _counts["locks"] += 1
    return execute(sql, params, many, context)


def _on_connection(sender: Any, connection: Any, **kwargs: Any) -> None:
    if _count not in connection.execute_wrappers:
        connection.execute_wrappers.append(_count)


def gc_recorder(into: list[list[float]]) -> Any:
    """A ``gc.callbacks`` entry that appends each collection to ``into`` as [generation,
    milliseconds, CPU milliseconds, objects collected] (the server's, and the load
    generator's own in ``live_load.py``)."""
    started: dict[str, float] = {}

    def record(phase: str, info: dict[str, Any]) -> None:
        # Called with the collector's own lock held, by whichever thread triggered it.
        if phase == "start":
            started["at"], started["cpu"] = time.perf_counter(), time.thread_time()
        elif "at" in started:
            wall = time.perf_counter() - started.pop("at")
            cpu = time.thread_time() - started.pop("cpu")
            into.append([info["generation"], 1000 * wall, 1000 * cpu, info["collected"]])

    return record


def young_types_recorder(path: Path) -> Any:
    """A ``gc.callbacks`` entry that, as each collection of the young generation starts,
    appends to ``path`` a JSON line of the 30 most common types among the objects it is
    about to look at (``gc.get_objects(0)``): what the process leaves for the collector
    (``DASHAIN_BENCH_GC_TYPES``)."""

    def record(phase: str, info: dict[str, Any]) -> None:
        if phase != "start" or info["generation"] != 0:
            return
        counted: dict[str, int] = {}
        for item in gc.get_objects(0):
            name = type(item).__qualname__
            module = getattr(type(item), "__module__", "")
            key = f"{module}.{name}"
            counted[key] = counted.get(key, 0) + 1
        top = sorted(counted.items(), key=lambda pair: -pair[1])[:30]
        with path.open("a") as file:
            file.write(json.dumps({"objects": sum(counted.values()), "types": top}) + "\n")

    return record


def _lag_probe() -> None:
    """Once the server's loop runs: ask it to call back every LAG_EVERY s and note how late it was."""
    import asyncio

    loop = asyncio.get_running_loop()  # daphne's loop (twisted's asyncio reactor runs in it)

    def tick(expected: float) -> None:
        now = loop.time()
        _lags.append(1000 * (now - expected))
        loop.call_at(now + LAG_EVERY, tick, now + LAG_EVERY)

    loop.call_soon(tick, loop.time())


def _dump(counts_file: Path) -> None:
    with _lock:
        text = json.dumps({**_counts, "gc": list(_gc), "lags": list(_lags), "trace": list(_trace)})
    counts_file.write_text(text)


def main() -> None:
    counts_file = Path(sys.argv[1])
    arguments = sys.argv[2:]
    if arguments[:1] == ["--trace"]:
        arguments = arguments[1:]
        os.environ["DASHAIN_BENCH_TRACE"] = "1"
        import django

        os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
        django.setup()
        _trace_install()
    from django.db.backends.signals import connection_created

    connection_created.connect(_on_connection, weak=False)
    gc.callbacks.append(gc_recorder(_gc))
    if os.environ.get("DASHAIN_BENCH_GC_TYPES"):
        gc.callbacks.append(young_types_recorder(Path(os.environ["DASHAIN_BENCH_GC_TYPES"])))

    def dump(signum: int, frame: Any) -> None:
        _dump(counts_file)

    signal.signal(signal.SIGUSR1, dump)
    from daphne.cli import CommandLineInterface
    from twisted.internet import reactor

    # daphne installs the asyncio reactor on import; the probe starts from inside its loop.
    running: Any = reactor  # the installed reactor; twisted's stubs type the module as an interface
    running.callWhenRunning(lambda: running.callLater(0, _lag_probe))
    CommandLineInterface().run(arguments)


if __name__ == "__main__":
    main()
