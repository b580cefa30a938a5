"""Reading a home game's money: each night's report (the ledger's, ``ledger.selectors.ledger_report``),
the standings across nights, and the seasons' settle-ups, which add each night's shared costs
(the ledger's lines of their own: a kitchen-table night's pizza) to its chips. Nothing here writes;
people are matched across nights as friends would (an account, a claimed seat, a guest's name).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from decimal import Decimal
from typing import TYPE_CHECKING

from django.db.models import QuerySet
from django.utils.translation import gettext as _

from homegames.models import HomeGame, Night, Season, SeasonPayment, SeasonTransfer, SeatClaim
from ledger.selectors import PlayerLine, TableReport, cents_to_decimal, ledger_report
from ledger.settlement import SettlementError, minimum_transfers

if TYPE_CHECKING:
    from tables.models import Table


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
    night: Night
    table: Table  # the night's (a night with no table has no result)
    report: TableReport

    @property
    def is_settled(self) -> bool:
        """Whether the night's money can be settled (docs/ledger.md, "Seasons"): its table's
        game has ended (nobody can buy in or play any more), every chip bought is cashed out
        and its report shows balances. A table nobody has sat at yet, or one everyone has left
        for now, is not settled: its money is still to come, and belongs to the season open
        when the game ends."""
        return self.table.ended_at is not None and self.report.is_final and not self.report.error


def home_game_results(*, home_game: HomeGame) -> tuple[list[NightResult], list[Standing]]:
    """Every night's report, and the standings over the nights that are settled (final).

    A player with an account is the same person every night; a guest is matched by
    name (case-insensitively), as friends would recognise each other.
    """
    nights = _night_results(home_game.nights.all())
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
    labels = [result.table.created_at.date().isoformat() for result in settled]
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
    settings (any code the host's settings held, unlike ``tables.models.table_currency``)."""
    host = (table.settings or {}).get("host") or {}
    currency = host.get("currency") or ""
    return currency if isinstance(currency, str) else ""


@dataclass
class SeasonPerson:
    """A person's season: ``net_money`` = ``chips_money`` - ``cost_share`` + ``costs_paid``,
    each the sum over the season's nights of what the night's own settle-up says."""

    key: str
    name: str
    net_money: Decimal = Decimal("0.00")
    net_chips: int = 0
    nights: int = 0
    chips_money: Decimal = Decimal("0.00")  # the chips' results (the ledger's reports)
    cost_share: Decimal = Decimal("0.00")  # their shares of the nights' shared costs
    costs_paid: Decimal = Decimal("0.00")  # what they paid for those costs


@dataclass
class SeasonCost:
    """A shared cost of one of the season's nights, shown apart: who paid it and each share."""

    night: NightResult
    what: str
    amount: Decimal
    paid_by: str
    shares: list[tuple[str, Decimal]]


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
    """A season's settle-up: the nights it counts, each person's net across them (their chips'
    results and, apart, their shares of the nights' shared costs and what they paid for them),
    the fewest transfers that settle everyone at once (cent-true: each night's own rounded
    results and each cost's split to the cent are added, so the nets add up to exactly zero;
    none when the nights are paid one by one), and the nights it does not count yet."""

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
    costs: list[SeasonCost] = field(default_factory=list)  # the nights' shared costs, night by night
    # Transfers paid before the season closed (docs/ledger.md, "Paid during the season"): the
    # open season's transfers settle what is left after them.
    payments: list[SeasonPayment] = field(default_factory=list)

    @property
    def by_season(self) -> bool:
        return self.settle_by == HomeGame.SettleBy.SEASON


def _season_people(
    nights: list[NightResult], claims: dict[int, int]
) -> tuple[dict[str, SeasonPerson], set[str], list[SeasonCost]]:
    """Each person's net across ``nights``: each night's own report (the ledger's, per player:
    the chips' result, the share of the night's shared costs and what they paid for them, as
    the night's settle-up has it, docs/kitchen-table.md); the currencies the nights' money is
    in; and the costs, shown apart."""
    people: dict[str, SeasonPerson] = {}
    currencies: set[str] = set()
    shown: list[SeasonCost] = []
    for result in nights:
        if not result.report.is_zero_value or result.report.costs:
            currencies.add(night_currency(result.table))
        for line in result.report.players:
            key = person_key(line, claims)
            person = people.setdefault(key, SeasonPerson(key=key, name=line.name))
            person.name = line.name
            person.chips_money += line.net_money
            person.cost_share += line.cost_share
            person.costs_paid += line.costs_paid
            person.net_chips += line.net_chips
            person.nights += 1
        for cost in result.report.costs:
            shown.append(
                SeasonCost(
                    night=result,
                    what=cost.cost.what,
                    amount=cost.cost.amount,
                    paid_by=cost.cost.paid_by.display_name,
                    shares=cost.sharers,
                )
            )
    for person in people.values():
        person.net_money = person.chips_money - person.cost_share + person.costs_paid
    return people, currencies, shown


