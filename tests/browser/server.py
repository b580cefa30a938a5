"""The real site for the browser tests: daphne (HTTP + WebSockets through Channels) on a test database.

Run as a subprocess by ``tests/browser/conftest.py``::

    python -m tests.browser.server PORT WORKDIR

It migrates a fresh SQLite file under WORKDIR, creates the test users with a logged-in
session each (their session keys go to WORKDIR/sessions.json, so a browser context can
start signed in without depending on the login page), makes new tables' secret seeds
fixed (so every deal is the same on every run), then serves until killed.
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

#: Users the browser tests sign in as (username -> display name).
TEST_USERS = {"hostuser": "Asha", "bikash": "Bikash", "chandra": "Chandra", "deepa": "Deepa"}
#: The seed every table gets in the browser tests (32 bytes), so deals repeat exactly.
FIXED_SEED = bytes(range(32))


def _prepare_environment(workdir: Path) -> None:
    os.environ["DATABASE_URL"] = f"sqlite:///{workdir / 'browser.sqlite3'}"
    os.environ["DEBUG"] = "1"
    os.environ["SECURE_SSL_REDIRECT"] = "0"
    os.environ.pop("REDIS_URL", None)
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")


def _create_users_and_sessions(workdir: Path) -> None:
    from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY, get_user_model
    from django.contrib.sessions.backends.db import SessionStore

    user_model = get_user_model()
    sessions = {}
    for username, display_name in TEST_USERS.items():
        user = user_model.objects.create_user(
            username=username, password="browser-test-pass", display_name=display_name
        )
        session = SessionStore()
        session[SESSION_KEY] = str(user.pk)
        session[BACKEND_SESSION_KEY] = "django.contrib.auth.backends.ModelBackend"
        session[HASH_SESSION_KEY] = user.get_session_auth_hash()
        session.create()
        sessions[username] = session.session_key
    (workdir / "sessions.json").write_text(json.dumps(sessions))


def _fix_table_seeds() -> None:
    """Every new table gets FIXED_SEED as its secret seed (the services draw it from ``secrets``)."""
    from django.db.models.signals import pre_save

    from tables.models import Table

    def fixed_seed(sender, instance, **kwargs):
        if instance.pk is None:
            instance.secret_seed = FIXED_SEED
            import hashlib

            instance.seed_commitment = hashlib.sha256(FIXED_SEED).hexdigest()

    pre_save.connect(fixed_seed, sender=Table, weak=False)


def _control_next_hand_delay(workdir: Path) -> None:
    """The pause before the next deal is read from WORKDIR/next_hand_delay (seconds) at each hand's end.

    By default the next hand waits an hour, so a finished hand's result stays on the pages
    for the test to read; a test that plays on writes a shorter pause first.
    """
    from tables.services import hands

    delay_file = workdir / "next_hand_delay"
    delay_file.write_text("3600")
    hands.next_hand_delay = lambda: float(delay_file.read_text().strip() or "3600")


def _control_table_codes(workdir: Path) -> None:
    """A new table takes the code the test wrote to WORKDIR/next_table_code (used once).

    Each hand's deck is derived from the table's secret seed *and its code*, so a fixed
    seed alone would still deal differently under the random codes; with both fixed, every
    test deals the same cards whatever runs before it. Without a code asked for, codes are
    numbered (TEST001, ...).
    """
    import itertools

    from tables.services import tables

    code_file = workdir / "next_table_code"
    numbers = itertools.count(1)

    def next_code() -> str:
        if code_file.exists():
            code = code_file.read_text().strip()
            code_file.unlink()
            if code:
                return code
        return f"TEST{next(numbers):03d}"

    tables._new_code = next_code


def main() -> None:
    port, workdir = int(sys.argv[1]), Path(sys.argv[2])
    _prepare_environment(workdir)
    import django

    django.setup()
    from django.core.management import call_command

    _control_next_hand_delay(workdir)
    _control_table_codes(workdir)
    call_command("migrate", verbosity=0, interactive=False)
    _create_users_and_sessions(workdir)
    _fix_table_seeds()
    call_command("runserver", f"127.0.0.1:{port}", use_reloader=False, use_threading=True, skip_checks=True)


if __name__ == "__main__":
    main()
