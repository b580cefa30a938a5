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
(``tables.selectors.view_key`` picks which; ``tables.live.news_frames`` builds the frame): the
page applies it and asks for nothing.

The views travel as JSON text, encoded here, in the writer's thread: the channel layer
then carries N + 1 strings rather than N + 1 nested structures (cheaper to pack and
unpack), and the server's event loop, which delivers every frame, puts each socket's
view into its frame as it is instead of encoding it again for every socket
(docs/measurements/live-play.md, "The event loop's work per frame"). A snapshot (``only``) keeps its
one view as data.

A finished hand keeps being shown (with its result: pots, who won what, the cards
turned up) until the next one is dealt.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any

from django.db import transaction

from engine.api import LegalAction
from engine.games import get_game
from tables.events import REQUEST_KINDS, NewEvent
from tables.messages import (
    CatchUpScreen,
    HandScreen,
    LegalPublic,
    NewsScreen,
    Snapshot,
    TurnPublic,
    ViewerFrame,
    json_text,
)
from tables.models import MOVED_KEY, Hand, Seat, Table
from tables.selectors import (
    events_after,
    hand_for_viewer,
    hand_state_from_log,
    live_hand_and_state,
    request_denied_standing,
    requests_pending,
    seat_public,
    table_public,
)
from tables.sql.read import rows_where

if TYPE_CHECKING:
    from engine.games import AnyHandState

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


def hand_screen(*, table: Table, hand: Hand, state: Any, only: str | None = None) -> HandScreen:
    """Every distinct view of one hand's state, each as JSON text, and its turn (see the
    module). With ``only`` (a snapshot for one viewer): that viewer's view if dealt in,
    else the public one, as data. A player whose seat moved during the hand
    (``Hand.plan["moved"]``) gets the public one."""
    game = get_game(table.game)
    # A player whose seat moved to another browser during the hand has no view of it any
    # more: every socket of that seat sees the public one (issue 38, "This is me").
    moved = hand.plan.get(MOVED_KEY, ())
    names = [str(name) for name, _stack in hand.plan["players"] if str(name) not in moved]
    if only is not None:
        names = [name for name in names if name == only]
    to_act = None if game.is_finished(state) else game.to_act(state)
    views: dict[str, Any] = {name: game.view(state, name) for name in names}
    public: Any = game.view(state, None) if only is None or not names else None
    if only is None:
        # The same encoder as each socket's frame (tables.messages.json_text): the frame's text is
        # what encoding the whole frame would give, byte for byte.
        views = {name: json_text(view) for name, view in views.items()}
        public = json_text(public)
    return {
        "number": hand.number,
        "dealer": hand.dealer_id,
        "finished": game.is_finished(state),
        "turn": None if to_act is None else turn_public(game=game, state=state, player=to_act, hand=hand),
        "views": views,
        "public": public,
    }


def turn_public(*, game: Any, state: Any, player: str, hand: Hand) -> TurnPublic:
    """Whose turn it is, what they may do and until when: the ``turn`` event's data and
    the screen's (and snapshot's) ``turn``."""
    return {
        "player": player,
        "legal": [_legal_public(legal) for legal in game.legal_actions(state, player)],
        "deadline": hand.turn_deadline.isoformat() if hand.turn_deadline else None,
        # From when the host may act for this player (book 000 leaves the timer a reminder).
        "away_from": hand.away_act_from.isoformat() if hand.away_act_from else None,
    }


def _legal_public(legal: LegalAction) -> LegalPublic:
    """One of the turn's moves, with its cost (what everyone can work out from the table: the
    host's "Act for" names it, "Call 20")."""
    entry: LegalPublic = {"verb": legal.verb}
    if legal.min is not None:
        entry["min"] = legal.min
    if legal.max is not None:
        entry["max"] = legal.max
    if legal.cost is not None:
        entry["cost"] = legal.cost
    return entry


# --- the snapshot: what one viewer sees on connecting -----------------------------------


@contextmanager
def _consistent_read() -> Iterator[None]:
    """One transaction whose every query sees the database as of its first (REPEATABLE READ
    on PostgreSQL; SQLite's transactions read one snapshot anyway). Inside a transaction
    already begun it is that transaction, as it is."""
    connection = transaction.get_connection()
    outermost = not connection.in_atomic_block
    with transaction.atomic():
        if outermost and connection.vendor == "postgresql":
            with connection.cursor() as cursor:
                cursor.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ")
        yield


