"""The end of a hold'em hand: the side pots, the showdown order and the payout.

Rule book 001's words, as :mod:`engine.holdem.hand` sums them up: with anyone all in
every hand still in is shown at once; otherwise from the last player to bet or raise on
the river, each showing only a hand at least as good as the best so far. Pots are paid
from the last side pot back to the main pot; the odd chips of a split go to the first
winner left of the button.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from engine.api import Event, HandResult, PotResult
from engine.holdem.evaluator import best_hand, hand_value
from engine.holdem.state import CARD_TEXT, FINISHED, HandState


def left_of_button(state: HandState, seats: Sequence[int]) -> list[int]:
    """``seats`` in order round the table starting from the first player left of the button."""
    count = len(state.names)
    start = state.button + 1
    return [seat % count for seat in range(start, start + count) if seat % count in seats]


def show_event(state: HandState, seat: int, reason: str) -> Event:
    return Event(
        "show", {"player": state.names[seat], "cards": [CARD_TEXT[c] for c in state.hole[seat]], "reason": reason}
    )


def pots_of(committed: Sequence[int], folded: Sequence[bool]) -> list[tuple[int, tuple[int, ...]]]:
    """Main pot first, then side pots: ``(amount, eligible seats)``.

    Each level is what a player still in has put in; a pot holds every player's chips
    between the level below and its own, and only players who reached it can win it.
    Chips of folded players stay in the pots; any above the top level go to the last pot.
    """
    seats = range(len(committed))
    live_levels = sorted({committed[seat] for seat in seats if not folded[seat]})
    if len(live_levels) == 1:  # the usual case: one pot for everyone still in
        return [(sum(committed), tuple(seat for seat in seats if not folded[seat]))]
    pots: list[tuple[int, tuple[int, ...]]] = []
    taken = 0  # chips already in the pots below this level
    for level in live_levels:
        if not level:
            continue
        up_to_level = 0
        for put in committed:
            up_to_level += put if put < level else level
        eligible = tuple(seat for seat in seats if not folded[seat] and committed[seat] >= level)
        pots.append((up_to_level - taken, eligible))
        taken = up_to_level
    extra = sum(committed) - taken
    if extra:
        if pots:
            amount, eligible = pots[-1]
            pots[-1] = (amount + extra, eligible)
        else:
            pots.append((extra, tuple(seat for seat in seats if not folded[seat])))
    return pots


def showdown(state: HandState, events: list[Event]) -> None:
    live = [seat for seat in range(len(state.names)) if not state.folded[seat]]
    values = {seat: hand_value(state.hole[seat] + state.board) for seat in live}
    if any(state.stacks[seat] == 0 for seat in live):
        order = left_of_button(state, live)
        for seat in order:
            if seat not in state.revealed:
                events.append(show_event(state, seat, "all_in"))
        state.revealed = state.revealed + tuple(seat for seat in order if seat not in state.revealed)
    else:
        first = state.last_aggressor if state.last_aggressor >= 0 else left_of_button(state, live)[0]
        count = len(state.names)
        order = sorted(live, key=lambda seat: (seat - first) % count)
        best = -1
        shown = []
        for seat in order:
            if values[seat] >= best:
                best = values[seat]
                shown.append(seat)
                events.append(show_event(state, seat, "showdown"))
            else:
                events.append(Event("muck", {"player": state.names[seat]}))
        state.revealed = state.revealed + tuple(shown)
    finish(state, events, values)


def finish(state: HandState, events: list[Event], values: Mapping[int, int] | None = None) -> None:
    """Pay the pots, last side pot first, and record the result."""
    names = state.names
    pots = pots_of(state.committed, state.folded)
    results: list[PotResult] = [PotResult(0, (), ())] * len(pots)
    named: dict[int, dict[str, Any]] = {}  # each winner's five cards, worked out once
    payouts: dict[str, int] = {}  # what each winner takes from all the pots
    for index in range(len(pots) - 1, -1, -1):
        amount, eligible = pots[index]
        if values is None or len(eligible) == 1:
            winners = list(eligible)
        else:
            best = max([values[seat] for seat in eligible])
            winners = [seat for seat in eligible if values[seat] == best]
            if len(winners) > 1:
                winners = left_of_button(state, winners)
        share, odd = divmod(amount, len(winners))
        shares = {}
        for place, seat in enumerate(winners):
            won = share + (odd if place == 0 else 0)  # odd chips: the first winner left of the button
            state.stacks[seat] += won
            shares[names[seat]] = won
            payouts[names[seat]] = payouts.get(names[seat], 0) + won
        hands: dict[str, Any] = {}
        if values is not None and len(eligible) > 1:
            for seat in winners:
                if seat not in named:
                    best_five = best_hand(state.hole[seat] + state.board, values[seat])
                    named[seat] = {"category": best_five.category, "cards": [CARD_TEXT[c] for c in best_five.cards]}
                hands[names[seat]] = named[seat]
        eligible_names = [names[seat] for seat in eligible]
        winner_names = [names[seat] for seat in winners]
        events.append(
            Event(
                "pot_awarded",
                {
                    "pot": index,
                    "amount": amount,
                    "eligible": eligible_names,
                    "winners": winner_names,
                    "shares": shares,
                    "hands": hands,
                },
            )
        )
        results[index] = PotResult(amount, tuple(eligible_names), tuple(winner_names))
    state.awards = {"payouts": payouts, "best": {names[seat]: named[seat] for seat in named}}
    state.committed = [0] * len(names)
    state.street = FINISHED
    state.to_act = -1
    stacks = dict(zip(names, state.stacks, strict=True))
    state.result = HandResult(stacks=stacks, pots=tuple(results))
    events.append(Event("hand_finished", {"stacks": dict(stacks)}))
