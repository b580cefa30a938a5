"""The WebSocket of one table (``ws/table/<code>/``): thin, it parses, calls a service, renders.

Who: someone with a seat row at this table, made when they joined through its invite link:
a signed-in user, or a guest whose session holds the token of a seat at this table
(``tables.guests.GUEST_TOKEN_SESSION_KEY``). A seat the host banned, and anyone else, is refused (close
code 4403); a banned seat's open sockets are closed. Origins are checked by ``config.asgi``.

What goes out (the protocol is written down in ``docs/live-play.md``):

- on connect, a ``snapshot`` of the viewer's own view with the seq it is exact at;
- then ``events`` frames, every event with its seq, in order with no gap: a gap in
  what the channel layer delivers (it may drop news) is filled from the database;
  an event the viewer may not see arrives as ``{"seq": n}`` only. Visibility is
  applied in one place, ``tables.selectors.frame_for_viewer``;
- ``ack`` for a request done, ``error`` (code + message) for one refused, which changed nothing.

No news is lost for good: the channel layer may drop a broadcast, and a gap is seen only
when a later one arrives. So when a table has had no news for ``quiet_seconds``, the
process's one watcher (``tables.live.quiet_tables``) reads the latest seq of all its quiet
tables in one query, and a socket that is behind sends what it missed from the log; a
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
from collections.abc import Awaitable, Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, TypeVar

from channels.consumer import get_handler_name
from channels.db import database_sync_to_async as _database_sync_to_async
from channels.generic.websocket import AsyncJsonWebsocketConsumer
from django.db import close_old_connections
from django.utils import translation
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from accounts.language import language_for_scope
from tables import screens, selectors, services
from tables.guests import GUEST_TOKEN_SESSION_KEY
from tables.live.news_frames import news_text, text_with
from tables.live.presence import presence_close, presence_online, presence_open, visible_change
from tables.live.quiet_tables import TableWatch, watch_for_loop
from tables.live.socket_auth import session_hash_current, socket_user_group
from tables.live.socket_limits import CLOSE_TOO_MANY, LIMITS, Who, socket_who
from tables.live.viewer import Viewer
from tables.messages import NewsScreen, TableEventsMessage
from tables.news import layer_send, remember_server_loop
from tables.services import DATABASE_UNAVAILABLE, ServiceError, unavailable_error

if TYPE_CHECKING:
    from asgiref.typing import Scope
    from django.contrib.auth.models import AnonymousUser
    from django_stubs_ext import StrPromise

    from accounts.models import User

Result = TypeVar("Result")
# An ASGI message, as this module sends and reads them.
Message = dict[str, Any]

logger = logging.getLogger(__name__)


def database_sync_to_async(function: Callable[..., Result]) -> Callable[..., Awaitable[Result]]:
    """Run a service off the event loop. On PostgreSQL, calls for different tables run in
    parallel threads (each service locks its table row, so one table's actions stay one at a
    time); SQLite keeps Channels' default of one thread, as concurrent writers stall it."""
    wrapped: Callable[..., Awaitable[Result]] = _database_sync_to_async(  # Channels has no type hints
        _closing_old_connections(function), thread_sensitive=not _parallel_database()
    )
    return wrapped


def _closing_old_connections(function: Callable[..., Result]) -> Callable[..., Result]:
    """``function`` with Django's end-of-request connection check before and after it.

    Channels runs that check around the call, but outside the context the call runs in;
    Django keeps a connection in a context-aware local, so the connection the call opened
    was never seen there, never closed (with ``CONN_MAX_AGE`` 0) and left idle in
    PostgreSQL after its thread had gone. Checked inside, it is closed or kept by the
    setting, as for a request.
    """

    @functools.wraps(function)
    def call(*args: object, **kwargs: object) -> Result:
        close_old_connections()
        try:
            return function(*args, **kwargs)
        finally:
            close_old_connections()

    return call


def _parallel_database() -> bool:
    from django.conf import settings

    engine: str = settings.DATABASES["default"]["ENGINE"]
    return engine == "django.db.backends.postgresql"


