"""How the ledger's pages write numbers: a result with its sign, an exact decimal in the
page's language (``0.0125`` is ``0,0125`` in German)."""

from __future__ import annotations

from decimal import Decimal

from django import template
from django.utils.formats import localize
from django.utils.translation import get_language

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


@register.filter
def in_currency(value: str | int | Decimal, currency: str) -> str:
    """An amount with the host's currency (ISO code), placed as the language writes it:
    ``10,00 EUR`` in German, ``NPR 10.00`` in English, Nepali and Hindi. No currency: the
    amount alone. A number is localized first; a text (already written) is kept as it is."""
    amount = value if isinstance(value, str) else localize(value)
    if not currency:
        return amount
    if (get_language() or "").startswith("de"):
        return f"{amount}\u00a0{currency}"
    return f"{currency}\u00a0{amount}"


@register.filter
def marked_by(transfer_id: object, marks: object) -> str:
    """``{{ transfer.transfer_id|marked_by:marks }}``: who marked that season transfer paid ("" if no one)."""
    if not isinstance(marks, dict) or not isinstance(transfer_id, int):
        return ""
    return str(marks.get(transfer_id, ""))
