"""Asking the host over the table's socket (issue 14): the frames of docs/live-play.md.

Pinned: a guest's ``ask`` reaches the host's screen as a pending request; the host's
``approve`` seats the guest and every screen drops the request; a denial reaches the
guest as an event; a guest's ``take`` is refused while the host approves seats; a
non-host's approve and every malformed approve frame get a clear error and change
nothing.
"""

from __future__ import annotations

import pytest
from channels.db import database_sync_to_async

from tables.models import Seat
from tables.services import guest_token_new, table_join, table_update_settings
from tests.tables.conftest import open_table
from tests.tables.ws import Client, connect, last_seq, sync_all

pytestmark = pytest.mark.django_db(transaction=True)


def _approving_table():
    table, seats = open_table("faras", players=2, start=False)
    table_update_settings(table_id=table.pk, seat_id=seats[0].pk, choices={"approve_seats": True})
    token = guest_token_new()
    guest = table_join(code=table.code, invite_token=table.invite_token, guest_name="Dipa", guest_token=token)
    return table, seats, guest, token, seats[0].user, seats[1].user


async def _open():
    table, _seats, guest, token, host_user, player_user = await database_sync_to_async(_approving_table)()
    ok_host, host, _ = await connect(table.code, user=host_user)
    ok_guest, dipa, _ = await connect(table.code, guest_token=token)
    ok_player, bikash, _ = await connect(table.code, user=player_user)
    assert ok_host and ok_guest and ok_player
    return table, guest, host, dipa, bikash


def _latest_requests(client: Client) -> list:
    for screen in reversed(client.screens):
        if "requests" in screen:
            return screen["requests"]
    return client.snapshots[-1]["requests"]


async def _seat_number(seat_id: int):
    return await database_sync_to_async(lambda: Seat.objects.get(pk=seat_id).number)()


async def test_a_guest_asks_the_host_approves_and_everyone_sees_it():
    table, guest, host, dipa, bikash = await _open()
    refused = await dipa.request({"type": "seat", "verb": "take"})
    assert refused["type"] == "error" and refused["code"] == "ask_host", refused
    reply = await dipa.request({"type": "seat", "verb": "ask", "what": "seat"})
    assert reply["type"] == "ack" and isinstance(reply["request"], int), reply
    await sync_all(table.pk, [host, dipa, bikash])
    for client in (host, dipa, bikash):
        assert [r["seat"] for r in _latest_requests(client)] == [guest.pk]
    again = await dipa.request({"type": "seat", "verb": "ask", "what": "seat"})
    assert again["type"] == "error" and again["code"] == "request_pending"
    approved = await host.request({"type": "host", "verb": "approve", "request": reply["request"]})
    assert approved["type"] == "ack", approved
    await sync_all(table.pk, [host, dipa, bikash])
    kinds = [e.get("kind") for f in dipa.frames if f.get("type") == "events" for e in f["events"]]
    assert kinds[-2:] == ["request_approved", "seat_taken"]
    assert _latest_requests(dipa) == [] and _latest_requests(host) == []
    seated = next(s for s in dipa.screens[-1]["seats"] if s["id"] == guest.pk)
    assert seated["number"] == 3 and await _seat_number(guest.pk) == 3
    for client in (host, dipa, bikash):
        await client.close()


async def test_a_denial_reaches_the_guest_and_a_withdrawal_ends_a_request():
    table, guest, host, dipa, bikash = await _open()
    reply = await dipa.request({"type": "seat", "verb": "ask", "what": "seat", "number": 5})
    denied = await host.request({"type": "host", "verb": "deny", "request": reply["request"]})
    assert denied["type"] == "ack"
    await sync_all(table.pk, [host, dipa])
    events = [e for f in dipa.frames if f.get("type") == "events" for e in f["events"]]
    assert events[-1]["kind"] == "request_denied" and events[-1]["data"]["seat"] == guest.pk
    assert await _seat_number(guest.pk) is None
    # Bikash (seated) asks to buy in again, then withdraws.
    ask = await bikash.request({"type": "seat", "verb": "ask", "what": "buy_back"})
    assert ask["type"] == "ack", ask
    withdrawn = await bikash.request({"type": "seat", "verb": "cancel"})
    assert withdrawn["type"] == "ack"
    await sync_all(table.pk, [host])
    assert _latest_requests(host) == []
    for client in (host, dipa, bikash):
        await client.close()


async def test_a_denial_is_in_the_askers_next_snapshot_only():
    """A reloaded page (a new socket's first frame) still tells the guest the host's no;
    the host's and another player's snapshots say nothing of it."""
    table, guest, host, dipa, bikash = await _open()
    reply = await dipa.request({"type": "seat", "verb": "ask", "what": "seat"})
    assert dipa.snapshots[-1]["denied"] is None
    await host.request({"type": "host", "verb": "deny", "request": reply["request"]})
    await sync_all(table.pk, [host, dipa, bikash])
    for client in (host, dipa, bikash):
        await client.close()
    users = await database_sync_to_async(
        lambda: {seat.pk: seat.user for seat in Seat.objects.filter(table_id=table.pk, user__isnull=False)}
    )()
    again = {}
    for client_before, kwargs in (
        (dipa, {"guest_token": guest.guest_token}),
        (host, {"user": users[host.seat_id]}),
        (bikash, {"user": users[bikash.seat_id]}),
    ):
        ok, client, _code = await connect(table.code, **kwargs)
        assert ok and client.seat_id == client_before.seat_id
        again[client.seat_id] = client.snapshots[-1]["denied"]
        await client.close()
    assert again == {guest.pk: "seat", host.seat_id: None, bikash.seat_id: None}


@pytest.mark.parametrize(
    "frame",
    [
        {"type": "host", "verb": "approve"},
        {"type": "host", "verb": "approve", "request": "12"},
        {"type": "host", "verb": "approve", "request": True},
        {"type": "host", "verb": "approve", "request": {"seq": 1}},
        {"type": "host", "verb": "deny", "request": [1]},
        {"type": "host", "verb": "approve", "request": 999999},
        {"type": "host", "verb": "approve", "seat": 1},
    ],
)
async def test_a_malformed_approve_frame_gets_a_clear_error_and_changes_nothing(frame):
    table, guest, host, dipa, bikash = await _open()
    await dipa.request({"type": "seat", "verb": "ask", "what": "seat"})
    await sync_all(table.pk, [host])
    before = await last_seq(table.pk)
    reply = await host.request(frame)
    assert reply["type"] == "error" and reply["code"] in ("bad_request", "no_request"), reply
    assert reply["message"]
    assert await last_seq(table.pk) == before and await _seat_number(guest.pk) is None
    for client in (host, dipa, bikash):
        await client.close()


async def test_a_player_or_the_asker_cannot_approve():
    table, guest, host, dipa, bikash = await _open()
    reply = await dipa.request({"type": "seat", "verb": "ask", "what": "seat"})
    before = await last_seq(table.pk)
    for client in (bikash, dipa):
        for verb in ("approve", "deny"):
            refused = await client.request({"type": "host", "verb": verb, "request": reply["request"]})
            assert refused["type"] == "error" and refused["code"] == "not_host", refused
    assert await last_seq(table.pk) == before and await _seat_number(guest.pk) is None
    for client in (host, dipa, bikash):
        await client.close()
