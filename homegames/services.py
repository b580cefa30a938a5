"""Writing the nights ahead: templates, scheduling, moving and cancelling, answers, and
tonight's table opened from the plan. Keyword-only, one transaction each; every refusal
raises :class:`NightError` (``code`` stable, ``message`` translated) and writes nothing.

Who may: the host and co-hosts keep templates, schedule, move, cancel and open tables
(``ledger.selectors.user_is_co_host``); members answer for themselves only.
"""

from __future__ import annotations

from datetime import datetime
from typing import TYPE_CHECKING, Any

from django.db import transaction
from django.utils import timezone
from django.utils.encoding import force_str
from django.utils.translation import gettext_lazy as _

from homegames.models import Answer, MemberPrefs, NightTemplate, PlannedNight
from homegames.selectors import night_answers, zone_name_valid
from ledger.selectors import user_can_view_home_game, user_is_co_host
from ledger.services import home_game_add_planned_table
from tables import services as table_services
from tables.services.errors import ServiceError
from tables.services.settings import table_settings_build

if TYPE_CHECKING:
    from django_stubs_ext import StrPromise

    from accounts.models import User
    from ledger.models import HomeGame
    from tables.models import Seat, Table

GAMES = ("faras", "classic", "999", "holdem")


class NightError(ValueError):
    def __init__(self, code: str, message: str | StrPromise) -> None:
        super().__init__(force_str(message))
        self.code = code
        self.message = message


def _require_co_host(home_game: HomeGame, by: User) -> None:
    if not user_is_co_host(user=by, home_game=home_game):
        raise NightError("not_co_host", _("Only the host or a co-host can plan nights."))


def _locked(night: PlannedNight) -> PlannedNight:
    return PlannedNight.objects.select_for_update().select_related("home_game", "template").get(pk=night.pk)


@transaction.atomic
def member_prefs_save(*, user: User, time_zone: str) -> MemberPrefs:
    if not zone_name_valid(time_zone):
        raise NightError("bad_zone", _("Choose a time zone from the list."))
    prefs, _created = MemberPrefs.objects.update_or_create(user=user, defaults={"time_zone": time_zone})
    return prefs


@transaction.atomic
def night_template_save(
    *, home_game: HomeGame, name: str, game: str, choices: dict[str, Any], by: User
) -> NightTemplate:
    """A template of table settings the home game keeps, checked as opening a table checks them."""
    _require_co_host(home_game, by)
    name = " ".join((name or "").split())
    if not name or len(name) > 60:
        raise NightError("bad_name", _("A template needs a name of at most 60 characters."))
    if game not in GAMES:
        raise NightError("bad_game", _("Choose one of the games."))
    try:
        table_settings_build(game=game, choices=choices)
    except ServiceError as error:
        raise NightError("bad_settings", error.message) from error
    return NightTemplate.objects.create(home_game=home_game, name=name, game=game, choices=dict(choices))


def _seat_range(template: NightTemplate) -> tuple[int, int]:
    built = table_settings_build(game=template.game, choices=template.choices)
    return 2, int(built["seats"])


def _check_night_fields(
    *, home_game: HomeGame, template: NightTemplate, starts_at: datetime, place: str, seat_limit: int
) -> str:
    if template.home_game_id != home_game.pk:
        raise NightError("wrong_template", _("That template belongs to another home game."))
    if timezone.is_naive(starts_at):
        raise NightError("bad_time", _("A night needs a date and a time."))
    if starts_at <= timezone.now():
        raise NightError("in_past", _("A night cannot start in the past."))
    place = " ".join((place or "").split())
    if not place or len(place) > 200:
        raise NightError("bad_place", _("Say where the night is, in at most 200 characters."))
    low, high = _seat_range(template)
    if isinstance(seat_limit, bool) or not isinstance(seat_limit, int) or not low <= seat_limit <= high:
        raise NightError(
            "bad_seat_limit",
            _("The seat limit is from %(low)d to %(high)d (the template's table).") % {"low": low, "high": high},
        )
    return place


@transaction.atomic
def night_schedule(
    *,
    home_game: HomeGame,
    template: NightTemplate,
    starts_at: datetime,
    time_zone: str,
    place: str,
    seat_limit: int,
    by: User,
) -> PlannedNight:
    """The host or a co-host puts a night on the calendar."""
    _require_co_host(home_game, by)
    place = _check_night_fields(
        home_game=home_game, template=template, starts_at=starts_at, place=place, seat_limit=seat_limit
    )
    return PlannedNight.objects.create(
        home_game=home_game,
        template=template,
        starts_at=starts_at,
        time_zone=time_zone if zone_name_valid(time_zone) else "UTC",
        place=place,
        seat_limit=seat_limit,
        created_by=by,
    )


