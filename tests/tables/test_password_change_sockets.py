"""Issue 24: a password change closes the sockets of the sessions it signed out.

The attack: session A keeps its table socket open; session B changes the password; A's pages
are signed out (Django's session auth hash no longer matches), but its socket still acted and
received the player's own cards. Now every socket of that user compares the hash its session
held with the new one, and the stale ones close with 4401, as at sign-out; other players'
sockets are untouched, and the old session cannot open a new one.
"""

from __future__ import annotations

import pytest
from channels.db import database_sync_to_async
from django.conf import settings
from django.contrib.auth import get_user_model

from tables.models import Event, Table
from tests.tables.conftest import open_table
from tests.tables.ws import TIMEOUT, WebsocketCommunicator, application, connect, sync_all, users_of

pytestmark = pytest.mark.django_db(transaction=True)
PASSWORD = "x-Password-1"  # tests.tables.conftest.make_user's


def _change_password_in_another_session(username: str) -> int:
    """Session B: log in with the password and change it through Django's own form."""
    from django.db import connection
    from django.test import Client
    from django.urls import reverse

    browser = Client()
    try:
        browser.force_login(get_user_model().objects.get(username=username))
        response = browser.post(
            reverse("password_change"),
            {"old_password": PASSWORD, "new_password1": "a-New-secret-42", "new_password2": "a-New-secret-42"},
        )
        return response.status_code
    finally:
        connection.close()


async def _closed_with(client) -> int:
    output = await client.communicator.receive_output(timeout=10)
    while output["type"] != "websocket.close":
        output = await client.communicator.receive_output(timeout=10)
    return output["code"]


async def _log_length(table: Table) -> int:
    return await database_sync_to_async(lambda: Event.objects.filter(table=table).count())()


async def test_a_password_changed_elsewhere_closes_the_old_sessions_socket():
    table, seats = await database_sync_to_async(open_table)("faras", 3)
    users = await users_of(seats)
    clients = {}
    for user in users:
        connected, client, _code = await connect(table.code, user=user)
        assert connected
        clients[client.name] = client
    await sync_all(table.pk, list(clients.values()))
    victim = clients[str(seats[1].pk)]
    others = [client for name, client in clients.items() if name != str(seats[1].pk)]
    username = users[1].username
    assert await database_sync_to_async(_change_password_in_another_session)(username) == 302
    assert await _closed_with(victim) == 4401
    before = await _log_length(table)
    await victim.communicator.send_json_to({"type": "action", "id": "late", "verb": "pack"})
    assert await victim.communicator.receive_nothing(timeout=0.5)
    assert await _log_length(table) == before
    # Everyone else's sockets still answer.
    for other in others:
        assert (await other.request({"type": "ping"}))["type"] == "pong"
    # The old session opens no new socket.
    headers = [
        (b"origin", b"http://localhost"),
        (b"cookie", f"{settings.SESSION_COOKIE_NAME}={victim.session_key}".encode()),
        (b"host", b"localhost"),
    ]
    again = WebsocketCommunicator(application, f"/ws/table/{table.code}/", headers=headers)
    connected, code = await again.connect(timeout=TIMEOUT)
    assert not connected and code == 4403
    # A session made with the new password opens one as before.
    fresh_user = await database_sync_to_async(get_user_model().objects.get)(username=username)
    connected, fresh, _code = await connect(table.code, user=fresh_user)
    assert connected
    for client in [*others, fresh]:
        await client.close()


async def test_saving_the_user_without_a_new_password_closes_nothing():
    table, seats = await database_sync_to_async(open_table)("faras", 2)
    users = await users_of(seats)
    connected, client, _code = await connect(table.code, user=users[1])
    assert connected

    def rename() -> None:
        user = get_user_model().objects.get(pk=users[1].pk)
        user.first_name = "Renamed"
        user.save()

    await database_sync_to_async(rename)()
    assert (await client.request({"type": "ping"}))["type"] == "pong"
    await client.close()
