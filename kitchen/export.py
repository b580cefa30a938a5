"""The night's CSVs (docs/kitchen-table.md, "The CSVs"): the settle-up with the costs apart,
and a tournament's levels as played, who went out and the prizes. Each row holds what the
night's page shows, from the same selectors, so the page and its CSV agree to the cent."""

from __future__ import annotations

import csv
from dataclasses import dataclass
from decimal import Decimal

from django.http import HttpResponse
from django.utils.text import slugify
from django.utils.translation import gettext as _

from accounts.names import name_visible
from kitchen.models import Elimination
from kitchen.selectors import kitchen_settle_up, night_record
from ledger.selectors import ledger_report
from tables.models import Seat, Table, table_currency

Row = list[object]
FORMULA_START = ("=", "+", "-", "@", "\t", "\r")


def _cell(value: object) -> object:
    """A name a spreadsheet would run as a formula starts with a quote (CSV injection),
    judged as the spreadsheet sees it (NFKC, no invisible characters, no leading spaces)."""
    if isinstance(value, str) and (
        value[:1] in FORMULA_START or name_visible(value).lstrip(" \u00a0")[:1] in FORMULA_START
    ):
        return "'" + value
    return value


def csv_response(filename: str, rows: list[Row]) -> HttpResponse:
    response = HttpResponse(content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    writer = csv.writer(response)
    for row in rows:
        writer.writerow([_cell(cell) for cell in row])
    return response


def night_rows(table: Table) -> list[Row]:
    """The settle-up once settled (each person's chips result, share of the costs, paid for
    costs and net), then each cost with each sharer's share, then who pays whom."""
    currency = table_currency(table)
    settle = kitchen_settle_up(table=table)
    rows: list[Row] = []
    if table.status == Table.Status.ENDED:
        rows.append([_("Player"), _("Chips"), _("Share of costs"), _("Paid for costs"), _("Net"), _("Currency")])
        for line in settle.lines:
            rows.append([line.name, line.chips_money, line.cost_share, line.costs_paid, line.net, currency])
        rows.append([])
    rows.append([_("Cost"), _("Amount"), _("Paid by"), _("Shared by"), _("Share"), _("Currency")])
    for cost_line in settle.costs:
        cost = cost_line.cost
        for name, share in cost_line.sharers:
            rows.append([cost.what, cost.amount, cost.paid_by.display_name, name, share, currency])
    if settle.transfers:
        rows.append([])
        rows.append([_("From"), _("To"), _("Amount"), _("Currency")])
        for payer, payee, amount in settle.transfers:
            rows.append([payer, payee, amount, currency])
    return rows


@dataclass
class PlaceLine:
    place: int
    name: str
    prize: Decimal | None  # None until the prizes are recorded
    paid: Decimal | None
    net: Decimal | None


def tournament_places(table: Table) -> list[PlaceLine]:
    """Each player out (and the winner) by place, with their prize, what they paid and their
    net once the ledger has the prizes (the page's "Places and prizes" and the CSV)."""
    prizes = {line.seat_id: line for line in ledger_report(table=table).players if line.prize is not None}
    names = dict(Seat.objects.filter(table=table).values_list("pk", "display_name"))
    places = []
    for elimination in Elimination.objects.filter(clock__night__table=table).order_by("place", "pk"):
        line = prizes.get(elimination.seat_id)
        places.append(
            PlaceLine(
                place=elimination.place,
                name=names.get(elimination.seat_id, ""),
                prize=None if line is None else line.prize,
                paid=None if line is None else line.paid,
                net=None if line is None else line.net_money,
            )
        )
    return places


def tournament_rows(table: Table) -> list[Row]:
    """The levels as played (the log's ``kitchen_level``: when each began), then each player
    out with their place, and, once the prizes are recorded, each one's prize, paid and net."""
    rows: list[Row] = [[_("Level"), _("Began"), _("Small blind"), _("Big blind"), _("Ante"), _("Minutes")]]
    for line in night_record(table=table):
        if line.kind != "kitchen_level":
            continue
        data = line.data
        began = line.at.isoformat(timespec="seconds")
        if data["brk"]:
            rows.append([data["level"], began, _("Break"), "", "", data["minutes"]])
        else:
            rows.append([data["level"], began, data["small"], data["big"], data["ante"], data["minutes"]])
    rows.append([])
    currency = table_currency(table)
    rows.append([_("Place"), _("Player"), _("Prize"), _("Bought for"), _("Net"), _("Currency")])
    for place in tournament_places(table):
        money: Row = ["", "", ""] if place.prize is None else [place.prize, place.paid, place.net]
        rows.append([place.place, place.name, *money, currency])
    return rows


def filename(table: Table, what: str) -> str:
    return f"dashain-{slugify(table.code)}-{what}.csv"
