"""Reads of live play: a hand's state rebuilt from the log, a viewer's snapshot, events after a seq.

A hand's state is never stored: it is the engine's ``start_hand`` on the recorded
plan and the deck the table's secret seed derives (``engine.fairness.hand_deck``),
then every ``action`` event of the hand applied again in order. The per-process
cache of each table's live hand (``tables.state_cache``) lets a read skip that replay
while the table's log has not moved since the entry was stored; otherwise the hand is
read again and only the actions after the cached state are asked for.

Selectors never import ``tables.services`` (services import selectors).
"""

from __future__ import annotations

import copy
from typing import TYPE_CHECKING, Any

from django.db import transaction

from engine.api import Action, Game
from engine.fairness import hand_deck
from engine.games import get_game
from tables.events import EventKind, event_frame
from tables.models import Event, Hand, Seat, Table
from tables.state_cache import state_cache_get

if TYPE_CHECKING:
    from django.contrib.auth.models import AnonymousUser

    from accounts.models import User
    from engine.games import AnyHandState


def hand_start_state(*, table: Table, hand: Hand) -> AnyHandState:
    """The state right after the deal, from the hand's recorded plan and seeds."""
    game = get_game(table.game)
    plan = hand.plan
    deck = hand_deck(bytes(table.secret_seed), table.code, hand.number, list(hand.player_seeds))
    state, _events = game.start_hand(
        settings=plan["settings"],
        players=[(str(name), int(stack)) for name, stack in plan["players"]],
        dealer=int(plan["dealer"]),
        deck=deck,
    )
    return state


def hand_state(*, table: Table, hand: Hand) -> tuple[AnyHandState, int]:
    """The hand's current state and the seq of the last action it includes (0: none).

    Starts from the cached state of this hand when there is one, and applies the
    actions the log has after it (none to ask for when the entry is exact at the
    table's current ``last_seq``).
    """
    cached = state_cache_get(table)
    if cached is not None and cached.hand.pk == hand.pk:
        if cached.table_seq == table.last_seq:
            return cached.state, cached.action_seq
        seq, state = cached.action_seq, cached.state
    else:
        seq, state = 0, hand_start_state(table=table, hand=hand)
    game = get_game(table.game)
    for event in (
        Event.objects.filter(hand=hand, kind=EventKind.ACTION, actor__isnull=False, seq__gt=seq)
        .order_by("seq")
        .only("seq", "payload")
    ):
        payload = event.payload
        state, _events = game.apply(state, Action(str(payload["player"]), payload["verb"], payload.get("amount")))
        seq = event.seq
    return state, seq


def live_hand_and_state(*, table: Table) -> tuple[Hand | None, AnyHandState | None, int]:
    """The live hand (a fresh object the caller may change), its state and last action's seq.

    ``table`` must be locked. When the cache holds the table as it is now (same
    ``last_seq``), no query is made; otherwise the hand is read and the state rebuilt.
    """
    cached = state_cache_get(table)
    if cached is not None and cached.table_seq == table.last_seq:
        return copy.copy(cached.hand), cached.state, cached.action_seq
    hand = hand_live(table=table)
    if hand is None:
        return None, None, 0
    state, seq = hand_state(table=table, hand=hand)
    return hand, state, seq


def hand_live(*, table: Table) -> Hand | None:
    return Hand.objects.filter(table=table, ended_at__isnull=True).order_by("-number").first()


def table_by_code(*, code: str) -> Table | None:
    return Table.objects.filter(code=str(code).strip().upper()).first()


def seat_number_highest(*, table: Table) -> int:
    """The highest seat number taken at the table (0 when no one is seated)."""
    numbers = Seat.objects.filter(table=table, number__isnull=False).values_list("number", flat=True)
    return max((number for number in numbers if number is not None), default=0)


