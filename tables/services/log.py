"""Appending to a table's event log, and telling the sockets after the commit.

:class:`TableLog` is used inside a service's transaction, with the table row
already locked (``select_for_update``), so sequence numbers are handed out one
writer at a time: no gap and no duplicate. Nothing is broadcast until the
transaction commits (``transaction.on_commit``); a rolled-back service tells no one.

The broadcast is news, not the record: the channel layer may drop it, and each
socket fills a gap from the database (see ``tables.consumers``).
"""

from __future__ import annotations

import asyncio
import copy
import enum
import json
import logging
import threading
import weakref
from collections.abc import Callable, Iterable
from datetime import datetime
from typing import TYPE_CHECKING, Any, Literal, TypeAlias

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.db import transaction
from django.utils import timezone

from tables.events import REQUEST_KINDS, EventKind, NewEvent, event_frame
from tables.models import Hand, Seat, Table
from tables.services.write_sql import events_insert, events_insert_and_save
from tables.state_cache import state_cache_put

if TYPE_CHECKING:
    from engine.games import AnyHandState

logger = logging.getLogger(__name__)

# The event loop of the web server, remembered by the first socket that connects, so the
# server's other threads (services run for sockets, the in-process Celery worker) can hand
# it their layer sends: the in-memory channel layer is not thread-safe and must be used
# from that loop only, and no thread waits for a send (see layer_send).
_server_loop: asyncio.AbstractEventLoop | None = None
_server_loop_thread: int | None = None
_server_loop_lock = threading.Lock()


def remember_server_loop(loop: asyncio.AbstractEventLoop) -> None:
    """Called from the loop's own thread (a consumer's ``connect``)."""
    global _server_loop, _server_loop_thread
    if _server_loop is loop:
        return
    with _server_loop_lock:
        _server_loop = loop
        _server_loop_thread = threading.get_ident()


# In a service worker process: each thread's layer sends of the call it is making, in
# order, which the worker publishes before it answers (``tables.service_worker.run``).
_holding = False
_held = threading.local()


def layer_sends_hold() -> None:
    """From now on, this process's layer sends wait, per thread, for :func:`layer_sends_held`."""
    global _holding
    _holding = True


def layer_sends_held() -> list[tuple[str, dict[str, Any]]]:
    """The layer sends this thread made since it last asked, in order (a service worker's)."""
    sends: list[tuple[str, dict[str, Any]]] = getattr(_held, "sends", [])
    _held.sends = []
    return sends


def broadcast(group: str, frames: list[dict[str, Any]], screen: dict[str, Any] | None = None) -> None:
    """Send ``frames`` (and the ``screen`` after them, see ``tables.screens``) to every socket
    of the table; each keeps what its viewer may see."""
    if frames:
        message: dict[str, Any] = {"type": "table.events", "events": frames}
        if screen is not None:
            message["screen"] = screen
        layer_send(group, message)


def layer_send(group: str, message: dict[str, Any]) -> None:
    """Send ``message`` to a channel-layer group from any thread; a failure is logged, not raised.

    From a thread of the web server (a service run for a socket, the in-process worker)
    the send is handed to the server's loop and this returns at once: the loop's
    :class:`_Publisher` sends the messages in the order they were handed over (so a
    table's news keeps its order), all that are waiting in one round trip. Before, each
    thread waited for its own send (``async_to_sync``), and channels-redis publishes one
    message at a time per connection: under load a database thread waited in that line
    for every action (docs/live-play.md). Elsewhere (a management command, a Celery
    worker process) the send is made before returning.
    """
    if _holding:  # a service worker: sent when its call ends (tables.service_worker)
        if not hasattr(_held, "sends"):
            _held.sends = []
        _held.sends.append((group, message))
        return
    layer = get_channel_layer()
    if layer is None:
        return
    loop, loop_thread = _server_loop, _server_loop_thread
    try:
        if loop is not None and loop.is_running() and threading.get_ident() != loop_thread:
            loop.call_soon_threadsafe(_publisher_send, loop, group, message)
        else:
            async_to_sync(layer.group_send)(group, message)
    except Exception:  # the log is the truth; a lost broadcast is caught up by the sockets
        logger.exception("group send to %s failed", group)


