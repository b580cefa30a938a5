"""Writing to the ledger: buy-ins, buy-backs, cash-outs, reversals, the invariant, home games.

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

``ledger_check_invariant(*, table, chips_at_table) -> None``
    At the end of every hand: ``chips_at_table`` (every seat's stack, nothing left in a
    pot) must equal chips bought minus chips cashed out; raises :class:`InvariantError`.

Every refusal raises :class:`LedgerError` (``code`` stable, ``message`` translated) and
writes nothing. The ledger never changes ``tables`` rows; the dependency runs one way.
"""

from __future__ import annotations

import secrets
from collections.abc import Mapping, Sequence
from decimal import Decimal, InvalidOperation
from fractions import Fraction
from typing import TYPE_CHECKING

from django.db import IntegrityError, transaction
from django.db.models import F
from django.utils import timezone
from django.utils.encoding import force_str
from django.utils.translation import gettext_lazy as _

from ledger.invariant_sql import ledger_chips_held
from ledger.models import (
    HomeGame,
    HomeGameNight,
    LedgerEntry,
    Season,
    SeasonTransfer,
    SeatClaim,
    TableLedger,
    TransferPaid,
)
from ledger.selectors import cents_to_decimal, ledger_report, night_settled_by_season, season_open, seat_key
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
    whose prizes are recorded (``prizes_recorded``) or a night of a closed season
    (``season_closed``). Returns the reversing entry (its note is the reason, its
    ``recorded_by`` the host)."""
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
    if HomeGameNight.objects.filter(table=table, season__isnull=False).exists():
        raise LedgerError("season_closed", _("This night's season is closed; its record can no longer change."))
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


def _check_table_host(table: Table, by: User) -> None:
    if table.host_id != by.pk:
        raise LedgerError("not_host", _("Only the host can mark a transfer paid."))


@transaction.atomic
def transfer_mark_paid(*, table: Table, payer_seat: Seat, payee_seat: Seat, amount: Decimal, by: User) -> TransferPaid:
    """The host marks one transfer of the table's settlement as paid (only a transfer it lists)."""
    _check_table_host(table, by)
    if night_settled_by_season(table=table) is not None:
        raise LedgerError("settled_by_season", _("This night is settled with its home game's season, not on its own."))
    report = ledger_report(table=table)
    listed = {(t.payer_seat_id, t.payee_seat_id): t.amount for t in report.transfers}
    key = (payer_seat.pk, payee_seat.pk)
    if key not in listed or listed[key] != amount:
        raise LedgerError("no_such_transfer", _("The settlement has no such transfer."))
    existing = TransferPaid.objects.filter(table=table, payer_seat=payer_seat, payee_seat=payee_seat).first()
    if existing:
        return existing
    return TransferPaid.objects.create(
        table=table,
        payer_seat=payer_seat,
        payee_seat=payee_seat,
        payer_name=payer_seat.display_name[:40],
        payee_name=payee_seat.display_name[:40],
        amount=amount,
        marked_by=by,
    )


@transaction.atomic
def transfer_unmark_paid(*, table: Table, payer_seat: Seat, payee_seat: Seat, by: User) -> None:
    """The host takes back a paid mark (a mark is a note, not a ledger entry)."""
    _check_table_host(table, by)
    TransferPaid.objects.filter(table=table, payer_seat=payer_seat, payee_seat=payee_seat).delete()


# --- Home games -------------------------------------------------------------------------


@transaction.atomic
def home_game_create(*, name: str, host: User, members: list[User] | None = None) -> HomeGame:
    """A new home game; the host is always a member."""
    name = (name or "").strip()
    if not name:
        raise LedgerError("bad_name", _("A home game needs a name."))
    if len(name) > 80:
        raise LedgerError("bad_name", _("A home game's name has at most 80 characters."))
    home_game = HomeGame.objects.create(name=name, host=host, invite_token=secrets.token_urlsafe(32))
    home_game.members.add(host, *(members or []))
    return home_game


@transaction.atomic
def home_game_add_table(*, home_game: HomeGame, table: Table, by: User) -> HomeGameNight:
    """Count ``table`` as a night of ``home_game``. Only the home game's host, for a table they host."""
    if home_game.host_id != by.pk:
        raise LedgerError("not_host", _("Only the home game's host can add a night."))
    if table.host_id != by.pk:
        raise LedgerError("not_table_host", _("You can only add a table you host."))
    existing = HomeGameNight.objects.filter(table=table).select_related("home_game").first()
    if existing:
        if existing.home_game_id == home_game.pk:
            return existing
        raise LedgerError("already_in_home_game", _("That table already belongs to another home game."))
    night = HomeGameNight.objects.create(home_game=home_game, table=table)
    # Everyone with an account who sat at the table joins the group.
    users = [seat.user for seat in table.seats.filter(user__isnull=False).select_related("user") if seat.user]
    home_game.members.add(*users)
    return night


