"""A home game: its members, its nights (played and ahead), its seasons; what is played,
when, where, who comes.

- :class:`HomeGame`: a named group of players, its host, co-hosts and invite link.
- :class:`Night`: a night of a home game: planned (on the calendar, its start stored in UTC
  with the time zone it was scheduled in, a place in words, a template and a seat limit),
  played (a table, opened from the plan or added after the fact; its money is the ledger's,
  read through ``ledger.selectors``), or both; settled in a season once.
- :class:`Season`, :class:`SeasonTransfer`: a closed season and its frozen settle-up.
- :class:`SeasonPayment`: a transfer of the open season paid before it closed.
- :class:`SeatClaim`: a member's claim that a guest seat of a past night was theirs.

- :class:`NightTemplate`: a game and every table setting, kept by the home game and
  reused ("our Faras"); checked by ``tables.services.table_settings.table_settings_build``.
- :class:`Answer`: a member's yes / maybe / no. The yeses in the order they were given
  (``yes_at``) fill the seat limit; the rest wait, and move up when someone says no.
- :class:`MemberPrefs`: a player's time zone (the calendar shows their times in it).
- :class:`CalendarFeed`: a member's private, replaceable calendar feed URL of a home game's nights.

``HomeGame``, ``Season``, ``SeasonTransfer`` and ``SeatClaim`` lived in ``ledger`` until the
home game became one app; they keep their tables' names (``db_table``: ``ledger_homegame`` and
so on, the members' and co-hosts' tables following), so the move (migration ``0007``) changed
Django's state and not one row. A night was two rows until migrations ``0009``-``0011``: a
planned night (whose rows, ids and calendar UIDs the night keeps) and a table counted as a
night of the home game (merged into the planned night of the same table, or a night of its own).
"""

from __future__ import annotations

import secrets
from datetime import datetime

from django.conf import settings as django_settings
from django.db import models
from django.db.models import F, Q
from django.utils.translation import gettext_lazy as _

from ledger.models import TransferPaid


class HomeGame(models.Model):
    """A named group of players who meet again and again; each night is a table."""

    class SettleBy(models.TextChoices):
        NIGHT = "night", _("Night by night")
        SEASON = "season", _("Once a season")

    name = models.CharField(_("name"), max_length=80)
    host = models.ForeignKey(
        django_settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        related_name="hosted_home_games",
        verbose_name=_("host"),
    )
    members = models.ManyToManyField(
        django_settings.AUTH_USER_MODEL, related_name="home_games", blank=True, verbose_name=_("members")
    )
    co_hosts = models.ManyToManyField(
        django_settings.AUTH_USER_MODEL, related_name="co_hosted_home_games", blank=True, verbose_name=_("co-hosts")
    )
    # The secret of the home game's invite link (``secrets.token_urlsafe(32)``); the host
    # replaces it, and removing a member replaces it too, so an old link joins no one.
    invite_token = models.CharField(_("invite token"), max_length=43, default="", editable=False, db_index=True)
    # How the nights' results are paid: each night's own transfers, or one netted set per season.
    settle_by = models.CharField(_("settle up"), max_length=8, choices=SettleBy.choices, default=SettleBy.NIGHT)
    created_at = models.DateTimeField(_("created"), auto_now_add=True)

    class Meta:
        db_table = "ledger_homegame"  # its name from when the ledger held it (see the module docstring)
        verbose_name = _("home game")
        verbose_name_plural = _("home games")
        ordering = ["name", "id"]

    def __str__(self) -> str:
        return self.name


