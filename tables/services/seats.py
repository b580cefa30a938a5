"""Seats: take one (buying in), leave, sit out and come back, buy back, add a seed.

Rule book 000: a buy-in is a stack of the table's chips at the table's price; between
hands a player may buy in again (a buy-back) within the host's limit; with fewer chips
than the boot a player is not dealt in; with no buy-backs left they watch. Rule book
001 (hold'em): everyone starts with the same stack and there are no rebuys, so seats
are taken before the game starts.
"""

from __future__ import annotations

import re
from decimal import Decimal

from django.utils.translation import gettext_lazy as _

from engine.games import get_game
from tables import selectors
from tables.events import EventKind
from tables.models import Event, Seat, Table
from tables.money import bank
from tables.services.between_hands import deal_when_ready
from tables.services.errors import ServiceError
from tables.services.hand_end import seat_cash_out_and_unseat
from tables.services.log import TableLog
from tables.services.seat_state import away_for_hand_clear, buy_backs_left, in_live_hand
from tables.services.turns import TURN_CLOCK_FIELDS, turn_clock_due, turn_clock_start, turn_timer
from tables.services.write import seat_at, table_write

_SEED_PATTERN = re.compile(r"^[A-Za-z0-9_-]{1,64}$")


def seat_take(*, table_id: int, seat_id: int, number: int | None = None) -> Seat:
    """Sit down in seat ``number`` (the lowest free one if ``None``) with a buy-in of chips.

    Coming back to the table after leaving is a buy-back and counts against the limit.
    At a table where the host approves seats, a player asks instead (``seat_ask``).
    """
    seat_number_check(number)
    with table_write(table_id) as (table, log):
        seat = seat_at(table, seat_id)
        seat_take_check(table, seat, number)
        if approval_needed(table, seat):
            raise ServiceError("ask_host", _("The host approves seats at this table: ask for one."))
        seat_take_now(log, seat, number)
    return seat


def seat_number_check(number: object) -> None:
    if number is not None and (isinstance(number, bool) or not isinstance(number, int)):
        raise ServiceError("bad_seat", _("Choose a seat by its number."))


def approval_needed(table: Table, seat: Seat) -> bool:
    """Whether ``seat`` must ask the host for a seat or a buy-back (the table's setting;
    never the host, nor a computer or a player on the host's phone, whom only the host seats)."""
    return (
        bool(table.settings.get("approve_seats"))
        and seat.user_id != table.host_id
        and not seat.computer
        and not seat.local
    )


def seat_take_check(table: Table, seat: Seat, number: int | None) -> int:
    """Refuse what would stop ``seat`` sitting down now (in ``number``, or the lowest free
    seat); return the seat number it would get. Asked again when the host approves."""
    if seat.banned:
        raise ServiceError("banned", _("The host has removed you from this game."))
    if seat.number is not None:
        raise ServiceError("already_seated", _("You already have a seat."))
    if not get_game(table.game).table_rules.seating_after_start and table.status != Table.Status.WAITING:
        raise ServiceError("already_started", _("Hold'em seats are taken before the game starts."))
    if seat.buy_ins > 0 and not buy_backs_left(table, seat):
        raise ServiceError("no_buy_backs_left", _("You have no buy-backs left; you can watch."))
    return seat_number_choose(table, number)


def seat_numbers_free(table: Table) -> list[int]:
    """The table's seat numbers nobody sits in, lowest first (1 to the ``seats`` setting)."""
    taken = set(Seat.objects.filter(table=table, number__isnull=False).values_list("number", flat=True))
    return [number for number in range(1, int(table.settings["seats"]) + 1) if number not in taken]


