"""Hold'em hand values: the best five of seven cards (rule book 001, "Hand ranking").

A hand's value is one integer; a higher integer is a better hand and equal integers
are equal hands (they share the pot). It is built from 13-bit rank masks, one bit
per rank (bit 0 is the two, bit 12 the ace):

    value = category << 26 | primary << 13 | kickers

- ``category``: 0 high card, 1 pair, 2 two pair, 3 three of a kind, 4 straight,
  5 flush, 6 full house, 7 four of a kind, 8 straight flush (a royal flush is the
  best straight flush, nothing more).
- ``primary``: the ranks that make the hand (the pair, both pairs, the three of a
  kind, the four of a kind, the three then the pair of a full house, the five
  flush or high cards, the top card of a straight).
- ``kickers``: the other cards of the five.

Two masks with the same number of bits compare as integers exactly as their ranks
compare one at a time, highest first, which is how kickers are read. Only five
cards ever count, so a sixth or seventh card never breaks a tie, and suits never do.
The ace is high, and low only in the straight 5-4-3-2-A; Q-K-A-2-3 is no straight.

:func:`hand_value` is the fast path (no allocation beyond a few ints);
:func:`best_hand` also names the five cards, for the showdown events.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from engine.cards import Card

HIGH_CARD, PAIR, TWO_PAIR, THREE_OF_A_KIND, STRAIGHT, FLUSH, FULL_HOUSE, FOUR_OF_A_KIND, STRAIGHT_FLUSH = range(9)

CATEGORY_NAMES = (
    "high_card",
    "pair",
    "two_pair",
    "three_of_a_kind",
    "straight",
    "flush",
    "full_house",
    "four_of_a_kind",
    "straight_flush",
)

_ALL_MASKS = 1 << 13
_WHEEL = 0b1_0000_0000_1111  # A, 5, 4, 3, 2


def _top_bits(mask: int, count: int) -> int:
    """The ``count`` highest set bits of ``mask`` (fewer if it has fewer)."""
    out = 0
    while mask and count:
        top = 1 << (mask.bit_length() - 1)
        out |= top
        mask ^= top
        count -= 1
    return out


def _straight_top(mask: int) -> int:
    """The top card's bit of the best straight in ``mask``, or 0. The wheel's top card is the five."""
    for top in range(12, 3, -1):
        window = 0b11111 << (top - 4)
        if mask & window == window:
            return 1 << top
    if mask & _WHEEL == _WHEEL:
        return 1 << 3
    return 0


# Lookup tables over every 13-bit rank mask, built once at import (about 10 ms).
_TOP1 = [_top_bits(m, 1) for m in range(_ALL_MASKS)]
_TOP2 = [_top_bits(m, 2) for m in range(_ALL_MASKS)]
_TOP3 = [_top_bits(m, 3) for m in range(_ALL_MASKS)]
_TOP5 = [_top_bits(m, 5) for m in range(_ALL_MASKS)]
_STRAIGHT = [_straight_top(m) for m in range(_ALL_MASKS)]
_BITS = [m.bit_count() for m in range(_ALL_MASKS)]


def hand_value(cards: Sequence[Card]) -> int:
    """The value of the best five of ``cards`` (five to seven cards); higher is better."""
    seen1 = seen2 = seen3 = seen4 = 0
    suits = [0, 0, 0, 0]
    for card in cards:
        bit = 1 << (card >> 2)
        seen4 |= seen3 & bit
        seen3 |= seen2 & bit
        seen2 |= seen1 & bit
        seen1 |= bit
        suits[card & 3] |= bit
    bits = _BITS
    for suit_mask in suits:
        if bits[suit_mask] >= 5:
            top = _STRAIGHT[suit_mask]
            if top:
                return STRAIGHT_FLUSH << 26 | top << 13
            return FLUSH << 26 | _TOP5[suit_mask] << 13
    if seen4:
        quad = _TOP1[seen4]
        return FOUR_OF_A_KIND << 26 | quad << 13 | _TOP1[seen1 ^ quad]
    if seen3:
        trips = _TOP1[seen3]
        pair = _TOP1[seen2 ^ trips]
        if pair:
            return FULL_HOUSE << 26 | trips << 13 | pair
    top = _STRAIGHT[seen1]
    if top:
        return STRAIGHT << 26 | top << 13
    if seen3:
        return THREE_OF_A_KIND << 26 | seen3 << 13 | _TOP2[seen1 ^ seen3]
    if seen2:
        if bits[seen2] >= 2:
            pairs = _TOP2[seen2]
            return TWO_PAIR << 26 | pairs << 13 | _TOP1[seen1 ^ pairs]
        return PAIR << 26 | seen2 << 13 | _TOP3[seen1 ^ seen2]
    return _TOP5[seen1] << 13


def category_of(value: int) -> int:
    """The category (``HIGH_CARD`` ... ``STRAIGHT_FLUSH``) of a hand value."""
    return value >> 26


@dataclass(frozen=True, slots=True)
class BestHand:
    """A hand's value, its category name and the five cards that make it (best first)."""

    value: int
    category: str
    cards: tuple[Card, ...]


