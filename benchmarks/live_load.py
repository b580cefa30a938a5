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
:class:`Player`). With several processes each daphne gets its own port and the tables
are spread across them (the Redis channel layer joins them). Needs the ``websockets``
package (requirements-dev.txt). The database named in DATABASE_URL is created if missing.

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
import statistics
import subprocess
import sys
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchmarks.ports import wait_for_ports  # noqa: E402


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


def _open_tables(count: int, players: int, hand_pause: int | None) -> list[dict]:
    """Tables started through the services, each with its players' session cookies."""
    from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY, get_user_model
    from django.contrib.sessions.backends.db import SessionStore

    from benchmarks.seated import seated_table
    from tables.services import table_start

    user_model = get_user_model()
    stamp = f"{int(time.time())}-{random.randrange(10**6)}"
    tables = []
    for index in range(count):
        users = [
            user_model.objects.create_user(username=f"bench-{stamp}-{index}-{p}", password=None) for p in range(players)
        ]
        choices = {"buy_in_chips": 10_000_000, "boot": 10}
        if hand_pause is not None:
            choices["hand_pause"] = hand_pause
        table, seats = seated_table(users, "faras", choices, start=False)
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


def _cpu_seconds(pid: int) -> tuple[float, float, float]:
    """CPU seconds a process has used so far: user + system of all its threads, of its main
    thread alone (the event loop's, in daphne; the others are the database thread pool's),
    and the system part of the first."""
    tick = os.sysconf("SC_CLK_TCK")

    def used(stat_path: str) -> tuple[int, int]:
        # Fields after the command name (which may hold spaces): utime and stime are 14 and 15.
        fields = Path(stat_path).read_text().rsplit(")", 1)[1].split()
        return int(fields[11]), int(fields[12])

    user, system = used(f"/proc/{pid}/stat")
    main_user, main_system = used(f"/proc/{pid}/task/{pid}/stat")
    return (user + system) / tick, (main_user + main_system) / tick, system / tick


def _own_cpu_seconds() -> float:
    times = os.times()
    return times.user + times.system


