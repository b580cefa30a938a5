"""Reading the ledger: chip totals, a table's shared costs and its settlement report. Money
only: a home game's standings and seasons are read in ``homegames.selectors_seasons``, from
these reports.

A report is computed from the entries every time (they are the record); nothing here
writes. Players are keyed by seat (``seat_key``), never by display name, so two
players with the same name stay apart and a rename changes nothing.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from decimal import Decimal
from fractions import Fraction
from typing import TYPE_CHECKING

from django.db.models import QuerySet
from django.utils.translation import gettext as _

from ledger.models import LedgerEntry, SharedCost, TransferPaid
from ledger.settlement import PlayerEntry, SettlementError, minimum_transfers, round_largest_remainder, settle
from tables.money import format_chip_value

if TYPE_CHECKING:  # the ledger reads the rows it is given; it imports nothing of tables at run time
    from tables.models import Seat, Table

CENT = Decimal("0.01")


def seat_key(seat_id: int) -> str:
    """The settlement's name for a seat: zero-padded so string order is seat order."""
    return f"{seat_id:012d}"


def cents_to_decimal(cents: int) -> Decimal:
    return (Decimal(cents) / 100).quantize(CENT)


@dataclass(frozen=True)
class ChipTotals:
    bought: int
    cashed_out: int
    paid: Decimal


@dataclass
class PlayerLine:
    """One person's line of a table's report. ``net_money`` is the chips' result in money (the
    game's result, what the standings count); ``net`` is what they are owed (+) or owe (-) once
    the table's shared costs are counted too: ``net_money - cost_share + costs_paid``."""

    seat_id: int
    name: str
    user_id: int | None
    buy_ins: int
    chips_bought: int
    paid: Decimal
    chips_end: int
    net_chips: int
    net_money: Decimal
    # A table shared by places (hold'em): the place and prize the ledger recorded at the
    # end (``None`` before then, and at every other table; a player paid back has no place).
    place: int | None = None
    prize: Decimal | None = None
    cost_share: Decimal = Decimal("0.00")  # their shares of the table's shared costs
    costs_paid: Decimal = Decimal("0.00")  # what they paid for those costs

    @property
    def net(self) -> Decimal:
        return self.net_money - self.cost_share + self.costs_paid


@dataclass
class CostLine:
    """One shared cost of a table as the report reads it: each sharer's share to the cent."""

    cost: SharedCost  # its payer (``cost.paid_by``) read with it
    split: dict[int, int]  # seat id -> cents, adding up to the amount, in seat order
    sharers: list[tuple[str, Decimal]]  # (name, share), in seat order


@dataclass
class TransferLine:
    payer_seat_id: int
    payer_name: str
    payee_seat_id: int
    payee_name: str
    amount: Decimal
    paid: bool = False
    marked_as: str = ""  # who marked it paid: "host", "payer" or "payee" ("" while unpaid)
    marked_by_name: str = ""


@dataclass
class SeatTotals:
    """One seat's entries added up (reversals subtracted), for the report."""

    seat: Seat
    name: str
    buy_ins: int = 0
    bought: int = 0
    paid: Decimal = Decimal("0.00")
    cashed_out: int = 0
    chips_end: int = 0  # cashed out, plus the stack now while the game runs
    prize: Decimal | None = None  # the prize recorded (tables shared by places), not reversed
    place: int | None = None


@dataclass
class TableReport:
    table: Table
    players: list[PlayerLine] = field(default_factory=list)
    transfers: list[TransferLine] = field(default_factory=list)
    chip_value: Fraction = Fraction(0)
    is_final: bool = False  # every chip bought has been cashed out
    error: str = ""  # why balances cannot be shown yet
    by_places: bool = False  # the pool is shared by places (hold'em): results are prize - paid
    payouts: tuple[int, ...] = ()  # the payout table, percent per place, when by places
    costs: list[CostLine] = field(default_factory=list)  # the shared costs, in the order recorded

    @property
    def is_zero_value(self) -> bool:
        return self.chip_value == 0

    @property
    def chip_value_text(self) -> str:
        return format_chip_value(self.chip_value)