class _Publisher:
    """The layer sends handed to one event loop, made in the order received. All that wait
    go out together (``group_send_many`` when the layer has it: one round trip to Redis)."""

    # Past this many waiting sends (the layer is stuck), news is dropped, as the layer
    # itself may drop it: each socket fills the gap from the log.
    max_waiting = 10_000

    def __init__(self) -> None:
        self.waiting: list[tuple[str, dict[str, Any]]] = []
        self.task: asyncio.Task[None] | None = None

    def send(self, group: str, message: dict[str, Any]) -> None:
        if len(self.waiting) >= self.max_waiting:
            logger.warning("%d layer sends waiting: news to %s dropped", len(self.waiting), group)
            return
        self.waiting.append((group, message))
        if self.task is None or self.task.done():
            self.task = asyncio.ensure_future(self._run())

    async def _run(self) -> None:
        while self.waiting:
            sends, self.waiting = self.waiting, []
            layer = get_channel_layer()
            try:
                send_many = getattr(layer, "group_send_many", None)
                if send_many is not None:
                    await send_many(sends)
                elif layer is not None:
                    for group, message in sends:
                        await layer.group_send(group, message)
            except Exception:  # the log is the truth; a lost broadcast is caught up by the sockets
                logger.exception("group sends to %s failed", sorted({group for group, _ in sends}))


_publishers: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, _Publisher] = weakref.WeakKeyDictionary()


def _publisher_send(loop: asyncio.AbstractEventLoop, group: str, message: dict[str, Any]) -> None:
    """On ``loop``'s own thread: queue the send with the loop's publisher."""
    publisher = _publishers.get(loop)
    if publisher is None:
        publisher = _publishers[loop] = _Publisher()
    publisher.send(group, message)


def _field_values(table: Table) -> dict[str, Any]:
    return {field.attname: getattr(table, field.attname) for field in Table._meta.concrete_fields}


def _as_loaded(value: Any) -> Any:
    """What is kept of a loaded value to tell later whether it changed. A JSON value (a
    dict or a list, which a service may change in place) is kept as its JSON text: far
    cheaper than a deep copy, and equal whenever the value is."""
    if isinstance(value, dict | list):
        try:
            return ("json", json.dumps(value, sort_keys=True))
        except (TypeError, ValueError):  # not plain JSON: keep a copy instead
            return copy.deepcopy(value)
    return value


def remember_loaded_values(table: Table) -> None:
    """Note the row as loaded, so :meth:`TableLog.flush` writes back only what changed."""
    # Django's documented place for the loaded values (Model.from_db), unknown to django-stubs.
    table._loaded_values = {  # type: ignore[attr-defined]
        name: _as_loaded(value) for name, value in _field_values(table).items()
    }


def _changed_fields(table: Table, loaded: dict[str, Any]) -> list[str]:
    return [name for name, value in _field_values(table).items() if loaded.get(name) != _as_loaded(value)]


class _Untouched(enum.Enum):
    UNTOUCHED = "untouched"


_UNTOUCHED = _Untouched.UNTOUCHED
# The live hand, its state and the seq of its last action; None: no hand is live.
LiveHand: TypeAlias = "tuple[Hand, AnyHandState, int] | None"


def _cache_callback(table: Table, table_seq: int, live: LiveHand) -> Callable[[], None]:
    hand, state, action_seq = live if live is not None else (None, None, 0)
    if hand is not None and hand.ended_at is not None:
        hand = None

    def _put() -> None:
        state_cache_put(table=table, table_seq=table_seq, hand=hand, action_seq=action_seq, state=state)

    return _put


