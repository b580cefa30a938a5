"""The site's channel layers, on the published API of Channels and channels-redis alone.

With Redis, :class:`PubSubLayer`: ``channels_redis.pubsub.RedisPubSubChannelLayer`` (one
Redis subscription per group per process, so a group's message reaches each process once)
whose one override is its public ``deserialize``: it decodes each distinct message once
per process, not once per socket. A table's news carries every view of the hand
(``tables.what_viewers_see``), so at a table of 4 that was 4 decodings of the same few kilobytes
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
import contextlib
import logging
import os
import threading
import uuid
import weakref
from collections import OrderedDict
from typing import Any

import msgpack  # type: ignore[import-untyped]  # no type hints
import redis.asyncio
from channels.layers import InMemoryChannelLayer
from channels_redis.pubsub import RedisPubSubChannelLayer  # type: ignore[import-untyped]  # no type hints

logger = logging.getLogger(__name__)


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

    def group_send_soon(self, group: str, message: dict[str, Any]) -> bool:
        """From a thread with no event loop, without waiting: the message handed to the loop of
        each socket of the group, in the order handed over. False when the group has none."""
        self.require_valid_group_name(group)
        with self.lock:
            homes = [(channel, self.homes.get(channel)) for channel in sorted(self.members.get(group, ()))]
        for channel, home in homes:
            if home is not None and not home.is_closed():
                self._send_at(home, channel, message)
        return any(home is not None for _, home in homes)

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


#: The first byte of a group message :class:`HereFirstLayer` published: 0xc1 is never the
#: first byte of msgpack. The 16 random bytes after it name the process (the layer) that sent it.
ORIGIN_MARK = b"\xc1"
ORIGIN_BYTES = len(ORIGIN_MARK) + 16


class HereFirstLayer:
    """A channel layer of our own on redis-py's public API (``DASHAIN_CHANNEL_LAYER=here-first``).

    Like channels-redis' pub/sub layer, one Redis subscription per group per event loop,
    so a group's message reaches each process once. Beyond it:

    - **here first**: :meth:`group_send` puts the message in the queues of this process's
      own sockets of the group at the send (on each loop they live on), then publishes it
      for the other processes, marked with this process's origin; hearing its own message
      back from Redis, the process leaves it;
    - **no thread waits**: :meth:`group_send_soon` hands a thread's send to the loops the
      sockets live on and returns (``tables.broadcast``);
    - **batched**: what is sent while a publish is on its way goes out in one pipelined
      round trip, in the order sent, and the sender does not wait for Redis;
    - **decoded once**: a message from Redis is decoded once and the same (read-only)
      message is put in each socket's queue;
    - **subscribed before** :meth:`group_add` **returns**: it waits for Redis' confirmation
      of the group's subscription, so whatever is published after it returns reaches the
      socket. channels-redis returns once the SUBSCRIBE is written, and a socket that reads
      its snapshot next could miss the news published before Redis read it.

    A socket's own channel is ``<prefix><kind><loop>!<id>``: one Redis subscription per
    loop, ``<prefix>loop.<loop>``, carries what is sent to any of its channels.
    """

    extensions = ["groups", "flush"]

    def __init__(
        self, hosts: list[dict[str, Any]] | None = None, prefix: str = "asgi", capacity: int = 100, **kwargs: Any
    ) -> None:
        host = dict((hosts or [{"address": "redis://127.0.0.1:6379"}])[0])
        self.address = str(host.pop("address"))
        self.connection_options = host
        self.prefix = prefix
        self.capacity = capacity
        self.confirm_seconds = 10.0
        self.origin = ORIGIN_MARK + os.urandom(16)
        self.loops: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, _Here] = weakref.WeakKeyDictionary()
        self.loops_lock = threading.Lock()  # other threads list the loops (group_send_soon)
        self.decoded: OrderedDict[bytes, Any] = OrderedDict()
        self.decoded_kept = 256
        self.decoded_lock = threading.Lock()

    # --- encoding -------------------------------------------------------------------

    def serialize(self, message: Any) -> bytes:
        data: bytes = msgpack.packb(message, use_bin_type=True)
        return data

    def deserialize(self, data: bytes) -> Any:
        """``data`` decoded; equal bytes decode to the one message they encode (kept for a while)."""
        if data[:1] == ORIGIN_MARK:
            data = data[ORIGIN_BYTES:]
        with self.decoded_lock:
            kept = self.decoded.get(data)
        if kept is not None:
            return kept
        decoded = msgpack.unpackb(data, raw=False)
        with self.decoded_lock:
            self.decoded[data] = decoded
            while len(self.decoded) > self.decoded_kept:
                self.decoded.popitem(last=False)
        return decoded

    def group_channel(self, group: str) -> str:
        return f"{self.prefix}__group__{group}"

    def client(self) -> redis.asyncio.Redis:
        client: redis.asyncio.Redis = redis.asyncio.Redis.from_url(self.address, **self.connection_options)
        return client

    async def here(self) -> _Here:
        """This loop's sockets and connections (made, and its channel subscribed, on first use)."""
        loop = asyncio.get_running_loop()
        here = self.loops.get(loop)
        if here is None:
            with self.loops_lock:
                here = self.loops[loop] = _Here(self)
        await here.ready()
        return here

    # --- the channel layer API ----------------------------------------------------------

    async def new_channel(self, prefix: str = "specific.") -> str:
        here = await self.here()
        channel = f"{self.prefix}{prefix}{here.name}!{uuid.uuid4().hex}"
        here.channels[channel] = asyncio.Queue(maxsize=self.capacity)
        return channel

    async def receive(self, channel: str) -> Any:
        here = await self.here()
        queue = here.channels.get(channel)
        if queue is None:
            raise RuntimeError(f"{channel} is not a channel of this event loop (made by new_channel here)")
        try:
            return await queue.get()
        except asyncio.CancelledError:  # Channels stops a consumer by cancelling its receive
            here.channel_gone(channel)
            raise

    async def send(self, channel: str, message: dict[str, Any]) -> None:
        local, mark, _ = channel.rpartition("!")
        if not mark or len(local) < 16:
            raise ValueError(f"{channel} is not a channel this layer made")
        here = self.loops.get(asyncio.get_running_loop())
        if here is not None and channel in here.channels:
            here.put(channel, message)
            return
        name, data = self.loop_channel(local[-16:]), self.serialize([channel, message])
        if here is not None and here.started:
            here.publish(name, data)
            return
        async with self.client() as client:
            await client.publish(name, data)

    def loop_channel(self, loop_name: str) -> str:
        """The Redis channel of the sockets' own channels of one loop (named ``loop_name``)."""
        return f"{self.prefix}loop.{loop_name}"

    async def group_add(self, group: str, channel: str) -> None:
        here = await self.here()
        if channel not in here.channels:
            raise RuntimeError(f"{channel} is not a channel of this event loop (made by new_channel here)")
        await here.join(self.group_channel(group), channel)

    async def group_discard(self, group: str, channel: str) -> None:
        here = self.loops.get(asyncio.get_running_loop())
        if here is not None:
            await here.leave(self.group_channel(group), channel)

    async def group_send(self, group: str, message: dict[str, Any]) -> None:
        name = self.group_channel(group)
        data = self.origin + self.serialize(message)
        self.put_here(name, message)
        here = self.loops.get(asyncio.get_running_loop())
        if here is not None and here.started:
            here.publish(name, data)
            return
        # A loop with no socket (a thread's async_to_sync, a worker process): publish and go.
        async with self.client() as client:
            await client.publish(name, data)

    def group_send_soon(self, group: str, message: dict[str, Any]) -> bool:
        """From any thread, without waiting: :meth:`group_send` made on the loops this
        process's sockets live on, in the order handed over. False (nothing done) when this
        process has no socket: then send with :meth:`group_send`."""
        loops = self.started_loops()
        if not loops:
            return False
        name = self.group_channel(group)
        data = self.origin + self.serialize(message)
        self.put_here(name, message)
        publisher, here = loops[0]
        try:
            publisher.call_soon_threadsafe(here.publish, name, data)
        except RuntimeError:  # that loop closed meanwhile
            return False
        return True

    def started_loops(self) -> list[tuple[asyncio.AbstractEventLoop, _Here]]:
        with self.loops_lock:
            loops = list(self.loops.items())
        return [(loop, here) for loop, here in loops if here.started and not loop.is_closed()]

    def put_here(self, name: str, message: Any) -> None:
        """Put ``message`` in the queue of each socket of this process in the group ``name``,
        on the loop it lives on."""
        try:
            running: asyncio.AbstractEventLoop | None = asyncio.get_running_loop()
        except RuntimeError:
            running = None
        for loop, here in self.started_loops():
            if loop is running:
                here.put_in_group(name, message)
            else:
                with contextlib.suppress(RuntimeError):  # that loop closed meanwhile
                    loop.call_soon_threadsafe(here.put_in_group, name, message)

    async def flush(self) -> None:
        """Forget this loop's channels and groups and close its connections."""
        with self.loops_lock:
            here = self.loops.pop(asyncio.get_running_loop(), None)
        if here is not None:
            await here.close()

    async def close(self) -> None:
        await self.flush()


