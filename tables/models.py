"""Tables, seats, hands and the append-only event log of live play.

The event log (:class:`Event`) is the truth. A table's live state is rebuilt by
replaying it: a hand starts from its recorded plan and the deck that the table's
secret seed derives for it (``engine.fairness.hand_deck``), then every recorded
``action`` event is applied through the engine again. Everything else on these
rows (stacks between hands, the dealer position, the turn deadline) is a summary
that services keep in step with the log inside the same transaction.

Players are named in the engine by their seat id as a string (``str(seat.id)``),
so ``Event.visible_to`` is a list of seat ids.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from django.conf import settings as django_settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

#: Without a turn timer the host may act for a player who has been on turn this long.
HOST_ACT_AFTER = timedelta(seconds=60)
#: The key of ``Hand.plan`` that lists the players whose seat moved to another browser during
#: the hand ("This is me" approved, issue 38; seat ids as strings): nobody is shown their own
#: view of that hand any more (the new browser watches it, the old one lost the seat), and
#: they make no move in it (the away rule plays their turns: ``claims.seat_claim_take``).
MOVED_KEY = "moved"


def table_group_name(table_id: int, code: str) -> str:
    return f"table_{table_id}_{code}"


class Table(models.Model):
    """A game hosted by one user, joined by its short code."""

    class Game(models.TextChoices):
        FARAS = "faras", _("Faras")
        CLASSIC = "classic", _("Classic Teen Patti")
        NINE_NINE_NINE = "999", _("999")
        HOLDEM = "holdem", _("No-limit Texas hold'em")

    class Status(models.TextChoices):
        WAITING = "waiting", _("Waiting for players")
        PLAYING = "playing", _("Playing")
        PAUSED = "paused", _("Paused")
        ENDED = "ended", _("Ended")

    code = models.CharField(_("code"), max_length=12, unique=True)
    game = models.CharField(_("game"), max_length=16, choices=Game.choices)
    # Host settings and the engine's settings, as validated by tables.settings_rules:
    # {"engine": {...}, "seats": 6, "buy_in_chips": 1000, "buy_in_price": "10.00",
    #  "buy_backs": null, "turn_timer": null, "game_length": null, ...}
    settings = models.JSONField(_("settings"), default=dict)
    buy_in_chips = models.PositiveIntegerField(_("chips per buy-in"))
    buy_in_price = models.DecimalField(_("price of a buy-in"), max_digits=12, decimal_places=2)
    host = models.ForeignKey(
        django_settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="hosted_tables", verbose_name=_("host")
    )
    status = models.CharField(_("status"), max_length=10, choices=Status.choices, default=Status.WAITING)
    # engine.api.TablePosition as JSON: {"dealer": ..., "big_blind": ..., "hands_played": n}
    position = models.JSONField(_("dealer position"), default=dict)
    # Fairness: the secret is revealed in the log (event ``game_ended``) when the game ends.
    secret_seed = models.BinaryField(_("secret seed"), max_length=32, editable=False)
    seed_commitment = models.CharField(_("seed commitment"), max_length=64)
    # The secret part of the invite link (/t/<code>/<invite_token>/): the short code alone
    # admits no one. 128 random bits (secrets.token_urlsafe(16)); never shown to guests.
    invite_token = models.CharField(_("invite token"), max_length=43, default="", editable=False)
    last_seq = models.PositiveBigIntegerField(_("last event number"), default=0)
    hands_played = models.PositiveIntegerField(_("hands played"), default=0)
    # The table clock (tables.services.clock_run). ``due_at`` is the earliest moment something
    # may be due here; the sweep finds overdue tables by it (indexed). It may be early
    # (the clock then finds nothing due and sets it again), never late.
    due_at = models.DateTimeField(_("clock due"), null=True, blank=True, db_index=True)
    # Between hands: when the next hand is dealt (null while a hand is live or none is due).
    next_deal_at = models.DateTimeField(_("next deal"), null=True, blank=True)
    # The host ended the game during a hand: it ends when that hand ends (the hand is played
    # out, by the away rules if need be; tables.services.hosting.table_end). Never a voided pot.
    ending = models.BooleanField(_("ends after this hand"), default=False)
    created_at = models.DateTimeField(_("created"), auto_now_add=True)
    started_at = models.DateTimeField(_("started"), null=True, blank=True)
    ended_at = models.DateTimeField(_("ended"), null=True, blank=True)

    class Meta:
        verbose_name = _("table")
        verbose_name_plural = _("tables")

    def __str__(self) -> str:
        return f"{self.get_game_display()} {self.code}"

    @property
    def group_name(self) -> str:
        """The channel layer group of this table's sockets: from the id, with the random
        code so that two databases sharing one Redis (tests, benchmarks) never cross."""
        return table_group_name(self.pk, self.code)


class Seat(models.Model):
    """Someone at a table: a user or a guest; in a numbered seat, or watching."""

    class Status(models.TextChoices):
        PLAYING = "playing", _("Playing")
        SITTING_OUT = "sitting_out", _("Sitting out")
        WATCHING = "watching", _("Watching")

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="seats", verbose_name=_("table"))
    user = models.ForeignKey(
        django_settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="seats",
        verbose_name=_("user"),
    )
    display_name = models.CharField(_("display name"), max_length=40)
    # Removed by the host with a ban: may not join, sit or watch again in this game.
    banned = models.BooleanField(_("banned"), default=False)
    # A guest is known by a random token kept in their session (empty for users).
    guest_token = models.CharField(_("guest token"), max_length=64, blank=True, default="")
    # A guest's seat link (issue 34): how many times it has moved the seat to another browser.
    # The count is in the link's key, so each move ends every link shown before it.
    link_moves = models.PositiveIntegerField(_("seat link moves"), default=0)
    # The token of the browser that opened the seat link while the seat was dealt into a hand:
    # the seat moves there when that hand ends (empty: none waiting). A secret, like guest_token.
    link_claim = models.CharField(_("seat link waiting"), max_length=64, blank=True, default="")
    # The number of the last hand dealt when the link last moved the seat: the hands up to it
    # were another browser's, and this one is shown them as a watcher is (0: none).
    link_moved_hand = models.PositiveIntegerField(_("hands before the seat's move"), default=0)

    class Computer(models.TextChoices):
        EASY = "easy", _("easy")
        NORMAL = "normal", _("normal")
        HARD = "hard", _("hard")

    # A computer player's strength (engine.bots); empty for a person. A computer has no
    # user and no token: it plays only through the table clock (tables.services.computers).
    computer = models.CharField(_("computer"), max_length=8, blank=True, default="", choices=Computer.choices)
    # Pass and play (tables.services.pass_and_play): a person who plays on the host's phone.
    # No user and no token: only the host's sockets may hold the phone for this seat.
    local = models.BooleanField(_("plays on the host's phone"), default=False)
    number = models.PositiveSmallIntegerField(_("seat number"), null=True, blank=True)
    stack = models.PositiveIntegerField(_("chips"), default=0)
    status = models.CharField(_("status"), max_length=12, choices=Status.choices, default=Status.WATCHING)
    buy_ins = models.PositiveIntegerField(_("buy-ins"), default=0)
    buy_backs_used = models.PositiveIntegerField(_("buy-backs used"), default=0)
    joined_at = models.DateTimeField(_("joined"), auto_now_add=True)

    class Meta:
        verbose_name = _("seat")
        verbose_name_plural = _("seats")
        constraints = [
            models.UniqueConstraint(
                fields=["table", "number"], condition=Q(number__isnull=False), name="seat_number_unique_per_table"
            ),
            models.UniqueConstraint(
                fields=["table", "user"], condition=Q(user__isnull=False), name="seat_user_unique_per_table"
            ),
            models.UniqueConstraint(
                fields=["table", "guest_token"], condition=~Q(guest_token=""), name="seat_guest_unique_per_table"
            ),
            models.CheckConstraint(
                condition=Q(user__isnull=False) | ~Q(guest_token="") | ~Q(computer="") | Q(local=True),
                name="seat_is_user_guest_computer_or_local",
            ),
            models.CheckConstraint(
                condition=Q(local=False) | (Q(user__isnull=True) & Q(guest_token="") & Q(computer="")),
                name="seat_local_is_only_local",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.display_name} @ {self.table.code}"

    @property
    def engine_name(self) -> str:
        """How the engine names this player (unique within a hand)."""
        return str(self.pk)

    @property
    def is_guest(self) -> bool:
        return self.user_id is None and not self.computer and not self.local

    @property
    def is_computer(self) -> bool:
        return bool(self.computer)


class Hand(models.Model):
    """One deal at a table. Its plan and the table's seed fix the deck; its events replay it."""

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="hands", verbose_name=_("table"))
    number = models.PositiveIntegerField(_("hand number"))
    dealer = models.ForeignKey(
        Seat, on_delete=models.PROTECT, related_name="hands_dealt", verbose_name=_("dealer"), null=True
    )
    # engine.api.HandPlan as JSON: {"players": [[name, stack], ...], "dealer": i, "settings": {...}}
    plan = models.JSONField(_("plan"), default=dict)
    player_seeds = models.JSONField(_("player seeds"), default=list)
    to_act = models.CharField(_("to act"), max_length=24, blank=True, default="")
    turn_seq = models.PositiveBigIntegerField(_("event number the turn started at"), default=0)
    turn_deadline = models.DateTimeField(_("turn deadline"), null=True, blank=True)
    turn_started_at = models.DateTimeField(_("turn started"), null=True, blank=True)
    # When the turn's clock fires next (a reminder, or the time-out action), and how many
    # times it has fired for this turn; null when nothing more is due for it.
    turn_alarm_at = models.DateTimeField(_("turn clock due"), null=True, blank=True)
    turn_alarms = models.PositiveSmallIntegerField(_("turn clock fired"), default=0)
    result = models.JSONField(_("result"), null=True, blank=True)
    started_at = models.DateTimeField(_("started"), auto_now_add=True)
    ended_at = models.DateTimeField(_("ended"), null=True, blank=True)

    class Meta:
        verbose_name = _("hand")
        verbose_name_plural = _("hands")
        constraints = [models.UniqueConstraint(fields=["table", "number"], name="hand_number_unique_per_table")]

    def __str__(self) -> str:
        return f"{self.table.code} #{self.number}"

    @property
    def is_live(self) -> bool:
        return self.ended_at is None

    @property
    def away_act_from(self) -> datetime | None:
        """From when the host may act for the player on turn: their deadline, or
        ``HOST_ACT_AFTER`` after their turn began when there is no timer. Never for a computer
        (the hand's plan lists them): it plays its own turn, after a pause on the table clock."""
        if self.to_act and self.to_act in self.plan.get("computers", ()):
            return None
        if self.turn_deadline is not None:
            return self.turn_deadline
        if self.turn_started_at is not None:
            return self.turn_started_at + HOST_ACT_AFTER
        return None


