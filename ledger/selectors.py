"""Reading the ledger: chip totals, a table's settlement report. Money only: a home game's
standings and seasons are read in ``homegames.selectors_seasons``, from these reports.

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

from ledger.models import LedgerEntry, TransferPaid
from ledger.settlement import PlayerEntry, SettlementError, settle
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


def ledger_report(*, table: Table) -> TableReport:
    """The settlement report of ``table``: per player lines and the fewest transfers."""
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
    for seat_id, line in sorted(per_seat.items()):
        key = seat_key(seat_id)
        money = Decimal("0.00")
        if result is not None:
            money = cents_to_decimal(result.balances[key])
        report.players.append(
            PlayerLine(
                seat_id=seat_id,
                name=line.name,
                user_id=line.seat.user_id,
                buy_ins=line.buy_ins,
                chips_bought=line.bought,
                paid=line.paid,
                chips_end=line.chips_end,
                net_chips=line.chips_end - line.bought,
                net_money=money,
                place=line.place,
                prize=line.prize,
            )
        )
    if result is not None:
        marks = TransferPaid.objects.filter(table=table)
        paid_marks = {(mark.payer_seat_id, mark.payee_seat_id): mark for mark in marks}
        for transfer in result.transfers:
            payer, payee = int(transfer.payer), int(transfer.payee)
            amount = cents_to_decimal(transfer.amount)
            mark = paid_marks.get((payer, payee))
            # A mark counts only while the transfer it was made for is unchanged.
            paid = mark is not None and mark.amount == amount
            report.transfers.append(
                TransferLine(
                    payer_seat_id=payer,
                    payer_name=per_seat[payer].name,
                    payee_seat_id=payee,
                    payee_name=per_seat[payee].name,
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
