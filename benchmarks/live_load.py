"""Live play under load: many tables of scripted players over real WebSockets on loopback.

Starts the site the way README runs it (daphne serving ``config.asgi:application``, through
``benchmarks/daphne_counted.py``, which only counts the server's SQL) on PostgreSQL and
Redis, opens Faras tables through the services, connects every player's socket with a
real session cookie, and lets scripted players act on their turn after a random think
time. For each run it prints: actions per second offered (sent) and delivered (seen by
every player of the table), the delay from sending an action to the last player's screen
showing it (median and 99th percentile), the server's queries and row locks per action,
bytes received per socket per action, and the server's memory per socket.

    DATABASE_URL="postgres://dashain:dashain@127.0.0.1:5432/dashain_bench" \\
    REDIS_URL=redis://127.0.0.1:6379/0 \\
    .venv/bin/python benchmarks/live_load.py --tables 10 100 --seconds 20 --client pull [--processes 2]

``--tables 10 100`` makes one run per count (fresh tables and servers each time), so their
figures come from one sitting. ``--client`` says which frames the players send (see
:class:`benchmarks.live_player.Player`). With several processes each daphne gets its own
port and the tables are spread across them (the Redis channel layer joins them). Needs the
``websockets`` package (requirements-dev.txt). The database named in DATABASE_URL is created if missing.

The parts: the players (``live_player.py``) and the frames their pages send
(``page_clients.py``), the processes around a run (``live_processes.py``), and what a run
measured, worked out and printed (``live_report.py``).

It also reports how late its own event loop ran and its own garbage collections: this one
process holds every player's socket, where each real player has a browser of their own, so
its pauses would be counted against the server. ``--trace`` splits each action's time at
the points the server notes (``daphne_counted``): to the socket's handler, waiting for and
in the service thread (wall and CPU), to the first socket's news, the fan-out, and to the
last player; for all actions and for the slowest 1%, the ones that make the p99.

``--hand-pause SECONDS`` plays as the site does between hands: each table has that pause
(the host's ``hand_pause``; the site's default is 5 s, the least a host may choose 3 s) and a
Celery worker, started here as README runs it, deals the next hand when the table clock
says; its CPU is reported too. Without it the next hand is dealt at once, in the
transaction of the action that ended the last (``DASHAIN_NEXT_HAND_DELAY=0``, as the tests
do): a harder path than the site's, kept so figures compare with earlier runs.

``--server-cpus CORES`` caps each daphne process at CORES cores (a cgroup CPU quota, as a
container limit would; Linux, as root). On a machine of two cores the load generator,
PostgreSQL and Redis share the cores with the servers, so without a cap a second server
process has no core to scale into; with one, the servers are what saturates, and one
process can be compared with two at the same cap (``--processes 1`` then ``2``).

``--warm-up SECONDS`` (3 by default) lets the players play that long before the measured
window opens: a server's first action at each table reads the hand from the log and its
threads or workers open their connections. The window counts only actions sent after it
opened; the same warm-up is played before every run, so runs compare.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import json
import os
import random
import signal
import subprocess
import sys
import time
from collections.abc import Awaitable, Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchmarks.live_player import Counters, Player, Table  # noqa: E402
from benchmarks.live_processes import (  # noqa: E402
    SERVER_APPLICATION,
    WORKER_APPLICATION,
    DatabaseSessions,
    cpu_cap,
    cpu_cap_remove,
    cpu_seconds,
    own_cpu_seconds,
    rss_kib,
    tree_cpu_seconds,
    worker_start,
)
from benchmarks.live_report import Played, RunResult, ServerCounts, report, stages, window  # noqa: E402
from benchmarks.page_clients import CLIENTS  # noqa: E402
from benchmarks.ports import wait_for_ports  # noqa: E402

#: What a run reads of the servers' CPU: all threads, their event loops' threads, the system
#: part (seconds, all servers together), and the Celery worker's.
CpuReading = tuple[float, float, float, float]


def _env(hand_pause: int | None) -> dict[str, str]:
    env = dict(os.environ)
    env.setdefault("DATABASE_URL", "postgres://dashain:dashain@127.0.0.1:5432/dashain_bench")
    env.setdefault("REDIS_URL", "redis://127.0.0.1:6379/0")
    if hand_pause is None:
        env["DASHAIN_NEXT_HAND_DELAY"] = "0"  # the next hand dealt in the action's own transaction
    else:
        env.pop("DASHAIN_NEXT_HAND_DELAY", None)  # each table's own pause, dealt by the worker
    env["DASHAIN_INPROCESS_WORKER"] = "false"
    env.setdefault("DEBUG", "false")
    env["SECURE_SSL_REDIRECT"] = "false"
    env["HTTPS_ONLY"] = "false"  # plain ws:// to daphne: the site's own origin is http://
    # Every simulated player comes from 127.0.0.1: the per-address limits are for real homes.
    env.setdefault("DASHAIN_SOCKETS_PER_ADDRESS", "100000")
    env.setdefault("DASHAIN_READS_PER_ADDRESS_BURST", "100000")
    env.setdefault("DASHAIN_READS_PER_ADDRESS_RATE", "100000")
    # A scripted player with no think time moves faster than a person's commands allow (2 a second).
    env.setdefault("DASHAIN_COMMANDS_PER_PERSON_BURST", "100000")
    env.setdefault("DASHAIN_COMMANDS_PER_PERSON_RATE", "100000")
    env["LOG_LEVEL"] = "WARNING"
    return env


def _ensure_database(url: str) -> None:
    import psycopg

    base, _, _options = url.partition("?")  # e.g. ?conn_health_checks=false
    name = base.rsplit("/", 1)[1]
    admin = base.rsplit("/", 1)[0] + "/postgres"
    with psycopg.connect(admin, autocommit=True) as conn:
        if not conn.execute("select 1 from pg_database where datname = %s", (name,)).fetchone():
            conn.execute(f'create database "{name}"')


def _setup_django(env: dict[str, str]) -> None:
    os.environ.update(env)
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0, interactive=False)


def _open_tables(count: int, players: int, hand_pause: int | None) -> list[Table]:
    """Tables started through the services, each with its players' session cookies."""
    from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY, get_user_model
    from django.contrib.sessions.backends.db import SessionStore

    from benchmarks.seated import seated_table
    from tables.services import table_start

    user_model = get_user_model()
    stamp = f"{int(time.time())}-{random.randrange(10**6)}"
    tables: list[Table] = []
    for index in range(count):
        users = [
            user_model.objects.create_user(username=f"bench-{stamp}-{index}-{p}", password=None) for p in range(players)
        ]
        choices: dict[str, int] = {"buy_in_chips": 10_000_000, "boot": 10}
        if hand_pause is not None:
            choices["hand_pause"] = hand_pause
        table, seats = seated_table(users, "faras", choices, start=False)
        cookies: list[str] = []
        for user in users:
            session = SessionStore()
            session[SESSION_KEY] = str(user.pk)
            session[BACKEND_SESSION_KEY] = "django.contrib.auth.backends.ModelBackend"
            session[HASH_SESSION_KEY] = user.get_session_auth_hash()
            session.save()
            cookies.append(str(session.session_key))
        table_start(table_id=table.pk, seat_id=seats[0].pk)
        tables.append({"id": table.pk, "code": table.code, "cookies": cookies})
    return tables


