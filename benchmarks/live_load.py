"""Live play under load: many tables of scripted players over real WebSockets on loopback.

Starts the site the way README runs it (daphne serving ``config.asgi:application``) on
PostgreSQL and Redis, opens tables through the services, connects every player's socket
with a real session cookie, and lets scripted players act as soon as their turn event
arrives. Prints actions per second, the delay from sending an action to the last player
at the table receiving it (median and 99th percentile), database queries per action, and
the server's memory per connection.

    DATABASE_URL=postgres://dashain:dashain@127.0.0.1:5432/dashain_bench \\
    REDIS_URL=redis://127.0.0.1:6379/0 \\
    .venv/bin/python benchmarks/live_load.py --tables 200 --players 4 --seconds 20 [--processes 2]

With several processes each daphne gets its own port and the tables are spread across
them (the Redis channel layer joins them). Needs the ``websockets`` package
(requirements-dev.txt). The database named in DATABASE_URL is created if missing.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import signal
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def _env() -> dict[str, str]:
    env = dict(os.environ)
    env.setdefault("DATABASE_URL", "postgres://dashain:dashain@127.0.0.1:5432/dashain_bench")
    env.setdefault("REDIS_URL", "redis://127.0.0.1:6379/0")
    env["DASHAIN_NEXT_HAND_DELAY"] = "0"
    env["DASHAIN_INPROCESS_WORKER"] = "false"
    env.setdefault("DEBUG", "false")
    env["SECURE_SSL_REDIRECT"] = "false"
    env["LOG_LEVEL"] = "WARNING"
    return env


def _ensure_database(url: str) -> None:
    import psycopg

    base, _, _options = url.partition("?")  # e.g. ?conn_max_age=600
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


def _open_tables(count: int, players: int) -> list[dict]:
    """Tables started through the services, each with its players' session cookies."""
    from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY, get_user_model
    from django.contrib.sessions.backends.db import SessionStore

    from tables.models import Seat
    from tables.services import seat_take, table_create, table_join, table_start

    user_model = get_user_model()
    stamp = f"{int(time.time())}-{random.randrange(10**6)}"
    tables = []
    for index in range(count):
        users = [
            user_model.objects.create_user(username=f"bench-{stamp}-{index}-{p}", password=None) for p in range(players)
        ]
        table = table_create(host=users[0], game="faras", choices={"buy_in_chips": 10_000_000, "boot": 10})
        seats = [Seat.objects.get(table=table, user=users[0])]
        seats += [table_join(code=table.code, user=user) for user in users[1:]]
        for seat in seats:
            seat_take(table_id=table.pk, seat_id=seat.pk)
        cookies = []
        for user in users:
            session = SessionStore()
            session[SESSION_KEY] = str(user.pk)
            session[BACKEND_SESSION_KEY] = "django.contrib.auth.backends.ModelBackend"
            session[HASH_SESSION_KEY] = user.get_session_auth_hash()
            session.save()
            cookies.append(session.session_key)
        table_start(table_id=table.pk, seat_id=seats[0].pk)
        tables.append({"id": table.pk, "code": table.code, "cookies": cookies})
    return tables


