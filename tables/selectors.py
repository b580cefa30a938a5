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
import secrets
from collections import deque
from collections.abc import Iterable, Iterator, Sequence
from typing import TYPE_CHECKING, Any, NamedTuple

from engine.api import Action, TablePosition
from engine.fairness import hand_deck
from engine.games import get_game
from tables.events import EventKind, event_frame
from tables.messages import (
    EventFrame,
    HandForViewer,
    HandScreen,
    RequestPublic,
    SeatPublic,
    TablePublic,
    ViewerFrame,
)
from tables.models import Event, Hand, Seat, Table
from tables.sql.read import hand_actions, rows_where, seat_holder
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
    started: AnyHandState = state
    return started


class RecordedAction(NamedTuple):
    """A recorded ``action`` event's seq and payload (``tables.sql.read.hand_actions``)."""

    seq: int
    payload: dict[str, Any]


def recorded_action(event: Event | RecordedAction) -> Action:
    """The action a recorded ``action`` event asked for (see :func:`is_recorded_action`)."""
    payload = event.payload
    amount = payload.get("amount")
    return Action(str(payload["player"]), str(payload["verb"]), None if amount is None else int(amount))


def is_recorded_action(event: Event) -> bool:
    """A player's request as live play recorded it (``hand_act``: kind ``action``, with the acting
    seat). Hold'em's engine also reports what an action did as an ``action`` event, with no actor."""
    return event.kind == EventKind.ACTION and event.actor_id is not None


def hand_replay(
    *, table: Table, hand: Hand, actions: Iterable[Event | RecordedAction], state: AnyHandState | None = None
) -> Iterator[tuple[int, AnyHandState]]:
    """Rebuild a hand from its log: apply ``actions`` (recorded actions of the hand, in seq
    order) one by one to ``state`` (the deal when ``None``), yielding each action's seq and
    the state after it. The one place a hand's state is replayed."""
    game = get_game(table.game)
    if state is None:
        state = hand_start_state(table=table, hand=hand)
    for event in actions:
        state, _events = game.apply(state, recorded_action(event))
        yield event.seq, state


def hand_state(*, table: Table, hand: Hand) -> tuple[AnyHandState, int]:
    """The hand's current state and the seq of the last action it includes (0: none).

    Starts from the cached state of this hand when there is one, and applies the
    actions the log has after it (none to ask for when the entry is exact at the
    table's current ``last_seq``).
    """
    cached = state_cache_get(table)
    # An entry newer than the table as read (a reader without the lock may see the table
    # before a write the cache already holds) is never used: the state would be ahead.
    if cached is not None and cached.hand.pk == hand.pk and cached.table_seq <= table.last_seq:
        if cached.table_seq == table.last_seq:
            return cached.state, cached.action_seq
        seq, state = cached.action_seq, cached.state
    else:
        seq, state = 0, hand_start_state(table=table, hand=hand)
    return hand_state_from_log(table=table, hand=hand, state=state, after=seq)


def hand_state_from_log(
    *, table: Table, hand: Hand, state: AnyHandState | None = None, after: int = 0
) -> tuple[AnyHandState, int]:
    """``state`` (the deal when ``None``, exact at the action of seq ``after``) with every
    recorded action of the hand after it applied, and the seq of the last (``after``: none)."""
    if state is None:
        state = hand_start_state(table=table, hand=hand)
    actions = [RecordedAction(seq, payload) for seq, payload in hand_actions(hand_id=hand.pk, after=after)]
    last = deque(hand_replay(table=table, hand=hand, actions=actions, state=state), maxlen=1)
    if not last:
        return state, after
    seq, state = last[0]
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
    """The table's hand being played (the highest numbered not ended), or ``None``."""
    live = rows_where(Hand, equal={"table_id": table.pk}, null={"ended_at": True}, order_by=["-number"])
    return live[0] if live else None


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


def seat_in_live_hand(*, table: Table, seat: Seat) -> bool:
    """Whether ``seat`` is dealt in the hand being played (named in its recorded plan)."""
    hand = hand_live(table=table)
    return hand is not None and seat.engine_name in (str(name) for name, _stack in hand.plan["players"])


def seat_gone(*, seat_id: int, guest_token: str | None) -> str | None:
    """Why the socket opened for ``seat_id`` (by a guest session holding ``guest_token``, or by
    an account: ``None``) may not act or read for it any more: ``"seat_moved"`` (the guest's
    seat link moved it to another browser), ``"banned"``, or ``None`` while it may (issue 34).
    Read again after every read and inside every write of a socket, so no ordering of news,
    snapshots and moves leaves an old page holding the seat."""
    return seat_gone_from(seat_holder(seat_id), guest_token=guest_token)


