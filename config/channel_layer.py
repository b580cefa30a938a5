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
