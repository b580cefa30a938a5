"""Issue 24: limits per person and per address on table sockets and their reads.

The attack: one signed-up user opened 200 sockets to their own table and sent snapshot
requests within each socket's own burst; a socket at another table then waited seconds for
its handshake and its moves. Now a person may hold 12 sockets and an address 100; one more is
told ``too_many_sockets`` and closed with 4429; reads (the opening snapshot, ``snapshot`` and
``resync``) come from a bucket per person (30, then 2 a second) and per address (200, then 20
a second), and one beyond is answered ``too_many_reads``. Meanwhile another table's sockets
connect, read and play. A full table of friends on one Wi-Fi (16 players, two devices each,
all reconnecting at once) never meets the limits. Speed is measured in
``benchmarks/socket_flood.py``; these tests count.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.test import override_settings

import config.settings as site_settings
from config.asgi import application
from tables.live.socket_limits import LIMITS
from tables.models import Seat
from tests.tables.conftest import open_table
from tests.tables.ws import TIMEOUT, Client, _session_cookie, users_of

pytestmark = pytest.mark.django_db(transaction=True)

DEFAULTS = {
    "DASHAIN_SOCKETS_PER_PERSON": 12,
    "DASHAIN_SOCKETS_PER_ADDRESS": 100,
    "DASHAIN_READS_PER_PERSON_BURST": 30,
    "DASHAIN_READS_PER_PERSON_RATE": 2.0,
    "DASHAIN_READS_PER_ADDRESS_BURST": 200,
    "DASHAIN_READS_PER_ADDRESS_RATE": 20.0,
    "DASHAIN_COMMANDS_PER_PERSON_BURST": 30,
    "DASHAIN_COMMANDS_PER_PERSON_RATE": 2.0,
}


def test_the_defaults_are_the_documented_numbers():
    for name, value in DEFAULTS.items():
        assert getattr(site_settings, name) == value, name


async def _open(code: str, user: Any, address: str = "192.168.1.20") -> tuple[bool, Client, int | None, dict | None]:
    """A socket from ``address``; (accepted for good, client, close code, the error it was told)."""
    session_key = await database_sync_to_async(_session_cookie)(user, None)
    headers = [
        (b"origin", b"http://localhost"),
        (b"cookie", f"sessionid={session_key}".encode()),
        (b"host", b"localhost"),
    ]
    communicator = WebsocketCommunicator(application, f"/ws/table/{code}/", headers=headers)
    communicator.scope["client"] = (address, 50000)
    connected, close_code = await communicator.connect(timeout=TIMEOUT)
    client = Client(communicator, "?")
    if not connected:
        return False, client, close_code, None
    first = json.loads((await communicator.receive_output(timeout=TIMEOUT))["text"])
    if first.get("type") == "error":
        closed = await communicator.receive_output(timeout=TIMEOUT)
        assert closed["type"] == "websocket.close"
        return False, client, closed["code"], first
    client.frames.append(first)
    client.seat_id = first["you"]
    client.last_seq = first["seq"]
    return True, client, None, None


async def _snapshot(client: Client) -> dict:
    """Ask for a snapshot; the snapshot, or the error that refused it."""
    await client.send({"type": "snapshot"})
    frame = await client.read_one()
    while frame.get("type") not in ("snapshot", "error"):
        frame = await client.read_one()
    return frame


async def test_one_persons_flood_of_sockets_is_refused_beyond_the_limit_and_another_table_plays_on():
    with override_settings(**DEFAULTS):
        table, seats = await database_sync_to_async(open_table)("faras", 2)
        other, other_seats = await database_sync_to_async(open_table)("faras", 2)
        flooder = (await users_of(seats))[1]
        kept, refused = [], []
        for _attempt in range(200):
            accepted, client, code, told = await _open(table.code, flooder)
            if accepted:
                kept.append(client)
            else:
                refused.append((code, told))
        assert len(kept) == 12 and len(refused) == 188
        assert {code for code, _told in refused} == {4429}
        assert {told["code"] for _code, told in refused} == {"too_many_sockets"}
        assert "Too many open pages" in refused[0][1]["message"]
        # Another table, on the same Wi-Fi even: its players connect, read and play.
        players = await users_of(other_seats)
        sockets = []
        for user in players:
            accepted, client, _code, _told = await _open(other.code, user)
            assert accepted
            sockets.append(client)
        hand = await database_sync_to_async(lambda: other.hands.get(ended_at__isnull=True))()
        by_seat = {str(client.seat_id): client for client in sockets}
        actor = by_seat[hand.to_act]
        reply = await actor.request({"type": "action", "verb": "pack"})
        assert reply["type"] == "ack", reply
        assert (await _snapshot(sockets[0]))["type"] == "snapshot"
        # One of the flooder's sockets closes: one more may open.
        await kept.pop().close()
        accepted, client, _code, _told = await _open(table.code, flooder)
        assert accepted
        kept.append(client)
        for client in kept + sockets:
            await client.close()


async def test_snapshot_requests_beyond_a_persons_reads_are_refused_and_the_socket_lives():
    with override_settings(**DEFAULTS):
        table, seats = await database_sync_to_async(open_table)("faras", 2)
        other, other_seats = await database_sync_to_async(open_table)("faras", 2)
        flooder = (await users_of(seats))[1]
        kept = []
        for _socket in range(12):
            accepted, client, _code, _told = await _open(table.code, flooder)
            assert accepted
            kept.append(client)
        served = refused = 0
        for round_ in range(10):
            for index, client in enumerate(kept):
                await client.send({"type": "snapshot", "id": f"{round_}-{index}"})
        for client in kept:
            for _reply in range(10):
                frame = await client.read_one()
                while frame.get("type") not in ("snapshot", "error"):
                    frame = await client.read_one()
                if frame["type"] == "snapshot":
                    served += 1
                else:
                    assert frame["code"] == "too_many_reads", frame
                    refused += 1
        # 12 opening reads and 120 requests against a burst of 30 (and 2 a second while it ran).
        assert served + refused == 120
        assert served <= 30 - 12 + 10 and refused >= 80, (served, refused)
        assert (await kept[0].request({"type": "ping"}))["type"] == "pong"  # still open
        # Another person at another table reads at once.
        accepted, client, _code, _told = await _open(other.code, (await users_of(other_seats))[0])
        assert accepted
        assert (await _snapshot(client))["type"] == "snapshot"
        for socket in [*kept, client]:
            await socket.close()


async def test_an_address_is_limited_too_but_a_full_house_on_one_wifi_never_is():
    with override_settings(**DEFAULTS):
        # 999 seats 16: every one of them on a phone and a laptop, all on the house's Wi-Fi.
        table, seats = await database_sync_to_async(open_table)("999", 16, {"seats": 16}, False)
        users = await users_of(seats)
        sockets = []
        for _device in range(2):
            for user in users:
                accepted, client, code, told = await _open(table.code, user, address="10.0.0.1")
                assert accepted, (code, told)
                sockets.append(client)
        # The Wi-Fi drops and every page opens again at once.
        for client in sockets:
            await client.close()
        sockets = []
        for _device in range(2):
            for user in users:
                accepted, client, code, told = await _open(table.code, user, address="10.0.0.1")
                assert accepted, (code, told)
                sockets.append(client)
        for client in sockets:
            await client.close()
        assert not LIMITS.open_by_address  # every socket closed was counted out


async def test_many_accounts_from_one_address_stop_at_the_address_limit():
    with override_settings(**{**DEFAULTS, "DASHAIN_SOCKETS_PER_ADDRESS": 20}):
        table, seats = await database_sync_to_async(open_table)("999", 8, {"seats": 16}, False)
        users = await users_of(seats)
        opened, refused = [], 0
        for _round in range(3):
            for user in users:
                accepted, client, code, _told = await _open(table.code, user, address="203.0.113.9")
                if accepted:
                    opened.append(client)
                else:
                    assert code == 4429
                    refused += 1
        assert len(opened) == 20 and refused == 4
        # Another address is not touched by it.
        accepted, client, _code, _told = await _open(table.code, users[0], address="198.51.100.7")
        assert accepted
        for socket in [*opened, client]:
            await socket.close()
        await database_sync_to_async(lambda: Seat.objects.filter(table=table).count())()
