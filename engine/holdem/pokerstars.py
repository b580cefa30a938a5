"""Hold'em hands as PokerStars-style hand history text, the text most tracking and study
tools import: one file a game, the hands one after another.

Each hand is written as PokerStars writes a no-limit hold'em hand::

    PokerStars Hand #1000003: Hold'em No Limit (10/20) - 2026/12/07 02:00:00 UTC
    Table 'ABC234' 6-max (Play Money) Seat #1 is the button
    Seat 1: Asha (1000 in chips)
    Bikash: posts small blind 10
    *** HOLE CARDS ***
    Dealt to Asha [Ah Kd]
    Asha: raises 40 to 60
    Uncalled bet (40) returned to Asha
    *** FLOP *** [Qd Kc 9d]
    *** SHOW DOWN ***
    Asha collected 50 from pot
    *** SUMMARY ***

with three blank lines between hands. Everything comes from the event log
(:mod:`engine.holdem.played`): the blinds as posted, each action with what it put in
(a raise "by" what it added to the bet to call, "to" the player's bet after it), uncalled
chips given back, the board, the hands shown and mucked, each pot's winners.

The choices the format leaves, and why:

- every player's hole cards are on a ``Dealt to`` line: the downloads open only once the
  game has ended, when the revealed seed gives every deck away anyway;
- the hands turned up are written under ``*** SHOW DOWN ***``, after the board, in the
  order the rules turned them up, with the best five named in words;
- each hand's seat numbers are where the players sat when it was dealt (the export's
  ``seats``): a reader puts the players round the table by their seat numbers and finds the
  blinds and the turns from the button's seat, so numbers that are not the hand's seat order
  (a player's seat now, after others left) are refused rather than written;
- the summary's seat lines carry no "(button)"/"(small blind)" tag (the header names the
  button), so a reader that takes the text before " collected" as the name reads it right;
- a name is written as the player chose it, except for the characters that would end
  or split a line of the format (line breaks and other control characters, ``:``, brackets
  and parentheses), each written as a space or ``-``; two names that come out the same get
  their seat number added.

The hand number in the header is ``hand_ids[number]`` when given (a site gives each hand a
number no other game shares, as trackers expect), else the hand's number at its table.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from engine.cards import card_text, parse_cards
from engine.holdem.evaluator import best_hand
from engine.holdem.phh import SEAT_COUNT
from engine.holdem.played import PlayedHand, played_hand, seat_order_check

HAND_SEPARATOR = "\n\n\n"
_RANK_WORDS = {
    "2": ("Deuce", "Deuces"),
    "3": ("Three", "Threes"),
    "4": ("Four", "Fours"),
    "5": ("Five", "Fives"),
    "6": ("Six", "Sixes"),
    "7": ("Seven", "Sevens"),
    "8": ("Eight", "Eights"),
    "9": ("Nine", "Nines"),
    "T": ("Ten", "Tens"),
    "J": ("Jack", "Jacks"),
    "Q": ("Queen", "Queens"),
    "K": ("King", "Kings"),
    "A": ("Ace", "Aces"),
}
_STREET_WORDS = {"": "before Flop", "flop": "on the Flop", "turn": "on the Turn", "river": "on the River"}


def safe_names(hand: PlayedHand, seats: Mapping[str, int]) -> dict[str, str]:
    """Each player's name as the format can carry it (see the module's docstring)."""
    cleaned: dict[str, str] = {}
    for player in hand.players:
        text = "".join(
            " " if ord(char) < 0x20 or ord(char) == 0x7F else ("-" if char in ":[]()" else char)
            for char in hand.names[player]
        )
        cleaned[player] = " ".join(text.split()) or f"Seat {seats[player]}"
    counts: dict[str, int] = {}
    for name in cleaned.values():
        counts[name.casefold()] = counts.get(name.casefold(), 0) + 1
    return {
        player: f"{name} {seats[player]}" if counts[name.casefold()] > 1 else name for player, name in cleaned.items()
    }


def hand_words(cards: Iterable[str]) -> str:
    """The best five of ``cards`` in PokerStars' words: "a pair of Kings", "two pair, Aces and Tens"."""
    best = best_hand(parse_cards(list(cards)))
    ranks = [str(card)[0] for card in _card_texts(best.cards)]
    counts = {rank: ranks.count(rank) for rank in ranks}
    by_count = sorted(counts, key=lambda rank: (-counts[rank], -"23456789TJQKA".index(rank)))
    top = by_count[0]
    if best.category == "high_card":
        return f"high card {one(top)}"
    if best.category == "pair":
        return f"a pair of {several(top)}"
    if best.category == "two_pair":
        return f"two pair, {several(by_count[0])} and {several(by_count[1])}"
    if best.category == "three_of_a_kind":
        return f"three of a kind, {several(top)}"
    if best.category in ("straight", "straight_flush"):
        high, low = ranks[0], ranks[-1]  # the evaluator lists a run best first (the wheel: 5 4 3 2 A)
        kind = "a straight" if best.category == "straight" else "a straight flush"
        return f"{kind}, {one(low)} to {one(high)}"
    if best.category == "flush":
        return f"a flush, {one(top)} high"
    if best.category == "full_house":
        return f"a full house, {several(by_count[0])} full of {several(by_count[1])}"
    return f"four of a kind, {several(top)}"


def one(rank: str) -> str:
    return _RANK_WORDS[rank][0]


def several(rank: str) -> str:
    return _RANK_WORDS[rank][1]


def _card_texts(cards: Iterable[Any]) -> list[str]:
    return [card_text(card) for card in cards]


def _bracket(cards: Iterable[str]) -> str:
    return "[" + " ".join(cards) + "]"


