"""The order of three-card hands: standard Teen Patti ranking and 999's digit score.

Standard ranking (rule books 000 and 004), from the top: trail (three of a kind), pure
sequence (a run in one suit), sequence (a run), colour (a flush), pair, high card. A run
beats a colour, unlike poker. A-K-Q and A-2-3 are both runs; ``best_run`` says which one
is the top run, the other is second, then K-Q-J down to 4-3-2. Suits never break a tie:
two hands of the same type are compared by rank only (trails and runs by their rank, pairs
by the pair then the odd card, colours and high cards by the top card, then the next, then
the last).

999 (rule book 002): A counts 1, 2-9 as printed, 10/J/Q/K count 0, and a hand is the
largest three-digit number its digits make (9-A-K is 910). Suits and categories do not
score.

A hand's *score* is an integer; a larger score is a better hand and equal scores are an
exact tie. Every one of the 22,100 three-card hands is scored once, from scratch by
:func:`evaluate_hand`, into a table keyed by the hand's card bits; :func:`hand_score`
is then a dictionary look-up. Standard scores are ``category << 12 | tie-break``.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import combinations

from engine.cards import ACE, Card, card_text
from engine.view_types import HandLabel

HIGH_CARD, PAIR, COLOUR, SEQUENCE, PURE_SEQUENCE, TRAIL = range(6)
CATEGORY_NAMES = ("high_card", "pair", "colour", "sequence", "pure_sequence", "trail")
RANKINGS = ("standard", "digits")
BEST_RUNS = ("AKQ", "A23")

#: How many different three-card hands a 52-card deck holds (52 choose 3).
HAND_COUNT = 22_100

_DIGIT_OF_RANK = {2: 2, 3: 3, 4: 4, 5: 5, 6: 6, 7: 7, 8: 8, 9: 9, 10: 0, 11: 0, 12: 0, 13: 0, ACE: 1}


def _run_value(ranks_high_first: Sequence[int], best_run: str) -> int:
    """0 when the three ranks are not a run, else the run's place (higher is better)."""
    high, middle, low = ranks_high_first
    if (high, middle, low) == (ACE, 13, 12):
        return 16 if best_run == "AKQ" else 15
    if (high, middle, low) == (ACE, 3, 2):
        return 16 if best_run == "A23" else 15
    if high == middle + 1 == low + 2:
        return high  # 4-3-2 (4) up to K-Q-J (13), all below the two ace runs
    return 0


def evaluate_hand(cards: Sequence[Card], *, ranking: str = "standard", best_run: str = "AKQ") -> int:
    """Score three cards from scratch (the reference the table is built from).

    >>> from engine.cards import parse_cards
    >>> evaluate_hand(parse_cards(["2h", "3h", "4h"])) > evaluate_hand(parse_cards(["Qs", "Kd", "Ac"]))
    True
    >>> evaluate_hand(parse_cards(["9s", "Ah", "Kd"]), ranking="digits")
    910
    """
    if ranking == "digits":
        digits = sorted((_DIGIT_OF_RANK[card // 4 + 2] for card in cards), reverse=True)
        return digits[0] * 100 + digits[1] * 10 + digits[2]
    ranks = sorted((card // 4 + 2 for card in cards), reverse=True)
    flush = cards[0] % 4 == cards[1] % 4 == cards[2] % 4
    high, middle, low = ranks
    if high == low:
        return TRAIL << 12 | high
    run = _run_value(ranks, best_run)
    if run:
        return (PURE_SEQUENCE if flush else SEQUENCE) << 12 | run
    if high == middle or middle == low:
        pair, odd = (high, low) if high == middle else (low, high)
        return PAIR << 12 | pair << 4 | odd
    return (COLOUR if flush else HIGH_CARD) << 12 | high << 8 | middle << 4 | low


_TABLES: dict[tuple[str, str], dict[int, int]] = {}


def score_table(ranking: str = "standard", best_run: str = "AKQ") -> dict[int, int]:
    """Every three-card hand's score, keyed by ``1 << a | 1 << b | 1 << c`` (built once)."""
    key = (ranking, "-" if ranking == "digits" else best_run)
    table = _TABLES.get(key)
    if table is None:
        table = {
            1 << a | 1 << b | 1 << c: evaluate_hand((a, b, c), ranking=ranking, best_run=best_run)
            for a, b, c in combinations(range(52), 3)
        }
        assert len(table) == HAND_COUNT
        _TABLES[key] = table
    return table


def hand_score(cards: Sequence[Card], *, ranking: str = "standard", best_run: str = "AKQ") -> int:
    """The score of three cards, from the precomputed table."""
    a, b, c = cards
    return score_table(ranking, best_run)[1 << a | 1 << b | 1 << c]


def compare_hands(
    first: Sequence[Card], second: Sequence[Card], *, ranking: str = "standard", best_run: str = "AKQ"
) -> int:
    """1 when ``first`` is better, -1 when ``second`` is, 0 for an exact tie."""
    table = score_table(ranking, best_run)
    a, b, c = first
    x, y, z = second
    left = table[1 << a | 1 << b | 1 << c]
    right = table[1 << x | 1 << y | 1 << z]
    return (left > right) - (left < right)


def hand_label(score: int, ranking: str) -> HandLabel:
    """What a revealed hand is, for people: ``{"category": "pair"}`` or, in 999,
    ``{"category": "digits", "value": 910}``."""
    if ranking == "digits":
        return {"category": "digits", "value": score}
    return {"category": CATEGORY_NAMES[score >> 12]}


def describe(cards: Sequence[Card], *, ranking: str = "standard", best_run: str = "AKQ") -> str:
    """``'As Ad Ah: trail'``; for logs and messages."""
    label = hand_label(hand_score(cards, ranking=ranking, best_run=best_run), ranking)
    name = str(label.get("value", label["category"])).replace("_", " ")
    return " ".join(card_text(card) for card in cards) + ": " + name
