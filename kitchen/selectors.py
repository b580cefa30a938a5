"""Reading a kitchen-table night: the bank, the costs and the settle-up (docs/kitchen-table.md)."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from decimal import Decimal
from typing import Any

from homegames.models import Night
from homegames.selectors_seasons import night_settled_by_season
from kitchen.models import KitchenNight
from ledger.models import LedgerEntry
from ledger.selectors import CostLine, ledger_chip_totals, ledger_report
from tables.models import Event, Seat, Table


def kitchen_night(*, table: Table) -> KitchenNight | None:
    return KitchenNight.objects.filter(table=table).first()


@dataclass
class BankLine:
    seat: Seat
    buy_ins: int = 0
    bought: int = 0
    paid: Decimal = Decimal("0.00")
    cashed_out: int = 0
    holding: bool = False


@dataclass
class Bank:
    lines: list[BankLine]
    bought: int
    cashed_out: int
    paid: Decimal

    @property
    def difference(self) -> int:
        """Chips bought and not (yet) handed back."""
        return self.bought - self.cashed_out

    @property
    def everyone_counted(self) -> bool:
        return not any(line.holding for line in self.lines)

    @property
    def balanced(self) -> bool:
        return self.difference == 0


def kitchen_bank(*, table: Table) -> Bank:
    """Each person's buy-ins, chips bought, money paid and chips handed back, and the totals."""
    lines = {
        seat.pk: BankLine(seat=seat, holding=seat.number is not None)
        for seat in Seat.objects.filter(table=table, computer="").order_by("pk")
    }
    for entry in LedgerEntry.objects.filter(table=table).select_related("reverses").order_by("id"):
        kind, sign = entry.kind, 1
        if kind == LedgerEntry.Kind.REVERSAL and entry.reverses is not None:
            kind, sign = entry.reverses.kind, -1
        line = lines.get(entry.seat_id)
        if line is None:
            continue
        if kind == LedgerEntry.Kind.CASH_OUT:
            line.cashed_out += sign * entry.chips
        elif kind in (LedgerEntry.Kind.BUY_IN, LedgerEntry.Kind.BUY_BACK):
            line.buy_ins += sign
            line.bought += sign * entry.chips
            line.paid += sign * entry.price
    totals = ledger_chip_totals(table=table)
    return Bank(lines=list(lines.values()), bought=totals.bought, cashed_out=totals.cashed_out, paid=totals.paid)


@dataclass
class SettleLine:
    seat_id: int
    name: str
    chips_money: Decimal  # the chips' result: cashed out - bought, in money (the ledger's report)
    cost_share: Decimal  # their share of the costs
    costs_paid: Decimal  # what they paid for the costs
    net: Decimal


@dataclass
class SettleUp:
    lines: list[SettleLine] = field(default_factory=list)
    transfers: list[tuple[str, str, Decimal]] = field(default_factory=list)
    costs: list[CostLine] = field(default_factory=list)
    final: bool = False
    error: str = ""
    # The home game night when the night is paid with its season (its transfers, costs
    # included, are the season's: none here), and that season's number.
    season_night: Night | None = None
    season_number: int | None = None


def kitchen_settle_up(*, table: Table) -> SettleUp:
    """Each person's net = cashed out - bought in, in money, - their share of the costs + what
    they paid for them, and the fewest transfers that settle those nets: the ledger's report of
    the table (``ledger.selectors.ledger_report``, which counts the shared costs and splits
    each to the cent), shown once the night is settled, unless the night is paid with its home
    game's season, whose settle-up counts these nets: then none, so the money is settled once."""
    report = ledger_report(table=table)
    result = SettleUp(final=report.is_final and table.status == Table.Status.ENDED, error=str(report.error or ""))
    result.season_night = night_settled_by_season(table=table)
    if result.season_night is not None:
        season = result.season_night.season
        result.season_number = season.number if season else result.season_night.home_game.seasons.count() + 1
    result.costs = report.costs
    for line in report.players:
        result.lines.append(
            SettleLine(
                seat_id=line.seat_id,
                name=line.name,
                chips_money=line.net_money,
                cost_share=line.cost_share,
                costs_paid=line.costs_paid,
                net=line.net,
            )
        )
    if result.final and not result.error and result.season_night is None:
        result.transfers = [(t.payer_name, t.payee_name, t.amount) for t in report.transfers]
    return result


#: The kinds of the table's log the night's record shows (its bank, costs, clock and who went out).
RECORD_KINDS = (
    "seat_taken",
    "seat_bought_back",
    "seat_left",
    "kitchen_recount",
    "kitchen_spread",
    "kitchen_cost",
    "kitchen_clock",
    "kitchen_level",
    "kitchen_out",
    "kitchen_addon",
    "game_ended",
)


@dataclass
class RecordLine:
    at: datetime
    kind: str
    data: dict[str, Any]


def night_record(*, table: Table) -> list[RecordLine]:
    """The night as its event log has it, oldest first: buy-ins and re-buys, cash-outs,
    recounts and spreads, costs, the clock's actions, the levels as played, who went out,
    the end. Each line's ``data`` is the event's payload with the player's ``name``."""
    names = dict(Seat.objects.filter(table=table).values_list("pk", "display_name"))
    lines = []
    for event in Event.objects.filter(table=table, kind__in=RECORD_KINDS, visible_to__isnull=True).order_by("seq"):
        data = dict(event.payload)
        if "seat" in data and "name" not in data:
            data["name"] = names.get(data["seat"], "")
        at = event.created_at
        if event.kind == "kitchen_level":
            at = datetime.fromisoformat(data["at"])
        lines.append(RecordLine(at=at, kind=event.kind, data=data))
    return lines