def seat_gone_from(row: Sequence[Any] | None, *, guest_token: str | None) -> str | None:
    """:func:`seat_gone` of the seat's ``(guest_token, banned)`` as read (``None``: no such seat)."""
    if row is None or (guest_token is not None and not secrets.compare_digest(row[0], guest_token)):
        return "seat_moved"
    return "banned" if row[1] else None


def requests_pending(*, table: Table, private: bool = False) -> list[RequestPublic]:
    """The requests to the host not answered yet (``tables.services.requests``), oldest
    first: ``{"request": seq, "seat": id, "name": ..., "what": "seat" | "buy_back" | "join" | "claim",
    "number": n | None, "chips": n | None, "price": "10.00" | None}`` (the buy-in asked
    for). Read from the log: a ``request_made`` not ended by an approval, a denial or a
    withdrawal, by a player not banned since (for ``"claim"``, a guest's "This is me", also
    ``claim``: the seat asked for, not banned since). ``private`` (the services only): also the
    player's ``buy_ins`` when they asked and, for a request to join, its asker's key
    (``who``), which is never sent."""
    made = (
        EventKind.REQUEST_MADE,
        EventKind.REQUEST_APPROVED,
        EventKind.REQUEST_DENIED,
        EventKind.REQUEST_CANCELLED,
    )
    pending: dict[int, RequestPublic] = {}
    for seq, kind, payload in (
        Event.objects.filter(table=table, kind__in=made).order_by("seq").values_list("seq", "kind", "payload")
    ):
        if kind == EventKind.REQUEST_MADE:
            pending[seq] = {
                "request": seq,
                "seat": payload["seat"],
                "name": payload["name"],
                "what": payload["what"],
                "number": payload.get("number"),
                "chips": payload.get("chips"),
                "price": payload.get("price"),
            }
            if payload.get("claim"):
                pending[seq]["claim"] = payload["claim"]  # "This is me": the guest's seat asked for
            if private:
                pending[seq]["buy_ins"] = payload.get("buy_ins")
                if payload.get("who"):
                    pending[seq]["who"] = payload["who"]  # someone not at the table yet (what: "join")
        else:
            pending.pop(payload.get("request"), None)
    if pending:
        banned = set(
            Seat.objects.filter(
                table=table, banned=True, pk__in=[r["seat"] or r.get("claim") for r in pending.values()]
            ).values_list("pk", flat=True)
        )
        return [request for request in pending.values() if (request["seat"] or request.get("claim")) not in banned]
    return []


def request_denied_standing(*, table: Table, seat: Seat) -> str | None:
    """What the host last said no to ``seat`` for (``"seat"`` or ``"buy_back"``), while that
    answer still stands: their latest request was denied, and they have bought in no time
    since asking (sat down or bought in again once approval was turned off). ``None``
    otherwise. Read from the log, so a player's reloaded page tells the denial as the news
    did (in :func:`table_snapshot`, for that viewer only). Uses the requests' index."""
    request_kinds = (
        EventKind.REQUEST_MADE,
        EventKind.REQUEST_APPROVED,
        EventKind.REQUEST_DENIED,
        EventKind.REQUEST_CANCELLED,
    )
    latest = (
        Event.objects.filter(table=table, kind__in=request_kinds, payload__seat=seat.pk)
        .order_by("-seq")
        .values_list("kind", "payload")
        .first()
    )
    if latest is None or latest[0] != EventKind.REQUEST_DENIED:
        return None
    denied = latest[1]
    asked = (
        Event.objects.filter(table=table, kind=EventKind.REQUEST_MADE, seq=denied.get("request"))
        .values_list("payload", flat=True)
        .first()
    )
    buy_ins = (asked or {}).get("buy_ins")
    if buy_ins is not None and buy_ins != seat.buy_ins:
        return None
    what = denied.get("what")
    return what if what in ("seat", "buy_back") else None


def _join_requests(table: Table, who: str) -> list[tuple[str, dict[str, Any]]]:
    return list(
        Event.objects.filter(
            table=table,
            kind__in=(
                EventKind.REQUEST_MADE,
                EventKind.REQUEST_APPROVED,
                EventKind.REQUEST_DENIED,
                EventKind.REQUEST_CANCELLED,
            ),
            payload__who=who,
            payload__what="join",
        )
        .order_by("seq")
        .values_list("kind", "payload")
    )


