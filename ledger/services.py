"""Writing to the ledger: buy-ins, buy-backs, cash-outs, reversals, shared costs, the invariant, transfers marked paid.

The interface live play calls (``tables`` services), all keyword-only, each inside the
caller's transaction with the table row already locked (``select_for_update``):

``ledger_record_buy_in(*, table, seat, chips, price, is_buy_back, by=None, note="") -> LedgerEntry``
    When a player buys a stack: the first one (``is_buy_back=False``) or another one
    (``True``). The caller adds ``chips`` to the seat's stack in the same transaction.
    ``price`` is what the stack costs (the table's ``buy_in_price``); every stack at a
    table is bought at the chip value (price over chips) of its first one.

``ledger_record_cash_out(*, table, seat, chips, by=None, note="") -> LedgerEntry``
    When a player leaves the table, and for everyone still seated when the game ends:
    the chips they take away (may be 0). The caller takes them off the seat's stack.

``ledger_reverse(*, entry, by, note="") -> LedgerEntry``
    Cancels a mistaken entry with a reversing one (never an edit). The caller puts the
    seat's stack back as it was (a reversed buy-in takes its chips away again).

``ledger_correct_buy_in(*, table, entry, reason, by) -> LedgerEntry``
    The host's correction of a mistaken buy-in or buy-back at an ended table: the entry is
    reversed and its chips taken off what the seat cashed out, so chips stay equal to chips
    bought (and no one's money result moves). See ``docs/ledger.md``.

``ledger_record_prizes(*, table, places, payouts, by=None) -> list[LedgerEntry]``
    At the end of a hold'em game shared by places: every player's prize, one entry each
    (0 for no prize), the buy-ins' pool split by the payout table (``docs/ledger.md``).

``ledger_record_cost(*, table, paid_by, amount, what, shares, by=None) -> SharedCost``
    A cost the table's people shared (the pizza of a kitchen-table night): money outside the
    chips, a ledger line of its own. The caller appends the event to the table's log.

``ledger_check_invariant(*, table, chips_at_table) -> None``
    At the end of every hand: ``chips_at_table`` (every seat's stack, nothing left in a
    pot) must equal chips bought minus chips cashed out; raises :class:`InvariantError`.

Every refusal raises :class:`LedgerError` (``code`` stable, ``message`` translated) and
writes nothing. The ledger never changes ``tables`` rows; the dependency runs one way.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from decimal import Decimal, InvalidOperation
from fractions import Fraction
from typing import TYPE_CHECKING

from django.db import IntegrityError, transaction
from django.db.models import F
from django.utils.crypto import constant_time_compare
from django.utils.encoding import force_str
from django.utils.translation import gettext_lazy as _

from ledger.invariant_sql import ledger_chips_held
from ledger.models import LedgerEntry, SharedCost, TableLedger, TransferPaid
from ledger.selectors import cents_to_decimal, ledger_report, seat_key
from ledger.settlement import SettlementError, split_prizes

if TYPE_CHECKING:  # the ledger writes only its own rows; it imports nothing of tables at run time
    from django_stubs_ext import StrPromise

    from accounts.models import User
    from tables.models import Seat, Table


class LedgerError(ValueError):
    """A ledger write that cannot be made. ``code`` is stable; ``message`` is for people."""

    def __init__(self, code: str, message: str | StrPromise) -> None:
        super().__init__(force_str(message))
        self.code = code
        self.message = message


class InvariantError(LedgerError):
    """Chips at the table differ from chips bought minus chips cashed out: some were created or lost."""

    def __init__(self, *, table_id: int, expected: int, found: int) -> None:
        super().__init__(
            "chips_invariant",
            _("Table %(table)s holds %(found)d chips but %(expected)d were bought and not cashed out.")
            % {"table": table_id, "found": found, "expected": expected},
        )
        self.table_id = table_id
        self.expected = expected
        self.found = found


def _check_seat(table: Table, seat: Seat) -> None:
    if seat.table_id != table.pk:
        raise LedgerError("wrong_table", _("That seat is not at this table."))


def _check_chips(chips: object, *, allow_zero: bool) -> int:
    if isinstance(chips, bool) or not isinstance(chips, int):
        raise LedgerError("bad_chips", _("Chips must be a whole number."))
    if chips < 0 or (chips == 0 and not allow_zero):
        raise LedgerError(
            "bad_chips", _("Chips must be more than zero.") if not allow_zero else _("Chips cannot be negative.")
        )
    return chips


def _check_price(price: object) -> Decimal:
    if isinstance(price, float | bool):
        raise LedgerError("bad_price", _("A price must be a Decimal, never a float."))
    if not isinstance(price, Decimal | int | str):
        raise LedgerError("bad_price", _("That is not a price."))
    try:
        value = Decimal(price)
    except (InvalidOperation, TypeError, ValueError) as error:
        raise LedgerError("bad_price", _("That is not a price.")) from error
    if not value.is_finite() or value < 0 or value != value.quantize(Decimal("0.01")):
        raise LedgerError("bad_price", _("A price is zero or more, in whole cents."))
    return value.quantize(Decimal("0.01"))


def _check_chip_value(table: Table, *, chips: int, price: Decimal) -> None:
    """Every stack at a table is bought at the value of its first one (price over chips):
    a player's result is then exactly chips x value - paid (``docs/ledger.md``)."""
    first = (
        LedgerEntry.objects.filter(table=table, kind__in=[LedgerEntry.Kind.BUY_IN, LedgerEntry.Kind.BUY_BACK])
        .order_by("id")
        .only("chips", "price")
        .first()
    )
    if first is not None and Fraction(price) / chips != Fraction(first.price) / first.chips:
        raise LedgerError(
            "chip_value_changed",
            _("This table's chips were first bought at %(price)s for %(chips)s; every stack is bought at that value.")
            % {"price": first.price, "chips": first.chips},
        )


