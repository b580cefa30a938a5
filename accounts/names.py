"""The names players give each other: display names (accounts and guests) and home game names.

They are the only text one player writes for others to read, so they are checked in one
place (:func:`name_clean`): the name is Unicode-normalised (NFKC: "Asha" in fullwidth letters
is "Asha"), the invisible and blank characters that only hide a difference (:data:`INVISIBLE`:
zero-width space, soft hyphen, word joiner, byte-order mark, the Hangul fillers, the Braille
blank and every other default-ignorable or format character) are removed, surrounding and
repeated spaces are collapsed, and control
characters, the Unicode bidirectional controls (which could make "Asha pays Bikash" read
the other way round) and angle brackets are refused with a message. Joiners (U+200C,
U+200D) and variation selectors stay: Devanagari and emoji need them. Pages escape every
name anyway (tests/config/test_hostile_names.py shows each page and the CSV with hostile
names).

Two names are the same name when people would read them so (:func:`name_key`): compared
after NFKC, without any character of :data:`INVISIBLE` (joiners included), ignoring
case, by their confusable skeleton (Unicode TR39: a Cyrillic A and a Latin A are one
letter to the eye). The skeleton is computed from the TR39 confusables data shipped by the
``confusable-homoglyphs`` package.
"""

from __future__ import annotations

import re
import unicodedata
from functools import lru_cache

import regex  # type: ignore[import-untyped]
from django.core.exceptions import ValidationError
from django.utils.translation import gettext_lazy as _

MAX_DISPLAY_NAME_LENGTH = 40

# C0 and C1 controls, DEL, angle brackets, and the bidirectional marks, embeddings,
# overrides and isolates (U+061C, U+200E-F, U+202A-E, U+2066-9).
_REFUSED = re.compile("[\x00-\x1f\x7f-\x9f<>\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]")

#: What a name never shows: Unicode's Default_Ignorable_Code_Point (drawn as nothing: the
#: zero-width characters, the soft hyphen, the variation selectors, the Hangul fillers U+115F,
#: U+1160, U+3164 and U+FFA0...) and every format character (General_Category Cf), both from
#: the Unicode data of the ``regex`` package (pinned in requirements.txt; Python's
#: ``unicodedata`` has no Default_Ignorable property), and the one blank that no Unicode
#: property marks: U+2800 BRAILLE PATTERN BLANK, drawn as an empty cell of a letter's width
#: (Unicode's names list: "it does not act as a space"), so neither NFKC nor the spaces' rule
#: touch it.
INVISIBLE = regex.compile(r"[\p{Default_Ignorable_Code_Point}\p{Cf}\N{BRAILLE PATTERN BLANK}]")
# What a stored name keeps of them: the joiners and variation selectors that Devanagari
# conjuncts and emoji need (the comparison key drops them too).
_KEPT = frozenset("\u200c\u200d") | frozenset(chr(code) for code in range(0xFE00, 0xFE10))


def _invisible(char: str) -> bool:
    return INVISIBLE.match(char) is not None


def name_normal(value: str) -> str:
    """``value`` as stored: NFKC, without the invisible characters that only hide a
    difference, its spaces collapsed. Bidirectional controls and control characters are
    left in, for :func:`name_clean` to refuse with a message."""
    text = unicodedata.normalize("NFKC", value)
    text = "".join(char for char in text if char in _KEPT or _REFUSED.match(char) or not _invisible(char))
    return " ".join(text.split())


def name_visible(value: str) -> str:
    """``value`` as people see it: NFKC, without any character of :data:`INVISIBLE`."""
    visible: str = INVISIBLE.sub("", unicodedata.normalize("NFKC", value))
    return visible


@lru_cache(maxsize=1)
def _prototypes() -> dict[str, str]:
    """Each confusable character -> one string standing for every character it can be
    taken for (its class in TR39's confusables data; a class with a prototype of several
    characters, "rn" for "m", stands as that string)."""
    from confusable_homoglyphs.confusables import confusables_data  # type: ignore[import-untyped]

    def plain(text: str) -> str:  # the data wraps right-to-left letters in LRM marks
        return text.replace("\u200e", "").replace("\u200f", "")

    parent: dict[str, str] = {}

    def find(node: str) -> str:
        parent.setdefault(node, node)
        while parent[node] != node:
            parent[node] = parent[parent[node]]
            node = parent[node]
        return node

    degree: dict[str, int] = {}
    for key, entries in confusables_data.items():
        source = plain(key)
        degree[source] = len(entries)
        for entry in entries:
            target = plain(entry["c"])
            if source and target:
                parent[find(source)] = find(target)
    classes: dict[str, list[str]] = {}
    for node in list(parent):
        classes.setdefault(find(node), []).append(node)
    mapping: dict[str, str] = {}
    for members in classes.values():
        longer = [member for member in members if len(member) > 1]
        standing = min(longer) if longer else max(members, key=lambda member: (degree.get(member, 0), -ord(member[0])))
        for member in members:
            if len(member) == 1:
                mapping[member] = standing
    return mapping


def name_skeleton(value: str) -> str:
    """TR39's skeleton of ``value``: decomposed, each character replaced by its class's
    stand-in, decomposed again."""
    prototypes = _prototypes()
    decomposed = unicodedata.normalize("NFD", value)
    return unicodedata.normalize("NFD", "".join(prototypes.get(char, char) for char in decomposed))


def name_key(value: str) -> str:
    """What two names must differ in to be two names at a table: people read "Asha",
    "Asha" with a zero-width space, with a Cyrillic A, "ASHA" and fullwidth "Asha" alike."""
    visible = " ".join(name_visible(value).split())
    return name_skeleton(name_skeleton(visible).casefold())


def name_clean(value: object, *, max_length: int = MAX_DISPLAY_NAME_LENGTH) -> str:
    """``value`` with its spaces collapsed, or :class:`ValidationError` saying what to fix."""
    if not isinstance(value, str):
        raise ValidationError(_("Give a name other players will see."), code="bad_name")
    cleaned = name_normal(value)
    if not cleaned or not name_visible(cleaned).strip():
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
