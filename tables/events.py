"""The event log's vocabulary and frames: every kind of event a table's log may hold, and
one event as it travels to the sockets and to the history pages.

:class:`EventKind` is the one list of kinds. Services append with its members (never a
bare string); the engine's own events keep the engine's names, listed here too (the
engine is standard library only and does not import this), and a test plays random games
of every game and checks that every kind written to the log is here. The table page gets
the same names from the server (``event_kinds_for_page``, a ``json_script`` with the id
``event-kinds``), so the page never retypes them.

:func:`event_frame` is the one shape of an event outside the database (visibility still
attached); ``tables.selectors.frame_for_viewer`` then keeps what one viewer may see.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from tables.messages import EventFrame
from tables.models import Event


class EventKind(StrEnum):
    """Every kind of event in a table's log. The value is what is stored and sent."""

    # --- written by the table's services ---
    TABLE_CREATED = "table_created"  # the first event: game, code, seed commitment, settings
    SEAT_JOINED = "seat_joined"  # someone joined (watching): seat, name, guest
    SEAT_TAKEN = "seat_taken"  # sat down with a buy-in
    SEAT_LEFT = "seat_left"  # left their seat, cashed out
    SEAT_REMOVED = "seat_removed"  # the host sent them from their seat, cashed out
    SEAT_BANNED = "seat_banned"  # the host barred this seat for the rest of the game: seat, name
    INVITE_ROTATED = "invite_rotated"  # the host replaced the invite link (on a ban, or by asking); no token
    SEAT_OUT = "seat_out"  # too few chips and no buy-backs left: cashed out, watches
    SEAT_SAT_OUT = "seat_sat_out"
    SEAT_CAME_BACK = "seat_came_back"
    SEAT_BOUGHT_BACK = "seat_bought_back"
    SEAT_MOVED = "seat_moved"  # a guest's seat link opened in another browser: seat, name (its old pages close)
    # Asking the host (tables.services.requests): a request's id is its seq; exactly one of
    # approved / denied / cancelled ends it (``request``: that seq).
    REQUEST_MADE = "request_made"  # seat, name, what ("seat" | "buy_back" | "join" | "claim"), number, chips, ...
    # (a request to join: who, never sent; a guest's "This is me": claim, the seat asked for, and who)
    REQUEST_APPROVED = "request_approved"  # request, seat, what; the seat_taken / seat_bought_back follows
    REQUEST_DENIED = "request_denied"  # request, seat, what, name
    REQUEST_CANCELLED = "request_cancelled"  # request, seat, what, by ("player"; "asker", with name, to join)
    PLAYER_SEED = "player_seed"  # a player's seed for the next hand's deck
    GAME_STARTED = "game_started"
    GAME_PAUSED = "game_paused"
    GAME_RESUMED = "game_resumed"
    GAME_ENDING = "game_ending"  # the host ended the game during a hand: it ends when the hand ends
    GAME_ENDED = "game_ended"  # always the log's last event; reveals the secret seed
    SETTINGS_CHANGED = "settings_changed"
    VARIANT_CALLED = (
        "variant_called"  # dealer's choice: the next hand's dealer calls its variant: seat, variant, number
    )
    HAND_STARTED = "hand_started"  # the deal's record (also the engine's first event of a hand)
    HAND_ENDED = "hand_ended"  # the table's summary of a hand paid out
    HAND_VOID = "hand_void"  # a hand called off when the game ended
    TURN = "turn"  # whose turn, what they may do, until when
    REMINDER = "reminder"  # a waiting turn's reminder (it never acts)
    ACTION = "action"  # a player's request as recorded (actor set); hold'em's engine uses it too
    WAITING = "waiting"  # no hand can be dealt: too few players with chips
    # A kitchen-table night (kitchen/, docs/kitchen-table.md): its record, written through
    # the same write path; public to everyone at the table (the log is theirs alone).
    KITCHEN_COST = "kitchen_cost"  # a shared cost: what, amount, paid_by, shares, by
    KITCHEN_RECOUNT = "kitchen_recount"  # a player's chips counted again: seat, name, chips, before, reason, by
    KITCHEN_SPREAD = "kitchen_spread"  # a short count spread: how, chips, shares, reason, by
    KITCHEN_CLOCK = "kitchen_clock"  # the host's clock action: action, level, by
    KITCHEN_LEVEL = "kitchen_level"  # a level (or break) begun: level, at, small, big, ante, minutes, brk
    KITCHEN_OUT = "kitchen_out"  # players out of the tournament together: seats, names, place
    KITCHEN_ADDON = "kitchen_addon"  # a player's add-on at a tournament: seat, name, chips, price, by
    # --- the engine's events (engine/teenpatti/hand.py, engine/holdem/hand.py) ---
    BOOT = "boot"
    BLIND = "blind"
    DEALT = "dealt"
    JOKER = "joker"  # the Joker variant's card turned face up for everyone: card, rank
    HOLE_CARDS = "hole_cards"
    CARDS = "cards"
    SEE = "see"
    CHAAL = "chaal"
    RAISE = "raise"
    PACK = "pack"
    SIDESHOW = "sideshow"
    SIDESHOW_ACCEPTED = "sideshow_accepted"
    SIDESHOW_REFUSED = "sideshow_refused"
    SIDESHOW_RESULT = "sideshow_result"
    SHOW = "show"
    SHOWDOWN = "showdown"
    BOARD = "board"
    UNCALLED = "uncalled"
    MUCK = "muck"
    POT_AWARDED = "pot_awarded"
    HAND_FINISHED = "hand_finished"


#: The kinds that make or end a request to the host (the pending list changes).
REQUEST_KINDS = frozenset(
    {
        EventKind.REQUEST_MADE,
        EventKind.REQUEST_APPROVED,
        EventKind.REQUEST_DENIED,
        EventKind.REQUEST_CANCELLED,
        EventKind.SEAT_BANNED,
    }
)


def event_kinds_for_page() -> dict[str, str]:
    """The kinds as the page reads them: ``{"SEAT_TAKEN": "seat_taken", ...}``."""
    return {kind.name: kind.value for kind in EventKind}


@dataclass(slots=True)
class NewEvent:
    """One event appended to a table's log in this transaction, not yet written
    (``tables.services.log.TableLog``): the row of :class:`tables.models.Event` it becomes
    (written by ``tables.sql.write.events_insert``)."""

    table_id: int
    seq: int
    kind: str
    payload: dict[str, Any]
    hand_id: int | None = None
    visible_to: list[str] | None = None
    actor_id: int | None = None
    client_action_id: str | None = None


#: Payload keys that stay in the log and never travel: ``_hand`` (sent as the frame's
#: ``hand``) and ``who`` (who asked to be let in: an account id, or a digest of a guest's
#: session token; ``tables.services.requests`` reads it from the log, nobody else needs it).
PRIVATE_KEYS = frozenset({"_hand", "who"})


def event_frame(event: Event | NewEvent | EventFrame) -> EventFrame:
    """The message sent through the channel layer for one event (visibility still attached):
    an event of the log, or one just appended and about to be written."""
    if isinstance(event, dict):
        return event
    return {
        "seq": event.seq,
        "kind": event.kind,
        "hand": event.payload.get("_hand"),
        "data": {k: v for k, v in event.payload.items() if k not in PRIVATE_KEYS},
        "visible_to": event.visible_to,
    }