def _totals(table: Table) -> TableLedger:
    """The table's running totals, locked for this transaction."""
    TableLedger.objects.get_or_create(table=table)
    return TableLedger.objects.select_for_update().get(table=table)


def _apply_to_totals(table: Table, *, bought: int = 0, cashed_out: int = 0, paid: Decimal = Decimal(0)) -> None:
    _totals(table)
    try:
        with transaction.atomic():
            TableLedger.objects.filter(table=table).update(
                chips_bought=F("chips_bought") + bought,
                chips_cashed_out=F("chips_cashed_out") + cashed_out,
                money_paid=F("money_paid") + paid,
            )
    except IntegrityError as error:
        raise LedgerError("chips_created", _("More chips would leave the table than were ever bought.")) from error


def _write_entry(
    *, table: Table, seat: Seat, kind: str, chips: int, price: Decimal, by: User | None, note: str
) -> LedgerEntry:
    """A new buy-in, buy-back or cash-out row, the seat's name kept as it is now."""
    return LedgerEntry.objects.create(
        table=table,
        seat=seat,
        player_name=seat.display_name[:40],
        kind=kind,
        chips=chips,
        price=price,
        recorded_by=by,
        note=note[:200],
    )


@transaction.atomic
def ledger_record_buy_in(
    *, table: Table, seat: Seat, chips: int, price: Decimal, is_buy_back: bool, by: User | None = None, note: str = ""
) -> LedgerEntry:
    """Record a stack bought by ``seat``: the first buy-in or a buy-back. See the module docstring."""
    _check_seat(table, seat)
    chips = _check_chips(chips, allow_zero=False)
    price = _check_price(price)
    _check_chip_value(table, chips=chips, price=price)
    _apply_to_totals(table, bought=chips, paid=price)
    kind = LedgerEntry.Kind.BUY_BACK if is_buy_back else LedgerEntry.Kind.BUY_IN
    return _write_entry(table=table, seat=seat, kind=kind, chips=chips, price=price, by=by, note=note)


@transaction.atomic
def ledger_record_cash_out(
    *, table: Table, seat: Seat, chips: int, by: User | None = None, note: str = ""
) -> LedgerEntry:
    """Record the chips ``seat`` takes away (leaving, or at the game's end). See the module docstring."""
    _check_seat(table, seat)
    chips = _check_chips(chips, allow_zero=True)
    _apply_to_totals(table, cashed_out=chips)
    return _write_entry(
        table=table, seat=seat, kind=LedgerEntry.Kind.CASH_OUT, chips=chips, price=Decimal("0.00"), by=by, note=note
    )