class Event(models.Model):
    """One line of a table's log. Append-only: never updated, never deleted."""

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="events", verbose_name=_("table"))
    seq = models.PositiveBigIntegerField(_("event number"))
    hand = models.ForeignKey(
        Hand, on_delete=models.CASCADE, null=True, blank=True, related_name="events", verbose_name=_("hand")
    )
    kind = models.CharField(_("kind"), max_length=32)
    payload = models.JSONField(_("payload"), default=dict)
    # None: everyone at the table (spectators too); else a list of seat ids.
    visible_to = models.JSONField(_("visible to"), null=True, blank=True)
    actor = models.ForeignKey(
        Seat, on_delete=models.PROTECT, null=True, blank=True, related_name="+", verbose_name=_("actor")
    )
    # Null (not blank) for events no client asked for, so the unique constraint skips them.
    client_action_id = models.CharField(  # noqa: DJ001
        _("client action id"), max_length=64, null=True, blank=True
    )
    created_at = models.DateTimeField(_("time"), auto_now_add=True)

    class Meta:
        verbose_name = _("event")
        verbose_name_plural = _("events")
        ordering = ["table", "seq"]
        constraints = [
            models.UniqueConstraint(fields=["table", "seq"], name="event_seq_unique_per_table"),
            models.UniqueConstraint(
                fields=["table", "client_action_id"],
                condition=Q(client_action_id__isnull=False),
                name="event_client_action_unique_per_table",
            ),
        ]
        indexes = [
            # The requests to the host (tables.selectors.requests_pending) are read from the
            # log on every snapshot: a small partial index finds them without scanning the game.
            models.Index(
                fields=["table", "seq"],
                condition=Q(kind__in=["request_made", "request_approved", "request_denied", "request_cancelled"]),
                name="event_requests_per_table",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.table_id}#{self.seq} {self.kind}"


#: The currencies a host may name for the buy-in price (ISO codes).
CURRENCIES = ("NPR", "INR", "EUR", "USD", "GBP")


def table_currency(table: Table) -> str:
    """The ISO code of the currency the host chose for the buy-in price, or "" (none). Here,
    beside the model, so the ledger's pages read it without reaching into the services."""
    host = (table.settings or {}).get("host") or {}
    currency = host.get("currency") or ""
    return currency if currency in CURRENCIES else ""


class PushSubscription(models.Model):
    """A browser that asked for turn reminders by Web Push for one seat (issue 28).

    Stored per seat: the one-tap opt-in is on that table's page, and a guest has no
    account to hang it on. ``endpoint`` is the push service's URL the browser gave, and
    ``p256dh``/``auth`` its keys (base64url), which encrypt what is sent to it;
    ``language`` is the page's language when it asked, used to write the push.
    """

    seat = models.ForeignKey(Seat, on_delete=models.CASCADE, related_name="push_subscriptions", verbose_name=_("seat"))
    endpoint = models.URLField(_("endpoint"), max_length=1000)
    p256dh = models.CharField(_("public key"), max_length=200)
    auth = models.CharField(_("auth secret"), max_length=100)
    language = models.CharField(_("language"), max_length=10, blank=True, default="")
    created_at = models.DateTimeField(_("created"), auto_now_add=True)

    class Meta:
        verbose_name = _("push subscription")
        verbose_name_plural = _("push subscriptions")
        constraints = [models.UniqueConstraint(fields=["seat", "endpoint"], name="push_subscription_once_per_seat")]

    def __str__(self) -> str:
        return f"push to seat {self.seat_id}"


class PushMessage(models.Model):
    """One push to one subscription about one event of the log (the durable outbox).

    Written in the transaction that writes the event (the table clock's reminder, a
    request to the host); sent after the commit or by the next sweep. ``sent_at`` is set
    when a sender claims the row, in its own committed transaction, before anything is
    sent: a process that dies then loses that push, and never sends it twice. The unique
    key keeps one event from being queued twice for one subscription.
    """

    class Result(models.TextChoices):
        PENDING = "", _("not sent yet")
        SENDING = "sending", _("being sent")
        SENT = "sent", _("sent")
        VISIBLE = "visible", _("not sent: the page was open and visible")
        GONE = "gone", _("not sent: the subscription is gone")
        PAST = "past", _("not sent: the turn was over")
        FAILED = "failed", _("failed")

    # Kept (emptied) when the push service says the subscription is gone: the record stays.
    subscription = models.ForeignKey(
        PushSubscription,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="messages",
        verbose_name=_("subscription"),
    )
    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="+", verbose_name=_("table"))
    seq = models.PositiveIntegerField(_("event"))
    kind = models.CharField(_("kind"), max_length=20)
    created_at = models.DateTimeField(_("created"), auto_now_add=True)
    sent_at = models.DateTimeField(_("sent"), null=True, blank=True)
    result = models.CharField(_("result"), max_length=10, choices=Result.choices, blank=True, default="")

    class Meta:
        verbose_name = _("push message")
        verbose_name_plural = _("push messages")
        constraints = [models.UniqueConstraint(fields=["subscription", "table", "seq"], name="push_message_once")]
        indexes = [models.Index(fields=["result", "created_at"], name="push_message_pending")]

    def __str__(self) -> str:
        return f"{self.kind} #{self.seq} to {self.subscription_id}"
