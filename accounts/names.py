"""The names players give each other: display names (accounts and guests) and home game names.

They are the only text one player writes for others to read, so they are checked in one
place: surrounding and repeated spaces are collapsed, and control characters, the
Unicode bidirectional controls (which could make "Asha pays Bikash" read the other way
round) and angle brackets are refused with a message. Joiners (U+200C, U+200D) stay
allowed: Devanagari and emoji need them. Pages escape every name anyway
(tests/config/test_hostile_names.py shows each page and the CSV with hostile names).
"""

from __future__ import annotations

import re

from django.core.exceptions import ValidationError
from django.utils.translation import gettext_lazy as _

MAX_DISPLAY_NAME_LENGTH = 40

# C0 and C1 controls, DEL, angle brackets, and the bidirectional marks, embeddings,
# overrides and isolates (U+061C, U+200E-F, U+202A-E, U+2066-9).
_REFUSED = re.compile("[\x00-\x1f\x7f-\x9f<>\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]")


def name_clean(value: object, *, max_length: int = MAX_DISPLAY_NAME_LENGTH) -> str:
    """``value`` with its spaces collapsed, or :class:`ValidationError` saying what to fix."""
    if not isinstance(value, str):
        raise ValidationError(_("Give a name other players will see."), code="bad_name")
    cleaned = " ".join(value.split())
    if not cleaned:
        raise ValidationError(_("Give a name other players will see."), code="bad_name")
    if _REFUSED.search(cleaned):
        raise ValidationError(
            _("A name cannot hold < or >, control characters or text-direction marks."), code="bad_name"
        )
    if len(cleaned) > max_length:
        raise ValidationError(
            _("Give a name of at most %(limit)d characters.") % {"limit": max_length}, code="bad_name"
        )
    return cleaned
