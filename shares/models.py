"""A shared hand: a link to one finished hand's replay that opens for anyone who has it.

A row says the hand is shared; the link names the row by its id, signed with the site's
``SECRET_KEY`` (Django's ``signing.Signer`` under this app's salt, HMAC-SHA256: 256 bits
nobody can guess without the key; nothing secret is stored). Revoking deletes the row, so
the link answers 404 whatever its signature, and sharing the hand again makes a new row,
a new id and a new link (ids are never reused). One link a hand: whoever played in the hand,
or the host, gets the same link and may revoke it.

The page behind the link (``shares.views.shared_hand``) shows the hand as a
watcher at the table saw it (docs/fairness.md, "A shared hand").
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from tables.models import Hand


class SharedHand(models.Model):
    hand = models.ForeignKey(Hand, on_delete=models.CASCADE, related_name="shares", verbose_name=_("hand"))
    made_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("made by"),
    )
    made_by_name = models.CharField(_("made by (name at the table)"), max_length=64, blank=True, default="")
    created_at = models.DateTimeField(_("made"), auto_now_add=True)

    class Meta:
        verbose_name = _("shared hand")
        verbose_name_plural = _("shared hands")
        constraints = [models.UniqueConstraint(fields=["hand"], name="one_shared_link_per_hand")]

    def __str__(self) -> str:
        return f"{self.hand} (shared)"
