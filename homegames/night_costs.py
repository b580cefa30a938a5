"""Money a night carries beside its chips: the costs its people shared (pizza, drinks, the
room), each paid by one of them and split among some of them, which count in the season's
netting (docs/kitchen-table.md, "Into the season").

The home game keeps no such costs itself: the app that does (``kitchen``, whose
``SharedCost`` rows are money outside the chips and no ledger entry) sits above the home game
and is never imported by it (docs/architecture.md, "The apps depend one way"). So the home
game publishes the signal :data:`night_costs_wanted`; an app connects a receiver to it in its
``AppConfig.ready`` and answers, for the tables asked about, a list of :class:`NightCost`.
:func:`night_costs` is the one way the season reads them: it checks that each cost's shares
add up to its amount to the cent, so no answer can create or lose money.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from django.dispatch import Signal

if TYPE_CHECKING:
    from tables.models import Table


@dataclass(frozen=True)
class NightCost:
    """One shared cost of a night, in cents: who paid it (a seat of the night's table) and
    each sharer's share (seat id, cents), the shares adding up to the amount."""

    table_id: int
    what: str
    amount: int
    paid_by: int
    shares: tuple[tuple[int, int], ...]


#: Sent with ``tables=[Table, ...]`` (the nights asked about); each receiver returns a list of
#: :class:`NightCost` of those tables (an empty list for none).
night_costs_wanted = Signal()


class NightCostError(ValueError):
    """A receiver answered something that is not a cost of the nights asked about, or a cost
    whose shares do not add up to its amount: a bug of that app, never shown as money."""


def night_costs(*, tables: list[Table]) -> dict[int, list[NightCost]]:
    """The shared costs of ``tables`` as the apps that keep costs answer, by table id, each
    table's costs in the order their app gave them."""
    found: dict[int, list[NightCost]] = {}
    if not tables:
        return found
    asked = {table.pk for table in tables}
    for receiver, answer in night_costs_wanted.send(sender=NightCost, tables=tables):
        if not isinstance(answer, list):
            raise NightCostError(f"{receiver!r} answered {type(answer).__name__}, not a list of costs.")
        for cost in answer:
            if not isinstance(cost, NightCost) or cost.table_id not in asked:
                raise NightCostError(f"{receiver!r} answered {cost!r}, not a cost of the nights asked about.")
            if cost.amount <= 0 or any(cents < 0 for _seat, cents in cost.shares):
                raise NightCostError(f"{receiver!r} answered a cost of no money or a negative share: {cost!r}.")
            if sum(cents for _seat, cents in cost.shares) != cost.amount:
                raise NightCostError(f"{receiver!r} answered a cost whose shares do not add up: {cost!r}.")
            found.setdefault(cost.table_id, []).append(cost)
    return found