def seat_number_choose(table: Table, number: int | None) -> int:
    """The seat number someone sitting down gets: ``number`` if it is free, or the lowest
    free one when ``None``. A person, a computer and a player on the host's phone are all
    seated by this. Refused: ``table_full``, ``bad_seat`` (not 1 to the table's seats),
    ``seat_taken``. ``number`` is an int or ``None`` (:func:`seat_number_check`)."""
    free = seat_numbers_free(table)
    if number is None:
        if not free:
            raise ServiceError("table_full", _("Every seat is taken."))
        return free[0]
    seats = int(table.settings["seats"])
    if not 1 <= number <= seats:
        raise ServiceError("bad_seat", _("Choose a seat from 1 to %(n)s.") % {"n": seats})
    if number not in free:
        raise ServiceError("seat_taken", _("That seat is taken."))
    return number


def seat_take_now(log: TableLog, seat: Seat, number: int | None) -> None:
    """Seat ``seat`` with a buy-in (checks by :func:`seat_take_check`, done again here)."""
    table = log.table
    number = seat_take_check(table, seat, number)
    is_buy_back = seat.buy_ins > 0
    chips, price = table.buy_in_chips, Decimal(table.buy_in_price)
    seat.number = number
    seat.status = Seat.Status.PLAYING
    seat.stack += chips
    seat.buy_ins += 1
    if is_buy_back:
        seat.buy_backs_used += 1
    seat.save(update_fields=["number", "status", "stack", "buy_ins", "buy_backs_used"])
    seat_taken_record(log, seat, chips=chips, price=price, buy_back=is_buy_back)
    deal_when_ready(log)


def seat_taken_record(log: TableLog, seat: Seat, *, chips: int, price: Decimal, buy_back: bool, **mark: object) -> None:
    """Record the buy-in that put ``seat`` (saved, its stack counting ``chips``) in its seat:
    the ledger's entry, then ``seat_taken`` (with ``mark``: a computer's strength, a player
    on the host's phone). People, computers and players on the phone are seated this way."""
    bank().record_buy_in(table=log.table, seat=seat, chips=chips, price=price, is_buy_back=buy_back)
    log.append(
        EventKind.SEAT_TAKEN,
        {
            "seat": seat.pk,
            "name": seat.display_name,
            "number": seat.number,
            "stack": seat.stack,
            "chips": chips,
            "price": str(price),
            "buy_back": buy_back,
            **mark,
        },
    )


def seat_leave(*, table_id: int, seat_id: int) -> Seat:
    """Leave one's seat and cash out, unless dealt in the hand being played; then watch."""
    with table_write(table_id) as (table, log):
        seat = seat_at(table, seat_id)
        if seat.number is None:
            raise ServiceError("not_seated", _("You have no seat."))
        if in_live_hand(table, seat):
            raise ServiceError("hand_in_progress", _("Wait until this hand is over."))
        seat_cash_out_and_unseat(log, seat=seat, kind=EventKind.SEAT_LEFT)
    return seat


def seat_sit_out(*, table_id: int, seat_id: int) -> Seat:
    """Sit out from the next hand on (a hand already dealt is played to its end)."""
    with table_write(table_id) as (table, log):
        seat = seat_at(table, seat_id)
        if seat.status != Seat.Status.PLAYING or seat.number is None:
            raise ServiceError("not_playing", _("You are not playing."))
        seat.status = Seat.Status.SITTING_OUT
        seat.save(update_fields=["status"])
        log.append(EventKind.SEAT_SAT_OUT, {"seat": seat.pk})
    return seat


