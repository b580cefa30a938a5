"""The WebSocket of one table (``ws/table/<code>/``): the Channels side of it, thin.

The socket in three parts: this consumer (the transport: connect and its refusals, the
channel-layer groups, limits, presence and whether the page is in view, the error frames),
``tables.live.protocol`` (a frame's text read once into a typed command, or refused) and
``tables.live.session`` (once connected: the seq, the viewer's eyes, news and catch-up in
order under one lock; ``tables.live.commands`` calls a service for each command). Channels'
untyped classes are reached through ``tables.live.channels_typed`` only.

Who: someone with a seat row at this table, made when they joined through its invite link:
a signed-in user, or a guest whose session holds the token of a seat at this table
(``tables.guests.GUEST_TOKEN_SESSION_KEY``). A seat the host banned, and anyone else, is refused (close
code 4403); a banned seat's open sockets are closed. Origins are checked by ``config.asgi``.

What goes out (the protocol is written down in ``docs/live-play.md``): a ``snapshot`` on
connect, then ``events`` in seq order with no gap (``tables.live.session``); ``ack`` for a
request done, ``error`` (code + message) for one refused, which changed nothing.

No news is lost for good: the channel layer may drop a broadcast, and a gap is seen only
when a later one arrives. So when a table has had no news for ``quiet_seconds``, the
process's one watcher (``tables.live.quiet_tables``) reads the latest seq of all its quiet
tables in one query, and a session that is behind sends what it missed from the log; a
``ping`` does the same at once for its socket, and its ``pong`` carries the table's latest seq.

When the channel layer is down (Redis stopped) a new socket is accepted, told
``{"type": "error", "code": "unavailable"}`` and closed with 4503 (try again later), never
an HTTP 500. So is one that connects while the database is away; a request then is answered
``unavailable`` with its id and the socket goes on (docs/operations.md, "The database
stopped"). Connecting also runs the table clock if something there is overdue.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import hashlib
import json
import logging
import time
from collections.abc import Mapping
from typing import TYPE_CHECKING, NamedTuple

from django.utils import translation
from django.utils.translation import gettext as _

from accounts.language import language_for_scope
from tables import selectors, services
from tables.broadcast import layer_send
from tables.guests import GUEST_TOKEN_SESSION_KEY
from tables.live.channels_typed import (
    Headers,
    JsonWebsocketConsumer,
    Message,
    Receive,
    Scope,
    Send,
    database_sync_to_async,
    handler_name,
)
from tables.live.commands import command_run
from tables.live.presence import PageCounts
from tables.live.protocol import (
    CLOSE_FORBIDDEN,
    CLOSE_SIGNED_OUT,
    CLOSE_UNAVAILABLE,
    MAX_FRAME_BYTES,
    UNAVAILABLE,
    FrameError,
    Limit,
    RequestId,
    Visibility,
    error_frame,
    parse,
)
from tables.live.quiet_tables import watch_for_loop
from tables.live.session import SEAT_GONE_CODES, SeatGone, TableSession
from tables.live.socket_auth import session_hash_current, socket_user_group
from tables.live.socket_limits import CLOSE_TOO_MANY, SocketCount, socket_who
from tables.messages import json_text
from tables.services import DATABASE_UNAVAILABLE, ServiceError, unavailable_error

if TYPE_CHECKING:
    from django.contrib.auth.models import AnonymousUser
    from django_stubs_ext import StrPromise

    from accounts.models import User
    from tables.messages import TableEventsMessage

__all__ = ["CLOSE_UNAVAILABLE", "TableConsumer", "socket_refuse_unavailable", "sockets_close_for_session"]

logger = logging.getLogger(__name__)


def session_group(session_key: str) -> str:
    """The channel-layer group of every socket opened with one session (closed when it signs out).

    A digest, not the key itself, so the session key never travels through the layer."""
    return "session_" + hashlib.sha256(session_key.encode()).hexdigest()[:40]


def sockets_close_for_session(session_key: str | None) -> None:
    """Close every socket opened with this session, in every process (called at sign-out)."""
    if not session_key:
        return

    layer_send(session_group(session_key), {"type": "session.ended"})


async def socket_refuse_unavailable(scope: Scope, receive: Receive, send: Send) -> None:
    """Answer a WebSocket's handshake when the table cannot be reached (the channel layer or
    the database away): accepted, ``{"type": "error", "code": "unavailable"}`` in its
    language (from its cookie or browser), closed with 4503."""
    if (await receive()).get("type") != "websocket.connect":
        return
    with translation.override(language_for_scope(scope)):
        message = {"type": "error", "code": "unavailable", "message": str(UNAVAILABLE)}
    await send({"type": "websocket.accept"})
    await send({"type": "websocket.send", "text": json.dumps(message)})
    await send({"type": "websocket.close", "code": CLOSE_UNAVAILABLE})


def _run_clock_if_due(table_id: int) -> None:
    """A socket connects: do what is overdue at its table first (never fails the connect)."""
    try:
        services.table_clock_run_if_due(table_id=table_id)
    except Exception:
        logger.exception("the clock of table %s failed on connect", table_id)


class Found(NamedTuple):
    """Whom a socket is for: its table and seat, the table's layer group, whether the seat is
    the host's, the seats of the host's phone if pass and play is on, and the guest token the
    seat was found by (``None`` for an account)."""

    table_id: int
    seat_id: int
    group: str
    is_host: bool
    phone: list[int] | None
    holder_token: str | None


def _identify(code: str, user: User | AnonymousUser | None, guest_token: str | None) -> Found | None:
    """Whom the socket is for, or ``None``: only someone who joined through the invite link
    (and was not banned by the host) has a seat row to watch from."""
    table = selectors.table_by_code(code=code)
    if table is None:
        return None
    signed_in = user is not None and user.is_authenticated
    seat = selectors.seat_for_viewer(table=table, user=user if signed_in else None, guest_token=guest_token)
    if seat is None or seat.banned:
        return None
    is_host = seat.user_id is not None and seat.user_id == table.host_id
    phone = selectors.phone_seat_ids(table=table) if is_host else None
    return Found(table.pk, seat.pk, table.group_name, is_host, phone, None if signed_in else guest_token)


async def _tables_last_seq(table_ids: list[int]) -> dict[int, int]:
    return await database_sync_to_async(selectors.tables_last_seq)(table_ids=table_ids)


def _quiet_seconds() -> float:
    return TableConsumer.quiet_seconds


class TableConsumer(JsonWebsocketConsumer):
    """One viewer's socket at one table: the transport around its :class:`TableSession`."""

    # A token bucket per connection: a burst, then a steady rate (messages per second).
    rate_burst = 20
    rate_per_second = 10.0
    # A table with no news for this long has its latest seq read from the log (by the
    # process's one watcher, for all quiet tables at once).
    quiet_seconds = 1.0

    # The connection's state, as it stands before ``connect`` has found anything.
    session: TableSession | None = None  # made once the socket is known to be a seat's
    page: PageCounts | None = None  # its page counted open and in view (tables.live.presence)
    language: str | None = None
    accepted = False
    groups: tuple[str, ...] = ()  # the channel-layer groups joined
    limits: SocketCount  # its place in the limits per person and address
    tokens: float
    tokens_at: float

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        try:
            await super().__call__(scope, receive, send)
        except Exception:
            # The layer could not even give this socket a channel (Redis is down): Channels
            # raised before the handshake, which daphne answers with an HTTP 500. Answer it
            # as the consumer does once the layer fails later: accept, say why, close 4503.
            if hasattr(self, "channel_name") or scope.get("type") != "websocket":
                raise
            logger.warning("channel layer unavailable; socket refused", exc_info=True)
            await socket_refuse_unavailable(scope, receive, send)

    async def dispatch(self, message: Message) -> None:
        """Channels' dispatch, in the viewer's language, without its connection check.

        Channels checks the database connections of its one sync thread before every
        message (``aclose_old_connections``): a hop to that thread for each frame received
        and each piece of news sent, measured at about a tenth of the server's time under
        load. Every database call of this consumer checks its own connection inside the
        call instead (``channels_typed.database_sync_to_async``), so that check guarded nothing here.
        """
        handler = getattr(self, handler_name(message), None)
        if handler is None:
            raise ValueError(f"No handler for message type {message['type']}")
        if message["type"] == "table.events":
            # News is data the page puts into words (its events, views, snapshots hold no
            # translated text), so it needs no language: switching to it and back for
            # every socket and every piece of news was measured at ~4% of the event loop.
            await handler(message)
            return
        # Each socket speaks its viewer's language, chosen by the same rule as a page's.
        language = self.language
        if language is None:
            language = self.language = language_for_scope(self.scope)
        with translation.override(language):
            await handler(message)

    async def connect(self) -> None:
        self.limits = SocketCount()
        self.tokens = float(self.rate_burst)
        self.tokens_at = time.monotonic()
        code = str(self.scope.get("url_route", {}).get("kwargs", {}).get("code", ""))
        session = self.scope.get("session")
        guest_token = session.get(GUEST_TOKEN_SESSION_KEY) if session is not None else None
        # Issue 24: limits per person and per address (tables.live.socket_limits), before any read.
        refused = self.limits.admit(socket_who(self.scope, guest_token))
        if refused is not None:
            await self.accept()
            await self._error(*refused)
            await self.close(code=CLOSE_TOO_MANY)
            return
        found = await database_sync_to_async(_identify)(code, self.scope.get("user"), guest_token)
        if found is None:
            self.limits.release()
            await self.close(code=CLOSE_FORBIDDEN)
            return
        table = TableSession(
            self,
            table_id=found.table_id,
            seat_id=found.seat_id,
            group=found.group,
            is_host=found.is_host,
            phone=found.phone,
            holder_token=found.holder_token,
        )
        session_key = getattr(session, "session_key", None) if session is not None else None
        groups = [found.group]
        if session_key:
            groups.append(session_group(session_key))  # closed at its sign-out
        user_group = socket_user_group(self.scope)  # a password change checks this socket
        if user_group is not None:
            groups.append(user_group)
        await database_sync_to_async(_run_clock_if_due)(found.table_id)
        try:
            for group in groups:
                await self.channel_layer.group_add(group, self.channel_name)
        except Exception:
            logger.warning("channel layer unavailable; socket to %s refused", found.group, exc_info=True)
            self.limits.release()
            await self.accept()
            await self._error("unavailable", UNAVAILABLE)
            await self.close(code=CLOSE_UNAVAILABLE)
            return
        self.groups = tuple(groups)
        self.session = table
        await self.accept()
        self.page = PageCounts(
            found.group, found.seat_id, functools.partial(self.channel_layer.group_send, found.group)
        )
        await self.page.open()
        try:
            await table.send_snapshot()
        except SeatGone as gone:  # moved or banned between finding the seat and reading
            await table.seat_lost(gone.code)
            return
        table.watch = watch_for_loop(latest_seqs=_tables_last_seq, quiet_seconds=_quiet_seconds)
        table.watch.join(table.table_id, table)

    @classmethod
    async def encode_json(cls, content: Mapping[str, object]) -> str:
        """Channels' hook for the text of ``send_json``: the project's encoder (``tables.messages.json_text``),
        the one the news frames are made with."""
        return json_text(content)

    # --- the database away (docs/operations.md, "The database stopped") ----------

    async def websocket_connect(self, message: Message) -> None:
        """Channels' connect, with a database that cannot be reached answered as a channel
        layer that cannot: accepted (so the page can be told), ``unavailable``, closed 4503."""
        try:
            await super().websocket_connect(message)
        except DATABASE_UNAVAILABLE:
            logger.warning("database unavailable; socket refused", exc_info=True)
            await self._close_unavailable()

    async def accept(self, subprotocol: str | None = None, headers: Headers | None = None) -> None:
        self.accepted = True
        await super().accept(subprotocol, headers)

    async def _close_unavailable(self) -> None:
        """Tell this socket the table cannot be reached now and close it with 4503 (the page
        comes back with its back-off and a fresh snapshot)."""
        if not self.accepted:
            await self.accept()
        await self._error("unavailable", UNAVAILABLE)
        await self.close(code=CLOSE_UNAVAILABLE)

    async def disconnect(self, code: int) -> None:
        if self.page is not None:
            await self.page.close()
        self.limits.release()
        table = self.session
        if table is not None:
            if table.watch is not None:
                table.watch.leave(table.table_id, table)
            if table.catching_up is not None:
                table.catching_up.cancel()
                with contextlib.suppress(asyncio.CancelledError, Exception):
                    await table.catching_up
        try:
            for group in self.groups:
                await self.channel_layer.group_discard(group, self.channel_name)
        except Exception:
            logger.warning("channel layer unavailable; could not leave %s", self.groups[0], exc_info=True)

    # --- news from the channel layer ---------------------------------------------

    async def table_events(self, message: TableEventsMessage) -> None:
        """News of the table (``TableSession.news``); a gap read from a database that is away
        ends the socket: it cannot go on exact, and the page starts again from a snapshot."""
        table = self.session
        if table is None:
            return
        try:
            await table.news(message)
        except SeatGone as gone:
            await table.seat_lost(gone.code)
        except DATABASE_UNAVAILABLE:
            logger.warning("database unavailable; news to %s stopped", table.group, exc_info=True)
            await self._close_unavailable()

    async def seat_banned(self, message: Message) -> None:
        """The host banned a player: their sockets close at once (they may not watch on)."""
        table = self.session
        if table is not None and message.get("seat") == table.seat_id:
            table.closing = True
            # The page says why at once (issue 28), before the close.
            await self._error("banned", _("The host has removed you from this game."))
            await self.close(code=CLOSE_FORBIDDEN)

    async def seat_presence(self, message: Message) -> None:
        """A seat came online or has no open page left: tell the page (its own seat's page
        knows it is open)."""
        if self.session is not None and message.get("seat") == self.session.seat_id:
            return
        await self.send_json({"type": "presence", "seat": message.get("seat"), "online": bool(message.get("online"))})

    async def session_ended(self, message: Message) -> None:
        """The session this socket was opened with signed out: it may not act any more."""
        if self.session is not None:
            self.session.closing = True
        await self.close(code=CLOSE_SIGNED_OUT)

    async def user_password_changed(self, message: Message) -> None:
        """The user's password changed: a socket whose session it signed out closes (issue 24)."""
        if not await database_sync_to_async(session_hash_current)(self.scope):
            await self.session_ended(message)

    async def _within_limits(self, limit: Limit, request_id: RequestId | None) -> bool:
        """Whether a frame is within its sender's commands or reads; the page is told if not."""
        refused = self.limits.take(limit)
        if refused is not None:
            await self._error(*refused, request_id)
        return refused is None

    async def _error(self, code: str, message: str | StrPromise, request_id: RequestId | None = None) -> None:
        await self.send_json(error_frame(code, message, request_id))

    # --- in --------------------------------------------------------------------

    def _take_token(self) -> bool:
        now = time.monotonic()
        self.tokens = min(float(self.rate_burst), self.tokens + (now - self.tokens_at) * self.rate_per_second)
        self.tokens_at = now
        if self.tokens < 1:
            return False
        self.tokens -= 1
        return True

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        table = self.session
        if table is None or table.closing:
            return  # closing: a frame that arrived after the sign-out does nothing
        if text_data is None:
            await self._error("bad_frame", _("Send JSON text frames."))
            return
        if len(text_data.encode()) > MAX_FRAME_BYTES:
            await self._error("too_large", _("That message is too large."))
            return
        if not self._take_token():
            await self._error("rate_limited", _("Too many messages; slow down."))
            return
        try:
            command = parse(text_data)
        except FrameError as refused:
            # A frame of a known type counts against its sender's limits before it is refused.
            if await self._within_limits(refused.limit, refused.request_id):
                await self._error(refused.code, refused.message, refused.request_id)
            return
        request_id = command.request_id
        if not await self._within_limits(command.limit, request_id):
            return
        if isinstance(command, Visibility):
            if self.page is not None:
                await self.page.visible_set(command.visible)
            return
        try:
            reply = await command_run(table, command)
        except SeatGone as gone:
            await table.seat_lost(gone.code)
            return
        except ServiceError as error:
            await self._error(error.code, error.message, request_id)
            if error.code in SEAT_GONE_CODES:  # the write found the seat moved or banned
                await table.seat_lost(error.code, told=True)
            return
        except DATABASE_UNAVAILABLE:
            # The database is away (stopped, restarting): nothing was done, or a commit cut
            # off may have been; a resend with the same id is applied once. The socket goes on.
            logger.warning("database unavailable; %s refused", type(command).__name__, exc_info=True)
            await self._error("unavailable", unavailable_error().message, request_id)
            return
        if reply is not None:
            if request_id is not None:
                reply["id"] = request_id
            await self.send_json(reply)