class SeatClaim(models.Model):
    """A member's claim that a guest seat of a past night was theirs; counted once the host confirms.

    A seat is claimed at most once (the one-to-one): a second member's claim is refused.
    """

    seat = models.OneToOneField("tables.Seat", on_delete=models.CASCADE, related_name="claim", verbose_name=_("seat"))
    home_game = models.ForeignKey(
        HomeGame, on_delete=models.CASCADE, related_name="claims", verbose_name=_("home game")
    )
    user = models.ForeignKey(
        django_settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="seat_claims", verbose_name=_("player")
    )
    created_at = models.DateTimeField(_("created"), auto_now_add=True)
    confirmed_at = models.DateTimeField(_("confirmed"), null=True, blank=True)

    class Meta:
        db_table = "ledger_seatclaim"  # its name from when the ledger held it (see the module docstring)
        verbose_name = _("seat claim")
        verbose_name_plural = _("seat claims")
        ordering = ["home_game", "created_at", "id"]

    def __str__(self) -> str:
        return f"{self.user_id} claims seat {self.seat_id}"


class Season(models.Model):
    """A closed season of a home game: the settled nights since the previous close.

    The open season is not a row: it is the home game's settled nights with no season.
    Closing writes this row, points those nights at it and, when the home game settles
    by season, freezes the season's transfers (:class:`SeasonTransfer`).
    """

    home_game = models.ForeignKey(
        HomeGame, on_delete=models.CASCADE, related_name="seasons", verbose_name=_("home game")
    )
    number = models.PositiveIntegerField(_("number"))
    settle_by = models.CharField(_("settle up"), max_length=8, choices=HomeGame.SettleBy.choices)
    currency = models.CharField(_("currency"), max_length=3, blank=True, default="")
    closed_at = models.DateTimeField(_("closed"), auto_now_add=True)
    closed_by = models.ForeignKey(
        django_settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+", verbose_name=_("closed by")
    )

    class Meta:
        db_table = "ledger_season"  # its name from when the ledger held it (see the module docstring)
        verbose_name = _("season")
        verbose_name_plural = _("seasons")
        ordering = ["home_game", "number"]
        constraints = [models.UniqueConstraint(fields=["home_game", "number"], name="season_number_once")]

    def __str__(self) -> str:
        return f"{self.home_game} #{self.number}"


class SeasonTransfer(models.Model):
    """One transfer of a closed season's settle-up, frozen when the season closed.

    People are keyed as the season computed them (``user:<id>`` or ``guest:<name>``).
    A transfer not marked paid stays on the home game's page, season after season.
    """

    season = models.ForeignKey(Season, on_delete=models.CASCADE, related_name="transfers", verbose_name=_("season"))
    payer_key = models.CharField(max_length=60)
    payee_key = models.CharField(max_length=60)
    payer_name = models.CharField(_("from"), max_length=40)
    payee_name = models.CharField(_("to"), max_length=40)
    amount = models.DecimalField(_("amount"), max_digits=12, decimal_places=2)
    paid_at = models.DateTimeField(_("marked at"), null=True, blank=True)
    paid_by = models.ForeignKey(
        django_settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("marked by"),
    )

    class Meta:
        db_table = "ledger_seasontransfer"  # its name from when the ledger held it (see the module docstring)
        verbose_name = _("season transfer")
        verbose_name_plural = _("season transfers")
        ordering = ["season", "payer_name", "payee_name", "id"]
        constraints = [
            models.UniqueConstraint(fields=["season", "payer_key", "payee_key"], name="season_transfer_once"),
            models.CheckConstraint(condition=Q(amount__gt=0), name="season_transfer_amount_positive"),
        ]

    def __str__(self) -> str:
        return f"{self.payer_name} -> {self.payee_name} {self.amount}"


