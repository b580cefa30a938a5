"""Browser test harness: a real daphne server on a test database, and Debian's Chromium.

- ``live_site`` (session): starts ``tests/browser/server.py`` in a subprocess on a free
  port and waits until it answers; knows each test user's session key.
- ``chromium`` (this package): Playwright driving Debian's Chromium (CHROMIUM_PATH or chromium on
  PATH, found by tests/conftest.py; the Playwright browser download cannot be used here).
- ``artifacts``: test-artifacts/<test name>/ (git-ignored), for screenshots.

Every test in this folder is marked ``browser``.
"""

from __future__ import annotations

import json
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from dataclasses import dataclass
from pathlib import Path

import pytest

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


@dataclass
class LiveSite:
    url: str
    sessions: dict[str, str]
    workdir: Path

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


@pytest.fixture(scope="session")
def live_site():
    workdir = Path(tempfile.mkdtemp(prefix="dashain-browser-"))
    port = _free_port()
    log = open(workdir / "server.log", "w")
    process = subprocess.Popen(
        [sys.executable, "-m", "tests.browser.server", str(port), str(workdir)],
        cwd=ROOT,
        stdout=log,
        stderr=subprocess.STDOUT,
    )
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + SERVER_START_SECONDS
    while True:
        if process.poll() is not None:
            log.flush()
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
            process.kill()
            raise RuntimeError("The test server did not start:\n" + (workdir / "server.log").read_text())
        time.sleep(0.2)
    site = LiveSite(url=url, sessions=json.loads((workdir / "sessions.json").read_text()), workdir=workdir)
    yield site
    process.terminate()
    try:
        process.wait(timeout=10)
    except subprocess.TimeoutExpired:
        process.kill()
    log.close()
    if os.environ.get("DASHAIN_KEEP_BROWSER_SERVER") != "1":
        shutil.rmtree(workdir, ignore_errors=True)


@pytest.fixture(scope="package")
def chromium():
    """Package scope: Playwright's sync API holds an asyncio loop open until it stops."""
    path = chromium_executable()
    if path is None:
        pytest.skip("needs a browser: install chromium or set CHROMIUM_PATH")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=path, args=CHROMIUM_ARGS)
        yield browser
        browser.close()


@pytest.fixture
def new_page(chromium, live_site):
    """Open a page in a fresh browser context (its own cookies), optionally signed in."""
    live_site.set_next_hand_delay(3600)
    contexts = []

    def open_page(username: str | None = None, *, viewport=None):
        context = chromium.new_context(base_url=live_site.url, viewport=viewport or {"width": 1200, "height": 860})
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