def _signed_kind(entry: LedgerEntry) -> tuple[int, str]:
    """How an entry counts: +1 and its own kind, or -1 and the kind of the entry a reversal cancels."""
    if entry.kind == LedgerEntry.Kind.REVERSAL:
        cancelled = entry.reverses
        assert cancelled is not None  # the constraint ledger_entry_reversal_points_at_entry
        return -1, cancelled.kind
    return 1, entry.kind


def ledger_chip_totals(*, table: Table) -> ChipTotals:
    """Chips bought, chips cashed out and money paid at ``table``, reversals subtracted."""
    bought = cashed_out = 0
    paid = Decimal("0.00")
    # Read as plain values (checked at the end of every hand: no model instances needed).
    entries = LedgerEntry.objects.filter(table=table).values_list("kind", "chips", "price", "reverses__kind")
    for kind, chips, price, cancelled_kind in entries:
        sign = 1
        if kind == LedgerEntry.Kind.REVERSAL:
            assert cancelled_kind is not None  # the constraint ledger_entry_reversal_points_at_entry
            sign, kind = -1, cancelled_kind
        if kind == LedgerEntry.Kind.CASH_OUT:
            cashed_out += sign * chips
        elif kind != LedgerEntry.Kind.PRIZE:  # a prize is money won, never money paid in
            bought += sign * chips
            paid += sign * price
    return ChipTotals(bought=bought, cashed_out=cashed_out, paid=paid)


def ledger_entries(*, table: Table) -> QuerySet[LedgerEntry]:
    """Every entry of ``table`` in the order written, for the report's record."""
    return LedgerEntry.objects.filter(table=table).select_related("reverses").order_by("id")


def ledger_corrections(*, tables: list[Table] | QuerySet[Table] | tuple[Table, ...]) -> list[LedgerEntry]:
    """The corrections of ``tables``: each reversal of a buy-in or buy-back, with the host who
    made it (``recorded_by``) and the reason (``note``), in the order made."""
    return list(
        LedgerEntry.objects.filter(
            table__in=[table.pk for table in tables],
            kind=LedgerEntry.Kind.REVERSAL,
            reverses__kind__in=(LedgerEntry.Kind.BUY_IN, LedgerEntry.Kind.BUY_BACK),
        )
        .select_related("reverses", "recorded_by", "table")
        .order_by("table_id", "id")
    )


def ledger_settlement_input(*, table: Table) -> tuple[list[PlayerEntry], dict[int, SeatTotals], bool]:
    """Each seat's totals for :func:`ledger.settlement.settle`, and whether they are final.

    Final when every chip bought has been cashed out: chips at the end are the
    cash-outs. Before that (a game still running), the seats' current stacks count
    as provisional chips at the end.
    """
    per_seat: dict[int, SeatTotals] = {}
    entries = LedgerEntry.objects.filter(table=table).select_related("reverses", "seat").order_by("id")
    for entry in entries:
        line = per_seat.get(entry.seat_id)
        if line is None:
            line = per_seat[entry.seat_id] = SeatTotals(seat=entry.seat, name=entry.seat.display_name)
        sign, kind = _signed_kind(entry)
        if kind == LedgerEntry.Kind.CASH_OUT:
            line.cashed_out += sign * entry.chips
        elif kind == LedgerEntry.Kind.PRIZE:
            if sign > 0:
                line.prize, line.place = entry.price, entry.place
            else:  # a reversed prize is no prize
                line.prize = line.place = None
        else:
            line.buy_ins += sign
            line.bought += sign * entry.chips
            line.paid += sign * entry.price
    bought = sum(line.bought for line in per_seat.values())
    cashed_out = sum(line.cashed_out for line in per_seat.values())
    is_final = bought == cashed_out
    for line in per_seat.values():
        line.chips_end = line.cashed_out + (0 if is_final else line.seat.stack)
    # Prizes, once any is recorded, are every player's result (prize - paid); a player with
    # none then gets 0, and the settlement refuses prizes that do not add up to the pool.
    prizes = any(line.prize is not None for line in per_seat.values())
    entries_out = [
        PlayerEntry(
            name=seat_key(seat_id),
            chips_bought=line.bought,
            paid=int(line.paid * 100),
            chips_end=line.chips_end,
            prize=int((line.prize or 0) * 100) if prizes else None,
        )
        for seat_id, line in sorted(per_seat.items())
    ]
    return entries_out, per_seat, is_final


