"""Who has the table open (issue 28, ``tables.live.presence``): every snapshot lists the seats
with a page open, and the table's sockets hear when a seat comes online or has no page
left open (a second page of the same seat closing is not news)."""

from __future__ import annotations

import pytest
from channels.db import database_sync_to_async

from tests.tables.conftest import open_table
from tests.tables.ws import Client, connect, users_of


async def _presence(client: Client) -> dict:
    while True:
        frame = await client.read_one()
        if frame.get("type") == "presence" and frame["seat"] != client.seat_id:
            return frame


@pytest.mark.django_db(transaction=True)
async def test_pages_hear_who_comes_online_and_who_has_no_page_left():
    table, seats = await database_sync_to_async(open_table)("faras", 3, None, False)
    users = await users_of(seats)
    host_id, guest_id, third_id = (seat.pk for seat in seats)
    _ok, host, _ = await connect(table.code, user=users[0])
    assert host.snapshots[0]["online"] == [host_id]
    _ok, guest, _ = await connect(table.code, user=users[1])
    assert sorted(guest.snapshots[0]["online"]) == sorted([host_id, guest_id])
    assert await _presence(host) == {"type": "presence", "seat": guest_id, "online": True}
    # A second page of the same seat is no news; closing one of the two is none either.
    _ok, guest_again, _ = await connect(table.code, user=users[1])
    await guest_again.close()
    await guest.close()
    assert await _presence(host) == {"type": "presence", "seat": guest_id, "online": False}
    # Nothing was said in between: the first presence news after "online" is this one.
    assert [f for f in host.frames if f.get("type") == "presence" and f["seat"] == guest_id] == [
        {"type": "presence", "seat": guest_id, "online": True},
        {"type": "presence", "seat": guest_id, "online": False},
    ]
    snapshot = await host.snapshot_now()
    assert snapshot["online"] == [host_id]
    assert third_id not in snapshot["online"]
    await host.close()