def _queries_per_action(samples: int) -> float:
    """Queries of one ``hand_act`` (warm cache), counted in this process on the same database."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from engine.games import get_game
    from tables import selectors
    from tables.models import Seat
    from tables.services import hand_act

    table = _open_tables(1, 4)[0]
    from tables.models import Table

    table_row = Table.objects.get(pk=table["id"])
    game = get_game("faras")
    counts = []
    for _ in range(samples):
        hand = selectors.hand_live(table=table_row)
        state, _seq = selectors.hand_state(table=table_row, hand=hand)
        player = game.to_act(state)
        seat = Seat.objects.get(pk=int(player))
        verbs = [legal.verb for legal in game.legal_actions(state, player)]
        verb = "chaal" if "chaal" in verbs else verbs[0]
        with CaptureQueriesContext(connection) as captured:
            hand_act(table_id=table_row.pk, seat_id=seat.pk, verb=verb)
        counts.append(len(captured))
    return statistics.mean(counts)


def _rss_kib(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    return 0


class Player:
    """One scripted player's socket: acts at once when its turn event arrives."""

    def __init__(self, table: dict, index: int, url: str, stats: dict, rng: random.Random) -> None:
        self.table, self.index, self.url, self.stats, self.rng = table, index, url, stats, rng
        self.me: str | None = None
        self.next_id = 0
        self.pending: dict[str, float] = {}  # request id -> send time, until its ack gives the seq

    async def run(self, connected: asyncio.Event, go: asyncio.Event, stop: asyncio.Event) -> None:
        import websockets

        headers = {"Cookie": f"sessionid={self.table['cookies'][self.index]}", "Origin": "http://127.0.0.1"}
        async with self.stats["connecting"]:  # a few handshakes at a time, as people arrive
            socket = await websockets.connect(self.url, additional_headers=headers, max_size=2**22)
            snapshot = json.loads(await socket.recv())
        async with socket:
            self.me = str(snapshot["you"])
            turn = (snapshot.get("hand") or {}).get("turn")
            self.stats["connected"] += 1
            if self.stats["connected"] == self.stats["expected"]:
                connected.set()
            await go.wait()
            if turn and turn["player"] == self.me:
                # The first move waits its think time too: without it every table acts at the
                # same instant and the start's burst, not the steady load, makes the tail.
                if self.stats["think"]:
                    await asyncio.sleep(self.rng.uniform(0, 2 * self.stats["think"]))
                await self.act(socket, turn)
            while not stop.is_set():
                try:
                    raw = await asyncio.wait_for(socket.recv(), timeout=1)
                except TimeoutError:
                    continue
                now = time.perf_counter()
                frame = json.loads(raw)
                kind = frame.get("type")
                if kind == "events":
                    latest_turn = None
                    for event in frame["events"]:
                        # When each player heard of it; matched with the action's send time at
                        # the end (the news may reach a player before the actor's ack does).
                        self.stats["heard"].setdefault((self.table["id"], event["seq"]), []).append(now)
                        if event.get("kind") == "turn":
                            latest_turn = event["data"]
                    if latest_turn and latest_turn["player"] == self.me and not stop.is_set():
                        if self.stats["think"]:
                            asyncio.get_running_loop().call_later(
                                self.rng.uniform(0, 2 * self.stats["think"]),
                                lambda turn=latest_turn: asyncio.ensure_future(self.act(socket, turn)),
                            )
                        else:
                            await self.act(socket, latest_turn)
                elif kind == "ack":
                    self.stats["sent"][(self.table["id"], frame["seq"])] = self.pending.pop(frame["id"])
                    self.stats["actions"] += 1
                elif kind == "error":
                    self.stats["errors"] += 1
                    self.pending.pop(frame.get("id"), None)

    async def act(self, socket, turn: dict) -> None:
        verbs = [entry["verb"] for entry in turn["legal"]]
        roll = self.rng.random()
        if "pack" in verbs and roll < 0.12:
            verb = "pack"
        elif "show" in verbs and roll < 0.3:
            verb = "show"
        elif "chaal" in verbs:
            verb = "chaal"
        else:
            verb = self.rng.choice([v for v in verbs if v not in ("raise",)] or verbs)
        amount = None
        if verb == "raise":
            amount = next(entry["min"] for entry in turn["legal"] if entry["verb"] == "raise")
        self.next_id += 1
        request_id = f"{self.index}-{self.next_id}"
        self.pending[request_id] = time.perf_counter()
        try:
            await socket.send(json.dumps({"type": "action", "id": request_id, "verb": verb, "amount": amount}))
        except Exception:  # the run ended and the socket closed while this player was thinking
            self.pending.pop(request_id, None)


