"""Writing a kitchen-table night: opening it, buy-ins, cash-outs, the bank's balance, shared
costs and settling (docs/kitchen-table.md).

Every write goes through the tables' write path (``table_write``: one transaction, the
table row locked, the events in its log) and every chip and cost through the ledger's
services, as at any table; nothing here writes a ledger row or an event itself. All are keyword-only and
raise :class:`tables.services.ServiceError` (a stable code, a translated message), writing
nothing when they do.
"""

from __future__ import annotations

from fractions import Fraction
from typing import TYPE_CHECKING, Any

from django.db import transaction
from django.utils.translation import gettext_lazy as _

from homegames.models import Night
from homegames.services_members import home_game_add_table
from kitchen.models import KitchenNight
from kitchen.rules import tournament_buy_in_check, tournament_new_player_check, tournament_of
from ledger.models import LedgerEntry, SharedCost
from ledger.selectors import ledger_chip_totals, seat_key
from ledger.services import LedgerError, ledger_record_cash_out, ledger_record_cost, ledger_reverse
from ledger.settlement import round_largest_remainder
from tables.events import EventKind
from tables.models import Seat, Table
from tables.selectors import requests_pending
from tables.services import ServiceError, request_approve, table_create
from tables.services.hand_end import game_end, seat_cash_out_and_unseat
from tables.services.hosting import require_host
from tables.services.pass_and_play import local_player_seat
from tables.services.requests import seat_ask_record
from tables.services.seats import seat_buy_back_now, seat_take_now
from tables.services.table_settings import MAX_SEATS
from tables.services.write import seat_at, table_write

if TYPE_CHECKING:
    from accounts.models import User
    from homegames.models import HomeGame

#: The game the night's table is kept as (it is never dealt): the one with the most seats
#: (16), and, as every Teen Patti table, buy-ins after the start and re-buys.
KITCHEN_GAME = "999"
REASON_MAX = 200
SPREADS = ("stacks", "even")


def _night(table: Table) -> KitchenNight:
    night = KitchenNight.objects.filter(table=table).first()
    if night is None:
        raise ServiceError("not_kitchen", _("This is not a kitchen-table night."))
    return night


def _cash_night(table: Table) -> KitchenNight:
    """The night, refused (``tournament``) when it is a tournament: its chips are never cashed
    out for money; it ends when the last player but one goes out."""
    night = _night(table)
    if tournament_of(table) is not None:
        raise ServiceError("tournament", _("A tournament's chips are not cashed out: record who goes out."))
    return night


def _chips(chips: object) -> int:
    if isinstance(chips, bool) or not isinstance(chips, int):
        raise ServiceError("bad_chips", _("Count the chips as a whole number."), field="chips")
    if chips < 0:
        raise ServiceError("bad_chips", _("Chips cannot be negative."), field="chips")
    return chips


def _reason(reason: object) -> str:
    text = reason.strip() if isinstance(reason, str) else ""
    if not text:
        raise ServiceError("no_reason", _("Give a reason: everyone at the table can read it."), field="reason")
    return text[:REASON_MAX]


def _ledger_refusal(error: LedgerError) -> ServiceError:
    return ServiceError(error.code, error.message)


def kitchen_open(
    *,
    host: User,
    buy_in_chips: object,
    buy_in_price: object,
    currency: object = "",
    home_game: HomeGame | None = None,
) -> Table:
    """Open a night at the kitchen table: the host's chips per buy-in at their price (the
    chip value of the night), every buy-in and re-buy asked for and confirmed by the host;
    with ``home_game``, one of its nights (the ledger's ``home_game_add_table``: refused, and
    nothing opened, unless the host hosts it)."""
    choices: dict[str, Any] = {
        "seats": MAX_SEATS,
        "boot": 1,
        "buy_in_chips": buy_in_chips,
        "buy_in_price": buy_in_price,
        "currency": currency or "",
        "buy_backs": None,  # re-buys without limit: the host confirms each one
        "approve_seats": True,
        "not_dealt": True,
    }
    with transaction.atomic():
        table = table_create(host=host, game=KITCHEN_GAME, choices=choices)
        KitchenNight.objects.create(table=table)
        if home_game is not None:
            try:
                home_game_add_table(home_game=home_game, table=table, by=host)
            except LedgerError as error:
                raise _ledger_refusal(error) from None
    return table


