"""README's default setup under a real daphne: reminders and the next hand need no Redis.

Rule pinned (DESIGN.md, timers): eager Celery is not a reminder path; without Redis the
reminder still arrives on time and reaches the players' sockets, through a Celery worker
thread inside the web process on the in-memory transport. The hand after a pack is dealt
by the same worker after the pause between hands. Runs daphne in a subprocess on a
throw-away SQLite database.
"""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def test_default_setup_under_daphne_reminds_and_deals_on(tmp_path):
    env = {key: value for key, value in os.environ.items() if key not in ("REDIS_URL", "DATABASE_URL")}
    env.update(
        DATABASE_URL=f"sqlite:///{tmp_path / 'default.sqlite3'}",
        DASHAIN_NEXT_HAND_DELAY="1",
        DASHAIN_INPROCESS_WORKER="true",
        DEBUG="true",
        LOG_LEVEL="WARNING",
        PORT=str(_free_port()),
    )
    run = subprocess.run(
        [sys.executable, str(ROOT / "tests/tables/daphne_default_check.py")],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=180,
    )
    assert run.returncode == 0, run.stderr[-3000:]
    seen = json.loads(run.stdout.strip().splitlines()[-1])
    assert "reminder_after" in seen, seen
    assert seen["reminder_player"] == seen["turn_player"]
    assert seen["reminder_after"] >= 4  # queued with the 5 s countdown, not run at once (eager)
    assert "next_hand_after" in seen, seen
    assert seen["next_hand_after"] >= 0.5  # after the pause between hands
