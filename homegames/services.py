"""Writing the nights ahead: templates, scheduling, moving and cancelling, answers
(tonight's table opened from the plan: ``homegames.services_tonight``). Keyword-only, one
transaction each; every refusal raises :class:`NightError` (``code`` stable, ``message`` translated) and writes nothing.

Who may: the host and co-hosts keep templates, schedule, move, cancel and open tables
(``homegames.selectors.user_is_co_host``); members answer for themselves only.
"""

from __future__ import annotations

import logging
import zoneinfo
from datetime import UTC, date, datetime, time, timedelta
from typing import TYPE_CHECKING, Any

from django.conf import settings
from django.db import DatabaseError, transaction
from django.db.models import Max, Min, Q
from django.utils import timezone
from django.utils.encoding import force_str
from django.utils.translation import gettext_lazy as _

from accounts.models import User
from homegames.mail import ANSWER_DIGEST_DELAY, notice_message
from homegames.models import (
    Answer,
    HomeGame,
    MemberPrefs,
    Night,
    NightTemplate,
    Notice,
)
from homegames.selectors import night_answers, user_can_view_home_game, user_is_co_host, zone_name_valid
from tables.services.errors import ServiceError
from tables.services.table_settings import table_settings_build

if TYPE_CHECKING:
    from django_stubs_ext import StrPromise

logger = logging.getLogger(__name__)

GAMES = ("faras", "classic", "999", "holdem")


class NightError(ValueError):
    def __init__(self, code: str, message: str | StrPromise) -> None:
        super().__init__(force_str(message))
        self.code = code
        self.message = message


def _require_co_host(home_game: HomeGame, by: User) -> None:
    if not user_is_co_host(user=by, home_game=home_game):
        raise NightError("not_co_host", _("Only the host or a co-host can plan nights."))


def _locked(night: Night) -> Night:
    return (
        Night.objects.planned()
        .select_for_update(of=("self",))
        .select_related("home_game", "template", "table")
        .get(pk=night.pk)
    )


@transaction.atomic
def member_prefs_save(*, user: User, time_zone: str, reminders: bool = True) -> MemberPrefs:
    if not zone_name_valid(time_zone):
        raise NightError("bad_zone", _("Choose a time zone from the list."))
    prefs, _created = MemberPrefs.objects.update_or_create(
        user=user, defaults={"time_zone": time_zone, "reminders": bool(reminders)}
    )
    return prefs


def zone_of_new_account(*, user: User, time_zone: str, **_signal: Any) -> None:
    """``accounts.signals.signed_up``'s receiver: the zone confirmed at sign-up kept as the
    new member's (reminders on, as for anyone who never chose); none sent, none kept (the
    nights' pages then propose the browser's, ``{% zone_prompt %}``)."""
    if time_zone:
        member_prefs_save(user=user, time_zone=time_zone)


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


#: How far ahead a night may be planned. Every time within it can be shown in every zone
#: (UTC-12 to UTC+14), and every reminder before it computed, without leaving the calendar.
NIGHT_AHEAD = timedelta(days=730)


