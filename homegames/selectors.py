"""Reading a home game: who may see it (and a table's report), who is coming to a night, who
waits, a player's time zone, tonight's tables. Standings and seasons: ``selectors_seasons``."""

from __future__ import annotations

import zoneinfo
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta, tzinfo
from typing import TYPE_CHECKING

from django.db.models import Q, QuerySet
from django.utils import timezone

from accounts.models import User
from accounts.zones import zone_names
from homegames.models import Answer, CalendarFeed, HomeGame, MemberPrefs, Night
from ledger.models import LedgerEntry

if TYPE_CHECKING:
    from django.contrib.auth.models import AnonymousUser

    from tables.models import Seat, Table


# --- Access: the home game's pages, and a table's report ------------------------------


def user_can_view_table_report(*, user: User | AnonymousUser, table: Table, guest_token: str | None = None) -> bool:
    """The host, anyone who had a seat at the table (a guest by their session's token),
    and the members of its home game."""
    if guest_token and table.seats.filter(guest_token=guest_token).exists():
        return True
    if not user.is_authenticated:
        return False
    if table.host_id == user.pk or table.seats.filter(user=user).exists():
        return True
    return Night.objects.filter(table=table, home_game__members=user).exists()


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


def claimable_seats(*, home_game: HomeGame, for_user: User | None = None) -> list[Seat]:
    """Guest seats (no account, not a computer) that bought in at the home game's nights of
    the open season (a closed season's stay as settled) and that nobody has claimed yet,
    oldest night first (read through the ledger's own entries). With ``for_user``, only those
    the claim concerns: none at a table where they had a seat of their own, that they hosted,
    or where they have claimed a seat already (one person, one seat a table)."""
    entries = LedgerEntry.objects.filter(
        table__night__home_game=home_game,
        table__night__season__isnull=True,
        seat__user__isnull=True,
        seat__computer="",
        seat__claim__isnull=True,
    )
    if for_user is not None:
        entries = (
            entries.exclude(table__seats__user=for_user)
            .exclude(table__host=for_user)
            .exclude(table__seats__claim__user=for_user)
        )
    entries = entries.select_related("seat", "seat__table").order_by("seat__table__created_at", "seat_id")
    seats: dict[int, Seat] = {}
    for entry in entries:
        seats.setdefault(entry.seat_id, entry.seat)
    return list(seats.values())


def zone_name_valid(name: str) -> bool:
    return name in zone_names()


def user_zone(user: User | AnonymousUser) -> zoneinfo.ZoneInfo:
    """The player's time zone (UTC until they choose one)."""
    if user.is_authenticated:
        prefs = MemberPrefs.objects.filter(user=user).first()
        if prefs is not None and zone_name_valid(prefs.time_zone):
            return zoneinfo.ZoneInfo(prefs.time_zone)
    return zoneinfo.ZoneInfo("UTC")


def shown_zone(value: datetime, zone: tzinfo) -> tzinfo:
    """The zone a stored time is shown in: the viewer's, or UTC when the viewer's cannot
    hold it (a time at the calendar's very end or start, stored before nights were bounded
    to ``services.NIGHT_AHEAD``, has no local date east or west of UTC)."""
    try:
        value.astimezone(zone)
    except OverflowError:
        return UTC
    return zone


@dataclass
class NightAnswers:
    """A night's answers: the yeses in the order given fill the seats; the rest wait."""

    coming: list[Answer] = field(default_factory=list)
    waiting: list[Answer] = field(default_factory=list)
    maybe: list[Answer] = field(default_factory=list)
    no: list[Answer] = field(default_factory=list)
    by_user: dict[int, Answer] = field(default_factory=dict)

    def place_of(self, user_id: int) -> str:
        """ "coming", "waiting", "maybe", "no" or "" (no answer)."""
        answer = self.by_user.get(user_id)
        if answer is None:
            return ""
        if answer.reply == Answer.Reply.YES:
            return "coming" if answer in self.coming else "waiting"
        return str(answer.reply)


