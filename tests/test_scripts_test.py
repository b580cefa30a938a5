"""scripts/test, the command CI runs: a failing lint, format or type check fails the run,
even when every test passes, and pytest still runs after a failed check.

The checks' programs are stand-ins here (a virtual environment of small shell scripts
that exit as told), so this runs in a moment and tests the script's own logic: which
programs it calls and what it makes of their exit statuses.
"""

import os
import stat
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

STAND_IN = """#!/usr/bin/env bash
echo "{name} $*" >>"$CALLS"
if [[ "{name}" == ruff && "$1" == format ]]; then exit "${{FORMAT_STATUS:-0}}"; fi
if [[ "{name}" == ruff ]]; then exit "${{LINT_STATUS:-0}}"; fi
if [[ "{name}" == mypy ]]; then exit "${{MYPY_STATUS:-0}}"; fi
exit "${{PYTEST_STATUS:-0}}"
"""


@pytest.fixture
def fake_venv(tmp_path: Path) -> Path:
    venv = tmp_path / "venv"
    (venv / "bin").mkdir(parents=True)
    for name in ("python", "ruff", "mypy"):
        program = venv / "bin" / name
        program.write_text(STAND_IN.format(name=name))
        program.chmod(program.stat().st_mode | stat.S_IXUSR)
    # The stamp scripts/_venv.sh writes after installing, so it installs nothing here.
    digest = subprocess.run(
        ["bash", "-c", "cat requirements*.txt | sha256sum | cut -d' ' -f1"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    ).stdout.strip()
    (venv / ".installed-requirements-dev.txt.sha256").write_text(digest + "\n")
    return venv


def run_scripts_test(venv: Path, tmp_path: Path, **statuses: int) -> tuple[int, list[str], str]:
    calls = tmp_path / "calls.txt"
    calls.write_text("")
    env = {name: value for name, value in os.environ.items() if name != "DASHAIN_CHECKS"}
    env.update({"VENV": str(venv), "CALLS": str(calls)})
    env.update({name.upper(): str(status) for name, status in statuses.items()})
    done = subprocess.run(
        ["bash", "scripts/test", "tests/some_test.py", "-q"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    return done.returncode, calls.read_text().splitlines(), done.stderr


def test_every_check_and_pytest_run_in_order(fake_venv: Path, tmp_path: Path) -> None:
    status, calls, _stderr = run_scripts_test(fake_venv, tmp_path)
    assert status == 0
    assert calls == [
        "ruff check .",
        "ruff format --check .",
        "mypy ",
        "python -m pytest tests/some_test.py -q",
    ]


@pytest.mark.parametrize(
    ("failing", "named"),
    [
        ("lint_status", "ruff check ."),
        ("format_status", "ruff format --check ."),
        ("mypy_status", "mypy"),
    ],
)
def test_a_failed_check_fails_the_run_though_the_tests_pass(
    fake_venv: Path, tmp_path: Path, failing: str, named: str
) -> None:
    status, calls, stderr = run_scripts_test(fake_venv, tmp_path, **{failing: 1})
    assert status != 0
    assert calls[-1].startswith("python -m pytest")  # the tests still ran, to show everything at once
    assert f"scripts/test: failed: {named}" in stderr


def test_failing_tests_keep_pytests_status(fake_venv: Path, tmp_path: Path) -> None:
    status, _calls, _stderr = run_scripts_test(fake_venv, tmp_path, pytest_status=5)
    assert status == 5  # pytest's own code (5: no tests ran) is not hidden


def test_failing_tests_and_a_failed_check_still_fail(fake_venv: Path, tmp_path: Path) -> None:
    status, _calls, stderr = run_scripts_test(fake_venv, tmp_path, pytest_status=1, mypy_status=1)
    assert status == 1
    assert "failed: mypy" in stderr


def test_checks_skipped_on_request_run_pytest_alone(fake_venv: Path, tmp_path: Path) -> None:
    env_calls = _run_with_checks_skipped(fake_venv, tmp_path)
    assert env_calls == ["python -m pytest tests/some_test.py -q"]


def _run_with_checks_skipped(venv: Path, tmp_path: Path) -> list[str]:
    calls = tmp_path / "calls-skipped.txt"
    calls.write_text("")
    env = {**os.environ, "VENV": str(venv), "CALLS": str(calls), "DASHAIN_CHECKS": "skip"}
    subprocess.run(
        ["bash", "scripts/test", "tests/some_test.py", "-q"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    )
    return calls.read_text().splitlines()
