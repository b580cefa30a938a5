"""The audit of a whole database (``python manage.py ledger_check``): read-only. Every
night's money is settled exactly once (issue 36), here, and every table's chips balance
(``ledger.checks``). Each problem found is one ``ledger.checks.Problem``, a stable ``code`` and
a sentence naming the home game, the season and the table, for an operator to act on:

``settled_twice``
    A night paid with a season (a closed season settled once a season, or the open season of a
    home game that settles so) whose table also has a transfer marked paid on its own: the same
    money collected in two settle-ups.
``settled_nowhere``
    A night in a closed season that is not settled (its game has not ended, its chips are not
    all cashed out, or its report shows no balances): what it was or will be played for is in
    no settle-up, since the season froze it before.
``season_moved``
    A closed season settled once a season whose frozen transfers (with what was paid during the
    season) no longer settle the nets of its nights exactly (a night's result changed after the close).
``chips_unbalanced``
    A table whose chips do not balance (``ledger.checks.tables_problems``).
``cost_unsound``
    A shared cost its write path could not have written (``ledger.checks.costs_problems``).
``cost_not_logged``
    A table whose shared costs (the ledger's lines) differ from the costs its event log
    recorded as they were written (``kitchen_cost``: what, amount, payer, shares), in order:
    a cost added, removed or changed in the database behind the write path.
"""

from __future__ import annotations

from decimal import Decimal

from homegames.models import HomeGame, Night, Season
from homegames.selectors_seasons import NightResult, season_closed
from ledger.checks import Problem, costs_problems, tables_problems
from ledger.models import SharedCost, TransferPaid
from ledger.selectors import ledger_report
from tables.events import EventKind
from tables.models import Event, Table


def _night_name(night: Night, table: Table) -> str:
    return f"night {night.pk} (table {table.code}) of home game {night.home_game_id} ({night.home_game.name})"


def _paid_with_season(night: Night) -> bool:
    settle_by = night.season.settle_by if night.season else night.home_game.settle_by
    return settle_by == HomeGame.SettleBy.SEASON


def nights_problems() -> list[Problem]:
    """Nights settled twice, or frozen into a closed season before they were settled."""
    problems = []
    marked = set(TransferPaid.objects.values_list("table_id", flat=True))
    nights = Night.objects.played().select_related("table", "home_game", "season").order_by("pk")
    for night in nights:
        table = night.table
        assert table is not None  # played()
        if _paid_with_season(night) and night.table_id in marked:
            where = f"season {night.season.number}" if night.season else "the open season"
            problems.append(
                Problem(
                    "settled_twice",
                    f"{_night_name(night, table)} is paid with {where} and has transfers marked paid on its own too.",
                )
            )
        if night.season is not None:
            result = NightResult(night=night, table=table, report=ledger_report(table=table))
            if not result.is_settled:
                problems.append(
                    Problem(
                        "settled_nowhere",
                        f"{_night_name(night, table)} is in closed season {night.season.number} but is not settled "
                        "(its game has not ended or its chips are not all cashed out): its money is in no settle-up.",
                    )
                )
    return problems


def seasons_problems() -> list[Problem]:
    """Closed seasons settled once a season whose frozen transfers no longer settle their nets."""
    problems = []
    seasons = Season.objects.filter(settle_by=HomeGame.SettleBy.SEASON).select_related("home_game")
    for season in seasons.order_by("home_game_id", "number"):
        view = season_closed(season=season)
        left = {person.key: person.net_money for person in view.people}
        # What was paid during the season and the frozen transfers together settle its nets.
        paid = [(line.payer_key, line.payee_key, line.amount) for line in view.payments]
        for payer_key, payee_key, amount in paid + [(t.payer_key, t.payee_key, t.amount) for t in view.transfers]:
            left[payer_key] = left.get(payer_key, Decimal(0)) + amount
            left[payee_key] = left.get(payee_key, Decimal(0)) - amount
        moved = sorted(key for key, amount in left.items() if amount)
        if moved:
            problems.append(
                Problem(
                    "season_moved",
                    f"season {season.number} of home game {season.home_game_id} ({season.home_game.name}): its nets "
                    f"moved since it closed; its frozen transfers leave {', '.join(moved)} unsettled.",
                )
            )
    return problems


def costs_logged_problems() -> list[Problem]:
    """Tables whose shared costs are not the ones their event log recorded, in the same order."""
    problems = []
    in_ledger: dict[int, list[tuple[str, str, int, object]]] = {}
    for cost in SharedCost.objects.order_by("table_id", "pk"):
        in_ledger.setdefault(cost.table_id, []).append((cost.what, str(cost.amount), cost.paid_by_id, cost.shares))
    logged: dict[int, list[tuple[str, str, int, object]]] = {}
    events = Event.objects.filter(kind=EventKind.KITCHEN_COST).order_by("table_id", "seq")
    for table_id, payload in events.values_list("table_id", "payload"):
        logged.setdefault(table_id, []).append(
            (payload.get("what"), payload.get("amount"), payload.get("paid_by"), payload.get("shares"))
        )
    for table_id in sorted(set(in_ledger) | set(logged)):
        costs, records = in_ledger.get(table_id, []), logged.get(table_id, [])
        if costs != records:
            differ = next((i for i, pair in enumerate(zip(costs, records, strict=False)) if pair[0] != pair[1]), None)
            where = f"its cost {differ + 1}" if differ is not None else "the number of its costs"
            problems.append(
                Problem(
                    "cost_not_logged",
                    f"table id {table_id}: its ledger holds {len(costs)} shared costs and its log recorded "
                    f"{len(records)}; {where} differs from what was recorded.",
                )
            )
    return problems


def ledger_problems() -> list[Problem]:
    """Everything the audit finds in the database, nights first."""
    return [*nights_problems(), *seasons_problems(), *tables_problems(), *costs_problems(), *costs_logged_problems()]
