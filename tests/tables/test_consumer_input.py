"""Bad input of every kind gets an error frame and changes nothing; who may do what.

Rules pinned: a malformed, oversized or unknown message, an action out of turn, and too
many messages too fast are refused with a code; a resent action id is applied once; a
player cannot act for another; a guest cannot use the host's controls; sockets without a
session or from another origin are refused; spectators cannot act.
"""

from __future__ import annotations

import json

import pytest
from channels.db import database_sync_to_async

from tables.live.consumers import TableConsumer
from tables.models import Event, Seat, Table
from tables.services import guest_token_new, table_join
from tests.tables.conftest import make_user, open_table
from tests.tables.ws import connect, sync_all, users_of

pytestmark = pytest.mark.django_db(transaction=True)


async def _table_with_clients(players: int = 3):
    table, seats = await database_sync_to_async(open_table)("faras", players)
    users = await users_of(seats)
    clients = {}
    for user in users:
        connected, client, _ = await connect(table.code, user=user)
        assert connected
        clients[client.name] = client
    return table, seats, clients


async def _log_length(table: Table) -> int:
    return await database_sync_to_async(lambda: Event.objects.filter(table=table).count())()


async def test_bad_messages_get_error_frames_and_change_nothing():
    table, _seats, clients = await _table_with_clients()
    client = next(iter(clients.values()))
    before = await _log_length(table)
    cases = [
        ("not json at all", "bad_json"),
        (json.dumps([1, 2, 3]), "bad_message"),
        (json.dumps({"no": "type"}), "bad_message"),
        (json.dumps({"type": "fly"}), "bad_type"),
        (json.dumps({"type": "action", "verb": "chaal"}), "bad_id"),
        (json.dumps({"type": "action", "id": {"x": 1}, "verb": "chaal"}), "bad_id"),
        (json.dumps({"type": "action", "id": "a", "verb": 7}), "bad_verb"),
        (json.dumps({"type": "action", "id": "b", "verb": "raise", "amount": "lots"}), "bad_amount"),
        (json.dumps({"type": "action", "id": "c", "verb": "raise", "amount": -5}), "bad_amount"),
        (json.dumps({"type": "action", "id": "d", "verb": "raise", "amount": True}), "bad_amount"),
        (json.dumps({"type": "resync", "after": "x"}), "bad_after"),
        (json.dumps({"type": "seat", "verb": "dance"}), "bad_verb"),
        (json.dumps({"type": "seed", "seed": "no spaces allowed"}), "bad_seed"),
        (json.dumps({"type": "action", "id": "e", "verb": "x" * 5000}), "too_large"),
    ]
    for text, code in cases:
        await client.communicator.send_to(text_data=text)
        frame = await client.communicator.receive_json_from(timeout=10)
        while frame.get("type") != "error":
            frame = await client.communicator.receive_json_from(timeout=10)
        assert frame["code"] == code, (text[:60], frame)
        assert frame["message"]
    await client.communicator.send_to(bytes_data=b"\x00\x01")
    assert (await client.communicator.receive_json_from(timeout=10))["code"] == "bad_frame"
    assert await _log_length(table) == before


async def test_out_of_turn_and_acting_for_another_are_refused():
    table, _seats, clients = await _table_with_clients()
    await sync_all(table.pk, list(clients.values()))
    some = next(iter(clients.values()))
    turn = some.turn
    waiting = [c for name, c in clients.items() if name != turn["player"]]
    before = await _log_length(table)
    reply = await waiting[0].request({"type": "action", "verb": "chaal"})
    assert reply["type"] == "error" and reply["code"] == "not_your_turn", reply
    # Naming another player in the message does not help: the seat is the socket's own.
    reply = await waiting[0].request({"type": "action", "verb": "chaal", "player": turn["player"]})
    assert reply["code"] == "not_your_turn"
    assert await _log_length(table) == before


async def test_a_resent_action_id_is_applied_once():
    table, _seats, clients = await _table_with_clients()
    await sync_all(table.pk, list(clients.values()))
    actor = clients[next(iter(clients.values())).turn["player"]]
    first = await actor.request({"type": "action", "id": "same", "verb": "chaal"})
    assert first["type"] == "ack"
    after_first = await _log_length(table)
    again = await actor.request({"type": "action", "id": "same", "verb": "chaal"})
    assert again == {"type": "ack", "seq": first["seq"], "id": "same"}
    assert await _log_length(table) == after_first


async def test_rate_limit_refuses_a_flood_and_changes_nothing(monkeypatch):
    monkeypatch.setattr(TableConsumer, "rate_burst", 5)
    monkeypatch.setattr(TableConsumer, "rate_per_second", 0.0)
    table, _seats, clients = await _table_with_clients()
    client = next(iter(clients.values()))
    before = await _log_length(table)
    codes = []
    for _ in range(12):
        await client.send({"type": "ping"})
    while len(codes) < 12:
        frame = await client.read_one()
        if frame.get("type") in ("pong", "error"):
            codes.append(frame.get("code", "pong"))
    assert codes.count("pong") == 5
    assert codes.count("rate_limited") == 7
    assert await _log_length(table) == before