def night_start_local(*, day: date, at: time, zone: zoneinfo.ZoneInfo) -> datetime:
    """The start of a night entered as a date and a wall-clock time in ``zone``.

    Refused: a date more than ``NIGHT_AHEAD`` away (``too_far``: checked on the date itself,
    before any conversion, so no date can overflow one), a time that does not exist on that
    day in ``zone`` (``no_such_time``: the clocks go forward past it) and a time that happens
    twice (``twice_time``: the clocks go back over it; which of the two was meant is not
    guessed)."""
    if day > (timezone.now() + NIGHT_AHEAD).date():
        raise NightError("too_far", _("A night can be planned at most two years ahead."))
    naive = datetime.combine(day, at.replace(tzinfo=None))
    earlier, later = naive.replace(tzinfo=zone, fold=0), naive.replace(tzinfo=zone, fold=1)
    if earlier.utcoffset() != later.utcoffset():
        shown = {"time": f"{naive:%H:%M}", "zone": str(zone)}
        if earlier.astimezone(UTC).astimezone(zone).replace(tzinfo=None) != naive:
            raise NightError(
                "no_such_time",
                _("%(time)s does not exist on that day in %(zone)s: the clocks go forward. Choose another time.")
                % shown,
            )
        raise NightError(
            "twice_time",
            _("%(time)s happens twice on that day in %(zone)s: the clocks go back. Choose another time.") % shown,
        )
    return earlier


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
    now = timezone.now()
    try:
        starts_at = starts_at.astimezone(UTC)
    except OverflowError:  # a date at the calendar's end, in a zone west of UTC
        raise NightError("too_far", _("A night can be planned at most two years ahead.")) from None
    if starts_at <= now:
        raise NightError("in_past", _("A night cannot start in the past."))
    if starts_at > now + NIGHT_AHEAD:
        raise NightError("too_far", _("A night can be planned at most two years ahead."))
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
) -> Night:
    """The host or a co-host puts a night on the calendar."""
    _require_co_host(home_game, by)
    # One at a time with joining (``invitations_of_new_members`` locks this row too): a member
    # who joins meanwhile is invited here or there, never by neither.
    HomeGame.objects.select_for_update().filter(pk=home_game.pk).first()
    place = _check_night_fields(
        home_game=home_game, template=template, starts_at=starts_at, place=place, seat_limit=seat_limit
    )
    night = Night.objects.create(
        home_game=home_game,
        template=template,
        starts_at=starts_at,
        time_zone=time_zone if zone_name_valid(time_zone) else "UTC",
        place=place,
        seat_limit=seat_limit,
        created_by=by,
    )
    now = timezone.now()
    for user_id in _members_of(home_game):
        if user_id != by.pk:
            _notice(night, user_id, Notice.Kind.INVITATION, now)
    return night


def _require_open(night: Night) -> None:
    if night.is_cancelled:
        raise NightError("cancelled", _("This night has been cancelled."))


@transaction.atomic
def night_update(*, night: Night, starts_at: datetime, place: str, seat_limit: int, by: User) -> tuple[Night, bool]:
    """Move a night, change its place or seat limit. Returns the night and whether its time
    changed. The seat limit cannot drop below the members already coming."""
    night = _locked(night)
    _require_co_host(night.home_game, by)
    _require_open(night)
    if night.table_id is not None:
        raise NightError("opened", _("Tonight's table is open; the night can no longer be changed."))
    place = _check_night_fields(
        home_game=night.home_game, template=night.plan_template, starts_at=starts_at, place=place, seat_limit=seat_limit
    )
    coming = len(night_answers(night=night).coming)
    if seat_limit < coming:
        raise NightError(
            "below_coming",
            _("%(count)d members are already coming; the seat limit cannot be lower.") % {"count": coming},
        )
    moved = starts_at != night.start
    moved_from = night.start
    coming_before = _coming_ids(night)
    night.starts_at, night.place, night.seat_limit = starts_at, place, seat_limit
    if moved:
        night.version += 1  # the reminders of the old time are not sent
    night.save(update_fields=["starts_at", "place", "seat_limit", "version"])
    if moved:
        now = timezone.now()
        _notify_moved(night, moved_from, now)
        for answer in night.answers.exclude(reply=Answer.Reply.NO):
            _reminders_for(night, answer.user_id, now)
    _tell_moved_up(night, coming_before, timezone.now())  # a higher seat limit seats the first who wait
    return night, moved


@transaction.atomic
def night_cancel(*, night: Night, by: User) -> Night:
    night = _locked(night)
    _require_co_host(night.home_game, by)
    _require_open(night)
    if night.table_id is not None:
        raise NightError("opened", _("Tonight's table is open; the night can no longer be changed."))
    night.status = Night.Status.CANCELLED
    night.save(update_fields=["status"])
    _notify_answered(night, Notice.Kind.CANCELLED, timezone.now())
    return night


