"""A kitchen-table night and its tournament clock.

The night is a table of ``tables`` that is never dealt (its seats, buy-ins and cash-outs
go through the tables' write path and the ledger as at any table, and so do the costs the
players shared, each a ledger line of its own, ``ledger.SharedCost``); this app adds which
tables are such nights, and a tournament's clock, eliminations and add-ons
(docs/kitchen-table.md).
"""

from __future__ import annotations

from django.db import models
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


class TournamentClock(models.Model):
    """A hold'em tournament at the kitchen table: its levels, re-buy period and payout table,
    and the clock's two stored values (``kitchen.clock``: where it is is computed from them)."""

    night = models.OneToOneField(KitchenNight, on_delete=models.CASCADE, related_name="clock", verbose_name=_("night"))
    levels = models.JSONField(_("levels"), default=list)
    rebuy_levels = models.PositiveSmallIntegerField(_("re-buys through level"), default=0)
    payouts = models.JSONField(_("payouts"), default=list)
    addon_level = models.PositiveSmallIntegerField(_("add-ons at level"), default=0)
    addon_chips = models.PositiveIntegerField(_("chips of an add-on"), default=0)
    started = models.BooleanField(_("started"), default=False)
    elapsed_ms = models.BigIntegerField(_("time played before the last start"), default=0)
    running_since = models.DateTimeField(_("running since"), null=True, blank=True)

    class Meta:
        verbose_name = _("tournament clock")
        verbose_name_plural = _("tournament clocks")

    def __str__(self) -> str:
        return str(self.night)


class Elimination(models.Model):
    """A player out of the tournament, in the order the host recorded (``place``: the best
    place the players going out together cover; they share it)."""

    clock = models.ForeignKey(
        TournamentClock, on_delete=models.CASCADE, related_name="eliminations", verbose_name=_("clock")
    )
    seat = models.OneToOneField("tables.Seat", on_delete=models.CASCADE, related_name="+", verbose_name=_("player"))
    place = models.PositiveSmallIntegerField(_("place"))
    created_at = models.DateTimeField(_("recorded"), auto_now_add=True)

    class Meta:
        verbose_name = _("elimination")
        verbose_name_plural = _("eliminations")

    def __str__(self) -> str:
        return f"{self.seat_id}: {self.place}"


class AddOn(models.Model):
    """A player's one add-on (``TournamentClock.addon_chips`` at the night's chip value)."""

    clock = models.ForeignKey(TournamentClock, on_delete=models.CASCADE, related_name="addons", verbose_name=_("clock"))
    seat = models.OneToOneField("tables.Seat", on_delete=models.CASCADE, related_name="+", verbose_name=_("player"))
    created_at = models.DateTimeField(_("recorded"), auto_now_add=True)

    class Meta:
        verbose_name = _("add-on")
        verbose_name_plural = _("add-ons")

    def __str__(self) -> str:
        return str(self.seat_id)
