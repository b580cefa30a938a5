"""README's Production section, run as written: nginx with TLS, two daphnes, a Celery worker,
PostgreSQL and Redis; then a hand played over https and wss, and every limit held against
a forged ``X-Forwarded-For``.

Rules pinned (issue 34; README "Production"; docs/deployment.md, "The client's address" and
"Database connections"):

- the recipe's commands succeed as README writes them: ``check --deploy`` finds no issue,
  ``migrate``, ``collectstatic`` and the catalogues run, nginx takes README's site, the
  daphnes and the worker start;
- through nginx over TLS a player signs up, opens a table, a second signs up and joins by
  the invite link, both take their seats and play a hand through the table socket (wss),
  sending the frames the page sends;
- a client's own ``X-Forwarded-For`` changes no count: wrong passwords with a forged
  address each time still lock out (django-axes), a victim's address written in it is not
  what axes records, join-code guesses with a forged address each time still reach 429, and
  sockets count against the address nginx saw (here ``DASHAIN_SOCKETS_PER_ADDRESS`` is 5, so
  the test needs few of them);
- PostgreSQL holds no more sessions for the recipe's database than the processes' pools.

Only what this machine must have of its own is substituted (:mod:`tests.production.readme_recipe`):
the server name (``localhost``), the ports (nginx's, the daphnes', Redis'), a self-signed
certificate, the static root, and the database (the suite's PostgreSQL, a database of its
own). Redis is a server of the test's own with README's password, so the settings' password
rule holds as in production. Marked ``postgres``, ``redis`` and ``nginx``: CI installs nginx
and runs it.
"""

from __future__ import annotations

import asyncio
import json
import os
import random
import re
import shutil
import socket
import ssl
import subprocess
import sys
import tempfile
import time
import urllib.parse
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import pytest

from tests.production.readme_recipe import ROOT, daphne_port, nginx_conf, nginx_site, production_recipe
from tests.tables.faults import database_for, free_port

pytestmark = [pytest.mark.postgres, pytest.mark.redis, pytest.mark.nginx]

SERVER_NAME = "localhost"
REDIS_PASSWORD = "REDIS-PASSWORD"  # README's, as written
SOCKETS_PER_ADDRESS = 5
START_SECONDS = 60
#: Each process's pool (README: DATABASE_POOL_SIZE, 10 by default).
POOL_SIZE = 10


def nginx_executable() -> str | None:
    return shutil.which("nginx") or shutil.which("nginx", path="/usr/sbin")


# --- the processes ----------------------------------------------------------------------


def _wait_for_port(port: int, process: subprocess.Popen, log: Path) -> None:
    deadline = time.monotonic() + START_SECONDS
    while True:
        if process.poll() is not None:
            raise AssertionError(f"{log.name}: the process stopped:\n{log.read_text()[-3000:]}")
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            return
        except OSError:
            if time.monotonic() > deadline:
                raise AssertionError(f"{log.name}: nothing listens on {port}:\n{log.read_text()[-3000:]}") from None
            time.sleep(0.1)