#: Longest comment with an answer ("30 min late").
COMMENT_MOST = 100


@transaction.atomic
def night_answer(*, night: Night, user: User, reply: str, comment: str = "") -> Answer:
    """A member answers for themselves, with a few words if they like. A yes past the seat
    limit waits, in the order given, and moves up by itself when someone coming says no or
    maybe. The host hears of it in one digest mail (``ANSWER_DIGEST_DELAY``)."""
    night = _locked(night)  # one answer at a time per night: the waiting list's order is the yeses'
    if not user_can_view_home_game(user=user, home_game=night.home_game):
        raise NightError("not_member", _("Only the home game's members answer."))
    _require_open(night)
    if night.start <= timezone.now():
        raise NightError("started", _("This night has started; answers are closed."))
    if night.is_played:
        raise NightError("played", _("This night has been played; answers are closed."))
    if reply not in Answer.Reply.values:
        raise NightError("bad_reply", _("Answer yes, maybe or no."))
    comment = " ".join((comment or "").split())
    if len(comment) > COMMENT_MOST:
        raise NightError("bad_comment", _("A comment has at most 100 characters."))
    coming_before = _coming_ids(night)
    answer = Answer.objects.filter(night=night, user=user).first()
    if answer is None:
        answer = Answer(night=night, user=user)
    if reply == Answer.Reply.YES:
        if answer.reply != Answer.Reply.YES or answer.yes_at is None:
            answer.yes_at = timezone.now()
    else:
        answer.yes_at = None
    answer.reply = reply
    answer.comment = comment
    answer.save()
    now = timezone.now()
    if reply != Answer.Reply.NO:
        _reminders_for(night, user.pk, now)
    _tell_moved_up(night, coming_before - {user.pk}, now, answering=user.pk)
    _tell_host_of_answers(night, user.pk, answer.answered_at)
    return answer


def _tell_host_of_answers(night: Night, user_id: int, answered_at: datetime) -> None:
    """One mail to the host for the answers given within ``ANSWER_DIGEST_DELAY`` of the
    first one not yet told (her own answers tell no one). The night's row is locked by the
    caller, so two answers at once write one digest."""
    host_id = night.home_game.host_id
    if user_id == host_id:
        return
    digests = Notice.objects.filter(night=night, user_id=host_id, kind=Notice.Kind.ANSWERS)
    if digests.filter(sent_at__isnull=True, skipped="").exists():
        return  # the digest still due tells this answer too
    version = (digests.aggregate(most=Max("version"))["most"] or 0) + 1
    Notice.objects.create(
        night=night,
        user_id=host_id,
        kind=Notice.Kind.ANSWERS,
        version=version,
        due_at=answered_at + ANSWER_DIGEST_DELAY,
    )


def _coming_ids(night: Night) -> set[int]:
    return {answer.user_id for answer in night_answers(night=night).coming}


def _tell_moved_up(night: Night, before: set[int], now: datetime, *, answering: int | None = None) -> None:
    """An e-mail to each member who moved up from the waiting list to a seat."""
    for user_id in _coming_ids(night) - before:
        if user_id != answering:
            _notice(night, user_id, Notice.Kind.SEAT_FREED, now)


def night_for_opening(night: Night, by: User) -> Night:
    """The night's row, locked for this transaction, to open its table: refused for anyone
    but the host or a co-host (``not_co_host``) and for a cancelled night (``cancelled``).
    Tonight's table is opened by ``homegames.services_tonight``."""
    night = _locked(night)
    _require_co_host(night.home_game, by)
    _require_open(night)
    return night


# --- Notices: the e-mails of a night, due times in the database, sent by the clock's sweep ---