def join_request_state(*, table: Table, who: str) -> str | None:
    """The answer to the latest request to join made by ``who`` (``requester_key``):
    ``"approved"``, ``"denied"``, ``"waiting"``, ``"withdrawn"`` (by the asker), or ``None``
    when they never asked."""
    answers: dict[str, str] = {
        EventKind.REQUEST_MADE: "waiting",
        EventKind.REQUEST_APPROVED: "approved",
        EventKind.REQUEST_DENIED: "denied",
        EventKind.REQUEST_CANCELLED: "withdrawn",
    }
    state = None
    for kind, _payload in _join_requests(table, who):
        state = answers[kind]
    return state


def join_request_name(*, table: Table, who: str) -> str:
    """The name ``who`` gave in their latest request to join."""
    names = [payload["name"] for kind, payload in _join_requests(table, who) if kind == EventKind.REQUEST_MADE]
    return names[-1] if names else ""


def phone_seat_ids(*, table: Table) -> list[int] | None:
    """Pass and play: the seats played on the host's phone (the host's own first, then the
    local players'), or ``None`` when the table has no local player (the host's sockets are
    then an ordinary seat's). See ``tables.services.pass_and_play``."""
    local = list(Seat.objects.filter(table=table, local=True).order_by("pk").values_list("pk", flat=True))
    if not local:
        return None
    host = Seat.objects.filter(table=table, user_id=table.host_id).values_list("pk", flat=True).first()
    return ([host] if host is not None else []) + local


def phone_seat_ids_from_public(seats: list[SeatPublic], host_seat_id: int) -> list[int] | None:
    """:func:`phone_seat_ids` from a list of :func:`seat_public` rows (a pushed screen's seats)."""
    local = sorted(seat["id"] for seat in seats if seat.get("local"))
    return [host_seat_id, *local] if local else None


def seats_public(table: Table) -> list[SeatPublic]:
    return [seat_public(seat) for seat in Seat.objects.filter(table=table).order_by("pk")]


def seat_public(seat: Seat) -> SeatPublic:
    return {
        "id": seat.pk,
        "name": seat.display_name,
        "number": seat.number,
        "stack": seat.stack,
        "status": seat.status,
        "guest": seat.is_guest,
        "computer": seat.computer or None,
        "local": seat.local,
        "buy_ins": seat.buy_ins,
        "buy_backs_used": seat.buy_backs_used,
    }


def table_public(table: Table) -> TablePublic:
    settings = table.settings
    return {
        "id": table.pk,
        "code": table.code,
        "game": table.game,
        "status": table.status,
        "host": table.host_id,
        "seed_commitment": table.seed_commitment,
        "hands_played": table.hands_played,
        # Between hands: when the table clock deals the next hand (None while a hand is live
        # or no deal is due). The page counts down to it and says "Dealing the next hand"
        # once it has come (docs/ui.md).
        "next_deal_at": table.next_deal_at.isoformat() if table.next_deal_at else None,
        # The host ended the game during a hand: it ends when this hand ends (table_end).
        "ending": table.ending,
        "settings": {key: value for key, value in settings.items() if key != "host"},
        # What differs between the games (engine.api.TableRules; keys in docs/architecture.md):
        # the page reads these instead of asking which game it is.
        "rules": get_game(table.game).table_rules.to_json(settings.get("engine", {})),
    }


def view_key(hand: HandScreen, viewer: str | None) -> str | None:
    """Which of a hand screen's views (``tables.what_viewers_see``) a viewer is sent: their own if
    dealt in (its key), else the public one (``None``).

    With :func:`frame_for_viewer`, the one place where what a viewer receives is chosen
    (a snapshot's hand and each socket's pushed frame, ``tables.live.news_frames``); which cards
    a view holds was decided by the engine's ``view``.
    """
    return viewer if viewer is not None and viewer in hand["views"] else None


def hand_for_viewer(hand: HandScreen, viewer: str | None) -> HandForViewer:
    """One viewer's part of a hand's screen: their own view if dealt in, else the public one."""
    key = view_key(hand, viewer)
    return {
        "number": hand["number"],
        "dealer": hand["dealer"],
        "finished": hand["finished"],
        "view": hand["public"] if key is None else hand["views"][key],
        "turn": hand["turn"],
    }


def event_visible(frame: EventFrame, viewer: str | None) -> bool:
    """Whether ``viewer`` (a seat id or None) may see this event (else only its seq)."""
    visible_to = frame.get("visible_to")
    return visible_to is None or (viewer is not None and viewer in visible_to)


def frame_for_viewer(frame: EventFrame, viewer: str | None) -> ViewerFrame:
    """The one place visibility is applied: an event as ``viewer`` (a seat id or None) receives it."""
    if not event_visible(frame, viewer):
        return {"seq": frame["seq"]}
    out: ViewerFrame = {"seq": frame["seq"], "kind": frame["kind"], "data": frame["data"]}
    hand = frame.get("hand")
    if hand is not None:
        out["hand"] = hand
    return out