async def _drive(
    tables: list[Table],
    ports: list[int],
    players: int,
    seconds: float,
    seed: int,
    think: float,
    client: str,
    rss: Callable[[], int],
    counts: Callable[[], Awaitable[ServerCounts]],
    cpu: Callable[[], CpuReading],
    sample: Callable[[float], list[subprocess.Popen[bytes]]],
    tracing: bool,
    warm_up: float = 0.0,
) -> Played:
    stop = asyncio.Event()
    stats = Counters(expected=len(tables) * players, think=think, stop=stop)
    connected, go = asyncio.Event(), asyncio.Event()
    rng = random.Random(seed)
    tasks = []
    for index, table in enumerate(tables):
        url = f"ws://127.0.0.1:{ports[index % len(ports)]}/ws/table/{table['code']}/"
        for player in range(players):
            player_client = Player(table, player, url, stats, random.Random(rng.random()), client)
            tasks.append(asyncio.create_task(player_client.run(connected, go, stop)))
    await asyncio.wait_for(connected.wait(), timeout=600)
    rss_connected = rss()
    # This process holds 4 sockets a table in one event loop, where each real player has a
    # browser of their own: its own pauses would be counted as the server's. So it keeps the
    # collector off what it loaded and runs it as seldom as the server does
    # (config/gc_tuning.py: at the default thresholds it made ~130 collections a run, up to
    # 37 ms each), and reports how late its loop ran and its collections, beside the server's.
    from config.gc_tuning import collector_settle

    collector_settle()
    go.set()
    # The warm-up: the server's first action at each table reads the hand from the log, and
    # its threads or workers open their connections. Played, not counted: the window below
    # counts only actions sent after it began.
    await asyncio.sleep(warm_up)
    stats.actions = stats.offered = stats.bytes = stats.errors = 0
    counts_before = await counts()
    cpu_before, own_before = cpu(), own_cpu_seconds()
    samplers = sample(seconds)
    own_lags: list[float] = []
    own_gc: list[list[float]] = []
    from benchmarks.daphne_counted import gc_recorder

    gc.callbacks.append(gc_recorder(own_gc))
    probe = asyncio.ensure_future(_lag_probe(own_lags, stop))
    started = time.perf_counter()
    await asyncio.sleep(seconds)
    stop.set()
    elapsed = time.perf_counter() - started
    cpu_after, own_after = cpu(), own_cpu_seconds()
    counts_after = await counts()
    gc.callbacks.pop()
    await probe
    for sampler in samplers:
        await asyncio.to_thread(sampler.wait)
    actions, offered, received = stats.actions, stats.offered, stats.bytes
    await asyncio.gather(*tasks, return_exceptions=True)
    sent = {key: at for key, at in stats.sent.items() if at >= started}
    heard = stats.heard
    delays = [max(heard[key]) - at for key, at in sent.items() if len(heard.get(key, ())) >= players]
    # The server's trace (--trace) is read once every socket has closed, so it holds the
    # news of the window's last actions too.
    trace = (await counts())["trace"] if tracing else []
    return {
        "rss_connected": rss_connected,
        "elapsed": elapsed,
        "actions": actions,
        "offered": offered,
        "delivered": len(delays),
        "delays": delays,
        "errors": stats.errors,
        "bytes": received,
        "queries": counts_after["queries"] - counts_before["queries"],
        "locks": counts_after["locks"] - counts_before["locks"],
        # What each server recorded during the window (daphne_counted): its collections and loop lags.
        "gc": window(counts_before["gc"], counts_after["gc"]),
        "lags": window(counts_before["lags"], counts_after["lags"]),
        "own_lags": own_lags,
        "own_gc": own_gc,
        "stages": stages(trace, sent, heard, players) if tracing else [],
        "incomplete": sum(1 for key in sent if len(heard.get(key, ())) < players),
        "server_cpu": cpu_after[0] - cpu_before[0],
        "server_main_cpu": cpu_after[1] - cpu_before[1],
        "server_system_cpu": cpu_after[2] - cpu_before[2],
        "client_cpu": own_after - own_before,
        "worker_cpu": cpu_after[3] - cpu_before[3],
    }


