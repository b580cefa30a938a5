"""The host's "Act for" through the real consumer, with the frames the table page sends
(static/js/table/regions/clock.js): a move picked for the away player, and every hostile
frame refused with a clear error and nothing written (issue 38)."""

from __future__ import annotations

from datetime import timedelta

import pytest
from channels.db import database_sync_to_async
from django.utils import timezone

from tables.models import Event, Hand, Seat
from tests.tables.conftest import open_table
from tests.tables.ws import connect, sync_all, users_of


def _time_runs_out(table_id: int) -> None:
    Hand.objects.filter(table_id=table_id, ended_at__isnull=True).update(
        turn_deadline=timezone.now() - timedelta(seconds=1)
    )


def _log_size(table_id: int) -> int:
    return Event.objects.filter(table_id=table_id).count()


@pytest.mark.django_db(transaction=True)
async def test_the_host_picks_chaal_for_an_away_player_through_the_socket_and_hostile_frames_change_nothing():
    table, seats = await database_sync_to_async(open_table)("faras", 3, {"turn_timer": 10})
    users = await users_of(seats)
    clients = {}
    for user in users:
        _ok, client, _ = await connect(table.code, user=user)
        clients[client.name] = client
    host = clients[str(seats[0].pk)]
    if host.turn["player"] == host.name:  # the host's own turn first: played from their bar
        reply = await host.request({"type": "action", "verb": "chaal"})
        assert reply["type"] == "ack"
        await sync_all(table.pk, list(clients.values()))
    away_name = host.turn["player"]
    away = clients[away_name]
    other = next(client for name, client in clients.items() if name not in (host.name, away_name))
    frame = {"type": "host", "verb": "act_for", "seat": int(away_name)}
    size = await database_sync_to_async(_log_size)(table.pk)
    hostile = [
        (host, {**frame, "move": "chaal"}, "too_soon"),  # before their time ran out
    ]
    for client, message, code in hostile:
        reply = await client.request(message)
        assert reply["type"] == "error" and reply["code"] == code, reply
    await database_sync_to_async(_time_runs_out)(table.pk)
    hostile = [
        (other, {**frame, "move": "chaal"}, "not_host"),
        (away, {**frame, "move": "chaal"}, "not_host"),
        (host, {**frame, "move": "show"}, "player_only"),
        (host, {**frame, "move": "sideshow"}, "player_only"),
        (host, {**frame, "move": "see"}, "player_only"),
        (host, {**frame, "move": "call"}, "not_legal"),
        (host, {**frame, "move": "raise", "amount": 1}, "raise_too_small"),
        (host, {**frame, "move": "raise", "amount": "lots"}, "bad_amount"),
        (host, {**frame, "move": {"verb": "chaal"}}, "bad_move"),
        (host, {**frame, "move": "x" * 500}, "bad_move"),
        (host, {**frame, "seat": str(away_name), "move": "chaal"}, "no_seat"),
        (host, {**frame, "seat": int(other.name), "move": "chaal"}, "not_to_act"),
    ]
    for client, message, code in hostile:
        reply = await client.request(message)
        assert reply["type"] == "error" and reply["code"] == code, (message, reply)
        assert reply["message"]
    assert await database_sync_to_async(_log_size)(table.pk) == size
    done = await host.request({**frame, "move": "chaal"})
    assert done["type"] == "ack", done
    seq = await sync_all(table.pk, list(clients.values()))
    # Every page is told who acted for whom, the player's own among them.
    for client in clients.values():
        actions = [
            event
            for sent in client.frames
            if sent.get("type") == "events"
            for event in sent["events"]
            if event.get("kind") == "action" and event["data"].get("by") == "host"
        ]
        assert [(event["data"]["player"], event["data"]["verb"], event["data"]["by_seat"]) for event in actions] == [
            (away_name, "chaal", seats[0].pk)
        ]
        # No card of the away player's reached anyone else (they stay blind).
        cards = [
            event
            for sent in client.frames
            if sent.get("type") == "events"
            for event in sent["events"]
            if event.get("kind") in ("cards", "see")
        ]
        assert cards == []
    status = await database_sync_to_async(lambda: Seat.objects.get(pk=int(away_name)).status)()
    assert status == Seat.Status.PLAYING  # a chosen move keeps them in
    assert seq > size
    for client in clients.values():
        await client.close()