class SeasonPayment(models.Model):
    """A transfer of the open season paid before the season closed (docs/ledger.md, "Paid
    during the season"): a payment kept apart from the nights' chips. The open season's
    transfers are worked out from each person's net less what they paid so far plus what they
    received; closing the season points its payments at it, and they are then fixed.

    People are keyed as the season computes them (``user:<id>`` or ``guest:<name>``).
    """

    MarkedAs = TransferPaid.MarkedAs  # as whom it was marked: the host, the payer or the payee

    home_game = models.ForeignKey(
        HomeGame, on_delete=models.CASCADE, related_name="season_payments", verbose_name=_("home game")
    )
    season = models.ForeignKey(
        Season,
        on_delete=models.CASCADE,
        null=True,
        blank=True,
        related_name="payments",
        verbose_name=_("season"),
    )
    payer_key = models.CharField(max_length=60)
    payee_key = models.CharField(max_length=60)
    payer_name = models.CharField(_("from"), max_length=40)
    payee_name = models.CharField(_("to"), max_length=40)
    amount = models.DecimalField(_("amount"), max_digits=12, decimal_places=2)
    currency = models.CharField(_("currency"), max_length=3, blank=True, default="")
    marked_by = models.ForeignKey(
        django_settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+", verbose_name=_("marked by")
    )
    marked_as = models.CharField(_("marked as"), max_length=5, choices=MarkedAs.choices)
    at = models.DateTimeField(_("marked at"), auto_now_add=True)

    class Meta:
        verbose_name = _("payment during a season")
        verbose_name_plural = _("payments during a season")
        ordering = ["at", "id"]
        constraints = [
            models.CheckConstraint(condition=Q(amount__gt=0), name="season_payment_amount_positive"),
            models.CheckConstraint(condition=~Q(payer_key=F("payee_key")), name="season_payment_two_people"),
        ]

    def __str__(self) -> str:
        return f"{self.payer_name} -> {self.payee_name} {self.amount}"


class MemberPrefs(models.Model):
    user = models.OneToOneField(
        django_settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="night_prefs", verbose_name=_("player")
    )
    time_zone = models.CharField(_("time zone"), max_length=64, default="UTC")
    reminders = models.BooleanField(
        _("reminders"),
        default=True,
        help_text=_("An e-mail the day before a night you are coming to, and an hour before."),
    )

    class Meta:
        verbose_name = _("player's calendar settings")
        verbose_name_plural = _("players' calendar settings")

    def __str__(self) -> str:
        return f"{self.user_id}: {self.time_zone}"


class NightTemplate(models.Model):
    home_game = models.ForeignKey(
        HomeGame, on_delete=models.CASCADE, related_name="night_templates", verbose_name=_("home game")
    )
    name = models.CharField(_("name"), max_length=60)
    game = models.CharField(_("game"), max_length=16)
    # The host's choices as the lobby's form gives them (``OpenTableForm.choices``).
    choices = models.JSONField(_("settings"), default=dict)
    created_at = models.DateTimeField(_("created"), auto_now_add=True)

    class Meta:
        verbose_name = _("night template")
        verbose_name_plural = _("night templates")
        ordering = ["home_game", "name", "id"]

    def __str__(self) -> str:
        return self.name


class NightQuerySet(models.QuerySet["Night"]):
    def planned(self) -> NightQuerySet:
        """The nights put on the calendar (a time, a place, a seat limit), played or not."""
        return self.filter(starts_at__isnull=False)

    def played(self) -> NightQuerySet:
        """The nights with a table (opened from a plan, or added to the home game after the fact)."""
        return self.filter(table__isnull=False)


