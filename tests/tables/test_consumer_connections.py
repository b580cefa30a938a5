"""A socket's database work leaves no connection behind (PostgreSQL).

Rule pinned: with ``CONN_MAX_AGE`` 0 each service call a socket makes closes the database
connection it opened, as a request does. Channels' own check runs outside the context
the call runs in and never saw that connection, so idle sessions outlived their threads
(and kept the test database from being dropped at the end of a run).
"""

from __future__ import annotations

import pytest
from channels.db import database_sync_to_async
from django.db import connection

from tests.tables.conftest import open_table
from tests.tables.ws import connect, users_of

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]


def _other_sessions() -> int:
    with connection.cursor() as cursor:
        cursor.execute(
            "select count(*) from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid()"
        )
        return cursor.fetchone()[0]


async def test_sockets_leave_no_database_session_behind(monkeypatch):
    monkeypatch.setitem(connection.settings_dict, "CONN_MAX_AGE", 0)
    table, seats = await database_sync_to_async(open_table)("faras", 3)
    users = await users_of(seats)
    before = await database_sync_to_async(_other_sessions)()
    clients = []
    for user in users:
        connected, client, _ = await connect(table.code, user=user)
        assert connected
        clients.append(client)
    await clients[0].communicator.send_json_to({"type": "ping", "id": 1})
    await clients[0].read_one()
    for client in clients:
        await client.communicator.disconnect()
    assert await database_sync_to_async(_other_sessions)() <= before