MAX_FRAME_BYTES = 4096
RESYNC_LIMIT = 500
#: The frames that make the site write, limited per person (``tables.live.socket_limits``).
COMMANDS = frozenset({"action", "see", "seat", "host", "seed"})
CLOSE_FORBIDDEN = 4403
CLOSE_SIGNED_OUT = 4401
CLOSE_SEAT_MOVED = 4409  # a guest's seat link was opened in another browser (issue 28): not retried
SEAT_GONE_KINDS = ("seat_banned", "seat_moved")
# The refusals that say this socket's seat is not its own any more (``services.writes_for``),
# with what the page is told; the page knows both codes (main.js, GONE_CODES).
SEAT_GONE_CODES = {
    "seat_moved": gettext_lazy("Your seat is open on another device now: this page no longer plays for it."),
    "banned": gettext_lazy("The host has removed you from this game."),
}
CLOSE_UNAVAILABLE = 4503  # like HTTP 503, try again later (daphne sends only 1000 and 3000-4999)
UNAVAILABLE = gettext_lazy("The server cannot reach the table right now; retrying.")


def session_group(session_key: str) -> str:
    """The channel-layer group of every socket opened with one session (closed when it signs out).

    A digest, not the key itself, so the session key never travels through the layer."""
    return "session_" + hashlib.sha256(session_key.encode()).hexdigest()[:40]


def sockets_close_for_session(session_key: str | None) -> None:
    """Close every socket opened with this session, in every process (called at sign-out)."""
    if not session_key:
        return

    layer_send(session_group(session_key), {"type": "session.ended"})


def _run_clock_if_due(table_id: int) -> None:
    """A socket connects: do what is overdue at its table first (never fails the connect)."""
    try:
        services.table_clock_run_if_due(table_id=table_id)
    except Exception:
        logger.exception("the clock of table %s failed on connect", table_id)


def _identify(
    code: str, user: User | AnonymousUser | None, guest_token: str | None
) -> tuple[int, int, str, bool, list[int] | None, str | None] | None:
    """(table id, seat id, group name, whether it is the host's, the seats of the host's phone
    if pass and play is on, the guest token the seat was found by: ``None`` for an account)
    of the viewer, or ``None``: only someone who joined through the invite link (and was not
    banned by the host) has a seat row to watch from."""
    table = selectors.table_by_code(code=code)
    if table is None:
        return None
    signed_in = user is not None and getattr(user, "is_authenticated", False)
    seat = selectors.seat_for_viewer(table=table, user=user if signed_in else None, guest_token=guest_token)
    if seat is None or seat.banned:
        return None
    is_host = seat.user_id is not None and seat.user_id == table.host_id
    phone = selectors.phone_seat_ids(table=table) if is_host else None
    return table.pk, seat.pk, table.group_name, is_host, phone, None if signed_in else guest_token


def _written_as(holder: services.SeatHolder | None, write: Callable[..., Result], kwargs: dict[str, Any]) -> Result:
    """``write(**kwargs)`` for the socket's seat: every table write in it first checks, under
    the table's lock, that the seat is still the socket's (``services.writes_for``)."""
    with services.writes_for(holder):
        return write(**kwargs)


class SeatGone(Exception):
    """A read found this socket's seat is not its own any more (issue 34): ``code`` is
    ``seat_moved`` (its guest's seat link was used in another browser) or ``banned``."""

    def __init__(self, code: str) -> None:
        super().__init__(code)
        self.code = code


async def _tables_last_seq(table_ids: list[int]) -> dict[int, int]:
    return await database_sync_to_async(selectors.tables_last_seq)(table_ids=table_ids)


def _quiet_seconds() -> float:
    return TableConsumer.quiet_seconds