REMINDER_BEFORE = {Notice.Kind.DAY_BEFORE: timedelta(days=1), Notice.Kind.HOUR_BEFORE: timedelta(hours=1)}
#: Notices one sweep sends at most; the next sweep takes the rest.
NOTICE_BATCH = 100
#: Tries of one notice before it is given up (``skipped="failed"``, its last failure kept),
#: and the waits between them: 1, 2, 4, ... minutes, at most an hour (about 4 hours in all).
NOTICE_ATTEMPTS = 10
NOTICE_RETRY_FIRST = timedelta(minutes=1)
NOTICE_RETRY_MOST = timedelta(hours=1)
#: A moved night's note waits this long, so that a host who moves a night several times in a
#: row sends one note (with the latest time) rather than one a move.
MOVED_NOTE_DELAY = timedelta(minutes=5)
MAIL_WINDOW = timedelta(hours=1)


def mails_per_member_hour() -> int:
    """E-mails of nights one member is sent in any hour (``DASHAIN_MAILS_PER_MEMBER_HOUR``);
    the rest wait for the hour to pass, in order."""
    return int(getattr(settings, "DASHAIN_MAILS_PER_MEMBER_HOUR", 10))


def _notice(night: Night, user_id: int, kind: str, due_at: datetime) -> None:
    Notice.objects.get_or_create(
        night=night, user_id=user_id, kind=kind, version=night.version, defaults={"due_at": due_at}
    )


def _reminders_for(night: Night, user_id: int, now: datetime) -> None:
    """The day-before and hour-before reminders of one member, for the night's current time
    (none already past: a night scheduled for tonight gets no "tomorrow" reminder)."""
    for kind, before in REMINDER_BEFORE.items():
        due = night.start - before
        if due > now:
            _notice(night, user_id, kind, due)


def _told_of(night: Night) -> list[int]:
    """Who must hear that the night moved or is off: everyone who answered, and everyone its
    invitation was sent to (a calendar that accepted the invitation holds the night, answered
    on the page or not: docs/home-games.md, "Invitations by e-mail")."""
    answered = set(night.answers.values_list("user_id", flat=True))
    invited = Notice.objects.filter(night=night, kind=Notice.Kind.INVITATION, sent_at__isnull=False)
    return sorted(answered | set(invited.values_list("user_id", flat=True)))


def _notify_answered(night: Night, kind: str, now: datetime) -> None:
    for user_id in _told_of(night):
        _notice(night, user_id, kind, now)


def _notify_moved(night: Night, moved_from: datetime, now: datetime) -> None:
    """A note to everyone who answered or was sent the invitation (:func:`_told_of`) that the
    night moved, due ``MOVED_NOTE_DELAY`` from now. A member whose note of an earlier move has
    not gone out yet gets no second one: that note tells the latest time (read when it is
    sent) and the time before its move."""
    for user_id in _told_of(night):
        waiting = Notice.objects.filter(
            night=night, user_id=user_id, kind=Notice.Kind.MOVED, sent_at__isnull=True, skipped=""
        )
        if not waiting.exists():
            Notice.objects.get_or_create(
                night=night,
                user_id=user_id,
                kind=Notice.Kind.MOVED,
                version=night.version,
                defaults={"due_at": now + MOVED_NOTE_DELAY, "moved_from": moved_from},
            )


def _members_of(home_game: HomeGame) -> list[int]:
    return list(home_game.members.values_list("pk", flat=True))


def _invite_late(night: Night, user_id: int, now: datetime) -> None:
    """The invitation of a member who joined after ``night`` was scheduled: written once per
    night and member, whatever the night's version. One already sent, or still due, stays
    as it is (a member who leaves and joins again gets no second one); one never sent
    (skipped: they had left before the sweep, or had no address) is due again now."""
    if user_id == night.created_by_id:
        return  # whoever scheduled a night is not invited to it, as at scheduling
    # Locked: a sweep sending or skipping it meanwhile (``notices_send_due``) finishes first.
    invitations = Notice.objects.select_for_update().filter(night=night, user_id=user_id, kind=Notice.Kind.INVITATION)
    invitation = invitations.first()
    if invitation is None:
        _notice(night, user_id, Notice.Kind.INVITATION, now)
    elif invitation.skipped:
        Notice.objects.filter(pk=invitation.pk, sent_at__isnull=True).update(skipped="", due_at=now)