def seat_come_back(*, table_id: int, seat_id: int) -> Seat:
    """Come back from sitting out: dealt in from the next hand; a player the away rule sat
    out in the live hand makes their own decisions in it again from their next turn."""
    with table_write(table_id) as (table, log):
        seat = seat_at(table, seat_id)
        if seat.status != Seat.Status.SITTING_OUT:
            raise ServiceError("not_sitting_out", _("You are not sitting out."))
        seat.status = Seat.Status.PLAYING
        seat.save(update_fields=["status"])
        log.append(EventKind.SEAT_CAME_BACK, {"seat": seat.pk})
        # Away for the hand (the away rule sat them out in it): their own decisions again.
        live, state, action_seq = selectors.live_hand_and_state(table=table)
        if live is not None and away_for_hand_clear(live, str(seat.pk)) and live.to_act == str(seat.pk):
            # Their turn was on the clock as the away rule's move (turns.away_turn_clock): it
            # waits for them now, with the table's timer, as any turn.
            live.turn_seq = log.last_seq
            turn_clock_start(live, timer=turn_timer(table))
            live.save(update_fields=["turn_seq", *TURN_CLOCK_FIELDS])
            turn_clock_due(log, live)
            if state is not None:
                log.hand_now(live, state, action_seq)
        deal_when_ready(log)
    return seat


def seat_buy_back(*, table_id: int, seat_id: int) -> Seat:
    """Buy another stack between hands, within the table's buy-back limit. At a table
    where the host approves buy-backs, a player asks instead (``seat_ask``)."""
    with table_write(table_id) as (table, log):
        seat = seat_at(table, seat_id)
        seat_buy_back_check(table, seat)
        if approval_needed(table, seat):
            raise ServiceError("ask_host", _("The host approves buy-backs at this table: ask for one."))
        seat_buy_back_now(log, seat)
    return seat


def seat_buy_back_check(table: Table, seat: Seat, *, asking: bool = False) -> None:
    """Refuse what would stop ``seat`` buying in again now. ``asking``: a request may be
    made during a hand the player is in (the host approves it between hands)."""
    if seat.banned:
        raise ServiceError("banned", _("The host has removed you from this game."))
    if not get_game(table.game).table_rules.rebuys_allowed:
        raise ServiceError("not_supported", _("Hold'em here has no rebuys."))
    if seat.number is None:
        raise ServiceError("not_seated", _("Take a seat to buy in."))
    if not asking and in_live_hand(table, seat):
        raise ServiceError("hand_in_progress", _("Wait until this hand is over."))
    if not buy_backs_left(table, seat):
        raise ServiceError("no_buy_backs_left", _("You have no buy-backs left; you can watch."))


def seat_buy_back_now(log: TableLog, seat: Seat) -> None:
    """Add a stack to ``seat`` (checks by :func:`seat_buy_back_check`, done again here)."""
    table = log.table
    seat_buy_back_check(table, seat)
    chips, price = table.buy_in_chips, Decimal(table.buy_in_price)
    seat.stack += chips
    seat.buy_ins += 1
    seat.buy_backs_used += 1
    if seat.status == Seat.Status.WATCHING:
        seat.status = Seat.Status.PLAYING
    seat.save(update_fields=["stack", "buy_ins", "buy_backs_used", "status"])
    bank().record_buy_in(table=table, seat=seat, chips=chips, price=price, is_buy_back=True)
    log.append(EventKind.SEAT_BOUGHT_BACK, {"seat": seat.pk, "chips": chips, "price": str(price), "stack": seat.stack})
    deal_when_ready(log)


def seat_seed_submit(*, table_id: int, seat_id: int, seed: str) -> int:
    """Add the player's own seed to the next hand's deck (one per player per hand).

    Recorded in the log as ``player_seed`` with the hand it is for; returns that hand's number.
    """
    if not isinstance(seed, str) or not _SEED_PATTERN.match(seed):
        raise ServiceError("bad_seed", _("A seed is 1 to 64 letters, digits, '-' or '_'."))
    with table_write(table_id) as (table, log):
        seat = seat_at(table, seat_id)
        for_hand = table.hands_played + 1
        if Event.objects.filter(
            table=table, kind=EventKind.PLAYER_SEED, actor=seat, payload__for_hand=for_hand
        ).exists():
            raise ServiceError("seed_given", _("You have already added a seed for the next hand."))
        log.append(EventKind.PLAYER_SEED, {"seat": seat.pk, "seed": seed, "for_hand": for_hand}, actor=seat)
    return for_hand