class Recipe:
    """README's recipe on this machine, its processes started in ``workdir``."""

    def __init__(self, workdir: Path) -> None:
        self.workdir = workdir
        self.recipe = production_recipe()
        self.https_port, self.http_port, self.redis_port = free_port(), free_port(), free_port()
        self.daphne_ports = {daphne_port(daphne): free_port() for daphne in self.recipe.daphnes}
        self.static_root = workdir / "static"
        self.database_url, self.drop_database = database_for(workdir, os.environ.get("DATABASE_URL", ""))
        self.processes: list[subprocess.Popen] = []
        self.logs: list[Any] = []
        settings = dict(self.recipe.settings)
        written_redis = urllib.parse.urlsplit(settings["REDIS_URL"])
        settings.update(
            SECRET_KEY="recipe-" + "".join(random.choices("abcdefghijklmnopqrstuvwxyz0123456789", k=50)),
            ALLOWED_HOSTS=SERVER_NAME,
            CSRF_TRUSTED_ORIGINS=f"https://{SERVER_NAME}:{self.https_port}",
            DATABASE_URL=self.database_url,
            REDIS_URL=urllib.parse.urlunsplit(
                written_redis._replace(netloc=f":{REDIS_PASSWORD}@127.0.0.1:{self.redis_port}")
            ),
            STATIC_ROOT=str(self.static_root),
        )
        assert written_redis.password == REDIS_PASSWORD, settings["REDIS_URL"]
        # The process environment without any of the suite's own settings, then README's.
        self.env = {
            name: value
            for name, value in os.environ.items()
            if not name.startswith(("DASHAIN_", "DATABASE_", "CELERY_"))
            and name not in ("REDIS_URL", "DEBUG", "HTTPS_ONLY")
        }
        self.env.update(settings)
        self.env["DASHAIN_SOCKETS_PER_ADDRESS"] = str(SOCKETS_PER_ADDRESS)
        self.env["PYTHONPATH"] = str(ROOT)

    @property
    def base(self) -> str:
        return f"https://{SERVER_NAME}:{self.https_port}"

    def _start(self, name: str, command: list[str]) -> subprocess.Popen:
        log = open(self.workdir / f"{name}.log", "w")  # closed in stop
        self.logs.append(log)
        process = subprocess.Popen(command, cwd=ROOT, env=self.env, stdout=log, stderr=subprocess.STDOUT)
        self.processes.append(process)
        return process

    def _bin(self, argv: list[str]) -> list[str]:
        """README's ``.venv/bin/NAME ...`` with this suite's virtual environment."""
        if argv[0] == "python":
            return [sys.executable, *argv[1:]]
        return [str(Path(sys.executable).parent / argv[0]), *argv[1:]]

    def certificate(self) -> Path:
        certificate, key = self.workdir / "fullchain.pem", self.workdir / "privkey.pem"
        subprocess.run(
            [
                *("openssl", "req", "-x509", "-nodes", "-days", "2"),
                *("-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1"),
                *("-keyout", str(key), "-out", str(certificate), "-subj", f"/CN={SERVER_NAME}"),
                *("-addext", f"subjectAltName=DNS:{SERVER_NAME},IP:127.0.0.1"),
            ],
            check=True,
            capture_output=True,
            timeout=60,
        )
        return certificate

    def run_once(self) -> dict[str, str]:
        """The commands README runs once, in its order; each one's output."""
        outputs = {}
        for argv in self.recipe.once:
            done = subprocess.run(self._bin(argv), cwd=ROOT, env=self.env, capture_output=True, text=True, timeout=300)
            assert done.returncode == 0, f"{' '.join(argv)}:\n{done.stdout[-2000:]}{done.stderr[-3000:]}"
            outputs[" ".join(argv[1:])] = done.stdout + done.stderr
        return outputs

    def start_redis(self) -> None:
        command = ["redis-server", "--port", str(self.redis_port), "--bind", "127.0.0.1"]
        command += ["--save", "", "--appendonly", "no", "--requirepass", REDIS_PASSWORD]
        _wait_for_port(self.redis_port, self._start("redis", command), self.workdir / "redis.log")

    def start_site(self, certificate: Path) -> None:
        for number, daphne in enumerate(self.recipe.daphnes):
            ours = [*daphne]
            ours[ours.index("-p") + 1] = str(self.daphne_ports[daphne_port(daphne)])
            self._start(f"daphne{number}", self._bin(ours))
        worker = self._start("worker", self._bin(self.recipe.worker))
        prefix = self.workdir / "nginx"
        for name in ("client_body", "proxy", "fastcgi", "uwsgi", "scgi"):
            (prefix / "temp" / name).mkdir(parents=True)
        site = nginx_site(
            self.recipe,
            server_name=SERVER_NAME,
            http_port=self.http_port,
            https_port=self.https_port,
            daphne_ports=self.daphne_ports,
            certificate=certificate,
            certificate_key=self.workdir / "privkey.pem",
            static_root=self.static_root,
        )
        (prefix / "nginx.conf").write_text(nginx_conf(site, prefix))
        # Run as root, nginx's workers are another user: they read the static files and
        # write their temporary files here.
        for path in [self.workdir, *self.workdir.rglob("*")]:
            path.chmod(0o777 if path.is_dir() else 0o644)
        nginx = nginx_executable()
        assert nginx is not None
        command = [nginx, "-p", str(prefix), "-e", str(prefix / "error.log"), "-c", str(prefix / "nginx.conf")]
        test = subprocess.run([*command, "-t"], capture_output=True, text=True, timeout=60)
        assert test.returncode == 0, test.stderr
        server = self._start("nginx", [*command, "-g", "daemon off;"])
        for port, name in [(port, f"daphne{n}") for n, port in enumerate(self.daphne_ports.values())]:
            _wait_for_port(port, self.processes[int(name[-1])], self.workdir / f"{name}.log")
        _wait_for_port(self.https_port, server, self.workdir / "nginx.log")
        log = self.workdir / "worker.log"
        deadline = time.monotonic() + START_SECONDS
        while " ready." not in log.read_text():
            assert worker.poll() is None and time.monotonic() < deadline, log.read_text()[-3000:]
            time.sleep(0.2)

    def stop(self) -> None:
        for process in reversed(self.processes):
            if process.poll() is None:
                process.terminate()
        for process in self.processes:
            try:
                process.wait(timeout=20)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()
        for log in self.logs:
            log.close()
        self.drop_database()

    def sql(self, statement: str, *parameters: Any) -> list[tuple]:
        """The rows of a statement run on the recipe's database."""
        import psycopg

        with psycopg.connect(self.database_url, autocommit=True) as connection:
            return connection.execute(statement, parameters).fetchall()

    def sessions(self) -> int:
        """PostgreSQL's sessions on the recipe's database, less the one asking."""
        return int(
            self.sql(
                "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()"
            )[0][0]
        )


