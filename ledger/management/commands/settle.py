"""``python manage.py settle FILE``: settle a game from a JSON file, as shared/spec/settle.md says.

FILE may be ``-`` for standard input. The answer is JSON on standard output; any bad
input prints ``{"ok": false, "error": "..."}`` and exits with status 2. The command
reads no database and writes nothing.
"""

from __future__ import annotations

import json
import sys
from typing import Any, NoReturn

from django.core.management.base import BaseCommand, CommandParser

from ledger.settlement import SettlementError, settle_document


def _refuse_constant(name: str) -> NoReturn:
    # json accepts NaN and Infinity by default; they are not JSON numbers.
    raise ValueError(f"{name} is not allowed in JSON")


class Command(BaseCommand):
    help = "Settle a game from a JSON file (or - for standard input): balances and the fewest transfers."
    requires_system_checks: list[str] = []
    requires_migrations_checks = False

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("file", nargs="?", help="the game's JSON file, or - to read standard input")

    def handle(self, *args: Any, **options: Any) -> None:
        try:
            text = self._read(options["file"])
            try:
                document = json.loads(text, parse_constant=_refuse_constant)
            except ValueError as error:
                raise SettlementError("bad_json", f"The input is not valid JSON: {error}") from error
            answer = settle_document(document)
        except SettlementError as error:
            self._print({"ok": False, "error": error.message})
            sys.exit(2)
        self._print(answer)

    def _read(self, path: str | None) -> str:
        if path is None:
            raise SettlementError("no_file", "Name the game's JSON file, or - to read standard input.")
        try:
            if path == "-":
                return sys.stdin.read()
            with open(path, encoding="utf-8") as handle:
                return handle.read()
        except (OSError, UnicodeDecodeError) as error:
            raise SettlementError("unreadable", f"Cannot read {path}: {error}") from error

    def _print(self, document: dict[str, object]) -> None:
        self.stdout.write(json.dumps(document, indent=2, ensure_ascii=False))