def kitchen_buy_in(*, table_id: int, seat_id: int, player_seat_id: int) -> Seat:
    """The host records a buy-in (or a re-buy) for a player: one stack at the night's price."""
    with table_write(table_id) as (table, log):
        require_host(table, seat_id)
        _night(table)
        player = seat_at(table, player_seat_id)
        tournament_buy_in_check(table, player)
        if player.number is None:
            seat_take_now(log, player, None)  # the first buy-in, or coming back after cashing out
        else:
            seat_buy_back_now(log, player)
    return player


def kitchen_add(*, table_id: int, seat_id: int, name: object) -> Seat:
    """The host adds a person by name with their first buy-in (the tables' local player, whose
    own service refuses a kitchen night: ``not_dealt``); at a tournament after the start,
    only in the re-buy period (``rebuy_closed``)."""
    with table_write(table_id) as (table, log):
        require_host(table, seat_id)
        _night(table)
        tournament_new_player_check(table)
        return local_player_seat(table, log, name)


def kitchen_ask(*, table_id: int, seat_id: int) -> int:
    """A player asks the host, from their own phone, for a buy-in or a re-buy (the tables'
    requests: the host approves or denies it). Returns the request's id. At a tournament,
    refused as the host's own recording would be (``already_out``, ``rebuy_closed``)."""
    with table_write(table_id) as (table, log):
        _night(table)
        seat = Seat.objects.filter(pk=seat_id, table=table).first()
        if seat is not None:
            tournament_buy_in_check(table, seat)
        what = "buy_back" if seat is not None and seat.number is not None else "seat"
        return seat_ask_record(table, log, seat_id, what)


def kitchen_approve(*, table_id: int, seat_id: int, request: object) -> int:
    """The host confirms a player's request (the tables' ``request_approve``), at a
    tournament under its rules as they are now: a request made in the re-buy period and
    confirmed after it, or for a player gone out since, is refused (``rebuy_closed``,
    ``already_out``) and stays pending for the host to deny. The table row is locked first,
    so the check and the confirmation see the same table."""
    with transaction.atomic():
        table = Table.objects.select_for_update().filter(pk=table_id).first()
        if table is None:
            raise ServiceError("no_table", _("There is no such table."))
        require_host(table, seat_id)
        _night(table)
        pending = next((p for p in requests_pending(table=table) if p["request"] == request), None)
        if pending is not None and pending["what"] in ("seat", "buy_back"):
            tournament_buy_in_check(table, seat_at(table, pending["seat"]))
        return request_approve(table_id=table_id, seat_id=seat_id, request=request)


def kitchen_cash_out(*, table_id: int, seat_id: int, player_seat_id: int, chips: object) -> int:
    """The host counts the chips a player hands back to the bank. Refused: more chips than the
    bank still holds (``more_than_bank``), a player who holds none (``not_seated``)."""
    counted = _chips(chips)
    with table_write(table_id) as (table, log):
        require_host(table, seat_id)
        _cash_night(table)
        player = seat_at(table, player_seat_id)
        if player.number is None:
            raise ServiceError("not_seated", _("%(name)s has no chips from the bank.") % {"name": player.display_name})
        totals = ledger_chip_totals(table=table)
        held = totals.bought - totals.cashed_out
        if counted > held:
            raise ServiceError(
                "more_than_bank",
                _("The bank gave out only %(held)s chips that are not back yet; count again.") % {"held": held},
                field="chips",
            )
        player.stack = counted  # what the player hands back, not what they bought
        seat_cash_out_and_unseat(log, seat=player, kind=EventKind.SEAT_LEFT)
    return counted


