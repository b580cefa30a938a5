"""The news of a table: what a write sends the sockets after its commit, from any thread.

The news is not the record: the channel layer may drop it, and each socket fills a gap
from the log (``tables.live.consumers``). This module sends it (:func:`broadcast`,
:func:`layer_send`) and knows the web server's event loop (:func:`remember_server_loop`,
which a socket's ``connect`` calls), so the server's other threads hand their sends to it.
It sits below both the services, which send after their commit (``tables.services.log``),
and the consumer, which registers its loop: neither reaches into the other for it.
"""

from __future__ import annotations

import asyncio
import logging
import threading
import weakref
from collections.abc import Mapping
from typing import Any

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer

from tables.messages import EventFrame, NewsScreen, TableEventsMessage

logger = logging.getLogger(__name__)

# The event loop of the web server, remembered by the first socket that connects, so the
# server's other threads (services run for sockets, the in-process Celery worker) can hand
# it their layer sends: the in-memory channel layer is not thread-safe and must be used
# from that loop only, and no thread waits for a send (see layer_send).
_server_loop: asyncio.AbstractEventLoop | None = None
_server_loop_thread: int | None = None
_server_loop_lock = threading.Lock()


def remember_server_loop(loop: asyncio.AbstractEventLoop) -> None:
    """Called from the loop's own thread (a consumer's ``connect``)."""
    global _server_loop, _server_loop_thread
    if _server_loop is loop:
        return
    with _server_loop_lock:
        _server_loop = loop
        _server_loop_thread = threading.get_ident()


def broadcast(group: str, frames: list[EventFrame], screen: NewsScreen | None = None) -> None:
    """Send ``frames`` (and the ``screen`` after them, see ``tables.screens``) to every socket
    of the table; each keeps what its viewer may see."""
    if frames:
        message: TableEventsMessage = {"type": "table.events", "events": frames}
        if screen is not None:
            message["screen"] = screen
        layer_send(group, message)


def layer_send(group: str, message: Mapping[str, Any]) -> None:
    """Send ``message`` to a channel-layer group from any thread; a failure is logged, not raised.

    From a thread of the web server (a service run for a socket, the in-process worker)
    the send is handed to the server's loop and this returns at once: the loop's
    :class:`_Publisher` sends the messages in the order they were handed over (so a
    table's news keeps its order), all that are waiting in one round trip. Before, each
    thread waited for its own send (``async_to_sync``), and channels-redis publishes one
    message at a time per connection: under load a database thread waited in that line
    for every action (docs/live-play.md). Elsewhere (a management command, a Celery
    worker process) the send is made before returning.
    """
    layer = get_channel_layer()
    if layer is None:
        return
    loop, loop_thread = _server_loop, _server_loop_thread
    try:
        if loop is not None and loop.is_running() and threading.get_ident() != loop_thread:
            loop.call_soon_threadsafe(_publisher_send, loop, group, message)
        else:
            async_to_sync(layer.group_send)(group, message)
    except Exception:  # the log is the truth; a lost broadcast is caught up by the sockets
        logger.exception("group send to %s failed", group)


class _Publisher:
    """The layer sends handed to one event loop, made in the order received. All that wait
    go out together (``group_send_many`` when the layer has it: one round trip to Redis)."""

    # Past this many waiting sends (the layer is stuck), news is dropped, as the layer
    # itself may drop it: each socket fills the gap from the log.
    max_waiting = 10_000

    def __init__(self) -> None:
        self.waiting: list[tuple[str, Mapping[str, Any]]] = []
        self.task: asyncio.Task[None] | None = None

    def send(self, group: str, message: Mapping[str, Any]) -> None:
        if len(self.waiting) >= self.max_waiting:
            logger.warning("%d layer sends waiting: news to %s dropped", len(self.waiting), group)
            return
        self.waiting.append((group, message))
        if self.task is None or self.task.done():
            self.task = asyncio.ensure_future(self._run())

    async def _run(self) -> None:
        while self.waiting:
            sends, self.waiting = self.waiting, []
            layer = get_channel_layer()
            try:
                send_many = getattr(layer, "group_send_many", None)
                if send_many is not None:
                    await send_many(sends)
                elif layer is not None:
                    for group, message in sends:
                        await layer.group_send(group, message)
            except Exception:  # the log is the truth; a lost broadcast is caught up by the sockets
                logger.exception("group sends to %s failed", sorted({group for group, _ in sends}))


_publishers: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, _Publisher] = weakref.WeakKeyDictionary()


def _publisher_send(loop: asyncio.AbstractEventLoop, group: str, message: Mapping[str, Any]) -> None:
    """On ``loop``'s own thread: queue the send with the loop's publisher."""
    publisher = _publishers.get(loop)
    if publisher is None:
        publisher = _publishers[loop] = _Publisher()
    publisher.send(group, message)
