"""The ledger's records: chips bought and cashed out, shared costs, transfers marked paid. Money only:
home games, their nights and seasons are ``homegames``' (which reads the ledger).

Design (see docs/ledger.md):

- :class:`LedgerEntry` is append-only. Every buy-in, buy-back and cash-out is a new
  row; a mistake is corrected by a ``reversal`` row that points at the entry it
  cancels (at most once: the pointer is unique). Rows are never edited or deleted:
  ``save()`` refuses an update, ``delete()`` refuses, the queryset refuses bulk
  ``update()``/``delete()``, and the migration adds a database trigger that refuses
  ``UPDATE`` (and ``DELETE`` on PostgreSQL).
- :class:`TableLedger` holds one table's running totals, written in the same
  transaction as each entry. Its check constraint is the part of the chip invariant
  a database can hold on its own: no more chips leave the table than were bought.
  The whole invariant (chips at the table == chips bought - chips cashed out) is
  checked by ``ledger.services.ledger_check_invariant`` at the end of every hand.
- :class:`SharedCost` is a table's cost its people shared (the pizza of a kitchen-table
  night): money outside the chips, a line of its own, never changed or removed (the model and
  its queryset refuse; unlike the entries, no database trigger holds it). Each
  person's share of it, to the cent, is computed when the ledger is read
  (``ledger.selectors.ledger_cost_split``), never stored.
- Entries point at ``tables``' tables and seats; the ledger knows nothing of home games.

Money is ``Decimal`` with two places; chips are integers.
"""

from __future__ import annotations

from decimal import Decimal
from typing import Any, ClassVar

from django.conf import settings as django_settings
from django.db import models
from django.db.models import F, Q
from django.utils import timezone
from django.utils.translation import gettext_lazy as _


class AppendOnlyError(Exception):
    """An attempt to change or remove a ledger entry. Correct it with a reversal instead."""


NEVER_UPDATED = "Ledger entries are never updated; record a reversal instead."
NEVER_DELETED = "Ledger entries are never deleted; record a reversal instead."


class AppendOnlyQuerySet(models.QuerySet[Any]):
    """Rows of an :class:`AppendOnly` model: a bulk update or delete is refused as a row's is."""

    def update(self, **kwargs: Any) -> int:
        raise AppendOnlyError(self.model.never_updated)

    def delete(self) -> tuple[int, dict[str, int]]:
        raise AppendOnlyError(self.model.never_deleted)


class AppendOnly(models.Model):
    """A model whose rows are written once, never changed or removed, by a row's ``save`` or
    ``delete`` or by its queryset's; each says why in its own words."""

    never_updated: ClassVar[str]
    never_deleted: ClassVar[str]

    objects = AppendOnlyQuerySet.as_manager()

    class Meta:
        abstract = True

    def save(self, *args: Any, **kwargs: Any) -> None:
        if not self._state.adding:
            raise AppendOnlyError(self.never_updated)
        super().save(*args, **kwargs)

    def delete(self, *args: Any, **kwargs: Any) -> tuple[int, dict[str, int]]:
        raise AppendOnlyError(self.never_deleted)


