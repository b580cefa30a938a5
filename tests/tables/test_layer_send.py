"""Layer sends from the server's threads (tables.broadcast.layer_send): handed to the
server's loop, which sends them in the order given, and the thread never waits for them."""

from __future__ import annotations

import asyncio

from channels.layers import get_channel_layer

from tables import broadcast as log


async def test_sends_from_threads_arrive_in_order_and_the_threads_do_not_wait(monkeypatch):
    layer = get_channel_layer()
    channel = await layer.new_channel()
    await layer.group_add("table_order", channel)
    log.remember_server_loop(asyncio.get_running_loop())
    sent: list[int] = []
    real_send = layer.group_send

    async def slow_send(group, message):
        await asyncio.sleep(0.01)  # a round trip to the layer
        sent.append(message["seq"])
        await real_send(group, message)

    monkeypatch.setattr(layer, "group_send", slow_send)

    def writer() -> list[int]:
        for seq in range(1, 21):
            log.layer_send("table_order", {"type": "table.events", "seq": seq})
        return list(sent)  # what had gone out when the last send was handed over

    sent_when_handed = await asyncio.to_thread(writer)
    received = [(await layer.receive(channel))["seq"] for _ in range(20)]

    assert sent_when_handed == []  # the thread handed everything over without waiting
    assert received == list(range(1, 21))
    await layer.group_discard("table_order", channel)