class _Here:
    """One event loop's part of :class:`HereFirstLayer`: its sockets' queues, its groups, its
    Redis connections (a client for publishing, a pub/sub connection read by one task)."""

    def __init__(self, layer: HereFirstLayer) -> None:
        self.layer = layer
        self.name = uuid.uuid4().hex[:16]
        self.channels: dict[str, asyncio.Queue[Any]] = {}
        self.groups: dict[str, set[str]] = {}
        self.subscriptions: dict[str, asyncio.Future[None]] = {}  # a Redis channel -> confirmed
        self.lock = asyncio.Lock()  # subscriptions and unsubscriptions one at a time, in order
        self.outbox: list[tuple[str, bytes]] = []
        self.publisher: asyncio.Task[None] | None = None
        self.leaving: set[asyncio.Task[None]] = set()
        self.reader: asyncio.Task[None] | None = None
        self.client = layer.client()
        self.pubsub = self.client.pubsub()
        self.started = False

    async def ready(self) -> None:
        if not self.started:
            await self.subscribe(self.layer.loop_channel(self.name))
            self.started = True

    # --- what arrives -------------------------------------------------------------------

    def put(self, channel: str, message: Any) -> None:
        queue = self.channels.get(channel)
        if queue is not None:
            try:
                queue.put_nowait(message)
            except asyncio.QueueFull:  # the socket stopped reading: news is lost, as a layer may lose it
                logger.warning("channel %s full: a message dropped", channel)

    def put_in_group(self, name: str, message: Any) -> None:
        for channel in list(self.groups.get(name, ())):
            self.put(channel, message)

    def heard(self, name: str, data: bytes) -> None:
        """A message from Redis on the Redis channel ``name``."""
        if data.startswith(self.layer.origin):
            return  # this process's own group message: its sockets had it at the send
        message = self.layer.deserialize(data)
        if name in self.groups:
            self.put_in_group(name, message)
        elif isinstance(message, list) and len(message) == 2:
            self.put(message[0], message[1])

    async def read(self) -> None:
        while True:
            try:
                got = await self.pubsub.get_message(timeout=1.0)
            except asyncio.CancelledError:
                raise
            except Exception:  # Redis is away: redis-py connects again and subscribes again
                logger.warning("reading the channel layer failed", exc_info=True)
                await asyncio.sleep(1)
                continue
            if got is None:
                continue
            kind, name = got["type"], got["channel"]
            name = name.decode() if isinstance(name, bytes) else name
            if kind == "subscribe":
                confirmed = self.subscriptions.get(name)
                if confirmed is not None and not confirmed.done():
                    confirmed.set_result(None)
            elif kind == "message":
                self.heard(name, got["data"])

    # --- subscriptions ------------------------------------------------------------------

    async def subscribe(self, name: str) -> None:
        """Subscribe to the Redis channel ``name`` (once) and return once Redis confirmed it."""
        async with self.lock:
            confirmed = self.subscriptions.get(name)
            if confirmed is None:
                confirmed = self.subscriptions[name] = asyncio.get_running_loop().create_future()
                try:
                    await self.pubsub.subscribe(name)
                except BaseException:
                    del self.subscriptions[name]
                    raise
                if self.reader is None:
                    self.reader = asyncio.ensure_future(self.read())
        await asyncio.wait_for(asyncio.shield(confirmed), timeout=self.layer.confirm_seconds)

    async def join(self, name: str, channel: str) -> None:
        self.groups.setdefault(name, set()).add(channel)
        try:
            await self.subscribe(name)
            # Redis answers now, even when the group was subscribed before: while it is away a
            # socket is refused (4503, docs/live-play.md), as with channels-redis' layer.
            await self.client.ping()
        except BaseException:
            await self.leave(name, channel)
            raise

    async def leave(self, name: str, channel: str) -> None:
        members = self.groups.get(name)
        if members is None or channel not in members:
            return
        members.discard(channel)
        if members:
            return
        del self.groups[name]
        async with self.lock:
            # A socket may have joined again while this waited for the lock.
            if name not in self.groups and self.subscriptions.pop(name, None) is not None:
                await self.pubsub.unsubscribe(name)

    def channel_gone(self, channel: str) -> None:
        self.channels.pop(channel, None)
        for name, members in list(self.groups.items()):
            if channel in members:
                self.leaving.add(asyncio.ensure_future(self.leave(name, channel)))
                self.leaving = {task for task in self.leaving if not task.done()}

    # --- what goes out ------------------------------------------------------------------

    def publish(self, name: str, data: bytes) -> None:
        """Publish ``data`` to the Redis channel ``name`` soon, after what was handed over before."""
        self.outbox.append((name, data))
        if self.publisher is None or self.publisher.done():
            self.publisher = asyncio.ensure_future(self.publish_waiting())

    async def publish_waiting(self) -> None:
        while self.outbox:
            batch, self.outbox = self.outbox, []
            try:
                async with self.client.pipeline(transaction=False) as pipeline:
                    for name, data in batch:
                        pipeline.publish(name, data)
                    await pipeline.execute()
            except Exception:  # the log is the truth: each socket fills what it missed
                logger.warning("publishing %d messages failed", len(batch), exc_info=True)

    async def close(self) -> None:
        # The sockets' pending leaves too: closing the pub/sub connection below ends every
        # subscription, and a leave left pending would be destroyed with its loop.
        for task in (self.reader, self.publisher, *self.leaving):
            if task is not None:
                task.cancel()
                with contextlib.suppress(asyncio.CancelledError, Exception):
                    await task
        await self.pubsub.aclose()  # type: ignore[no-untyped-call]  # redis-py leaves it untyped
        await self.client.aclose()
