"""Simple opponents for measuring the computer players: each is one plain trick.

They are written here, apart from ``engine/bots/``, and share none of its strategy code:
each reads the seat's view (``game.view(state, seat)``: the same dict a person gets) and
plays a fixed habit. The only engine code they use is the rules' own hand ranking
(:mod:`engine.teenpatti.ranking`, :mod:`engine.holdem.evaluator`), to know what their
cards are.

- ``station``: calls everything. Teen Patti: never looks unless the rules force it (the
  blind-turn limit), chaals every turn, never asks for a show or sideshow, refuses
  sideshows; short of a chaal with two left it shows for what it has. Hold'em: checks or
  calls every bet, never raises, never folds.
- ``maniac``: raises whenever a raise is allowed. Teen Patti: stays blind until forced to
  look, raises to double the stake (or as high as allowed) every turn, accepts every
  sideshow. Hold'em: bets or raises the size of the pot every time it may.
- ``rock``: plays only strong hands. Teen Patti: looks at once, packs anything below the
  top fifth of hands, raises the top twentieth, shows once the pot has grown. Hold'em:
  plays about the top eighth of starting hands, raising; after the flop bets and calls
  with top pair or better, folds the rest.
- ``random``: picks one of the legal moves at random, a raise of a random size.
- ``passive``: a loose, passive person: plays a blind turn or two and then looks, stays in
  with all but its worst hands, seldom raises, calls to a show. Hold'em: calls with most
  hands, raises only the best, calls after the flop with any pair or a draw.

Every opponent is deterministic given its ``random.Random``.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from typing import Any

from engine.api import Action
from engine.cards import parse_card
from engine.holdem.evaluator import hand_value
from engine.teenpatti.ranking import score_table

Baseline = Callable[..., Action]

# --- Teen Patti --------------------------------------------------------------------------------

_SHARES: dict[tuple[str, str], list[int]] = {}


def _teen_patti_share(cards: list[str], settings: Mapping[str, Any]) -> float:
    """The share of all three-card hands that score below ``cards`` (0 to 1)."""
    key = (str(settings["ranking"]), str(settings["best_run"]))
    scores = _SHARES.get(key)
    table = score_table(*key)
    if scores is None:
        scores = sorted(table.values())
        _SHARES[key] = scores
    a, b, c = (parse_card(card) for card in cards)
    score = table[1 << a | 1 << b | 1 << c]
    low, high = 0, len(scores)
    while low < high:  # the first score not below ours
        middle = (low + high) // 2
        if scores[middle] < score:
            low = middle + 1
        else:
            high = middle
    return low / len(scores)


def _me(view: Mapping[str, Any], player: str) -> Mapping[str, Any]:
    return next(entry for entry in view["players"] if entry["name"] == player)


def _legal(view: Mapping[str, Any]) -> dict[str, Mapping[str, Any]]:
    return {str(entry["verb"]): entry for entry in view["legal"]}


def _raise_to(entry: Mapping[str, Any], target: int) -> int:
    step = int(entry.get("step") or 1)
    low, high = int(entry["min"]), int(entry["max"])
    amount = max(low, min(high, target))
    if amount != low and amount != high:
        amount = low + (amount - low) // step * step
    return amount


def _first(player: str, legal: Mapping[str, Any], *verbs: str) -> Action:
    for verb in verbs:
        if verb in legal:
            return Action(player, verb)
    return Action(player, "pack" if "pack" in legal else "fold")


def tp_station(view: Mapping[str, Any], player: str, rng: random.Random) -> Action:
    # "see" only when forced: its blind turns are used up, or it is short.
    return _first(player, _legal(view), "refuse", "chaal", "show", "see")


def tp_maniac(view: Mapping[str, Any], player: str, rng: random.Random) -> Action:
    legal = _legal(view)
    if "accept" in legal:
        return Action(player, "accept")
    if "raise" in legal:
        return Action(player, "raise", _raise_to(legal["raise"], 2 * int(view["stake"])))
    return _first(player, legal, "chaal", "show", "see")


def tp_rock(view: Mapping[str, Any], player: str, rng: random.Random) -> Action:
    legal = _legal(view)
    cards = view.get("your_cards")
    if cards is None:
        return Action(player, "see") if "see" in legal else Action(player, "pack")
    share = _teen_patti_share(cards, view["settings"])
    if "accept" in legal:
        return Action(player, "accept" if share >= 0.9 else "refuse")
    if share < 0.8:
        return Action(player, "pack")
    boot = int(view["boot"])
    if "show" in legal and (int(view["pot"]) >= 20 * boot or share < 0.9):
        return Action(player, "show")
    if share >= 0.95 and "raise" in legal and int(view["stake"]) < 8 * boot:
        return Action(player, "raise", _raise_to(legal["raise"], 2 * int(view["stake"])))
    return _first(player, legal, "chaal", "show")


def tp_random(view: Mapping[str, Any], player: str, rng: random.Random) -> Action:
    legal = _legal(view)
    verb = rng.choice(sorted(legal))
    if verb == "raise":
        entry = legal["raise"]
        step = int(entry.get("step") or 1)
        low, high = int(entry["min"]), int(entry["max"])
        return Action(player, "raise", low + step * rng.randint(0, (high - low) // step))
    return Action(player, verb)


def tp_passive(view: Mapping[str, Any], player: str, rng: random.Random) -> Action:
    legal = _legal(view)
    cards = view.get("your_cards")
    if cards is None:
        if "accept" in legal:
            return Action(player, "refuse")
        if "chaal" in legal and int(_me(view, player)["blind_turns_used"]) < rng.choice((1, 2)):
            return Action(player, "chaal")
        return Action(player, "see") if "see" in legal else _first(player, legal, "chaal", "show")
    share = _teen_patti_share(cards, view["settings"])
    if "accept" in legal:
        return Action(player, "accept" if share > 0.5 else "refuse")
    if share < 0.25:
        return Action(player, "pack")
    if "show" in legal and (int(view["pot"]) >= 15 * int(view["boot"]) or share < 0.5):
        return Action(player, "show")
    if share > 0.95 and "raise" in legal and rng.random() < 0.3:
        return Action(player, "raise", int(legal["raise"]["min"]))
    return _first(player, legal, "chaal", "show")


# --- hold'em -----------------------------------------------------------------------------------

_RANKS = "23456789TJQKA"


def _hole_rank(cards: list[str]) -> tuple[int, int, bool]:
    """(high rank, low rank, suited) with 2 = 0 ... A = 12."""
    first, second = (_RANKS.index(card[0]) for card in cards)
    high, low = max(first, second), min(first, second)
    return high, low, cards[0][1] == cards[1][1]


def _premium(cards: list[str]) -> bool:
    """About the top eighth of starting hands: 77+, AT+ suited, AQ+, KQ suited."""
    high, low, suited = _hole_rank(cards)
    if high == low:
        return high >= 5
    if high == 12:
        return low >= 10 or (suited and low >= 8)
    return suited and high == 11 and low == 10


def _playable(cards: list[str]) -> bool:
    """Most hands a loose person plays: pairs, aces, two cards of nine or more, suited or
    connected cards."""
    high, low, suited = _hole_rank(cards)
    return high == low or high == 12 or low >= 7 or suited or high - low == 1


def _made(cards: list[str], board: list[str]) -> int:
    """0: nothing with a hole card; 1: a pair below top pair; 2: top pair or an overpair;
    3: two pair or better."""
    hole = [_RANKS.index(card[0]) for card in cards]
    ranks = [_RANKS.index(card[0]) for card in board]
    value = hand_value([parse_card(card) for card in [*cards, *board]])
    board_value = hand_value([parse_card(card) for card in board]) if len(board) >= 5 else -1
    category = value >> 26
    if category >= 2 and value != board_value:
        return 3
    top = max(ranks)
    if hole[0] == hole[1]:
        return 2 if hole[0] > top else 1
    if top in hole:
        return 2
    return 1 if any(rank in ranks for rank in hole) else 0


def _draw(cards: list[str], board: list[str]) -> bool:
    suits = [card[1] for card in [*cards, *board]]
    if max(suits.count(suit) for suit in "shdc") == 4:
        return True
    ranks = sorted({_RANKS.index(card[0]) for card in [*cards, *board]})
    return any(sum(1 for rank in ranks if start <= rank < start + 5) >= 4 for start in range(9))


def he_station(view: Mapping[str, Any], player: str, rng: random.Random) -> Action:
    return _first(player, _legal(view), "check", "call", "allin")


def _bet_pot(view: Mapping[str, Any], player: str, legal: Mapping[str, Any]) -> Action | None:
    for verb in ("raise", "bet"):
        if verb in legal:
            entry = legal[verb]
            target = int(view["current_bet"]) + int(view["pot"])
            return Action(player, verb, _raise_to(entry, target))
    return None


def he_maniac(view: Mapping[str, Any], player: str, rng: random.Random) -> Action:
    legal = _legal(view)
    return _bet_pot(view, player, legal) or _first(player, legal, "allin", "call", "check")


def he_rock(view: Mapping[str, Any], player: str, rng: random.Random) -> Action:
    legal = _legal(view)
    cards = _me(view, player)["cards"]
    board = list(view["board"])
    if not board:
        if not _premium(cards):
            return _first(player, legal, "check", "fold")
        if int(view["current_bet"]) <= 4 * int(view["big_blind"]):
            return _bet_pot(view, player, legal) or _first(player, legal, "call", "check", "allin")
        return _first(player, legal, "call", "check", "allin")
    made = _made(cards, board)
    if made >= 2:
        if made == 3 or "bet" in legal:
            bet = _bet_pot(view, player, legal)
            if bet is not None and (made == 3 or bet.verb == "bet"):
                return bet
        return _first(player, legal, "check", "call", "allin")
    if made == 1 and "call" in legal and _legal(view)["call"].get("cost", 0) <= int(view["pot"]) // 2:
        return Action(player, "call")
    return _first(player, legal, "check", "fold")


def he_random(view: Mapping[str, Any], player: str, rng: random.Random) -> Action:
    legal = _legal(view)
    verbs = sorted(legal)
    if "check" in legal and "fold" in legal:
        verbs.remove("fold")  # nobody folds for free
    verb = rng.choice(verbs)
    if verb in ("raise", "bet"):
        entry = legal[verb]
        low, high = int(entry["min"]), int(entry["max"])
        return Action(player, verb, rng.randint(low, min(high, max(low, 2 * low + int(view["pot"])))))
    return Action(player, verb)


def he_passive(view: Mapping[str, Any], player: str, rng: random.Random) -> Action:
    legal = _legal(view)
    cards = _me(view, player)["cards"]
    board = list(view["board"])
    stack = int(_me(view, player)["stack"])
    call_cost = int(legal["call"]["cost"]) if "call" in legal else 0
    if not board:
        high, low, _suited = _hole_rank(cards)
        if high == low and high >= 11:
            bet = _bet_pot(view, player, legal)
            if bet is not None and int(view["current_bet"]) <= 3 * int(view["big_blind"]):
                return bet
        if _playable(cards) and call_cost <= max(stack // 8, 3 * int(view["big_blind"])):
            return _first(player, legal, "check", "call")
        return _first(player, legal, "check", "fold")
    made = _made(cards, board)
    if made == 3 and "bet" in legal:
        return Action(player, "bet", _raise_to(legal["bet"], int(view["pot"]) // 2))
    if "call" in legal:
        if made >= 1 or (_draw(cards, board) and call_cost <= int(view["pot"])):
            return Action(player, "call")
        if call_cost <= int(view["pot"]) // 3 and rng.random() < 0.3:
            return Action(player, "call")
    return _first(player, legal, "check", "fold")


TEEN_PATTI: dict[str, Baseline] = {
    "station": tp_station,
    "maniac": tp_maniac,
    "rock": tp_rock,
    "random": tp_random,
    "passive": tp_passive,
}
HOLDEM: dict[str, Baseline] = {
    "station": he_station,
    "maniac": he_maniac,
    "rock": he_rock,
    "random": he_random,
    "passive": he_passive,
}
NAMES = tuple(TEEN_PATTI)


def baseline(name: str, game: str) -> Baseline:
    """The opponent ``name`` for ``game``: call it as ``(view, player, rng)``."""
    return (HOLDEM if game == "holdem" else TEEN_PATTI)[name]
