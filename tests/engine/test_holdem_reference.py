"""A second, independent model of a hold'em hand, played beside the engine (rule book 001).

PokerKit (test_holdem_pokerkit.py) differs from the book on short big blinds and on
reopening the betting after short all-ins, so its comparison avoids or tolerates those
hands. This model is written from the book and the Poker TDA in another shape (a queue
of players still to answer, raise rights as chips faced since one last acted) and is
compared with the engine at every step of random hands with short stacks and short
blinds: whose turn it is, what a call costs, whether a raise is allowed and its
smallest and largest amount; and at the end who shows, in what order, who mucks,
and every player's chips.
"""

from __future__ import annotations

import random

from engine.api import Action
from engine.fairness import seeded_deck
from engine.holdem import HOLDEM
from engine.holdem.evaluator import hand_value

SMALL, BIG = 10, 20
PASSIVE_WEIGHTS = {"fold": 1, "check": 12, "call": 12, "bet": 2, "raise": 1, "allin": 0}


class ModelHand:
    """The book's betting, kept apart from the engine's code."""

    def __init__(self, stacks: list[int], button: int) -> None:
        count = len(stacks)
        self.count = count
        self.button = button
        self.stack = stacks[:]
        self.bet = [0] * count
        self.put_in = [0] * count
        self.folded = [False] * count
        if count == 2:
            small_seat, big_seat = button, (button + 1) % 2
        else:
            small_seat, big_seat = (button + 1) % count, (button + 2) % count
        for seat, blind in ((small_seat, SMALL), (big_seat, BIG)):
            self._pay(seat, min(blind, self.stack[seat]))
        self.current = BIG  # a short big blind still leaves the full big blind to call
        self.new_round(first=(big_seat + 1) % count)

    # -- helpers
    def _pay(self, seat: int, chips: int) -> None:
        self.stack[seat] -= chips
        self.bet[seat] += chips
        self.put_in[seat] += chips

    def _seats_from(self, first: int) -> list[int]:
        return [(first + step) % self.count for step in range(self.count)]

    def _can_bet(self, seat: int) -> bool:
        return not self.folded[seat] and self.stack[seat] > 0

    def _others_reach(self, seat: int) -> int:
        return max(
            (self.bet[o] + self.stack[o] for o in range(self.count) if o != seat and not self.folded[o]), default=0
        )

    def new_round(self, first: int) -> None:
        self.queue = [seat for seat in self._seats_from(first) if self._can_bet(seat)]
        self.not_acted = set(self.queue)
        self.faced = [0] * self.count  # chips the bet went up by since the player last acted
        self.last_full = BIG  # the last full bet or raise of the round
        self.last_aggressor: int | None = None

    def call_to(self, seat: int) -> int:
        return min(self.current, self._others_reach(seat))

    def _needs_turn(self, seat: int) -> bool:
        if not self._can_bet(seat):
            return False
        if self.bet[seat] < self.call_to(seat):
            return True
        return seat in self.not_acted and sum(self._can_bet(s) for s in range(self.count)) > 1

    def to_act(self) -> int | None:
        while self.queue and not self._needs_turn(self.queue[0]):
            self.not_acted.discard(self.queue.pop(0))
        if sum(not folded for folded in self.folded) < 2 or not self.queue:
            return None
        return self.queue[0]

    def raise_range(self, seat: int) -> tuple[int, int] | None:
        """The smallest and largest total this round a bet or raise may reach, or None."""
        total = self.bet[seat] + self.stack[seat]
        if total <= self.current or self._others_reach(seat) <= self.current:
            return None
        if seat not in self.not_acted and self.faced[seat] < self.last_full:
            return None  # short all-ins since the player acted add up to less than a full raise
        least = BIG if self.current == 0 else self.current + self.last_full
        return min(least, total), total

    def act(self, seat: int, verb: str, total: int | None) -> None:
        self.queue.pop(0)
        self.not_acted.discard(seat)
        self.faced[seat] = 0
        if verb == "fold":
            self.folded[seat] = True
        elif verb == "call":
            self._pay(seat, min(self.call_to(seat), self.bet[seat] + self.stack[seat]) - self.bet[seat])
        elif verb in ("bet", "raise"):
            assert total is not None
            self._pay(seat, total - self.bet[seat])
            increase = total - self.current
            if increase >= self.last_full:
                self.last_full = increase
            for other in range(self.count):
                if other != seat:
                    self.faced[other] += increase
            self.current = total
            self.last_aggressor = seat
            self.queue = [s for s in self._seats_from(seat + 1) if s != seat and self._can_bet(s)]

    def end_round(self) -> bool:
        """Give back what nobody called; True when the betting is over for the hand."""
        top = max(self.bet)
        leaders = [seat for seat in range(self.count) if self.bet[seat] == top]
        if len(leaders) == 1:
            second = max(bet for seat, bet in enumerate(self.bet) if seat != leaders[0])
            self.stack[leaders[0]] += top - second
            self.put_in[leaders[0]] -= top - second
        self.bet = [0] * self.count
        self.current = 0
        live = sum(not folded for folded in self.folded)
        return live < 2 or sum(self._can_bet(s) for s in range(self.count)) < 2

    def showdown(self, values: dict[int, int]) -> tuple[set[str], list[str], list[str]]:
        """Who shows and who mucks: ``(shown at once, shown in turn, mucked)``."""
        live = [seat for seat in self._seats_from(self.button + 1) if not self.folded[seat]]
        if len(live) < 2:
            return set(), [], []
        if any(self.stack[seat] == 0 for seat in live):
            return {f"P{seat}" for seat in live}, [], []
        first = self.last_aggressor if self.last_aggressor is not None else live[0]
        in_turn, mucked, best = [], [], -1
        for seat in self._seats_from(first):
            if seat in live:
                if values[seat] >= best:
                    best = values[seat]
                    in_turn.append(f"P{seat}")
                else:
                    mucked.append(f"P{seat}")
        return set(), in_turn, mucked

    def pay_out(self, hole: dict[int, tuple[int, int]], board: list[int]) -> list[int]:
        """Peel pots level by level; split each, odd chips to the first winner left of the button."""
        final = self.stack[:]
        live = [seat for seat in range(self.count) if not self.folded[seat]]
        rest = self.put_in[:]
        while any(rest[seat] for seat in live):
            level = min(rest[seat] for seat in live if rest[seat])
            amount = sum(min(chips, level) for chips in rest)
            contenders = [seat for seat in live if rest[seat] >= level]
            rest = [max(chips - level, 0) for chips in rest]
            if not any(rest[seat] for seat in live):
                amount += sum(rest)  # folded chips above every live level
                rest = [0] * self.count
            values = {seat: hand_value(list(hole[seat]) + board) for seat in contenders}
            best = max(values.values()) if len(live) > 1 else None
            winners = [
                s for s in self._seats_from(self.button + 1) if s in values and (best is None or values[s] == best)
            ]
            share, odd = divmod(amount, len(winners))
            for place, seat in enumerate(winners):
                final[seat] += share + (odd if place == 0 else 0)
        return final


