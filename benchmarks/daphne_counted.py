"""daphne, counting every SQL statement the server runs and the row locks among them.

For ``benchmarks/live_load.py``: ``python -m benchmarks.daphne_counted COUNTS_FILE <daphne
arguments>``. Each database connection the server opens gets an execute wrapper (Django's
``connection.execute_wrapper``) that adds to two counters; on ``SIGUSR1`` the counters are
written to ``COUNTS_FILE`` as JSON (``{"queries": n, "locks": n}``), so the load generator
can take the difference over its measuring window. A lock is a statement with
``FOR UPDATE`` (``select_for_update``). Nothing else about the server changes.
"""

from __future__ import annotations

import json
import signal
import sys
import threading
from pathlib import Path
from typing import Any

_counts = {"queries": 0, "locks": 0}
_lock = threading.Lock()


def _count(execute: Any, sql: str, params: Any, many: bool, context: Any) -> Any:
    with _lock:
        _counts["queries"] += 1
        if "FOR UPDATE" in sql.upper():
            _counts["locks"] += 1
    return execute(sql, params, many, context)


def _on_connection(sender: Any, connection: Any, **kwargs: Any) -> None:
    if _count not in connection.execute_wrappers:
        connection.execute_wrappers.append(_count)


def main() -> None:
    counts_file = Path(sys.argv[1])
    from django.db.backends.signals import connection_created

    connection_created.connect(_on_connection, weak=False)

    def dump(signum: int, frame: Any) -> None:
        with _lock:
            text = json.dumps(_counts)
        counts_file.write_text(text)

    signal.signal(signal.SIGUSR1, dump)
    from daphne.cli import CommandLineInterface

    CommandLineInterface().run(sys.argv[2:])


if __name__ == "__main__":
    main()
