"""Test-wide setup: the `postgres`, `redis` and `browser` markers, and CI's no-skip rule.

Mark a test that needs a real service and it runs only where the service is:

    @pytest.mark.postgres   the database is PostgreSQL (DATABASE_URL=postgres://...)
    @pytest.mark.redis      REDIS_URL is set (channels-redis and Celery on Redis)
    @pytest.mark.browser    a Chromium executable exists (CHROMIUM_PATH, or chromium-headless-shell or chromium on PATH)
    @pytest.mark.nginx      nginx and openssl are installed (README's Production recipe, tests/production)

Without the service the test is skipped. When the CI environment variable is set
(.ci/run sets it), a test with one of these markers fails instead of skipping, so CI
cannot pass by testing less. A test that needs a service must carry its marker: an
unmarked test's skip is left alone (it may skip on purpose, e.g. "in-memory setup only").
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest
from django.conf import settings
from django.test import override_settings

SERVICE_MARKERS = ("postgres", "redis", "browser", "nginx")

# No clock sweep loop and no in-process Celery worker in the test process: tests run the
# clock themselves, at the moments they choose (a thread would act on their tables behind
# their backs, or lock a SQLite database while a test's teardown flushes it). A test of
# the worker starts it (tables.background_threads.inprocess_worker_start); processes a test starts
# (the browser tests' server, the fault tests, the daphne check) keep the real ones.
settings.DASHAIN_CLOCK_SWEEP_SECONDS = 0
settings.DASHAIN_INPROCESS_WORKER = False


@pytest.fixture(autouse=True)
def _english_to_start_with():
    """Each test starts in the site's default language. A request activates its visitor's
    language in the thread that serves it (LocaleMiddleware) and leaves it active, so a
    test client's Nepali request would otherwise make the next test's services speak Nepali."""
    from django.utils import translation

    translation.activate(settings.LANGUAGE_CODE)
    yield
    translation.activate(settings.LANGUAGE_CODE)


def pytest_configure(config: pytest.Config) -> None:
    """The translations are compiled from locale/*.po before any test (and the browser
    tests' server) reads them, as scripts/serve does: only the .po files are in git."""
    from config.catalogues import compile_catalogues

    if os.environ.get("PYTEST_XDIST_WORKER"):
        return  # pytest-xdist's controller compiled them before it started the workers
    compile_catalogues()


def running_in_ci() -> bool:
    return os.environ.get("CI", "").strip().lower() not in ("", "0", "false", "no")


def chromium_executable() -> str | None:
    """CHROMIUM_PATH if set (and present), else a Chromium found on PATH: the headless shell
    first (Debian's ``chromium-headless-shell``, what Playwright itself runs headless: the
    same engine without the browser's windows, at about half the CPU a test), then the
    full browser."""
    configured = os.environ.get("CHROMIUM_PATH")
    if configured:
        return configured if os.access(configured, os.X_OK) else None
    return _first_on_path("chromium-headless-shell", "chromium", "chromium-browser")


def full_chromium_executable() -> str | None:
    """The full browser, for what only it answers (whether the site can be installed as an
    app): CHROMIUM_PATH unless it names the headless shell, else ``chromium`` on PATH."""
    configured = chromium_executable()
    if configured is not None and "headless-shell" not in Path(configured).name:
        return configured
    return _first_on_path("chromium", "chromium-browser")


def _first_on_path(*names: str) -> str | None:
    for name in names:
        found = shutil.which(name)
        if found:
            return found
    return None


def missing_service(marker_name: str) -> str | None:
    """Why a test with this marker cannot run here, or None if it can."""
    if marker_name == "postgres":
        if settings.DATABASES["default"]["ENGINE"] != "django.db.backends.postgresql":
            return "needs PostgreSQL: set DATABASE_URL=postgres://..."
    elif marker_name == "redis":
        if not settings.REDIS_URL:
            return "needs Redis: set REDIS_URL=redis://..."
    elif marker_name == "browser":
        if chromium_executable() is None:
            return "needs a browser: install chromium or set CHROMIUM_PATH"
    elif marker_name == "nginx":
        nginx = shutil.which("nginx") or shutil.which("nginx", path="/usr/sbin")
        if nginx is None or shutil.which("openssl") is None:
            return "needs nginx and openssl: apt-get install nginx openssl"
    return None


@pytest.hookimpl(trylast=True)
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Run browser tests last: Playwright's sync API keeps an event loop running in the main
    thread while a browser is open, and async tests after it would fail to start their own."""
    items.sort(key=lambda item: item.get_closest_marker("browser") is not None)


def pytest_runtest_setup(item: pytest.Item) -> None:
    for marker_name in SERVICE_MARKERS:
        if item.get_closest_marker(marker_name) is None:
            continue
        reason = missing_service(marker_name)
        if reason and running_in_ci():
            pytest.fail(f"CI is set, so this test must run: it {reason}", pytrace=False)
        if reason:
            pytest.skip(reason)


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo):
    """Under CI, a test marked as needing a service may not skip, whether the skip comes
    from this file, a fixture (say, one that finds no browser) or the test itself."""
    report = yield
    marked = any(item.get_closest_marker(name) for name in SERVICE_MARKERS)
    if report.skipped and marked and running_in_ci() and not hasattr(report, "wasxfail"):
        reason = report.longrepr[-1] if isinstance(report.longrepr, tuple) else report.longrepr
        report.outcome = "failed"
        report.longrepr = f"CI is set, so this test must not be skipped: {reason}"
    return report


@pytest.fixture
def chromium_path() -> str:
    """The Chromium executable for Playwright's ``launch(executable_path=...)``."""
    path = chromium_executable()
    if path is None:
        pytest.skip("needs a browser: install chromium or set CHROMIUM_PATH")
    return path


@pytest.fixture(autouse=True, scope="session")
def _test_settings():
    """Tests talk plain HTTP (with DEBUG off the site would redirect every request to
    HTTPS), and hash passwords with a fast hasher: the real one is slow on purpose."""
    with override_settings(
        SECURE_SSL_REDIRECT=False,
        HTTPS_ONLY=False,  # so the site's own origin is http://, as the test clients send (config/origin.py)
        PASSWORD_HASHERS=["django.contrib.auth.hashers.MD5PasswordHasher"],
    ):
        yield


@pytest.fixture(autouse=True)
def _join_guesses_forgotten():
    """The join pages count failed guesses per address (config/limits.py), and the
    calendar feed its requests (homegames/views.py); the test client's address starts each
    test with none."""
    from config.limits import join_attempts_forget
    from homegames.views import FEED_PER_ADDRESS

    join_attempts_forget("127.0.0.1")
    FEED_PER_ADDRESS.forget("127.0.0.1")
    yield


@pytest.fixture(scope="session")
def django_db_setup(django_db_setup, django_db_blocker):
    """pytest-django's test databases, their rows numbered from a million up (tests/high_ids.py)."""
    from tests.high_ids import start_all_ids_high

    with django_db_blocker.unblock():
        start_all_ids_high()


@pytest.fixture(autouse=True)
def _ids_high_again(request, django_db_blocker):
    """A test marked ``django_db(reset_sequences=True)`` starts its counters at 1 (it counts
    on small ids), and Django leaves them there: raised again after it, for the tests that follow."""
    yield
    marker = request.node.get_closest_marker("django_db")
    if marker is None or not marker.kwargs.get("reset_sequences"):
        return
    from tests.high_ids import start_all_ids_high

    with django_db_blocker.unblock():
        start_all_ids_high()
