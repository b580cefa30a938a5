"""A database that cannot be reached: every socket is told so, plainly, and nothing changes.

Rules pinned (issue 30; docs/operations.md, "The database stopped"): a request that the
database's absence stops is answered ``{"type": "error", "code": "unavailable", "id": ...}``
and the socket stays open, so the same request with the same id is applied once when the
database is back; a socket that connects while it is away (its session and user cannot be
read, its table cannot be found, or its snapshot cannot be read) is accepted, told
``unavailable`` and closed with 4503, never answered with an HTTP 500 or a 1011; news that
needs the log to be exact closes the socket with 4503 (the page reconnects to a snapshot).

The failures here are Django's own errors raised where the database would raise them; the
fault tests (``test_database_faults.py``) stop a real PostgreSQL.
"""

from __future__ import annotations

import pytest
from channels.db import database_sync_to_async
from channels.layers import get_channel_layer
from channels.testing import WebsocketCommunicator
from django.db import InterfaceError, OperationalError

from config.asgi import application
from tables import what_viewers_see
from tables.live.consumers import CLOSE_UNAVAILABLE
from tables.models import Event
from tests.tables.conftest import current_turn, open_table
from tests.tables.ws import TIMEOUT, _session_cookie, connect, last_seq, users_of

pytestmark = pytest.mark.django_db(transaction=True)


def _down(*args, **kwargs):
    raise OperationalError('connection failed: connection to server at "127.0.0.1", port 5432 failed')


async def _player_to_act(table, seats):
    users = await users_of(seats)
    player, legal = await database_sync_to_async(current_turn)(table)
    by_seat = {str(seat.pk): user for seat, user in zip(seats, users, strict=True)}
    connected, client, _ = await connect(table.code, user=by_seat[player])
    assert connected
    verb = "chaal" if any(entry.verb == "chaal" for entry in legal) else legal[0].verb
    return client, verb


@pytest.mark.parametrize("error", [OperationalError, InterfaceError])
async def test_an_action_while_the_database_is_away_is_refused_plainly_and_applied_once_after(monkeypatch, error):
    import tables.services as services

    table, seats = await database_sync_to_async(open_table)("faras", 2)
    client, verb = await _player_to_act(table, seats)
    before = await last_seq(table.pk)

    def down(**kwargs):
        raise error("server closed the connection unexpectedly")

    with monkeypatch.context() as patch:
        patch.setattr(services, "hand_act", down)
        reply = await client.request({"type": "action", "verb": verb, "id": "during"})
        assert reply["type"] == "error" and reply["code"] == "unavailable" and reply["id"] == "during"
        assert "Try again in a moment" in reply["message"]
        # The socket goes on: a ping fails the same way, and nothing was written.
        pong = await client.request({"type": "ping"})
        assert pong["type"] == "pong"
    assert await last_seq(table.pk) == before
    # The database is back: the same move with the same id is played, once.
    reply = await client.request({"type": "action", "verb": verb, "id": "during"})
    assert reply["type"] == "ack", reply
    again = await client.request({"type": "action", "verb": verb, "id": "during"})
    assert again == {"type": "ack", "seq": reply["seq"], "id": "during"}
    count = await database_sync_to_async(
        lambda: Event.objects.filter(table=table, client_action_id=f"{client.seat_id}:during").count()
    )()
    assert count == 1
    await client.close()


async def test_a_read_while_the_database_is_away_is_refused_and_the_socket_stays_open(monkeypatch):
    import tables.live.consumers as consumers

    table, seats = await database_sync_to_async(open_table)("faras", 2)
    client, _ = await _player_to_act(table, seats)
    with monkeypatch.context() as patch:
        # A ping reads the latest seq with the other pings of its moment (quiet_tables.TableWatch).
        patch.setattr(consumers.selectors, "tables_last_seq", _down)
        reply = await client.request({"type": "ping"})
        assert reply["type"] == "error" and reply["code"] == "unavailable", reply
    pong = await client.request({"type": "ping"})
    assert pong["type"] == "pong" and pong["seq"] == await last_seq(table.pk)
    await client.close()


async def _refused_at_connect(code: str, session_key: str) -> list[dict]:
    """Open a socket; what it is sent: accepted, then frames, then the close."""
    headers = [
        (b"origin", b"http://localhost"),
        (b"cookie", f"sessionid={session_key}".encode()),
        (b"host", b"localhost"),
    ]
    communicator = WebsocketCommunicator(application, f"/ws/table/{code}/", headers=headers)
    await communicator.send_input({"type": "websocket.connect"})
    out = []
    while True:
        message = await communicator.receive_output(timeout=TIMEOUT)
        out.append(message)
        if message["type"] == "websocket.close":
            break
    await communicator.wait()
    return out


def _assert_told_and_closed(out: list[dict]) -> None:
    import json

    assert [message["type"] for message in out] == ["websocket.accept", "websocket.send", "websocket.close"], out
    frame = json.loads(out[1]["text"])
    assert frame["type"] == "error" and frame["code"] == "unavailable" and frame["message"]
    assert out[2]["code"] == CLOSE_UNAVAILABLE


async def test_a_socket_whose_session_cannot_be_read_is_told_and_closed_4503_not_500(monkeypatch):
    from django.contrib.sessions.backends.db import SessionStore

    table, seats = await database_sync_to_async(open_table)("faras", 2)
    users = await users_of(seats)
    session_key = await database_sync_to_async(_session_cookie)(users[0], None)
    before = await last_seq(table.pk)
    with monkeypatch.context() as patch:
        patch.setattr(SessionStore, "load", _down)
        _assert_told_and_closed(await _refused_at_connect(table.code, session_key))
    assert await last_seq(table.pk) == before
    # Back: the same session connects as usual.
    connected, client, _ = await connect(table.code, user=users[0])
    assert connected and client.snapshots
    await client.close()


@pytest.mark.parametrize("where", ["identify", "snapshot"])
async def test_a_socket_whose_table_cannot_be_read_is_told_and_closed_4503(monkeypatch, where):
    """The table and seat lookup (before the handshake is accepted) or the snapshot (after
    it): either way one accept, the error frame, close 4503."""
    import tables.live.consumers as consumers

    table, seats = await database_sync_to_async(open_table)("faras", 2)
    users = await users_of(seats)
    session_key = await database_sync_to_async(_session_cookie)(users[0], None)
    with monkeypatch.context() as patch:
        if where == "identify":
            patch.setattr(consumers, "_identify", _down)
        else:
            patch.setattr(what_viewers_see, "table_snapshot", _down)
        _assert_told_and_closed(await _refused_at_connect(table.code, session_key))


async def test_news_that_needs_the_log_while_it_is_away_closes_the_socket_4503(monkeypatch):
    """News after a gap is filled from the log; with the database away the socket cannot be
    exact, so it is told and closed, and the page comes back to a fresh snapshot."""
    table, seats = await database_sync_to_async(open_table)("faras", 2)
    client, _ = await _player_to_act(table, seats)
    seq = client.last_seq
    monkeypatch.setattr(what_viewers_see, "table_catch_up", _down)
    await get_channel_layer().group_send(
        table.group_name, {"type": "table.events", "events": [{"seq": seq + 2, "kind": "turn", "data": {}}]}
    )
    frame = await client.communicator.receive_json_from(timeout=TIMEOUT)
    assert frame["type"] == "error" and frame["code"] == "unavailable"
    closed = await client.communicator.receive_output(timeout=TIMEOUT)
    assert closed == {"type": "websocket.close", "code": CLOSE_UNAVAILABLE}