# --- a browser's requests, without a browser ---------------------------------------------


class Forms(HTMLParser):
    """Every ``<form method="post">`` of a page: its action and the values a browser would send."""

    def __init__(self) -> None:
        super().__init__()
        self.forms: list[dict[str, Any]] = []
        self.select: str | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        given = {name: value or "" for name, value in attrs}
        if tag == "form" and given.get("method", "").lower() == "post":
            self.forms.append({"action": given.get("action", ""), "class": given.get("class", ""), "values": {}})
        if not self.forms:
            return
        values = self.forms[-1]["values"]
        if tag == "input" and "name" in given:
            kind = given.get("type", "text")
            if kind in ("radio", "checkbox"):
                if "checked" in given:
                    values[given["name"]] = given.get("value", "on")
            elif kind not in ("submit", "button"):
                values[given["name"]] = given.get("value", "")
        elif tag == "select":
            self.select = given.get("name")
        elif tag == "option" and self.select and ("selected" in given or self.select not in values):
            values[self.select] = given.get("value", "")

    def handle_endtag(self, tag: str) -> None:
        if tag == "select":
            self.select = None


class Browser:
    """One visitor's cookies over https through nginx, sending what a browser sends."""

    def __init__(self, recipe: Recipe, certificate: Path) -> None:
        import requests

        self.recipe = recipe
        self.session = requests.Session()
        self.session.trust_env = False  # no proxy, and no CA bundle from the environment in place of ours
        self.session.verify = str(certificate)

    def get(self, path: str, **headers: str) -> Any:
        return self.session.get(self.recipe.base + path, headers=headers, allow_redirects=False, timeout=30)

    def submit(self, path: str, values: dict[str, str], *, form_class: str = "", **headers: str) -> Any:
        """Open ``path``, fill the post form (the one whose class has ``form_class``) and send it."""
        page = self.get(path)
        assert page.status_code == 200, (path, page.status_code)
        forms = Forms()
        forms.feed(page.text)
        form = next(form for form in forms.forms if form_class in form["class"])
        action = form["action"] or path
        target = urllib.parse.urljoin(self.recipe.base + path, action)
        return self.session.post(
            target,
            data={**form["values"], **values},
            headers={"Origin": self.recipe.base, "Referer": self.recipe.base + path, **headers},
            allow_redirects=False,
            timeout=30,
        )

    def sign_up(self, username: str) -> None:
        password = f"{username}-plays-cards-7"
        answer = self.submit(
            "/accounts/signup/",
            {"username": username, "display_name": username.title(), "password1": password, "password2": password},
        )
        assert answer.status_code == 302, answer.text[-2000:]

    def cookie_header(self) -> str:
        return "; ".join(f"{name}={value}" for name, value in self.session.cookies.items())