def _rank_bits_in_order(mask: int) -> tuple[int, ...]:
    """Rank indices (0 = two) of the set bits, highest first."""
    out = []
    while mask:
        top = mask.bit_length() - 1
        out.append(top)
        mask ^= 1 << top
    return tuple(out)


_RANKS_DESC = [_rank_bits_in_order(m) for m in range(_ALL_MASKS)]
_TAKE = {PAIR: 2, TWO_PAIR: 2, THREE_OF_A_KIND: 3, FULL_HOUSE: 3, FOUR_OF_A_KIND: 4}


def best_hand(cards: Sequence[Card], value: int | None = None) -> BestHand:
    """The value of the best five of ``cards`` and the five cards themselves.

    The cards come best first (the cards that make the hand, then the kickers). Among
    cards of equal rank, clubs, diamonds, hearts, spades is the order they are taken in;
    which one does not change the value, since suits never break a tie. ``value``, when
    the caller already has it from :func:`hand_value`, saves working it out again.
    """
    if value is None:
        value = hand_value(cards)
    category = value >> 26
    primary = (value >> 13) & 0x1FFF
    kickers = value & 0x1FFF
    pool = sorted(cards, reverse=True)
    needed: list[tuple[int, int]]  # (rank index, how many cards of it)
    if category in (STRAIGHT, STRAIGHT_FLUSH):
        top = primary.bit_length() - 1
        ranks = (top, top - 1, top - 2, top - 3, top - 4) if top >= 4 else (3, 2, 1, 0, 12)
        needed = [(rank, 1) for rank in ranks]
    elif category in (FLUSH, HIGH_CARD):
        needed = [(rank, 1) for rank in _RANKS_DESC[primary]]
    elif category == FULL_HOUSE:
        needed = [(_RANKS_DESC[primary][0], 3), (_RANKS_DESC[kickers][0], 2)]
    else:
        take = _TAKE[category]
        needed = [(rank, take) for rank in _RANKS_DESC[primary]] + [(rank, 1) for rank in _RANKS_DESC[kickers]]
    if category in (FLUSH, STRAIGHT_FLUSH):
        suit_counts = [0, 0, 0, 0]
        for card in cards:
            suit_counts[card & 3] += 1
        suit = suit_counts.index(max(suit_counts))
        pool = [card for card in pool if card & 3 == suit]
    chosen: list[Card] = []
    for rank, count in needed:
        for card in pool:
            if card >> 2 == rank:
                chosen.append(card)
                count -= 1
                if not count:
                    break
    return BestHand(value=value, category=CATEGORY_NAMES[category], cards=tuple(chosen))
