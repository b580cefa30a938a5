"""A group message reaches every socket of its group, in this process and in the others,
each socket once (config.channel_layer.PubSubLayer, on the real Redis)."""

from __future__ import annotations

import asyncio
import threading

import pytest
from django.conf import settings

from config.channel_layer import PubSubLayer

pytestmark = pytest.mark.redis


async def _members(layer: PubSubLayer, group: str, count: int) -> list[str]:
    channels = [await layer.new_channel() for _ in range(count)]
    for channel in channels:
        await layer.group_add(group, channel)
    return channels


async def _next(layer: PubSubLayer, channel: str) -> dict:
    """The next message of ``channel``; fails rather than waits for ever."""
    return await asyncio.wait_for(layer.receive(channel), timeout=5)


async def _nothing_more(layer: PubSubLayer, channels: list[str], wait: float = 0.3) -> bool:
    """True when none of ``channels`` gets another message within ``wait`` seconds."""
    for channel in channels:
        try:
            extra = await asyncio.wait_for(layer.receive(channel), timeout=wait)
        except TimeoutError:
            continue
        pytest.fail(f"{channel} got a second copy: {extra}")
    return True


async def test_each_socket_here_and_in_another_process_gets_a_group_message_once() -> None:
    here = PubSubLayer(hosts=[{"address": settings.REDIS_URL}])
    there = PubSubLayer(hosts=[{"address": settings.REDIS_URL}])  # another process's layer
    try:
        ours = await _members(here, "table_here_1", 2)
        theirs = await _members(there, "table_here_1", 2)
        message = {"type": "table.events", "events": [{"seq": 3, "kind": "chaal", "data": {"amount": 20}}]}

        await here.group_send("table_here_1", message)

        got_here = [await _next(here, channel) for channel in ours]
        got_there = [await _next(there, channel) for channel in theirs]
        assert got_here == [message, message]
        assert got_there == [message, message]
        assert await _nothing_more(here, ours) and await _nothing_more(there, theirs)
    finally:
        await here.flush()
        await there.flush()


async def test_a_message_another_loop_of_this_process_sends_still_reaches_the_sockets_here() -> None:
    """A thread's ``async_to_sync`` runs the send on a loop of its own: this loop's sockets get
    it through Redis."""
    layer = PubSubLayer(hosts=[{"address": settings.REDIS_URL}])
    try:
        (ours,) = await _members(layer, "table_here_3", 1)
        message = {"type": "table.events", "seq": 9}
        errors: list[BaseException] = []

        def send_from_another_loop() -> None:
            try:
                asyncio.run(layer.group_send("table_here_3", message))
            except BaseException as error:
                errors.append(error)

        thread = threading.Thread(target=send_from_another_loop)
        thread.start()
        await asyncio.to_thread(thread.join)

        assert errors == []
        assert await _next(layer, ours) == message
        assert await _nothing_more(layer, [ours])
    finally:
        await layer.flush()


async def test_a_socket_channel_of_its_own_still_gets_what_is_sent_to_it() -> None:
    layer = PubSubLayer(hosts=[{"address": settings.REDIS_URL}])
    try:
        channel = await layer.new_channel()
        await layer.send(channel, {"type": "session.ended"})
        assert await _next(layer, channel) == {"type": "session.ended"}
    finally:
        await layer.flush()