# --- the table socket, as the page uses it -----------------------------------------------


class TableSocket:
    """A table page's socket over wss: remembers every frame, answers by request id."""

    def __init__(self, recipe: Recipe, certificate: Path, code: str, cookies: str, forged: str | None = None) -> None:
        self.url = f"wss://{SERVER_NAME}:{recipe.https_port}/ws/table/{code}/"
        self.headers = {"Cookie": cookies, "Origin": recipe.base}
        if forged is not None:
            self.headers["X-Forwarded-For"] = forged
        self.ssl = ssl.create_default_context(cafile=str(certificate))
        self.frames: list[dict[str, Any]] = []
        self.closed: int | None = None
        self.socket: Any = None
        self.reader: asyncio.Task | None = None
        self.next_id = 0

    async def open(self) -> None:
        import websockets

        self.socket = await websockets.connect(self.url, additional_headers=self.headers, ssl=self.ssl, open_timeout=20)
        self.reader = asyncio.ensure_future(self._read())

    async def _read(self) -> None:
        try:
            async for raw in self.socket:
                self.frames.append(json.loads(raw))
        except Exception:  # closed
            pass
        self.closed = self.socket.close_code

    async def close(self) -> None:
        if self.socket is not None:
            await self.socket.close()
        if self.reader is not None:
            await self.reader

    async def until(self, condition: Any, seconds: float = 20) -> Any:
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            for frame in self.frames:
                if condition(frame):
                    return frame
            if self.closed is not None:
                break
            await asyncio.sleep(0.05)
        raise AssertionError(f"not seen in {seconds} s; close {self.closed}; frames: {self.frames[-5:]}")

    async def send(self, frame: dict[str, Any]) -> dict[str, Any]:
        """Send a frame with a new id, as the page does, and wait for its answer."""
        self.next_id += 1
        request_id = f"c{self.next_id}-{random.randrange(10**9)}"
        await self.socket.send(json.dumps({**frame, "id": request_id}))
        return await self.until(lambda got: got.get("id") == request_id and got.get("type") != "events")

    def events(self, kind: str) -> list[dict[str, Any]]:
        return [
            event
            for frame in self.frames
            if frame.get("type") == "events"
            for event in frame.get("events", [])
            if event.get("kind") == kind
        ]


# --- the test -----------------------------------------------------------------------------


@pytest.fixture
def recipe():
    workdir = Path(tempfile.mkdtemp(prefix="dashain-recipe-"))
    started = Recipe(workdir)
    try:
        yield started
    finally:
        started.stop()
        if os.environ.get("DASHAIN_KEEP_RECIPE") != "1":
            shutil.rmtree(workdir, ignore_errors=True)


async def _play_a_hand(recipe: Recipe, certificate: Path, code: str, players: list[Browser]) -> None:
    host, guest = (TableSocket(recipe, certificate, code, player.cookie_header()) for player in players)
    for table_socket in (host, guest):
        await table_socket.open()
        await table_socket.until(lambda frame: frame.get("type") == "snapshot")
    try:
        # The host presses "Take a seat"; the friend who joined to play has one already.
        answer = await host.send({"type": "seat", "verb": "take"})
        assert answer.get("type") == "ack", answer
        answer = await guest.send({"type": "seat", "verb": "take"})
        assert answer.get("code") == "already_seated", answer
        answer = await host.send({"type": "host", "verb": "start"})
        assert answer.get("type") == "ack", answer
        await guest.until(lambda frame: any(e.get("kind") == "hand_started" for e in frame.get("events", [])))
        # Each presses "Pack" (what the page sends): the player to act packs and the hand
        # ends; the other is told it is not their turn.
        answers = [await table_socket.send({"type": "action", "verb": "pack"}) for table_socket in (host, guest)]
        assert [answer["type"] for answer in answers].count("ack") == 1, answers
        for table_socket in (host, guest):
            await table_socket.until(lambda frame: any(e.get("kind") == "hand_ended" for e in frame.get("events", [])))
    finally:
        for table_socket in (host, guest):
            await table_socket.close()


