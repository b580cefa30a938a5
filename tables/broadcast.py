"""The broadcast of a table's news: what a write sends the sockets after its commit, from any thread.

The news is not the record: the channel layer may drop it, and each socket fills a gap
from the log (``tables.live.consumers``). This module sends it (:func:`broadcast`,
:func:`layer_send`). It sits below both the services, which send after their commit
(``tables.services.log``), and the consumer: neither reaches into the other for it.

It keeps no event loop: the layer knows the loops its sockets live on
(``config.channel_layer``). Otherwise asgiref's ``async_to_sync`` sends: from a service
run for a socket on the server's loop that started its thread, from any other thread (the
clock's sweep, a management command, a Celery worker process) on a loop of its own.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from typing import Any

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer

from tables.messages import EventFrame, NewsScreen, TableEventsMessage

logger = logging.getLogger(__name__)


def broadcast(group: str, frames: list[EventFrame], screen: NewsScreen | None = None) -> None:
    """Send ``frames`` (and the ``screen`` after them, see ``tables.what_viewers_see``) to every socket
    of the table; each keeps what its viewer may see."""
    if frames:
        message: TableEventsMessage = {"type": "table.events", "events": frames}
        if screen is not None:
            message["screen"] = screen
        layer_send(group, message)


def layer_send(group: str, message: Mapping[str, Any]) -> None:
    """Send ``message`` to a channel-layer group from a thread (never from an event loop's
    own thread); a failure is logged, not raised. A table's sends, made one after the
    other by the writes that hold its lock in turn, go out in that order.

    The site's layers (``config.channel_layer``) take a thread's send without making it
    wait (``group_send_soon``: handed to the loops its sockets live on). Before, each
    service thread waited for its own publish, and its wake-up alone was ~10% of the event
    loop's GIL samples under load (docs/measurements/live-play.md). channels-redis' layer
    has no such call: there the thread waits (``async_to_sync``)."""
    layer = get_channel_layer()
    if layer is None:
        return
    try:
        # Looked up on the class: channels-redis' layer hands any unknown name to its loop's part.
        if hasattr(type(layer), "group_send_soon") and layer.group_send_soon(group, dict(message)):
            return
        async_to_sync(layer.group_send)(group, dict(message))
    except Exception:  # the log is the truth; a lost broadcast is caught up by the sockets
        logger.exception("group send to %s failed", group)
