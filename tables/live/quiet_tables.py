"""One watcher per process for tables whose news has gone quiet.

The channel layer may drop a broadcast, and a socket sees a gap only when later news
arrives; so when a table has had no news for ``quiet_seconds`` someone must ask the log
for the table's latest seq. Asking once per socket costs a query per socket every few
seconds: at 100 tables of 4 that is 80 reads a second through the one thread Channels
runs database calls in, and it starves the actions themselves (measured in
``docs/live-play.md``). So the sockets of one process share this watcher: it keeps, per
table, the sockets open here and when news last came, and on each tick reads the latest
seq of every quiet table in **one** query. Only a socket that really is behind then
reads what it missed from the log.

The page's ``ping`` asks the same question for one socket (``TableWatch.latest``). Pages that
opened together ping together (every page of a process after a restart, or a benchmark's
400), so the asks that arrive while a read is under way wait for the next one and share it:
one query for all of them, not one thread hop and query each (``docs/measurements/live-play.md``,
"Pings read together").

The watcher lives on the server's event loop (one per loop, so tests with a loop each
stay apart) and stops when its last socket leaves.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Awaitable, Callable
from typing import Protocol

logger = logging.getLogger(__name__)


class QuietSocket(Protocol):
    """What the watcher needs of a socket (``tables.live.session.TableSession``)."""

    last_seq: int

    def behind(self, latest: int) -> None: ...


class TableWatch:
    """The tables with sockets on one event loop, and when each last had news."""

    def __init__(
        self,
        *,
        latest_seqs: Callable[[list[int]], Awaitable[dict[int, int]]],
        quiet_seconds: Callable[[], float],
    ) -> None:
        self.latest_seqs = latest_seqs
        self.quiet_seconds = quiet_seconds
        self.sockets: dict[int, set[QuietSocket]] = {}
        self.news_at: dict[int, float] = {}
        self.task: asyncio.Task[None] | None = None
        self.reads = 0  # how many times the log was asked (one query each), for tests
        # The pings' asks not yet read: table -> the future its askers wait on.
        self.asked: dict[int, asyncio.Future[int]] = {}
        self.answering: asyncio.Task[None] | None = None

    def join(self, table_id: int, socket: QuietSocket) -> None:
        self.sockets.setdefault(table_id, set()).add(socket)
        self.news_at.setdefault(table_id, time.monotonic())
        if self.task is None or self.task.done():
            self.task = asyncio.ensure_future(self._run())

    def leave(self, table_id: int, socket: QuietSocket) -> None:
        sockets = self.sockets.get(table_id)
        if sockets is None:
            return
        sockets.discard(socket)
        if not sockets:
            del self.sockets[table_id]
            self.news_at.pop(table_id, None)

    def heard(self, table_id: int) -> None:
        """News of the table reached this process: it is not quiet."""
        if table_id in self.news_at:
            self.news_at[table_id] = time.monotonic()

    async def latest(self, table_id: int) -> int:
        """The seq of the table's latest event, read after this call began, in one query with
        every other ask made before that read starts (a ``ping``'s question)."""
        waiting = self.asked.get(table_id)
        if waiting is None:
            waiting = self.asked[table_id] = asyncio.get_running_loop().create_future()
        if self.answering is None or self.answering.done():
            self.answering = asyncio.ensure_future(self._answer())
        # Shielded: one asker's socket closing must not cancel the others' answer.
        return await asyncio.shield(waiting)

    async def _answer(self) -> None:
        while self.asked:
            batch, self.asked = self.asked, {}
            try:
                self.reads += 1
                latest = await self.latest_seqs(list(batch))
            except Exception as error:  # the askers see the read's own error (the database away)
                for waiting in batch.values():
                    if not waiting.done():
                        waiting.set_exception(error)
                        waiting.exception()  # an asker that has left leaves nothing unretrieved
                continue
            for table_id, waiting in batch.items():
                if not waiting.done():
                    waiting.set_result(latest.get(table_id, 0))

    async def _run(self) -> None:
        while self.sockets:
            await asyncio.sleep(min(max(self.quiet_seconds() / 2, 0.05), 1.0))
            await self.sweep(time.monotonic())

    async def sweep(self, now: float) -> None:
        """One look at the tables quiet at ``now`` (``time.monotonic()``'s clock: no news for
        ``quiet_seconds``): their latest seqs in one query, and each socket behind one of
        them starts its catch-up. The watcher's loop calls it every half ``quiet_seconds``
        (at most 1 s); a test calls it with a ``now`` of its own."""
        quiet_seconds = self.quiet_seconds()
        quiet = [table_id for table_id, at in self.news_at.items() if now - at >= quiet_seconds]
        if not quiet:
            return
        for table_id in quiet:
            self.news_at[table_id] = now
        try:
            self.reads += 1
            latest = await self.latest_seqs(quiet)
        except Exception:  # the database is away: try again after the next quiet spell
            logger.warning("reading the latest seq of %d quiet tables failed", len(quiet), exc_info=True)
            return
        for table_id in quiet:
            seq = latest.get(table_id, 0)
            for socket in list(self.sockets.get(table_id, ())):
                if seq > socket.last_seq:
                    socket.behind(seq)


_watches: dict[asyncio.AbstractEventLoop, TableWatch] = {}


def watch_for_loop(
    *,
    latest_seqs: Callable[[list[int]], Awaitable[dict[int, int]]],
    quiet_seconds: Callable[[], float],
) -> TableWatch:
    """The watcher of the running loop (made on first use; loops that have closed are forgotten)."""
    loop = asyncio.get_running_loop()
    for old in [old for old in _watches if old.is_closed()]:
        with contextlib.suppress(KeyError):
            del _watches[old]
    watch = _watches.get(loop)
    if watch is None:
        watch = _watches[loop] = TableWatch(latest_seqs=latest_seqs, quiet_seconds=quiet_seconds)
    return watch
