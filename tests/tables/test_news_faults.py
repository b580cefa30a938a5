"""The news path under faults (issue 37): real sockets (the consumer through Channels'
communicator) on the real channel layer on Redis, while a table plays.

- A share of the layer's messages is lost on the way to each socket, at random (seeded).
- A group's subscription reaches Redis late, while another process writes the table's
  news (it comes through Redis, not from this process's own sends).

Whatever is lost, no open socket stays behind the log longer than :data:`BOUND` seconds,
and every socket ends at the table's last seq, each event heard once and in order (the
test client asserts no gap and no repeat). Both Redis layers (DASHAIN_CHANNEL_LAYER) are
put through it.
"""

from __future__ import annotations

import asyncio
import random

import pytest
import redis.asyncio
from channels.db import database_sync_to_async
from django.conf import settings as site_settings
from django.db import connections

from tables.live.consumers import TableConsumer
from tables.services import hand_act
from tests.tables.conftest import current_turn, open_table
from tests.tables.ws import Client, connect, last_seq, pick_action, users_of

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.redis]

#: The longest a socket may stay behind the table's log (issue 37), in seconds.
BOUND = 3.0
ACTIONS = 16


@pytest.fixture(params=["here-first", "channels-redis"])
def redis_layer(request, settings):
    if not site_settings.REDIS_URL:
        pytest.skip("needs Redis (REDIS_URL)")
    layers = dict(settings.CHANNEL_LAYERS)
    layers["default"] = {**layers["default"], "BACKEND": settings.CHANNEL_LAYER_BACKENDS[request.param]}
    settings.CHANNEL_LAYERS = layers  # Channels makes its layer again on this change
    return request.param


def _dropping(monkeypatch, share: float, rng: random.Random) -> list[int]:
    """Lose ``share`` of the table news the layer hands each socket; returns the seqs lost."""
    lost: list[int] = []
    real = TableConsumer.dispatch

    async def dispatch(self, message):
        if message.get("type") == "table.events" and rng.random() < share:
            lost.append(message["events"][-1]["seq"])
            return
        await real(self, message)

    monkeypatch.setattr(TableConsumer, "dispatch", dispatch)
    return lost


async def _sockets(table, seats) -> list[Client]:
    clients = []
    for user in await users_of(seats):
        connected, client, _ = await connect(table.code, user=user)
        assert connected
        clients.append(client)
    return clients


async def _within_bound(table_id: int, clients: list[Client]) -> int:
    """Every socket reaches the log's latest seq within the bound; returns that seq."""
    latest = await last_seq(table_id)
    await asyncio.wait_for(asyncio.gather(*(client.catch_up(latest) for client in clients)), BOUND)
    return latest


async def _close(clients: list[Client]) -> None:
    for client in clients:
        await client.close()


async def test_sockets_that_lose_news_at_random_are_never_behind_for_long(monkeypatch, redis_layer):
    rng = random.Random(37)
    lost = _dropping(monkeypatch, 0.3, rng)
    table, seats = await database_sync_to_async(open_table)("faras", 3)
    clients = await _sockets(table, seats)
    players = {client.name: client for client in clients}
    played = 0
    for _ in range(ACTIONS):
        await _within_bound(table.pk, clients)
        turn = clients[0].turn
        if turn is None or not turn.get("legal"):
            break
        verb, amount = pick_action(rng, turn["legal"])
        reply = await players[turn["player"]].request({"type": "action", "verb": verb, "amount": amount})
        assert reply["type"] == "ack", reply
        played += 1
    latest = await _within_bound(table.pk, clients)
    assert played >= 8 and lost  # news was lost, and play went on
    assert all(client.last_seq == latest for client in clients)
    await _close(clients)


def _late_group_subscriptions(monkeypatch, seconds: float) -> list[asyncio.Task]:
    """Every SUBSCRIBE to a group reaches Redis ``seconds`` late (redis-py's call returns at once)."""
    real = redis.asyncio.client.PubSub.subscribe
    late: list[asyncio.Task] = []

    async def subscribe(self, *names, **handlers):
        if any("__group__" in str(name) for name in names):
            late.append(asyncio.ensure_future(_after(seconds, real(self, *names, **handlers))))
            return None
        return await real(self, *names, **handlers)

    monkeypatch.setattr(redis.asyncio.client.PubSub, "subscribe", subscribe)
    return late


async def _after(seconds: float, work) -> None:
    await asyncio.sleep(seconds)
    await work


def _act_elsewhere(table, seats, rng: random.Random) -> bool:
    """The player to act plays, from a thread with no event loop of this process's sockets
    (as a Celery worker process does): its news goes through Redis. False: nobody to act."""
    try:
        player, legal = current_turn(table)
        if player is None:
            return False
        verbs = [entry.verb for entry in legal]
        verb = "chaal" if "chaal" in verbs and rng.random() < 0.8 else ("pack" if "pack" in verbs else verbs[0])
        by_name = {seat.engine_name: seat for seat in seats}
        hand_act(table_id=table.pk, seat_id=by_name[player].pk, verb=verb)
        return True
    finally:
        connections.close_all()  # this thread's connection, not left open to the test database


async def test_a_socket_whose_group_subscription_is_late_is_never_behind_for_long(monkeypatch, redis_layer):
    rng = random.Random(3737)
    late = _late_group_subscriptions(monkeypatch, 0.5)
    table, seats = await database_sync_to_async(open_table)("faras", 3, {"blind_turns": None})
    clients = []
    try:
        for user in await users_of(seats):
            connected, client, _ = await connect(table.code, user=user)
            assert connected
            clients.append(client)
            # News right after the socket read its snapshot, from another process.
            assert await asyncio.to_thread(_act_elsewhere, table, seats, rng)
            await _within_bound(table.pk, clients)
        for _ in range(6):
            if not await asyncio.to_thread(_act_elsewhere, table, seats, rng):
                break
            await _within_bound(table.pk, clients)
        latest = await _within_bound(table.pk, clients)
        assert all(client.last_seq == latest for client in clients)
    finally:
        await asyncio.gather(*late)
        await _close(clients)
