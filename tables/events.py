"""The event log's frames: one event as it travels to the sockets and to the history pages.

:func:`event_frame` is the one shape of an event outside the database (visibility still
attached); ``tables.selectors.frame_for_viewer`` then keeps what one viewer may see.
"""

from __future__ import annotations

from typing import Any

from tables.models import Event


def event_frame(event: Event | dict[str, Any]) -> dict[str, Any]:
    """The message sent through the channel layer for one event (visibility still attached)."""
    if isinstance(event, dict):
        return event
    return {
        "seq": event.seq,
        "kind": event.kind,
        "hand": event.payload.get("_hand"),
        "data": {k: v for k, v in event.payload.items() if k != "_hand"},
        "visible_to": event.visible_to,
    }