def _cash_outs(table: Table) -> dict[int, int]:
    """Each seat's chips cashed out (reversals subtracted)."""
    out: dict[int, int] = {}
    entries = LedgerEntry.objects.filter(table=table).select_related("reverses")
    for entry in entries:
        kind, sign = entry.kind, 1
        if kind == LedgerEntry.Kind.REVERSAL and entry.reverses is not None:
            kind, sign = entry.reverses.kind, -1
        if kind == LedgerEntry.Kind.CASH_OUT:
            out[entry.seat_id] = out.get(entry.seat_id, 0) + sign * entry.chips
    return out


def kitchen_recount(*, table_id: int, seat_id: int, player_seat_id: int, chips: object, reason: object) -> int:
    """The host counts a player's chips again: every cash-out of theirs is reversed and the new
    count recorded, with the reason. Refused as a cash-out is, and for a player still holding
    chips (``not_cashed_out``: count them with a cash-out) or with no reason."""
    counted = _chips(chips)
    why = _reason(reason)
    with table_write(table_id) as (table, log):
        host = require_host(table, seat_id)
        _cash_night(table)
        player = seat_at(table, player_seat_id)
        if player.number is not None:
            raise ServiceError(
                "not_cashed_out",
                _("%(name)s still holds their chips: count them as a cash-out.") % {"name": player.display_name},
            )
        entries = [
            entry
            for entry in LedgerEntry.objects.filter(table=table, seat=player, kind=LedgerEntry.Kind.CASH_OUT)
            if not LedgerEntry.objects.filter(reverses=entry).exists()
        ]
        if not entries:
            raise ServiceError("not_cashed_out", _("%(name)s has cashed out nothing.") % {"name": player.display_name})
        before = sum(entry.chips for entry in entries)
        totals = ledger_chip_totals(table=table)
        held = totals.bought - totals.cashed_out + before
        if counted > held:
            raise ServiceError(
                "more_than_bank",
                _("The bank gave out only %(held)s chips that are not back yet; count again.") % {"held": held},
                field="chips",
            )
        by = host.user
        try:
            for entry in entries:
                ledger_reverse(entry=entry, by=by, note=why)  # type: ignore[arg-type]  # the host has an account
            ledger_record_cash_out(table=table, seat=player, chips=counted, by=by, note=why)
        except LedgerError as error:
            raise _ledger_refusal(error) from None
        log.append(
            EventKind.KITCHEN_RECOUNT,
            {
                "seat": player.pk,
                "name": player.display_name,
                "chips": counted,
                "before": before,
                "reason": why,
                "by": host.display_name,
            },
            actor=host,
        )
    return counted


def spread_shares(total: int, weights: dict[int, int]) -> dict[int, int]:
    """``total`` whole units split in proportion to ``weights`` (seat id -> weight, each > 0):
    floor each exact share, then the units left one each to the largest dropped fractions;
    ties to the smaller exact share, then to the seat that joined first (the lower id). The
    shares add up to ``total`` exactly (the ledger's largest-remainder rounding)."""
    whole = sum(weights.values())
    exact = {seat_key(seat): Fraction(total * weight, whole) for seat, weight in weights.items()}
    rounded = round_largest_remainder(exact, total=total)
    return {int(key): units for key, units in rounded.items()}


