"""The broadcast of a table's news: what a write sends the sockets after its commit, from any thread.

The news is not the record: the channel layer may drop it, and each socket fills a gap
from the log (``tables.live.consumers``). This module sends it (:func:`broadcast`,
:func:`layer_send`). It sits below both the services, which send after their commit
(``tables.services.log``), and the consumer: neither reaches into the other for it.

It keeps no event loop. A service run for a socket runs in a thread that Channels started
from the server's loop (``database_sync_to_async``), and asgiref's ``async_to_sync`` runs
the send back on that loop; from any other thread (the in-process Celery worker, the
clock's sweep, a management command, a Celery worker process) it runs on a loop of its
own, and the layer delivers to the loops its sockets live on (``config.channel_layer``).
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
    """Send ``frames`` (and the ``screen`` after them, see ``tables.screens``) to every socket
    of the table; each keeps what its viewer may see."""
    if frames:
        message: TableEventsMessage = {"type": "table.events", "events": frames}
        if screen is not None:
            message["screen"] = screen
        layer_send(group, message)


def layer_send(group: str, message: Mapping[str, Any]) -> None:
    """Send ``message`` to a channel-layer group from a thread (never from an event loop's
    own thread); a failure is logged, not raised. Returns once the layer has it: a
    table's sends, made one after the other by the writes that hold its lock in turn, go
    out in that order."""
    layer = get_channel_layer()
    if layer is None:
        return
    try:
        async_to_sync(layer.group_send)(group, dict(message))
    except Exception:  # the log is the truth; a lost broadcast is caught up by the sockets
        logger.exception("group send to %s failed", group)
