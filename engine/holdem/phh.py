"""Hold'em hands in the Poker Hand History format (PHH, the uoftcprg standard that PokerKit
reads and writes): one hand a ``.phh`` file, a whole game a ``.phhs`` file.

A PHH file is TOML. The fields written (the standard's names):

- ``variant = "NT"`` (no-limit Texas hold'em), ``antes`` (all 0), ``blinds_or_straddles``
  (``[small, big, 0, ...]``), ``min_bet`` (the big blind), ``starting_stacks``;
- ``actions``: ``d dh p1 AsKd`` (each player's hole cards: the downloads open once the
  game has ended, when the revealed seed gives every deck away anyway), ``d db`` (the
  board), ``p1 f`` / ``p1 cc`` / ``p1 cbr 60`` (fold, check or call, bet or raise to),
  ``p1 sm AsKd`` (a hand shown) and ``p1 sm`` (a hand thrown away unseen);
- ``venue``, ``table``, ``hand`` (its number at the table), ``seats`` (the export's
  ``seats``: where each player sat when the hand was dealt; without them, each player's
  place in the hand's seat order), ``seat_count``, ``players`` (display names),
  ``finishing_stacks`` and ``winnings`` (what each took from the pots), all from the log.

Players are numbered as the standard numbers them: ``p1`` is the first player left of the
button (the small blind; heads-up the big blind, since the button posts the small blind
there) and the button is last.

Everything comes from the event log (:mod:`engine.holdem.played`); nothing is played again.
A game file holds its hands as TOML tables named by hand number (``[1]``, ``[2]``, ...).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from engine.holdem.played import PlayedHand, played_hand

VENUE = "Dashain"
SEAT_COUNT = 6  # a hold'em table's seats (rule book 001: 2 to 6 players)


def toml_string(text: str) -> str:
    """``text`` as a TOML basic string: quotes, backslashes and control characters escaped."""
    out = []
    for char in text:
        if char == '"':
            out.append('\\"')
        elif char == "\\":
            out.append("\\\\")
        elif char == "\n":
            out.append("\\n")
        elif char == "\t":
            out.append("\\t")
        elif ord(char) < 0x20 or ord(char) == 0x7F:
            out.append(f"\\u{ord(char):04X}")
        else:
            out.append(char)
    return '"' + "".join(out) + '"'


def _list(values: Iterable[Any]) -> str:
    return "[" + ", ".join(toml_string(value) if isinstance(value, str) else str(value) for value in values) + "]"


def _cards(cards: Iterable[str]) -> str:
    return "".join(cards)


def phh_lines(hand: PlayedHand) -> list[str]:
    """The lines of one hand's PHH (TOML) text."""
    order = hand.left_of_button()
    label = {player: f"p{index + 1}" for index, player in enumerate(order)}
    count = len(order)
    actions = [f"d dh {label[player]} {_cards(hand.hole_cards[player])}" for player in order]
    for step in hand.steps:
        if step.kind == "action":
            if step.verb == "fold":
                actions.append(f"{label[step.player]} f")
            elif step.verb in ("check", "call"):
                actions.append(f"{label[step.player]} cc")
            else:
                actions.append(f"{label[step.player]} cbr {step.total}")
        elif step.kind == "board":
            actions.append(f"d db {_cards(step.cards)}")
        elif step.kind == "show":
            actions.append(f"{label[step.player]} sm {_cards(step.cards)}")
        elif step.kind == "muck":
            actions.append(f"{label[step.player]} sm")
    seat_numbers = hand.seats or {player: index + 1 for index, player in enumerate(hand.players)}
    lines = [
        'variant = "NT"',
        f"antes = {_list([0] * count)}",
        f"blinds_or_straddles = {_list([hand.small_blind, hand.big_blind] + [0] * (count - 2))}",
        f"min_bet = {hand.big_blind}",
        f"starting_stacks = {_list(hand.starting_stacks[player] for player in order)}",
        "actions = [",
        *(f"  {toml_string(action)}," for action in actions),
        "]",
        f"venue = {toml_string(VENUE)}",
        f"table = {toml_string(hand.table)}",
        f"hand = {hand.number}",
        f"seats = {_list(seat_numbers[player] for player in order)}",
        f"seat_count = {max(SEAT_COUNT, *(seat_numbers[player] for player in order))}",
        f"players = {_list(hand.names[player] for player in order)}",
        f"finishing_stacks = {_list(hand.final_stacks[player] for player in order)}",
        f"winnings = {_list(hand.won(player) for player in order)}",
    ]
    return lines


def hand_phh(hand: Mapping[str, Any]) -> str:
    """One exported hand (``engine.export``'s format) as a ``.phh`` file; ``""`` for a hand
    that did not finish."""
    played = played_hand(hand)
    if played is None:
        return ""
    return "\n".join(phh_lines(played)) + "\n"


def game_phhs(hands: Iterable[Mapping[str, Any]]) -> str:
    """Every finished hand of a game as one ``.phhs`` file, a TOML table per hand."""
    parts = []
    for hand in hands:
        played = played_hand(hand)
        if played is None:
            continue
        parts.append(f"[{played.number}]\n" + "\n".join(phh_lines(played)) + "\n")
    return "\n".join(parts)
