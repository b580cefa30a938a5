"""Database triggers that keep ledger entries append-only, below the ORM.

UPDATE is refused on every database. DELETE is refused on PostgreSQL only: there the
test runner empties tables with TRUNCATE, which row triggers do not see, while SQLite's
test runner empties tables with DELETE.
"""

from django.db import migrations

SQLITE_FORWARD = [
    """
    CREATE TRIGGER ledger_entry_no_update BEFORE UPDATE ON ledger_ledgerentry
    BEGIN SELECT RAISE(ABORT, 'ledger entries are append-only: record a reversal'); END;
    """,
]
SQLITE_BACKWARD = ["DROP TRIGGER IF EXISTS ledger_entry_no_update;"]

POSTGRES_FORWARD = [
    """
    CREATE OR REPLACE FUNCTION ledger_entry_refuse_change() RETURNS trigger AS $$
    BEGIN
        RAISE EXCEPTION 'ledger entries are append-only: record a reversal';
    END;
    $$ LANGUAGE plpgsql;
    """,
    """
    CREATE TRIGGER ledger_entry_no_update BEFORE UPDATE OR DELETE ON ledger_ledgerentry
    FOR EACH ROW EXECUTE FUNCTION ledger_entry_refuse_change();
    """,
]
POSTGRES_BACKWARD = [
    "DROP TRIGGER IF EXISTS ledger_entry_no_update ON ledger_ledgerentry;",
    "DROP FUNCTION IF EXISTS ledger_entry_refuse_change();",
]


def _run(statements_by_vendor):
    def run(apps, schema_editor):
        for statement in statements_by_vendor.get(schema_editor.connection.vendor, []):
            schema_editor.execute(statement)

    return run


class Migration(migrations.Migration):
    dependencies = [
        ("ledger", "0001_initial"),
    ]

    operations = [
        migrations.RunPython(
            _run({"sqlite": SQLITE_FORWARD, "postgresql": POSTGRES_FORWARD}),
            _run({"sqlite": SQLITE_BACKWARD, "postgresql": POSTGRES_BACKWARD}),
        ),
    ]
