"""The site's Redis channel layer (config.channel_layer.PubSubLayer): channels-redis' pub/sub
layer that decodes each message once per process, however many of its sockets get it."""

from __future__ import annotations

import pytest
from channels_redis.pubsub import RedisPubSubChannelLayer
from django.conf import settings

from config.channel_layer import PubSubLayer


def _counting_decodes(monkeypatch) -> list[bytes]:
    decoded: list[bytes] = []
    parent = RedisPubSubChannelLayer.deserialize

    def counted(self, message):
        decoded.append(message)
        return parent(self, message)

    monkeypatch.setattr(RedisPubSubChannelLayer, "deserialize", counted)
    return decoded


def test_equal_bytes_are_decoded_once_and_different_bytes_each_to_their_own_message(monkeypatch):
    decoded = _counting_decodes(monkeypatch)
    layer = PubSubLayer(hosts=[{"address": "redis://127.0.0.1:1/0"}])  # never connects in this test
    first = {"type": "table.events", "events": [{"seq": 1, "data": {"cards": ["As"]}}]}
    second = {"type": "table.events", "events": [{"seq": 2, "data": {"cards": ["Kd"]}}]}
    raw_first, raw_second = layer.serialize(first), layer.serialize(second)

    got = [layer.deserialize(raw_first), layer.deserialize(bytes(raw_first)), layer.deserialize(raw_second)]

    assert got[0] == first and got[1] is got[0]  # the same bytes again: the message already decoded
    assert got[2] == second
    assert decoded == [raw_first, raw_second]


def test_only_the_latest_messages_are_kept(monkeypatch):
    decoded = _counting_decodes(monkeypatch)
    layer = PubSubLayer(hosts=[{"address": "redis://127.0.0.1:1/0"}])
    raws = [layer.serialize({"type": "table.events", "seq": seq}) for seq in range(layer.decoded_kept + 10)]
    for raw in raws:
        layer.deserialize(raw)

    assert len(layer._decoded) == layer.decoded_kept
    assert layer.deserialize(raws[0]) == {"type": "table.events", "seq": 0}  # forgotten, so decoded again
    assert len(decoded) == len(raws) + 1


@pytest.mark.redis
async def test_every_socket_of_a_group_gets_the_message_decoded_once(monkeypatch):
    decoded = _counting_decodes(monkeypatch)
    layer = PubSubLayer(hosts=[{"address": settings.REDIS_URL}])
    try:
        channels = [await layer.new_channel() for _ in range(4)]
        for channel in channels:
            await layer.group_add("table_decode_once", channel)
        message = {"type": "table.events", "events": [{"seq": 7, "kind": "chaal", "data": {"amount": 20}}]}
        await layer.group_send("table_decode_once", message)
        received = [await layer.receive(channel) for channel in channels]
    finally:
        await layer.flush()

    assert all(got == message for got in received)
    assert len(decoded) == 1


def test_the_site_uses_it_with_redis():
    if settings.REDIS_URL:
        assert settings.CHANNEL_LAYERS["default"]["BACKEND"] == "config.channel_layer.PubSubLayer"


@pytest.mark.redis
async def test_many_group_sends_arrive_in_the_order_given():
    layer = PubSubLayer(hosts=[{"address": settings.REDIS_URL}])
    try:
        first, second = await layer.new_channel(), await layer.new_channel()
        await layer.group_add("table_many_1", first)
        await layer.group_add("table_many_2", second)
        sends = [(f"table_many_{1 + seq % 2}", {"type": "table.events", "seq": seq}) for seq in range(10)]
        await layer.group_send_many(sends)
        got_first = [await layer.receive(first) for _ in range(5)]
        got_second = [await layer.receive(second) for _ in range(5)]
    finally:
        await layer.flush()

    assert [message["seq"] for message in got_first] == [0, 2, 4, 6, 8]
    assert [message["seq"] for message in got_second] == [1, 3, 5, 7, 9]
