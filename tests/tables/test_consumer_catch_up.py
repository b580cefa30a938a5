"""No news is lost for good: a socket learns the table's latest seq without the next broadcast.

Rules pinned (DESIGN.md: the channel layer is news that may be lost, the log is the
record): a socket that hears nothing for ``quiet_seconds`` reads the table's latest seq
and sends what it missed from the log, in order, once; ``ping`` does it at once and its
``pong`` carries the table's latest seq. A socket that connects while the channel layer
is down is told ``unavailable`` and closed with 4503, not failed with a 500.
"""

from __future__ import annotations

import asyncio

import pytest
from channels.db import database_sync_to_async
from channels.layers import get_channel_layer

from tables.live.consumers import CLOSE_UNAVAILABLE, TableConsumer
from tables.models import Event
from tables.services import hand_act
from tests.tables.conftest import current_turn, open_table
from tests.tables.ws import TIMEOUT, connect, last_seq, users_of

pytestmark = pytest.mark.django_db(transaction=True)


def _act_unheard(table, seats, monkeypatch) -> int:
    """A player acts and the broadcast is lost (as channels-redis drops it after Redis returns)."""
    import tables.services.log as log_module

    player, legal = current_turn(table)
    by_name = {seat.engine_name: seat for seat in seats}
    verb = "chaal" if any(entry.verb == "chaal" for entry in legal) else legal[0].verb
    with monkeypatch.context() as patch:
        patch.setattr(log_module, "broadcast", lambda *args, **kwargs: None)
        return hand_act(table_id=table.pk, seat_id=by_name[player].pk, verb=verb, client_action_id="lost-1")


async def _clients(table, seats):
    users = await users_of(seats)
    clients = []
    for user in users:
        connected, client, _ = await connect(table.code, user=user)
        assert connected
        clients.append(client)
    for index, client in enumerate(clients):
        for _later in clients[index + 1 :]:  # each page opened after it is news to it (issue 28)
            assert (await client.read_one())["type"] == "presence"
    return clients


async def test_a_quiet_socket_catches_up_on_a_lost_broadcast(monkeypatch):
    monkeypatch.setattr(TableConsumer, "quiet_seconds", 0.3)
    table, seats = await database_sync_to_async(open_table)("faras", 3)
    clients = await _clients(table, seats)
    before = clients[0].last_seq
    seq = await database_sync_to_async(_act_unheard)(table, seats, monkeypatch)
    latest = await last_seq(table.pk)
    assert seq > before and latest > before
    for client in clients:
        # No broadcast came; the socket's own watcher sends the events (Client asserts no gap, no repeat).
        await asyncio.wait_for(client.catch_up(latest), TIMEOUT)
        assert client.last_seq == latest
        heard = [event for frame in client.frames for event in frame.get("events", [])]
        assert [event["seq"] for event in heard] == list(range(before + 1, latest + 1))
        assert any(event.get("kind") == "action" and event["seq"] == seq for event in heard)
    # Nothing more arrives: each missed event was sent once.
    await asyncio.sleep(0.8)
    for client in clients:
        assert await client.communicator.receive_nothing(timeout=0.2)
    for client in clients:  # (a page closing is news to the others: closed after the check)
        await client.close()


async def test_ping_sends_what_was_missed_and_pong_carries_the_latest_seq(monkeypatch):
    monkeypatch.setattr(TableConsumer, "quiet_seconds", 3600.0)  # only the ping can tell it
    table, seats = await database_sync_to_async(open_table)("faras", 3)
    clients = await _clients(table, seats)
    before = clients[1].last_seq
    await database_sync_to_async(_act_unheard)(table, seats, monkeypatch)
    latest = await last_seq(table.pk)
    assert await clients[1].communicator.receive_nothing(timeout=0.3)
    pong = await clients[1].request({"type": "ping"})
    assert pong == {"type": "pong", "seq": latest, "id": pong["id"]}
    assert clients[1].last_seq == latest  # the events came before the pong
    heard = [event["seq"] for frame in clients[1].frames for event in frame.get("events", [])]
    assert heard == list(range(before + 1, latest + 1))
    # A socket that is up to date gets the same seq and no events.
    frames_before = len(clients[1].frames)
    pong = await clients[1].request({"type": "ping"})
    assert pong["seq"] == latest and len(clients[1].frames) == frames_before + 1
    for client in clients:
        await client.close()


async def test_a_resend_after_catching_up_is_applied_once(monkeypatch):
    monkeypatch.setattr(TableConsumer, "quiet_seconds", 0.3)
    table, seats = await database_sync_to_async(open_table)("faras", 2)
    clients = await _clients(table, seats)
    seq = await database_sync_to_async(_act_unheard)(table, seats, monkeypatch)
    latest = await last_seq(table.pk)
    await asyncio.wait_for(clients[0].catch_up(latest), TIMEOUT)
    count = await database_sync_to_async(lambda: Event.objects.filter(table=table, client_action_id="lost-1").count())()
    assert count == 1 and seq <= latest
    for client in clients:
        await client.close()


