"""One socket's session at its table, once it has connected: what it has sent (its seq),
whose eyes it sees with (``tables.live.viewer``), the news it is sent and what it missed.

No Channels here: the session reads through the services and selectors, and sends through
the small :class:`Socket` it is given (the consumer, ``tables.live.consumers``; a recording
fake in ``tests/tables/test_session.py``). The consumer makes one after a successful
connect, hands it each frame from the page (``tables.live.commands``) and each piece of news.

What goes out, in order with no gap:

- a ``snapshot`` of the viewer's own view with the seq it is exact at;
- then ``events`` frames, every event with its seq: a gap in what the channel layer
  delivers (it may drop news) is filled from the log; an event the viewer may not see
  arrives as ``{"seq": n}`` only (``tables.selectors.frame_for_viewer``, the one place).

The lock :attr:`TableSession.sending` is held while anything of the table is sent, so a
catch-up, a resync reply and the layer's news never interleave.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
from collections.abc import Awaitable, Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, ParamSpec, Protocol, TypeVar, cast

from django.utils.translation import gettext_lazy

from tables import selectors, services, what_viewers_see
from tables.live.channels_typed import database_sync_to_async
from tables.live.news_frames import news_text, text_with
from tables.live.presence import presence_online
from tables.live.protocol import CLOSE_FORBIDDEN, CLOSE_SEAT_MOVED, RequestId, error_frame
from tables.live.viewer import Viewer

if TYPE_CHECKING:
    from django_stubs_ext import StrPromise

    from tables.live.quiet_tables import TableWatch
    from tables.messages import CatchUpScreen, NewsScreen, Snapshot, TableEventsMessage

Params = ParamSpec("Params")
Result = TypeVar("Result")

logger = logging.getLogger(__name__)

RESYNC_LIMIT = 500
# News committed before a read of the log may still be on its way to the socket when the
# read says the socket is behind: it is given this long to come before the log is read.
IN_FLIGHT_SECONDS = 0.5
SEAT_GONE_KINDS = ("seat_banned", "seat_moved")
# The refusals that say this socket's seat is not its own any more (``services.writes_for``),
# with what the page is told; the page knows both codes (main.js, GONE_CODES).
SEAT_GONE_CODES = {
    "seat_moved": gettext_lazy("Your seat is open on another device now: this page no longer plays for it."),
    "banned": gettext_lazy("The host has removed you from this game."),
}


def _written(
    holder: services.SeatHolder | None, service: Callable[..., object], args: tuple[object, ...], kwargs: dict[str, Any]
) -> object:
    """A socket's write, in a service thread (:meth:`TableSession.write`)."""
    with services.writes_for(holder):
        return service(*args, **kwargs)


@functools.cache
def _write_hop() -> Callable[
    [services.SeatHolder | None, Callable[..., object], tuple[object, ...], dict[str, Any]], Awaitable[object]
]:
    """Channels' hop to a service thread for every socket's write, made once: one made for
    each move (a closure and its wrappers) was about 1% of the server's samples at 100
    tables of 4 (docs/measurements/live-play.md)."""
    return database_sync_to_async(_written)


class Socket(Protocol):
    """What a session needs of its socket."""

    async def send(
        self, text_data: str | None = None, bytes_data: bytes | None = None, close: bool = False
    ) -> None: ...

    async def send_json(self, content: Mapping[str, object]) -> None: ...

    async def close(self, code: int | None = None) -> None: ...


class SeatGone(Exception):
    """A read found this socket's seat is not its own any more (issue 34): ``code`` is
    ``seat_moved`` (its guest's seat link was used in another browser) or ``banned``."""

    def __init__(self, code: str) -> None:
        super().__init__(code)
        self.code = code