class Night(models.Model):
    """A night of a home game. It may be planned (a time, stored in UTC with the time zone it
    was scheduled in, a place in words, a template, a seat limit; answers and notices) and it
    may have a table (played). A table added to the home game after the fact is a night with
    no planned time; a planned night whose table is not open yet is a night ahead. A played
    night is settled in a season once (``season``: the closed season, None while open)."""

    class Status(models.TextChoices):
        SCHEDULED = "scheduled", _("Scheduled")
        CANCELLED = "cancelled", _("Cancelled")

    home_game = models.ForeignKey(
        HomeGame, on_delete=models.CASCADE, related_name="nights", verbose_name=_("home game")
    )
    # The plan: all None (or the defaults) for a table added to the home game after the fact.
    starts_at = models.DateTimeField(_("starts"), null=True, blank=True)  # UTC, as Django stores every time
    time_zone = models.CharField(_("time zone"), max_length=64, default="UTC")  # the scheduler's
    place = models.CharField(_("place"), max_length=200, blank=True, default="")
    template = models.ForeignKey(
        NightTemplate,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="nights",
        verbose_name=_("template"),
    )
    seat_limit = models.PositiveSmallIntegerField(_("seat limit"), null=True, blank=True)
    status = models.CharField(_("status"), max_length=10, choices=Status.choices, default=Status.SCHEDULED)
    created_by = models.ForeignKey(
        django_settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("scheduled by"),
    )
    created_at = models.DateTimeField(_("created"), auto_now_add=True)
    # Raised each time the night moves: reminders written for an older time are not sent.
    version = models.PositiveIntegerField(_("version"), default=1)
    # The table it was played at, and when that table became the home game's.
    table = models.OneToOneField(
        "tables.Table",
        on_delete=models.CASCADE,
        null=True,
        blank=True,
        related_name="night",
        verbose_name=_("table"),
    )
    added_at = models.DateTimeField(_("added"), null=True, blank=True)
    # The closed season this night was settled in; None while it belongs to the open season.
    season = models.ForeignKey(
        "Season", on_delete=models.PROTECT, null=True, blank=True, related_name="nights", verbose_name=_("season")
    )

    objects = NightQuerySet.as_manager()

    class Meta:
        verbose_name = _("night")
        verbose_name_plural = _("nights")
        ordering = ["starts_at", "id"]
        constraints = [
            models.CheckConstraint(
                condition=Q(seat_limit__isnull=True) | Q(seat_limit__gte=2), name="planned_night_two_seats"
            ),
            models.CheckConstraint(
                condition=Q(starts_at__isnull=True, seat_limit__isnull=True)
                | Q(starts_at__isnull=False, seat_limit__isnull=False),
                name="night_plan_whole",
            ),
            models.CheckConstraint(
                condition=Q(starts_at__isnull=False) | Q(table__isnull=False), name="night_planned_or_played"
            ),
        ]

    def __str__(self) -> str:
        if self.starts_at is None:
            return f"{self.home_game_id} / {self.table_id}"
        return f"{self.home_game_id} @ {self.starts_at:%Y-%m-%d %H:%M}"

    @property
    def is_planned(self) -> bool:
        return self.starts_at is not None

    @property
    def start(self) -> datetime:
        """The planned start; only a planned night has one (the calendar's, the answers' and
        the notices' nights are planned: ``Night.objects.planned()``)."""
        if self.starts_at is None:
            raise ValueError(f"night {self.pk} was not planned: it has no start")
        return self.starts_at

    @property
    def plan_template(self) -> NightTemplate:
        """The template a planned night's table is opened from."""
        if self.template is None:
            raise ValueError(f"night {self.pk} has no template")
        return self.template

    @property
    def is_cancelled(self) -> bool:
        return self.status == self.Status.CANCELLED

    @property
    def is_played(self) -> bool:
        """Tonight's table was opened and has ended: the night is behind, whatever its planned time."""
        return self.table_id is not None and self.table is not None and self.table.ended_at is not None


