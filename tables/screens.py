"""What each viewer's screen shows after a change: computed once, pushed with the news.

After every write to a table, the writer (in its own thread, after the commit) builds
one *screen* message that travels with the events through the channel layer:

    {"seq": 120,                         # exact at this seq: every event up to it, none after
     "table": {...} | absent,            # tables.selectors.table_public, when the row changed
     "seats": [...] | absent,            # every seat, when a seat changed (one query, by the writer)
     "requests": [...] | absent,         # requests to the host not answered yet, when one was made
                                         # or ended (tables.selectors.requests_pending)
     "hand": absent | None | {           # absent: the hand did not change; None: no hand to show
        "number": 7, "dealer": 42, "turn": {...} | None, "finished": false,
        "views": {"42": '<engine view for seat 42, as JSON text>', ...},   # each player dealt in
        "public": '<engine view for a spectator, as JSON text>'}}

Each view is the engine's own ``view(state, viewer)`` (the one place that decides which
cards a viewer may see), computed once per distinct viewer from the in-memory state of
the hand: a table of N players costs N + 1 views per change, however many sockets
watch, and no query or lock per socket. Each socket then keeps only its own view
(``tables.selectors.view_key`` picks which; ``tables.news_text`` builds the frame): the
page applies it and asks for nothing.

The views travel as JSON text, encoded here, in the writer's thread: the channel layer
then carries N + 1 strings rather than N + 1 nested structures (cheaper to pack and
unpack), and the server's event loop, which delivers every frame, puts each socket's
view into its frame as it is instead of encoding it again for every socket
(docs/live-play.md, "The event loop's work per frame"). A snapshot (``only``) keeps its
one view as data.

A finished hand keeps being shown (with its result: pots, who won what, the cards
turned up) until the next one is dealt.
"""

from __future__ import annotations

import json
from typing import Any

from engine.games import get_game
from tables.models import Hand, Table

# Event kinds after which the seats' public data (stack, place, status, buy-ins) may differ.
SEAT_KINDS = frozenset(
    {
        "seat_joined",
        "seat_taken",
        "seat_left",
        "seat_removed",
        "seat_out",
        "seat_sat_out",
        "seat_came_back",
        "seat_bought_back",
        "hand_ended",
        "hand_void",
        "game_ended",
    }
)


def hand_screen(*, table: Table, hand: Hand, state: Any, only: str | None = None) -> dict[str, Any]:
    """Every distinct view of one hand's state, each as JSON text, and its turn (see the
    module). With ``only`` (a snapshot for one viewer): that viewer's view if dealt in,
    else the public one, as data."""
    game = get_game(table.game)
    names = [str(name) for name, _stack in hand.plan["players"]]
    if only is not None:
        names = [name for name in names if name == only]
    to_act = None if game.is_finished(state) else game.to_act(state)
    views: dict[str, Any] = {name: game.view(state, name) for name in names}
    public: Any = game.view(state, None) if only is None or not names else None
    if only is None:
        # The same encoder as each socket's frame (Channels' send_json): the text is what
        # the frame held before, byte for byte.
        views = {name: json.dumps(view) for name, view in views.items()}
        public = json.dumps(public)
    return {
        "number": hand.number,
        "dealer": hand.dealer_id,
        "finished": game.is_finished(state),
        "turn": None if to_act is None else turn_public(game=game, state=state, player=to_act, hand=hand),
        "views": views,
        "public": public,
    }


def turn_public(*, game: Any, state: Any, player: str, hand: Hand) -> dict[str, Any]:
    """Whose turn it is, what they may do and until when: the ``turn`` event's data and
    the screen's (and snapshot's) ``turn``."""
    return {
        "player": player,
        "legal": [legal.to_json() for legal in game.legal_actions(state, player)],
        "deadline": hand.turn_deadline.isoformat() if hand.turn_deadline else None,
        # From when the host may act for this player (book 000 leaves the timer a reminder).
        "away_from": hand.away_act_from.isoformat() if hand.away_act_from else None,
    }