async def _drive(
    tables: list[dict], ports: list[int], players: int, seconds: float, seed: int, think: float, rss
) -> dict:
    stats = {
        "connecting": asyncio.Semaphore(8),
        "connected": 0,
        "expected": len(tables) * players,
        "sent": {},
        "heard": {},
        "actions": 0,
        "errors": 0,
        "think": think,
    }
    connected, go, stop = asyncio.Event(), asyncio.Event(), asyncio.Event()
    rng = random.Random(seed)
    tasks = []
    for index, table in enumerate(tables):
        url = f"ws://127.0.0.1:{ports[index % len(ports)]}/ws/table/{table['code']}/"
        for player in range(players):
            client = Player(table, player, url, stats, random.Random(rng.random()))
            tasks.append(asyncio.create_task(client.run(connected, go, stop)))
    await asyncio.wait_for(connected.wait(), timeout=600)
    stats["rss_connected"] = rss()
    go.set()
    started = time.perf_counter()
    await asyncio.sleep(seconds)
    stop.set()
    elapsed = time.perf_counter() - started
    actions = stats["actions"]
    await asyncio.gather(*tasks, return_exceptions=True)
    sent, heard = stats["sent"], stats["heard"]
    delays = [max(heard[key]) - at for key, at in sent.items() if len(heard.get(key, ())) == players]
    return {
        "rss_connected": stats["rss_connected"],
        "elapsed": elapsed,
        "actions": actions,
        "delays": delays,
        "errors": stats["errors"],
        "incomplete": sum(1 for key in sent if len(heard.get(key, ())) != players),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--tables", type=int, default=100)
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--seconds", type=float, default=20)
    parser.add_argument("--processes", type=int, default=1)
    parser.add_argument("--port", type=int, default=8765)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--profile", help="write each server's cProfile to PROFILE.<port>")
    parser.add_argument("--think", type=float, default=1.0, help="mean seconds a player waits before acting (0: none)")
    args = parser.parse_args()

    env = _env()
    _ensure_database(env["DATABASE_URL"])
    _setup_django(env)
    print(f"opening {args.tables} Faras tables of {args.players} players ...", flush=True)
    tables = _open_tables(args.tables, args.players)
    queries = _queries_per_action(50)

    ports = [args.port + i for i in range(args.processes)]
    servers = []
    for port in ports:
        command = [sys.executable, "-m", "daphne", "-b", "127.0.0.1", "-p", str(port), "config.asgi:application"]
        if args.profile:
            command[1:1] = ["-m", "cProfile", "-o", f"{args.profile}.{port}"]
        log = open(ROOT / "var" / f"live_load_daphne_{port}.log", "w")
        # The server's output goes to a file: a pipe nobody reads would fill and stall the server.
        servers.append(subprocess.Popen(command, cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT))
    try:
        _wait_for_ports(ports)
        rss_before = sum(_rss_kib(server.pid) for server in servers)
        result = asyncio.run(
            _drive(
                tables,
                ports,
                args.players,
                args.seconds,
                args.seed,
                args.think,
                lambda: sum(_rss_kib(server.pid) for server in servers),
            )
        )
        rss_after = result["rss_connected"]
    finally:
        for server in servers:
            server.send_signal(signal.SIGINT)  # a clean stop (writes the profile when asked for one)
        for server in servers:
            try:
                server.wait(timeout=10)
            except subprocess.TimeoutExpired:
                server.kill()

    delays = sorted(result["delays"])
    connections = args.tables * args.players
    print(
        f"tables {args.tables} x {args.players} players, {args.processes} daphne process(es), "
        f"PostgreSQL + channels-redis, {result['elapsed']:.1f} s"
    )
    print(
        f"actions/s                  {result['actions'] / result['elapsed']:.1f}  "
        f"({result['actions']} actions, {result['errors']} refused)"
    )
    if delays:
        p99 = delays[min(len(delays) - 1, int(len(delays) * 0.99))]
        print(
            f"action -> last player      median {statistics.median(delays) * 1000:.1f} ms, "
            f"p99 {p99 * 1000:.1f} ms  ({len(delays)} actions heard by every player, "
            f"{result['incomplete']} not by all when stopped)"
        )
    print(f"DB queries per action      {queries:.1f}  (hand_act, warm state cache)")
    print(
        f"server memory/connection   {(rss_after - rss_before) / connections:.0f} KiB  "
        f"(RSS {rss_before // 1024} -> {rss_after // 1024} MiB for {connections} sockets)"
    )


def _wait_for_ports(ports: list[int]) -> None:
    import socket

    deadline = time.monotonic() + 60
    for port in ports:
        while True:
            try:
                socket.create_connection(("127.0.0.1", port), timeout=1).close()
                break
            except OSError:
                if time.monotonic() > deadline:
                    raise RuntimeError(f"daphne did not start on port {port}") from None
                time.sleep(0.2)


if __name__ == "__main__":
    main()
