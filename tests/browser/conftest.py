"""Browser test harness: a real daphne server on the configured services, and Debian's Chromium.

- ``live_site`` (session): starts ``tests/browser/server.py`` in a subprocess on a free
  port and waits until it answers; knows each test user's session key. It runs on what
  the suite runs on, like CI's other tests:

  - ``DATABASE_URL`` is PostgreSQL: a database ``test_<name>_browser`` on the same server,
    created for the session and dropped after it (the test run's own ``test_<name>`` is
    pytest-django's); otherwise a SQLite file in the server's work folder.
  - ``REDIS_URL`` is set: the server uses channels-redis and Celery on Redis, and a Celery
    worker process runs beside it (``server.py worker``), as in production; both use a
    channel-layer prefix and a queue named for this run. Otherwise: the in-memory channel
    layer and the worker thread inside the server (README's default setup).
- ``live_site.scenario(NAME)``: data a test's pages need, made through the services in the
  server's database by one process kept for the session (``server.py scenarios``, started at
  the first scenario), so Django and the services are imported once, not once per scenario
  (5 to 8 s each on a loaded 2-core machine).
- ``chromium`` (this package): Playwright driving Debian's Chromium (CHROMIUM_PATH or chromium on
  PATH, found by tests/conftest.py; the Playwright browser download cannot be used here).
- ``artifacts``: test-artifacts/<test name>/ (git-ignored), for screenshots.

The server's e-mails go to a real SMTP server (aiosmtpd) that ``live_site`` starts in this
process (``EMAIL_URL=smtp://...``); ``live_site.mailbox`` holds what it received.

Every test in this folder is marked ``browser``.
"""

from __future__ import annotations

import email
import email.message
import email.policy
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.parse
import urllib.request
import uuid
from collections.abc import Callable
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import pytest
from aiosmtpd.controller import Controller

from tests.conftest import chromium_executable

ROOT = Path(__file__).resolve().parents[2]
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--disable-quic",
]
#: How long the server may take to start, and a page to show a change (ms). Bounds, not assertions.
SERVER_START_SECONDS = 60
PAGE_TIMEOUT_MS = 15_000


def pytest_collection_modifyitems(items):
    for item in items:
        if "tests/browser/" in str(item.fspath).replace(os.sep, "/"):
            item.add_marker(pytest.mark.browser)