def seat_for_viewer(
    *, table: Table, user: User | AnonymousUser | None = None, guest_token: str | None = None
) -> Seat | None:
    """The seat (or watcher's place) of a signed-in user or of a guest's session token."""
    if user is not None and user.is_authenticated:
        return Seat.objects.filter(table=table, user=user).first()
    if guest_token:
        return Seat.objects.filter(table=table, guest_token=guest_token).first()
    return None


def seat_public(seat: Seat) -> dict[str, Any]:
    return {
        "id": seat.pk,
        "name": seat.display_name,
        "number": seat.number,
        "stack": seat.stack,
        "status": seat.status,
        "guest": seat.is_guest,
        "buy_ins": seat.buy_ins,
        "buy_backs_used": seat.buy_backs_used,
    }


def table_public(table: Table) -> dict[str, Any]:
    settings = table.settings
    return {
        "id": table.pk,
        "code": table.code,
        "game": table.game,
        "status": table.status,
        "host": table.host_id,
        "seed_commitment": table.seed_commitment,
        "hands_played": table.hands_played,
        "settings": {key: value for key, value in settings.items() if key != "host"},
        # What differs between the games (engine.api.TableRules; keys in docs/architecture.md):
        # the page reads these instead of asking which game it is.
        "rules": get_game(table.game).table_rules.to_json(settings.get("engine", {})),
    }


def turn_public(*, game: Game[Any], state: AnyHandState, player: str, hand: Hand) -> dict[str, Any]:
    """Whose turn it is, what they may do and until when: the ``turn`` event's data and
    the snapshot's ``turn``."""
    return {
        "player": player,
        "legal": [legal.to_json() for legal in game.legal_actions(state, player)],
        "deadline": hand.turn_deadline.isoformat() if hand.turn_deadline else None,
    }


def table_snapshot(*, table_id: int, seat_id: int | None) -> dict[str, Any]:
    """What one viewer may see of the table now, with the seq it is exact at.

    Taken under the table's lock so no action can slip between the seq and the state.
    """
    with transaction.atomic():
        table = Table.objects.select_for_update().get(pk=table_id)
        seats = list(Seat.objects.filter(table=table).order_by("pk"))
        you = seat_id if any(seat.pk == seat_id for seat in seats) else None
        hand, state, _seq = live_hand_and_state(table=table)
        hand_view = None
        turn = None
        if hand is not None and state is not None:  # a live hand always has a state
            game = get_game(table.game)
            viewer = str(you) if you is not None and str(you) in {str(p[0]) for p in hand.plan["players"]} else None
            hand_view = game.view(state, viewer)
            to_act = game.to_act(state)
            if to_act is not None:
                turn = turn_public(game=game, state=state, player=to_act, hand=hand)
        return {
            "type": "snapshot",
            "seq": table.last_seq,
            "you": you,
            "table": table_public(table),
            "seats": [seat_public(seat) for seat in seats],
            "hand": None
            if hand is None
            else {"number": hand.number, "dealer": hand.dealer_id, "view": hand_view, "turn": turn},
        }


def frame_for_viewer(frame: dict[str, Any], viewer: str | None) -> dict[str, Any]:
    """The one place visibility is applied: an event as ``viewer`` (a seat id or None) receives it."""
    visible_to = frame.get("visible_to")
    if visible_to is not None and (viewer is None or viewer not in visible_to):
        return {"seq": frame["seq"]}
    out = {"seq": frame["seq"], "kind": frame["kind"], "data": frame["data"]}
    if frame.get("hand") is not None:
        out["hand"] = frame["hand"]
    return out


def table_last_seq(*, table_id: int) -> int:
    """The seq of the table's latest event (0 for no table): one indexed read, no lock."""
    return Table.objects.filter(pk=table_id).values_list("last_seq", flat=True).first() or 0


def events_after(*, table_id: int, after: int, viewer: str | None, limit: int = 500) -> list[dict[str, Any]]:
    """Events with seq greater than ``after``, as ``viewer`` may see them, oldest first."""
    rows = Event.objects.filter(table_id=table_id, seq__gt=after).order_by("seq")[:limit]
    return [frame_for_viewer(event_frame(event), viewer) for event in rows]