def _play_both(seed: int) -> tuple[set[str], list[str], list[str]]:
    rng = random.Random(seed)
    passive = seed % 2 == 1
    count = rng.randint(2, 6)
    stacks = [rng.choice((rng.randint(1, 45), rng.randint(1, 400), rng.randint(100, 2000))) for _ in range(count)]
    button = rng.randrange(count)
    deck = seeded_deck(f"holdem-reference|{seed}")
    names = [f"P{seat}" for seat in range(count)]
    state, events = HOLDEM.start_hand(
        settings=HOLDEM.settings(), players=list(zip(names, stacks, strict=True)), dealer=button, deck=deck
    )
    model = ModelHand(stacks, button)
    rounds = 0
    while True:
        seat = model.to_act()
        if seat is None:
            if model.end_round() or rounds == 3:
                break
            rounds += 1
            model.new_round(first=(button + 1) % count)
            continue
        assert state.to_act == seat, (seed, "whose turn", state.to_act, seat)
        legal = {option.verb: option for option in HOLDEM.legal_actions(state)}
        call_to = model.call_to(seat)
        if model.bet[seat] < call_to:
            assert legal["call"].cost == min(call_to - model.bet[seat], model.stack[seat]), (seed, "call cost")
        else:
            assert "check" in legal and "call" not in legal, (seed, "check")
        raising = legal.get("bet") or legal.get("raise")
        expected = model.raise_range(seat)
        assert (None if raising is None else (raising.min, raising.max)) == expected, (seed, "raise", state)
        # Half the hands play passively (mostly checks, calls and small bets) so that many
        # reach a river showdown with nobody all in; the others play any legal action.
        options = list(legal.values())
        weights = [PASSIVE_WEIGHTS.get(o.verb, 1) if passive else 1 for o in options]
        option = rng.choices(options, weights)[0]
        amount = None
        if option.verb in ("bet", "raise"):
            amount = option.min if passive else rng.randint(option.min, option.max)
        state, new_events = HOLDEM.apply(state, Action(names[seat], option.verb, amount))
        events = [*events, *new_events]
        verb, total = option.verb, amount
        if verb == "allin":
            total = model.bet[seat] + model.stack[seat]
            verb = "call" if total <= call_to else "raise"
        model.act(seat, verb, total)
    assert HOLDEM.is_finished(state), (seed, "the engine's hand goes on")
    hole = {
        seat: (deck[(seat - button - 1) % count], deck[count + (seat - button - 1) % count]) for seat in range(count)
    }
    board = [deck[2 * count + offset] for offset in (1, 2, 3, 5, 7)]
    got = HOLDEM.result(state).stacks
    assert [got[name] for name in names] == model.pay_out(hole, board), (seed, stacks, button)
    values = {seat: hand_value(list(hole[seat]) + board) for seat in range(count)}
    at_once, in_turn, mucked = model.showdown(values)
    shows = [(e.data["player"], e.data["reason"]) for e in events if e.kind == "show"]
    assert {player for player, reason in shows if reason == "all_in"} == at_once, (seed, shows)
    assert [player for player, reason in shows if reason == "showdown"] == in_turn, (seed, shows)
    assert [e.data["player"] for e in events if e.kind == "muck"] == mucked, (seed, "muck")
    return at_once, in_turn, mucked


def test_turns_call_costs_raise_rights_and_payouts_agree_with_an_independent_model_short_blinds_included():
    """3,000 random hands, short stacks and short blinds included: the engine and the model
    agree at every step (turn, call cost, raise allowed and its range), on the showdown
    (all at once when someone is all in; else in turn from the river's last bettor, hands
    that cannot win mucked) and on the final chips."""
    reached = {"all at once": 0, "in turn": 0, "mucked": 0}
    for seed in range(3000):
        at_once, in_turn, mucked = _play_both(seed)
        reached["all at once"] += bool(at_once)
        reached["in turn"] += bool(in_turn)
        reached["mucked"] += bool(mucked)
    # The random hands must reach each kind of showdown, not only all-ins.
    assert reached["all at once"] > 1000 and reached["in turn"] > 200 and reached["mucked"] > 100, reached