class MailBox:
    """An aiosmtpd handler: every message a real SMTP client delivers, parsed."""

    def __init__(self) -> None:
        self.messages: list[email.message.EmailMessage] = []
        self._lock = threading.Lock()

    async def handle_DATA(self, server, session, envelope) -> str:
        message = email.message_from_bytes(envelope.content, policy=email.policy.default)
        assert isinstance(message, email.message.EmailMessage)
        with self._lock:
            self.messages.append(message)
        return "250 Message accepted for delivery"

    def to(self, address: str) -> list[email.message.EmailMessage]:
        with self._lock:
            return [message for message in self.messages if address in str(message["To"])]

    def wait_for(self, address: str, subject_part: str, timeout: float = 20.0) -> email.message.EmailMessage:
        """The first message to ``address`` whose subject contains ``subject_part`` (polls: the
        server's sweep sends every 2 s). A bound on waiting, not a timed assertion."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            for message in self.to(address):
                if subject_part in str(message["Subject"]):
                    return message
            time.sleep(0.2)
        raise AssertionError(f"no mail to {address} about {subject_part!r}: {[m['Subject'] for m in self.to(address)]}")


@dataclass
class LiveSite:
    url: str
    sessions: dict[str, str]
    workdir: Path
    environment: dict[str, str]
    mailbox: MailBox
    start_scenarios: Callable[[], subprocess.Popen]
    scenarios: subprocess.Popen | None = None

    def scenario(self, name: str) -> dict:
        """Data made in the server's database by the scenario process (``server.py scenarios``,
        started at the first call) for ``name``: its answer's JSON. A scenario that fails fails
        the test with its traceback."""
        from tests.browser.server import SCENARIO_ANSWER

        if self.scenarios is None:
            self.scenarios = self.start_scenarios()
        assert self.scenarios.stdin is not None and self.scenarios.stdout is not None
        self.scenarios.stdin.write(name + "\n")
        self.scenarios.stdin.flush()
        while True:
            line = self.scenarios.stdout.readline()
            if not line:
                raise RuntimeError("The scenario process stopped:\n" + (self.workdir / "scenarios.log").read_text())
            if line.startswith(SCENARIO_ANSWER):
                answer = json.loads(line.removeprefix(SCENARIO_ANSWER))
                break
        if "error" in answer:
            raise RuntimeError(f"scenario {name!r} failed:\n{answer['error']}")
        return answer

    def set_next_hand_delay(self, seconds: float) -> None:
        """How long the server waits before dealing the next hand (read at each hand's end)."""
        (self.workdir / "next_hand_delay").write_text(str(seconds))

    def set_next_table_code(self, code: str) -> None:
        """The code of the next table opened (with the fixed seed, it fixes every deal there)."""
        (self.workdir / "next_table_code").write_text(code)

    def sign_in(self, context, username: str) -> None:
        """Give a browser context the test user's session cookie."""
        context.add_cookies([{"name": "sessionid", "value": self.sessions[username], "url": self.url}])


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def _stop(process: subprocess.Popen) -> None:
    if process.poll() is None:
        process.send_signal(signal.SIGTERM)
    try:
        process.wait(timeout=20)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()


@contextmanager
def _browser_database(workdir: Path):
    """The DATABASE_URL for the server: a fresh PostgreSQL database when the suite runs on one, else SQLite."""
    import environ
    import psycopg
    from psycopg import sql

    configured = os.environ.get("DATABASE_URL", "")
    settings_dict = environ.Env.db_url_config(configured) if configured else {}
    if settings_dict.get("ENGINE") != "django.db.backends.postgresql":
        yield f"sqlite:///{workdir / 'browser.sqlite3'}"
        return
    # One per pytest-xdist worker, as pytest-django names the test databases (test_<name>_gw0).
    worker = os.environ.get("PYTEST_XDIST_WORKER")
    name = f"test_{settings_dict['NAME']}_browser" + (f"_{worker}" if worker else "")

    def admin(statement: sql.Composed) -> None:
        """Run on the server's 'postgres' database, as Django does for test databases (else the configured one)."""
        options = dict(
            user=settings_dict["USER"],
            password=settings_dict["PASSWORD"],
            host=settings_dict["HOST"] or None,
            port=settings_dict["PORT"] or None,
            autocommit=True,
        )
        try:
            connection = psycopg.connect(dbname="postgres", **options)
        except psycopg.OperationalError:
            connection = psycopg.connect(dbname=settings_dict["NAME"], **options)
        with connection:
            connection.execute(statement)

    drop = sql.SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)").format(sql.Identifier(name))
    admin(drop)  # left over from an interrupted run
    admin(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(name)))
    parts = urllib.parse.urlsplit(configured)
    try:
        yield urllib.parse.urlunsplit(parts._replace(path="/" + name))
    finally:
        admin(drop)


def _wait_for_server(process: subprocess.Popen, url: str, workdir: Path) -> None:
    deadline = time.monotonic() + SERVER_START_SECONDS
    while True:
        if process.poll() is not None:
            raise RuntimeError("The test server stopped:\n" + (workdir / "server.log").read_text())
        try:
            urllib.request.urlopen(url + "/", timeout=2)
            if (workdir / "sessions.json").exists():
                break
        except urllib.error.HTTPError:
            if (workdir / "sessions.json").exists():
                break
        except OSError:
            pass
        if time.monotonic() > deadline:
            raise RuntimeError("The test server did not start:\n" + (workdir / "server.log").read_text())
        time.sleep(0.2)


