"""The Redis channel layers (config/channel_layer.py) on the real Redis: a group message
reaches every socket of its group, in this process and in the others, each socket once and
in order; HereFirstLayer's own sockets have it at the send, and it joins a group only once
Redis has confirmed the subscription."""

from __future__ import annotations

import asyncio
import threading

import pytest
import redis.asyncio
from django.conf import settings

from config.channel_layer import ORIGIN_MARK, HereFirstLayer, PubSubLayer

pytestmark = pytest.mark.redis
LAYERS = [HereFirstLayer, PubSubLayer]


def _layer(layer_class: type) -> HereFirstLayer | PubSubLayer:
    layer: HereFirstLayer | PubSubLayer = layer_class(hosts=[{"address": settings.REDIS_URL}], prefix="dashain.test.")
    return layer


async def _members(layer, group: str, count: int) -> list[str]:
    channels = [await layer.new_channel() for _ in range(count)]
    for channel in channels:
        await layer.group_add(group, channel)
    return channels


async def _next(layer, channel: str) -> dict:
    """The next message of ``channel``; fails rather than waits for ever."""
    return await asyncio.wait_for(layer.receive(channel), timeout=5)


async def _nothing_more(layer, channels: list[str], wait: float = 0.3) -> bool:
    """True when none of ``channels`` gets another message within ``wait`` seconds."""
    for channel in channels:
        try:
            extra = await asyncio.wait_for(layer.receive(channel), timeout=wait)
        except TimeoutError:
            continue
        pytest.fail(f"{channel} got a second copy: {extra}")
    return True


async def _until_subscribed(name: str, count: int) -> None:
    """Wait until Redis counts ``count`` subscribers of ``name`` (channels-redis returns from
    ``group_add`` before Redis has them): bounded by tries."""
    client = redis.asyncio.Redis.from_url(settings.REDIS_URL)
    try:
        for _ in range(500):
            if dict(await client.pubsub_numsub(name)).get(name.encode(), 0) >= count:
                return
            await asyncio.sleep(0.01)
        raise AssertionError(f"Redis never counted {count} subscribers of {name}")
    finally:
        await client.aclose()


@pytest.mark.parametrize("layer_class", LAYERS)
async def test_each_socket_here_and_in_another_process_gets_group_messages_once_and_in_order(layer_class) -> None:
    here, there = _layer(layer_class), _layer(layer_class)  # two processes' layers
    try:
        ours = await _members(here, "table_here_1", 2)
        theirs = await _members(there, "table_here_1", 2)
        await _until_subscribed("dashain.test.__group__table_here_1", 2)

        for seq in range(8):
            await here.group_send("table_here_1", {"type": "table.events", "seq": seq})

        for layer, channels in ((here, ours), (there, theirs)):
            for channel in channels:
                assert [(await _next(layer, channel))["seq"] for _ in range(8)] == list(range(8))
            assert await _nothing_more(layer, channels)
    finally:
        await here.flush()
        await there.flush()


async def test_here_first_the_sockets_here_have_the_message_at_the_send() -> None:
    here = _layer(HereFirstLayer)
    try:
        ours = await _members(here, "table_here_2", 2)
        message = {"type": "table.events", "seq": 1}
        await here.group_send("table_here_2", message)
        state = await here.here()
        assert [state.channels[channel].qsize() for channel in ours] == [1, 1]  # before any round trip
        assert [await _next(here, channel) for channel in ours] == [message, message]
        assert await _nothing_more(here, ours)  # its own echo from Redis is left
    finally:
        await here.flush()


@pytest.mark.parametrize("layer_class", LAYERS)
async def test_a_message_another_loop_of_this_process_sends_still_reaches_the_sockets_here(layer_class) -> None:
    """A thread's ``async_to_sync`` runs the send on a loop of its own: this loop's sockets get
    it through Redis."""
    layer = _layer(layer_class)
    try:
        (ours,) = await _members(layer, "table_here_3", 1)
        await _until_subscribed("dashain.test.__group__table_here_3", 1)
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


@pytest.mark.parametrize("layer_class", LAYERS)
async def test_a_socket_channel_of_its_own_gets_what_is_sent_to_it_here_and_from_elsewhere(layer_class) -> None:
    layer, other = _layer(layer_class), _layer(layer_class)
    try:
        channel = await layer.new_channel()
        await layer.send(channel, {"type": "session.ended", "from": "here"})
        assert await _next(layer, channel) == {"type": "session.ended", "from": "here"}
        await other.send(channel, {"type": "session.ended", "from": "there"})
        assert await _next(layer, channel) == {"type": "session.ended", "from": "there"}
    finally:
        await layer.flush()
        await other.flush()


