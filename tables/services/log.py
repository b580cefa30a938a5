"""Appending to a table's event log, and telling the sockets after the commit.

The news itself is sent by ``tables.broadcast``; what it shows each viewer is built by
``tables.what_viewers_see``: this module is the log.

:class:`TableLog` is used inside a service's transaction, with the table row
already locked (``select_for_update``), so sequence numbers are handed out one
writer at a time: no gap and no duplicate. Nothing is broadcast until the
transaction commits (``transaction.on_commit``); a rolled-back service tells no one.

The broadcast is news, not the record: the channel layer may drop it, and each
socket fills a gap from the database (see ``tables.live.session``).
"""

from __future__ import annotations

import copy
import enum
import logging
from collections.abc import Callable, Iterable
from datetime import datetime
from typing import TYPE_CHECKING, Any, Literal, TypeAlias

import orjson
from django.db import transaction
from django.utils import timezone

from tables.broadcast import broadcast
from tables.events import EventKind, NewEvent, event_frame
from tables.models import Hand, Seat, Table
from tables.sql.write import events_insert, events_insert_and_save
from tables.state_cache import state_cache_put
from tables.what_viewers_see import news_screen_add_hand, news_screen_parts

if TYPE_CHECKING:
    from engine.games import AnyHandState

logger = logging.getLogger(__name__)


def _field_values(table: Table) -> dict[str, Any]:
    return {field.attname: getattr(table, field.attname) for field in Table._meta.concrete_fields}


def _as_loaded(value: Any) -> Any:
    """What is kept of a loaded value to tell later whether it changed. A JSON value (a
    dict or a list, which a service may change in place) is kept as its JSON text, keys
    sorted (orjson's, a tenth of ``json.dumps``' CPU): far cheaper than a deep copy, and
    equal whenever the value is."""
    if isinstance(value, dict | list):
        try:
            return ("json", orjson.dumps(value, option=orjson.OPT_SORT_KEYS))
        except (TypeError, ValueError):  # not plain JSON (orjson's refusal is a TypeError): keep a copy
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
        screen = None
        if frames:
            screen = news_screen_parts(table=self.table, events=self.pending, table_changed=table_changed)
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
                    news_screen_add_hand(screen, table=table, live=live, finished=finished)
                except Exception:  # the news goes out; each page's next snapshot has the view
                    logger.exception("the screens of %s could not be built", group)
                    screen.pop("hand", None)
            broadcast(group, frames, screen)

        transaction.on_commit(_after)