class TableConsumer(AsyncJsonWebsocketConsumer):
    """One viewer's socket at one table."""

    # A token bucket per connection: a burst, then a steady rate (messages per second).
    rate_burst = 20
    rate_per_second = 10.0
    # A table with no news for this long has its latest seq read from the log (by the
    # process's one watcher, for all quiet tables at once).
    quiet_seconds = 5.0

    async def __call__(
        self, scope: Scope, receive: Callable[[], Awaitable[Message]], send: Callable[[Message], Awaitable[None]]
    ) -> None:
        try:
            await super().__call__(scope, receive, send)
        except Exception:
            # The layer could not even give this socket a channel (Redis is down): Channels
            # raised before the handshake, which daphne answers with an HTTP 500. Answer it
            # as the consumer does once the layer fails later: accept, say why, close 4503.
            if hasattr(self, "channel_name") or scope.get("type") != "websocket":
                raise
            logger.warning("channel layer unavailable; socket refused", exc_info=True)
            if (await receive()).get("type") != "websocket.connect":
                return
            message = {"type": "error", "code": "unavailable", "message": str(UNAVAILABLE)}
            await send({"type": "websocket.accept"})
            await send({"type": "websocket.send", "text": json.dumps(message)})
            await send({"type": "websocket.close", "code": CLOSE_UNAVAILABLE})

    async def dispatch(self, message: dict[str, Any]) -> None:
        """Channels' dispatch, in the viewer's language, without its connection check.

        Channels checks the database connections of its one sync thread before every
        message (``aclose_old_connections``): a hop to that thread for each frame received
        and each piece of news sent, measured at about a tenth of the server's time under
        load. Every database call of this consumer checks its own connection inside the
        call instead (:func:`database_sync_to_async`), so that check guarded nothing here.
        """
        handler = getattr(self, get_handler_name(message), None)
        if handler is None:
            raise ValueError(f"No handler for message type {message['type']}")
        if message["type"] == "table.events":
            # News is data the page puts into words (its events, views, snapshots hold no
            # translated text), so it needs no language: switching to it and back for
            # every socket and every piece of news was measured at ~4% of the event loop.
            await handler(message)
            return
        # Each socket speaks its viewer's language, chosen by the same rule as a page's.
        language = getattr(self, "language", None)
        if language is None:
            language = self.language = language_for_scope(self.scope)
        with translation.override(language):
            await handler(message)

    async def connect(self) -> None:
        remember_server_loop(asyncio.get_running_loop())
        self.table_id: int | None = None
        self.seat_id: int | None = None
        self.last_seq = 0
        self.tokens = float(self.rate_burst)
        self.tokens_at = time.monotonic()
        # Held while sending news, so the watcher's catch-up and the layer's news never interleave.
        self.sending = asyncio.Lock()
        code = str(self.scope.get("url_route", {}).get("kwargs", {}).get("code", ""))
        session = self.scope.get("session")
        guest_token = session.get(GUEST_TOKEN_SESSION_KEY) if session is not None else None
        # Issue 24: limits per person and per address (tables.live.socket_limits), before any read.
        if not await self._limits_admit(socket_who(self.scope, guest_token)):
            return
        found = await database_sync_to_async(_identify)(code, self.scope.get("user"), guest_token)
        if found is None:
            self._limits_release()
            await self.close(code=CLOSE_FORBIDDEN)
            return
        self.table_id, self.seat_id, self.group, self.is_host, phone, holder_token = found
        # Whom this socket writes for (issue 34): a guest's seat may move to another browser
        # by its seat link, so every write checks it still holds it; an account's never moves.
        self.holder_token = holder_token
        self.holder = None if holder_token is None else services.SeatHolder(self.seat_id, holder_token)
        # Whose eyes this socket sees with (its seat's; pass and play: the phone's holder's).
        self.viewer = Viewer(seat_id=self.seat_id, is_host=self.is_host, phone=phone)
        self.signed_out = False
        session_key = getattr(session, "session_key", None) if session is not None else None
        self.session_group = session_group(session_key) if session_key else None
        self.user_group = socket_user_group(self.scope)  # a password change checks this socket
        await database_sync_to_async(_run_clock_if_due)(self.table_id)
        try:
            await self.channel_layer.group_add(self.group, self.channel_name)
            if self.session_group is not None:
                await self.channel_layer.group_add(self.session_group, self.channel_name)
            if self.user_group is not None:
                await self.channel_layer.group_add(self.user_group, self.channel_name)
        except Exception:
            logger.warning("channel layer unavailable; socket to %s refused", self.group, exc_info=True)
            self._limits_release()
            self.table_id = None
            self.session_group = None
            await self.accept()
            await self._error("unavailable", UNAVAILABLE)
            await self.close(code=CLOSE_UNAVAILABLE)
            return
        await self.accept()
        await self._presence_open()
        try:
            await self._send_snapshot()
        except SeatGone as gone:  # moved or banned between finding the seat and reading
            await self._seat_lost(gone.code)
            return
        self.catching_up: asyncio.Task[None] | None = None
        self.watch: TableWatch = watch_for_loop(latest_seqs=_tables_last_seq, quiet_seconds=_quiet_seconds)
        self.watch.join(self.table_id, self)

    # --- the database away (docs/operations.md, "The database stopped") ----------

    async def websocket_connect(self, message: Message) -> None:
        """Channels' connect, with a database that cannot be reached answered as a channel
        layer that cannot: accepted (so the page can be told), ``unavailable``, closed 4503."""
        try:
            await super().websocket_connect(message)
        except DATABASE_UNAVAILABLE:
            logger.warning("database unavailable; socket refused", exc_info=True)
            await self._close_unavailable()

    async def accept(self, subprotocol: str | None = None, headers: list[tuple[bytes, bytes]] | None = None) -> None:
        self.accepted = True
        await super().accept(subprotocol, headers)

    async def _close_unavailable(self) -> None:
        """Tell this socket the table cannot be reached now and close it with 4503 (the page
        comes back with its back-off and a fresh snapshot)."""
        if not getattr(self, "accepted", False):
            await self.accept()
        await self._error("unavailable", UNAVAILABLE)
        await self.close(code=CLOSE_UNAVAILABLE)

    async def disconnect(self, code: int) -> None:
        await self._visible_set(False)
        await self._presence_close()
        self._limits_release()
        watch = getattr(self, "watch", None)
        if watch is not None:
            watch.leave(self.table_id, self)
        catching_up = getattr(self, "catching_up", None)
        if catching_up is not None:
            catching_up.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await catching_up
        if getattr(self, "table_id", None) is not None:
            try:
                await self.channel_layer.group_discard(self.group, self.channel_name)
                if getattr(self, "session_group", None) is not None:
                    await self.channel_layer.group_discard(self.session_group, self.channel_name)
                if getattr(self, "user_group", None) is not None:
                    await self.channel_layer.group_discard(self.user_group, self.channel_name)
            except Exception:
                logger.warning("channel layer unavailable; could not leave %s", self.group, exc_info=True)

    async def seat_banned(self, message: dict[str, Any]) -> None:
        """The host banned a player: their sockets close at once (they may not watch on)."""
        if message.get("seat") == self.seat_id:
            self.signed_out = True
            # The page says why at once (issue 28), before the close.
            await self._error("banned", _("The host has removed you from this game."))
            await self.close(code=CLOSE_FORBIDDEN)

    # --- who has the table open (issue 28, tables.live.presence) ----------------------

    async def _presence_open(self) -> None:
        """Count this socket open; the table hears when its seat comes online."""
        self.present = False
        if self.seat_id is None:
            return
        try:
            online = await presence_open(self.group, self.seat_id)
            self.present = True
            if online:
                await self.channel_layer.group_send(
                    self.group, {"type": "seat.presence", "seat": self.seat_id, "online": True}
                )
        except Exception:  # the cache or the layer is away: the seat just shows as before
            logger.warning("presence of %s not counted", self.group, exc_info=True)

    async def _presence_close(self) -> None:
        """Count this socket closed; the table hears when its seat has no page left open."""
        if not getattr(self, "present", False) or self.seat_id is None:
            return
        self.present = False
        try:
            if await presence_close(self.group, self.seat_id):
                await self.channel_layer.group_send(
                    self.group, {"type": "seat.presence", "seat": self.seat_id, "online": False}
                )
        except Exception:
            logger.warning("presence of %s not uncounted", self.group, exc_info=True)

    # --- whether this page is in view (issue 28: no push while it is; tables.push) -----

    async def _visible_set(self, visible: bool) -> None:
        """Count this socket's page as visible or not (only on a change of its own)."""
        seat_id = getattr(self, "seat_id", None)
        if visible == getattr(self, "visible", False) or seat_id is None:
            return
        self.visible = visible
        try:
            await visible_change(self.group, seat_id, visible)
        except Exception:  # the cache is away: a push may be sent to a page in view
            logger.warning("visibility of %s not counted", self.group, exc_info=True)

    async def _on_visibility(self, message: dict[str, Any]) -> None:
        if not isinstance(message.get("visible"), bool):
            raise ServiceError("bad_visibility", _("Say whether the page is visible: true or false."))
        await self._visible_set(message["visible"])

    # --- end of visibility ----------------------------------------------------------------

    async def seat_presence(self, message: dict[str, Any]) -> None:
        """A seat came online or has no open page left: tell the page (its own seat's page
        knows it is open)."""
        if message.get("seat") == self.seat_id:
            return
        await self.send_json({"type": "presence", "seat": message.get("seat"), "online": bool(message.get("online"))})

    async def _online(self, snapshot: Mapping[str, Any]) -> list[int] | None:
        """The seats with an open page now (``None`` when the cache cannot say)."""
        try:
            return await presence_online(self.group, [seat["id"] for seat in snapshot["seats"]])
        except Exception:
            logger.warning("presence of %s not read", self.group, exc_info=True)
            return None

    async def session_ended(self, message: dict[str, Any]) -> None:
        """The session this socket was opened with signed out: it may not act any more."""
        self.signed_out = True
        await self.close(code=CLOSE_SIGNED_OUT)

    async def user_password_changed(self, message: dict[str, Any]) -> None:
        """The user's password changed: a socket whose session it signed out closes (issue 24)."""
        if not await database_sync_to_async(session_hash_current)(self.scope):
            await self.session_ended(message)

    async def _send_snapshot(self) -> None:
        read = database_sync_to_async(screens.table_snapshot)
        snapshot = await read(table_id=self.table_id, seat_id=self.viewer.seat)
        # Pass and play: the holder let go (the turn moved on after the tap) or the phone
        # started or stopped passing: read again with the eyes it has now (it settles as
        # soon as the seats and the turn stop moving between two reads).
        while self.viewer.heard_read(snapshot):
            snapshot = await read(table_id=self.table_id, seat_id=self.viewer.seat)
        await self._require_seat()
        if self.viewer.passing:
            snapshot["you"] = self.seat_id
        self.last_seq = snapshot["seq"]
        snapshot["online"] = await self._online(snapshot)  # issue 28: who has a page open
        await self.send_json(self.viewer.with_phone(snapshot))

    def behind(self, latest: int) -> None:
        """The watcher read that the table's log is ahead of this socket: catch up (once at a time)."""
        if self.catching_up is None or self.catching_up.done():
            self.catching_up = asyncio.ensure_future(self._catch_up_to(latest))

    async def _catch_up_to(self, latest: int) -> None:
        try:
            async with self.sending:
                if latest > self.last_seq:
                    await self._send_missed()
        except SeatGone as gone:
            await self._seat_lost(gone.code)
        except Exception:  # the database is away: the next quiet spell tries again
            logger.warning("catching up %s failed", self.group, exc_info=True)

    async def _catch_up(self) -> int:
        """Send what the log has after this socket's seq; returns the table's latest seq."""
        latest = await database_sync_to_async(selectors.table_last_seq)(table_id=self.table_id)
        async with self.sending:
            if latest <= self.last_seq:
                return latest
            await self._send_missed()
        return max(latest, self.last_seq)

    async def _send_missed(self) -> None:
        """The events after this socket's seq from the log, with its screen read at the same
        seq (news was lost on the way); a snapshot instead when too much was missed."""
        read = database_sync_to_async(screens.table_catch_up)
        caught = await read(table_id=self.table_id, seat_id=self.viewer.seat, after=self.last_seq, limit=RESYNC_LIMIT)
        if caught is None:
            await self._send_snapshot()
            return
        events, screen = caught
        while self.viewer.heard_read(screen):
            # Read again with the eyes the socket has now (see _send_snapshot).
            caught = await read(
                table_id=self.table_id, seat_id=self.viewer.seat, after=self.last_seq, limit=RESYNC_LIMIT
            )
            if caught is None:
                await self._send_snapshot()
                return
            events, screen = caught
        await self._require_seat()
        if events:
            self.last_seq = screen["seq"]
            await self.send_json(self.viewer.with_phone({"type": "events", "events": events, "screen": screen}))
            await self._close_if_banned(events)

    async def table_events(self, message: TableEventsMessage) -> None:
        """News from the channel layer: the events in seq order, with this viewer's screen
        after them (``tables.screens``). No query and no lock, unless news was lost on the
        way (a gap): then what was missed comes from the log."""
        watch = getattr(self, "watch", None)
        if watch is not None:
            watch.heard(self.table_id)
        try:
            async with self.sending:
                await self._send_news(message)
        except SeatGone as gone:
            await self._seat_lost(gone.code)
        except DATABASE_UNAVAILABLE:
            # What was missed cannot be read now: this socket cannot go on exact; the page
            # reconnects and starts again from a snapshot.
            logger.warning("database unavailable; news to %s stopped", self.group, exc_info=True)
            await self._close_unavailable()

    async def _send_news(self, message: TableEventsMessage) -> None:
        frames = message["events"]
        if not frames or frames[-1]["seq"] <= self.last_seq:
            return  # old news: it came after a later message, or after a snapshot
        if frames[0]["seq"] > self.last_seq + 1:
            await self._send_missed()
            return
        sent = message.get("screen")
        # The screen after this news (None: none came with it, or not at its last seq).
        screen: NewsScreen | None = sent if sent is not None and sent["seq"] == frames[-1]["seq"] else None
        # Pass and play: whose eyes this news is filtered with is settled first.
        viewer_changed = self.viewer.heard_news(frames, screen)
        after, viewer = self.last_seq, self.viewer.name
        self.last_seq = frames[-1]["seq"]
        # Only news of a ban (or of a guest's seat moved to another browser) needs the events
        # as this viewer sees them here.
        banned = [
            selectors.frame_for_viewer(frame, viewer)
            for frame in frames
            if frame.get("kind") in SEAT_GONE_KINDS and frame["seq"] > after
        ]
        if viewer_changed and (screen is None or "hand" not in screen):
            # The page holds a hand seen with other eyes and this news does not replace it.
            await self._send_snapshot()
            await self._close_if_banned(banned)
            return
        # The frame's text, its parts encoded once for every socket of the table (tables.live.news_frames).
        text = news_text(message, after=after, viewer=viewer)
        phone = self.viewer.phone_public()
        if phone is not None:
            text = text_with(text, "phone", phone)
        await self.send(text_data=text)
        if screen is None:
            await self._send_snapshot()  # news without a screen (not sent by this version): read it
        await self._close_if_banned(banned)

    async def _close_if_banned(self, events: Sequence[Mapping[str, Any]]) -> None:
        """The log says this seat was banned (the layer's own word may have been lost), or
        (issue 28) its guest's seat link was opened in another browser: go. A socket opened
        after the move never sees that news (its snapshot is past it)."""
        for event in events:
            if event.get("kind") in SEAT_GONE_KINDS and event.get("data", {}).get("seat") == self.seat_id:
                self.signed_out = True
                moved = event.get("kind") == "seat_moved"
                await self.close(code=CLOSE_SEAT_MOVED if moved else CLOSE_FORBIDDEN)
                return

    async def _require_seat(self) -> None:
        """After every read, before what it read is sent (issue 34): the seat is still this
        socket's, or :class:`SeatGone`. A read moves the socket's seq past the news it covers,
        and news of a move then arrives as old news: only this check would see it."""
        gone = await database_sync_to_async(selectors.seat_gone)(seat_id=self.seat_id, guest_token=self.holder_token)
        if gone is not None:
            raise SeatGone(gone)

    async def _seat_lost(self, code: str, *, told: bool = False) -> None:
        """The seat is not this socket's any more: say why (unless ``told``) and close, as the
        news of a ban or a move would have."""
        if self.signed_out:
            return
        self.signed_out = True
        if not told:
            await self._error(code, SEAT_GONE_CODES[code])
        await self.close(code=CLOSE_SEAT_MOVED if code == "seat_moved" else CLOSE_FORBIDDEN)

    # --- limits per person and per address (issue 24; tables.live.socket_limits) ----------------

    async def _limits_admit(self, who: Who) -> bool:
        """Count this socket and its opening read, or refuse it: told why, closed with 4429."""
        self.who: Who | None = None
        if LIMITS.open(who):
            self.who = who
            if LIMITS.read(who):
                return True
            self._limits_release()
            code, text = "too_many_reads", _("Too many requests from you; the page tries again shortly.")
        else:
            code, text = "too_many_sockets", _("Too many open pages of this table from you; close some and try again.")
        await self.accept()
        await self._error(code, text)
        await self.close(code=CLOSE_TOO_MANY)
        return False

    def _limits_release(self) -> None:
        who = getattr(self, "who", None)
        if who is not None:
            self.who = None
            LIMITS.close(who)

    def _limits_read(self) -> None:
        """A snapshot or resync request: refused beyond the person's and the address's reads."""
        who = getattr(self, "who", None)
        if who is not None and not LIMITS.read(who):
            raise ServiceError("too_many_reads", _("Too many requests from you; the page tries again shortly."))

    def _limits_command(self) -> bool:
        """A frame that makes the site write: within the person's commands, over all their sockets."""
        who = getattr(self, "who", None)
        return who is None or LIMITS.command(who)

    async def _error(self, code: str, message: str | StrPromise, request_id: object = None) -> None:
        frame: dict[str, Any] = {"type": "error", "code": code, "message": str(message)}
        if request_id is not None:
            frame["id"] = request_id
        await self.send_json(frame)

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
        if self.signed_out:
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
            message = json.loads(text_data)
        except (ValueError, RecursionError):  # RecursionError: nesting deeper than the parser's stack
            await self._error("bad_json", _("That message is not JSON."))
            return
        if not isinstance(message, dict) or not isinstance(message.get("type"), str):
            await self._error("bad_message", _("A message is an object with a type."))
            return
        handler = self.HANDLERS.get(message["type"])
        request_id = message.get("id")
        if request_id is not None and (
            isinstance(request_id, bool) or not isinstance(request_id, str | int) or len(str(request_id)) > 40
        ):
            await self._error("bad_id", _("An id must be a short text or number."))
            return
        if handler is None:
            await self._error("bad_type", _("Unknown message type."), request_id)
            return
        if message["type"] in COMMANDS and not self._limits_command():
            await self._error(
                "too_many_commands", _("Too many commands from you at once; wait a moment and try again."), request_id
            )
            return
        try:
            reply = await handler(self, message)
        except SeatGone as gone:
            await self._seat_lost(gone.code)
            return
        except ServiceError as error:
            await self._error(error.code, error.message, request_id)
            if error.code in SEAT_GONE_CODES:  # the write found the seat moved or banned
                await self._seat_lost(error.code, told=True)
            return
        except DATABASE_UNAVAILABLE:
            # The database is away (stopped, restarting): nothing was done, or a commit cut
            # off may have been; a resend with the same id is applied once. The socket goes on.
            logger.warning("database unavailable; %s refused", message["type"], exc_info=True)
            await self._error("unavailable", unavailable_error().message, request_id)
            return
        if reply is not None:
            if request_id is not None:
                reply["id"] = request_id
            await self.send_json(reply)

    def _client_action_id(self, message: dict[str, Any], seat_id: int | None = None) -> str | None:
        request_id = message.get("id")
        # Scoped to the seat, so one player's ids can never collide with another's.
        return None if request_id is None else f"{seat_id or self.seat_id}:{request_id}"

    async def _write(self, write: Callable[..., Result], **kwargs: Any) -> Result:
        """A service that writes for this socket's seat, in a thread of this process (a busier
        site runs more daphne processes, docs/deployment.md), refused if the seat is not the
        socket's any more (issue 34)."""
        return await database_sync_to_async(functools.partial(_written_as, self.holder, write, kwargs))()

    async def _play(self, move: Callable[..., int], kwargs: dict[str, Any]) -> int:
        """A move in the hand (``services.hand_act`` or ``services.hand_see``)."""
        return await self._write(move, **kwargs)

    async def _on_action(self, message: dict[str, Any]) -> dict[str, Any]:
        if message.get("id") is None:
            raise ServiceError("bad_id", _("An action needs an id."))
        seat_id = self.viewer.acting_seat()
        kwargs = {
            "table_id": self.table_id,
            "seat_id": seat_id,
            "verb": message.get("verb"),
            "amount": message.get("amount"),
            "client_action_id": self._client_action_id(message, seat_id),
            "only_on_turn": self.viewer.passing,
        }
        return {"type": "ack", "seq": await self._play(services.hand_act, kwargs)}

    async def _on_see(self, message: dict[str, Any]) -> dict[str, Any]:
        seat_id = self.viewer.acting_seat()
        kwargs = {
            "table_id": self.table_id,
            "seat_id": seat_id,
            "client_action_id": self._client_action_id(message, seat_id),
            "only_on_turn": self.viewer.passing,
        }
        return {"type": "ack", "seq": await self._play(services.hand_see, kwargs)}

    async def _on_hold(self, message: dict[str, Any]) -> dict[str, Any]:
        """Pass and play: "I am <name>" (``seat``: the phone's seat whose turn it is), or
        ``seat: null`` to hide every card again. The new view follows as a snapshot."""
        seat = message.get("seat")
        if seat is None:
            if not self.viewer.passing:
                raise ServiceError("not_pass_and_play", _("Nobody plays on this phone: the host adds players first."))
            async with self.sending:
                self.viewer.let_go()
                await self._send_snapshot()
            return {"type": "ack", "holding": None}
        held, phone = await database_sync_to_async(services.phone_hold_check)(
            table_id=self.table_id, seat_id=self.seat_id, hold_seat_id=seat
        )
        async with self.sending:
            self.viewer.hold(seat_id=held.pk, phone=phone)
            await self._send_snapshot()
        return {"type": "ack", "holding": self.viewer.holding}

    async def _on_resync(self, message: dict[str, Any]) -> None:
        self._limits_read()
        after = message.get("after")
        if isinstance(after, bool) or not isinstance(after, int) or after < 0:
            raise ServiceError("bad_after", _("Give the last seq you have."))
        async with self.sending:  # the reply goes out before any later news
            if self.is_host:
                # Pass and play: what the log holds past this socket's seq goes first, as
                # news (whose eyes it sees with settled from the turn there), and the reply
                # stops at that seq, so later news is still heard, its turn too. Otherwise
                # the reply, filtered with the holder's eyes, would make the news of the
                # turn leaving them old news, dropped, and the hold would outlive the turn.
                await self._send_missed()
            events = await database_sync_to_async(selectors.events_after)(
                table_id=self.table_id, after=after, viewer=self.viewer.name, limit=RESYNC_LIMIT + 1
            )
            await self._require_seat()
            if len(events) > RESYNC_LIMIT:
                await self._send_snapshot()
                return None
            if self.is_host:
                events = [event for event in events if event["seq"] <= self.last_seq]
            elif events:
                self.last_seq = max(self.last_seq, events[-1]["seq"])
            reply: dict[str, Any] = {"type": "events", "events": events}
            if message.get("id") is not None:
                reply["id"] = message["id"]
            await self.send_json(self.viewer.with_phone(reply))
        return None

    async def _on_snapshot(self, message: dict[str, Any]) -> None:
        self._limits_read()
        async with self.sending:
            await self._send_snapshot()
        return None

    async def _on_seat(self, message: dict[str, Any]) -> dict[str, Any]:
        verb = message.get("verb")
        calls: dict[str, Callable[..., object]] = {
            "take": services.seat_take,
            "leave": services.seat_leave,
            "sit_out": services.seat_sit_out,
            "come_back": services.seat_come_back,
            "buy_back": services.seat_buy_back,
            "ask": services.seat_ask,
            "cancel": services.request_cancel,
            "call_variant": services.variant_call,  # dealer's choice: the next dealer calls the variant
        }
        if verb not in calls:
            raise ServiceError("bad_verb", _("That is not something you can do with a seat."))
        kwargs: dict[str, Any] = {"table_id": self.table_id, "seat_id": self.seat_id}
        if message.get("seat") is not None:
            # Pass and play: the host's phone asks for one of its players.
            local = await database_sync_to_async(services.phone_seat_check)(
                table_id=self.table_id, seat_id=self.seat_id, local_seat_id=message["seat"]
            )
            kwargs["seat_id"] = local.pk
        if verb in ("take", "ask") and message.get("number") is not None:
            kwargs["number"] = message["number"]
        if verb == "call_variant":
            kwargs["variant"] = message.get("variant")
        if verb == "ask":
            kwargs["what"] = message.get("what")
            request = await self._write(services.seat_ask, **kwargs)
            return {"type": "ack", "request": request}
        await self._write(calls[verb], **kwargs)
        return {"type": "ack"}

    async def _on_host(self, message: dict[str, Any]) -> dict[str, Any]:
        verb = message.get("verb")
        kwargs: dict[str, Any] = {"table_id": self.table_id, "seat_id": self.seat_id}
        calls: dict[str, Callable[..., object]] = {
            "start": services.table_start,
            "pause": services.table_pause,
            "resume": services.table_resume,
            "end": services.table_end,
            "settings": services.table_update_settings,
            "remove": services.seat_remove,
            "act_for": services.hand_act_for_away,
            "approve": services.request_approve,
            "deny": services.request_deny,
        }
        if verb not in calls:
            raise ServiceError("bad_verb", _("That is not a host control."))
        if verb == "settings":
            kwargs["choices"] = message.get("settings")
        if verb == "remove":
            kwargs["remove_seat_id"] = message.get("seat")
            kwargs["ban"] = message.get("ban", False)
        if verb == "act_for":
            kwargs["player_seat_id"] = message.get("seat")
        if verb in ("approve", "deny"):
            kwargs["request"] = message.get("request")
        await self._write(calls[verb], **kwargs)
        return {"type": "ack"}

    async def _on_seed(self, message: dict[str, Any]) -> dict[str, Any]:
        for_hand = await self._write(
            services.seat_seed_submit, table_id=self.table_id, seat_id=self.seat_id, seed=message.get("seed")
        )
        return {"type": "ack", "for_hand": for_hand}

    async def _on_ping(self, message: dict[str, Any]) -> dict[str, Any]:
        # The table's latest seq, after sending this socket whatever it had missed of it.
        return {"type": "pong", "seq": await self._catch_up()}

    async def _on_beat(self, message: dict[str, Any]) -> dict[str, Any]:
        # The page's frequent heartbeat: the last seq this socket sent, with no read (a page
        # behind it lost news on the way and asks for a snapshot); a socket behind the log is
        # the quiet watcher's and the page's slower ``ping``'s to find.
        return {"type": "pong", "seq": self.last_seq}

    HANDLERS = {
        "action": _on_action,
        "see": _on_see,
        "hold": _on_hold,
        "resync": _on_resync,
        "snapshot": _on_snapshot,
        "seat": _on_seat,
        "host": _on_host,
        "seed": _on_seed,
        "ping": _on_ping,
        "beat": _on_beat,
        "visibility": _on_visibility,
    }