@pytest.fixture(scope="session")
def live_site():
    workdir = Path(tempfile.mkdtemp(prefix="dashain-browser-"))
    port = _free_port()
    url = f"http://127.0.0.1:{port}"
    processes: list[subprocess.Popen] = []
    logs = []
    # A real SMTP server (aiosmtpd) in this process: the site's e-mails go to it through
    # Django's SMTP backend (EMAIL_URL), as they would to a mail server in production.
    mailbox = MailBox()
    smtp = Controller(mailbox, hostname="127.0.0.1", port=_free_port())
    smtp.start()
    with _browser_database(workdir) as database_url:
        env = dict(
            os.environ,
            DATABASE_URL=database_url,
            DASHAIN_BROWSER_RUN=uuid.uuid4().hex[:10],
            EMAIL_URL=f"smtp://127.0.0.1:{smtp.port}",
        )

        def start(name: str, *arguments: str) -> subprocess.Popen:
            log = open(workdir / f"{name}.log", "w")
            logs.append(log)
            process = subprocess.Popen(
                [sys.executable, "-m", "tests.browser.server", *arguments, str(workdir)],
                cwd=ROOT,
                env=env,
                stdout=log,
                stderr=subprocess.STDOUT,
            )
            processes.append(process)
            return process

        def start_scenarios() -> subprocess.Popen:
            scenarios_log = open(workdir / "scenarios.log", "w")
            logs.append(scenarios_log)
            scenarios = subprocess.Popen(
                [sys.executable, "-m", "tests.browser.server", "scenarios", str(workdir)],
                cwd=ROOT,
                env=env,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=scenarios_log,
                text=True,
            )
            processes.append(scenarios)
            return scenarios

        try:
            _wait_for_server(start("server", str(port)), url, workdir)
            if env.get("REDIS_URL"):
                start("worker", "worker")
            yield LiveSite(
                url=url,
                sessions=json.loads((workdir / "sessions.json").read_text()),
                workdir=workdir,
                environment=env,
                mailbox=mailbox,
                start_scenarios=start_scenarios,
            )
        finally:
            for process in processes:
                if process.stdin is not None:
                    process.stdin.close()  # the scenario process ends when its input does
                _stop(process)
            smtp.stop()
            for log in logs:
                log.close()
    if os.environ.get("DASHAIN_KEEP_BROWSER_SERVER") != "1":
        shutil.rmtree(workdir, ignore_errors=True)


@pytest.fixture(scope="package")
def chromium():
    """Package scope: Playwright's sync API holds an asyncio loop open until it stops."""
    path = chromium_executable()
    if path is None:
        pytest.skip("needs a browser: install chromium or set CHROMIUM_PATH")
    from playwright.sync_api import expect, sync_playwright

    # Assertions wait as long as actions do: on a loaded CI machine a page can take more than
    # Playwright's default 5 s to apply the news (seen once: a watcher's page still empty).
    expect.set_options(timeout=PAGE_TIMEOUT_MS)
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=path, args=CHROMIUM_ARGS)
        yield browser
        browser.close()


@pytest.fixture
def new_page(chromium, live_site):
    """Open a page in a fresh browser context (its own cookies), optionally signed in."""
    live_site.set_next_hand_delay(3600)
    contexts = []

    def open_page(username: str | None = None, *, viewport=None, timezone_id: str | None = None):
        context = chromium.new_context(
            base_url=live_site.url, viewport=viewport or {"width": 1200, "height": 860}, timezone_id=timezone_id
        )
        context.set_default_timeout(PAGE_TIMEOUT_MS)
        if username:
            live_site.sign_in(context, username)
        contexts.append(context)
        return context.new_page()

    yield open_page
    for context in contexts:
        context.close()


@pytest.fixture
def artifacts(request):
    folder = ROOT / "test-artifacts" / request.node.name
    shutil.rmtree(folder, ignore_errors=True)
    folder.mkdir(parents=True)
    return folder
