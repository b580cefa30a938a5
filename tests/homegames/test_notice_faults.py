"""Fault test: the e-mails of a night survive a killed process and are never sent twice.

The real site (daphne, its worker thread and the table clock's sweep, as in
``tests/tables/test_clock_faults.py``) writes mail through Django's file backend
(``EMAIL_URL=filemail://...``). The web process is killed (SIGKILL) between scheduling and
the hour-before reminder's time; nothing runs when it falls due; the restarted process's
first sweep sends it. Every notice's Message-ID is written once, across two more kills.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from datetime import datetime
from pathlib import Path

import pytest

from tests.tables.faults import ROOT, Site, database_for

#: Seconds within which something due must happen (sweep every 1 s here, on 2 busy cores).
BOUND = 6.0
LEAD = 8  # seconds from scheduling to the hour-before reminders being due


@pytest.fixture
def site():
    workdir = Path(tempfile.mkdtemp(prefix="dashain-notices-"))
    database_url, drop = database_for(workdir, "")
    site = Site(workdir, database_url=database_url, with_redis=False)
    site.env["EMAIL_URL"] = f"filemail:///{workdir / 'mails'}"
    try:
        site.run("prepare", str(workdir))
        yield site
    finally:
        site.stop_all()
        drop()
        if os.environ.get("DASHAIN_KEEP_FAULT_LOGS") != "1":
            shutil.rmtree(workdir, ignore_errors=True)


def night_command(site: Site, *arguments: str):
    done = subprocess.run(
        [sys.executable, "-m", "tests.homegames.fault_night", *arguments],
        cwd=ROOT,
        env=site.env,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    return json.loads(done.stdout.strip().splitlines()[-1])


def mails(site: Site) -> list[dict]:
    return night_command(site, "mails", str(site.workdir))


def reminders(site: Site) -> list[dict]:
    return [mail for mail in mails(site) if mail["subject"].startswith("In an hour")]


def test_a_restart_between_scheduling_and_the_reminder_loses_none_and_sends_none_twice(site):
    site.start_web()
    planned = night_command(site, "night", str(site.workdir), str(LEAD))
    due = datetime.fromisoformat(planned["hour_before_due"]).timestamp()
    # The invitations go out with the next sweep (host excluded: they scheduled it).
    assert poll_until(lambda: len(mails(site)) >= 3, BOUND)
    site.kill_web()
    assert time.time() < due, "the machine was too slow to kill the site before the reminder was due"
    time.sleep(max(0.0, due - time.time()) + 1.0)
    assert reminders(site) == []  # nothing ran when it fell due
    restarted = time.time()
    site.start_web()
    assert poll_until(lambda: len(reminders(site)) >= 3, BOUND), mails(site)
    assert time.time() - restarted < BOUND + 60  # the process's start is most of it
    # Killed and started twice more: nothing is sent again.
    for _round in range(2):
        site.kill_web()
        site.start_web()
        time.sleep(2.5)
    sent = mails(site)
    ids = [mail["id"] for mail in sent]
    assert len(ids) == len(set(ids)) == 6, sent  # 3 invitations, 3 hour-before reminders (dawa said no)
    assert sorted(mail["subject"].split(":")[0] for mail in sent) == ["A night of Fault Faras"] * 3 + ["In an hour"] * 3


def poll_until(condition, seconds: float) -> bool:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(0.3)
    return condition()
