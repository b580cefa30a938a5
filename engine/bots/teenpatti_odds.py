"""Teen Patti odds for the computer players: a hand's place among all hands, and its chance
against an opponent put on a range.

A seen hand's strength is its place among all 22,100 three-card hands under the table's
ranking (standard or 999's digits, and the table's best run): :func:`hand_place`. Under a
variant (``settings["variant"]``) the hand is the engine's variant hand
(:func:`engine.teenpatti.variants.variant_hand`: jokers counted, the best three of four), placed
in Muflis among all three-card hands with the order turned over, and with jokers or four cards
among a fixed sample of hands dealt under the variant (:func:`engine.teenpatti.variants.score_sample`).
Against an opponent put on the top share ``f`` of hands, a hand at place ``p`` wins
with probability ``(p - (1 - f)) / f`` (between 0 and 1): :func:`beat_chance`.
"""

from __future__ import annotations

import bisect
from collections.abc import Mapping, Sequence
from typing import Any

from engine.cards import parse_card
from engine.teenpatti.ranking import HAND_COUNT, hand_score, score_table
from engine.teenpatti.variants import MUFLIS_TOP, score_sample, variant_hand

_PLACES: dict[tuple[str, str, bool], list[int]] = {}


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
    variant = str(settings.get("variant") or "none")
    muflis = variant == "muflis"
    key = (ranking, "-" if ranking == "digits" else best_run, muflis)
    scores = _PLACES.get(key)
    if scores is None:
        table = score_table(ranking, best_run).values()
        scores = sorted(MUFLIS_TOP - score for score in table) if muflis else sorted(table)
        _PLACES[key] = scores
    held = [parse_card(card) for card in cards]
    if variant == "none":
        score = hand_score(held, ranking=ranking, best_run=best_run)
    else:
        turned = settings.get("joker")
        turned_card = None if turned is None else parse_card(turned)
        score = variant_hand(held, variant=variant, best_run=best_run, turned=turned_card).score
        if not muflis:
            # Jokers and a fourth card make every hand stronger: place it among the hands
            # actually dealt under the variant (a fixed sample), not among plain three-card hands.
            sample = score_sample(variant, best_run, turned_card)
            below = bisect.bisect_left(sample, score)
            equal = bisect.bisect_right(sample, score) - below
            return (below + 0.5 * (equal - 1)) / (len(sample) - 1) if equal else below / len(sample)
    below = bisect.bisect_left(scores, score)
    equal = bisect.bisect_right(scores, score) - below
    return (below + 0.5 * (equal - 1)) / (HAND_COUNT - 1)


def beat_chance(place: float, share: float) -> float:
    """The chance a hand at ``place`` beats one drawn from the top ``share`` of hands."""
    share = min(1.0, max(0.02, share))
    return min(1.0, max(0.0, (place - (1.0 - share)) / share))