async def _sockets_with_forged_addresses(
    recipe: Recipe, certificate: Path, code: str, player: Browser
) -> tuple[list[str], list[int | None]]:
    """2 x the per-address limit + 1 sockets, each claiming another address: what each was
    answered (``snapshot``, or the code of its refusal) and how each refused one closed."""
    sockets = [
        TableSocket(recipe, certificate, code, player.cookie_header(), forged=f"203.0.113.{number + 1}")
        for number in range(2 * SOCKETS_PER_ADDRESS + 1)
    ]
    for table_socket in sockets:
        await table_socket.open()
    answers = []
    for table_socket in sockets:
        frame = await table_socket.until(
            lambda frame: frame.get("type") == "snapshot" or frame.get("code") == "too_many_sockets"
        )
        answers.append(frame.get("code", "snapshot"))
    closes = []
    for table_socket, answer in zip(sockets, answers, strict=True):
        if answer == "too_many_sockets" and table_socket.reader is not None:
            await asyncio.wait_for(table_socket.reader, 20)  # the server closes it
        closes.append(table_socket.closed)
        await table_socket.close()
    return answers, closes


def test_readme_production_recipe_as_written(recipe):
    started = time.monotonic()
    certificate = recipe.certificate()
    recipe.start_redis()
    outputs = recipe.run_once()
    assert "System check identified no issues" in outputs["manage.py check --deploy"]
    assert (recipe.static_root / "css").is_dir()
    recipe.start_site(certificate)

    # Over https through nginx: sign up, open a table, a friend joins by the invite link.
    host, friend = Browser(recipe, certificate), Browser(recipe, certificate)
    host.sign_up("asha")
    opened = host.submit("/tables/open/?game=faras", {}, form_class="settings-form")
    assert opened.status_code == 302, opened.text[-2000:]
    code = opened.headers["Location"].rstrip("/").rsplit("/", 1)[1]
    table_page = host.get(f"/tables/{code}/")
    assert table_page.status_code == 200
    assert table_page.headers["Strict-Transport-Security"]
    invite = next(
        urllib.parse.urlsplit(link).path
        for link in re.findall(rf"https?://[^\"' <]*/t/{code}/[A-Za-z0-9_-]+/", table_page.text)
    )
    friend.sign_up("bikash")
    joined = friend.submit(invite, {"role": "seat"}, form_class="settings-form")
    assert joined.status_code == 302, joined.text[-2000:]

    # A hand over wss, with the frames the page sends.
    asyncio.run(_play_a_hand(recipe, certificate, code, [host, friend]))

    # Wrong passwords, each with a forged address, still lock the username out (axes).
    stranger = Browser(recipe, certificate)
    statuses = [
        stranger.submit(
            "/accounts/login/",
            {"username": "bikash", "password": "wrong"},
            **{"X-Forwarded-For": f"198.51.100.{attempt + 1}"},
        ).status_code
        for attempt in range(11)
    ]
    assert statuses[-1] == 429, statuses
    # A victim's address written in the header is not what axes counts: the lock is on nginx's peer.
    victim = "192.0.2.77"
    for _attempt in range(3):
        stranger.submit("/accounts/login/", {"username": "asha", "password": "wrong"}, **{"X-Forwarded-For": victim})
    recorded = {row[0] for row in recipe.sql("SELECT DISTINCT host(ip_address) FROM axes_accessattempt")}
    assert recorded == {"127.0.0.1"}, recorded
    # Join-code guesses, each with a forged address, still reach 429.
    guesses = [
        stranger.get(f"/t/NOPE{attempt:02d}/", **{"X-Forwarded-For": f"198.51.100.{attempt + 100}"}).status_code
        for attempt in range(21)
    ]
    assert guesses[-1] == 429, guesses
    # Sockets count against the address nginx saw, whatever each claims.
    answers, closes = asyncio.run(_sockets_with_forged_addresses(recipe, certificate, code, friend))
    assert "too_many_sockets" in answers, answers
    assert {close for close, answer in zip(closes, answers, strict=True) if answer != "snapshot"} == {4429}, closes

    # The database: no more sessions than the processes' pools (two daphnes, the worker and its pool's processes).
    processes = len(recipe.daphne_ports) + 1 + (os.cpu_count() or 1)
    assert recipe.sessions() <= processes * POOL_SIZE
    print(f"recipe run: {time.monotonic() - started:.1f} s, database sessions after it: {recipe.sessions()}")