class TableLog:
    """New events of one transaction, numbered from the locked table's ``last_seq``."""

    def __init__(self, table: Table) -> None:
        self.table = table
        self.pending: list[NewEvent] = []
        self.after_commit: list[Callable[[], None]] = []
        # The earliest due time this transaction put on the table clock (clock_due queues
        # one task for it after the commit).
        self.clock_at: datetime | None = None
        # The live hand after this transaction, for the state cache: (hand, state, seq of
        # its last action), None when no hand is live any more, _UNTOUCHED when not known.
        self.live_hand: LiveHand | Literal[_Untouched.UNTOUCHED] = _UNTOUCHED
        # A hand this transaction finished, with its last state: shown (result and all)
        # until another is dealt.
        self.finished_hand: tuple[Hand, AnyHandState] | None = None
        self.game_ended = False

    @property
    def last_seq(self) -> int:
        return self.table.last_seq

    def append(
        self,
        kind: EventKind,
        payload: dict[str, Any] | None = None,
        *,
        hand: Hand | None = None,
        visible_to: Iterable[str] | None = None,
        actor: Seat | None = None,
        actor_id: int | None = None,
        client_action_id: str | None = None,
    ) -> NewEvent:
        # Only the kinds of the one enumeration reach the log (ValueError for any other:
        # an engine event missing from EventKind fails here, in the tests, not on a page).
        kind = EventKind(kind)
        if self.game_ended:
            # The log of a game ends with ``game_ended``: a service that got here has a bug.
            raise RuntimeError(f"{kind.value!r} appended after game_ended")
        if kind is EventKind.GAME_ENDED:
            self.game_ended = True
        self.table.last_seq += 1
        body = dict(payload or {})
        if hand is not None:
            body["_hand"] = hand.number
        event = NewEvent(
            table_id=self.table.pk,
            seq=self.table.last_seq,
            kind=kind.value,
            payload=body,
            hand_id=None if hand is None else hand.pk,
            visible_to=None if visible_to is None else sorted(str(name) for name in visible_to),
            actor_id=actor.pk if actor is not None else actor_id,
            client_action_id=client_action_id,
        )
        self.pending.append(event)
        return event

    def hand_now(self, hand: Hand, state: AnyHandState, action_seq: int) -> None:
        """Note the live hand's state as this transaction leaves it (cached after the commit)."""
        self.live_hand = (hand, state, action_seq)

    def hand_over(self) -> None:
        """Note that no hand is live when this transaction ends (unless another is dealt)."""
        self.live_hand = None

    def hand_finished(self, hand: Hand, state: AnyHandState) -> None:
        """Note the final state of a hand this transaction finished (its views are pushed)."""
        self.finished_hand = (hand, state)

    def on_commit(self, callback: Callable[[], None]) -> None:
        self.after_commit.append(callback)

    def flush(self) -> None:
        """Write the new events and the table's counter; broadcast after the commit."""
        loaded = getattr(self.table, "_loaded_values", None)
        table_changed = True
        if loaded is None:
            events_insert(self.pending, created_at=timezone.now())
            self.table.save()
        else:
            changed = _changed_fields(self.table, loaded)
            events_insert_and_save(
                self.pending,
                created_at=timezone.now(),
                instance=self.table,
                fields=[name for name in changed if name != "id"],
            )
            table_changed = bool(set(changed) - {"last_seq"})
            remember_loaded_values(self.table)
        frames = [event_frame(event) for event in self.pending]
        screen = self._screen_parts(table_changed) if frames else None
        group = self.table.group_name
        self.pending = []
        callbacks, self.after_commit = self.after_commit, []
        live, self.live_hand = self.live_hand, _UNTOUCHED
        finished, self.finished_hand = self.finished_hand, None
        if live is not _UNTOUCHED:
            callbacks.append(_cache_callback(self.table, self.table.last_seq, live))
        table = self.table

        def _after() -> None:
            # What is committed is done: a callback that fails (a broker that is down) is
            # logged, and the news still goes out. The clock's sweep redoes lost work.
            for callback in callbacks:
                try:
                    callback()
                except Exception:
                    logger.exception("an after-commit step of %s failed", group)
            if screen is not None:
                try:
                    _add_hand_screen(screen, table, live, finished)
                except Exception:  # the news goes out; each page's next snapshot has the view
                    logger.exception("the screens of %s could not be built", group)
                    screen.pop("hand", None)
            broadcast(group, frames, screen)

        transaction.on_commit(_after)

    def _screen_parts(self, table_changed: bool) -> dict[str, Any]:
        """What the screens need besides the hand, read inside the transaction (so exact at
        its last seq): the table when its row changed, the seats when an event moved them."""
        from tables.screens import SEAT_KINDS
        from tables.selectors import requests_pending, seat_public, table_public
        from tables.services.read_sql import rows_where

        screen: dict[str, Any] = {"seq": self.table.last_seq}
        if table_changed:
            screen["table"] = table_public(self.table)
        if any(event.kind in SEAT_KINDS for event in self.pending):
            # tables.selectors.seats_public's rows, read without compiling a query
            seats = rows_where(Seat, equal={"table_id": self.table.pk}, order_by=["pk"])
            screen["seats"] = [seat_public(seat) for seat in seats]
        if any(event.kind in REQUEST_KINDS for event in self.pending):
            screen["requests"] = requests_pending(table=self.table)
        return screen


def _add_hand_screen(screen: dict[str, Any], table: Table, live: Any, finished: tuple[Hand, Any] | None) -> None:
    """The hand part of the screen: the live hand's views, else those of the hand this
    transaction finished, else none (``None``) when the live hand went, else left out."""
    from tables.screens import hand_screen

    if isinstance(live, tuple) and live[0].ended_at is None:
        screen["hand"] = hand_screen(table=table, hand=live[0], state=live[1])
    elif finished is not None:
        screen["hand"] = hand_screen(table=table, hand=finished[0], state=finished[1])
    elif live is None:
        screen["hand"] = None