# --- Seasons ----------------------------------------------------------------------------


def _locked_home_game(home_game: HomeGame) -> HomeGame:
    """The home game's row, locked for this transaction (one close or switch at a time)."""
    return HomeGame.objects.select_for_update().get(pk=home_game.pk)


def _check_home_game_host(home_game: HomeGame, by: User, message: StrPromise) -> None:
    if home_game.host_id != by.pk:
        raise LedgerError("not_host", message)


@transaction.atomic
def home_game_set_settle_by(*, home_game: HomeGame, settle_by: str, by: User) -> HomeGame:
    """The host chooses whether the nights are paid one by one or once a season.

    Switching to the season is refused while a night of the open season has a transfer
    marked paid (that night was already being paid on its own).
    """
    home_game = _locked_home_game(home_game)
    _check_home_game_host(home_game, by, _("Only the home game's host chooses how it settles up."))
    if settle_by not in HomeGame.SettleBy.values:
        raise LedgerError("bad_settle_by", _("Choose night by night or once a season."))
    if settle_by == home_game.settle_by:
        return home_game
    open_tables = home_game.nights.filter(season__isnull=True).values("table_id")
    if settle_by == HomeGame.SettleBy.SEASON and TransferPaid.objects.filter(table_id__in=open_tables).exists():
        raise LedgerError(
            "nights_being_paid",
            _("A night of this season already has a transfer marked paid; close the season first, then switch."),
        )
    home_game.settle_by = settle_by
    home_game.save(update_fields=["settle_by"])
    return home_game


@transaction.atomic
def season_close(*, home_game: HomeGame, by: User) -> Season:
    """The host closes the open season: its settled nights are counted in it and, when the
    home game settles by season, its fewest transfers are frozen to be marked paid.

    Nights still being played stay for the next season. Refused with no settled night,
    or when the season cannot be netted (nights in different currencies).
    """
    home_game = _locked_home_game(home_game)
    _check_home_game_host(home_game, by, _("Only the home game's host can close a season."))
    view = season_open(home_game=home_game)
    if not view.nights:
        raise LedgerError("empty_season", _("No night of this season has been settled yet."))
    if view.error:
        raise LedgerError("season_not_netted", view.error)
    season = Season.objects.create(
        home_game=home_game,
        number=view.number,
        settle_by=home_game.settle_by,
        currency=view.currency,
        closed_by=by,
    )
    HomeGameNight.objects.filter(pk__in=[result.night.pk for result in view.nights]).update(season=season)
    if view.by_season:
        SeasonTransfer.objects.bulk_create(
            SeasonTransfer(
                season=season,
                payer_key=line.payer_key,
                payee_key=line.payee_key,
                payer_name=line.payer_name[:40],
                payee_name=line.payee_name[:40],
                amount=line.amount,
            )
            for line in view.transfers
        )
    return season


@transaction.atomic
def season_transfer_mark_paid(*, transfer: SeasonTransfer, paid: bool, by: User) -> SeasonTransfer:
    """A closed season's transfer marked paid, or the mark taken back (a note; ``paid_by``
    shows who made it). The host may mark any; the payer and the payee may mark their own
    transfer, and take back a mark they made themselves (``not_party`` otherwise)."""
    transfer = SeasonTransfer.objects.select_for_update().select_related("season__home_game").get(pk=transfer.pk)
    if transfer.season.home_game.host_id != by.pk:
        if f"user:{by.pk}" not in (transfer.payer_key, transfer.payee_key):
            raise LedgerError("not_party", _("Only the payer, the payee or the host can mark a transfer paid."))
        if not paid and transfer.paid_by_id not in (None, by.pk):
            raise LedgerError("not_party", _("Only whoever marked it, or the host, can take the mark back."))
    if paid and transfer.paid_at is None:
        transfer.paid_at, transfer.paid_by = timezone.now(), by
    elif not paid:
        transfer.paid_at, transfer.paid_by = None, None
    transfer.save(update_fields=["paid_at", "paid_by"])
    return transfer


# --- Members, co-hosts, the invite link, claimed seats -----------------------------------


@transaction.atomic
def home_game_invite_replace(*, home_game: HomeGame, by: User) -> HomeGame:
    """The host replaces the invite link: the old one joins no one from now on."""
    home_game = _locked_home_game(home_game)
    _check_home_game_host(home_game, by, _("Only the home game's host can replace its invite link."))
    home_game.invite_token = secrets.token_urlsafe(32)
    home_game.save(update_fields=["invite_token"])
    return home_game


