"""Hold'em odds for the computer players: starting-hand order, ranges, equity by simulation.

- :data:`STARTING_HANDS`: the 1,326 two-card starting hands, strongest first. The order
  comes from a points count in the spirit of book 001's tips ("pairs, two high cards
  and an ace with a good second card are worth a raise"): the higher card's points,
  doubled for a pair, plus two for suited cards, less for a gap between the ranks, plus
  one for connected cards below a queen. :func:`starting_strength` is a hand's place
  in that order, from 0 (worst) to 1 (best).
- A *range* is the top share of that order: ``0.2`` means the best 20% of starting
  hands. Opponents are put on ranges; :func:`equity` deals them hands from their ranges
  and the rest of the board at random, many times, and scores every deal with the
  engine's own evaluator (:func:`engine.holdem.evaluator.hand_value`).

Everything takes a :class:`random.Random`; nothing reads global state.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from dataclasses import dataclass
from itertools import combinations

from engine.cards import ACE, Card
from engine.holdem.evaluator import PAIR, category_of, hand_value

_HIGH_CARD_POINTS = {ACE: 10.0, 13: 8.0, 12: 7.0, 11: 6.0}


def _points(first: Card, second: Card) -> float:
    high, low = sorted((first // 4 + 2, second // 4 + 2), reverse=True)
    points = _HIGH_CARD_POINTS.get(high, high / 2)
    if high == low:
        return max(points * 2, 5.0)
    if first % 4 == second % 4:
        points += 2
    gap = high - low - 1
    points -= (0, 1, 2, 4)[gap] if gap < 4 else 5
    if gap <= 1 and high < 12:
        points += 1
    return math.ceil(points)


def _order_key(hand: tuple[Card, Card]) -> tuple[float, int, int]:
    high, low = sorted((hand[0] // 4 + 2, hand[1] // 4 + 2), reverse=True)
    return (_points(*hand), high, low)


#: Every starting hand, strongest first (equal hands keep new-deck order).
STARTING_HANDS: tuple[tuple[Card, Card], ...] = tuple(sorted(combinations(range(52), 2), key=_order_key, reverse=True))
_COUNT = len(STARTING_HANDS)


def _places() -> dict[tuple[Card, Card], float]:
    """Each hand's place: 1 minus the share of hands strictly stronger (equal hands share it)."""
    places: dict[tuple[Card, Card], float] = {}
    place, previous = 1.0, None
    for index, hand in enumerate(STARTING_HANDS):
        key = _order_key(hand)
        if key != previous:
            place, previous = 1.0 - index / _COUNT, key
        places[hand] = place
    return places


_PLACE = _places()


def starting_strength(cards: Sequence[Card]) -> float:
    """Where two hole cards stand among all starting hands: 1.0 is the best (a pair of aces).

    >>> from engine.cards import parse_cards
    >>> starting_strength(parse_cards(["As", "Ah"])) == 1.0
    True
    >>> starting_strength(parse_cards(["Ks", "Qs"])) > starting_strength(parse_cards(["7d", "2c"]))
    True
    """
    first, second = sorted(cards)
    return _PLACE[(first, second)]


@dataclass(frozen=True, slots=True)
class Opponent:
    """Someone still in the hand, as the simulation deals to them.

    ``share``: the top share of starting hands they are put on. ``cards``: their cards
    when everyone has seen them (turned up at an all-in). ``needs_made_hand``: they have
    bet or raised after the flop, so a dealt hand without at least a pair on the board
    (or four to a flush or a straight) is kept only with probability ``bluff_rate``.
    """

    share: float
    cards: tuple[Card, Card] | None = None
    needs_made_hand: bool = False
    bluff_rate: float = 1.0


def _drawing_or_made(hole: tuple[Card, Card], board: Sequence[Card]) -> bool:
    """At least a pair using a hole card, or four cards to a flush or an open straight."""
    if not board:
        return True
    cards = (*hole, *board)
    value = hand_value(cards) if len(cards) >= 5 else 0
    if len(cards) >= 5 and category_of(value) >= PAIR:
        board_value = hand_value(board) if len(board) >= 5 else -1
        if value != board_value:
            return True
    suits = [0, 0, 0, 0]
    for card in cards:
        suits[card % 4] += 1
    if max(suits) >= 4 and len(board) < 5:
        return True
    if len(board) >= 5:
        return False
    ranks = 0
    for card in cards:
        ranks |= 1 << (card // 4 + 1)
    ranks |= ranks >> 13 & 1  # the ace counts low too (bit 0), as in 5-4-3-2-A
    return any(ranks >> low & 0b1111 == 0b1111 for low in range(11))


def made_hand(hole: tuple[Card, Card], board: Sequence[Card]) -> bool:
    """At least a pair using one of the hole cards, on a complete board of five."""
    value = hand_value((*hole, *board))
    return category_of(value) >= PAIR and value != hand_value(board)


def _deal_from_range(
    opponent: Opponent, dead: set[Card], board: Sequence[Card], rng: random.Random
) -> tuple[Card, Card]:
    if opponent.cards is not None:
        return opponent.cards
    top = max(1, min(_COUNT, round(opponent.share * _COUNT)))
    fallback: tuple[Card, Card] | None = None
    for _ in range(60):
        hand = STARTING_HANDS[rng.randrange(top)]
        if hand[0] in dead or hand[1] in dead:
            continue
        if fallback is None:
            fallback = hand
        if not opponent.needs_made_hand or rng.random() < opponent.bluff_rate:
            return hand
        if _drawing_or_made(hand, board):
            return hand
    if fallback is not None:
        return fallback
    while True:  # every hand of the range is blocked: any two live cards
        first, second = rng.randrange(52), rng.randrange(52)
        if first != second and first not in dead and second not in dead:
            return (first, second)


def equity(
    *,
    hole: Sequence[Card],
    board: Sequence[Card],
    opponents: Sequence[Opponent],
    rng: random.Random,
    trials: int,
) -> float:
    """The share of the pot ``hole`` wins on average against ``opponents``, by simulation.

    Each trial deals every opponent a hand from their range, completes the board from the
    cards left, and scores all hands with the engine's evaluator; ties share.
    """
    if not opponents:
        return 1.0
    mine = tuple(hole)
    known = set(mine) | set(board)
    for opponent in opponents:
        if opponent.cards is not None:
            known.update(opponent.cards)
    won = 0.0
    for _ in range(trials):
        dead = set(known)
        hands = []
        for opponent in opponents:
            hand = _deal_from_range(opponent, dead, board, rng)
            dead.add(hand[0])
            dead.add(hand[1])
            hands.append(hand)
        full = list(board)
        while len(full) < 5:
            card = rng.randrange(52)
            if card not in dead:
                dead.add(card)
                full.append(card)
        my_value = hand_value((*mine, *full))
        best = my_value
        tied = 1
        for hand in hands:
            value = hand_value((*hand, *full))
            if value > best:
                best = value
                break
            if value == my_value:
                tied += 1
        if best == my_value:
            won += 1.0 / tied
    return won / trials