class UnsoundCostError(ValueError):
    """A shared cost that cannot be split: changed in the database behind the write path."""


def ledger_cost_split(cost: SharedCost) -> dict[int, int]:
    """A cost's cents shared by its sharers' shares: each floored, the cents left one each to
    the largest dropped fractions, ties to the smaller share, then to the seat that joined
    first, the lower id (:func:`ledger.settlement.round_largest_remainder` on seat keys). Adds
    up to the cost exactly. Computed on every read, never stored: the shares are the record."""
    cents = int(cost.amount * 100)
    shares = {int(seat): count for seat, count in cost.shares.items()}
    whole = sum(shares.values())
    exact = {seat_key(seat): Fraction(cents * count, whole) for seat, count in shares.items()}
    return {int(key): value for key, value in sorted(round_largest_remainder(exact, total=cents).items())}


def ledger_cost_unsound(cost: SharedCost, people: set[int]) -> str:
    """Why ``cost`` cannot be what ``ledger.services.ledger_record_cost`` wrote ("" when it
    can): no money, a payer or a sharer not among ``people`` (the ids of the table's people),
    shares that are not whole numbers from 1 to 100. Only a change made to the database behind
    the write path gives such a cost; it is never split (``ledger_check`` names it)."""
    shares = cost.shares
    if cost.amount is None or cost.amount <= 0 or cost.amount != cost.amount.quantize(CENT):
        return "its amount is not money more than zero"
    if cost.paid_by_id not in people:
        return "its payer is not at its table"
    if not isinstance(shares, dict) or not shares:
        return "it is shared among nobody"
    for seat, count in shares.items():
        if not seat.isdigit() or int(seat) not in people:
            return f"its sharer {seat!r} is not at its table"
        if isinstance(count, bool) or not isinstance(count, int) or not 1 <= count <= 100:
            return f"its sharer {seat} has {count!r} shares, not 1 to 100"
    return ""


def ledger_costs(*, table: Table) -> list[CostLine]:
    """The shared costs of ``table`` in the order recorded, each split to the cent. A cost that
    is not sound (:func:`ledger_cost_unsound`) raises :class:`UnsoundCostError`."""
    costs = list(SharedCost.objects.filter(table=table).select_related("paid_by").order_by("id"))
    if not costs:
        return []  # most tables: one query
    names, people = {}, set()
    for pk, name, computer in table.seats.values_list("pk", "display_name", "computer"):
        names[pk] = name
        if not computer:
            people.add(pk)
    lines = []
    for cost in costs:
        if ledger_cost_unsound(cost, people):
            raise UnsoundCostError(cost.pk)
        split = ledger_cost_split(cost)
        lines.append(
            CostLine(
                cost=cost,
                split=split,
                sharers=[(names.get(seat, "?"), cents_to_decimal(cents)) for seat, cents in split.items()],
            )
        )
    return lines


def _add_costs(report: TableReport, seats: dict[int, Seat]) -> dict[int, tuple[int, int]] | None:
    """Each seat's (share of the costs, paid for costs) in cents, the report's costs filled in;
    ``None`` (and the report's error) when a cost is damaged. ``seats`` gains the seats that
    only shared or paid a cost (no entry of theirs)."""
    cents: dict[int, tuple[int, int]] = {}
    try:
        report.costs = ledger_costs(table=report.table)
    except UnsoundCostError:
        # Counted, the damaged cost would create or lose money: no balance is shown until an
        # operator repairs it (``ledger_check`` names it).
        report.error = _("A shared cost here has been damaged, so there is no fair settlement.")
        return None
    for line in report.costs:
        share_paid = [(seat, share, 0) for seat, share in line.split.items()]
        share_paid.append((line.cost.paid_by_id, 0, int(line.cost.amount * 100)))
        for seat, share, paid in share_paid:
            before = cents.get(seat, (0, 0))
            cents[seat] = (before[0] + share, before[1] + paid)
    missing = set(cents) - set(seats)
    if missing:
        seats.update({seat.pk: seat for seat in report.table.seats.filter(pk__in=missing)})
    return cents