@transaction.atomic
def home_game_join(*, home_game: HomeGame, token: str, user: User) -> HomeGame:
    """``user`` joins with the home game's current invite link (an account is needed)."""
    home_game = _locked_home_game(home_game)
    if not token or not home_game.invite_token or not secrets.compare_digest(token, home_game.invite_token):
        raise LedgerError("bad_invite", _("This invite link is not valid any more. Ask the host for a new one."))
    home_game.members.add(user)
    return home_game


@transaction.atomic
def home_game_remove_member(*, home_game: HomeGame, member: User, by: User) -> HomeGame:
    """The host removes a member (never the host). The invite link is replaced too, so the
    link the removed member knew joins no one; the host shares the new one."""
    home_game = _locked_home_game(home_game)
    _check_home_game_host(home_game, by, _("Only the home game's host can remove a member."))
    if member.pk == home_game.host_id:
        raise LedgerError("remove_host", _("The host cannot be removed from their own home game."))
    if not home_game.members.filter(pk=member.pk).exists():
        raise LedgerError("not_member", _("That person is not a member of this home game."))
    home_game.members.remove(member)
    home_game.co_hosts.remove(member)
    home_game.invite_token = secrets.token_urlsafe(32)
    home_game.save(update_fields=["invite_token"])
    return home_game


@transaction.atomic
def home_game_set_co_host(*, home_game: HomeGame, member: User, is_co_host: bool, by: User) -> HomeGame:
    """The host makes a member a co-host (who may schedule nights and open tables) or not."""
    home_game = _locked_home_game(home_game)
    _check_home_game_host(home_game, by, _("Only the home game's host chooses the co-hosts."))
    if member.pk == home_game.host_id or not home_game.members.filter(pk=member.pk).exists():
        raise LedgerError("not_member", _("Only a member other than the host can be a co-host."))
    if is_co_host:
        home_game.co_hosts.add(member)
    else:
        home_game.co_hosts.remove(member)
    return home_game


@transaction.atomic
def seat_claim_make(*, home_game: HomeGame, seat: Seat, by: User) -> SeatClaim:
    """A member says a guest seat of one of the home game's nights was theirs; the host confirms it."""
    home_game = _locked_home_game(home_game)
    if home_game.host_id != by.pk and not home_game.members.filter(pk=by.pk).exists():
        raise LedgerError("not_member", _("Only a member of this home game can claim a seat."))
    night = HomeGameNight.objects.filter(home_game=home_game, table_id=seat.table_id).first()
    if night is None:
        raise LedgerError("not_a_night", _("That seat was not at a night of this home game."))
    if night.season_id is not None:
        raise LedgerError("season_closed", _("That night's season is closed; its results stay as they were settled."))
    if seat.user_id is not None or seat.computer:
        raise LedgerError("not_a_guest", _("Only a guest's seat can be claimed."))
    if SeatClaim.objects.filter(seat=seat).exists():
        raise LedgerError("already_claimed", _("Someone has already claimed that seat."))
    try:
        with transaction.atomic():
            return SeatClaim.objects.create(seat=seat, home_game=home_game, user=by)
    except IntegrityError as error:  # a claim made at the same moment won the seat
        raise LedgerError("already_claimed", _("Someone has already claimed that seat.")) from error


@transaction.atomic
def seat_claim_answer(*, claim: SeatClaim, confirm: bool, by: User) -> SeatClaim | None:
    """The host confirms a claim (the seat's results then count as the member's) or refuses it (deleted)."""
    claim = SeatClaim.objects.select_for_update().select_related("home_game").get(pk=claim.pk)
    _check_home_game_host(claim.home_game, by, _("Only the home game's host confirms a claimed seat."))
    if not confirm:
        claim.delete()
        return None
    if claim.confirmed_at is None:
        claim.confirmed_at = timezone.now()
        claim.save(update_fields=["confirmed_at"])
    return claim


@transaction.atomic
def home_game_add_planned_table(*, home_game: HomeGame, table: Table) -> HomeGameNight:
    """Count a table opened from a planned night as a night of ``home_game``. The caller
    (``homegames.services.night_open_table``) has checked that a host or co-host opened it."""
    night, _created = HomeGameNight.objects.get_or_create(table=table, defaults={"home_game": home_game})
    if night.home_game_id != home_game.pk:
        raise LedgerError("already_in_home_game", _("That table already belongs to another home game."))
    return night
