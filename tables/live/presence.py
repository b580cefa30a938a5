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

from django.core.cache import cache

from tables.page_in_view import visible_change

__all__ = ["presence_close", "presence_online", "presence_open", "visible_change"]

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
