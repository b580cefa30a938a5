"""The site's channel layers, on the published API of Channels and channels-redis alone.

With Redis, :class:`PubSubLayer`: ``channels_redis.pubsub.RedisPubSubChannelLayer`` (one
Redis subscription per group per process, so a group's message reaches each process once)
whose one override is its public ``deserialize``: it decodes each distinct message once
per process, not once per socket. A table's news carries every view of the hand
(``tables.screens``), so at a table of 4 that was 4 decodings of the same few kilobytes
per action (measured with ``benchmarks/live_load.py --py-spy``, about a tenth of the time
the process held the GIL). A received message is therefore read-only: handlers build
their own replies from it and never change it (``tables.live.consumers`` does not).

Without Redis, :class:`InMemoryLayer`: Channels' in-memory layer, which may be sent to
from any thread. Its queues belong to the event loop of the socket that made each
channel, and an asyncio queue may be touched from its own loop only; so a send made on
another loop (a thread's ``async_to_sync``: the in-process Celery worker, the clock's
sweep) is handed to the loop of each channel it goes to. The layer knows these loops
because it made the channels; nothing else keeps an event loop.

Until issue 37 the Redis layer also delivered a group message to its own process's
sockets at the send and published many messages in one round trip, by replacing
channels-redis' private receive handler and reading its shards and locks: a minor release
could have broken delivery with no error. ``tests/config/test_published_api.py`` keeps
every name starting with ``_`` from Channels and channels-redis out of the project.
"""

from __future__ import annotations

import asyncio
import threading
from collections import OrderedDict
from typing import Any

from channels.layers import InMemoryChannelLayer
from channels_redis.pubsub import RedisPubSubChannelLayer  # type: ignore[import-untyped]  # no type hints


class PubSubLayer(RedisPubSubChannelLayer):  # type: ignore[misc]  # its base is untyped
    """channels-redis' pub/sub layer that decodes the bytes of a message once, not once per socket."""

    # The sockets of one group take a message from their queues within a few loop turns;
    # the last few hundred distinct messages are kept for them.
    decoded_kept = 256

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.decoded: OrderedDict[bytes, dict[str, Any]] = OrderedDict()
        self.decoded_lock = threading.Lock()

    def deserialize(self, message: bytes) -> dict[str, Any]:
        # Keyed by the bytes themselves (their hash is computed once and kept by the bytes
        # object), so equal bytes always decode to the message they encode.
        with self.decoded_lock:
            kept = self.decoded.get(message)
        if kept is not None:
            return kept
        decoded: dict[str, Any] = super().deserialize(message)
        with self.decoded_lock:
            self.decoded[message] = decoded
            while len(self.decoded) > self.decoded_kept:
                self.decoded.popitem(last=False)
        return decoded


class InMemoryLayer(InMemoryChannelLayer):  # type: ignore[misc]  # its base is untyped
    """Channels' in-memory layer, safe to send to from any thread (see the module's doc)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.homes: dict[str, asyncio.AbstractEventLoop] = {}  # a channel -> the loop it was made on
        self.members: dict[str, set[str]] = {}  # a group -> its channels
        self.lock = threading.Lock()

    async def new_channel(self, prefix: str = "specific.") -> str:
        channel: str = await super().new_channel(prefix)
        with self.lock:
            self.homes[channel] = asyncio.get_running_loop()
        return channel

    async def group_add(self, group: str, channel: str) -> None:
        await super().group_add(group, channel)
        with self.lock:
            self.members.setdefault(group, set()).add(channel)

    async def group_discard(self, group: str, channel: str) -> None:
        await super().group_discard(group, channel)
        with self.lock:
            channels = self.members.get(group)
            if channels is not None:
                channels.discard(channel)
                if not channels:
                    del self.members[group]
            if not any(channel in others for others in self.members.values()):
                self.homes.pop(channel, None)

    async def flush(self) -> None:
        await super().flush()
        with self.lock:
            self.homes.clear()
            self.members.clear()

    async def send(self, channel: str, message: dict[str, Any]) -> None:
        home = self._home_elsewhere(channel)
        if home is None:
            await super().send(channel, message)
        else:
            self._send_at(home, channel, message)

    async def group_send(self, group: str, message: dict[str, Any]) -> None:
        self.require_valid_group_name(group)
        with self.lock:
            channels = sorted(self.members.get(group, ()))
        elsewhere = {channel: self._home_elsewhere(channel) for channel in channels}
        if not any(elsewhere.values()):
            await super().group_send(group, message)
            return
        for channel, home in elsewhere.items():
            if home is None:
                await self.send_here(channel, message)
            else:
                self._send_at(home, channel, message)

    async def send_here(self, channel: str, message: dict[str, Any]) -> None:
        """Channels' own send, on the running loop; a full channel drops the message, as
        Channels' ``group_send`` does."""
        try:
            await super().send(channel, message)
        except self.ChannelFull:
            pass

    def _home_elsewhere(self, channel: str) -> asyncio.AbstractEventLoop | None:
        """The loop ``channel`` lives on when that is another, still open, loop; else None."""
        with self.lock:
            home = self.homes.get(channel)
        if home is None or home.is_closed():
            return None
        try:
            running = asyncio.get_running_loop()
        except RuntimeError:
            running = None
        return None if home is running else home

    def _send_at(self, home: asyncio.AbstractEventLoop, channel: str, message: dict[str, Any]) -> None:
        """Hand the send to ``home``'s thread, in the order handed over; nobody waits for it."""
        try:
            asyncio.run_coroutine_threadsafe(self.send_here(channel, message), home)
        except RuntimeError:  # the loop closed meanwhile: its sockets are gone
            pass