@transaction.atomic
def ledger_reverse(*, entry: LedgerEntry, by: User, note: str = "") -> LedgerEntry:
    """Cancel ``entry`` with a reversing entry. A reversal cannot itself be reversed, nor an entry twice."""
    entry = LedgerEntry.objects.select_for_update().get(pk=entry.pk)
    if entry.kind == LedgerEntry.Kind.REVERSAL:
        raise LedgerError("reverse_reversal", _("A reversal cannot be reversed; record the entry again instead."))
    if LedgerEntry.objects.filter(reverses=entry).exists():
        raise LedgerError("already_reversed", _("That entry has already been reversed."))
    if entry.kind == LedgerEntry.Kind.CASH_OUT:
        _apply_to_totals(entry.table, cashed_out=-entry.chips)
    elif entry.kind == LedgerEntry.Kind.PRIZE:
        pass  # a prize moves no chips and was never part of the money paid in
    else:
        _apply_to_totals(entry.table, bought=-entry.chips, paid=-entry.price)
    try:
        with transaction.atomic():
            return LedgerEntry.objects.create(
                table_id=entry.table_id,
                seat_id=entry.seat_id,
                player_name=entry.player_name,
                kind=LedgerEntry.Kind.REVERSAL,
                chips=entry.chips,
                price=entry.price,
                reverses=entry,
                recorded_by=by,
                note=note[:200],
            )
    except IntegrityError as error:  # a concurrent reversal won the unique pointer
        raise LedgerError("already_reversed", _("That entry has already been reversed.")) from error


CORRECTION_REASON_MAX = 200


@transaction.atomic
def ledger_correct_buy_in(*, table: Table, entry: LedgerEntry, reason: str, by: User) -> LedgerEntry:
    """The host reverses a mistaken buy-in or buy-back of ``table`` (ended) with a reason.

    The stack it bought is taken back too: the seat's chips cashed out are reversed and
    recorded again less the entry's chips, all with the reason, so the table's chips stay
    equal to the chips bought. Refused, writing nothing: someone other than the host
    (``not_host``), a table still being played (``still_playing``), an entry of another
    table (``wrong_table``), an entry that is not a buy-in or buy-back (``not_a_buy_in``), one
    already reversed (``already_reversed``), no reason (``no_reason``), a seat that cashed out
    fewer chips than the entry bought (``chips_played``: those chips went to others, and
    taking them back would leave the table's chips different from the chips bought), a table
    whose prizes are recorded (``prizes_recorded``). A night of a closed season is refused
    above the ledger (``homegames.services_seasons.night_correct_buy_in``). Returns the
    reversing entry (its note is the reason, its ``recorded_by`` the host)."""
    if table.host_id != by.pk:
        raise LedgerError("not_host", _("Only the table's host can correct its buy-ins."))
    reason = " ".join(str(reason or "").split())
    if not reason:
        raise LedgerError("no_reason", _("Say why the entry was a mistake."))
    if len(reason) > CORRECTION_REASON_MAX:
        raise LedgerError("reason_too_long", _("Keep the reason under 200 characters."))
    _totals(table)  # the table's totals row, locked: one correction at a time
    entry = LedgerEntry.objects.select_for_update(of=("self",)).select_related("seat").get(pk=entry.pk)
    if entry.table_id != table.pk:
        raise LedgerError("wrong_table", _("That entry is not at this table."))
    if table.ended_at is None:
        raise LedgerError("still_playing", _("Correct the buy-ins once the game has ended."))
    if entry.kind not in (LedgerEntry.Kind.BUY_IN, LedgerEntry.Kind.BUY_BACK):
        raise LedgerError("not_a_buy_in", _("Only a buy-in or a buy-back can be corrected here."))
    if LedgerEntry.objects.filter(reverses=entry).exists():
        raise LedgerError("already_reversed", _("That entry has already been reversed."))
    if LedgerEntry.objects.filter(table=table, kind=LedgerEntry.Kind.PRIZE).exists():
        raise LedgerError("prizes_recorded", _("This game's prizes are recorded; its buy-ins can no longer change."))
    cash_outs = list(
        LedgerEntry.objects.select_for_update(of=("self",))
        .filter(table=table, seat_id=entry.seat_id, kind=LedgerEntry.Kind.CASH_OUT, reversed_by__isnull=True)
        .order_by("id")
    )
    cashed = sum(cash_out.chips for cash_out in cash_outs)
    if cashed < entry.chips:
        raise LedgerError(
            "chips_played",
            _(
                "%(name)s ended with %(cashed)s chips, fewer than the %(chips)s this entry bought: those chips "
                "were played, and taking them back would leave the table's chips different from the chips bought."
            )
            % {"name": entry.player_name, "cashed": cashed, "chips": entry.chips},
        )
    # The cash-outs first, so the totals never show more chips cashed out than bought.
    for cash_out in cash_outs:
        ledger_reverse(entry=cash_out, by=by, note=reason)
    reversal = ledger_reverse(entry=entry, by=by, note=reason)
    ledger_record_cash_out(table=table, seat=entry.seat, chips=cashed - entry.chips, by=by, note=reason)
    return reversal


