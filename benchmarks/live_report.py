"""What a ``benchmarks/live_load.py`` run measured, worked out and printed: each action's
time split where the server traced it (``--trace``), the servers' growing lists cut to the
measuring window, and the report's lines."""

from __future__ import annotations

import argparse
import os
import statistics
from typing import TypedDict, TypeVar

from benchmarks.live_player import ActionKey

Item = TypeVar("Item")

#: A point an action passed in a server (``daphne_counted --trace``): stage, table id, seq,
#: ``time.perf_counter()`` (CPU seconds for ``service_cpu``).
TraceNote = tuple[str, int, int, float]
#: A garbage collection: generation, milliseconds, CPU milliseconds, objects collected.
Collection = list[float]


class ServerCounts(TypedDict):
    """What the servers have counted so far, all together (``daphne_counted`` writes each one's)."""

    queries: int
    locks: int
    gc: list[list[Collection]]  # per server: every collection since it started
    lags: list[list[float]]  # per server: how late its loop ran each wake-up (ms)
    trace: list[TraceNote]


class Played(TypedDict):
    """What the players and the servers did in a run's measuring window."""

    rss_connected: int  # the servers' memory with every socket connected (KiB)
    elapsed: float
    actions: int  # acknowledged
    offered: int  # sent
    delivered: int  # seen by every player of the table
    delays: list[float]  # seconds from sending each delivered action to the last screen showing it
    errors: int
    bytes: int
    queries: int
    locks: int
    gc: list[Collection]  # the servers' collections in the window
    lags: list[float]  # and their loops' lateness (ms)
    own_lags: list[float]  # this process's loop's lateness (ms)
    own_gc: list[Collection]  # and its collections
    stages: list[dict[str, float]]  # with --trace: each delivered action's time split (ms)
    incomplete: int  # actions not seen by every player when the window closed
    server_cpu: float  # CPU seconds: the servers, all threads
    server_main_cpu: float  # ... their event loops' threads
    server_system_cpu: float  # ... the system part
    client_cpu: float  # this load generator
    worker_cpu: float  # the Celery worker (with --hand-pause)


class RunResult(Played):
    """One run: what was played, and around it."""

    db_sessions_peak: int  # the servers' PostgreSQL sessions at most, all together
    db_sessions_peak_worker: int  # the Celery worker's
    rss_per_socket: float  # KiB
    tables: int
    client: str


STAGES = (
    ("inbound", "sent -> its socket's handler"),
    ("thread", "handler -> service thread starts"),
    ("service", "service thread, wall"),
    ("service_cpu", "service thread, CPU"),
    ("to_news", "service thread ends -> first socket's news (< 0 when news beats the thread's last work)"),
    ("fanout", "first -> last socket's news sent"),
    ("outbound", "last news sent -> last player has it"),
)


def stages(
    trace: list[TraceNote], sent: dict[ActionKey, float], heard: dict[ActionKey, list[float]], players: int
) -> list[dict[str, float]]:
    """Each delivered action's time split at the points the server traced (milliseconds).

    Both sides' times are ``time.perf_counter()``, one clock for every process of the machine."""
    noted: dict[tuple[int, int], dict[str, list[float]]] = {}
    for stage, table_id, seq, at in trace:
        noted.setdefault((table_id, seq), {}).setdefault(stage, []).append(at)
    rows = []
    for key, at in sent.items():
        times, seen = noted.get(key), heard.get(key, ())
        if len(seen) < players or not times or not all(s in times for s in ("handler", "service", "news")):
            continue
        rows.append(
            {
                "total": max(seen) - at,
                "inbound": times["handler"][0] - at,
                "thread": times["service"][0] - times["handler"][0],
                "service": times["service_end"][0] - times["service"][0],
                "service_cpu": times["service_cpu"][0],
                "to_news": min(times["news"]) - times["service_end"][0],
                "fanout": max(times["news_end"]) - min(times["news"]),
                "outbound": max(seen) - max(times["news_end"]),
            }
        )
    return [{name: 1000 * value for name, value in row.items()} for row in rows]


def window(before: list[list[Item]], after: list[list[Item]]) -> list[Item]:
    """The items each server added to a growing list between two reads, all servers together."""
    return [item for old, new in zip(before, after, strict=True) for item in new[len(old) :]]


