"""Cards and the 52-card deck.

A card is a small integer, ``(rank - 2) * 4 + suit``, so that rank and suit are a
division and a remainder away and a deck is a plain list of ints. Ranks run from
2 to 14 (the ace); suits are ``s h d c`` (Hukum, Paan, Itta, Chidi). Text is the
spec's notation: rank ``A K Q J T 9 8 7 6 5 4 3 2`` (``10`` is accepted for ``T``)
followed by the suit, e.g. ``As``, ``Td``, ``10d``, ``2c``.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence

RANK_CHARS = "23456789TJQKA"
SUIT_CHARS = "shdc"
ACE = 14

Card = int

DECK_SIZE = 52
#: The deck before any shuffle: ranks 2 to A, each in suit order s, h, d, c.
NEW_DECK: tuple[Card, ...] = tuple(range(DECK_SIZE))


class CardError(ValueError):
    """A card written in a way the spec does not allow."""


def make_card(rank: int, suit: int) -> Card:
    """The card of ``rank`` (2-14) and ``suit`` (0-3)."""
    return (rank - 2) * 4 + suit


def rank_of(card: Card) -> int:
    """2 to 14, the ace being 14."""
    return card // 4 + 2


def parse_card(text: object) -> Card:
    """Read ``As``, ``Td``, ``10d`` or ``2c`` (case of the rank is ignored).

    >>> card_text(parse_card("10d"))
    'Td'
    """
    if not isinstance(text, str):
        raise CardError(f"A card must be text such as 'As', not {text!r}.")
    body = text.strip()
    if len(body) == 3 and body[:2] == "10":
        body = "T" + body[2]
    if len(body) != 2:
        raise CardError(f"{text!r} is not a card: write a rank and a suit, such as 'As' or '10d'.")
    rank_char, suit_char = body[0].upper(), body[1].lower()
    if rank_char not in RANK_CHARS or suit_char not in SUIT_CHARS:
        raise CardError(f"{text!r} is not a card: ranks are A K Q J T 9-2, suits are s h d c.")
    return make_card(RANK_CHARS.index(rank_char) + 2, SUIT_CHARS.index(suit_char))


def card_text(card: Card) -> str:
    """The card in the spec's notation, e.g. ``'As'``."""
    return RANK_CHARS[card // 4] + SUIT_CHARS[card % 4]


def parse_cards(texts: Iterable[object]) -> list[Card]:
    """Read several cards; a repeated card is an error."""
    cards = [parse_card(text) for text in texts]
    if len(set(cards)) != len(cards):
        raise CardError("The same card appears twice.")
    return cards


def cards_text(cards: Sequence[Card]) -> list[str]:
    """Several cards in the spec's notation."""
    return [card_text(card) for card in cards]


def deck_with(placed: Mapping[int, Card]) -> list[Card]:
    """A 52-card deck (top first) with each card of ``placed`` at its position (0 is the top)
    and every other card, in new-deck order, in the positions left. The placed cards must differ."""
    used = set(placed.values())
    rest = iter(card for card in NEW_DECK if card not in used)
    return [placed[position] if position in placed else next(rest) for position in range(DECK_SIZE)]
