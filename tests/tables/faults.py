"""The fault tests' harness: real processes to kill, and players that reconnect.

:class:`Site` runs the site as production does, from ``tests/tables/fault_site.py``:
daphne, and with Redis a Celery worker and a ``redis-server`` of its own on a free port
(so stopping it disturbs no one else). Any of them can be killed with SIGKILL (no
clean-up, as a power cut or the kernel's OOM killer would) and started again.

:class:`Player` is a table page's socket reduced to what the tests need: it reconnects
after a drop (0.3 s between tries, as the page's quiet reconnect), remembers every event
it heard in seq order (a snapshot after a reconnect moves it on; it then asks for what it
missed, as the page does) and every reply to its requests.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import signal
import socket
import subprocess
import sys
import time
import urllib.parse
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
START_SECONDS = 60


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def _wait_for_port(port: int, process: subprocess.Popen, log: Path) -> None:
    deadline = time.monotonic() + START_SECONDS
    while True:
        if process.poll() is not None:
            raise RuntimeError(f"process stopped:\n{log.read_text()[-3000:]}")
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            return
        except OSError:
            if time.monotonic() > deadline:
                raise RuntimeError(f"process did not start:\n{log.read_text()[-3000:]}") from None
            time.sleep(0.1)


class Site:
    """The site's processes on one database (and one Redis), for one test module."""

    def __init__(self, workdir: Path, *, database_url: str, with_redis: bool) -> None:
        self.workdir = workdir
        self.with_redis = with_redis
        self.port = free_port()
        self.redis_port = free_port() if with_redis else None
        self.env = {k: v for k, v in os.environ.items() if k not in ("REDIS_URL", "DATABASE_URL", "CI")}
        self.env.update(
            DATABASE_URL=database_url,
            DEBUG="true",
            HTTPS_ONLY="false",
            LOG_LEVEL="WARNING",
            DASHAIN_CLOCK_SWEEP_SECONDS="1",
            PYTHONPATH=str(ROOT),
        )
        if with_redis:
            self.env.update(REDIS_URL=f"redis://127.0.0.1:{self.redis_port}/0", DASHAIN_INPROCESS_WORKER="false")
        else:
            self.env.update(DASHAIN_INPROCESS_WORKER="true")
        self.web_env: dict[str, str] = {}  # the web process's own settings on top of env
        self.web: subprocess.Popen | None = None
        self.worker: subprocess.Popen | None = None
        self.redis: subprocess.Popen | None = None
        self.logs: list[Any] = []

    # --- processes -------------------------------------------------------------

    def _start(self, name: str, command: list[str], env: dict[str, str] | None = None) -> subprocess.Popen:
        """Start ``command`` with the site's environment (and ``env`` on top), its output to WORKDIR/name.log."""
        log = open(self.workdir / f"{name}.log", "a")  # closed in stop_all
        self.logs.append(log)
        return subprocess.Popen(
            command, cwd=ROOT, env={**self.env, **(env or {})}, stdout=log, stderr=subprocess.STDOUT
        )

    def site_command(self, *arguments: str) -> list[str]:
        return [sys.executable, "-m", "tests.tables.fault_site", *arguments]

    def run(self, *arguments: str) -> Any:
        """Run a fault_site command to its end; its JSON output, if any."""
        done = subprocess.run(
            self.site_command(*arguments), cwd=ROOT, env=self.env, capture_output=True, text=True, timeout=120
        )
        if done.returncode != 0:
            raise RuntimeError(done.stderr[-3000:])
        lines = done.stdout.strip().splitlines()
        return json.loads(lines[-1]) if lines else None

    def start_redis(self) -> None:
        assert self.redis_port is not None
        self.redis = self._start(
            "redis",
            ["redis-server", "--port", str(self.redis_port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"],
        )
        _wait_for_port(self.redis_port, self.redis, self.workdir / "redis.log")

    def stop_redis(self) -> None:
        self._kill(self.redis)
        self.redis = None

    def start_web(self) -> None:
        self.web = self._start("web", self.site_command("web", str(self.port), str(self.workdir)), self.web_env)
        _wait_for_port(self.port, self.web, self.workdir / "web.log")

    def kill_web(self) -> None:
        self._kill(self.web)
        self.web = None

    def start_worker(self) -> float:
        """Start a Celery worker and wait until it says it is ready; returns that moment (time.time())."""
        log = self.workdir / "worker.log"
        readies = log.read_text().count(" ready.") if log.exists() else 0
        self.worker = self._start("worker", self.site_command("worker", str(self.workdir)))
        deadline = time.monotonic() + START_SECONDS
        while log.read_text().count(" ready.") <= readies:
            if self.worker.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError(f"the worker did not start:\n{log.read_text()[-3000:]}")
            time.sleep(0.1)
        return time.time()

    def kill_worker(self) -> None:
        self._kill(self.worker)
        self.worker = None

    def web_died(self, timeout: float = 10) -> bool:
        """Whether the web process ended (it may kill itself at an armed fault)."""
        assert self.web is not None
        try:
            self.web.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            return False
        self.web = None
        return True

    @staticmethod
    def _kill(process: subprocess.Popen | None) -> None:
        if process is not None and process.poll() is None:
            process.send_signal(signal.SIGKILL)
            process.wait(timeout=20)

    def stop_all(self) -> None:
        for process in (self.web, self.worker, self.redis):
            self._kill(process)
        for log in self.logs:
            log.close()

    # --- the table -------------------------------------------------------------

    def arm_kill_before_queue(self) -> None:
        (self.workdir / "kill_before_queue").write_text("1")

    def open_table(self, game: str, players: int, choices: dict[str, Any]) -> dict[str, Any]:
        return self.run("table", str(self.workdir), game, str(players), json.dumps(choices))

    def check(self, code: str) -> dict[str, Any]:
        return self.run("check", str(self.workdir), code)

    def sessions(self) -> dict[str, str]:
        return json.loads((self.workdir / "sessions.json").read_text())


class Player:
    """One socket at the table, reconnecting as the page does."""

    def __init__(self, site: Site, code: str, session_key: str, seat: int) -> None:
        self.url = f"ws://127.0.0.1:{site.port}/ws/table/{code}/"
        self.headers = {"Cookie": f"sessionid={session_key}", "Origin": f"http://127.0.0.1:{site.port}"}
        self.seat = seat
        self.seq = 0
        self.heard: dict[int, dict[str, Any]] = {}
        self.heard_at: dict[int, float] = {}
        self.out_of_order: list[tuple[int, int]] = []
        self.turn: dict[str, Any] | None = None
        self.replies: dict[str, dict[str, Any]] = {}
        self.closes: list[int | None] = []
        self.statuses: list[int] = []  # HTTP statuses of handshakes that were not accepted
        self.errors: list[dict[str, Any]] = []
        self.socket: Any = None
        self.connected = asyncio.Event()
        self.task: asyncio.Task | None = None
        self.next_id = 0
        self.waiting_for: str | None = None
        self.held: list[dict[str, Any]] = []
        self.snapshots = 0  # one per connection (and per snapshot asked for)

    async def start(self) -> None:
        self.task = asyncio.ensure_future(self._run())
        await asyncio.wait_for(self.connected.wait(), 30)

    async def stop(self) -> None:
        if self.task is not None:
            self.task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self.task

    async def _run(self) -> None:
        import websockets

        while True:
            try:
                async with websockets.connect(self.url, additional_headers=self.headers, open_timeout=3) as ws:
                    self.socket = ws
                    async for raw in ws:
                        await self._on(json.loads(raw))
                    self.closes.append(ws.close_code)
            except asyncio.CancelledError:
                raise
            except Exception as error:  # refused, reset, closed: the page retries too
                code = getattr(getattr(error, "rcvd", None), "code", None)
                self.closes.append(code)
                status = getattr(getattr(error, "response", None), "status_code", None)
                if status is not None:  # the handshake answered with HTTP (a 500, say)
                    self.statuses.append(status)
            self.socket = None
            self.waiting_for = None
            self.connected.clear()
            await asyncio.sleep(0.3)

    async def _on(self, frame: dict[str, Any]) -> None:
        kind = frame.get("type")
        if kind == "snapshot":
            behind = self.seq
            hand = frame.get("hand")
            self.turn = hand["turn"] if hand else None
            self.snapshots += 1
            self.connected.set()
            if frame["seq"] > behind > 0:
                # What happened while away, asked for as the page does; news that arrives
                # before the answer waits for it, so events are taken in seq order.
                self.waiting_for = f"resync-{behind}"
                self.held = []
                await self.send({"type": "resync", "after": behind, "id": self.waiting_for})
            else:
                self.seq = frame["seq"]
        elif kind == "events":
            if self.waiting_for is not None and frame.get("id") != self.waiting_for:
                self.held.append(frame)
                return
            self._take(frame["events"])
            if frame.get("id") is not None and frame.get("id") == self.waiting_for:
                self.waiting_for = None
                for held in self.held:
                    self._take(held["events"])
                self.held = []
        elif kind == "error" and "id" not in frame:
            self.errors.append(frame)
        if "id" in frame and kind != "events":
            self.replies[str(frame["id"])] = frame

    def _take(self, events: list[dict[str, Any]]) -> None:
        for event in events:
            if event["seq"] <= self.seq:
                continue  # already taken (a resync answer overlaps the news held for it)
            if event["seq"] != self.seq + 1:
                self.out_of_order.append((self.seq, event["seq"]))
            self.seq = event["seq"]
            self.heard[event["seq"]] = event
            self.heard_at[event["seq"]] = time.time()
            if event.get("kind") == "turn":
                self.turn = event["data"]
            elif event.get("kind") in ("hand_ended", "hand_void", "game_ended"):
                self.turn = None

    async def send(self, message: dict[str, Any]) -> bool:
        socket_now = self.socket
        if socket_now is None:
            return False
        try:
            await socket_now.send(json.dumps(message))
        except Exception:
            return False
        return True

    async def request(self, message: dict[str, Any], *, timeout: float = 10) -> dict[str, Any] | None:
        """Send with an id (a fresh one unless given) and wait for its reply; None if none came."""
        if "id" not in message:
            self.next_id += 1
            message = {**message, "id": f"{self.seat}-{self.next_id}"}
        await self.send(message)
        return await self.reply(str(message["id"]), timeout=timeout)

    async def reply(self, request_id: str, *, timeout: float = 10) -> dict[str, Any] | None:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if request_id in self.replies:
                return self.replies.pop(request_id)
            await asyncio.sleep(0.05)
        return None

    def heard_kinds(self, kind: str) -> list[dict[str, Any]]:
        return [event for seq, event in sorted(self.heard.items()) if event.get("kind") == kind]


async def players_at(site: Site, table: dict[str, Any]) -> list[Player]:
    sessions = site.sessions()
    names = list(sessions)
    players = [Player(site, table["code"], sessions[names[index]], seat) for index, seat in enumerate(table["seats"])]
    for player in players:
        await player.start()
    return players


async def reconnected(players: list[Player], before: list[int], timeout: float = 30) -> None:
    """Wait until each player has a new connection (a snapshot after ``before``, their counts)."""
    done = await wait_until(
        lambda: all(p.snapshots > n and p.socket is not None for p, n in zip(players, before, strict=True)), timeout
    )
    assert done is not None, "the players did not reconnect"


async def wait_until(condition: Any, timeout: float, step: float = 0.1) -> float | None:
    """Seconds until ``condition()`` held, or None if it did not within ``timeout``."""
    started = time.monotonic()
    while time.monotonic() - started < timeout:
        if condition():
            return time.monotonic() - started
        await asyncio.sleep(step)
    return None


def database_for(workdir: Path, suite_database_url: str) -> tuple[str, Any]:
    """A database for the site: a fresh PostgreSQL one beside the suite's when it runs on one
    (returns its URL and a function that drops it), else a SQLite file in ``workdir``."""
    import environ
    import psycopg
    from psycopg import sql

    settings_dict = environ.Env.db_url_config(suite_database_url) if suite_database_url else {}
    if settings_dict.get("ENGINE") != "django.db.backends.postgresql":
        return f"sqlite:///{workdir / 'faults.sqlite3'}", lambda: None
    # One per pytest-xdist worker, as pytest-django names the test databases (test_<name>_gw0).
    worker = os.environ.get("PYTEST_XDIST_WORKER")
    name = f"test_{settings_dict['NAME']}_faults" + (f"_{worker}" if worker else "")
    options = dict(
        user=settings_dict["USER"],
        password=settings_dict["PASSWORD"],
        host=settings_dict["HOST"] or None,
        port=settings_dict["PORT"] or None,
        autocommit=True,
    )

    def admin(statement: Any) -> None:
        try:
            connection = psycopg.connect(dbname="postgres", **options)
        except psycopg.OperationalError:
            connection = psycopg.connect(dbname=settings_dict["NAME"], **options)
        with connection:
            connection.execute(statement)

    drop = sql.SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)").format(sql.Identifier(name))
    admin(drop)
    admin(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(name)))
    parts = urllib.parse.urlsplit(suite_database_url)
    return urllib.parse.urlunsplit(parts._replace(path="/" + name)), lambda: admin(drop)
