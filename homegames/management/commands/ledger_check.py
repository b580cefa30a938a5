"""``python manage.py ledger_check``: audit the ledger of the whole database, writing nothing.

Reports every night settled twice or nowhere, every closed season whose nets moved since it
froze its transfers, and every table whose chips do not balance (:mod:`homegames.checks`), one
line each (``code: sentence``), then a count. Exits with status 0 when it finds nothing and 1
when it finds something, so a deployment or CI step can stop on it.
"""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError
from django.db import connection, transaction

from homegames.checks import ledger_problems


class Command(BaseCommand):
    help = "Check that every night's money is settled exactly once and every table's chips balance (read-only)."

    def handle(self, *args: Any, **options: Any) -> None:
        outermost = transaction.get_autocommit()  # not inside a caller's transaction (a test's)
        with transaction.atomic():
            if connection.vendor == "postgresql" and outermost:
                # One read-only snapshot: every figure compared is as of the same moment (a hand
                # ending meanwhile cannot look like chips lost), and nothing can be written.
                with connection.cursor() as cursor:
                    cursor.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ READ ONLY")
            problems = ledger_problems()
            transaction.set_rollback(True)
        for problem in problems:
            self.stdout.write(f"{problem.code}: {problem.message}")
        if problems:
            raise CommandError(f"ledger_check found {len(problems)} problem(s).", returncode=1)
        self.stdout.write("ledger_check: every night is settled once and every table's chips balance.")