def night_answers(*, night: Night) -> NightAnswers:
    result = NightAnswers()
    # Only the home game's members now: a removed member's answer holds no seat.
    home_game = night.home_game
    answers = (
        night.answers.filter(Q(user__home_games=home_game) | Q(user_id=home_game.host_id))
        .distinct()
        .select_related("user")
        .order_by("yes_at", "answered_at", "id")
    )
    for answer in answers:
        result.by_user[answer.user_id] = answer
        if answer.reply == Answer.Reply.YES:
            (result.coming if len(result.coming) < (night.seat_limit or 0) else result.waiting).append(answer)
        elif answer.reply == Answer.Reply.MAYBE:
            result.maybe.append(answer)
        else:
            result.no.append(answer)
    return result


def night_unanswered(*, night: Night, answers: NightAnswers | None = None) -> list[User]:
    """The home game's members (the host too) who have not answered ``night``, by name."""
    answered = (answers or night_answers(night=night)).by_user
    home_game = night.home_game
    people = User.objects.filter(Q(home_games=home_game) | Q(pk=home_game.host_id)).distinct()
    return sorted((user for user in people if user.pk not in answered), key=lambda user: user.table_name.casefold())


#: A night that started this long ago is still "tonight" (ahead) unless its table has ended.
TONIGHT = timedelta(hours=12)
#: Past nights listed on the nights page, newest first.
PAST_SHOWN = 10


def nights_ahead(*, home_game: HomeGame, now: datetime | None = None) -> QuerySet[Night]:
    """The nights ahead, cancelled ones too, and those that started within the last 12 hours
    (tonight); not a night whose table has ended (played), whatever its planned time."""
    now = now or timezone.now()
    return (
        Night.objects.filter(home_game=home_game, starts_at__gte=now - TONIGHT)
        .exclude(table__ended_at__isnull=False)
        .select_related("template", "table")
    )


def nights_past(*, home_game: HomeGame, now: datetime | None = None) -> list[Night]:
    """The last ``PAST_SHOWN`` nights behind: played (their table ended) or started more than
    12 hours ago, newest first."""
    now = now or timezone.now()
    nights = (
        Night.objects.planned()
        .filter(home_game=home_game)
        .filter(Q(table__ended_at__isnull=False) | Q(starts_at__lt=now - TONIGHT))
        .select_related("template", "table")
        .order_by("-starts_at", "-pk")
    )
    return list(nights[:PAST_SHOWN])


def tonights_tables_for(*, user: User) -> list[Night]:
    """Nights whose table is open and where ``user`` is coming (said yes within the seat limit)."""
    nights = Night.objects.filter(
        Q(answers__user=user, answers__reply=Answer.Reply.YES),
        table__isnull=False,
        status=Night.Status.SCHEDULED,
        table__ended_at__isnull=True,
    ).select_related("table", "home_game")
    return [night for night in nights if night_answers(night=night).place_of(user.pk) == "coming"]


FEED_PAST_DAYS = 90


def calendar_feed_nights(*, token: str, now: datetime | None = None) -> tuple[CalendarFeed, list[Night]] | None:
    """The feed whose current token is ``token`` and its nights (the last 90 days and all
    ahead, cancelled ones too); None for an old, guessed or empty token, or when the feed's
    owner is no longer the host or a member of the home game."""
    if not token or len(token) < 32:
        return None
    feed = CalendarFeed.objects.select_related("home_game", "user").filter(token=token).first()
    if feed is None or not user_can_view_home_game(user=feed.user, home_game=feed.home_game):
        return None
    now = now or timezone.now()
    nights = Night.objects.filter(
        home_game=feed.home_game, starts_at__gte=now - timedelta(days=FEED_PAST_DAYS)
    ).select_related("template", "home_game", "table")
    return feed, list(nights)