def report(args: argparse.Namespace, result: RunResult) -> None:
    delays = sorted(result["delays"])
    elapsed = result["elapsed"]
    offered = result["offered"]
    median = statistics.median(delays) * 1000 if delays else float("nan")
    p99 = delays[min(len(delays) - 1, int(len(delays) * 0.99))] * 1000 if delays else float("nan")
    per_action = max(1, offered)
    print(
        f"{result['tables']:>4} x {args.players} {result['client']:<5} "
        f"offered {offered / elapsed:6.1f}/s  delivered {result['delivered'] / elapsed:6.1f}/s "
        f"({100 * result['delivered'] / per_action:5.1f}%)  "
        f"median {median:7.1f} ms  p99 {p99:7.1f} ms  "
        f"queries/action {result['queries'] / per_action:5.1f}  locks/action {result['locks'] / per_action:4.2f}  "
        # A socket hears its own table's actions: offered / tables of them.
        f"bytes/socket/action {result['bytes'] / args.players / per_action:6.0f}  "
        f"memory/socket {result['rss_per_socket']:.0f} KiB  "
        f"({result['errors']} refused, {result['incomplete']} not seen by all when stopped)  "
        f"database sessions at most {result['db_sessions_peak']} (servers)"
        + (f", {result['db_sessions_peak_worker']} (Celery worker)" if args.hand_pause is not None else ""),
        flush=True,
    )
    # CPU time, not wall time: what each delivered action cost the server's processes (all
    # threads, and the event loop's thread alone) and this load generator. Other work on a
    # shared machine slows the wall-clock figures above but hardly moves these.
    delivered = max(1, result["delivered"])
    print(
        f"     cpu per delivered action: server {1000 * result['server_cpu'] / delivered:5.2f} ms "
        f"(event loop thread {1000 * result['server_main_cpu'] / delivered:5.2f} ms, "
        f"other threads {1000 * (result['server_cpu'] - result['server_main_cpu']) / delivered:5.2f} ms; "
        f"system {1000 * result['server_system_cpu'] / delivered:5.2f} ms), "
        f"load generator {1000 * result['client_cpu'] / delivered:5.2f} ms; "
        + (f"Celery worker {1000 * result['worker_cpu'] / delivered:5.2f} ms; " if args.hand_pause is not None else "")
        + f"server busy {100 * result['server_cpu'] / elapsed / args.processes:4.0f}% of a core per process",
        flush=True,
    )
    # The tail's suspects: how late the event loop ran (a frame arriving then waited that
    # long before the loop looked at it), and the garbage collector's pauses.
    lags = sorted(result["lags"])
    collections = result["gc"]
    by_generation = ", ".join(
        f"gen {generation}: {len(pauses)} (CPU {sum(cpu for _, cpu in pauses):.0f} ms, longest "
        f"{max((wall for wall, _ in pauses), default=0):.0f} ms, "
        f"{max((cpu for _, cpu in pauses), default=0):.0f} ms CPU)"
        for generation in (0, 1, 2)
        for pauses in [[(wall, cpu) for gen, wall, cpu, *_ in collections if gen == generation]]
    )

    if os.environ.get("LIVE_LOAD_GC"):  # every collection: generation, ms, CPU ms, objects collected
        print("     collections:", [[round(value, 1) for value in item] for item in collections], flush=True)
    print(
        f"     event loop late by: median {share(lags, 0.5):5.1f} ms, p99 {share(lags, 0.99):6.1f} ms, "
        f"max {share(lags, 1.0):6.1f} ms; "
        f"garbage collections: {by_generation}",
        flush=True,
    )
    own = sorted(result["own_lags"])
    own_gc = result["own_gc"]
    print(
        f"     load generator's loop late by: median {share(own, 0.5):5.1f} ms, p99 {share(own, 0.99):6.1f} ms, "
        f"max {share(own, 1.0):6.1f} ms; its collections: {len(own_gc)} "
        f"(longest {max((wall for _, wall, *_ in own_gc), default=0):.0f} ms)",
        flush=True,
    )
    rows = result["stages"]
    if rows:
        # Where the time of an action went, for all delivered actions and for the slowest 1%
        # (the actions that make the p99).
        rows = sorted(rows, key=lambda row: row["total"])
        slowest = rows[min(len(rows) - 1, int(len(rows) * 0.99)) :]
        print(f"     where the time went ({len(rows)} actions traced), ms: median / p99 / mean of the slowest 1%")
        for name, meaning in (("total", "sent -> last player has it"), *STAGES):
            values = sorted(row[name] for row in rows)
            mean = sum(row[name] for row in slowest) / len(slowest)
            print(
                f"       {name:<12} {share(values, 0.5):7.1f} {share(values, 0.99):7.1f} {mean:7.1f}   {meaning}",
                flush=True,
            )


def share(ordered: list[float], fraction: float) -> float:
    """The value at ``fraction`` (0.5: the median, 1.0: the largest) of a sorted list."""
    return ordered[min(len(ordered) - 1, int(len(ordered) * fraction))] if ordered else float("nan")
