"""The channel layer with Redis: channels-redis' pub/sub layer, each message decoded once per process.

``channels_redis.pubsub.RedisPubSubChannelLayer`` receives one copy of a group message
per process (one Redis subscription per group) and puts those same bytes in the queue
of every socket of the group that lives here; each socket's ``receive`` then decodes
them again. A table's news carries every view of the hand (``tables.screens``), so at a
table of 4 that was 4 decodings of the same few kilobytes per action: measured with
``benchmarks/live_load.py --py-spy``, about a tenth of the time the process held the GIL.

:class:`PubSubLayer` decodes each distinct message once and hands every socket the same
decoded message. A received message is therefore read-only: handlers build their own
replies from it and never change it (``tables.live.consumers.TableConsumer`` does not).

It also sends many group messages in one round trip (:meth:`PubSubLayer.group_send_many`):
channels-redis publishes one message at a time under a lock per Redis connection and
waits for each reply, so a busy process could publish no more messages per second than
its event loop made turns. ``tables.broadcast`` hands it all the news waiting to go out.

And a group message reaches this process's own sockets of the group at the send, not
after a round trip through Redis: :meth:`PubSubLayer.group_send` and
:meth:`~PubSubLayer.group_send_many` put it in their queues, then publish it for the other
processes. The published bytes carry a mark of the sending event loop's layer
(:data:`ORIGIN_MARK` and 16 random bytes), and that layer, hearing its own message back
from Redis, leaves it (its sockets have it). Measured with ``benchmarks/live_load.py
--trace`` (docs/live-play.md): the step from the commit to the first socket's news was the
largest part of the slowest actions on a busy machine, waiting its turn in Redis and in
the loop twice. Messages of one sender keep their order; another process's messages
arrive through Redis as before, and a socket that sees a gap in the seqs fills it from the
log (``tables.live.consumers``), as with any news the layer loses.
"""

from __future__ import annotations

import os
import threading
from collections import OrderedDict
from typing import Any

from channels_redis.pubsub import RedisPubSubChannelLayer  # type: ignore[import-untyped]  # no type hints

#: The first byte of a group message this layer published: 0xc1 is never the first byte of
#: msgpack (channels-redis' encoding) nor of an encrypted message (base64 text).
ORIGIN_MARK = b"\xc1"
ORIGIN_BYTES = len(ORIGIN_MARK) + 16


class PubSubLayer(RedisPubSubChannelLayer):
    """channels-redis' pub/sub layer that decodes the bytes of a message once, not once per socket."""

    # The sockets of one group take a message from their queues within a few loop turns;
    # the last few hundred distinct messages are kept for them.
    decoded_kept = 256

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._decoded: OrderedDict[bytes, dict[str, Any]] = OrderedDict()
        self._decoded_lock = threading.Lock()

    def deserialize(self, message: bytes) -> dict[str, Any]:
        if message[:1] == ORIGIN_MARK:
            message = message[ORIGIN_BYTES:]
        # Keyed by the bytes themselves (their hash is computed once and kept by the bytes
        # object), so equal bytes always decode to the message they encode.
        with self._decoded_lock:
            decoded = self._decoded.get(message)
        if decoded is not None:
            return decoded
        decoded = super().deserialize(message)
        with self._decoded_lock:
            self._decoded[message] = decoded
            while len(self._decoded) > self.decoded_kept:
                self._decoded.popitem(last=False)
        return decoded

    def _get_layer(self) -> Any:
        """channels-redis' layer for the running loop, its shards made to leave the group
        messages this layer sent (its sockets had them at the send)."""
        layer = super()._get_layer()
        if getattr(layer, "dashain_origin", None) is None:
            # One mark per loop's layer: a message another loop of this process published
            # (a thread's ``async_to_sync``) still reaches this loop's sockets through Redis.
            layer.dashain_origin = ORIGIN_MARK + os.urandom(16)
            for shard in layer._shards:
                shard._receive_message = _receiver_skipping_own(shard, layer.dashain_origin)
        return layer

    def _send_here(self, layer: Any, group_channel: str, message: dict[str, Any]) -> bytes:
        """Put ``message`` in the queue of each of this loop's sockets in the group; returns
        the bytes to publish to the others."""
        data: bytes = layer.dashain_origin + self.serialize(message)
        _put_in_group(layer, group_channel, data)
        return data

    async def group_send(self, group: str, message: dict[str, Any]) -> None:
        layer = self._get_layer()
        channel = layer._get_group_channel_name(group)
        data = self._send_here(layer, channel, message)
        await layer._get_shard(channel).publish(channel, data)

    async def group_send_many(self, sends: list[tuple[str, dict[str, Any]]]) -> None:
        """Send each ``(group, message)`` as :meth:`group_send` would, in this order, in one
        pipelined round trip to each Redis shard. (Reads channels-redis 4.3's own names for
        a group's channel and shard, as its ``group_send`` does.)"""
        layer = self._get_layer()
        batches: dict[Any, list[tuple[str, bytes]]] = {}
        for group, message in sends:
            channel = layer._get_group_channel_name(group)
            batches.setdefault(layer._get_shard(channel), []).append(
                (channel, self._send_here(layer, channel, message))
            )
        for shard, items in batches.items():
            async with shard._lock:
                shard._ensure_redis()
                async with shard._redis.pipeline(transaction=False) as pipeline:
                    for channel, data in items:
                        pipeline.publish(channel, data)
                    await pipeline.execute()


def _receiver_skipping_own(shard: Any, origin: bytes) -> Any:
    """A shard's handler of what Redis delivers (channels-redis 4.3's ``_receive_message``,
    same names): to a socket's own channel, or to each socket here of a group, except the
    group messages carrying ``origin``, which this loop's layer already delivered here."""

    def receive(message: dict[str, Any] | None) -> None:
        if message is None:
            return
        name, data = message["channel"], message["data"]
        if isinstance(name, bytes):
            name = name.decode()
        layer = shard.channel_layer
        if name in layer.channels:
            layer.channels[name].put_nowait(data)
        elif not data.startswith(origin):
            _put_in_group(layer, name, data)

    return receive


def _put_in_group(layer: Any, group_channel: str, data: bytes) -> None:
    """Put ``data`` in the queue of each of ``layer``'s sockets in the group (none: nothing)."""
    for channel in layer.groups.get(group_channel, ()):
        queue = layer.channels.get(channel)
        if queue is not None:
            queue.put_nowait(data)