class TableSession:
    """One connected socket's session: ``group`` is its table's channel-layer group,
    ``holder`` whom its writes are for (a guest's seat, checked under the table's lock at
    every write: it may move to another browser; ``None`` for an account's)."""

    def __init__(
        self,
        socket: Socket,
        *,
        table_id: int,
        seat_id: int,
        group: str,
        is_host: bool,
        phone: list[int] | None,
        holder_token: str | None,
    ) -> None:
        self.socket = socket
        self.table_id = table_id
        self.seat_id = seat_id
        self.group = group
        self.is_host = is_host
        self.holder_token = holder_token
        self.holder = None if holder_token is None else services.SeatHolder(seat_id, holder_token)
        # Whose eyes this socket sees with (its seat's; pass and play: the phone's holder's).
        self.viewer = Viewer(seat_id=seat_id, is_host=is_host, phone=phone)
        self.last_seq = 0
        # Held while sending news, so the watcher's catch-up and the layer's news never interleave.
        self.sending = asyncio.Lock()
        # Set when the socket is closing (signed out, banned, its seat moved): it acts no more.
        self.closing = False
        self.watch: TableWatch | None = None
        self.catching_up: asyncio.Task[None] | None = None
        # Set when news moves this socket's seq on, while a catch-up waits for news on its way.
        self.news_heard: asyncio.Future[None] | None = None

    # --- writes --------------------------------------------------------------------------

    async def write(self, service: Callable[Params, Result], *args: Params.args, **kwargs: Params.kwargs) -> Result:
        """A service that writes for this socket's seat, in a thread of this process (a busier
        site runs more daphne processes, docs/deployment.md), refused if the seat is not the
        socket's any more (issue 34): every table write in it first checks, under the table's
        lock, that the seat is still the socket's (``services.writes_for``)."""
        return cast(Result, await _write_hop()(self.holder, service, args, kwargs))

    def acting_seat(self) -> int:
        """The seat a move from this socket is for: its own; on a passed phone, the holder's
        (``not_holding`` while nobody holds it)."""
        seat = self.viewer.acting_seat()
        return self.seat_id if seat is None else seat

    def client_action_id(self, request_id: RequestId | None, seat_id: int | None) -> str | None:
        # Scoped to the seat, so one player's ids can never collide with another's.
        return None if request_id is None else f"{seat_id or self.seat_id}:{request_id}"

    # --- reads ---------------------------------------------------------------------------

    async def send_snapshot(self) -> None:
        read = database_sync_to_async(what_viewers_see.table_snapshot)
        snapshot: Snapshot = await read(table_id=self.table_id, seat_id=self.viewer.seat)
        # Pass and play: the holder let go (the turn moved on after the tap) or the phone
        # started or stopped passing: read again with the eyes it has now (it settles as
        # soon as the seats and the turn stop moving between two reads).
        while self.viewer.heard_read(snapshot):
            snapshot = await read(table_id=self.table_id, seat_id=self.viewer.seat)
        await self.require_seat()
        if self.viewer.passing:
            snapshot["you"] = self.seat_id
        self.last_seq = snapshot["seq"]
        snapshot["online"] = await self._online(snapshot)  # issue 28: who has a page open
        await self.socket.send_json(self.viewer.with_phone(snapshot))

    async def _online(self, snapshot: Snapshot) -> list[int] | None:
        """The seats with an open page now (``None`` when the cache cannot say)."""
        try:
            return await presence_online(self.group, [seat["id"] for seat in snapshot["seats"]])
        except Exception:
            logger.warning("presence of %s not read", self.group, exc_info=True)
            return None

    async def resync(self, after: int, request_id: RequestId | None) -> None:
        """The events after seq ``after`` from the log up to this socket's seq (a snapshot
        when too many); what the log holds past it comes as news, with its screen."""
        async with self.sending:  # the reply goes out before any later news
            if self.is_host:
                # Pass and play: what the log holds past this socket's seq goes first, as
                # news (whose eyes it sees with settled from the turn there), so the turn
                # leaving the holder is heard as news and the hold does not outlive it.
                await self.send_missed()
            events = await database_sync_to_async(selectors.events_after)(
                table_id=self.table_id, after=after, viewer=self.viewer.name, limit=RESYNC_LIMIT + 1
            )
            await self.require_seat()
            if len(events) > RESYNC_LIMIT:
                await self.send_snapshot()
                return
            # The reply stops at this socket's seq (issue 37): news committed before the read
            # and still on its way to this socket would otherwise be old news when it came,
            # dropped, and a page that takes the reply as words only (the table page's
            # "hand-log") would stay behind with nothing to show it the gap.
            events = [event for event in events if event["seq"] <= self.last_seq]
            reply: dict[str, object] = {"type": "events", "events": events}
            if request_id is not None:
                reply["id"] = request_id
            await self.socket.send_json(self.viewer.with_phone(reply))

    def behind(self, latest: int) -> None:
        """The watcher read that the table's log is ahead of this socket: catch up (once at a time)."""
        if self.catching_up is None or self.catching_up.done():
            self.catching_up = asyncio.ensure_future(self._catch_up_to(latest))

    async def _catch_up_to(self, latest: int) -> None:
        try:
            await self.news_awaited(latest)
            async with self.sending:
                if latest > self.last_seq:
                    await self.send_missed()
        except SeatGone as gone:
            await self.seat_lost(gone.code)
        except Exception:  # the database is away: the next quiet spell tries again
            logger.warning("catching up %s failed", self.group, exc_info=True)

    async def catch_up(self) -> int:
        """Send what the log has after this socket's seq; returns the table's latest seq."""
        if self.watch is not None:
            latest = await self.watch.latest(self.table_id)  # read with the other pings of this moment
        else:
            latest = await database_sync_to_async(selectors.table_last_seq)(table_id=self.table_id)
        await self.news_awaited(latest)
        async with self.sending:
            if latest <= self.last_seq:
                return latest
            await self.send_missed()
        return max(latest, self.last_seq)

    async def news_awaited(self, latest: int) -> None:
        """Wait, at most ``IN_FLIGHT_SECONDS``, for the news up to seq ``latest``: a read of
        the log (the quiet watcher's, a ping's) that found this socket behind often ran just
        after a commit whose news was still on its way here, and reading what was missed
        from the log then costs a catch-up's queries for news that comes anyway (about 6%
        of the server's samples at 100 tables of 4 under load, docs/measurements/live-play.md).
        News really lost is read from the log once the wait is over."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + IN_FLIGHT_SECONDS
        while self.last_seq < latest:
            remaining = deadline - loop.time()
            if remaining <= 0:
                return
            heard = self.news_heard = loop.create_future()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(heard, remaining)

    def _heard(self) -> None:
        """This socket's seq moved on: a wait for news on its way looks again."""
        heard = self.news_heard
        if heard is not None and not heard.done():
            heard.set_result(None)

    async def send_missed(self) -> None:
        """The events after this socket's seq from the log, with its screen read at the same
        seq (news was lost on the way); a snapshot instead when too much was missed."""
        read = database_sync_to_async(what_viewers_see.table_catch_up)
        caught = await read(table_id=self.table_id, seat_id=self.viewer.seat, after=self.last_seq, limit=RESYNC_LIMIT)
        if caught is None:
            await self.send_snapshot()
            return
        events, screen = caught
        while self.viewer.heard_read(screen):
            # Read again with the eyes the socket has now (see send_snapshot).
            caught = await read(
                table_id=self.table_id, seat_id=self.viewer.seat, after=self.last_seq, limit=RESYNC_LIMIT
            )
            if caught is None:
                await self.send_snapshot()
                return
            events, screen = caught
        await self.require_seat()
        if events:
            self.last_seq = screen["seq"]
            self._heard()
            await self.socket.send_json(self._events_frame(events, screen))
            await self._close_if_banned(events)

    def _events_frame(self, events: Sequence[Mapping[str, object]], screen: CatchUpScreen) -> dict[str, Any]:
        return self.viewer.with_phone({"type": "events", "events": events, "screen": screen})

    # --- news ----------------------------------------------------------------------------

    async def news(self, message: TableEventsMessage) -> None:
        """News from the channel layer: the events in seq order, with this viewer's screen
        after them (``tables.what_viewers_see``). No query and no lock wait, unless news was lost on
        the way (a gap): then what was missed comes from the log."""
        if self.watch is not None:
            self.watch.heard(self.table_id)
        async with self.sending:
            frames = message["events"]
            if not frames or frames[-1]["seq"] <= self.last_seq:
                return  # old news: it came after a later message, or after a snapshot
            if frames[0]["seq"] > self.last_seq + 1:
                await self.send_missed()
                return
            sent = message.get("screen")
            # The screen after this news (None: none came with it, or not at its last seq).
            screen: NewsScreen | None = sent if sent is not None and sent["seq"] == frames[-1]["seq"] else None
            # Pass and play: whose eyes this news is filtered with is settled first.
            viewer_changed = self.viewer.heard_news(frames, screen)
            after, viewer = self.last_seq, self.viewer.name
            self.last_seq = frames[-1]["seq"]
            self._heard()
            # Only news of a ban (or of a guest's seat moved to another browser) needs the
            # events as this viewer sees them here.
            banned = [
                selectors.frame_for_viewer(frame, viewer)
                for frame in frames
                if frame.get("kind") in SEAT_GONE_KINDS and frame["seq"] > after
            ]
            if viewer_changed and (screen is None or "hand" not in screen):
                # The page holds a hand seen with other eyes and this news does not replace it.
                await self.send_snapshot()
                await self._close_if_banned(banned)
                return
            # The frame's text, its parts encoded once for every socket of the table (tables.live.news_frames).
            text = news_text(message, after=after, viewer=viewer)
            phone = self.viewer.phone_public()
            if phone is not None:
                text = text_with(text, "phone", phone)
            await self.socket.send(text_data=text)
            if screen is None:
                await self.send_snapshot()  # news without a screen (not sent by this version): read it
            await self._close_if_banned(banned)

    # --- the seat lost -------------------------------------------------------------------

    async def _close_if_banned(self, events: Sequence[Mapping[str, Any]]) -> None:
        """The log says this seat was banned (the layer's own word may have been lost), or
        (issue 28) its guest's seat link was opened in another browser: go. A socket opened
        after the move never sees that news (its snapshot is past it)."""
        for event in events:
            if event.get("kind") in SEAT_GONE_KINDS and event.get("data", {}).get("seat") == self.seat_id:
                self.closing = True
                moved = event.get("kind") == "seat_moved"
                await self.socket.close(code=CLOSE_SEAT_MOVED if moved else CLOSE_FORBIDDEN)
                return

    async def require_seat(self) -> None:
        """After every read, before what it read is sent (issue 34): the seat is still this
        socket's, or :class:`SeatGone`. A read moves the socket's seq past the news it covers,
        and news of a move then arrives as old news: only this check would see it."""
        gone = await database_sync_to_async(selectors.seat_gone)(seat_id=self.seat_id, guest_token=self.holder_token)
        if gone is not None:
            raise SeatGone(gone)

    async def seat_lost(self, code: str, *, told: bool = False) -> None:
        """The seat is not this socket's any more: say why (unless ``told``) and close, as the
        news of a ban or a move would have."""
        if self.closing:
            return
        self.closing = True
        if not told:
            await self.error(code, SEAT_GONE_CODES[code])
        await self.socket.close(code=CLOSE_SEAT_MOVED if code == "seat_moved" else CLOSE_FORBIDDEN)

    async def error(self, code: str, message: str | StrPromise, request_id: RequestId | None = None) -> None:
        await self.socket.send_json(error_frame(code, message, request_id))
