"""How the ledger's pages write numbers: a result with its sign, an exact decimal in the
page's language (``0.0125`` is ``0,0125`` in German)."""

from __future__ import annotations

from decimal import Decimal

from django import template
from django.utils.formats import localize

register = template.Library()


@register.filter
def signed(value: int | Decimal) -> str:
    """``850`` -> ``"+850"``, ``Decimal("-3.50")`` -> ``"-3.50"``, ``0`` -> ``"0"`` (localized like ``{{ value }}``)."""
    return ("+" if value > 0 else "") + localize(value)


@register.filter
def localized_decimal(value: str | Decimal) -> str:
    """An exact decimal text such as a chip's value (``"0.0125"``) with the language's decimal
    sign, every place kept: ``"0,0125"`` in German, ``"0.0125"`` in English and Nepali."""
    return localize(Decimal(value))
