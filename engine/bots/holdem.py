"""Hold'em computer players (rule book 001 and its tips), from the seat's view only.

:func:`choose` reads the view a person in the seat gets (``HOLDEM.view(state, seat)``)
and the seat's :class:`~engine.bots.history.History`, and returns one legal action.

- **easy**, a loose, passive friend: plays most hands for the price of a call, raises
  only the very best, calls after the flop with any pair or draw, bets only strong hands.
- **normal**, the book's tips: a starting hand is played by its strength and by how many
  players act after it ("position matters"); under about ten big blinds it goes all in
  or folds ("watch the blinds"); facing a bet it weighs its equity, by simulation
  against the range it puts each opponent on, against the pot odds ("count the pot
  before you call"); it bets its strong hands and, as the raiser before the flop,
  sometimes bets the flop without one. Heads-up on the button it opens most hands; after
  the flop, heads-up, it now and then raises a hand with fair equity (a semi-bluff) and
  bets a weak one when checked to in position (a bluff).
- **hard**, normal with a model of each opponent (book 001: "the hard computer players
  keep track of how loosely each player has played so far"): each opponent's range is
  their own share of hands played, raised and opened; their bets after the flop are
  read with the share of bluffs among the hands they turned up after betting; it raises
  before the flop whenever the folds it expects from those particular opponents plus
  its equity against the hands that defend pay (stealing from tight players), bets the
  flop as the raiser as often as they fold to bets, bluffs and semi-bluffs as often as
  they fold to bets, and value-bets loose players thinly.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from engine.api import Action
from engine.bots.history import History
from engine.bots.holdem_odds import Opponent, equity, starting_strength
from engine.cards import Card, parse_card

# What "normal" assumes of every opponent: an ordinary home player.
NORMAL_VPIP = 0.35
NORMAL_PFR = 0.15
NORMAL_BLUFF_RATE = 0.3
NORMAL_FLOP_BET = 0.35  # how often normal, the raiser before the flop, bets the flop without a hand

SHORT_STACK_BB = 10  # book 001's tip: under about ten big blinds, all in or fold
PREFLOP_TRIALS = 160
POSTFLOP_TRIALS = 220
STEAL_TRIALS = 120
STEAL_REALISED = 0.85  # the share of its equity a hand is taken to win after the flop

# The share of starting hands "normal" opens with, by how many players act after it.
OPEN_SHARE = {0: 0.55, 1: 0.42, 2: 0.28, 3: 0.22, 4: 0.17, 5: 0.14}
# Heads-up the button (the small blind) is in position after the flop and has half a big
# blind in: it opens most hands rather than fold half of them.
HEADS_UP_BUTTON_SHARE = 0.7
# After the flop, facing a bet with a hand that has fair equity but is not a favourite (a
# draw, a middling pair), it now and then raises (a semi-bluff) heads-up; and checked to,
# it now and then bets a weak hand (a bluff): normal at these rates, hard as often as the
# opponent folds to bets.
SEMI_BLUFF_RATE = 0.2
BLUFF_RATE = 0.12


@dataclass(frozen=True, slots=True)
class Seat:
    name: str
    stack: int
    bet: int
    in_hand: int
    folded: bool
    all_in: bool
    cards: tuple[Card, Card] | None


@dataclass(frozen=True, slots=True)
class Table:
    """The view, read once into what the strategies use."""

    me: Seat
    my_index: int
    seats: tuple[Seat, ...]
    street: str
    board: tuple[Card, ...]
    big_blind: int
    button: int
    current_bet: int
    legal: Mapping[str, Mapping[str, Any]]

    @property
    def pot(self) -> int:
        return sum(seat.in_hand for seat in self.seats)

    @property
    def to_call(self) -> int:
        return min(max(0, self.current_bet - self.me.bet), self.me.stack)

    @property
    def opponents(self) -> list[Seat]:
        return [seat for index, seat in enumerate(self.seats) if index != self.my_index and not seat.folded]

    def acting_after_me(self) -> int:
        """Players still in with chips who act after this seat in this betting round."""
        count = len(self.seats)
        if self.street == "preflop":
            # The big blind acts last: heads-up the player after the button, else two after it.
            last = (self.button + (1 if count == 2 else 2)) % count
        else:
            last = self.button
        behind = 0
        seat = self.my_index
        while seat != last:
            seat = (seat + 1) % count
            other = self.seats[seat]
            if not other.folded and not other.all_in:
                behind += 1
        return behind

    def effective_stack(self) -> int:
        """The most this seat can lose or win from one opponent: its chips against the deepest other."""
        mine = self.me.stack + self.me.bet
        deepest = max((seat.stack + seat.bet for seat in self.opponents), default=0)
        return min(mine, deepest)


def read_table(view: Mapping[str, Any], player: str) -> Table:
    seats = []
    my_index = -1
    button = 0
    for index, entry in enumerate(view["players"]):
        cards = entry.get("cards")
        hole = None
        if cards:
            hole = (parse_card(cards[0]), parse_card(cards[1]))
        seats.append(
            Seat(
                name=entry["name"],
                stack=int(entry["stack"]),
                bet=int(entry["bet"]),
                in_hand=int(entry["in_hand"]),
                folded=bool(entry["folded"]),
                all_in=bool(entry["all_in"]),
                cards=hole,
            )
        )
        if entry["name"] == player:
            my_index = index
        if entry.get("is_button"):
            button = index
    if my_index < 0:
        raise ValueError(f"{player!r} is not in this hand.")
    legal = {str(entry["verb"]): entry for entry in view["legal"]}
    return Table(
        me=seats[my_index],
        my_index=my_index,
        seats=tuple(seats),
        street=str(view["street"]),
        board=tuple(parse_card(card) for card in view["board"]),
        big_blind=int(view["big_blind"]),
        button=button,
        current_bet=int(view["current_bet"]),
        legal=legal,
    )


# --- acting within the legal actions ----------------------------------------------------------


def _check_or_fold(table: Table, player: str) -> Action:
    if "check" in table.legal:
        return Action(player, "check")
    return Action(player, "fold")


def _call(table: Table, player: str) -> Action:
    if "check" in table.legal:
        return Action(player, "check")
    if "call" in table.legal:
        return Action(player, "call")
    return Action(player, "allin")  # the only way left to match: everything (a short call)


def _raise_to(table: Table, player: str, target: int) -> Action:
    """Bet or raise to ``target`` chips this round, kept within the legal bounds;
    a call when no bet or raise is allowed."""
    for verb in ("bet", "raise"):
        entry = table.legal.get(verb)
        if entry is not None:
            low, high = int(entry["min"]), int(entry["max"])
            amount = min(max(target, low), high)
            if amount >= high:
                return Action(player, "allin")
            return Action(player, verb, amount)
    if "allin" in table.legal and table.to_call >= table.me.stack:
        return Action(player, "allin")
    return _call(table, player)


def _all_in(table: Table, player: str) -> Action:
    if "allin" in table.legal:
        return Action(player, "allin")
    return _call(table, player)


# --- ranges ------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Reads:
    """What a strategy believes of one opponent."""

    vpip: float
    pfr: float
    bluff_rate: float
    open_share: float = NORMAL_PFR


def _reads(name: str, history: History | None, modelled: bool) -> Reads:
    if not modelled or history is None:
        return Reads(NORMAL_VPIP, NORMAL_PFR, NORMAL_BLUFF_RATE)
    record = history.record(name)
    vpip = record.vpip()
    pfr = min(record.pfr(), vpip)
    # Loose and aggressive players bet without a hand more often.
    guess = min(0.85, max(0.1, 0.15 + 0.6 * vpip * record.aggression() / 0.4))
    # The hands they turned up after betting say best how often their bets are bluffs.
    bluff_rate = min(0.85, max(0.05, record.bluff_share(guess)))
    return Reads(vpip, pfr, bluff_rate, open_share=max(pfr, min(record.open_share(), vpip + 0.1)))


def _opponents(table: Table, history: History | None, modelled: bool) -> list[Opponent]:
    raised = history.this_hand_raised if history is not None else ()
    voluntary = history.this_hand_voluntary if history is not None else ()
    aggressive = history.this_hand_aggressive if history is not None else ()
    out = []
    for seat in table.opponents:
        if seat.cards is not None:
            out.append(Opponent(1.0, cards=seat.cards))
            continue
        reads = _reads(seat.name, history, modelled)
        if modelled and history is not None and raised[:1] == (seat.name,):
            share = reads.open_share  # the first raise: their opening range, measured
        elif seat.name in raised or (history is None and seat.bet > table.big_blind):
            share = reads.pfr
        elif seat.name in voluntary:
            share = reads.vpip
        else:
            share = 1.0
        if table.street == "preflop" and seat.bet > table.big_blind and seat.bet == table.current_bet:
            # Facing their raise now: a re-raise is narrower still.
            share = min(share, reads.pfr if table.current_bet <= 4 * table.big_blind else reads.pfr * 0.4)
        bet_now = table.street != "preflop" and seat.bet > 0
        needs_hand = table.street != "preflop" and (seat.name in aggressive or bet_now)
        out.append(Opponent(max(0.02, share), needs_made_hand=needs_hand, bluff_rate=reads.bluff_rate))
    return out


def _fold_chance(table: Table, history: History | None) -> float:
    """How likely every opponent still in folds to a bet (hard's read of their tightness)."""
    chance = 1.0
    for seat in table.opponents:
        if seat.all_in:
            return 0.0
        record = history.record(seat.name) if history is not None else None
        chance *= record.fold_to_bet() if record is not None else 0.35
    return chance


# --- the strategies ----------------------------------------------------------------------------


def choose(
    *, view: Mapping[str, Any], player: str, strength: str, rng: random.Random, history: History | None
) -> Action:
    """One legal action for ``player``, who must be the one to act in ``view``."""
    table = read_table(view, player)
    if table.me.cards is None:
        raise ValueError("The view does not show this player's cards: it is not their own view.")
    if strength == "easy":
        return _easy(table, player, rng)
    return _thinking(table, player, rng, history, modelled=strength == "hard")


def _easy(table: Table, player: str, rng: random.Random) -> Action:
    hole = table.me.cards
    assert hole is not None
    if table.street == "preflop":
        strength = starting_strength(hole)
        if strength > 0.96 and rng.random() < 0.5:
            return _raise_to(table, player, 3 * max(table.current_bet, table.big_blind))
        cheap = table.to_call <= 4 * table.big_blind
        if strength > 0.2 and (cheap or strength > 0.6):
            return _call(table, player)
        return _check_or_fold(table, player)
    made = equity(hole=hole, board=table.board, opponents=[Opponent(1.0)], rng=rng, trials=40)
    if table.to_call == 0:
        if made > 0.8 and rng.random() < 0.4:
            return _raise_to(table, player, table.pot // 2)
        return _call(table, player)
    if made > 0.45 or table.to_call * 4 <= table.pot:
        return _call(table, player)
    return _check_or_fold(table, player)


def _thinking(table: Table, player: str, rng: random.Random, history: History | None, *, modelled: bool) -> Action:
    if table.street == "preflop":
        return _preflop(table, player, rng, history, modelled=modelled)
    return _postflop(table, player, rng, history, modelled=modelled)


def _tightness(table: Table, history: History | None) -> float:
    """The average share of hands the opponents still in have played (hard only)."""
    shares = [_reads(seat.name, history, True).vpip for seat in table.opponents]
    return sum(shares) / len(shares) if shares else NORMAL_VPIP


def _steal_pays(table: Table, history: History | None, rng: random.Random, target: int) -> bool:
    """Whether raising to ``target`` before the flop pays with this hand, by each opponent's
    measured share of raises they fold to (hard): the pot when they all fold, else the hand's
    equity against the hands they defend with (the top of their range), a little of it lost
    to playing after the flop."""
    hole = table.me.cards
    assert hole is not None
    if history is None or not table.opponents or any(seat.all_in for seat in table.opponents):
        return False
    fold = 1.0
    for seat in table.opponents:
        fold *= history.record(seat.name).fold_to_raise()
    cost = target - table.me.bet
    called_pot = table.pot + cost + max(0, target - max(seat.bet for seat in table.opponents))
    defend = [Opponent(max(0.05, 1.0 - fold)) for _ in table.opponents]
    win = equity(hole=hole, board=(), opponents=defend, rng=rng, trials=STEAL_TRIALS)
    return fold * table.pot + (1.0 - fold) * (STEAL_REALISED * win * called_pot - cost) > 0


def _preflop(table: Table, player: str, rng: random.Random, history: History | None, *, modelled: bool) -> Action:
    hole = table.me.cards
    assert hole is not None
    strength = starting_strength(hole)
    big_blind = table.big_blind
    behind = table.acting_after_me()
    raised = table.current_bet > big_blind
    stack_in_blinds = table.effective_stack() / big_blind
    pot_odds = table.to_call / (table.pot + table.to_call) if table.to_call else 0.0
    loose_table = modelled and _tightness(table, history) > 0.5
    tight_table = modelled and _tightness(table, history) < 0.25

    if stack_in_blinds <= SHORT_STACK_BB:
        # Book 001: "under about ten big blinds, going all in or folding is usually better than calling".
        if not raised:
            share = min(0.75, OPEN_SHARE.get(behind, 0.14) * (1.0 + (SHORT_STACK_BB - stack_in_blinds) / 8))
            if tight_table:
                share = min(0.9, share * 1.4)
            if strength > 1.0 - share:
                return _all_in(table, player)
            return _check_or_fold(table, player)
        win = equity(
            hole=hole, board=(), opponents=_opponents(table, history, modelled), rng=rng, trials=PREFLOP_TRIALS
        )
        if win > pot_odds + 0.03:
            return _all_in(table, player)
        return _check_or_fold(table, player)

    if not raised and table.to_call == 0:
        # The big blind's option: raise the best hands, check the rest for free.
        if strength > 0.88:
            return _raise_to(table, player, int(big_blind * 3.5))
        if modelled and _steal_pays(table, history, rng, int(big_blind * 3.5)):
            return _raise_to(table, player, int(big_blind * 3.5))
        return Action(player, "check")
    if not raised:
        share = OPEN_SHARE.get(behind, 0.14)
        if len(table.opponents) == 1 and behind == 1 and table.to_call < big_blind:
            share = HEADS_UP_BUTTON_SHARE  # heads-up, on the button
        if tight_table and behind <= 2:
            share = min(0.8, share * 1.7)  # steal the blinds of players who fold too much
        elif loose_table:
            share *= 0.85
        limpers = max(0, sum(1 for seat in table.opponents if seat.bet == big_blind) - 1)
        target = int(big_blind * (2.5 + max(0, limpers)))
        if strength > 1.0 - share:
            return _raise_to(table, player, target)
        if modelled and behind <= 2 and _steal_pays(table, history, rng, target):
            return _raise_to(table, player, target)
        if table.to_call <= big_blind // 2 and strength > 0.5:
            return _call(table, player)  # the small blind completes with a fair hand
        return Action(player, "fold")

    opponents = _opponents(table, history, modelled)
    win = equity(hole=hole, board=(), opponents=opponents, rng=rng, trials=PREFLOP_TRIALS)
    if strength > 0.97 or win > 0.62:
        return _raise_to(table, player, 3 * table.current_bet)
    raisers = history.this_hand_raised if history is not None else ()
    if modelled and behind == 0 and len(raisers) == 1 and _steal_pays(table, history, rng, 3 * table.current_bet):
        return _raise_to(table, player, 3 * table.current_bet)  # a re-raise against a player who folds to them
    margin = 0.02 if behind == 0 else 0.05
    if win > pot_odds + margin:
        return _call(table, player)
    return _check_or_fold(table, player)


def _postflop(table: Table, player: str, rng: random.Random, history: History | None, *, modelled: bool) -> Action:
    hole = table.me.cards
    assert hole is not None
    opponents = _opponents(table, history, modelled)
    win = equity(hole=hole, board=table.board, opponents=opponents, rng=rng, trials=POSTFLOP_TRIALS)
    pot = table.pot
    live = len(table.opponents)
    raised_before_flop = history is not None and player in history.this_hand_raised
    loose_table = modelled and _tightness(table, history) > 0.5

    if table.to_call == 0:
        value_line = 0.5 + 0.08 * live
        if loose_table:
            value_line -= 0.07  # loose players call with worse: bet thinner
        if win > value_line:
            return _raise_to(table, player, max(table.big_blind, pot * 2 // 3))
        if raised_before_flop and live == 1 and table.street == "flop":
            # The raiser's bet on the flop: normal now and then; hard as often as this
            # opponent has folded to bets after the flop (often against tight players,
            # seldom against loose ones).
            chance = _fold_chance(table, history) if modelled else NORMAL_FLOP_BET
            if rng.random() < chance:
                return _raise_to(table, player, max(table.big_blind, pot // 2))
        if live == 1 and table.acting_after_me() == 0 and win < 0.35:
            # Checked to, last to act, with little: a bluff now and then.
            chance = BLUFF_RATE if not modelled else min(0.4, _fold_chance(table, history) * 0.5)
            if rng.random() < chance:
                return _raise_to(table, player, max(table.big_blind, pot // 2))
        return Action(player, "check")

    to_call = table.to_call
    pot_odds = to_call / (pot + to_call)
    if win > 0.78 and live <= 2:
        return _raise_to(table, player, table.current_bet * 2 + pot // 2)
    if live == 1 and table.street != "river" and pot_odds <= win < 0.55 and win > 0.3:
        # A semi-bluff: a hand with fair equity raises now and then instead of calling.
        chance = SEMI_BLUFF_RATE if not modelled else min(0.4, _fold_chance(table, history) * 0.6)
        if rng.random() < chance and "raise" in table.legal:
            return _raise_to(table, player, table.current_bet * 2 + pot // 2)
    if win >= pot_odds:
        return _call(table, player)
    return _check_or_fold(table, player)
