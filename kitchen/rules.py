"""The rules of a kitchen night both its bank and its tournament read: whether the night is a
tournament, where its clock is, whether re-buys are open, who is still in."""

from __future__ import annotations

from datetime import datetime

from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from kitchen.clock import ClockState, clock_state
from kitchen.models import Elimination, TournamentClock
from tables.models import Seat, Table
from tables.services import ServiceError


def tournament_of(table: Table) -> TournamentClock | None:
    return TournamentClock.objects.filter(night__table=table).first()


def state_now(clock: TournamentClock, now: datetime | None = None) -> ClockState:
    return clock_state(
        clock.levels,
        elapsed_ms=clock.elapsed_ms,
        running_since=clock.running_since,
        started=clock.started,
        now=now or timezone.now(),
    )


def rebuys_open(clock: TournamentClock, now: datetime | None = None) -> bool:
    """Whether a buy-in after the start is allowed now: while the clock has not passed the
    last re-buy level (a break right after it still counts)."""
    state = state_now(clock, now)
    played = sum(1 for level in clock.levels[: state.index + 1] if not level.get("break"))
    return played <= clock.rebuy_levels


def tournament_buy_in_check(table: Table, player: Seat) -> None:
    """Called by ``kitchen_buy_in`` at a tournament: refuse a player already out
    (``already_out``) and any buy-in after the start outside the re-buy period (``rebuy_closed``)."""
    clock = tournament_of(table)
    if clock is None:
        return
    if Elimination.objects.filter(seat=player).exists():
        raise ServiceError("already_out", _("%(name)s is out of the tournament.") % {"name": player.display_name})
    if (clock.started or player.buy_ins > 0) and not (clock.started and rebuys_open(clock)):
        raise ServiceError("rebuy_closed", _("The re-buy period is over."))


def tournament_new_player_check(table: Table) -> None:
    """Called by ``kitchen_add`` at a tournament: a person added by name buys in at once, so
    after the start only in the re-buy period (``rebuy_closed``)."""
    clock = tournament_of(table)
    if clock is not None and clock.started and not rebuys_open(clock):
        raise ServiceError("rebuy_closed", _("The re-buy period is over."))


def players_in(table: Table) -> list[Seat]:
    """The players who bought in and are not out, first to join first."""
    out = set(Elimination.objects.filter(clock__night__table=table).values_list("seat_id", flat=True))
    return [seat for seat in Seat.objects.filter(table=table, buy_ins__gt=0).order_by("pk") if seat.pk not in out]


def addon_phase(clock: TournamentClock, now: datetime | None = None) -> str:
    """Where the tournament is with its add-on: ``"none"`` (not allowed), ``"later"`` (the
    clock has not reached the add-on level), ``"open"`` (at the add-on level, a playing
    level, breaks not counted, or a break right after it) or ``"over"`` (a level after it
    has begun)."""
    if not clock.addon_level:
        return "none"
    if not clock.started:
        return "later"
    state = state_now(clock, now)
    played = sum(1 for level in clock.levels[: state.index + 1] if not level.get("break"))
    if played < clock.addon_level:
        return "later"
    return "open" if played == clock.addon_level else "over"


def addon_open(clock: TournamentClock, now: datetime | None = None) -> bool:
    """Whether the add-on can be bought now (``addon_phase`` is ``"open"``)."""
    return addon_phase(clock, now) == "open"