@transaction.atomic
def ledger_record_prizes(
    *, table: Table, places: Mapping[int, int], payouts: Sequence[int], by: User | None = None
) -> list[LedgerEntry]:
    """Record every player's prize at a table whose pool is shared by places (hold'em).

    ``places`` maps the seat id of each player placed (book 001) to their place, 1 first,
    players level sharing one; ``payouts`` is the host's payout table (whole percents, 100 in
    all). The pool is every placed player's buy-in; it is split by
    :func:`ledger.settlement.split_prizes`, to the cent. A player who bought in but was never
    dealt a hand (the game ended before it began, or they left before the first deal) is not
    placed: their prize is what they paid, with no place. If fewer players are placed than the
    table pays places (the start refuses that, so only an oddity of old data could), the
    places nobody reached add their percent to first place. One entry per player, 0 for no
    prize; the prizes add up to the money paid. Refused (``prizes_recorded``) once recorded.
    """
    _totals(table)  # the table's totals row, locked: one writer of the prizes at a time
    live_prizes = LedgerEntry.objects.filter(table=table, kind=LedgerEntry.Kind.PRIZE, reversed_by__isnull=True)
    if live_prizes.exists():
        raise LedgerError("prizes_recorded", _("The prizes of this game have already been recorded."))
    paid: dict[int, Decimal] = {}
    seats: dict[int, Seat] = {}
    for entry in LedgerEntry.objects.filter(table=table).select_related("reverses", "seat").order_by("id"):
        if entry.kind == LedgerEntry.Kind.REVERSAL:
            assert entry.reverses is not None  # the constraint ledger_entry_reversal_points_at_entry
            if entry.reverses.kind in (LedgerEntry.Kind.BUY_IN, LedgerEntry.Kind.BUY_BACK):
                paid[entry.seat_id] = paid.get(entry.seat_id, Decimal(0)) - entry.price
        elif entry.kind in (LedgerEntry.Kind.BUY_IN, LedgerEntry.Kind.BUY_BACK):
            paid[entry.seat_id] = paid.get(entry.seat_id, Decimal(0)) + entry.price
            seats[entry.seat_id] = entry.seat
    unknown = set(places) - set(seats)
    if unknown:
        raise LedgerError("wrong_table", _("That seat is not at this table."))
    # Keyed as the settlement names seats (zero-padded ids), so the largest-remainder rule
    # breaks a tie by the lowest seat id, the first to join: "10" would sort before "8".
    placed = {seat_key(seat_id): place for seat_id, place in places.items()}
    pool = sum(int(paid[seat_id] * 100) for seat_id in places)
    table_pays = list(payouts)
    if 0 < len(placed) < len(table_pays):
        table_pays = [table_pays[0] + sum(table_pays[len(placed) :]), *table_pays[1 : len(placed)]]
    try:
        cents = split_prizes(pool=pool, payouts=table_pays, places=placed) if placed else {}
    except SettlementError as error:
        raise LedgerError(error.code, error.message) from error
    written = []
    for seat_id, seat in sorted(seats.items()):
        if seat_id in places:
            prize, place = cents_to_decimal(cents[seat_key(seat_id)]), places[seat_id]
        else:
            prize, place = paid[seat_id].quantize(Decimal("0.01")), None
        written.append(
            LedgerEntry.objects.create(
                table=table,
                seat=seat,
                player_name=seat.display_name[:40],
                kind=LedgerEntry.Kind.PRIZE,
                chips=0,
                price=prize,
                place=place,
                recorded_by=by,
            )
        )
    return written


COST_WHAT_MAX = 60
COST_AMOUNT_MAX = Decimal("1000000")
COST_SHARES_MAX = 100