@pytest.mark.parametrize("failing", ["new_channel", "group_add"])
async def test_a_socket_connecting_while_the_layer_is_down_gets_a_clear_refusal(monkeypatch, failing):
    """Redis down: the layer fails to give the socket a channel (before the handshake) or
    to add it to the table's group; either way the socket hears why and is closed with 4503."""
    from channels.testing import WebsocketCommunicator

    from config.asgi import application
    from tests.tables.ws import _session_cookie

    table, seats = await database_sync_to_async(open_table)("faras", 2)
    users = await users_of(seats)
    layer = get_channel_layer()

    async def down(*args, **kwargs):
        raise ConnectionError("Redis is down")

    monkeypatch.setattr(layer, failing, down)
    seq_before = await last_seq(table.pk)
    session_key = await database_sync_to_async(_session_cookie)(users[0], None)
    headers = [
        (b"origin", b"http://localhost"),
        (b"cookie", f"sessionid={session_key}".encode()),
        (b"host", b"localhost"),
    ]
    communicator = WebsocketCommunicator(application, f"/ws/table/{table.code}/", headers=headers)
    connected, _ = await communicator.connect(timeout=TIMEOUT)
    assert connected  # accepted so that it can be told why, not an HTTP 500
    frame = await communicator.receive_json_from(timeout=TIMEOUT)
    assert frame["type"] == "error" and frame["code"] == "unavailable" and frame["message"]
    closed = await communicator.receive_output(timeout=TIMEOUT)
    assert closed == {"type": "websocket.close", "code": CLOSE_UNAVAILABLE}
    await communicator.wait()
    assert await last_seq(table.pk) == seq_before  # nothing written


async def test_quiet_tables_are_read_together_not_once_per_socket(monkeypatch):
    """The process's one watcher reads the latest seq of every quiet table in one query;
    no socket reads it on its own (per socket, 400 sockets starved the actions)."""
    from tables import selectors

    monkeypatch.setattr(TableConsumer, "quiet_seconds", 0.3)
    calls: list[list[int]] = []
    per_socket: list[int] = []
    together = selectors.tables_last_seq
    alone = selectors.table_last_seq

    def counted_together(*, table_ids):
        calls.append(sorted(table_ids))
        return together(table_ids=table_ids)

    def counted_alone(*, table_id):
        per_socket.append(table_id)
        return alone(table_id=table_id)

    monkeypatch.setattr(selectors, "tables_last_seq", counted_together)
    monkeypatch.setattr(selectors, "table_last_seq", counted_alone)
    first, first_seats = await database_sync_to_async(open_table)("faras", 3)
    second, second_seats = await database_sync_to_async(open_table)("faras", 3)
    clients = await _clients(first, first_seats) + await _clients(second, second_seats)
    before = clients[0].last_seq
    await database_sync_to_async(_act_unheard)(first, first_seats, monkeypatch)
    latest = await last_seq(first.pk)
    for client in clients[:3]:
        await asyncio.wait_for(client.catch_up(latest), TIMEOUT)
        heard = [event["seq"] for frame in client.frames for event in frame.get("events", [])]
        assert heard == list(range(before + 1, latest + 1))
    assert calls, "the watcher never read the log"
    assert all(len(ids) == len(set(ids)) for ids in calls)  # a table once per read, whatever its sockets
    assert per_socket == []  # no socket asked on its own
    for client in clients:
        await client.close()


async def test_a_beat_is_answered_with_the_sockets_own_seq_without_reading_the_log(monkeypatch):
    """The page's frequent heartbeat (``beat``) reads no log: its pong carries the last seq
    this socket sent (a page behind it lost news on the way and asks for a snapshot); a
    socket behind the log is the quiet watcher's and the slower ``ping``'s to find."""
    monkeypatch.setattr(TableConsumer, "quiet_seconds", 3600.0)
    table, seats = await database_sync_to_async(open_table)("faras", 3)
    clients = await _clients(table, seats)
    sent = clients[1].last_seq
    await database_sync_to_async(_act_unheard)(table, seats, monkeypatch)
    latest = await last_seq(table.pk)
    assert latest > sent
    frames_before = len(clients[1].frames)
    pong = await clients[1].request({"type": "beat"})
    assert pong == {"type": "pong", "seq": sent, "id": pong["id"]}
    assert len(clients[1].frames) == frames_before + 1  # the pong only: nothing read, nothing sent
    pong = await clients[1].request({"type": "ping"})  # the ping reads the log and catches up
    assert pong["seq"] == latest and clients[1].last_seq == latest
    for client in clients:
        await client.close()
