"""Teen Patti variants a host may pick on top of Faras or Classic: Muflis, AK47, Joker, Four-card.

A variant changes only how a player's cards make a hand and how hands compare; the betting,
the show, the sideshow and the pot limit are the preset's (``docs/rules.md``, "Variants").
Every hand is scored once, at the deal, into an integer (higher is better, equal is an
exact tie) and a label, so the show, the sideshow and the pot limit compare scores exactly
as they do without a variant.

- ``muflis``: low wins. The standard order turned over, hand for hand: the score is
  ``MUFLIS_TOP - standard score``, so exact ties stay ties and every other pair of hands
  swaps. A-A-A is the worst hand; 5-3-2 (not all one suit) the best.
- ``ak47``: every ace, king, four and seven is a joker.
- ``joker``: after the deal the next card of the deck is turned face up for everyone; every
  card of its rank is a joker in this hand (the turned card itself is dealt to nobody).
- ``four_card``: four cards each; a hand is the best three of the four.

A joker stands for any card, of any rank and suit, that is not one of the hand's natural
cards (two or three jokers stand for different cards), chosen to make the best hand; it may
stand for itself. Its hand is the best standard hand over every choice: brute force over the
cards for each joker (:func:`joker_hand`). The card it stands for may be in someone else's
hand or still in the deck. Letting a joker repeat a card would change nothing: no best hand
needs a card twice (a trail needs three of four suits, a run three different ranks), and
``tests/engine/test_teenpatti_variants.py`` checks the two agree. A hand made with jokers and
a natural hand of the same standard score tie exactly (rule book 002: "Natural and
wild-assisted equal hands have no automatic priority").
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from itertools import combinations
from random import Random

from engine.cards import DECK_SIZE, Card, card_text, rank_of
from engine.teenpatti.ranking import CATEGORY_NAMES, hand_score, score_table
from engine.view_types import HandLabel

VARIANTS = ("none", "muflis", "ak47", "joker", "four_card")
#: Variants whose jokers are the cards of some ranks.
JOKER_VARIANTS = ("ak47", "joker")
#: AK47: the ranks that are jokers (ace 14, king 13, four, seven).
AK47_RANKS = frozenset({14, 13, 4, 7})
#: Above every standard score (a trail of aces is ``5 << 12 | 14``), so Muflis scores stay positive.
MUFLIS_TOP = 1 << 15


def cards_each(variant: str) -> int:
    """How many cards each player is dealt."""
    return 4 if variant == "four_card" else 3


def turns_a_card(variant: str) -> bool:
    """Whether a card is turned face up for everyone after the deal (the Joker variant)."""
    return variant == "joker"


def joker_ranks(variant: str, turned: Card | None) -> frozenset[int]:
    """The ranks whose cards are jokers in this hand (2 to 14); empty without jokers."""
    if variant == "ak47":
        return AK47_RANKS
    if variant == "joker" and turned is not None:
        return frozenset({rank_of(turned)})
    return frozenset()


@dataclass(frozen=True, slots=True)
class VariantHand:
    """A player's hand under a variant: its ``score`` (compare these), the three cards it
    counts as (``played``: jokers replaced by what they stand for; in Four-card the best three
    of four), and how many jokers it holds."""

    score: int
    played: tuple[Card, Card, Card]
    jokers: int

    def label(self, variant: str) -> HandLabel:
        """What the hand is, for people: ``{"category": "trail", "cards": ["As", "Ah", "Ad"]}``,
        with ``"jokers": n`` when jokers made it. ``cards`` are the three it counts as."""
        category = CATEGORY_NAMES[(MUFLIS_TOP - self.score if variant == "muflis" else self.score) >> 12]
        out: HandLabel = {"category": category, "cards": [card_text(card) for card in self.played]}
        if self.jokers:
            out["jokers"] = self.jokers
        return out


@lru_cache(maxsize=8192)
def _best_with_jokers(naturals: tuple[Card, ...], jokers: int, best_run: str) -> tuple[int, tuple[Card, ...]]:
    """The best standard score of ``naturals`` plus ``jokers`` different cards of free choice
    (not among the naturals), and the choice: brute force over every choice, each scored from
    the 22,100-hand table; ties keep the first found, in new-deck order."""
    table = score_table("standard", best_run)
    base = 0
    for card in naturals:
        base |= 1 << card
    best_score = -1
    best_choice: tuple[Card, ...] = ()
    free = [card for card in range(DECK_SIZE) if card not in naturals]
    for choice in combinations(free, jokers):
        bits = base
        for card in choice:
            bits |= 1 << card
        score = table[bits]
        if score > best_score:
            best_score, best_choice = score, choice
    return best_score, best_choice


def joker_hand(cards: Sequence[Card], wild: frozenset[int], *, best_run: str = "AKQ") -> VariantHand:
    """Three cards, where every card whose rank is in ``wild`` is a joker."""
    naturals = tuple(sorted(card for card in cards if rank_of(card) not in wild))
    jokers = len(cards) - len(naturals)
    if not jokers:
        a, b, c = cards
        return VariantHand(hand_score(cards, best_run=best_run), (a, b, c), 0)
    score, choice = _best_with_jokers(naturals, jokers, best_run)
    # The cards it counts as, in the order dealt: each joker replaced by what it stands for.
    stands_for = iter(choice)
    a, b, c = (card if rank_of(card) not in wild else next(stands_for) for card in cards)
    return VariantHand(score, (a, b, c), jokers)


def four_card_hand(cards: Sequence[Card], *, best_run: str = "AKQ") -> VariantHand:
    """Four cards: the best three, by brute force over the four ways to leave one out."""
    best: VariantHand | None = None
    for three in combinations(cards, 3):
        score = hand_score(three, best_run=best_run)
        if best is None or score > best.score:
            a, b, c = three
            best = VariantHand(score, (a, b, c), 0)
    assert best is not None
    return best


def muflis_hand(cards: Sequence[Card], *, best_run: str = "AKQ") -> VariantHand:
    """Three cards, low wins: the standard order turned over."""
    a, b, c = cards
    return VariantHand(MUFLIS_TOP - hand_score(cards, best_run=best_run), (a, b, c), 0)


def variant_hand(
    cards: Sequence[Card], *, variant: str, best_run: str = "AKQ", turned: Card | None = None
) -> VariantHand:
    """A player's hand under ``variant`` (``turned``: the Joker variant's face-up card)."""
    if len(cards) != cards_each(variant):
        raise ValueError(f"{variant} hands have {cards_each(variant)} cards, not {len(cards)}.")
    if variant == "muflis":
        return muflis_hand(cards, best_run=best_run)
    if variant == "four_card":
        return four_card_hand(cards, best_run=best_run)
    if variant in JOKER_VARIANTS:
        return joker_hand(cards, joker_ranks(variant, turned), best_run=best_run)
    if variant == "none":
        a, b, c = cards
        return VariantHand(hand_score(cards, best_run=best_run), (a, b, c), 0)
    raise ValueError(f"unknown variant {variant!r}")


def compare_variant(
    first: Sequence[Card],
    second: Sequence[Card],
    *,
    variant: str,
    best_run: str = "AKQ",
    turned: Card | None = None,
) -> int:
    """1 when ``first`` is better under ``variant``, -1 when ``second`` is, 0 for an exact tie."""
    left = variant_hand(first, variant=variant, best_run=best_run, turned=turned).score
    right = variant_hand(second, variant=variant, best_run=best_run, turned=turned).score
    return (left > right) - (left < right)


@lru_cache(maxsize=64)
def score_sample(variant: str, best_run: str = "AKQ", turned: Card | None = None, count: int = 4000) -> tuple[int, ...]:
    """The sorted scores of ``count`` hands dealt from a deck without ``turned``, under ``variant``:
    where a hand stands among the hands players are dealt (the computers' measure of strength).
    The deals come from a generator seeded by the arguments, so the sample is always the same."""
    deck = [card for card in range(DECK_SIZE) if card != turned]
    rng = Random(f"{variant}|{best_run}|{turned}|{count}")
    each = cards_each(variant)
    return tuple(
        sorted(
            variant_hand(rng.sample(deck, each), variant=variant, best_run=best_run, turned=turned).score
            for _ in range(count)
        )
    )