def _check_cost_amount(amount: object) -> Decimal:
    """Money in whole cents, more than zero (never a float)."""
    bad = LedgerError("bad_amount", _("Give the amount in money, such as 12.50."))
    if isinstance(amount, float | bool) or not isinstance(amount, Decimal | int | str):
        raise bad
    try:
        value = Decimal(str(amount).strip())
    except (InvalidOperation, ValueError):
        raise bad from None
    if not value.is_finite() or value != value.quantize(Decimal("0.01")) or value > COST_AMOUNT_MAX:
        raise bad
    if value <= 0:
        raise LedgerError("bad_amount", _("A cost is more than zero."))
    return value.quantize(Decimal("0.01"))


def _check_cost_shares(shares: object, people: set[int]) -> dict[str, int]:
    """``{seat id: whole shares}`` of people at the table, 1 to 100 shares each, as stored."""
    if not isinstance(shares, Mapping) or not shares:
        raise LedgerError("no_sharers", _("Choose who shares this cost."))
    clean: dict[str, int] = {}
    for seat, count in shares.items():
        if (
            isinstance(seat, bool)
            or not isinstance(seat, int)
            or seat not in people
            or isinstance(count, bool)
            or not isinstance(count, int)
            or not 1 <= count <= COST_SHARES_MAX
        ):
            raise LedgerError("bad_shares", _("Each sharer is at this table and has 1 to 100 shares."))
        clean[str(seat)] = count
    return clean


@transaction.atomic
def ledger_record_cost(
    *, table: Table, paid_by: object, amount: object, what: object, shares: object, by: User | None = None
) -> SharedCost:
    """Record a cost ``table``'s people shared: ``what`` it was for, its ``amount`` (money in
    whole cents), who paid it (``paid_by``: a seat id) and who shares it (``shares``: seat id ->
    whole shares, 1 to 100 each; an even split gives each 1). Payer and sharers are people at
    the table (its seats, no computer player). Each share to the cent is computed when read
    (``ledger.selectors.ledger_cost_split``). Refused, writing nothing: an amount of zero or
    less, not in cents or not money (``bad_amount``), no name (``no_what``), shared among nobody
    (``no_sharers``), a share outside 1 to 100 or a sharer not at the table (``bad_shares``), a
    payer not at the table (``bad_payer``), a table whose game has ended (``ended``: its
    settlement is final). The table's totals row is locked first, as for every entry."""
    value = _check_cost_amount(amount)
    label = what.strip()[:COST_WHAT_MAX] if isinstance(what, str) else ""
    if not label:
        raise LedgerError("no_what", _("Say what the cost was for."))
    _totals(table)  # the table's totals row, locked: the ledger's writes of a table one at a time
    if table.ended_at is not None:
        raise LedgerError("ended", _("This game is over."))
    people = set(table.seats.filter(computer="").values_list("pk", flat=True))
    clean = _check_cost_shares(shares, people)
    if isinstance(paid_by, bool) or not isinstance(paid_by, int) or paid_by not in people:
        raise LedgerError("bad_payer", _("Choose who paid, from the people at this table."))
    return SharedCost.objects.create(
        table=table, what=label, amount=value, paid_by_id=paid_by, shares=clean, recorded_by=by
    )


def ledger_net_results(*, table: Table) -> dict[int, Decimal] | None:
    """Each seat's money result at ``table`` as the report gives it (``ledger_report``, the one
    place a table's money is read), or ``None`` when it has none to give (chips in a hand,
    prizes not yet recorded). For the game's end to show what each player won."""
    report = ledger_report(table=table)
    if report.error:
        return None
    return {line.seat_id: line.net_money for line in report.players}


def ledger_check_invariant(*, table: Table, chips_at_table: int) -> None:
    """Raise :class:`InvariantError` unless ``chips_at_table`` == chips bought - chips cashed out.

    Counted from the entries themselves (the record), and compared with the running totals too
    (one row per table at most; none before any buy-in): both read in one statement.
    """
    expected, by_totals = ledger_chips_held(table=table)
    if chips_at_table != expected:
        raise InvariantError(table_id=table.pk, expected=expected, found=chips_at_table)
    summary_at_table = by_totals if by_totals is not None else 0
    if summary_at_table != expected:
        raise InvariantError(table_id=table.pk, expected=expected, found=summary_at_table)


