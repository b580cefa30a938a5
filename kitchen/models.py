"""A kitchen-table night and its shared costs.

The night is a table of ``tables`` that is never dealt (its seats, buy-ins and cash-outs
go through the tables' write path and the ledger as at any table); this app adds which
tables are such nights, and the costs the players shared (pizza, drinks, the room), which
are money outside the chips and so no ledger entry (docs/kitchen-table.md).
"""

from __future__ import annotations

from django.conf import settings as django_settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _


class KitchenNight(models.Model):
    """A table played in person: Dashain keeps the bank, nobody is dealt."""

    table = models.OneToOneField(
        "tables.Table", on_delete=models.CASCADE, related_name="kitchen_night", verbose_name=_("table")
    )
    created_at = models.DateTimeField(_("created"), auto_now_add=True)

    class Meta:
        verbose_name = _("kitchen-table night")
        verbose_name_plural = _("kitchen-table nights")

    def __str__(self) -> str:
        return self.table.code


class SharedCost(models.Model):
    """One cost of the night: who paid, how much, and the shares of those who split it
    (``shares``: ``{seat id: whole shares}``, every share at least 1)."""

    night = models.ForeignKey(KitchenNight, on_delete=models.CASCADE, related_name="costs", verbose_name=_("night"))
    what = models.CharField(_("what"), max_length=60)
    amount = models.DecimalField(_("amount"), max_digits=12, decimal_places=2)
    paid_by = models.ForeignKey("tables.Seat", on_delete=models.CASCADE, related_name="+", verbose_name=_("paid by"))
    shares = models.JSONField(_("shares"), default=dict)
    recorded_by = models.ForeignKey(
        django_settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        related_name="+",
        verbose_name=_("recorded by"),
    )
    created_at = models.DateTimeField(_("recorded"), auto_now_add=True)

    class Meta:
        verbose_name = _("shared cost")
        verbose_name_plural = _("shared costs")
        constraints = [models.CheckConstraint(condition=Q(amount__gt=0), name="kitchen_cost_positive")]

    def __str__(self) -> str:
        return f"{self.what} {self.amount}"