async def _lag_probe(lags: list[float], stop: asyncio.Event) -> None:
    """How late this process's loop ran a wake-up asked for every 10 ms, until ``stop``."""
    loop = asyncio.get_running_loop()
    while not stop.is_set():
        asked = loop.time() + 0.01
        await asyncio.sleep(0.01)
        lags.append(1000 * (loop.time() - asked))


def _run(args: argparse.Namespace, env: dict[str, str], table_count: int, client: str) -> RunResult:
    """One measurement: fresh tables, fresh servers, ``args.seconds`` of play."""
    print(f"opening {table_count} Faras tables of {args.players} players ...", flush=True)
    tables = _open_tables(table_count, args.players, args.hand_pause)
    ports = [args.port + i for i in range(args.processes)]
    servers: list[subprocess.Popen[bytes]] = []
    sessions = DatabaseSessions(env["DATABASE_URL"]).__enter__()
    worker = worker_start({**env, "PGAPPNAME": WORKER_APPLICATION}) if args.hand_pause is not None else None
    counts_files = [ROOT / "var" / f"live_load_counts_{port}.json" for port in ports]
    for port, counts_file in zip(ports, counts_files, strict=True):
        counts_file.unlink(missing_ok=True)
        command = [sys.executable, "-m", "benchmarks.daphne_counted", str(counts_file)]
        command += ["--trace"] if args.trace else []
        command += ["-b", "127.0.0.1", "-p", str(port), "config.asgi:application"]
        if args.profile:
            command[1:1] = ["-m", "cProfile", "-o", f"{args.profile}.{port}"]
        log = open(ROOT / "var" / f"live_load_daphne_{port}.log", "w")
        # The server's output goes to a file: a pipe nobody reads would fill and stall the server.
        server_env = {**env, "PGAPPNAME": SERVER_APPLICATION}
        servers.append(subprocess.Popen(command, cwd=ROOT, env=server_env, stdout=log, stderr=subprocess.STDOUT))
        if args.server_cpus:
            cpu_cap(servers[-1].pid, port, args.server_cpus)

    def sample(seconds: float) -> list[subprocess.Popen[bytes]]:
        """With ``--py-spy PREFIX``: py-spy samples every thread of each server over the
        measuring window, as collapsed stacks in PREFIX.<port>.txt (flamegraph.pl's input)."""
        if not args.py_spy:
            return []
        return [
            subprocess.Popen(
                [
                    *(str(Path(sys.executable).parent / "py-spy"), "record", "--pid", str(server.pid)),
                    *("--duration", str(int(seconds)), "--threads", "--nonblocking", "--gil"),
                    *("--format", "raw", "--output", f"{args.py_spy}.{port}.txt"),
                ],
                stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL,
            )
            for server, port in zip(servers, ports, strict=True)
        ]

    async def counts() -> ServerCounts:
        """Queries and row locks every server has run so far (each writes its counters on SIGUSR1)."""
        for counts_file in counts_files:
            counts_file.unlink(missing_ok=True)
        for server in servers:
            server.send_signal(signal.SIGUSR1)
        total: ServerCounts = {"queries": 0, "locks": 0, "gc": [], "lags": [], "trace": []}
        for counts_file in counts_files:
            for _ in range(100):
                if counts_file.exists() and counts_file.read_text():
                    break
                await asyncio.sleep(0.05)
            written = json.loads(counts_file.read_text())
            total["queries"] += int(written["queries"])
            total["locks"] += int(written["locks"])
            total["trace"] += written["trace"]
            # The pauses are lists that only grow: kept per server, cut to the window below.
            total["gc"].append(written["gc"])
            total["lags"].append(written["lags"])
        return total

    def cpu() -> CpuReading:
        user, loop_thread, system = (sum(column) for column in zip(*(cpu_seconds(s.pid) for s in servers), strict=True))
        return user, loop_thread, system, 0.0 if worker is None else tree_cpu_seconds(worker.pid)

    try:
        wait_for_ports(ports)
        rss_before = sum(rss_kib(server.pid) for server in servers)
        played = asyncio.run(
            _drive(
                tables,
                ports,
                args.players,
                args.seconds,
                args.seed,
                args.think,
                client,
                lambda: sum(rss_kib(server.pid) for server in servers),
                counts,
                cpu,
                sample,
                args.trace,
                args.warm_up,
            )
        )
    finally:
        for server in servers:
            server.send_signal(signal.SIGINT)  # a clean stop (writes the profile when asked for one)
        for server in servers:
            try:
                server.wait(timeout=10)
            except subprocess.TimeoutExpired:
                server.kill()
                server.wait()
        if args.server_cpus:
            for port in ports:
                cpu_cap_remove(port)
        if worker is not None:
            worker.terminate()  # Celery's warm shutdown
            try:
                worker.wait(timeout=20)
            except subprocess.TimeoutExpired:
                worker.kill()
                worker.wait()
        sessions.__exit__()
    # The servers' PostgreSQL sessions at their peak, all processes together: at most
    # DATABASE_POOL_SIZE per process (docs/deployment.md, "Database connections").
    return RunResult(
        **played,
        db_sessions_peak=sessions.peak[SERVER_APPLICATION],
        db_sessions_peak_worker=sessions.peak[WORKER_APPLICATION],
        rss_per_socket=(played["rss_connected"] - rss_before) / (table_count * args.players),
        tables=table_count,
        client=client,
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--tables", type=int, nargs="+", default=[100], help="one run per count, in this order")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--seconds", type=float, default=20)
    parser.add_argument("--processes", type=int, default=1)
    parser.add_argument("--port", type=int, default=8765)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--profile", help="write each server's cProfile to PROFILE.<port>")
    parser.add_argument("--py-spy", help="sample every server thread with py-spy (if installed) into PY_SPY.<port>.txt")
    parser.add_argument("--think", type=float, default=1.0, help="mean seconds a player waits before acting (0: none)")
    parser.add_argument(
        "--trace", action="store_true", help="split each action's time where the server notes it (daphne_counted)"
    )
    parser.add_argument(
        "--hand-pause",
        type=int,
        metavar="SECONDS",
        help="each table's pause between hands (3 to 30; the site's default is 5): the next hand is then "
        "dealt by a Celery worker this starts, as on the site; without it, at once in the action's transaction",
    )
    parser.add_argument(
        "--server-cpus",
        type=float,
        metavar="CORES",
        help="cap each daphne process at CORES cores (a cgroup CPU quota; Linux, as root)",
    )
    parser.add_argument(
        "--warm-up",
        type=float,
        default=3.0,
        metavar="SECONDS",
        help="play this long before the measured window (each server's first action at each table "
        "reads the hand from the log and opens its connections; not counted)",
    )
    parser.add_argument(
        "--client",
        nargs="+",
        default=[CLIENTS[0]],
        choices=CLIENTS,
        help="what each scripted player sends (see benchmarks/live_player.py); one run per choice",
    )
    args = parser.parse_args()

    env = _env(args.hand_pause)
    _ensure_database(env["DATABASE_URL"])
    _setup_django(env)
    from django.conf import settings  # the layer the daphnes run: they read the same settings

    print(
        f"{args.processes} daphne process(es), PostgreSQL + {settings.DASHAIN_CHANNEL_LAYER} layer, Faras, "
        f"think {args.think} s, "
        f"{args.seconds:.0f} s a run, "
        + ("next hand dealt at once" if args.hand_pause is None else f"{args.hand_pause} s between hands (Celery)"),
        flush=True,
    )
    results: list[RunResult] = []
    for table_count in args.tables:
        for client in args.client:
            result = _run(args, env, table_count, client)
            results.append(result)
            report(args, result)
    print("--- all runs ---")
    for result in results:
        report(args, result)


if __name__ == "__main__":
    main()