def ledger_report(*, table: Table) -> TableReport:
    """The settlement report of ``table``: per player lines (chips' results and, apart, shares
    of the shared costs and what each paid for them) and the fewest transfers that settle every
    net (chips' result - share of costs + paid for costs), costs included."""
    entries, per_seat, is_final = ledger_settlement_input(table=table)
    report = TableReport(table=table, is_final=is_final)
    sharing = table_prize_sharing(table=table)
    report.by_places = sharing is not None
    report.payouts = sharing or ()
    has_prizes = any(entry.prize is not None for entry in entries)
    try:
        result = settle(entries)
    except SettlementError as error:
        result = None
        if error.code == "mixed_chip_values":
            # Only a ledger written before the chip value was fixed can hold this.
            report.error = _("Players bought chips at different values here, so there is no fair settlement.")
        elif error.code in ("prizes_mismatch", "missing_prize"):
            report.error = _("The prizes recorded here do not add up to the pool, so there is no fair settlement.")
        else:
            report.error = _("The chips at the table are in a hand; the balances show when it ends.")
    if report.by_places and not has_prizes and any(entry.chips_bought for entry in entries):
        # By places, chips are worth nothing in money: the prizes are recorded when the game ends.
        result = None
        report.error = report.error or _("The pool is paid by places when the game ends: no one owes anything yet.")
    if result is not None and any(entry.chips_bought for entry in entries):
        report.chip_value = result.chip_value  # the value every player bought at
    elif table.buy_in_chips:
        report.chip_value = Fraction(int(table.buy_in_price * 100), table.buy_in_chips)
    seats = {seat_id: line.seat for seat_id, line in per_seat.items()}
    costs = _add_costs(report, seats)
    if costs is None:
        result, costs = None, {}
    balances: dict[str, int] = {}
    for seat_id, seat in sorted(seats.items()):
        key = seat_key(seat_id)
        line = per_seat.get(seat_id) or SeatTotals(seat=seat, name=seat.display_name)
        money = result.balances.get(key, 0) if result is not None else 0
        share, paid_costs = costs.get(seat_id, (0, 0))
        balances[key] = money - share + paid_costs
        report.players.append(
            PlayerLine(
                seat_id=seat_id,
                name=line.name,
                user_id=seat.user_id,
                buy_ins=line.buy_ins,
                chips_bought=line.bought,
                paid=line.paid,
                chips_end=line.chips_end,
                net_chips=line.chips_end - line.bought,
                net_money=cents_to_decimal(money),
                place=line.place,
                prize=line.prize,
                cost_share=cents_to_decimal(share),
                costs_paid=cents_to_decimal(paid_costs),
            )
        )
    if result is not None:
        names = {line.seat_id: line.name for line in report.players}
        marks = TransferPaid.objects.filter(table=table)
        paid_marks = {(mark.payer_seat_id, mark.payee_seat_id): mark for mark in marks}
        transfers = minimum_transfers(balances) if report.costs else list(result.transfers)
        for transfer in transfers:
            payer, payee = int(transfer.payer), int(transfer.payee)
            amount = cents_to_decimal(transfer.amount)
            mark = paid_marks.get((payer, payee))
            # A mark counts only while the transfer it was made for is unchanged.
            paid = mark is not None and mark.amount == amount
            report.transfers.append(
                TransferLine(
                    payer_seat_id=payer,
                    payer_name=names[payer],
                    payee_seat_id=payee,
                    payee_name=names[payee],
                    amount=amount,
                    paid=paid,
                    marked_as=mark.marked_as if mark is not None and paid else "",
                    marked_by_name=mark.marked_by_name if mark is not None and paid else "",
                )
            )
    return report


def table_prize_sharing(*, table: Table) -> tuple[int, ...] | None:
    """The payout table (percent per place, first place first) of a table whose pool is
    shared by places (hold'em, ``tables.services.table_settings``); ``None`` when chips are the
    result, as at every Teen Patti table. Read from the settings the table stores."""
    settings = table.settings or {}
    if settings.get("prizes") != "places":
        return None
    return tuple(int(percent) for percent in settings.get("payouts") or ())
