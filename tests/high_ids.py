"""Test databases number their rows from a million up, each table from its own million.

Django writes an integer in a template with the viewer's grouping (``USE_THOUSAND_SEPARATOR``):
``{{ seat.pk }}`` is "2,056" in English, "2.056" in German and "2,05,61,234" in Hindi. A
fresh test database numbers its rows from 1, so a template that puts such a number in a
form's value, an element's id or a data attribute without ``|unlocalize`` passed every test
and broke on a site with a thousand seats. Started high, every such number has groups in
every test. Each table starts at its own million, so an id of one table taken for another's
(a seat's for a table's) finds no row instead of the wrong one.

Called once a database is made: pytest-django's test databases (``tests/conftest.py``), the
browser tests' site (``tests/browser/server.py``) and the fault tests' (``tests/tables/fault_site.py``).
Django's flush between transactional tests empties the tables and leaves the counters; a
test marked ``django_db(reset_sequences=True)`` sets them back to 1, and ``tests/conftest.py``
raises them again after it.
"""

from __future__ import annotations

from django.db import connections
from django.db.backends.base.base import BaseDatabaseWrapper

STEP = 1_000_000


def start_ids_high(connection: BaseDatabaseWrapper) -> int:
    """Raise every table's next id to a million times its place (never lower it); the number
    of counters seen."""
    with connection.cursor() as cursor:
        if connection.vendor == "postgresql":
            cursor.execute("SELECT schemaname, sequencename, last_value FROM pg_sequences ORDER BY 1, 2")
            sequences = cursor.fetchall()
            for place, (schema, name, last) in enumerate(sequences, start=1):
                if last is None or last < place * STEP:  # never lowered: a restarted site keeps its rows
                    cursor.execute("SELECT setval(%s::regclass, %s, false)", [f'"{schema}"."{name}"', place * STEP])
            return len(sequences)
        if connection.vendor == "sqlite":
            cursor.execute(
                "SELECT name FROM sqlite_master WHERE type = 'table' AND sql LIKE '%AUTOINCREMENT%' ORDER BY name"
            )
            tables = [name for (name,) in cursor.fetchall()]
            for place, table in enumerate(tables, start=1):
                cursor.execute("SELECT MAX(seq) FROM sqlite_sequence WHERE name = %s", [table])
                (last,) = cursor.fetchone()
                if last is None or last < place * STEP - 1:
                    cursor.execute("DELETE FROM sqlite_sequence WHERE name = %s", [table])
                    cursor.execute("INSERT INTO sqlite_sequence (name, seq) VALUES (%s, %s)", [table, place * STEP - 1])
            return len(tables)
    raise NotImplementedError(f"no counters to set on {connection.vendor}")


def start_all_ids_high() -> None:
    """:func:`start_ids_high` on every database the settings name."""
    for connection in connections.all():
        start_ids_high(connection)