async def test_a_guest_cannot_use_host_controls_and_a_spectator_cannot_act():
    table, _seats, clients = await _table_with_clients()
    token = guest_token_new()
    await database_sync_to_async(table_join)(
        code=table.code, invite_token=table.invite_token, guest_name="Ghost", guest_token=token
    )
    connected, guest, _ = await connect(table.code, guest_token=token)
    assert connected
    before = await _log_length(table)
    for verb in ("pause", "end", "resume", "start", "settings", "remove"):
        reply = await guest.request({"type": "host", "verb": verb, "settings": {"boot": 20}, "seat": 1})
        assert reply["type"] == "error" and reply["code"] == "not_host", (verb, reply)
    reply = await guest.request({"type": "action", "verb": "chaal"})
    assert reply["code"] == "not_in_hand"
    reply = await guest.request({"type": "see"})
    assert reply["code"] == "not_in_hand"
    # A seated player who is not the host cannot either.
    host_id = await database_sync_to_async(lambda: Seat.objects.get(table=table, user=table.host).pk)()
    other = next(c for name, c in clients.items() if name != str(host_id))
    assert (await other.request({"type": "host", "verb": "pause"}))["code"] == "not_host"
    assert await _log_length(table) == before
    # The host can.
    host = clients[str(host_id)]
    assert (await host.request({"type": "host", "verb": "pause"}))["type"] == "ack"
    paused = await other.request({"type": "action", "verb": "chaal"})
    assert paused["code"] == "paused"


async def test_sockets_without_a_seat_session_or_from_another_origin_are_refused():
    table, _seats, _clients = await _table_with_clients(2)
    connected, _client, code = await connect(table.code)
    assert not connected and code == 4403
    connected, _client, code = await connect(table.code, guest_token=guest_token_new())  # never joined
    assert not connected
    user = await database_sync_to_async(make_user)("elsewhere")
    connected, _client, _code = await connect(table.code, user=user, origin=b"http://evil.example")
    assert not connected
    connected, _client, _code = await connect("NOSUCH", user=user)
    assert not connected


async def test_a_frame_nested_too_deep_is_bad_json_and_the_socket_lives():
    """3,000 open brackets fit in a frame (3 KB) but not in the parser's stack: refused, not fatal."""
    table, _seats, clients = await _table_with_clients(2)
    client = next(iter(clients.values()))
    before = await _log_length(table)
    for text in ("[" * 3000, '{"a":' * 800, "[" * 2000 + "]" * 2000):
        await client.communicator.send_to(text_data=text)
        frame = await client.read_one()
        while frame.get("type") != "error":
            frame = await client.read_one()
        assert frame["code"] == "bad_json", frame
    # The socket still answers.
    assert (await client.request({"type": "ping"}))["type"] == "pong"
    assert await _log_length(table) == before


def _sign_out(session_key: str) -> int:
    from django.conf import settings
    from django.db import connection
    from django.test import Client as HttpClient
    from django.urls import reverse

    browser = HttpClient()
    browser.cookies[settings.SESSION_COOKIE_NAME] = session_key
    try:
        return browser.post(reverse("logout")).status_code
    finally:
        connection.close()  # this thread's connection, so the test database can be dropped


async def test_signing_out_closes_the_sockets_that_session_opened():
    """A page left open after its user signed out elsewhere can no longer act for them."""
    table, _seats, clients = await _table_with_clients(2)
    await sync_all(table.pk, list(clients.values()))
    actor = clients[next(iter(clients.values())).turn["player"]]
    other = next(c for c in clients.values() if c is not actor)
    before = await _log_length(table)
    assert await database_sync_to_async(_sign_out)(actor.session_key) in (200, 302)
    closed = await actor.communicator.receive_output(timeout=10)
    while closed["type"] != "websocket.close":
        closed = await actor.communicator.receive_output(timeout=10)
    assert closed["code"] == 4401
    # Whatever the closed page still sends does nothing.
    await actor.communicator.send_json_to({"type": "action", "id": "late", "verb": "chaal"})
    assert await actor.communicator.receive_nothing(timeout=0.5)
    assert await _log_length(table) == before
    # The other player's socket, with its own session, still works.
    assert (await other.request({"type": "ping"}))["type"] == "pong"
    # And the old session opens no new socket.
    from tests.tables.ws import TIMEOUT, WebsocketCommunicator, application

    headers = [
        (b"origin", b"http://localhost"),
        (b"cookie", f"sessionid={actor.session_key}".encode()),
        (b"host", b"localhost"),
    ]
    again = WebsocketCommunicator(application, f"/ws/table/{table.code}/", headers=headers)
    connected, code = await again.connect(timeout=TIMEOUT)
    assert not connected and code == 4403