def _rss_kib(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    return 0


CLIENTS = ("page", "pull", "bare")


class PushedPage:
    """The frames the table page sends (static/js/table/store.js, connection.js, main.js):
    on connect, a ``visibility`` frame (the page is on screen: no push reminder to it) and
    one ``resync`` for the log in words; then nothing but its player's actions
    and the heartbeat's ``ping``, since each events frame brings the screen with it; a
    ``snapshot`` only after a gap or when a ``pong`` says news was lost. It acts on the
    pushed view. ``tests/browser/test_page_frames.py`` pins it to the page."""

    LOG_LOOKBACK = 400
    HEARTBEAT_SECONDS = 5.0  # connection.js HEARTBEAT_MS (a page on screen)
    BEATS_PER_PING = 5  # connection.js PING_MS / HEARTBEAT_MS

    def __init__(self) -> None:
        self.last_seq = 0
        self.view_seq = 0
        self.first = True
        self.snapshot_wanted = False
        self.you: str | None = None
        self.legal: list[dict] = []
        self.pings = 0

    def _hand(self, hand: dict | None) -> None:
        view = (hand or {}).get("view") or {}
        # The scripted player acts on its turn only (a Teen Patti view also offers "see" out of turn).
        self.legal = (view.get("legal") or []) if str(view.get("to_act")) == self.you else []

    def on_frame(self, frame: dict) -> tuple[list[dict], list[int], bool]:
        """(frames to send, seqs whose news this frame brought onto the screen, may act now)."""
        kind = frame.get("type")
        out: list[dict] = []
        shown: list[int] = []
        if kind == "snapshot":
            self.snapshot_wanted = False
            self.you = str(frame.get("you"))
            self.last_seq = frame.get("seq") or 0
            shown = list(range(self.view_seq + 1, self.last_seq + 1))
            self.view_seq = self.last_seq
            if self.first:
                out.append({"type": "visibility", "visible": True})
                out.append({"type": "resync", "after": max(0, self.last_seq - self.LOG_LOOKBACK), "id": "hand-log"})
            self.first = False
            self._hand(frame.get("hand"))
            return out, shown, bool(self.legal)
        if kind == "pong" and isinstance(frame.get("seq"), int) and frame["seq"] > self.last_seq:
            if not self.snapshot_wanted:
                self.snapshot_wanted = True
                out.append({"type": "snapshot"})
            return out, shown, False
        if kind != "events" or frame.get("id") is not None:
            return out, shown, False
        for event in frame.get("events", []):
            if event["seq"] <= self.last_seq:
                continue
            if event["seq"] != self.last_seq + 1:
                if not self.snapshot_wanted:
                    self.snapshot_wanted = True
                    out.append({"type": "snapshot"})
                return out, shown, False
            self.last_seq = event["seq"]
        screen = frame.get("screen")
        if screen and screen["seq"] == self.last_seq:
            shown = list(range(self.view_seq + 1, self.last_seq + 1))
            self.view_seq = self.last_seq
            if "hand" in screen:
                self._hand(screen["hand"])
            return out, shown, bool(self.legal)
        return out, shown, False

    def ping(self, kind: str = "ping") -> dict:
        self.pings += 1
        return {"type": kind, "id": f"heartbeat-{self.pings}"}

    @staticmethod
    def action(verb: str, amount: int | None, request_id: str) -> dict:
        """main.js sendAction: "see" has its own message; an amount only when there is one."""
        frame: dict = (
            {"type": "see", "id": request_id} if verb == "see" else {"type": "action", "verb": verb, "id": request_id}
        )
        if amount is not None:
            frame["amount"] = amount
        return frame


class PullingPage:
    """The frames the table page sent before views were pushed (static/js/table.js up to
    issue 13): on connect, one ``resync`` for the log in words; after each ``events`` frame
    with news, a ``snapshot`` (one at a time); it acts on the snapshot's view."""

    LOG_LOOKBACK = 400

    def __init__(self) -> None:
        self.last_seq = 0
        self.view_seq = 0  # seq of the newest view this page holds
        self.first = True
        self.snapshot_wanted = False
        self.legal: list[dict] = []

    def on_frame(self, frame: dict) -> tuple[list[dict], list[int], bool]:
        """(frames to send, seqs whose news this frame brought onto the screen, may act now)."""
        kind = frame.get("type")
        out: list[dict] = []
        if kind == "snapshot":
            self.snapshot_wanted = False
            seq = frame.get("seq") or 0
            shown = list(range(self.view_seq + 1, seq + 1))
            self.view_seq = max(self.view_seq, seq)
            self.last_seq = max(self.last_seq, seq)
            if self.first:
                out.append({"type": "resync", "after": max(0, seq - self.LOG_LOOKBACK), "id": "hand-log"})
            self.first = False
            view = (frame.get("hand") or {}).get("view") or {}
            # The scripted player acts on its turn only (a Teen Patti view also offers "see" out of turn).
            self.legal = (view.get("legal") or []) if str(view.get("to_act")) == str(frame.get("you")) else []
            return out, shown, bool(self.legal)
        if kind == "events" and frame.get("id") is None:
            news = gap = False
            for event in frame.get("events", []):
                if event["seq"] <= self.last_seq:
                    continue
                if event["seq"] != self.last_seq + 1:
                    gap = True
                    continue
                self.last_seq = event["seq"]
                news = news or "kind" in event
            if gap:
                out.append({"type": "resync", "after": self.last_seq})
            elif news and not self.snapshot_wanted:
                self.snapshot_wanted = True
                out.append({"type": "snapshot"})
            self.legal = []  # the page acts on its fresh view only
        return out, [], False


class Player:
    """One scripted player's socket, sending the frames its page would send.

    ``client`` is ``page`` (:class:`PushedPage`, what the page sends now), ``pull``
    (:class:`PullingPage`, what it sent before views were pushed) or ``bare`` (acts on the
    ``turn`` event and asks for nothing: the old benchmark). A player's screen is up to date
    with an action when the frame that brings it arrives: the events frame with the screen
    (``page``), the snapshot at or after its seq (``pull``), the events frame (``bare``).
    """

    def __init__(self, table: dict, index: int, url: str, stats: dict, rng: random.Random, client: str) -> None:
        self.table, self.index, self.url, self.stats, self.rng = table, index, url, stats, rng
        self.client = client
        self.page: PushedPage | PullingPage | None = {"page": PushedPage, "pull": PullingPage}.get(
            client, lambda: None
        )()
        self.me: str | None = None
        self.next_id = 0
        # A player acts once per turn: not while an action of theirs is on its way, and then
        # only on a screen newer than its ack (a person does not click the same turn twice).
        self.busy = False
        self.acted_seq = 0
        self.pending: dict[str, float] = {}  # request id -> send time, until its ack gives the seq

    async def run(self, connected: asyncio.Event, go: asyncio.Event, stop: asyncio.Event) -> None:
        import websockets

        # The page's own origin, scheme, host and port (config/origin.py checks all three).
        origin = "http://" + self.url.split("://", 1)[1].split("/", 1)[0]
        headers = {"Cookie": f"sessionid={self.table['cookies'][self.index]}", "Origin": origin}
        async with self.stats["connecting"]:  # a few handshakes at a time, as people arrive
            # No WebSocket pings of its own (the websockets package sends one every 20 s by
            # default): a browser never sends them, it only answers the server's (daphne
            # pings each socket every 20 s, and those pongs are part of the load).
            socket = await websockets.connect(self.url, additional_headers=headers, max_size=2**22, ping_interval=None)
            snapshot = json.loads(await socket.recv())
        async with socket:
            self.me = str(snapshot["you"])
            # What the page sends when it opens (the log in words) is sent and answered while
            # the players connect, before the measuring window: the window holds play only.
            first = None if self.page is None else self.page.on_frame(snapshot)
            early: list[str] = []
            if first is not None:
                for message in first[0]:
                    await socket.send(json.dumps(message))
                while first[0]:
                    raw = await socket.recv()
                    if json.loads(raw).get("id") == "hand-log":
                        break
                    early.append(raw)
                first = ([], first[1], first[2])
            self.stats["connected"] += 1
            if self.stats["connected"] == self.stats["expected"]:
                connected.set()
            await go.wait()
            heartbeat = (
                asyncio.ensure_future(self.heartbeat(socket, stop)) if isinstance(self.page, PushedPage) else None
            )
            await self.on_frame(socket, snapshot, time.perf_counter(), 0, first)
            for raw in early:
                await self.on_frame(socket, json.loads(raw), time.perf_counter(), len(raw))
            while not stop.is_set():
                try:
                    raw = await asyncio.wait_for(socket.recv(), timeout=1)
                except TimeoutError:
                    continue
                now = time.perf_counter()
                await self.on_frame(socket, json.loads(raw), now, len(raw))
            if heartbeat is not None:
                heartbeat.cancel()

    async def heartbeat(self, socket, stop: asyncio.Event) -> None:
        beats = 0
        while not stop.is_set():
            await asyncio.sleep(PushedPage.HEARTBEAT_SECONDS)
            if not stop.is_set():
                # As connection.js: a full ping every 25 s from the socket's opening, a beat in between.
                beats += 1
                kind = "ping" if beats % PushedPage.BEATS_PER_PING == 0 else "beat"
                await socket.send(json.dumps(self.page.ping(kind)))

    async def on_frame(
        self, socket, frame: dict, now: float, size: int, read: tuple[list[dict], list[int], bool] | None = None
    ) -> None:
        """Handle one frame; ``read`` is what the page already made of it (the first snapshot)."""
        stats = self.stats
        stats["bytes"] += size
        kind = frame.get("type")
        if kind == "ack":
            stats["sent"][(self.table["id"], frame["seq"])] = self.pending.pop(frame["id"])
            stats["actions"] += 1
            self.busy, self.acted_seq = False, max(self.acted_seq, frame["seq"])
            return
        if kind == "error":
            stats["errors"] += 1
            if self.pending.pop(frame.get("id"), None) is not None:
                self.busy = False
            return
        shown: list[int] = []
        legal: list[dict] | None = None
        turn_seq = 0
        if self.page is not None:
            out, shown, may_act = read if read is not None else self.page.on_frame(frame)
            for message in out:
                await socket.send(json.dumps(message))
            if may_act:
                legal, turn_seq = self.page.legal, self.page.view_seq
        elif kind == "events":
            for event in frame["events"]:
                shown.append(event["seq"])
                if event.get("kind") == "turn" and event["data"]["player"] == self.me:
                    legal, turn_seq = event["data"]["legal"], event["seq"]
                elif event.get("kind") == "turn":
                    legal = None
        elif kind == "snapshot":
            turn = (frame.get("hand") or {}).get("turn")
            if turn and turn["player"] == self.me:
                legal, turn_seq = turn["legal"], frame["seq"]
        for seq in shown:
            # When each player's screen showed it; matched with the action's send time at the
            # end (the news may reach a player before the actor's ack does).
            stats["heard"].setdefault((self.table["id"], seq), []).append(now)
        if legal and not self.busy and turn_seq > self.acted_seq and not stats["stop"].is_set():
            self.busy = True
            if stats["think"]:
                # The first move waits its think time too: without it every table acts at the
                # same instant and the start's burst, not the steady load, makes the tail.
                asyncio.get_running_loop().call_later(
                    self.rng.uniform(0, 2 * stats["think"]),
                    lambda legal=legal: asyncio.ensure_future(self.act(socket, legal)),
                )
            else:
                await self.act(socket, legal)

    async def act(self, socket, legal: list[dict]) -> None:
        if self.stats["stop"].is_set():
            self.busy = False
            return
        verbs = [entry["verb"] for entry in legal]
        roll = self.rng.random()
        if "pack" in verbs and roll < 0.12:
            verb = "pack"
        elif "show" in verbs and roll < 0.3:
            verb = "show"
        elif "chaal" in verbs:
            verb = "chaal"
        else:
            verb = self.rng.choice([v for v in verbs if v not in ("raise", "see")] or verbs)
        self.next_id += 1
        request_id = f"{self.index}-{self.next_id}"
        amount = next(entry["min"] for entry in legal if entry["verb"] == "raise") if verb == "raise" else None
        frame = PushedPage.action(verb, amount, request_id)
        self.pending[request_id] = time.perf_counter()
        try:
            await socket.send(json.dumps(frame))
            self.stats["offered"] += 1
        except Exception:  # the run ended and the socket closed while this player was thinking
            self.pending.pop(request_id, None)
            self.busy = False


async def _drive(
    tables: list[dict],
    ports: list[int],
    players: int,
    seconds: float,
    seed: int,
    think: float,
    client: str,
    rss,
    counts,
    cpu,
    sample,
    tracing: bool,
    warm_up: float = 0.0,
) -> dict:
    stop = asyncio.Event()
    stats = {
        "connecting": asyncio.Semaphore(8),
        "connected": 0,
        "expected": len(tables) * players,
        "sent": {},
        "heard": {},
        "actions": 0,
        "offered": 0,
        "errors": 0,
        "bytes": 0,
        "think": think,
        "stop": stop,
    }
    connected, go = asyncio.Event(), asyncio.Event()
    rng = random.Random(seed)
    tasks = []
    for index, table in enumerate(tables):
        url = f"ws://127.0.0.1:{ports[index % len(ports)]}/ws/table/{table['code']}/"
        for player in range(players):
            player_client = Player(table, player, url, stats, random.Random(rng.random()), client)
            tasks.append(asyncio.create_task(player_client.run(connected, go, stop)))
    await asyncio.wait_for(connected.wait(), timeout=600)
    stats["rss_connected"] = rss()
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
    stats["actions"] = stats["offered"] = stats["bytes"] = stats["errors"] = 0
    counts_before = await counts()
    cpu_before, own_before = cpu(), _own_cpu_seconds()
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
    cpu_after, own_after = cpu(), _own_cpu_seconds()
    counts_after = await counts()
    gc.callbacks.pop()
    await probe
    for sampler in samplers:
        await asyncio.to_thread(sampler.wait)
    actions, offered, received = stats["actions"], stats["offered"], stats["bytes"]
    await asyncio.gather(*tasks, return_exceptions=True)
    sent = {key: at for key, at in stats["sent"].items() if at >= started}
    heard = stats["heard"]
    delays = [max(heard[key]) - at for key, at in sent.items() if len(heard.get(key, ())) >= players]
    # The server's trace (--trace) is read once every socket has closed, so it holds the
    # news of the window's last actions too.
    trace = (await counts()).get("trace", []) if tracing else []
    return {
        "rss_connected": stats["rss_connected"],
        "elapsed": elapsed,
        "actions": actions,
        "offered": offered,
        "delivered": len(delays),
        "delays": delays,
        "errors": stats["errors"],
        "bytes": received,
        "queries": counts_after["queries"] - counts_before["queries"],
        "locks": counts_after["locks"] - counts_before["locks"],
        # What each server recorded during the window (daphne_counted): its collections and loop lags.
        "gc": _window(counts_before["gc"], counts_after["gc"]),
        "lags": _window(counts_before["lags"], counts_after["lags"]),
        "own_lags": own_lags,
        "own_gc": own_gc,
        "stages": _stages(trace, sent, heard, players) if tracing else [],
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


STAGES = (
    ("inbound", "sent -> its socket's handler"),
    ("thread", "handler -> service thread starts"),
    ("service", "service thread, wall"),
    ("service_cpu", "service thread, CPU"),
    ("to_news", "service thread ends -> first socket's news (< 0 when news beats the thread's last work)"),
    ("fanout", "first -> last socket's news sent"),
    ("outbound", "last news sent -> last player has it"),
)


def _stages(trace: list[list], sent: dict, heard: dict, players: int) -> list[dict[str, float]]:
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


def _window(before: list[list], after: list[list]) -> list:
    """The items each server added to a growing list between two reads, all servers together."""
    return [item for old, new in zip(before, after, strict=True) for item in new[len(old) :]]


#: The ``application_name`` (libpq's ``PGAPPNAME``) of the servers' and the worker's
#: PostgreSQL sessions, by which :class:`DatabaseSessions` tells them from this process's own.
SERVER_APPLICATION = "dashain-live-load-server"
WORKER_APPLICATION = "dashain-live-load-worker"


class DatabaseSessions:
    """The most PostgreSQL sessions the servers (and the worker) held at once during a run,
    read from ``pg_stat_activity`` every 0.1 s on a thread and a connection of its own."""

    def __init__(self, database_url: str) -> None:
        self.database_url = database_url.partition("?")[0]
        self.peak = {SERVER_APPLICATION: 0, WORKER_APPLICATION: 0}
        self.stopping = threading.Event()
        self.thread = threading.Thread(target=self._run, name="db-sessions", daemon=True)

    def _run(self) -> None:
        import psycopg

        with psycopg.connect(self.database_url, autocommit=True) as connection:
            while not self.stopping.wait(0.1):
                rows = connection.execute(
                    "SELECT application_name, count(*) FROM pg_stat_activity "
                    "WHERE datname = current_database() AND application_name = ANY(%s) GROUP BY 1",
                    [list(self.peak)],
                ).fetchall()
                for name, count in rows:
                    self.peak[name] = max(self.peak[name], int(count))

    def __enter__(self) -> DatabaseSessions:
        self.thread.start()
        return self

    def __exit__(self, *_exc: object) -> None:
        self.stopping.set()
        self.thread.join(timeout=10)


def _run(args: argparse.Namespace, env: dict[str, str], table_count: int, client: str) -> dict:
    """One measurement: fresh tables, fresh servers, ``args.seconds`` of play."""
    print(f"opening {table_count} Faras tables of {args.players} players ...", flush=True)
    tables = _open_tables(table_count, args.players, args.hand_pause)
    ports = [args.port + i for i in range(args.processes)]
    servers = []
    sessions = DatabaseSessions(env["DATABASE_URL"]).__enter__()
    worker = _worker_start({**env, "PGAPPNAME": WORKER_APPLICATION}) if args.hand_pause is not None else None
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
            _cpu_cap(servers[-1].pid, port, args.server_cpus)

    def sample(seconds: float) -> list[subprocess.Popen]:
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

    async def counts() -> dict[str, int]:
        """Queries and row locks every server has run so far (each writes its counters on SIGUSR1)."""
        for counts_file in counts_files:
            counts_file.unlink(missing_ok=True)
        for server in servers:
            server.send_signal(signal.SIGUSR1)
        total: dict = {"queries": 0, "locks": 0, "gc": [], "lags": [], "trace": []}
        for counts_file in counts_files:
            for _ in range(100):
                if counts_file.exists() and counts_file.read_text():
                    break
                await asyncio.sleep(0.05)
            written = json.loads(counts_file.read_text())
            for key, value in written.items():
                if key == "trace":
                    total[key] += value
                else:  # the pauses are lists that only grow: kept per server, cut to the window below
                    total[key] = [*total[key], value] if isinstance(value, list) else total[key] + value
        return total

    try:
        wait_for_ports(ports)
        rss_before = sum(_rss_kib(server.pid) for server in servers)
        result = asyncio.run(
            _drive(
                tables,
                ports,
                args.players,
                args.seconds,
                args.seed,
                args.think,
                client,
                lambda: sum(_rss_kib(server.pid) for server in servers),
                counts,
                lambda: (
                    *map(sum, zip(*(_cpu_seconds(server.pid) for server in servers), strict=True)),
                    0.0 if worker is None else _tree_cpu_seconds(worker.pid),
                ),
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
                _cpu_cap_remove(port)
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
    result["db_sessions_peak"] = sessions.peak[SERVER_APPLICATION]
    result["db_sessions_peak_worker"] = sessions.peak[WORKER_APPLICATION]
    result["rss_per_socket"] = (result["rss_connected"] - rss_before) / (table_count * args.players)
    result["tables"], result["client"] = table_count, client
    return result


def _worker_start(env: dict[str, str]) -> subprocess.Popen:
    """The Celery worker as README runs it (``celery -A config worker``): with a pause between
    hands, it deals each next hand when the table clock says so. Returns once it is ready."""
    log_path = ROOT / "var" / "live_load_worker.log"
    log = open(log_path, "w")
    command = [sys.executable, "-m", "celery", "-A", "config", "worker", "--loglevel", "INFO"]
    worker = subprocess.Popen(command, cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT)
    deadline = time.monotonic() + 60
    while "ready." not in log_path.read_text():
        if worker.poll() is not None or time.monotonic() > deadline:
            raise RuntimeError(f"the Celery worker did not start (see {log_path})")
        time.sleep(0.2)
    return worker


def _tree_cpu_seconds(pid: int) -> float:
    """CPU seconds used so far by ``pid`` and every process under it (a worker's pool)."""
    total = 0.0
    try:
        total = _cpu_seconds(pid)[0]
        for task in Path(f"/proc/{pid}/task").iterdir():
            for child in (task / "children").read_text().split():
                total += _tree_cpu_seconds(int(child))
    except OSError:  # it exited between the listing and the read
        pass
    return total


CGROUP_CPU = Path("/sys/fs/cgroup/cpu")


def _cpu_cap(pid: int, port: int, cpus: float) -> None:
    """Give the server ``pid`` at most ``cpus`` cores (a cgroup v1 CPU quota, as a container
    limit would): so that on one machine the servers, not the load generator, PostgreSQL
    and Redis beside them, are what runs out (``--server-cpus``). Linux, as root."""
    group = CGROUP_CPU / f"dashain_live_load_{port}"
    try:
        group.mkdir(exist_ok=True)
        period = int((group / "cpu.cfs_period_us").read_text())
        (group / "cpu.cfs_quota_us").write_text(str(int(cpus * period)))
        (group / "cgroup.procs").write_text(str(pid))  # the whole process, threads to come included
    except OSError as error:
        raise SystemExit(f"--server-cpus needs a writable cgroup v1 CPU controller at {CGROUP_CPU}: {error}") from error


def _cpu_cap_remove(port: int) -> None:
    group = CGROUP_CPU / f"dashain_live_load_{port}"
    try:
        group.rmdir()  # once its processes have exited
    except OSError:
        pass


def _report(args: argparse.Namespace, result: dict) -> None:
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
        f"     event loop late by: median {_share(lags, 0.5):5.1f} ms, p99 {_share(lags, 0.99):6.1f} ms, "
        f"max {_share(lags, 1.0):6.1f} ms; "
        f"garbage collections: {by_generation}",
        flush=True,
    )
    own = sorted(result["own_lags"])
    own_gc = result["own_gc"]
    print(
        f"     load generator's loop late by: median {_share(own, 0.5):5.1f} ms, p99 {_share(own, 0.99):6.1f} ms, "
        f"max {_share(own, 1.0):6.1f} ms; its collections: {len(own_gc)} "
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
                f"       {name:<12} {_share(values, 0.5):7.1f} {_share(values, 0.99):7.1f} {mean:7.1f}   {meaning}",
                flush=True,
            )


def _share(ordered: list[float], share: float) -> float:
    """The value at ``share`` (0.5: the median, 1.0: the largest) of a sorted list."""
    return ordered[min(len(ordered) - 1, int(len(ordered) * share))] if ordered else float("nan")


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
        help="what each scripted player sends (see Player); one run per choice",
    )
    args = parser.parse_args()

    env = _env(args.hand_pause)
    _ensure_database(env["DATABASE_URL"])
    _setup_django(env)
    print(
        f"{args.processes} daphne process(es), PostgreSQL + channels-redis, Faras, think {args.think} s, "
        f"{args.seconds:.0f} s a run, "
        + ("next hand dealt at once" if args.hand_pause is None else f"{args.hand_pause} s between hands (Celery)"),
        flush=True,
    )
    results = []
    for table_count in args.tables:
        for client in args.client:
            result = _run(args, env, table_count, client)
            results.append(result)
            _report(args, result)
    print("--- all runs ---")
    for result in results:
        _report(args, result)


if __name__ == "__main__":
    main()
