"""Whether a seat's page is in view (issue 28): no push reminder is sent while it is.

Beside the open-page count of ``tables.live.presence`` (the socket side counts both), a
second count per seat in Django's cache: its sockets whose page last said it is visible (the
page reports ``document.visibilityState`` over the socket; ``tables.live.consumers``). The
push sender (``tables.push``) reads it; it lives here, below the socket transport, so the
sender needs nothing of ``tables.live``. The same limits as the open count: a cache emptied
reads as "not in view" (a push may reach a page that is open); a process that dies with
visible pages leaves their count up until the key expires (:data:`VISIBLE_TTL`).

Not to be confused with who may see an event (``tables.selectors.event_visible``): this
module knows only whether a page is on screen.
"""

from __future__ import annotations

from django.core.cache import cache

#: A count nobody touched for this long is dropped (as ``tables.live.presence.PRESENCE_TTL``).
VISIBLE_TTL = 6 * 3600


def _visible_key(table: str, seat_id: int) -> str:
    return f"dashain:visible:{table}:{seat_id}"


async def visible_change(table: str, seat_id: int, visible: bool) -> None:
    """One socket of this seat now shows its page (``visible``) or no longer does. The
    caller calls it only when its own socket's state changes."""
    key = _visible_key(table, seat_id)
    if visible:
        if not await cache.aadd(key, 1, timeout=VISIBLE_TTL):
            try:
                await cache.aincr(key)
                await cache.atouch(key, VISIBLE_TTL)
            except ValueError:
                await cache.aadd(key, 1, timeout=VISIBLE_TTL)
        return
    try:
        if await cache.adecr(key) <= 0:
            await cache.adelete(key)
    except ValueError:
        pass


def seat_visible(table: str, seat_id: int) -> bool:
    """Whether a page of this seat is open and visible now (sync: the push sender's)."""
    return (cache.get(_visible_key(table, seat_id)) or 0) > 0