class LedgerEntry(AppendOnly):
    """One line of a table's ledger: chips bought, chips cashed out, a prize, or a reversal."""

    class Kind(models.TextChoices):
        BUY_IN = "buy_in", _("Buy-in")
        BUY_BACK = "buy_back", _("Buy-back")
        CASH_OUT = "cash_out", _("Chips at the end")
        REVERSAL = "reversal", _("Reversal")
        PRIZE = "prize", _("Prize")

    table = models.ForeignKey(
        "tables.Table", on_delete=models.PROTECT, related_name="ledger_entries", verbose_name=_("table")
    )
    seat = models.ForeignKey(
        "tables.Seat", on_delete=models.PROTECT, related_name="ledger_entries", verbose_name=_("seat")
    )
    # The name at the time of the entry, so the record reads the same if the seat is renamed.
    player_name = models.CharField(_("player"), max_length=40)
    kind = models.CharField(_("kind"), max_length=10, choices=Kind.choices)
    # A reversal repeats the chips and price of the entry it cancels; its kind gives the sign.
    chips = models.PositiveIntegerField(_("chips"))
    price = models.DecimalField(_("price"), max_digits=12, decimal_places=2, default=Decimal("0.00"))
    # A prize (hold'em shared by places): the place it was won for (1 is first); else empty.
    # A prize's ``price`` is the money won; its chips are 0.
    place = models.PositiveSmallIntegerField(_("place"), null=True, blank=True)
    reverses = models.OneToOneField(
        "self",
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="reversed_by",
        verbose_name=_("reverses"),
    )
    recorded_by = models.ForeignKey(
        django_settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("recorded by"),
    )
    note = models.CharField(_("note"), max_length=200, blank=True, default="")
    created_at = models.DateTimeField(_("time"), auto_now_add=True)

    never_updated = NEVER_UPDATED
    never_deleted = NEVER_DELETED

    class Meta:
        verbose_name = _("ledger entry")
        verbose_name_plural = _("ledger entries")
        ordering = ["table", "id"]
        indexes = [models.Index(fields=["table", "seat"], name="ledger_entry_table_seat")]
        constraints = [
            models.CheckConstraint(condition=Q(chips__gte=0), name="ledger_entry_chips_not_negative"),
            models.CheckConstraint(condition=Q(price__gte=0), name="ledger_entry_price_not_negative"),
            # A reversal, and only a reversal, points at the entry it cancels.
            models.CheckConstraint(
                condition=Q(kind="reversal", reverses__isnull=False) | (~Q(kind="reversal") & Q(reverses__isnull=True)),
                name="ledger_entry_reversal_points_at_entry",
            ),
            # Buying gets chips; cashing out costs nothing.
            models.CheckConstraint(
                condition=~Q(kind__in=["buy_in", "buy_back"]) | Q(chips__gt=0), name="ledger_entry_buy_gets_chips"
            ),
            models.CheckConstraint(
                condition=~Q(kind="cash_out") | Q(price=0), name="ledger_entry_cash_out_has_no_price"
            ),
            models.CheckConstraint(
                condition=Q(kind__in=["buy_in", "buy_back", "cash_out", "reversal", "prize"]),
                name="ledger_entry_kind_known",
            ),
            # A prize is money alone (no chips); only a prize names a place (1 is first), and a
            # player who never played a hand is paid back with a prize that names none.
            models.CheckConstraint(condition=~Q(kind="prize") | Q(chips=0), name="ledger_entry_prize_is_money"),
            models.CheckConstraint(
                condition=Q(place__isnull=True) | (Q(kind="prize") & Q(place__gte=1)),
                name="ledger_entry_place_only_on_prize",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.table_id}: {self.player_name} {self.kind} {self.chips}"


COST_NEVER_CHANGED = "Shared costs are never changed or removed."


class SharedCost(AppendOnly):
    """One cost a table's people shared: what it was, how much, who paid it (a seat of the
    table) and the shares of those who split it (``shares``: ``{seat id: whole shares}``, every
    share 1 to 100). Written only by ``ledger.services.ledger_record_cost``; never changed."""

    table = models.ForeignKey(
        "tables.Table", on_delete=models.PROTECT, related_name="shared_costs", verbose_name=_("table")
    )
    what = models.CharField(_("what"), max_length=60)
    amount = models.DecimalField(_("amount"), max_digits=12, decimal_places=2)
    paid_by = models.ForeignKey("tables.Seat", on_delete=models.PROTECT, related_name="+", verbose_name=_("paid by"))
    shares = models.JSONField(_("shares"), default=dict)
    recorded_by = models.ForeignKey(
        django_settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("recorded by"),
    )
    # Not ``auto_now_add``: the costs moved here from the kitchen kept the time they were recorded.
    created_at = models.DateTimeField(_("recorded"), default=timezone.now)

    never_updated = never_deleted = COST_NEVER_CHANGED

    class Meta:
        verbose_name = _("shared cost")
        verbose_name_plural = _("shared costs")
        ordering = ["table", "id"]
        constraints = [models.CheckConstraint(condition=Q(amount__gt=0), name="ledger_cost_positive")]

    def __str__(self) -> str:
        return f"{self.what} {self.amount}"


class TableLedger(models.Model):
    """A table's running totals, kept in step with its entries in the same transaction."""

    table = models.OneToOneField(
        "tables.Table", on_delete=models.PROTECT, primary_key=True, related_name="ledger", verbose_name=_("table")
    )
    chips_bought = models.PositiveBigIntegerField(_("chips bought"), default=0)
    chips_cashed_out = models.PositiveBigIntegerField(_("chips cashed out"), default=0)
    money_paid = models.DecimalField(_("money paid"), max_digits=14, decimal_places=2, default=Decimal("0.00"))

    class Meta:
        verbose_name = _("table ledger")
        verbose_name_plural = _("table ledgers")
        constraints = [
            # No chip leaves the table that was not bought (the invariant's database half).
            models.CheckConstraint(
                condition=Q(chips_cashed_out__lte=F("chips_bought")), name="table_ledger_no_chips_created"
            ),
            models.CheckConstraint(condition=Q(money_paid__gte=0), name="table_ledger_money_not_negative"),
        ]

    def __str__(self) -> str:
        return f"{self.table_id}: {self.chips_bought} bought, {self.chips_cashed_out} out"

    @property
    def chips_at_table(self) -> int:
        return self.chips_bought - self.chips_cashed_out


class TransferPaid(models.Model):
    """A mark that one transfer of a table's settlement has been paid: made by the table's host,
    or by the person behind the payer's or the payee's seat (an account, or a guest by the
    seat's token, so ``marked_by`` is empty for a guest's mark)."""

    class MarkedAs(models.TextChoices):
        HOST = "host", _("the host")
        PAYER = "payer", _("the payer")
        PAYEE = "payee", _("the payee")

    table = models.ForeignKey(
        "tables.Table", on_delete=models.CASCADE, related_name="transfers_paid", verbose_name=_("table")
    )
    # Settlement keys (see ledger.selectors): the seats' ids, so a renamed player stays matched.
    payer_seat = models.ForeignKey("tables.Seat", on_delete=models.CASCADE, related_name="+", verbose_name=_("from"))
    payee_seat = models.ForeignKey("tables.Seat", on_delete=models.CASCADE, related_name="+", verbose_name=_("to"))
    payer_name = models.CharField(_("from"), max_length=40)
    payee_name = models.CharField(_("to"), max_length=40)
    amount = models.DecimalField(_("amount"), max_digits=12, decimal_places=2)
    marked_by = models.ForeignKey(
        django_settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("marked by"),
    )
    # Who made the mark, as the page names them ("marked by Gita, the payee"): the seat's name
    # for the payer or the payee, the host's name for the host.
    marked_as = models.CharField(_("marked as"), max_length=5, choices=MarkedAs.choices, default=MarkedAs.HOST)
    marked_by_name = models.CharField(_("marked by"), max_length=40, blank=True, default="")
    at = models.DateTimeField(_("marked at"), auto_now_add=True)

    class Meta:
        verbose_name = _("transfer paid")
        verbose_name_plural = _("transfers paid")
        constraints = [
            models.UniqueConstraint(fields=["table", "payer_seat", "payee_seat"], name="transfer_paid_once"),
            models.CheckConstraint(condition=Q(amount__gt=0), name="transfer_paid_amount_positive"),
            # Only the payer or the payee can be a guest (no account); the host always has one.
            models.CheckConstraint(
                condition=Q(marked_by__isnull=False) | Q(marked_as__in=["payer", "payee"]),
                name="transfer_paid_host_has_account",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.payer_name} -> {self.payee_name} {self.amount}"
