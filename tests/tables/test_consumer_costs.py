"""What delivering news costs a socket's event loop (docs/measurements/live-play.md).

Rule pinned: the consumer makes no hop to a database thread per message. Channels'
``AsyncConsumer.dispatch`` checks the database connections of its sync thread before
every message; ``TableConsumer.dispatch`` leaves that out, as each of its database calls
checks its own connection inside the call (``tables.live.consumers.database_sync_to_async``).
"""

from __future__ import annotations

import pytest
from channels.db import database_sync_to_async

from tests.tables.conftest import open_table
from tests.tables.ws import connect, sync_all, users_of

pytestmark = pytest.mark.django_db(transaction=True)


async def test_news_and_frames_make_no_connection_check_hop(monkeypatch):
    import channels.consumer

    checks: list[None] = []

    async def counted() -> None:
        checks.append(None)

    monkeypatch.setattr(channels.consumer, "aclose_old_connections", counted)
    table, seats = await database_sync_to_async(open_table)("faras", 3)
    clients = {}
    for user in await users_of(seats):
        connected, client, _ = await connect(table.code, user=user)
        assert connected
        clients[client.name] = client
    await sync_all(table.pk, list(clients.values()))
    actor = clients[next(iter(clients.values())).turn["player"]]

    reply = await actor.request({"type": "action", "verb": "chaal"})
    seq = await sync_all(table.pk, list(clients.values()))
    pong = await actor.request({"type": "ping"})

    assert reply["type"] == "ack" and pong == {"type": "pong", "seq": seq, "id": pong["id"]}
    assert all(client.screens and client.screens[-1]["seq"] == seq for client in clients.values())
    assert checks == []
    for client in clients.values():
        await client.close()
