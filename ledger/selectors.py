"""Reading the ledger: chip totals, a table's settlement report, a home game's standings, access.

A report is computed from the entries every time (they are the record); nothing here
writes. Players are keyed by seat (``seat_key``), never by display name, so two
players with the same name stay apart and a rename changes nothing.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from decimal import Decimal
from fractions import Fraction
from typing import TYPE_CHECKING

from django.db.models import Q, QuerySet
from django.utils.translation import gettext as _

from ledger.models import HomeGame, HomeGameNight, LedgerEntry, Season, SeasonTransfer, SeatClaim, TransferPaid
from ledger.settlement import PlayerEntry, SettlementError, format_chip_value, minimum_transfers, settle

if TYPE_CHECKING:  # the ledger reads the rows it is given; it imports nothing of tables at run time
    from django.contrib.auth.models import AnonymousUser

    from accounts.models import User
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
        paid_marks = {
            (mark.payer_seat_id, mark.payee_seat_id): mark.amount for mark in TransferPaid.objects.filter(table=table)
        }
        for transfer in result.transfers:
            payer, payee = int(transfer.payer), int(transfer.payee)
            amount = cents_to_decimal(transfer.amount)
            report.transfers.append(
                TransferLine(
                    payer_seat_id=payer,
                    payer_name=per_seat[payer].name,
                    payee_seat_id=payee,
                    payee_name=per_seat[payee].name,
                    amount=amount,
                    # A mark counts only while the transfer it was made for is unchanged.
                    paid=paid_marks.get((payer, payee)) == amount,
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


# --- Access --------------------------------------------------------------------------


def user_can_view_table_report(*, user: User | AnonymousUser, table: Table, guest_token: str | None = None) -> bool:
    """The host, anyone who had a seat at the table (a guest by their session's token),
    and the members of its home game."""
    if guest_token and table.seats.filter(guest_token=guest_token).exists():
        return True
    if not user.is_authenticated:
        return False
    if table.host_id == user.pk or table.seats.filter(user=user).exists():
        return True
    return HomeGameNight.objects.filter(table=table, home_game__members=user).exists()


def home_games_for_user(*, user: User) -> QuerySet[HomeGame]:
    return HomeGame.objects.filter(Q(host=user) | Q(members=user)).distinct()


def user_can_view_home_game(*, user: User | AnonymousUser, home_game: HomeGame) -> bool:
    if not user.is_authenticated:
        return False
    return home_game.host_id == user.pk or home_game.members.filter(pk=user.pk).exists()


def user_is_co_host(*, user: User | AnonymousUser, home_game: HomeGame) -> bool:
    """The host, or a member the host made a co-host (they schedule nights and open tables)."""
    if not user.is_authenticated:
        return False
    return home_game.host_id == user.pk or home_game.co_hosts.filter(pk=user.pk).exists()


def home_game_for_invite(*, token: str) -> HomeGame | None:
    """The home game whose current invite link carries ``token`` (None for an old, guessed or empty one)."""
    if not token or len(token) < 32:
        return None
    return HomeGame.objects.filter(invite_token=token).first()


def claimable_seats(*, home_game: HomeGame) -> list[Seat]:
    """Guest seats (no account, not a computer) that bought in at the home game's nights and
    that nobody has claimed yet, oldest night first (read through the ledger's own entries)."""
    entries = (
        LedgerEntry.objects.filter(
            table__home_game_night__home_game=home_game,
            seat__user__isnull=True,
            seat__computer="",
            seat__claim__isnull=True,
        )
        .select_related("seat", "seat__table")
        .order_by("seat__table__created_at", "seat_id")
    )
    seats: dict[int, Seat] = {}
    for entry in entries:
        seats.setdefault(entry.seat_id, entry.seat)
    return list(seats.values())


# --- Home game standings -----------------------------------------------------------


@dataclass
class Standing:
    key: str
    name: str
    net_money: Decimal = Decimal("0.00")
    net_chips: int = 0
    nights: int = 0
    biggest_win_money: Decimal = Decimal("0.00")
    biggest_win_chips: int = 0


@dataclass
class NightResult:
    night: HomeGameNight
    report: TableReport

    @property
    def is_settled(self) -> bool:
        """Whether the night's money can be settled (docs/ledger.md, "Seasons"): its table's
        game has ended (nobody can buy in or play any more), every chip bought is cashed out
        and its report shows balances. A table nobody has sat at yet, or one everyone has left
        for now, is not settled: its money is still to come, and belongs to the season open
        when the game ends."""
        return self.night.table.ended_at is not None and self.report.is_final and not self.report.error


def home_game_results(*, home_game: HomeGame) -> tuple[list[NightResult], list[Standing]]:
    """Every night's report, and the standings over the nights that are settled (final).

    A player with an account is the same person every night; a guest is matched by
    name (case-insensitively), as friends would recognise each other.
    """
    nights = [
        NightResult(night=night, report=ledger_report(table=night.table))
        for night in home_game.nights.select_related("table").order_by("table__created_at", "id")
    ]
    standings: dict[str, Standing] = {}
    claims = confirmed_claims(home_game=home_game)
    for result in nights:
        if not result.is_settled:
            continue
        for line in result.report.players:
            key = person_key(line, claims)
            standing = standings.setdefault(key, Standing(key=key, name=line.name))
            standing.name = line.name
            standing.net_money += line.net_money
            standing.net_chips += line.net_chips
            standing.nights += 1
            standing.biggest_win_money = max(standing.biggest_win_money, line.net_money)
            standing.biggest_win_chips = max(standing.biggest_win_chips, line.net_chips)
    ordered = sorted(standings.values(), key=lambda s: (-s.net_money, -s.net_chips, s.name.casefold(), s.key))
    return nights, ordered


def standings_running(
    *, home_game: HomeGame, nights: list[NightResult]
) -> tuple[list[str], list[tuple[str, list[Decimal]]], bool]:
    """Each person's running net after each settled night, in the standings' order: the
    nights' dates, ``(name, [net after night 1, after night 2, ...])`` per person, and
    whether it is in chips (every night played for chips alone) rather than money."""
    settled = [result for result in nights if result.is_settled]
    chips = bool(settled) and all(result.report.is_zero_value for result in settled)
    claims = confirmed_claims(home_game=home_game)
    names: dict[str, str] = {}
    totals: dict[str, Decimal] = {}
    steps: list[dict[str, Decimal]] = []
    for result in settled:
        for line in result.report.players:
            key = person_key(line, claims)
            names[key] = line.name
            totals[key] = totals.get(key, Decimal(0)) + (Decimal(line.net_chips) if chips else line.net_money)
        steps.append(dict(totals))
    order = sorted(names, key=lambda key: (-totals[key], names[key].casefold(), key))
    series = [(names[key], [step.get(key, Decimal(0)) for step in steps]) for key in order]
    labels = [result.night.table.created_at.date().isoformat() for result in settled]
    return labels, series, chips


# --- Seasons ----------------------------------------------------------------------------


def person_key(line: PlayerLine, claims: dict[int, int] | None = None) -> str:
    """Who a night's line is across nights: an account is one person, and so is a guest
    seat a member claimed (once the host confirmed it); any other guest is their name as
    friends would spell it (case and surrounding spaces ignored)."""
    user_id = line.user_id or (claims or {}).get(line.seat_id)
    return f"user:{user_id}" if user_id else f"guest:{line.name.strip().casefold()}"


def confirmed_claims(*, home_game: HomeGame) -> dict[int, int]:
    """Guest seats of ``home_game``'s nights that a member claimed and the host confirmed: seat -> user."""
    return dict(
        SeatClaim.objects.filter(home_game=home_game, confirmed_at__isnull=False).values_list("seat_id", "user_id")
    )


def night_currency(table: Table) -> str:
    """The currency the host chose for a night's table ("" for none), read from the table's
    settings as ``tables.models.table_currency`` does (the ledger imports nothing of tables)."""
    host = (table.settings or {}).get("host") or {}
    currency = host.get("currency") or ""
    return currency if isinstance(currency, str) else ""


@dataclass
class SeasonPerson:
    key: str
    name: str
    net_money: Decimal = Decimal("0.00")
    net_chips: int = 0
    nights: int = 0


@dataclass
class SeasonTransferLine:
    payer_key: str
    payer_name: str
    payee_key: str
    payee_name: str
    amount: Decimal
    paid: bool = False
    transfer_id: int | None = None  # the frozen row of a closed season
    season_number: int | None = None
    currency: str = ""  # the currency of the season it settles (a carried transfer keeps its own)


@dataclass
class SeasonView:
    """A season's settle-up: the nights it counts, each person's net across them, the fewest
    transfers that settle everyone at once (cent-true: each night's own rounded results
    are added, so the nets add up to exactly zero; none when the nights are paid one by
    one), and the nights it does not count yet."""

    home_game: HomeGame
    number: int
    is_open: bool
    settle_by: str
    nights: list[NightResult] = field(default_factory=list)
    waiting: list[NightResult] = field(default_factory=list)  # still being played or unsettleable
    people: list[SeasonPerson] = field(default_factory=list)
    transfers: list[SeasonTransferLine] = field(default_factory=list)
    currency: str = ""
    error: str = ""
    season: Season | None = None

    @property
    def by_season(self) -> bool:
        return self.settle_by == HomeGame.SettleBy.SEASON


def _season_people(nights: list[NightResult], claims: dict[int, int]) -> tuple[dict[str, SeasonPerson], set[str]]:
    """Each person's net across ``nights``, read from each night's own report (the table's
    per-player results), and the currencies the nights played for money in."""
    people: dict[str, SeasonPerson] = {}
    currencies: set[str] = set()
    for result in nights:
        if not result.report.is_zero_value:
            currencies.add(night_currency(result.night.table))
        for line in result.report.players:
            key = person_key(line, claims)
            person = people.setdefault(key, SeasonPerson(key=key, name=line.name))
            person.name = line.name
            person.net_money += line.net_money
            person.net_chips += line.net_chips
            person.nights += 1
    return people, currencies


def _sorted_people(people: dict[str, SeasonPerson]) -> list[SeasonPerson]:
    return sorted(people.values(), key=lambda p: (-p.net_money, -p.net_chips, p.name.casefold(), p.key))


def _night_results(nights: QuerySet[HomeGameNight]) -> list[NightResult]:
    return [
        NightResult(night=night, report=ledger_report(table=night.table))
        for night in nights.select_related("table").order_by("table__created_at", "id")
    ]


def season_open(*, home_game: HomeGame) -> SeasonView:
    """The open season: the home game's nights not yet in a closed season. Only settled
    nights count (:attr:`NightResult.is_settled`: the game ended, every chip cashed out,
    balances shown); the others wait, and count in the season open when they are settled."""
    view = SeasonView(
        home_game=home_game,
        number=home_game.seasons.count() + 1,
        is_open=True,
        settle_by=home_game.settle_by,
    )
    for result in _night_results(home_game.nights.filter(season__isnull=True)):
        if result.is_settled:
            view.nights.append(result)
        else:
            view.waiting.append(result)
    people, currencies = _season_people(view.nights, confirmed_claims(home_game=home_game))
    view.people = _sorted_people(people)
    if len(currencies) > 1:
        view.error = _("This season's nights were played in different currencies, so they cannot be netted.")
        return view
    view.currency = currencies.pop() if currencies else ""
    if not view.by_season:
        # Paid night by night: each table's own transfers settle it, so the season lists no
        # payments of its own (netted ones here would let a host collect twice).
        return view
    balances = {key: int(person.net_money * 100) for key, person in people.items()}
    try:
        transfers = minimum_transfers(balances)
    except SettlementError:
        view.error = _("Too many people with different balances to find the fewest transfers; settle night by night.")
        return view
    for transfer in transfers:
        view.transfers.append(
            SeasonTransferLine(
                payer_key=transfer.payer,
                payer_name=people[transfer.payer].name,
                payee_key=transfer.payee,
                payee_name=people[transfer.payee].name,
                amount=cents_to_decimal(transfer.amount),
                currency=view.currency,
            )
        )
    return view


def season_closed(*, season: Season) -> SeasonView:
    """A closed season: its nights and nets as the ledger reports them, and the transfers
    frozen when it closed (with their paid marks)."""
    view = SeasonView(
        home_game=season.home_game,
        number=season.number,
        is_open=False,
        settle_by=season.settle_by,
        currency=season.currency,
        season=season,
    )
    view.nights = _night_results(season.nights.all())
    people, _currencies = _season_people(view.nights, confirmed_claims(home_game=season.home_game))
    view.people = _sorted_people(people)
    view.transfers = [_frozen_line(transfer) for transfer in season.transfers.select_related("season")]
    return view


def _frozen_line(transfer: SeasonTransfer) -> SeasonTransferLine:
    return SeasonTransferLine(
        payer_key=transfer.payer_key,
        payer_name=transfer.payer_name,
        payee_key=transfer.payee_key,
        payee_name=transfer.payee_name,
        amount=transfer.amount,
        paid=transfer.paid_at is not None,
        transfer_id=transfer.pk,
        season_number=transfer.season.number,
        currency=transfer.season.currency,
    )


def season_unpaid(*, home_game: HomeGame) -> list[SeasonTransferLine]:
    """Transfers of closed seasons not yet marked paid: carried into every later season
    and shown until the host marks them."""
    rows = SeasonTransfer.objects.filter(season__home_game=home_game, paid_at__isnull=True).select_related("season")
    return [_frozen_line(transfer) for transfer in rows.order_by("season__number", "payer_name", "payee_name", "id")]


def night_settled_by_season(*, table: Table) -> HomeGameNight | None:
    """The home game night of ``table`` when it is paid with its season rather than on its own."""
    night = HomeGameNight.objects.filter(table=table).select_related("home_game", "season").first()
    if night is None:
        return None
    settle_by = night.season.settle_by if night.season else night.home_game.settle_by
    return night if settle_by == HomeGame.SettleBy.SEASON else None
