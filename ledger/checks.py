"""The ledger's half of the audit of a whole database (``python manage.py ledger_check``,
``homegames.checks``): read-only. Every table's chips balance. Each problem found is one
:class:`Problem`, a stable ``code`` and a sentence naming the table, for an operator to act
on; the nights' and seasons' codes are ``homegames.checks``':

``chips_unbalanced``
    A table whose running totals differ from its entries, whose seats hold (between hands) other
    than the chips bought less the chips cashed out, an ended table still holding chips, or a
    table whose prizes do not add up to its pool.
``cost_unsound``
    A shared cost the write path could not have written (``ledger.services.ledger_record_cost``):
    no money, a payer or a sharer not at its table, shares that are not whole numbers from 1 to
    100. It cannot be split to the cent, so its table's report shows no balance until repaired.

It writes nothing and reads only through the ledger's selectors and models (the tables' rows by
their relations: the ledger imports nothing of ``tables``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, cast

from django.db.models import Sum

from ledger.models import LedgerEntry, SharedCost, TableLedger
from ledger.selectors import ledger_chip_totals, ledger_cost_unsound, ledger_settlement_input

if TYPE_CHECKING:
    from tables.models import Table


@dataclass(frozen=True)
class Problem:
    code: str
    message: str


def tables_problems() -> list[Problem]:
    """Tables whose chips do not balance (or whose prizes do not add up to the pool)."""
    problems = []
    # The tables' model by the ledger's own relation (the ledger imports nothing of tables).
    table_model = cast("type[Table]", TableLedger._meta.get_field("table").related_model)
    with_entries = LedgerEntry.objects.values("table_id")
    for table in table_model.objects.filter(pk__in=with_entries).order_by("pk"):
        totals = ledger_chip_totals(table=table)
        held = totals.bought - totals.cashed_out
        reasons = []
        row = TableLedger.objects.filter(table=table).first()
        if row is None or (row.chips_bought, row.chips_cashed_out, row.money_paid) != (
            totals.bought,
            totals.cashed_out,
            totals.paid,
        ):
            reasons.append("its running totals differ from its entries")
        stacks = table.seats.aggregate(total=Sum("stack"))["total"] or 0
        live_hand = table.hands.filter(ended_at__isnull=True).exists()
        if held < 0:
            reasons.append(f"{-held} more chips were cashed out than bought")
        elif table.ended_at is not None and (held or stacks):
            reasons.append(f"its game ended with {held} chips not cashed out and {stacks} on its seats")
        elif not live_hand and stacks != held:
            reasons.append(f"its seats hold {stacks} chips but {held} were bought and not cashed out")
        players, _per_seat, _is_final = ledger_settlement_input(table=table)
        prizes = [player.prize for player in players if player.prize is not None]
        if prizes and sum(prizes) != sum(player.paid for player in players):
            reasons.append("its prizes do not add up to its pool")
        if reasons:
            problems.append(Problem("chips_unbalanced", f"table {table.code} (id {table.pk}): {'; '.join(reasons)}."))
    return problems


def costs_problems() -> list[Problem]:
    """Shared costs that the write path could not have written (``cost_unsound``)."""
    problems = []
    for cost in SharedCost.objects.select_related("table").order_by("table_id", "pk"):
        table = cost.table
        people = set(table.seats.filter(computer="").values_list("pk", flat=True))
        why = ledger_cost_unsound(cost, people)
        if why:
            where = f"shared cost {cost.pk} ({cost.what}) of table {table.code} (id {table.pk})"
            problems.append(Problem("cost_unsound", f"{where}: {why}."))
    return problems
