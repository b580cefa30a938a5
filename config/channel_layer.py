"""The channel layer with Redis: channels-redis' pub/sub layer, each message decoded once per process.

``channels_redis.pubsub.RedisPubSubChannelLayer`` receives one copy of a group message
per process (one Redis subscription per group) and puts those same bytes in the queue
of every socket of the group that lives here; each socket's ``receive`` then decodes
them again. A table's news carries every view of the hand (``tables.screens``), so at a
table of 4 that was 4 decodings of the same few kilobytes per action: measured with
``benchmarks/live_load.py --py-spy``, about a tenth of the time the process held the GIL.

:class:`PubSubLayer` decodes each distinct message once and hands every socket the same
decoded message. A received message is therefore read-only: handlers build their own
replies from it and never change it (``tables.consumers.TableConsumer`` does not).

It also sends many group messages in one round trip (:meth:`PubSubLayer.group_send_many`):
channels-redis publishes one message at a time under a lock per Redis connection and
waits for each reply, so a busy process could publish no more messages per second than
its event loop made turns. ``tables.services.log`` hands it all the news waiting to go out.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from typing import Any

from channels_redis.pubsub import RedisPubSubChannelLayer  # type: ignore[import-untyped]  # no type hints


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

    async def group_send_many(self, sends: list[tuple[str, dict[str, Any]]]) -> None:
        """Send each ``(group, message)`` as :meth:`group_send` would, in this order, in one
        pipelined round trip to each Redis shard. (Reads channels-redis 4.3's own names for
        a group's channel and shard, as its ``group_send`` does.)"""
        layer = self._get_layer()
        batches: dict[Any, list[tuple[str, bytes]]] = {}
        for group, message in sends:
            channel = layer._get_group_channel_name(group)
            batches.setdefault(layer._get_shard(channel), []).append((channel, self.serialize(message)))
        for shard, items in batches.items():
            async with shard._lock:
                shard._ensure_redis()
                async with shard._redis.pipeline(transaction=False) as pipeline:
                    for channel, data in items:
                        pipeline.publish(channel, data)
                    await pipeline.execute()
