"""The processes of the fault tests (``test_clock_faults.py``): the real site, run as production runs it.

    python -m tests.tables.fault_site prepare WORKDIR           migrate, users and their sessions
    python -m tests.tables.fault_site table WORKDIR GAME N JSON  open a table, N players seated; prints it
    python -m tests.tables.fault_site start WORKDIR CODE         the host starts the game
    python -m tests.tables.fault_site web PORT WORKDIR           daphne config.asgi:application
    python -m tests.tables.fault_site worker WORKDIR             celery -A config worker (with REDIS_URL)
    python -m tests.tables.fault_site check WORKDIR CODE         the table's log and invariants, as JSON

The services come from the environment the test passes (``DATABASE_URL``, ``REDIS_URL``,
``DASHAIN_INPROCESS_WORKER``, ``DASHAIN_CLOCK_SWEEP_SECONDS``), as in production.

One fault can be armed from outside: while WORKDIR/kill_before_queue exists, the web
process kills itself (SIGKILL, no clean-up) at the moment a committed write would queue
the clock's fast path, i.e. between the commit and the task being queued.
"""

from __future__ import annotations

import json
import os
import signal
import sys
from pathlib import Path

USERS = ("host", "bina", "chet", "dawa")


def _django() -> None:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    import django

    django.setup()


def prepare(workdir: Path) -> None:
    _django()
    from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY, get_user_model
    from django.contrib.auth.hashers import make_password
    from django.contrib.sessions.backends.db import SessionStore
    from django.core.management import call_command

    from tests.high_ids import start_all_ids_high

    call_command("migrate", verbosity=0, interactive=False)
    start_all_ids_high()
    # Hashed once for the four (the site's hasher takes 0.6 to 0.9 s a hash on a loaded 2-core
    # machine, on purpose): each user still has the same usable password.
    password = make_password("fault-test-pass")
    sessions = {}
    for username in USERS:
        user = get_user_model().objects.create(username=username, password=password)
        session = SessionStore()
        session[SESSION_KEY] = str(user.pk)
        session[BACKEND_SESSION_KEY] = "django.contrib.auth.backends.ModelBackend"
        session[HASH_SESSION_KEY] = user.get_session_auth_hash()
        session.create()
        sessions[username] = session.session_key
    (workdir / "sessions.json").write_text(json.dumps(sessions))


def table(workdir: Path, game: str, players: int, choices: dict) -> None:
    _django()
    from django.contrib.auth import get_user_model

    from tables.models import Seat
    from tables.services import seat_take, table_create, table_join

    users = [get_user_model().objects.get(username=name) for name in USERS[:players]]
    created = table_create(host=users[0], game=game, choices=choices)
    seats = [Seat.objects.get(table=created, user=users[0])]
    seats += [table_join(code=created.code, invite_token=created.invite_token, user=user) for user in users[1:]]
    for seat in seats:
        seat_take(table_id=created.pk, seat_id=seat.pk)
    print(json.dumps({"code": created.code, "id": created.pk, "seats": [seat.pk for seat in seats]}))


def start(workdir: Path, code: str) -> None:
    """The host starts the table's game (the first hand is dealt)."""
    _django()
    from tables.models import Seat, Table
    from tables.services import table_start

    found = Table.objects.get(code=code)
    table_start(table_id=found.pk, seat_id=Seat.objects.get(table=found, user_id=found.host_id).pk)


def _arm_kill_before_queue(workdir: Path) -> None:
    from tables.services import clock_schedule

    queue = clock_schedule.clock_queue
    trigger = workdir / "kill_before_queue"

    def queue_or_die(**kwargs):
        if trigger.exists():
            trigger.unlink()
            os.kill(os.getpid(), signal.SIGKILL)
        return queue(**kwargs)

    clock_schedule.clock_queue = queue_or_die


def web(port: int, workdir: Path) -> None:
    _django()
    _arm_kill_before_queue(workdir)
    from daphne.cli import CommandLineInterface

    CommandLineInterface().run(["-b", "127.0.0.1", "-p", str(port), "config.asgi:application"])


def worker(workdir: Path) -> None:
    _django()
    import tables.celery_tasks  # noqa: F401  (registers the tasks)
    from config.celery import app

    app.worker_main(
        ["worker", "--pool", "solo", "--without-heartbeat", "--without-mingle", "--without-gossip", "-l", "INFO"]
    )


def check(workdir: Path, code: str) -> None:
    """Print the table's log and whether its invariants hold."""
    _django()
    from django.db import transaction

    from ledger.services import ledger_check_invariant
    from tables.models import Event, Hand, Seat, Table

    with transaction.atomic():  # one consistent reading while the table plays on
        found = Table.objects.select_for_update().get(code=code)
        events = list(Event.objects.filter(table=found).order_by("seq"))
        chips = sum(Seat.objects.filter(table=found).values_list("stack", flat=True))
        try:
            ledger_check_invariant(table=found, chips_at_table=chips)
            chips_error = None
        except Exception as error:
            chips_error = repr(error)
        live = Hand.objects.filter(table=found, ended_at__isnull=True).first()
    print(
        json.dumps(
            {
                "status": found.status,
                "last_seq": found.last_seq,
                "chips_error": chips_error,
                "due_at": found.due_at.timestamp() if found.due_at else None,
                "live_hand": None
                if live is None
                else {
                    "number": live.number,
                    "to_act": live.to_act,
                    "deadline": live.turn_deadline.timestamp() if live.turn_deadline else None,
                },
                "events": [
                    {
                        "seq": event.seq,
                        "kind": event.kind,
                        "at": event.created_at.timestamp(),
                        "client_action_id": event.client_action_id,
                        "actor": event.actor_id,
                        "data": {
                            k: v
                            for k, v in event.payload.items()
                            if k in ("number", "player", "verb", "by", "count", "deadline")
                        },
                    }
                    for event in events
                ],
            }
        )
    )


def main() -> None:
    command, rest = sys.argv[1], sys.argv[2:]
    if command == "prepare":
        prepare(Path(rest[0]))
    elif command == "table":
        table(Path(rest[0]), rest[1], int(rest[2]), json.loads(rest[3]))
    elif command == "start":
        start(Path(rest[0]), rest[1])
    elif command == "web":
        web(int(rest[0]), Path(rest[1]))
    elif command == "worker":
        worker(Path(rest[0]))
    elif command == "check":
        check(Path(rest[0]), rest[1])
    else:
        raise SystemExit(f"unknown command {command}")


if __name__ == "__main__":
    main()
