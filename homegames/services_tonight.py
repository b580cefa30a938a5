"""Tonight's table opened from the plan: online from the night's template
(:func:`night_open_table`), or with a table another app opens (:func:`night_open_with`: a
night at the kitchen table, docs/kitchen-table.md); and a member who is coming taking their
place at it (:func:`night_take_seat`). Keyword-only, one transaction each; every refusal
raises :class:`homegames.services.NightError` and writes nothing.

Each opening first locks the planned night's row (``night_for_opening``), so two at once
never open two tables: the second waits for the first, then finds the night open. It reads
the night's ``table_id``, not its joined table: on PostgreSQL a row read again after
waiting for its lock has the new table's id, but the table row itself, made by the other
transaction, is not in the waiting statement's snapshot, so the join finds none.

A night is opened on the night itself: from ``OPENS_BEFORE`` (12 hours) before its planned
start until it is behind us (``TONIGHT``, 12 hours after it); before, the table is refused
(``too_early``) and its page offers no opening (docs/home-games.md, "Tonight's table").
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime, timedelta
from typing import TYPE_CHECKING

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from accounts.models import User
from homegames.models import Night
from homegames.selectors import TONIGHT, night_answers, user_can_view_home_game
from homegames.services import NightError, night_for_opening
from tables import services as table_services
from tables.models import Table
from tables.services.errors import ServiceError

if TYPE_CHECKING:
    from tables.models import Seat

#: How long before its planned start a night's table may be opened (at home or at the
#: kitchen table): on the night itself, not days ahead.
OPENS_BEFORE = timedelta(hours=12)


def night_opens_at(night: Night) -> datetime:
    """When the night's table may first be opened (``OPENS_BEFORE`` its start)."""
    return night.start - OPENS_BEFORE


def night_too_early(night: Night, now: datetime | None = None) -> bool:
    """Whether the night is too far ahead for its table to be opened yet. Compared without
    subtracting from the start, so a night stored at the calendar's very start cannot
    overflow."""
    return night.start > (now or timezone.now()) + OPENS_BEFORE


@transaction.atomic
def night_open_table(*, night: Night, by: User) -> Table:
    """The host or a co-host opens tonight's table from the night's template, linked to the
    night and counted as a night of the home game, and sits down at it if she is coming
    (said yes, within the seat limit). Once: a second call returns the same table. Refused
    as :func:`night_open_with` refuses, but for a night already open."""
    night = night_for_opening(night, by)
    if night.table_id is not None:  # the id: a table opened meanwhile is not in this snapshot
        return Table.objects.get(pk=night.table_id)
    _on_the_night(night)
    try:
        table = table_services.table_create(host=by, game=night.plan_template.game, choices=night.plan_template.choices)
    except ServiceError as error:
        raise NightError(error.code, error.message) from error
    _link(night, table)
    if night_answers(night=night).place_of(by.pk) == "coming":
        night_take_seat(night=night, user=by)  # she said yes: she plays, as everyone coming does
    return table


@transaction.atomic
def night_open_with(*, night: Night, by: User, open_table: Callable[[], Table]) -> Table:
    """The host or a co-host opens the night with a table another app opens (``open_table``:
    a night at the kitchen table), linked to the night and counted as a night of the home
    game. Refused, opening nothing: a night already open, online or not, or played
    (``opened``), a night behind us (``past``: started more than 12 hours ago), a night not
    yet on its day (``too_early``: more than ``OPENS_BEFORE`` before its start), a cancelled
    one (``cancelled``), anyone but the host or a co-host (``not_co_host``), and whatever
    ``open_table`` refuses."""
    night = night_for_opening(night, by)
    if night.table_id is not None:
        raise NightError("opened", _("Tonight's table is already open."))
    _on_the_night(night)
    try:
        table = open_table()
    except ServiceError as error:
        raise NightError(error.code, error.message) from error
    _link(night, table)
    return table


def _on_the_night(night: Night) -> None:
    now = timezone.now()
    if night.start < now - TONIGHT:
        raise NightError("past", _("This night is behind us; it can no longer be opened."))
    if night_too_early(night, now):
        raise NightError(
            "too_early",
            _("Tonight's table can be opened on the night itself, from %(hours)d hours before it starts.")
            % {"hours": OPENS_BEFORE // timedelta(hours=1)},
        )


def _link(night: Night, table: Table) -> None:
    night.table, night.added_at = table, timezone.now()
    night.save(update_fields=["table", "added_at"])


@transaction.atomic
def night_take_seat(*, night: Night, user: User) -> Seat:
    """A member who is coming joins tonight's table and sits down, without its invite link
    (the night vouches for them); a night at the kitchen table they join only (a buy-in is
    asked for on its page). Others are refused. Joining and the seat (or asking the host
    for it) are one transaction: a seat refused leaves no join behind."""
    night = Night.objects.planned().select_related("home_game", "table").get(pk=night.pk)
    if not user_can_view_home_game(user=user, home_game=night.home_game):
        raise NightError("not_member", _("Only the home game's members answer."))
    table = night.table
    if table is None:
        raise NightError("not_open", _("Tonight's table is not open yet."))
    if table.ended_at is not None:
        raise NightError("played", _("This night has been played; its table has ended."))
    if night_answers(night=night).place_of(user.pk) != "coming":
        raise NightError("not_coming", _("Only members who said yes and have a seat can sit down from here."))
    try:
        seat = table_services.table_join(
            code=table.code, invite_token=table.invite_token, user=user, guest_name=None, guest_token=None
        )
        if table.settings.get("not_dealt"):
            return seat  # a night at the kitchen table: at it, a buy-in is asked for on its page
        try:
            table_services.seat_take(table_id=table.pk, seat_id=seat.pk)
        except ServiceError as error:
            if error.code != "ask_host":
                raise
            table_services.seat_ask(table_id=table.pk, seat_id=seat.pk, what="seat")
    except ServiceError as error:
        raise NightError(error.code, error.message) from error
    return seat
