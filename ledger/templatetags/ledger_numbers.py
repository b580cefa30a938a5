"""How the ledger's pages write a result: a gain with its plus sign, a loss with its minus."""

from __future__ import annotations

from decimal import Decimal

from django import template
from django.utils.formats import localize

register = template.Library()


@register.filter
def signed(value: int | Decimal) -> str:
    """``850`` -> ``"+850"``, ``Decimal("-3.50")`` -> ``"-3.50"``, ``0`` -> ``"0"`` (localized like ``{{ value }}``)."""
    return ("+" if value > 0 else "") + localize(value)