def invitations_of_new_members(
    *, instance: Any, action: str, reverse: bool, pk_set: set[int] | None, **_kwargs: Any
) -> None:
    """``m2m_changed`` of ``HomeGame.members``: whoever joins (the invite link, a table added
    as a night, the admin) is invited to every night ahead that is not cancelled, in the
    transaction that adds them (Django sends ``post_add`` inside it, with only the people
    who were not members already). The table clock's sweep sends the invitations."""
    if action != "post_add" or not pk_set:
        return
    if reverse:  # user.home_games.add(home_game, ...)
        joined = {home_game_id: {instance.pk} for home_game_id in pk_set}
    else:
        joined = {instance.pk: set(pk_set)}
    # Locked as ``night_schedule`` locks it: a night scheduled meanwhile either sees the new
    # member or is seen here.
    list(HomeGame.objects.select_for_update().filter(pk__in=joined).order_by("pk").values_list("pk", flat=True))
    now = timezone.now()
    # Only nights ahead: not one whose table is already open or played, whatever its planned time.
    nights = (
        Night.objects.planned()
        .filter(home_game_id__in=joined, status=Night.Status.SCHEDULED, starts_at__gt=now, table__isnull=True)
        .order_by("starts_at", "pk")
    )
    for night in nights:
        for user_id in sorted(joined[night.home_game_id]):
            _invite_late(night, user_id, now)


@transaction.atomic
def invitations_of_new_address(*, user: User, **_signal: Any) -> None:
    """``accounts.signals.email_added``: a member who gives an address, or a new one, is sent
    the invitations that were skipped for want of one, as if she joined each of her home
    games again (``invitations_of_new_members``, reverse side): the same nights ahead, the
    same lock, the same rule (``_invite_late``: once per night, so none already sent to her
    old address goes again; one skipped is due again now)."""
    home_games = set(user.home_games.values_list("pk", flat=True))
    invitations_of_new_members(instance=user, action="post_add", reverse=True, pk_set=home_games)


def notices_send_due(*, now: datetime | None = None) -> int:
    """Send every notice that is due and not sent; returns how many went out.

    Each is claimed by an UPDATE of its ``sent_at`` in the transaction that sends it: a
    second sweeper (another process) waits for the row and then finds it sent. A notice no
    longer wanted (a reminder of a cancelled or moved night, or for someone who said no, or
    turned reminders off, or has no e-mail address, ...) is marked skipped instead.

    Nothing one notice does holds up another: one that fails (the mail server, or the
    notice itself) rolls its claim back and waits, 1, 2, 4, ... minutes (``retry_at``), and
    until then the sweep passes over it; after ``NOTICE_ATTEMPTS`` tries it is given up with
    its last failure kept. Notices never tried come first in a batch, so retries cannot fill
    one. A member already sent ``mails_per_member_hour()`` mails in the last hour waits for
    the hour to pass.
    """
    now = now or timezone.now()
    due = list(
        Notice.objects.filter(sent_at__isnull=True, skipped="", due_at__lte=now)
        .filter(Q(retry_at__isnull=True) | Q(retry_at__lte=now))
        .order_by("attempts", "due_at", "id")
        .values_list("pk", flat=True)[:NOTICE_BATCH]
    )
    sent = 0
    for notice_id in due:
        try:
            with transaction.atomic():
                if not Notice.objects.filter(pk=notice_id, sent_at__isnull=True, skipped="").update(sent_at=now):
                    continue  # another sweeper sent it
                notice = Notice.objects.select_related(
                    "night__home_game", "night__template", "night__table", "user"
                ).get(pk=notice_id)
                reason = _skip_reason(notice)
                if reason:
                    Notice.objects.filter(pk=notice_id).update(sent_at=None, skipped=reason)
                    continue
                wait_until = _member_mail_wait(notice, now)
                if wait_until is not None:
                    Notice.objects.filter(pk=notice_id).update(sent_at=None, retry_at=wait_until)
                    continue
                notice_message(notice, site_url=settings.DASHAIN_SITE_URL).send()
                sent += 1
        except Exception as error:  # the claim rolled back: this notice waits, the others go on
            try:
                _notice_failed(notice_id, error, now)
            except DatabaseError:  # the database itself is failing: the notice stays due
                logger.exception("notice %s: its failure could not be recorded", notice_id)
    return sent