def table_last_seq(*, table_id: int) -> int:
    """The seq of the table's latest event (0 for no table): one indexed read, no lock."""
    return Table.objects.filter(pk=table_id).values_list("last_seq", flat=True).first() or 0


def tables_last_seq(*, table_ids: list[int]) -> dict[int, int]:
    """The seq of each table's latest event, for many tables in one indexed read, no lock."""
    return dict(Table.objects.filter(pk__in=table_ids).values_list("pk", "last_seq"))


def events_after(*, table_id: int, after: int, viewer: str | None, limit: int = 500) -> list[ViewerFrame]:
    """Events with seq greater than ``after``, as ``viewer`` may see them, oldest first. The
    events of a hand dealt before a guest's seat link moved the viewer's seat to its present
    browser are as a watcher sees them (``Seat.link_moved_hand``, issue 34)."""
    rows = Event.objects.filter(table_id=table_id, seq__gt=after).order_by("seq")[:limit]
    before = 0
    if viewer is not None and viewer.isdigit():
        found = Seat.objects.filter(pk=int(viewer), table_id=table_id).values_list("link_moved_hand", flat=True)
        before = found.first() or 0
    frames = []
    for event in rows:
        frame = event_frame(event)
        hand = frame.get("hand")
        frames.append(frame_for_viewer(frame, None if hand is not None and hand <= before else viewer))
    return frames


def holdem_placings(*, table: Table) -> list[dict[str, Any]]:
    """Book 001's placings of a hold'em game as it stands, first place first: the engine's
    ``game_placings`` on the game rebuilt from the finished hands and the seats' chips.

    Players still at the table are placed by chips; those who went out in the order they
    went out (two in one hand: fewer chips at the start of it places lower); players level
    share a place. A player who left with chips (or whom the host sent from their seat) went
    out when they left: after the last hand that had ended, above those who went broke in it
    (issue 25: leaving early keeps no place). Each entry: ``{"seat": id, "name": display
    name, "place": n, "chips": c}``. Someone never dealt a hand is not placed.
    """
    from engine.holdem.game import GameProgress, KnockedOut, game_placings

    seats = {seat.engine_name: seat for seat in Seat.objects.filter(table=table)}
    order: list[str] = []
    knocked_out: list[KnockedOut] = []
    # When each player left with chips: the seq of their leaving, and the hands whose end was
    # logged before it. (Read from the rows: a game's last hand, ended in the same write as the
    # game, has no logged end yet, and it ended after every leaving already recorded.)
    ended_seq = dict(
        Event.objects.filter(table=table, kind__in=[EventKind.HAND_ENDED, EventKind.HAND_VOID]).values_list(
            "hand_id", "seq"
        )
    )
    leaving = [
        (event.seq, str(event.payload.get("seat")))
        for event in Event.objects.filter(table=table, kind__in=[EventKind.SEAT_LEFT, EventKind.SEAT_REMOVED])
        .order_by("seq")
        .only("seq", "payload")
        if int(event.payload.get("cashed_out") or 0) > 0
    ]

    def leave_before(seq: int | None) -> None:
        """Place the players who left before the event ``seq`` (every one left, for None)."""
        count = 0
        while leaving and (seq is None or leaving[0][0] < seq):
            _seq, name = leaving.pop(0)
            if name in order and name not in {knocked.name for knocked in knocked_out}:
                count += 1
                knocked_out.append(KnockedOut(name, last_number, 0, left=count))

    last_number = 0
    for hand in (
        Hand.objects.filter(table=table, ended_at__isnull=False).order_by("number").only("number", "plan", "result")
    ):
        leave_before(ended_seq.get(hand.pk))
        players = [(str(name), int(stack)) for name, stack in hand.plan.get("players", [])]
        order += [name for name, _stack in players if name not in order]
        last_number = hand.number
        result = hand.result or {}
        if result.get("void"):
            continue
        stacks = result.get("stacks", {})
        out = [KnockedOut(name, hand.number, started) for name, started in players if stacks.get(name, started) == 0]
        knocked_out += sorted(out, key=lambda knocked: knocked.chips_at_start_of_hand)
    leave_before(None)
    gone = {knocked.name for knocked in knocked_out}
    names = tuple(name for name in order if name in seats)
    progress = GameProgress(
        seats=names,
        stacks=tuple(0 if name in gone else seats[name].stack for name in names),
        position=TablePosition(),
        knocked_out=tuple(knocked for knocked in knocked_out if knocked.name in seats),
    )
    return [
        {
            "seat": seats[placing.name].pk,
            "name": seats[placing.name].display_name,
            "place": placing.place,
            "chips": placing.chips,
        }
        for placing in game_placings(progress=progress)
    ]