# --- Transfers marked paid --------------------------------------------------------------


def _mark_of(table: Table, payer_seat: Seat, payee_seat: Seat) -> TransferPaid | None:
    marks = TransferPaid.objects.select_for_update().filter(table=table, payer_seat=payer_seat, payee_seat=payee_seat)
    return marks.first()


def _is_behind(seat: Seat, by: User | None, guest_token: str) -> bool:
    """Whether ``seat`` is the asker's: their account's seat, or a guest's seat whose token is
    the one in the asker's browser."""
    if by is not None and seat.user_id is not None and seat.user_id == by.pk:
        return True
    return bool(guest_token and seat.guest_token and constant_time_compare(seat.guest_token, guest_token))


def transfer_marker(*, table: Table, payer_seat: Seat, payee_seat: Seat, by: User | None, guest_token: str = "") -> str:
    """As whom the asker may mark this transfer paid: ``"payer"`` or ``"payee"`` (the person
    behind that seat), ``"host"`` (the table's host, any transfer), or ``""`` (no one's mark)."""
    if payer_seat.table_id != table.pk or payee_seat.table_id != table.pk:
        return ""
    if _is_behind(payer_seat, by, guest_token):
        return TransferPaid.MarkedAs.PAYER
    if _is_behind(payee_seat, by, guest_token):
        return TransferPaid.MarkedAs.PAYEE
    if by is not None and table.host_id == by.pk:
        return TransferPaid.MarkedAs.HOST
    return ""


@transaction.atomic
def transfer_mark_paid(
    *,
    table: Table,
    payer_seat: Seat,
    payee_seat: Seat,
    amount: Decimal,
    by: User | None,
    guest_token: str = "",
) -> TransferPaid:
    """One transfer of the table's settlement marked paid (only a transfer it lists, at its
    amount): by its payer or its payee (an account, or a guest by the seat's token in their
    browser), or by the host, any. The mark names who made it. A night paid with its season is
    refused above the ledger (``homegames.services_seasons.night_transfer_mark_paid``)."""
    marked_as = transfer_marker(
        table=table, payer_seat=payer_seat, payee_seat=payee_seat, by=by, guest_token=guest_token
    )
    if not marked_as:
        raise LedgerError("not_party", _("Only the payer, the payee or the host can mark a transfer paid."))
    report = ledger_report(table=table)
    listed = {(t.payer_seat_id, t.payee_seat_id): t.amount for t in report.transfers}
    key = (payer_seat.pk, payee_seat.pk)
    if key not in listed or listed[key] != amount:
        raise LedgerError("no_such_transfer", _("The settlement has no such transfer."))
    existing = _mark_of(table, payer_seat, payee_seat)
    if existing is not None:
        if existing.amount == amount:
            return existing
        existing.delete()  # a mark of an amount the settlement no longer lists counted for nothing
    if marked_as == TransferPaid.MarkedAs.HOST:
        assert by is not None  # only an account hosts
        name = by.table_name
    else:
        name = (payer_seat if marked_as == TransferPaid.MarkedAs.PAYER else payee_seat).display_name
    return TransferPaid.objects.create(
        table=table,
        payer_seat=payer_seat,
        payee_seat=payee_seat,
        payer_name=payer_seat.display_name[:40],
        payee_name=payee_seat.display_name[:40],
        amount=amount,
        marked_by=by,
        marked_as=marked_as,
        marked_by_name=name[:40],
    )


@transaction.atomic
def transfer_unmark_paid(
    *, table: Table, payer_seat: Seat, payee_seat: Seat, by: User | None, guest_token: str = ""
) -> None:
    """A paid mark taken back (a mark is a note, not a ledger entry): by the host, any; by the
    payer or the payee, only a mark they made themselves."""
    marked_as = transfer_marker(
        table=table, payer_seat=payer_seat, payee_seat=payee_seat, by=by, guest_token=guest_token
    )
    if not marked_as:
        raise LedgerError("not_party", _("Only the payer, the payee or the host can mark a transfer paid."))
    mark = _mark_of(table, payer_seat, payee_seat)
    if mark is None:
        return
    if mark.marked_as != marked_as and not (by is not None and table.host_id == by.pk):
        raise LedgerError("not_party", _("Only whoever marked it, or the host, can take the mark back."))
    mark.delete()
