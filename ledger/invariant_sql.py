"""The chip invariant's two counts read in one statement, its SQL built once.

At the end of every hand ``ledger.services.ledger_check_invariant`` compares the chips at a
table with the chips bought less the chips cashed out, counted two ways: from the entries
(the record, a reversal subtracting what it cancels) and from the table's running totals
(``TableLedger``). Through the ORM that was two queries compiled again at every hand's end,
the largest part of a hand-ending action's CPU (docs/measurements/live-play.md, issue 13). Here one
SELECT reads both counts; its SQL is built once per database from the models' metadata.
PostgreSQL and SQLite; on any other database the two ORM queries it stands for run instead.
``tests/ledger/test_invariant_sql.py`` compares the two ways on every database the suite
runs on.
"""

from __future__ import annotations

import threading
from typing import TYPE_CHECKING

from django.db import DEFAULT_DB_ALIAS, connections, router
from django.db.backends.base.base import BaseDatabaseWrapper

from ledger.models import LedgerEntry, TableLedger
from ledger.selectors import ledger_chip_totals

if TYPE_CHECKING:  # the ledger reads the rows it is given; it imports nothing of tables at run time
    from tables.models import Table

SUPPORTED_VENDORS = frozenset({"postgresql", "sqlite"})

_built: dict[tuple[str, str], str] = {}
_built_lock = threading.Lock()


def ledger_chips_held(*, table: Table) -> tuple[int, int | None]:
    """The chips ``table`` holds as (the entries count them: bought less cashed out, each
    reversal subtracting what it cancels; the running totals count them: ``chips_bought -
    chips_cashed_out``, or ``None`` when the table has no totals yet)."""
    connection = connections[router.db_for_read(LedgerEntry) or DEFAULT_DB_ALIAS]
    if connection.vendor not in SUPPORTED_VENDORS:
        totals = ledger_chip_totals(table=table)
        summary = TableLedger.objects.filter(table=table).values_list("chips_bought", "chips_cashed_out").first()
        return totals.bought - totals.cashed_out, summary[0] - summary[1] if summary else None
    key = (connection.alias, connection.vendor)
    sql = _built.get(key)
    if sql is None:
        sql = _chips_held_sql(connection)
        with _built_lock:
            _built[key] = sql
    reversal, cash_out = LedgerEntry.Kind.REVERSAL.value, LedgerEntry.Kind.CASH_OUT.value
    with connection.cursor() as cursor:
        cursor.execute(sql, [reversal, reversal, cash_out, table.pk, table.pk])
        by_entries, by_totals = cursor.fetchone()
    return int(by_entries), None if by_totals is None else int(by_totals)


def _chips_held_sql(connection: BaseDatabaseWrapper) -> str:
    quote = connection.ops.quote_name
    entry, totals = LedgerEntry._meta, TableLedger._meta

    def column(meta: object, name: str) -> str:
        return quote(meta.get_field(name).column)  # type: ignore[attr-defined]

    kind, chips, reverses = column(entry, "kind"), column(entry, "chips"), column(entry, "reverses")
    entry_table, pk = column(entry, "table"), quote(entry.pk.column)
    # Each entry counts +chips (bought) or -chips (cashed out); a reversal counts the
    # opposite of the entry it cancels (ledger.selectors.ledger_chip_totals, in SQL).
    sign = f"CASE WHEN e.{kind} = %s THEN -1 ELSE 1 END"
    counted_kind = f"CASE WHEN e.{kind} = %s THEN cancelled.{kind} ELSE e.{kind} END"
    direction = f"CASE WHEN ({counted_kind}) = %s THEN -1 ELSE 1 END"
    by_entries = f"COALESCE(SUM(({sign}) * ({direction}) * e.{chips}), 0)"
    by_totals = (
        f"(SELECT t.{column(totals, 'chips_bought')} - t.{column(totals, 'chips_cashed_out')} "  # noqa: S608
        f"FROM {quote(totals.db_table)} t WHERE t.{column(totals, 'table')} = %s)"
    )
    # Names from the models' metadata, quoted; every value is a parameter (so: noqa S608).
    return (
        f"SELECT {by_entries}, {by_totals} FROM {quote(entry.db_table)} e "  # noqa: S608
        f"LEFT OUTER JOIN {quote(entry.db_table)} cancelled ON cancelled.{pk} = e.{reverses} "
        f"WHERE e.{entry_table} = %s"
    )
