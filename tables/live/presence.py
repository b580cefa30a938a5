"""Who has the table open (issue 28): a seat shows when its player has no open page.

Each seat's count of open sockets lives in Django's cache (Redis when ``REDIS_URL`` is
set, so every daphne process shares it; the process's memory in the one-process home
setup): a socket adds one when it opens and takes one away when it closes. When a seat's
count goes from 0 to 1 or from 1 to 0, the table's sockets are told (``seat.presence``),
and every snapshot carries the seats connected now (``online``).

A count rather than the log: whether a page is open is not a fact of the game, changes
every time a phone sleeps, and must cost no write. Losing the counts (the cache emptied)
shows everyone offline until their page reconnects or sends its heartbeat. A server
process that dies without closing its sockets leaves their counts up until the key
expires (``PRESENCE_TTL``): such a seat reads as connected for that long at most.

Whether an open page is also in view (no push reminder then) is counted beside it, in
``tables.page_in_view`` (below the socket transport, so the push sender reads it too);
:func:`visible_change` is the socket's side of it.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable

from django.core.cache import cache

from tables.page_in_view import visible_change

__all__ = ["PageCounts", "presence_close", "presence_online", "presence_open", "visible_change"]

logger = logging.getLogger(__name__)

#: A count nobody touched for this long is dropped (see the module's last paragraph).
PRESENCE_TTL = 6 * 3600


def _key(table: str, seat_id: int) -> str:
    """``table``: the table's channel-layer group name (its id and its random code, so two
    databases sharing one cache never cross)."""
    return f"dashain:presence:{table}:{seat_id}"


async def presence_open(table: str, seat_id: int) -> bool:
    """One more open socket of this seat; returns whether it was offline until now."""
    key = _key(table, seat_id)
    if await cache.aadd(key, 1, timeout=PRESENCE_TTL):
        return True
    try:
        count = await cache.aincr(key)
    except ValueError:  # expired between the two calls
        await cache.aadd(key, 1, timeout=PRESENCE_TTL)
        return True
    await cache.atouch(key, PRESENCE_TTL)
    return count == 1


async def presence_close(table: str, seat_id: int) -> bool:
    """One socket of this seat fewer; returns whether none is left open."""
    key = _key(table, seat_id)
    try:
        count = await cache.adecr(key)
    except ValueError:  # never counted, or expired: nothing open that we know of
        return True
    if count <= 0:
        await cache.adelete(key)
        return True
    return False


async def presence_online(table: str, seat_ids: list[int]) -> list[int]:
    """The seats among ``seat_ids`` with at least one open socket, in the order given."""
    counts = await cache.aget_many([_key(table, seat_id) for seat_id in seat_ids])
    return [seat_id for seat_id in seat_ids if (counts.get(_key(table, seat_id)) or 0) > 0]


class PageCounts:
    """One socket's part in its seat's counts: its page open (told to the table through
    ``announce``, the channel layer's send to the table's group) and in view. Each count
    changes only on a change of this socket's own, and a cache or layer that is away
    only leaves the seat shown as before."""

    def __init__(self, table: str, seat_id: int, announce: Callable[[dict[str, object]], Awaitable[None]]) -> None:
        self.table = table
        self.seat_id = seat_id
        self.announce = announce
        self.present = False
        self.visible = False

    async def open(self) -> None:
        """Count this socket open; the table hears when its seat comes online."""
        try:
            online = await presence_open(self.table, self.seat_id)
            self.present = True
            if online:
                await self.announce({"type": "seat.presence", "seat": self.seat_id, "online": True})
        except Exception:
            logger.warning("presence of %s not counted", self.table, exc_info=True)

    async def close(self) -> None:
        """Count this socket closed (and its page out of view); the table hears when its
        seat has no page left open."""
        await self.visible_set(False)
        if not self.present:
            return
        self.present = False
        try:
            if await presence_close(self.table, self.seat_id):
                await self.announce({"type": "seat.presence", "seat": self.seat_id, "online": False})
        except Exception:
            logger.warning("presence of %s not uncounted", self.table, exc_info=True)

    async def visible_set(self, visible: bool) -> None:
        """Count this socket's page as in view or not (issue 28: no push while it is)."""
        if visible == self.visible:
            return
        self.visible = visible
        try:
            await visible_change(self.table, self.seat_id, visible)
        except Exception:  # the cache is away: a push may be sent to a page in view
            logger.warning("visibility of %s not counted", self.table, exc_info=True)