def hand_lines(
    hand: PlayedHand, *, hand_id: int, played_at: str, seats: Mapping[str, int], seat_count: int
) -> list[str]:
    """One hand's lines. ``played_at``: "YYYY/MM/DD HH:MM:SS" in UTC."""
    name = safe_names(hand, seats)
    all_in_word = " and is all-in"
    lines = [
        f"PokerStars Hand #{hand_id}: Hold'em No Limit ({hand.small_blind}/{hand.big_blind}) - {played_at} UTC",
        f"Table '{hand.table}' {seat_count}-max (Play Money) Seat #{seats[hand.button]} is the button",
    ]
    for player in hand.players:
        lines.append(f"Seat {seats[player]}: {name[player]} ({hand.starting_stacks[player]} in chips)")
    for player, blind, amount, all_in in hand.blinds:
        lines.append(f"{name[player]}: posts {blind} blind {amount}{all_in_word if all_in else ''}")
    lines.append("*** HOLE CARDS ***")
    lines += [f"Dealt to {name[player]} {_bracket(hand.hole_cards[player])}" for player in hand.left_of_button()]
    folded_on: dict[str, str] = {}
    street = ""
    shows: list[str] = []
    for step in hand.steps:
        if step.kind == "action":
            who = name[step.player]
            end = all_in_word if step.all_in else ""
            if step.verb == "fold":
                lines.append(f"{who}: folds")
                folded_on[step.player] = street
            elif step.verb == "check":
                lines.append(f"{who}: checks")
            elif step.verb == "call":
                lines.append(f"{who}: calls {step.amount}{end}")
            elif step.verb == "bet":
                lines.append(f"{who}: bets {step.amount}{end}")
            else:
                lines.append(f"{who}: raises {step.raise_by} to {step.total}{end}")
        elif step.kind == "uncalled":
            lines.append(f"Uncalled bet ({step.amount}) returned to {name[step.player]}")
        elif step.kind == "board":
            street = step.street
            if street == "flop":
                lines.append(f"*** FLOP *** {_bracket(step.board)}")
            else:
                lines.append(f"*** {street.upper()} *** {_bracket(step.board[:-1])} {_bracket(step.cards)}")
        elif step.kind == "show":
            words = hand_words([*step.cards, *hand.board])
            shows.append(f"{name[step.player]}: shows {_bracket(step.cards)} ({words})")
        elif step.kind == "muck":
            shows.append(f"{name[step.player]}: mucks hand")
    if shows:
        lines.append("*** SHOW DOWN ***")
        lines += shows
    side_pots = len(hand.pots) > 1
    for index, pot in enumerate(hand.pots):
        where = "pot" if not side_pots else ("main pot" if index == 0 else f"side pot-{index}")
        for player in hand.left_of_button():
            if pot.shares.get(player):
                lines.append(f"{name[player]} collected {pot.shares[player]} from {where}")
    lines.append("*** SUMMARY ***")
    total = sum(pot.amount for pot in hand.pots)
    if side_pots:
        parts = [f"Main pot {hand.pots[0].amount}."]
        parts += [f"Side pot-{index} {pot.amount}." for index, pot in enumerate(hand.pots[1:], start=1)]
        lines.append(f"Total pot {total} {' '.join(parts)} | Rake 0")
    else:
        lines.append(f"Total pot {total} | Rake 0")
    if hand.board:
        lines.append(f"Board {_bracket(hand.board)}")
    shown = hand.shown()
    for player in hand.players:
        won = hand.won(player)
        line = f"Seat {seats[player]}: {name[player]}"
        if player in folded_on:
            line += f" folded {_STREET_WORDS[folded_on[player]]}"
        elif player in shown:
            words = hand_words([*shown[player], *hand.board])
            outcome = f"won ({won})" if won else "lost"
            line += f" showed {_bracket(shown[player])} and {outcome} with {words}"
        elif won:
            line += f" collected ({won})"
        else:
            line += " mucked"
        lines.append(line)
    return lines


def game_text(
    hands: Iterable[Mapping[str, Any]],
    *,
    hand_ids: Mapping[int, int] | None = None,
    played_at: Mapping[int, str] | None = None,
) -> str:
    """Every finished hand of a game (exported hands, ``engine.export``'s format) as one text.

    Each hand's seat numbers are its export's ``seats`` (where everyone sat when it was
    dealt); a hand without them numbers the players by their place in the first hand's seat
    order, 1 for the first (numbers out of a hand's seat order raise
    :class:`~engine.holdem.played.HandHistoryError`). ``played_at``: each hand's start,
    "YYYY/MM/DD HH:MM:SS" UTC, by hand number (by default none is known and
    "1970/01/01 00:00:00" is written)."""
    played = [hand for hand in (played_hand(data) for data in hands) if hand is not None]
    if not played:
        return ""
    in_first_order: dict[str, int] = {}
    for hand in played:
        for player in hand.players:
            in_first_order.setdefault(player, len(in_first_order) + 1)
    seats = [hand.seats or in_first_order for hand in played]
    seat_count = SEAT_COUNT
    for hand, numbers in zip(played, seats, strict=True):
        seat_order_check(hand, numbers)
        seat_count = max(seat_count, *(numbers[player] for player in hand.players))
    texts = [
        "\n".join(
            hand_lines(
                hand,
                hand_id=(hand_ids or {}).get(hand.number, hand.number),
                played_at=(played_at or {}).get(hand.number, "1970/01/01 00:00:00"),
                seats=numbers,
                seat_count=seat_count,
            )
        )
        for hand, numbers in zip(played, seats, strict=True)
    ]
    return HAND_SEPARATOR.join(texts) + "\n"