class Answer(models.Model):
    class Reply(models.TextChoices):
        YES = "yes", _("Yes")
        MAYBE = "maybe", _("Maybe")
        NO = "no", _("No")

    night = models.ForeignKey(Night, on_delete=models.CASCADE, related_name="answers", verbose_name=_("night"))
    user = models.ForeignKey(
        django_settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="night_answers",
        verbose_name=_("player"),
    )
    reply = models.CharField(_("answer"), max_length=5, choices=Reply.choices)
    # When this yes was given: the order of the waiting list (None unless the reply is yes).
    yes_at = models.DateTimeField(_("said yes"), null=True, blank=True)
    answered_at = models.DateTimeField(_("answered"), auto_now=True)
    # A few words with the answer ("30 min late"), shown beside the name.
    comment = models.CharField(_("comment"), max_length=100, blank=True, default="")

    class Meta:
        verbose_name = _("answer")
        verbose_name_plural = _("answers")
        constraints = [
            models.UniqueConstraint(fields=["night", "user"], name="answer_once_per_night"),
            models.CheckConstraint(
                condition=Q(reply="yes", yes_at__isnull=False) | (~Q(reply="yes") & Q(yes_at__isnull=True)),
                name="answer_yes_has_time",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.user_id}: {self.reply}"


class Notice(models.Model):
    """One e-mail to one member about one night, due at a time stored here (the durable
    outbox). The sweep sends what is due, once: ``sent_at`` is set in the transaction that
    claims the row, and the unique key keeps a notice from being written twice. One that
    fails waits (``retry_at``) and is tried again, a bounded number of times."""

    class Kind(models.TextChoices):
        INVITATION = "invitation", _("Invitation")
        DAY_BEFORE = "day_before", _("Reminder the day before")
        HOUR_BEFORE = "hour_before", _("Reminder an hour before")
        MOVED = "moved", _("Night moved")
        CANCELLED = "cancelled", _("Night cancelled")
        SEAT_FREED = "seat_freed", _("A seat for someone who waited")
        ANSWERS = "answers", _("New answers, to the host")

    night = models.ForeignKey(Night, on_delete=models.CASCADE, related_name="notices", verbose_name=_("night"))
    user = models.ForeignKey(
        django_settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="night_notices",
        verbose_name=_("player"),
    )
    kind = models.CharField(_("kind"), max_length=12, choices=Kind.choices)
    version = models.PositiveIntegerField(_("version"))
    due_at = models.DateTimeField(_("due"), db_index=True)
    sent_at = models.DateTimeField(_("sent"), null=True, blank=True)
    # Why it was not sent ("" when sent or still due): no e-mail address, reminders off, ...
    skipped = models.CharField(_("not sent because"), max_length=20, blank=True, default="")
    # Failed tries, the next try's time (none before it: the sweep passes over it) and the
    # last failure's reason; past ``services.NOTICE_ATTEMPTS`` it is given up (``skipped="failed"``).
    attempts = models.PositiveSmallIntegerField(_("failed tries"), default=0)
    retry_at = models.DateTimeField(_("next try"), null=True, blank=True)
    failure = models.CharField(_("last failure"), max_length=200, blank=True, default="")
    # A note of a moved night: the time before the move (the time its member last heard of).
    # Later moves before the note goes out keep it and make no second note.
    moved_from = models.DateTimeField(_("moved from"), null=True, blank=True)

    class Meta:
        verbose_name = _("notice")
        verbose_name_plural = _("notices")
        constraints = [
            models.UniqueConstraint(fields=["night", "user", "kind", "version"], name="notice_once"),
        ]
        indexes = [models.Index(fields=["sent_at", "due_at"], name="notice_due")]

    def __str__(self) -> str:
        return f"{self.kind} to {self.user_id} for {self.night_id}"


def new_feed_token() -> str:
    return secrets.token_urlsafe(32)


class CalendarFeed(models.Model):
    """A member's private calendar feed of one home game's nights: the URL carries
    ``token``, which the member can replace (the old URL then 404s). The feed is served
    only while its owner is still the host or a member of the home game."""

    home_game = models.ForeignKey(
        HomeGame, on_delete=models.CASCADE, related_name="calendar_feeds", verbose_name=_("home game")
    )
    user = models.ForeignKey(
        django_settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="calendar_feeds",
        verbose_name=_("player"),
    )
    token = models.CharField(_("token"), max_length=64, unique=True, default=new_feed_token)
    created_at = models.DateTimeField(_("created"), auto_now_add=True)

    class Meta:
        verbose_name = _("calendar feed")
        verbose_name_plural = _("calendar feeds")
        constraints = [models.UniqueConstraint(fields=["home_game", "user"], name="calendar_feed_once")]

    def __str__(self) -> str:
        return f"feed of {self.user_id} for {self.home_game_id}"
