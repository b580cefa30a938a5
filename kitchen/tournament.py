"""Writing a hold'em tournament at the kitchen table: opening it with its structure, the
clock (start, pause, resume, level back), re-buys in their period, eliminations in order and
the prizes by places (docs/kitchen-table.md, "The tournament"). The clock's state is stored
and derived from stored times (``kitchen.clock``). Same rules as ``kitchen.services``: the
tables' write path, the ledger's services, ``ServiceError`` refusals that write nothing."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from kitchen.addons import addon_check
from kitchen.clock import LevelError, check_levels, level_start_ms
from kitchen.models import Elimination, KitchenNight, TournamentClock
from kitchen.record import level_now, levels_reached
from kitchen.rules import players_in, state_now
from kitchen.services import kitchen_open
from ledger.selectors import ledger_chip_totals
from ledger.services import LedgerError, ledger_record_prizes
from tables.events import EventKind
from tables.models import Seat, Table
from tables.services import ServiceError
from tables.services.hand_end import game_end, seat_cash_out_and_unseat
from tables.services.hosting import require_host
from tables.services.write import seat_at, table_write

if TYPE_CHECKING:
    from accounts.models import User
    from homegames.models import HomeGame

#: Going back within this much of a level's start goes to the level before (as a clock's
#: "back" button does), else to the start of the level being played.
BACK_GRACE_MS = 5_000

_LEVEL_REFUSALS = {
    "no_levels": _("Give 1 to 60 levels."),
    "bad_length": _("Level %(n)s: a level lasts more than 0 minutes and at most 4 hours."),
    "bad_blinds": _(
        "Level %(n)s: blinds are whole numbers, the small blind above 0 and at most the big blind, the ante 0 or more."
    ),
    "break_first": _("A tournament starts with a level, not a break."),
}


def _levels(levels: object) -> list[dict[str, Any]]:
    try:
        return check_levels(levels)
    except LevelError as error:
        number = {"n": (error.index or 0) + 1}
        raise ServiceError("bad_levels", _LEVEL_REFUSALS[error.code] % number, field="levels") from None


def _payouts(payouts: object) -> list[int]:
    if (
        not isinstance(payouts, list)
        or not payouts
        or any(isinstance(p, bool) or not isinstance(p, int) or p < 1 for p in payouts)
        or sum(payouts) != 100
    ):
        raise ServiceError(
            "bad_payouts",
            _("A payout table is whole percents of at least 1, one a place, adding up to 100."),
            field="payouts",
        )
    return list(payouts)


def kitchen_tournament_open(
    *,
    host: User,
    starting_chips: object,
    buy_in_price: object,
    currency: object = "",
    levels: object,
    rebuy_levels: object = 0,
    payouts: object,
    addon_level: object = 0,
    addon_chips: object = 0,
    home_game: HomeGame | None = None,
) -> Table:
    """Open a kitchen night that is a hold'em tournament: a buy-in is the starting chips at
    its price; re-buys are allowed through level ``rebuy_levels`` (0: none); an add-on of
    ``addon_chips`` at the night's chip value at level ``addon_level`` (0: none,
    ``kitchen.addons``); the pool is shared by ``payouts`` (percent a place, first place first)."""
    clean_levels, clean_payouts = _levels(levels), _payouts(payouts)
    if (
        isinstance(rebuy_levels, bool)
        or not isinstance(rebuy_levels, int)
        or not 0 <= rebuy_levels <= len(clean_levels)
    ):
        raise ServiceError(
            "bad_rebuys", _("Re-buys are allowed through a level of the structure, or none (0)."), field="rebuy_levels"
        )
    with transaction.atomic():
        table = kitchen_open(
            host=host, buy_in_chips=starting_chips, buy_in_price=buy_in_price, currency=currency, home_game=home_game
        )
        level, chips = addon_check(table, clean_levels, addon_level, addon_chips)
        TournamentClock.objects.create(
            night=KitchenNight.objects.get(table=table),
            levels=clean_levels,
            rebuy_levels=rebuy_levels,
            payouts=clean_payouts,
            addon_level=level,
            addon_chips=chips,
        )
    return table


def _clock_for_host(table: Table, seat_id: int) -> TournamentClock:
    require_host(table, seat_id)
    clock = TournamentClock.objects.select_for_update().filter(night__table=table).first()
    if clock is None:
        raise ServiceError("no_clock", _("This night has no tournament clock."))
    return clock


def _clock_logged(log: Any, table: Table, seat_id: int, clock: TournamentClock, action: str) -> None:
    """The host's clock action in the log, with the level the clock is at after it."""
    host = seat_at(table, seat_id)
    level = state_now(clock).index + 1
    log.append(EventKind.KITCHEN_CLOCK, {"action": action, "level": level, "by": host.display_name}, actor=host)


def kitchen_clock_start(*, table_id: int, seat_id: int) -> TournamentClock:
    """The host starts the clock (refused once started: ``already_started``)."""
    with table_write(table_id) as (table, log):
        clock = _clock_for_host(table, seat_id)
        if clock.started:
            raise ServiceError("already_started", _("The clock is already running."))
        clock.started, clock.running_since, clock.elapsed_ms = True, timezone.now(), 0
        clock.save(update_fields=["started", "running_since", "elapsed_ms"])
        _clock_logged(log, table, seat_id, clock, "start")
        level_now(log, clock, 0, clock.running_since)
    return clock