async def test_the_published_bytes_carry_the_mark_and_decode_once_to_the_message() -> None:
    layer = _layer(HereFirstLayer)
    listener = redis.asyncio.Redis.from_url(settings.REDIS_URL).pubsub()
    try:
        await listener.subscribe("dashain.test.__group__table_here_4")
        await layer.here()
        message = {"type": "table.events", "seq": 1}
        await layer.group_send("table_here_4", message)
        raw = None
        for _ in range(100):
            got = await listener.get_message(ignore_subscribe_messages=True, timeout=0.05)
            if got is not None:
                raw = got["data"]
                break
        assert raw is not None and raw[:1] == ORIGIN_MARK
        assert layer.deserialize(raw) == message
        assert layer.deserialize(raw) is layer.deserialize(raw[17:])  # decoded once
    finally:
        await listener.aclose()
        await layer.flush()


@pytest.mark.parametrize("layer_class", [HereFirstLayer])
async def test_a_message_published_once_group_add_returned_reaches_the_socket_however_slow_redis_subscribes(
    layer_class, monkeypatch
) -> None:
    """The race of issue 37: a socket joins its table's group, then reads its snapshot; news
    published after that read must reach it. channels-redis' ``group_add`` returns once its
    SUBSCRIBE is written, and a publish Redis handles before it is lost for that socket
    (PubSubLayer fails this test); HereFirstLayer waits for Redis' confirmation. The fault:
    the SUBSCRIBE reaches Redis 0.3 s late."""
    real_subscribe = redis.asyncio.client.PubSub.subscribe
    late: list[asyncio.Task] = []

    async def late_subscribe(self, *args, **kwargs):
        if any("__group__" in str(name) for name in args):
            late.append(asyncio.ensure_future(_after(0.3, real_subscribe(self, *args, **kwargs))))
            return None
        return await real_subscribe(self, *args, **kwargs)

    monkeypatch.setattr(redis.asyncio.client.PubSub, "subscribe", late_subscribe)
    layer, writer = _layer(layer_class), redis.asyncio.Redis.from_url(settings.REDIS_URL)
    try:
        (socket,) = await _members(layer, "table_here_5", 1)
        await writer.publish("dashain.test.__group__table_here_5", layer.serialize({"type": "table.events", "seq": 7}))
        assert (await _next(layer, socket))["seq"] == 7
    finally:
        await asyncio.gather(*late)
        await writer.aclose()
        await layer.flush()


async def _after(seconds: float, work) -> None:
    await asyncio.sleep(seconds)
    await work


async def test_a_threads_sends_are_handed_over_without_waiting_and_arrive_in_order_once() -> None:
    """``group_send_soon`` (tables.broadcast's path from a service thread): the thread returns
    before anything is delivered or published; the sockets here and in another process then
    get every message once, in the order handed over."""
    here, there = _layer(HereFirstLayer), _layer(HereFirstLayer)
    try:
        ours = await _members(here, "table_here_6", 2)
        (theirs,) = await _members(there, "table_here_6", 1)
        state = await here.here()

        handed: list[bool] = []
        thread = threading.Thread(
            target=lambda: handed.extend(
                here.group_send_soon("table_here_6", {"type": "table.events", "seq": seq}) for seq in range(10)
            )
        )
        thread.start()
        thread.join(timeout=5)  # this loop is held meanwhile: a thread waiting for it would never end
        assert not thread.is_alive() and handed == [True] * 10
        assert [state.channels[channel].qsize() for channel in ours] == [0, 0]  # put by this loop, later
        for channel in ours:
            assert [(await _next(here, channel))["seq"] for _ in range(10)] == list(range(10))
        assert [(await _next(there, theirs))["seq"] for _ in range(10)] == list(range(10))
        assert await _nothing_more(here, ours) and await _nothing_more(there, [theirs])
        assert _layer(HereFirstLayer).group_send_soon("table_here_6", {"type": "x"}) is False  # no socket: not taken
    finally:
        await here.flush()
        await there.flush()


async def test_closing_the_layer_ends_the_leaves_its_sockets_left_pending() -> None:
    """A socket stopped (its receive cancelled) leaves its group in a task; the layer's
    flush, with that leave still waiting its turn at the subscription lock, ends it too, so
    none is left pending for its loop to destroy."""
    layer = _layer(HereFirstLayer)
    channel = (await _members(layer, "table_here_leaving", 1))[0]
    here = await layer.here()
    await here.lock.acquire()  # a subscription under way: the leave waits for it
    receiving = asyncio.ensure_future(layer.receive(channel))
    await asyncio.sleep(0)
    receiving.cancel()
    with pytest.raises(asyncio.CancelledError):
        await receiving
    leaving = list(here.leaving)
    assert leaving and not any(task.done() for task in leaving)
    await layer.flush()
    assert all(task.done() for task in leaving)
    here.lock.release()