def table_snapshot(*, table_id: int, seat_id: int | None) -> Snapshot:
    """What one viewer may see of the table now, with the seq it is exact at.

    Read without the table's row lock, in one consistent read: on PostgreSQL a
    REPEATABLE READ transaction (every query sees the database as of its first one), on
    SQLite the transaction's own snapshot. So no write waits for a page connecting, and
    the seq and the state still agree. When no hand is live, the last one played is
    shown, result and all, as the page showed it when it ended.
    """
    with _consistent_read():
        table = Table.objects.get(pk=table_id)
        seats = list(Seat.objects.filter(table=table).order_by("pk"))
        mine = next((seat for seat in seats if seat.pk == seat_id), None)
        you = None if mine is None else mine.pk
        hand, state, _seq = live_hand_and_state(table=table)
        if hand is None:
            hand = _hand_last_played(table)
            state = None if hand is None else hand_state_from_log(table=table, hand=hand)[0]
        hand_out = None
        if hand is not None and state is not None:
            # A hand dealt before a guest's seat link moved the seat here was another
            # browser's: this one sees it as a watcher does (issue 34).
            viewer = None if mine is None or hand.number <= mine.link_moved_hand else str(you)
            # Only this viewer's view is worked out (a watcher's: the public one).
            screen = hand_screen(table=table, hand=hand, state=state, only=viewer or "")
            hand_out = hand_for_viewer(screen, viewer)
        return {
            "type": "snapshot",
            "seq": table.last_seq,
            "you": you,
            "table": table_public(table),
            "seats": [seat_public(seat) for seat in seats],
            "hand": hand_out,
            "requests": requests_pending(table=table),
            # The host's no to this viewer's own latest request, while it stands (the news
            # told it once; a reloaded page reads it here). Nobody else's.
            "denied": None if mine is None else request_denied_standing(table=table, seat=mine),
        }


def _hand_last_played(table: Table) -> Hand | None:
    """The last hand, if it was played to its end (not called off)."""
    hand = Hand.objects.filter(table=table).order_by("-number").first()
    if hand is None or hand.ended_at is None or not hand.result or hand.result.get("void"):
        return None
    return hand


def table_catch_up(
    *, table_id: int, seat_id: int | None, after: int, limit: int = 500
) -> tuple[list[ViewerFrame], CatchUpScreen] | None:
    """The events after ``after`` as this seat may see them, and its screen at the last of
    them, read in one consistent read (see :func:`table_snapshot`); ``None`` when more than
    ``limit`` events were missed (a snapshot is the better answer then)."""
    with _consistent_read():
        viewer = None if seat_id is None else str(seat_id)
        snapshot = table_snapshot(table_id=table_id, seat_id=seat_id)
        events = events_after(table_id=table_id, after=after, viewer=viewer, limit=limit + 1)
    if len(events) > limit:
        return None
    screen: CatchUpScreen = {
        "seq": snapshot["seq"],
        "table": snapshot["table"],
        "seats": snapshot["seats"],
        "hand": snapshot["hand"],
        "requests": snapshot["requests"],
        "denied": snapshot["denied"],
    }
    return [event for event in events if event["seq"] <= screen["seq"]], screen


# --- the news: the screen that goes out with a write's events ---------------------------


def news_screen_parts(*, table: Table, events: Sequence[NewEvent], table_changed: bool) -> NewsScreen:
    """What the screens need besides the hand, read by the writer inside its transaction
    (so exact at its last seq): the table when its row changed, the seats when an event
    moved them, the requests to the host when one was made or ended."""
    screen: NewsScreen = {"seq": table.last_seq}
    if table_changed:
        screen["table"] = table_public(table)
    if any(event.kind in SEAT_KINDS for event in events):
        # seats_public's rows, read without compiling a query
        seats = rows_where(Seat, equal={"table_id": table.pk}, order_by=["pk"])
        screen["seats"] = [seat_public(seat) for seat in seats]
    if any(event.kind in REQUEST_KINDS for event in events):
        screen["requests"] = requests_pending(table=table)
    return screen


def news_screen_add_hand(
    screen: NewsScreen, *, table: Table, live: Any, finished: tuple[Hand, AnyHandState] | None
) -> None:
    """The hand part of the screen, after the commit: the live hand's views, else those of
    the hand the write finished, else none (``None``) when the live hand went, else left out
    (``live`` is the writer's live hand: a tuple, ``None``, or not known)."""
    if isinstance(live, tuple) and live[0].ended_at is None:
        screen["hand"] = hand_screen(table=table, hand=live[0], state=live[1])
    elif finished is not None:
        screen["hand"] = hand_screen(table=table, hand=finished[0], state=finished[1])
    elif live is None:
        screen["hand"] = None