def _sorted_people(people: dict[str, SeasonPerson]) -> list[SeasonPerson]:
    return sorted(people.values(), key=lambda p: (-p.net_money, -p.net_chips, p.name.casefold(), p.key))


def _night_results(nights: QuerySet[Night]) -> list[NightResult]:
    """The played nights of ``nights`` (those with a table), in the order their tables opened."""
    return [
        NightResult(night=night, table=table, report=ledger_report(table=table))
        for night in nights.filter(table__isnull=False).select_related("table").order_by("table__created_at", "id")
        if (table := night.table) is not None
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
    people, currencies, view.costs = _season_people(view.nights, confirmed_claims(home_game=home_game))
    view.people = _sorted_people(people)
    view.payments = list(home_game.season_payments.filter(season__isnull=True).select_related("marked_by"))
    if len(currencies) > 1:
        view.error = _("This season's nights were played in different currencies, so they cannot be netted.")
        return view
    view.currency = currencies.pop() if currencies else ""
    if not view.by_season:
        # Paid night by night: each table's own transfers settle it, so the season lists no
        # payments of its own (netted ones here would let a host collect twice).
        return view
    balances, names = season_left_to_pay(people, view.payments)
    try:
        transfers = minimum_transfers(balances)
    except SettlementError:
        view.error = _("Too many people with different balances to find the fewest transfers; settle night by night.")
        return view
    for transfer in transfers:
        view.transfers.append(
            SeasonTransferLine(
                payer_key=transfer.payer,
                payer_name=names[transfer.payer],
                payee_key=transfer.payee,
                payee_name=names[transfer.payee],
                amount=cents_to_decimal(transfer.amount),
                currency=view.currency,
            )
        )
    return view


def season_closed(*, season: Season) -> SeasonView:
    """A closed season: its nights and nets as the ledger reports them with the nights' shared
    costs (which can no longer change: a night is settled before its season closes, and a
    settled night takes no cost), and the transfers frozen when it closed (with their paid marks)."""
    view = SeasonView(
        home_game=season.home_game,
        number=season.number,
        is_open=False,
        settle_by=season.settle_by,
        currency=season.currency,
        season=season,
    )
    view.nights = _night_results(season.nights.all())
    people, _currencies, view.costs = _season_people(view.nights, confirmed_claims(home_game=season.home_game))
    view.people = _sorted_people(people)
    view.transfers = [_frozen_line(transfer) for transfer in season.transfers.select_related("season")]
    view.payments = list(season.payments.select_related("marked_by"))
    return view


def season_left_to_pay(
    people: dict[str, SeasonPerson], payments: list[SeasonPayment]
) -> tuple[dict[str, int], dict[str, str]]:
    """What each person is still owed (positive) or still owes (negative), in cents: their net
    across the season's nights, plus what they paid during the season, less what they were
    paid. It adds up to zero as the nets do (each payment adds to one and takes from another).
    With each person's name (a payment keeps the names it was made with)."""
    balances = {key: int(person.net_money * 100) for key, person in people.items()}
    names = {key: person.name for key, person in people.items()}
    for payment in payments:
        cents = int(payment.amount * 100)
        balances[payment.payer_key] = balances.get(payment.payer_key, 0) + cents
        balances[payment.payee_key] = balances.get(payment.payee_key, 0) - cents
        names.setdefault(payment.payer_key, payment.payer_name)
        names.setdefault(payment.payee_key, payment.payee_name)
    return balances, names


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


def night_settled_by_season(*, table: Table) -> Night | None:
    """The home game night of ``table`` when it is paid with its season rather than on its own."""
    night = Night.objects.filter(table=table).select_related("home_game", "season").first()
    if night is None:
        return None
    settle_by = night.season.settle_by if night.season else night.home_game.settle_by
    return night if settle_by == HomeGame.SettleBy.SEASON else None
