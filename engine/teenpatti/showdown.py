"""The end of a Teen Patti hand: the cards turned up (a show, the pot limit) and the pot
paid, a split's odd chips going to the first winners clockwise from the player after the
dealer (the rules are :mod:`engine.teenpatti.hand`'s).
"""

from __future__ import annotations

from engine.api import Event, PotResult
from engine.teenpatti.state import HandState, Outcome, cards_text, deal_order, hand_label_of


def pot_limit_reached(new: HandState, events: list[Event]) -> bool:
    """At the pot limit everyone still in shows, blind players too; tied hands split."""
    limit = new.settings.pot_limit
    if limit is None or new.pot < limit:
        return False
    contenders = [seat for seat in range(len(new.names)) if not new.packed[seat]]
    best = max(new.scores[seat] for seat in contenders)
    winners = [seat for seat in contenders if new.scores[seat] == best]
    reveal(new, events, "pot_limit", contenders, winners)
    finish(new, events, "pot_limit", contenders, winners)
    return True


def reveal(new: HandState, events: list[Event], reason: str, seats: list[int], winners: list[int]) -> None:
    names = new.names
    new.public = new.public.copy()
    for seat in seats:
        new.public[seat] = True
    events.append(
        Event(
            "showdown",
            {
                "reason": reason,
                "cards": {names[seat]: cards_text(new, seat) for seat in seats},
                "hands": {names[seat]: hand_label_of(new, seat) for seat in seats},
                "winners": [names[seat] for seat in winners],
            },
        )
    )


def finish(new: HandState, events: list[Event], reason: str, eligible: list[int], winners: list[int]) -> None:
    """Pay the pot and end the hand. A split pot's odd chips go one each to the first
    winners clockwise from the player after the dealer."""
    names = new.names
    count = len(names)
    order = [seat for seat in deal_order(count, new.dealer) if seat in winners]
    share, odd = divmod(new.pot, len(order))
    payouts: dict[int, int] = {}
    new.stacks = new.stacks.copy()
    for place, seat in enumerate(order):
        payouts[seat] = share + (1 if place < odd else 0)
        new.stacks[seat] += payouts[seat]
    pot = PotResult(new.pot, tuple(names[seat] for seat in eligible), tuple(names[seat] for seat in sorted(winners)))
    new.pot = 0
    new.turn = -1
    new.pending = None
    new.outcome = Outcome(
        reason,
        pot.winners,
        tuple((names[seat], payouts[seat]) for seat in sorted(payouts)),
        (pot,),
    )
    events.append(
        Event(
            "hand_finished",
            {
                "reason": reason,
                "winners": list(pot.winners),
                "payouts": {names[seat]: payouts[seat] for seat in sorted(payouts)},
                "pots": [pot.to_json()],
                "stacks": dict(zip(names, new.stacks, strict=True)),
            },
        )
    )
