"""Teen Patti odds for the computer players: a hand's place among all hands, and its chance
against an opponent put on a range.

A seen hand's strength is its place among all 22,100 three-card hands under the table's
ranking (standard or 999's digits, and the table's best run): :func:`hand_place`.
Against an opponent put on the top share ``f`` of hands, a hand at place ``p`` wins
with probability ``(p - (1 - f)) / f`` (between 0 and 1): :func:`beat_chance`.
"""

from __future__ import annotations

import bisect
from collections.abc import Mapping, Sequence
from typing import Any

from engine.cards import parse_card
from engine.teenpatti.ranking import HAND_COUNT, hand_score, score_table

_PLACES: dict[tuple[str, str], list[int]] = {}


def hand_place(cards: Sequence[str], settings: Mapping[str, Any]) -> float:
    """Where three cards stand among all 22,100 hands under these settings: the share of
    hands they beat, counting a tie as half (0 to 1).

    >>> settings = {"ranking": "standard", "best_run": "AKQ"}
    >>> round(hand_place(["As", "Ah", "Ad"], settings), 4)
    0.9999
    >>> hand_place(["2s", "3h", "5d"], settings) < 0.01
    True
    """
    ranking = str(settings["ranking"])
    best_run = str(settings["best_run"])
    key = (ranking, "-" if ranking == "digits" else best_run)
    scores = _PLACES.get(key)
    if scores is None:
        scores = sorted(score_table(ranking, best_run).values())
        _PLACES[key] = scores
    score = hand_score([parse_card(card) for card in cards], ranking=ranking, best_run=best_run)
    below = bisect.bisect_left(scores, score)
    equal = bisect.bisect_right(scores, score) - below
    return (below + 0.5 * (equal - 1)) / (HAND_COUNT - 1)


def beat_chance(place: float, share: float) -> float:
    """The chance a hand at ``place`` beats one drawn from the top ``share`` of hands."""
    share = min(1.0, max(0.02, share))
    return min(1.0, max(0.0, (place - (1.0 - share)) / share))