def kitchen_clock_pause(*, table_id: int, seat_id: int) -> TournamentClock:
    """The host pauses the clock: the time played so far is stored (``not_running`` if it is not running)."""
    with table_write(table_id) as (table, log):
        clock = _clock_for_host(table, seat_id)
        if clock.running_since is None:
            raise ServiceError("not_running", _("The clock is not running."))
        now = timezone.now()
        levels_reached(log, table, clock, now)
        clock.elapsed_ms = state_now(clock, now).elapsed_ms
        clock.running_since = None
        clock.save(update_fields=["elapsed_ms", "running_since"])
        _clock_logged(log, table, seat_id, clock, "pause")
    return clock


def kitchen_clock_resume(*, table_id: int, seat_id: int) -> TournamentClock:
    """The host resumes a paused clock (``not_paused`` otherwise)."""
    with table_write(table_id) as (table, log):
        clock = _clock_for_host(table, seat_id)
        if not clock.started or clock.running_since is not None:
            raise ServiceError("not_paused", _("The clock is not paused."))
        clock.running_since = timezone.now()
        clock.save(update_fields=["running_since"])
        _clock_logged(log, table, seat_id, clock, "resume")
    return clock


def kitchen_clock_back(*, table_id: int, seat_id: int) -> TournamentClock:
    """The host takes the clock back to the start of this level, or to the level before
    within 5 seconds of this level's start; running or paused, it stays so."""
    with table_write(table_id) as (table, log):
        clock = _clock_for_host(table, seat_id)
        if not clock.started:
            raise ServiceError("not_started", _("The clock has not started."))
        now = timezone.now()
        levels_reached(log, table, clock, now)
        state = state_now(clock, now)
        start = level_start_ms(clock.levels, state.index)
        index = state.index - 1 if state.elapsed_ms - start < BACK_GRACE_MS and state.index > 0 else state.index
        clock.elapsed_ms = level_start_ms(clock.levels, index)
        if clock.running_since is not None:
            clock.running_since = now
        clock.save(update_fields=["elapsed_ms", "running_since"])
        _clock_logged(log, table, seat_id, clock, "back")
        level_now(log, clock, index, now)
    return clock


def kitchen_eliminate(*, table_id: int, seat_id: int, player_seat_ids: object) -> int:
    """The host records the players going out, in order: one, or several in the same hand
    (they share the place: with *n* players left, *k* going out together all get place
    *n - k + 1* and share the prizes of the places they cover). When one player is left the
    tournament ends: they are first, the prizes are recorded by the ledger (by places, to the
    cent) and the table's game ends. Returns the place given.

    Refused: nobody chosen or a player twice (``bad_players``), a player already out or who
    never bought in (``already_out``), everyone left at once (``last_player``), the clock not
    started (``not_started``)."""
    if (
        not isinstance(player_seat_ids, list)
        or not player_seat_ids
        or any(isinstance(s, bool) or not isinstance(s, int) for s in player_seat_ids)
        or len(set(player_seat_ids)) != len(player_seat_ids)
    ):
        raise ServiceError("bad_players", _("Choose who goes out."))
    with table_write(table_id) as (table, log):
        clock = _clock_for_host(table, seat_id)
        if not clock.started:
            raise ServiceError("not_started", _("The clock has not started."))
        remaining = players_in(table)
        by_id = {seat.pk: seat for seat in remaining}
        for player_id in player_seat_ids:
            if player_id not in by_id:
                player = seat_at(table, player_id)
                raise ServiceError(
                    "already_out", _("%(name)s is out of the tournament.") % {"name": player.display_name}
                )
        if len(player_seat_ids) >= len(remaining):
            raise ServiceError("last_player", _("Someone must be left to win."))
        place = len(remaining) - len(player_seat_ids) + 1
        levels_reached(log, table, clock, timezone.now())
        log.append(
            EventKind.KITCHEN_OUT,
            {
                "seats": list(player_seat_ids),
                "names": [by_id[player_id].display_name for player_id in player_seat_ids],
                "place": place,
            },
            actor=seat_at(table, seat_id),
        )
        for player_id in player_seat_ids:
            player = by_id[player_id]
            Elimination.objects.create(clock=clock, seat=player, place=place)
            player.stack = 0  # a player out has no chips left: nothing is cashed out
            seat_cash_out_and_unseat(log, seat=player, kind=EventKind.SEAT_OUT)
        if len(remaining) - len(player_seat_ids) == 1:
            _finish(log, table, clock, winner=next(s for s in remaining if s.pk not in player_seat_ids))
    return place


def _finish(log: Any, table: Table, clock: TournamentClock, *, winner: Seat) -> None:
    Elimination.objects.create(clock=clock, seat=winner, place=1)
    totals = ledger_chip_totals(table=table)
    winner.stack = totals.bought - totals.cashed_out  # every chip of the tournament
    winner.save(update_fields=["stack"])
    places = dict(Elimination.objects.filter(clock=clock).values_list("seat_id", "place"))
    try:
        ledger_record_prizes(table=table, places=places, payouts=clock.payouts, by=table.host)
    except LedgerError as error:
        raise ServiceError(error.code, error.message) from None
    if clock.running_since is not None:
        clock.elapsed_ms = state_now(clock).elapsed_ms
        clock.running_since = None
        clock.save(update_fields=["elapsed_ms", "running_since"])
    game_end(log, reason="host")
