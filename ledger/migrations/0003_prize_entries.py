"""Prizes (hold'em shared by places, docs/ledger.md): a ``prize`` kind and the place it names.

SQLite changes a table's constraints by building the table again, which drops its triggers:
the last operation puts the append-only trigger of 0002 back there, and the first does the
same when the migration is reversed (PostgreSQL alters the table in place and keeps it).
"""

from django.conf import settings
from django.db import migrations, models

SQLITE_TRIGGER = [
    "DROP TRIGGER IF EXISTS ledger_entry_no_update;",
    """
    CREATE TRIGGER ledger_entry_no_update BEFORE UPDATE ON ledger_ledgerentry
    BEGIN SELECT RAISE(ABORT, 'ledger entries are append-only: record a reversal'); END;
    """,
]


def sqlite_trigger_again(apps, schema_editor):
    if schema_editor.connection.vendor == "sqlite":
        for statement in SQLITE_TRIGGER:
            schema_editor.execute(statement)


class Migration(migrations.Migration):
    dependencies = [
        ("ledger", "0002_append_only_triggers"),
        ("tables", "0008_event_requests_index"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        # Undone last when the migration is reversed: the trigger back after that rebuild too.
        migrations.RunPython(migrations.RunPython.noop, sqlite_trigger_again),
        migrations.RemoveConstraint(
            model_name="ledgerentry",
            name="ledger_entry_kind_known",
        ),
        migrations.AddField(
            model_name="ledgerentry",
            name="place",
            field=models.PositiveSmallIntegerField(blank=True, null=True, verbose_name="place"),
        ),
        migrations.AlterField(
            model_name="ledgerentry",
            name="kind",
            field=models.CharField(
                choices=[
                    ("buy_in", "Buy-in"),
                    ("buy_back", "Buy-back"),
                    ("cash_out", "Chips at the end"),
                    ("reversal", "Reversal"),
                    ("prize", "Prize"),
                ],
                max_length=10,
                verbose_name="kind",
            ),
        ),
        migrations.AddConstraint(
            model_name="ledgerentry",
            constraint=models.CheckConstraint(
                condition=models.Q(("kind__in", ["buy_in", "buy_back", "cash_out", "reversal", "prize"])),
                name="ledger_entry_kind_known",
            ),
        ),
        migrations.AddConstraint(
            model_name="ledgerentry",
            constraint=models.CheckConstraint(
                condition=models.Q(models.Q(("kind", "prize"), _negated=True), ("chips", 0), _connector="OR"),
                name="ledger_entry_prize_is_money",
            ),
        ),
        migrations.AddConstraint(
            model_name="ledgerentry",
            constraint=models.CheckConstraint(
                condition=models.Q(
                    ("place__isnull", True), models.Q(("kind", "prize"), ("place__gte", 1)), _connector="OR"
                ),
                name="ledger_entry_place_only_on_prize",
            ),
        ),
        migrations.RunPython(sqlite_trigger_again, migrations.RunPython.noop),
    ]
