"""tests/conftest.py's rule: a test wanting PostgreSQL, Redis or a browser skips without it,
and fails instead when CI is set.

A small suite runs in a subprocess with no services configured, once without CI and once with.
"""

import os
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

SMALL_SUITE = """
import pytest

@pytest.mark.redis
def test_marked_redis():
    pass

@pytest.mark.postgres
def test_marked_postgres():
    pass

@pytest.mark.browser
def test_marked_browser_whose_fixture_finds_no_browser():
    pytest.skip("Chromium would not start")

def test_unmarked_skip_on_purpose():
    pytest.skip("covers the in-memory setup; the redis test covers the other")

def test_plain():
    pass
"""


def run_small_suite(tmp_path: Path, ci: str | None) -> dict[str, int]:
    """Run SMALL_SUITE; return pytest's closing counts, e.g. {"passed": 1, "skipped": 5}."""
    hooks = "from tests.conftest import pytest_runtest_makereport, pytest_runtest_setup\n"
    (tmp_path / "conftest.py").write_text(hooks)
    (tmp_path / "test_small.py").write_text(SMALL_SUITE)
    fake_chromium = tmp_path / "chromium"  # present, so the browser test reaches its own skip
    fake_chromium.write_text("#!/bin/sh\n")
    fake_chromium.chmod(0o755)
    environment = {
        name: value
        for name, value in os.environ.items()
        if name not in ("CI", "DATABASE_URL", "REDIS_URL", "CHROMIUM_PATH", "PYTEST_ADDOPTS")
    }
    environment |= {
        "PYTHONPATH": str(ROOT),
        "DJANGO_SETTINGS_MODULE": "config.settings",
        "CHROMIUM_PATH": str(fake_chromium),
    }
    if ci is not None:
        environment["CI"] = ci
    result = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "--rootdir", str(tmp_path), str(tmp_path)],
        cwd=tmp_path,
        env=environment,
        capture_output=True,
        text=True,
        timeout=120,
    )
    closing_line = result.stdout.strip().splitlines()[-1]
    counts = {word: int(number) for number, word in re.findall(r"(\d+) (\w+)", closing_line)}
    counts.pop("warnings", None)
    counts.pop("warning", None)
    return counts


def test_without_ci_a_test_wanting_a_service_is_skipped(tmp_path):
    assert run_small_suite(tmp_path, ci=None) == {"passed": 1, "skipped": 4}


def test_with_ci_a_marked_test_may_not_skip_and_an_unmarked_skip_stays(tmp_path):
    # Redis and PostgreSQL fail in setup (pytest counts those as errors), the browser test
    # fails at its own skip; the unmarked skip stays a skip.
    assert run_small_suite(tmp_path, ci="true") == {"errors": 2, "failed": 1, "passed": 1, "skipped": 1}


def test_ci_set_to_false_counts_as_not_set(tmp_path):
    assert run_small_suite(tmp_path, ci="false") == {"passed": 1, "skipped": 4}