def _require_open(night: PlannedNight) -> None:
    if night.is_cancelled:
        raise NightError("cancelled", _("This night has been cancelled."))


@transaction.atomic
def night_update(
    *, night: PlannedNight, starts_at: datetime, place: str, seat_limit: int, by: User
) -> tuple[PlannedNight, bool]:
    """Move a night, change its place or seat limit. Returns the night and whether its time
    changed. The seat limit cannot drop below the members already coming."""
    night = _locked(night)
    _require_co_host(night.home_game, by)
    _require_open(night)
    if night.table_id is not None:
        raise NightError("opened", _("Tonight's table is open; the night can no longer be changed."))
    place = _check_night_fields(
        home_game=night.home_game, template=night.template, starts_at=starts_at, place=place, seat_limit=seat_limit
    )
    coming = len(night_answers(night=night).coming)
    if seat_limit < coming:
        raise NightError(
            "below_coming",
            _("%(count)d members are already coming; the seat limit cannot be lower.") % {"count": coming},
        )
    moved = starts_at != night.starts_at
    night.starts_at, night.place, night.seat_limit = starts_at, place, seat_limit
    night.save(update_fields=["starts_at", "place", "seat_limit"])
    return night, moved


@transaction.atomic
def night_cancel(*, night: PlannedNight, by: User) -> PlannedNight:
    night = _locked(night)
    _require_co_host(night.home_game, by)
    _require_open(night)
    if night.table_id is not None:
        raise NightError("opened", _("Tonight's table is open; the night can no longer be changed."))
    night.status = PlannedNight.Status.CANCELLED
    night.save(update_fields=["status"])
    return night


@transaction.atomic
def night_answer(*, night: PlannedNight, user: User, reply: str) -> Answer:
    """A member answers for themselves. A yes past the seat limit waits, in the order given,
    and moves up by itself when someone coming says no or maybe."""
    night = _locked(night)  # one answer at a time per night: the waiting list's order is the yeses'
    if not user_can_view_home_game(user=user, home_game=night.home_game):
        raise NightError("not_member", _("Only the home game's members answer."))
    _require_open(night)
    if night.starts_at <= timezone.now():
        raise NightError("started", _("This night has started; answers are closed."))
    if reply not in Answer.Reply.values:
        raise NightError("bad_reply", _("Answer yes, maybe or no."))
    answer = Answer.objects.filter(night=night, user=user).first()
    if answer is None:
        answer = Answer(night=night, user=user)
    if reply == Answer.Reply.YES:
        if answer.reply != Answer.Reply.YES or answer.yes_at is None:
            answer.yes_at = timezone.now()
    else:
        answer.yes_at = None
    answer.reply = reply
    answer.save()
    return answer


@transaction.atomic
def night_open_table(*, night: PlannedNight, by: User) -> Table:
    """The host or a co-host opens tonight's table from the night's template, linked to the
    night and counted as a night of the home game. Once: a second call returns the same table."""
    night = _locked(night)
    _require_co_host(night.home_game, by)
    _require_open(night)
    if night.table is not None:
        return night.table
    try:
        table = table_services.table_create(host=by, game=night.template.game, choices=night.template.choices)
    except ServiceError as error:
        raise NightError(error.code, error.message) from error
    night.table = table
    night.save(update_fields=["table"])
    home_game_add_planned_table(home_game=night.home_game, table=table)
    return table


def night_take_seat(*, night: PlannedNight, user: User) -> Seat:
    """A member who is coming joins tonight's table and sits down, without its invite link
    (the night vouches for them). Others are refused."""
    night = PlannedNight.objects.select_related("home_game", "table").get(pk=night.pk)
    if not user_can_view_home_game(user=user, home_game=night.home_game):
        raise NightError("not_member", _("Only the home game's members answer."))
    table = night.table
    if table is None:
        raise NightError("not_open", _("Tonight's table is not open yet."))
    if night_answers(night=night).place_of(user.pk) != "coming":
        raise NightError("not_coming", _("Only members who said yes and have a seat can sit down from here."))
    try:
        seat = table_services.table_join(
            code=table.code, invite_token=table.invite_token, user=user, guest_name=None, guest_token=None
        )
        try:
            table_services.seat_take(table_id=table.pk, seat_id=seat.pk)
        except ServiceError as error:
            if error.code != "ask_host":
                raise
            table_services.seat_ask(table_id=table.pk, seat_id=seat.pk, what="seat")
    except ServiceError as error:
        raise NightError(error.code, error.message) from error
    return seat
