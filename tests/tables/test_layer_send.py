"""Layer sends from threads (tables.broadcast.layer_send), with no event loop kept by the
project: a thread Channels started from a loop sends on that loop, any other thread on a
loop of its own, and the in-memory layer hands the message to the loop its socket lives on
(config.channel_layer.InMemoryLayer)."""

from __future__ import annotations

import asyncio
import threading

from asgiref.sync import sync_to_async

from config.channel_layer import InMemoryLayer
from tables import broadcast


def _sends(group: str, seqs: range) -> None:
    for seq in seqs:
        broadcast.layer_send(group, {"type": "table.events", "seq": seq})


async def _received(layer: InMemoryLayer, channel: str, count: int) -> list[int]:
    return [(await asyncio.wait_for(layer.receive(channel), timeout=5))["seq"] for _ in range(count)]


async def test_sends_from_a_thread_of_the_loop_and_from_any_other_thread_arrive_in_order(monkeypatch):
    layer = InMemoryLayer()
    monkeypatch.setattr(broadcast, "get_channel_layer", lambda: layer)
    channel = await layer.new_channel()
    await layer.group_add("table_order", channel)

    await sync_to_async(_sends, thread_sensitive=False)("table_order", range(1, 11))  # a service run for a socket
    assert await _received(layer, channel, 10) == list(range(1, 11))

    # The in-process worker: it hands its sends over and does not wait for this loop, which
    # is held meanwhile (a thread waiting for it would never end).
    worker = threading.Thread(target=_sends, args=("table_order", range(11, 21)))
    worker.start()
    worker.join(timeout=5)
    assert not worker.is_alive()
    assert await _received(layer, channel, 10) == list(range(11, 21))


async def test_a_send_from_another_loop_runs_on_the_sockets_loop(monkeypatch):
    """An asyncio queue is its own loop's: the message is put in it there, not by the sender."""
    layer = InMemoryLayer()
    channel = await layer.new_channel()
    await layer.group_add("table_loop", channel)
    home = asyncio.get_running_loop()
    put_on: list[asyncio.AbstractEventLoop] = []
    real = InMemoryLayer.send_here

    async def noted(self, channel, message):
        put_on.append(asyncio.get_running_loop())
        await real(self, channel, message)

    monkeypatch.setattr(InMemoryLayer, "send_here", noted)
    await asyncio.to_thread(asyncio.run, layer.group_send("table_loop", {"type": "table.events", "seq": 1}))

    assert await _received(layer, channel, 1) == [1]
    assert put_on == [home]