def kitchen_spread(*, table_id: int, seat_id: int, how: object, reason: object) -> dict[int, int]:
    """The host settles a count that came up short: the chips missing from the bank are
    added to the players' cash-outs, in proportion to what each handed back (``stacks``) or
    evenly among everyone who bought in (``even``), with the reason. Returns each seat's share.

    Refused: someone still holding chips (``still_holding``), nothing missing (``balanced``),
    no stacks to weigh by (``no_stacks``), an unknown way (``bad_spread``), no reason."""
    if how not in SPREADS:
        raise ServiceError("bad_spread", _("Spread it by stacks or evenly."), field="how")
    why = _reason(reason)
    with table_write(table_id) as (table, log):
        host = require_host(table, seat_id)
        _cash_night(table)
        _require_everyone_counted(table)
        totals = ledger_chip_totals(table=table)
        missing = totals.bought - totals.cashed_out
        if missing <= 0:
            raise ServiceError("balanced", _("The bank balances: there is nothing to spread."))
        if how == "stacks":
            weights = {seat: chips for seat, chips in _cash_outs(table).items() if chips > 0}
        else:
            weights = {seat.pk: 1 for seat in Seat.objects.filter(table=table, buy_ins__gt=0)}
        if not weights:
            raise ServiceError("no_stacks", _("Nobody handed back any chips: spread the difference evenly."))
        shares = spread_shares(missing, weights)
        seats = {seat.pk: seat for seat in Seat.objects.filter(table=table, pk__in=list(shares))}
        for seat_pk, chips in sorted(shares.items()):
            if chips:
                ledger_record_cash_out(table=table, seat=seats[seat_pk], chips=chips, by=host.user, note=why)
        log.append(
            EventKind.KITCHEN_SPREAD,
            {
                "how": str(how),
                "chips": missing,
                "shares": {str(seat_pk): chips for seat_pk, chips in sorted(shares.items())},
                "reason": why,
                "by": host.display_name,
            },
            actor=host,
        )
    return shares


def _require_everyone_counted(table: Table) -> None:
    holding = list(Seat.objects.filter(table=table, number__isnull=False).order_by("pk"))
    if holding:
        raise ServiceError(
            "still_holding",
            _("Count the chips of everyone first: %(names)s still hold theirs.")
            % {"names": ", ".join(seat.display_name for seat in holding)},
        )


def kitchen_settle(*, table_id: int, seat_id: int) -> Table:
    """The host settles the night once every chip bought is back in the bank: the game ends
    (the log's ``game_ended``) and the settle-up is final. Refused while anyone still holds
    chips (``still_holding``) or while the bank does not balance (``unbalanced``)."""
    with table_write(table_id) as (table, log):
        require_host(table, seat_id)
        _cash_night(table)
        _require_everyone_counted(table)
        totals = ledger_chip_totals(table=table)
        if totals.bought != totals.cashed_out:
            raise ServiceError(
                "unbalanced",
                _("The bank does not balance: %(bought)s chips bought, %(back)s handed back.")
                % {"bought": totals.bought, "back": totals.cashed_out},
            )
        game_end(log, reason="host")
    return table


#: The cost form's field of each refusal of ``ledger_record_cost``.
COST_FIELDS = {
    "bad_amount": "amount",
    "no_what": "what",
    "no_sharers": "shares",
    "bad_shares": "shares",
    "bad_payer": "paid_by",
}


def kitchen_cost_add(
    *, table_id: int, seat_id: int, paid_by: object, amount: object, what: object, shares: object
) -> SharedCost:
    """The host records a shared cost: who paid it, how much, and who shares it (``shares``:
    seat id -> whole shares, at least 1 each; an even split gives each 1), a line of the
    ledger's own (``ledger.services.ledger_record_cost``, which checks the money and the
    people) and the ``kitchen_cost`` event in the table's log. Refused: an amount of zero or
    less or not in cents (``bad_amount``), shared among nobody (``no_sharers``), a share below 1
    or a seat not at the table (``bad_shares``), a payer not at it (``bad_payer``), no name
    (``no_what``); a settled night (``ended``); a night of a closed season (``season_closed``:
    the season's figures never change once it closed)."""
    if Night.objects.filter(table_id=table_id, season__isnull=False).exists():
        raise ServiceError("season_closed", _("This night's season is closed; its costs can no longer change."))
    with table_write(table_id) as (table, log):
        host = require_host(table, seat_id)
        _night(table)
        try:
            cost = ledger_record_cost(
                table=table, paid_by=paid_by, amount=amount, what=what, shares=shares, by=host.user
            )
        except LedgerError as error:
            raise ServiceError(error.code, error.message, field=COST_FIELDS.get(error.code)) from None
        log.append(
            EventKind.KITCHEN_COST,
            {
                "what": cost.what,
                "amount": str(cost.amount),
                "paid_by": cost.paid_by_id,
                "payer": seat_at(table, cost.paid_by_id).display_name,
                "shares": cost.shares,
                "by": host.display_name,
            },
            actor=host,
        )
        return cost
