"""What one person at the table may see of a Teen Patti hand: :func:`hand_view`.

The view is a JSON-ready dict; the live site and the browser page render it as is::

    {
      "game": "faras",
      "settings": {...},                 # the hand's settings (keys of the spec's table)
      "viewer": "Asha" | None,          # None: a spectator
      "dealer": "Chandra",
      "to_act": "Asha" | None,          # None once the hand is over
      "pot": 60, "stake": 10, "boot": 10,
      "variant": "none" | "muflis" | "ak47" | "joker" | "four_card",
      "cards_each": 3,                   # Four-card: 4
      "joker": "7h" | None,              # the Joker variant's card turned face up (everyone sees it)
      "joker_ranks": ["7"] | [],         # ranks that are jokers this hand (AK47: A, K, 4, 7)
      "players": [                       # seat order
        {"name": "Asha", "stack": 990, "bet": 10,   # bet: chips put in this hand, boot included
         "seen": false, "packed": false,
         "blind_turns_used": 0, "blind_turns_left": 4 | None,
         "dealer": false, "to_act": true,
         "cards": ["As", "Kd", "2c"] | None,         # only where this viewer may see them
         "hand": {"category": "pair"} | {"category": "digits", "value": 910} | None},
                                         # under a variant also "cards" (the three it plays), "jokers"
        ...
      ],
      "your_cards": [...] | None,        # the viewer's own cards, once they have seen
      "legal": [{"verb": "raise", "min": 20, "max": 990, "cost": 20,   # the viewer's; cost at min
                 "per_chip": 1, "step": 10, "start": 20},            # raise box: cost per chip, step, start
                {"verb": "sideshow", "cost": 40, "partner": "Bikash"}, ...],  # whom it would ask
      "must_see": false,                 # the viewer's blind turns are used up: see or pack
      "sideshow": {"asker": "Bikash", "partner": "Chandra"} | None,  # awaiting an answer
      "finished": false,
      "result": None | {"reason": "show", "winners": [...], "payouts": {...},
                        "pots": [{"amount", "eligible", "winners"}], "stacks": {...}}
    }

A player's cards appear only (a) to that player once they have seen, (b) to the other
player of an accepted sideshow, (c) to everyone after a show or a pot-limit show.
A blind player's own cards are hidden from them too: looking is the ``see`` action.
"""

from __future__ import annotations

from engine.api import legal_entry
from engine.cards import RANK_CHARS, card_text
from engine.teenpatti.hand import legal_actions, must_see, sideshow_partner
from engine.teenpatti.state import HandState, hand_label_of
from engine.teenpatti.variants import cards_each, joker_ranks
from engine.view_types import LegalEntry, TeenPattiPlayer, TeenPattiResult, TeenPattiView


def may_see_cards(state: HandState, viewer_seat: int, seat: int) -> bool:
    """Whether the player at ``viewer_seat`` (-1: a spectator) may see ``seat``'s cards now."""
    if state.public[seat]:
        return True
    if viewer_seat < 0:
        return False
    if viewer_seat == seat:
        return state.seen[seat]
    return bool(state.known_by[seat] >> viewer_seat & 1)


def hand_view(state: HandState, viewer: str | None) -> TeenPattiView:
    """The hand as ``viewer`` may see it (an unknown name or ``None`` sees what a spectator sees)."""
    viewer_seat = -1 if viewer is None else state.index.get(viewer, -1)
    settings = state.settings
    limit = settings.blind_turns
    players: list[TeenPattiPlayer] = []
    for seat, name in enumerate(state.names):
        visible = may_see_cards(state, viewer_seat, seat)
        players.append(
            {
                "name": name,
                "stack": state.stacks[seat],
                "bet": state.bets[seat],
                "seen": state.seen[seat],
                "packed": state.packed[seat],
                "blind_turns_used": state.blind_used[seat],
                "blind_turns_left": None if limit is None else max(0, limit - state.blind_used[seat]),
                "dealer": seat == state.dealer,
                "to_act": seat == state.turn,
                "cards": [card_text(card) for card in state.cards[seat]] if visible else None,
                "hand": hand_label_of(state, seat) if visible else None,
            }
        )
    legal: list[LegalEntry] = []
    if viewer_seat >= 0:
        for action in legal_actions(state, viewer_seat):
            entry = legal_entry(action)
            if action.verb == "raise" and action.min is not None and action.max is not None:
                # The raise box: each chip the stake goes up costs one (blind) or two (seen);
                # it steps a boot at a time and starts at the classic double.
                entry["per_chip"] = 2 if state.seen[viewer_seat] else 1
                entry["step"] = settings.boot
                entry["start"] = max(action.min, min(action.max, 2 * state.stake))
            elif action.verb == "sideshow":
                # Whom the sideshow would ask (the book's "player before you"): the page names
                # them on the button and works out no rule itself.
                entry["partner"] = state.names[sideshow_partner(state, viewer_seat)]
            legal.append(entry)
    outcome = state.outcome
    result: TeenPattiResult | None = None
    if outcome is not None:
        result = {
            "reason": outcome.reason,
            "winners": list(outcome.winners),
            "payouts": dict(outcome.payouts),
            "pots": [pot.to_json() for pot in outcome.pots],
            "stacks": dict(zip(state.names, state.stacks, strict=True)),
        }
    pending = state.pending
    return {
        "game": state.game,
        "settings": settings.to_json(),
        "viewer": viewer if viewer_seat >= 0 else None,
        "dealer": state.names[state.dealer],
        "to_act": state.to_act,
        "pot": state.pot,
        "stake": state.stake,
        "boot": settings.boot,
        "variant": settings.variant,
        "cards_each": cards_each(settings.variant),
        "joker": None if state.turned is None else card_text(state.turned),
        "joker_ranks": [
            RANK_CHARS[rank - 2] for rank in sorted(joker_ranks(settings.variant, state.turned), reverse=True)
        ],
        "players": players,
        "your_cards": players[viewer_seat]["cards"] if viewer_seat >= 0 and state.seen[viewer_seat] else None,
        "legal": legal,
        # Book 000: "By default you may bet blind four times, then you must see before you
        # chaal or raise again": the page says why only See and Pack are offered.
        "must_see": viewer_seat >= 0 and not state.packed[viewer_seat] and must_see(state, viewer_seat),
        "sideshow": None if pending is None else {"asker": state.names[pending[0]], "partner": state.names[pending[1]]},
        "finished": outcome is not None,
        "result": result,
    }
