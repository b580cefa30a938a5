"""The Redis channel layer of DASHAIN_CHANNEL_LAYER=channels-redis (config.channel_layer.PubSubLayer):
channels-redis' pub/sub layer that decodes each message once per process, however many of its sockets get it; and
its names on Redis carry the site's prefix, so two sites on one Redis hear only their own."""

from __future__ import annotations

import asyncio
import uuid
from urllib.parse import urlsplit, urlunsplit

import pytest
import redis.asyncio
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

    assert len(layer.decoded) == layer.decoded_kept
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


def test_the_site_uses_it_with_redis_when_the_setting_says_so():
    if settings.REDIS_URL:
        assert (
            settings.CHANNEL_LAYERS["default"]["BACKEND"]
            == settings.CHANNEL_LAYER_BACKENDS[settings.DASHAIN_CHANNEL_LAYER]
        )


# --- one Redis, several sites: each site's names carry its own prefix -------------------------


def _on_database(url: str, number: int) -> str:
    """``url`` with another Redis database number (pub/sub pays no heed to it)."""
    parts = urlsplit(url)
    return urlunsplit(parts._replace(path=f"/{number}"))


async def _until_subscribed(url: str, counts: dict[str, int]) -> None:
    """Wait until Redis itself counts the subscribers of each channel (so a message
    published next reaches every one of them): bounded by tries, not by time."""
    client = redis.asyncio.Redis.from_url(url)
    try:
        for _ in range(500):
            seen = dict(await client.pubsub_numsub(*counts))
            if all(seen.get(name.encode(), 0) >= count for name, count in counts.items()):
                return
            await asyncio.sleep(0.01)
        raise AssertionError(f"Redis never counted the subscribers {counts}: {seen}")
    finally:
        await client.aclose()


@pytest.mark.redis
async def test_two_sites_on_one_redis_hear_only_their_own_groups():
    """Redis pub/sub channels belong to the whole server, whatever database number a client
    chose: two sites whose layers had the same names would hear each other's tables. With a
    prefix each (settings.DASHAIN_REDIS_PREFIX), they do not; the same prefix does hear, on
    another database number too (so this test can fail)."""
    run = uuid.uuid4().hex[:8]
    ours_prefix, theirs_prefix = f"dashain.test-{run}.ours.", f"dashain.test-{run}.theirs."
    url = settings.REDIS_URL
    elsewhere = _on_database(url, 15 if urlsplit(url).path != "/15" else 14)
    ours = PubSubLayer(hosts=[{"address": url}], prefix=ours_prefix)
    theirs = PubSubLayer(hosts=[{"address": elsewhere}], prefix=theirs_prefix)
    same_names = PubSubLayer(hosts=[{"address": elsewhere}], prefix=ours_prefix)
    try:
        ours_socket, theirs_socket, same_socket = [await layer.new_channel() for layer in (ours, theirs, same_names)]
        for layer, socket in ((ours, ours_socket), (theirs, theirs_socket), (same_names, same_socket)):
            await layer.group_add("table_1", socket)
        await _until_subscribed(url, {f"{ours_prefix}__group__table_1": 2, f"{theirs_prefix}__group__table_1": 1})

        await ours.group_send("table_1", {"type": "table.events", "from": "ours", "seq": 1})
        await ours.group_send("table_1", {"type": "table.events", "from": "ours", "seq": 2})
        await theirs.group_send("table_1", {"type": "table.events", "from": "theirs", "seq": 1})
        await ours.group_send("table_1", {"type": "table.events", "from": "ours", "seq": 3})
        # Each publish was answered before the next was sent, and Redis delivers in the order
        # it published: had a socket heard the other site, that message would come first.
        theirs_got = await theirs.receive(theirs_socket)
        ours_got = [await ours.receive(ours_socket) for _ in range(3)]
        same_got = [await same_names.receive(same_socket) for _ in range(3)]
    finally:
        for layer in (ours, theirs, same_names):
            await layer.flush()

    assert (theirs_got["from"], theirs_got["seq"]) == ("theirs", 1)
    assert [(message["from"], message["seq"]) for message in ours_got] == [("ours", 1), ("ours", 2), ("ours", 3)]
    assert [(message["from"], message["seq"]) for message in same_got] == [("ours", 1), ("ours", 2), ("ours", 3)]


@pytest.mark.redis
def test_the_sites_layer_and_cache_carry_its_prefix():
    prefix = settings.DASHAIN_REDIS_PREFIX
    assert settings.CHANNEL_LAYERS["default"]["CONFIG"]["prefix"] == prefix
    assert settings.CACHES["default"]["KEY_PREFIX"] == prefix
