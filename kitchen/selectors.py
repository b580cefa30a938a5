"""Reading a kitchen-table night: the bank, the costs and the settle-up (docs/kitchen-table.md)."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from decimal import Decimal
from fractions import Fraction
from typing import Any

from homegames.models import HomeGameNight
from homegames.night_costs import NightCost
from homegames.selectors_seasons import night_settled_by_season
from kitchen.models import KitchenNight, SharedCost
from ledger.models import LedgerEntry
from ledger.selectors import cents_to_decimal, ledger_chip_totals, ledger_report, seat_key
from ledger.settlement import minimum_transfers, round_largest_remainder
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


def cost_split(cost: SharedCost) -> dict[int, int]:
    """A cost's cents shared by its sharers' shares: each floored, the cents left one each to
    the largest dropped fractions, ties to the smaller share, then to the seat that joined
    first (``ledger.settlement.round_largest_remainder``). Adds up to the cost exactly."""
    cents = int(cost.amount * 100)
    shares = {int(seat): count for seat, count in cost.shares.items()}
    whole = sum(shares.values())
    exact = {seat_key(seat): Fraction(cents * count, whole) for seat, count in shares.items()}
    return {int(key): value for key, value in round_largest_remainder(exact, total=cents).items()}


@dataclass
class CostLine:
    cost: SharedCost
    sharers: list[tuple[str, Decimal]]


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
    season_night: HomeGameNight | None = None
    season_number: int | None = None


def kitchen_costs(*, table: Table) -> list[CostLine]:
    names = {seat.pk: seat.display_name for seat in Seat.objects.filter(table=table)}
    lines = []
    for cost in SharedCost.objects.filter(night__table=table).select_related("paid_by").order_by("id"):
        split = cost_split(cost)
        lines.append(
            CostLine(
                cost=cost, sharers=[(names.get(seat, "?"), cents_to_decimal(cents)) for seat, cents in split.items()]
            )
        )
    return lines


def kitchen_settle_up(*, table: Table) -> SettleUp:
    """Each person's net = cashed out - bought in (the ledger's report, in money) - their share
    of the costs + what they paid for them; and the fewest transfers that settle those nets,
    unless the night is paid with its home game's season, whose settle-up counts these nets
    (``homegames.night_costs``): then none, so the money is settled once."""
    report = ledger_report(table=table)
    result = SettleUp(final=report.is_final and table.status == Table.Status.ENDED, error=str(report.error or ""))
    result.season_night = night_settled_by_season(table=table)
    if result.season_night is not None:
        season = result.season_night.season
        result.season_number = season.number if season else result.season_night.home_game.seasons.count() + 1
    result.costs = kitchen_costs(table=table)
    share: dict[int, int] = {}
    paid: dict[int, int] = {}
    for line in result.costs:
        cost = line.cost
        for seat, cents in cost_split(cost).items():
            share[seat] = share.get(seat, 0) + cents
        paid[cost.paid_by_id] = paid.get(cost.paid_by_id, 0) + int(cost.amount * 100)
    chips = {line.seat_id: (line.name, int(line.net_money * 100)) for line in report.players}
    names = {seat.pk: seat.display_name for seat in Seat.objects.filter(table=table)}
    balances: dict[str, int] = {}
    for seat_id in sorted(set(chips) | set(share) | set(paid)):
        name, money = chips.get(seat_id, (names.get(seat_id, "?"), 0))
        net = money - share.get(seat_id, 0) + paid.get(seat_id, 0)
        balances[seat_key(seat_id)] = net
        result.lines.append(
            SettleLine(
                seat_id=seat_id,
                name=name,
                chips_money=cents_to_decimal(money),
                cost_share=cents_to_decimal(share.get(seat_id, 0)),
                costs_paid=cents_to_decimal(paid.get(seat_id, 0)),
                net=cents_to_decimal(net),
            )
        )
    if result.final and not result.error and result.season_night is None:
        for transfer in minimum_transfers(balances):
            result.transfers.append(
                (names[int(transfer.payer)], names[int(transfer.payee)], cents_to_decimal(transfer.amount))
            )
    return result


def season_costs(sender: object, *, tables: list[Table], **kwargs: object) -> list[NightCost]:
    """The shared costs of ``tables`` for their home game's season: the receiver of
    ``homegames.night_costs.night_costs_wanted`` (connected in ``kitchen.apps``), each cost
    split to the cent as the night's settle-up splits it (:func:`cost_split`)."""
    costs = SharedCost.objects.filter(night__table__in=tables).select_related("night").order_by("id")
    return [
        NightCost(
            table_id=cost.night.table_id,
            what=cost.what,
            amount=int(cost.amount * 100),
            paid_by=cost.paid_by_id,
            shares=tuple(cost_split(cost).items()),
        )
        for cost in costs
    ]


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