def _member_mail_wait(notice: Notice, now: datetime) -> datetime | None:
    """None if ``notice``'s member may be sent one more mail now; else when they may. The
    member's row is locked first, so two sweepers count one member's mails one at a time."""
    list(User.objects.select_for_update().filter(pk=notice.user_id).values_list("pk", flat=True))
    window = Notice.objects.filter(user_id=notice.user_id, sent_at__gt=now - MAIL_WINDOW, sent_at__lte=now).exclude(
        pk=notice.pk
    )
    if window.count() < mails_per_member_hour():
        return None
    oldest: datetime = window.aggregate(oldest=Min("sent_at"))["oldest"]
    return oldest + MAIL_WINDOW


def _notice_failed(notice_id: int, error: Exception, now: datetime) -> None:
    """Count a failed try of a notice: it waits before the next, or is given up."""
    notice = Notice.objects.filter(pk=notice_id, sent_at__isnull=True, skipped="").first()
    if notice is None:
        return
    attempts = notice.attempts + 1
    reason = f"{type(error).__name__}: {error}"[:200]
    if attempts >= NOTICE_ATTEMPTS:
        logger.error("notice %s not sent after %d tries, given up: %s", notice_id, attempts, reason)
        changes: dict[str, Any] = {"skipped": "failed", "retry_at": None}
    else:
        wait = min(NOTICE_RETRY_FIRST * 2 ** (attempts - 1), NOTICE_RETRY_MOST)
        logger.warning("notice %s not sent (try %d); trying again in %s", notice_id, attempts, wait, exc_info=error)
        changes = {"retry_at": now + wait}
    Notice.objects.filter(pk=notice_id, attempts=notice.attempts, sent_at__isnull=True, skipped="").update(
        attempts=attempts, failure=reason, **changes
    )


def _skip_reason(notice: Notice) -> str:
    night, user = notice.night, notice.user
    if not user.email:
        return "no_email"
    if not user_can_view_home_game(user=user, home_game=night.home_game):
        return "not_member"
    if night.is_played and notice.kind != Notice.Kind.ANSWERS:
        return "played"  # an invitation or reminder of a night already played
    if night.is_cancelled and notice.kind != Notice.Kind.CANCELLED:
        return "stale"  # the cancellation's own note tells those who answered; the page tells the rest
    if notice.kind == Notice.Kind.MOVED and notice.moved_from == night.starts_at:
        return "not_moved"  # moved back to the time its member knew
    if notice.kind in REMINDER_BEFORE:
        if notice.version != night.version:
            return "stale"
        prefs = MemberPrefs.objects.filter(user=user).first()
        if prefs is not None and not prefs.reminders:
            return "reminders_off"
        if night_answers(night=night).place_of(user.pk) not in ("coming", "waiting", "maybe"):
            return "not_coming"
    return ""


def notices_sweep(**_kwargs: Any) -> None:
    """The table clock's sweep calls this too (``tables.background_threads.swept``): every web process
    and worker, at its start and every ``DASHAIN_CLOCK_SWEEP_SECONDS``."""
    notices_send_due()
