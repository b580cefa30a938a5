"""A night for the notices' fault test (``test_notice_faults.py``), in the fault site's database.

    python -m tests.homegames.fault_night night WORKDIR SECONDS   a night whose hour-before reminders
                                                                  fall due in SECONDS; prints it as JSON
    python -m tests.homegames.fault_night mails WORKDIR            the Message-IDs of the mails written

Run after ``python -m tests.tables.fault_site prepare WORKDIR`` (its users: host, bina, chet, dawa).
"""

from __future__ import annotations

import json
import re
import sys
from datetime import timedelta
from pathlib import Path

MESSAGE_ID = re.compile(r"^Message-ID: (<night-\d+-notice-\d+@[^>]+>)$", re.M)
SUBJECT = re.compile(r"^Subject: (.*)$", re.M)


def night(workdir: Path, seconds: int) -> None:
    from tests.tables.fault_site import _django

    _django()
    from django.contrib.auth import get_user_model
    from django.utils import timezone

    from homegames.models import Notice
    from homegames.services import night_answer, night_schedule, night_template_save
    from homegames.services_members import home_game_create, home_game_join

    users = {user.username: user for user in get_user_model().objects.all()}
    for user in users.values():
        user.email = f"{user.username}@example.org"
        user.save(update_fields=["email"])
    host = users["host"]
    home_game = home_game_create(name="Fault Faras", host=host)
    for name in ("bina", "chet", "dawa"):
        home_game_join(home_game=home_game, token=home_game.invite_token, user=users[name])
    template = night_template_save(home_game=home_game, name="Ours", game="faras", choices={"seats": 6}, by=host)
    starts = timezone.now() + timedelta(hours=1, seconds=seconds)
    planned = night_schedule(
        home_game=home_game, template=template, starts_at=starts, time_zone="UTC", place="Here", seat_limit=6, by=host
    )
    for name in ("host", "bina", "chet"):
        night_answer(night=planned, user=users[name], reply="yes")
    night_answer(night=planned, user=users["dawa"], reply="no")
    due = Notice.objects.get(night=planned, user=users["bina"], kind="hour_before").due_at
    print(json.dumps({"night": planned.pk, "hour_before_due": due.isoformat()}))


def mails(workdir: Path) -> None:
    found = []
    for path in sorted((workdir / "mails").glob("*")):
        text = path.read_text(encoding="utf-8", errors="replace")
        for chunk in text.split("-" * 79):
            ids = MESSAGE_ID.findall(chunk)
            subjects = SUBJECT.findall(chunk)
            if ids:
                found.append({"id": ids[0], "subject": subjects[0] if subjects else ""})
    print(json.dumps(found))


if __name__ == "__main__":
    command, workdir = sys.argv[1], Path(sys.argv[2])
    if command == "night":
        night(workdir, int(sys.argv[3]))
    elif command == "mails":
        mails(workdir)
    else:
        raise SystemExit(f"unknown command {command}")
