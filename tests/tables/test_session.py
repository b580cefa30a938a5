"""A socket's session at its table (tables.live.session), without a socket or a channel layer.

Rules pinned: the opening snapshot is exact at the table's seq; news in order is sent once
and old news not at all; news after a gap is replaced by what the log holds since the
session's seq (with its screen), so no event is skipped; a ``beat`` answers the last seq
sent without a read, a ``ping`` the table's latest after sending what was missed; a move
goes to the service for the session's seat and is answered with its seq.
"""

from __future__ import annotations

import asyncio
import json
import random
from collections.abc import Mapping
from typing import Any

import pytest
from channels.db import database_sync_to_async

from tables import selectors, what_viewers_see
from tables.live import session as session_module
from tables.live.commands import command_run
from tables.live.protocol import Act, Beat, Ping
from tables.live.session import TableSession
from tables.services import hand_act
from tests.tables.conftest import current_turn, news_captured, open_table, random_action, repeatable_decks

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(autouse=True)
def _repeatable_decks(monkeypatch):
    repeatable_decks(monkeypatch, random.Random(35))


class RecordingSocket:
    """What a session sends, as the page would read it."""

    def __init__(self) -> None:
        self.frames: list[dict[str, Any]] = []
        self.closed: list[int | None] = []

    async def send(self, text_data: str | None = None) -> None:
        assert text_data is not None
        self.frames.append(json.loads(text_data))

    async def send_json(self, content: Mapping[str, object]) -> None:
        self.frames.append(json.loads(json.dumps(content)))

    async def close(self, code: int | None = None) -> None:
        self.closed.append(code)


def _play_one(table, seats, rng: random.Random) -> None:
    player, legal = current_turn(table)
    seat = next(seat for seat in seats if seat.engine_name == player)
    verb, amount = random_action(rng, legal)
    hand_act(table_id=table.pk, seat_id=seat.pk, verb=verb, amount=amount)


async def _session_of(seat, table) -> tuple[TableSession, RecordingSocket]:
    socket = RecordingSocket()
    session = TableSession(
        socket,
        table_id=table.pk,
        seat_id=seat.pk,
        group=table.group_name,
        is_host=False,
        phone=None,
        holder_token=None,
    )
    await session.send_snapshot()
    return session, socket


def _seqs(frame: dict[str, Any]) -> list[int]:
    return [event["seq"] for event in frame["events"]]


async def test_news_in_order_is_sent_once_and_old_news_not_at_all(monkeypatch):
    table, seats = await database_sync_to_async(open_table)("classic", 3)
    session, socket = await _session_of(seats[1], table)
    snapshot = socket.frames[-1]
    assert snapshot["type"] == "snapshot" and session.last_seq == snapshot["seq"]
    assert snapshot["seq"] == await database_sync_to_async(selectors.table_last_seq)(table_id=table.pk)

    news = news_captured(monkeypatch)
    await database_sync_to_async(_play_one)(table, seats, random.Random(1))
    assert len(news) == 1
    await session.news(news[0])
    frame = socket.frames[-1]
    assert frame["type"] == "events" and _seqs(frame)[0] == snapshot["seq"] + 1
    assert frame["screen"]["seq"] == session.last_seq == news[0]["events"][-1]["seq"]

    sent = len(socket.frames)
    await session.news(news[0])  # the same news again: old news
    assert len(socket.frames) == sent


async def test_news_after_a_gap_is_replaced_by_what_the_log_holds(monkeypatch):
    table, seats = await database_sync_to_async(open_table)("classic", 3)
    session, socket = await _session_of(seats[2], table)
    before = session.last_seq
    news = news_captured(monkeypatch)
    rng = random.Random(2)
    await database_sync_to_async(_play_one)(table, seats, rng)
    await database_sync_to_async(_play_one)(table, seats, rng)
    assert len(news) == 2

    await session.news(news[1])  # the first was lost on the way
    frame = socket.frames[-1]
    latest = await database_sync_to_async(selectors.table_last_seq)(table_id=table.pk)
    assert frame["type"] == "events" and _seqs(frame) == list(range(before + 1, latest + 1))
    assert frame["screen"]["seq"] == session.last_seq == latest


async def test_a_beat_answers_without_a_read_and_a_ping_sends_what_was_missed(monkeypatch):
    table, seats = await database_sync_to_async(open_table)("classic", 3)
    session, socket = await _session_of(seats[1], table)
    sent_seq = session.last_seq
    news_captured(monkeypatch)  # the news of the move is lost
    await database_sync_to_async(_play_one)(table, seats, random.Random(3))
    latest = await database_sync_to_async(selectors.table_last_seq)(table_id=table.pk)
    assert latest > sent_seq

    reads: list[int] = []
    original = selectors.table_last_seq

    def counted(**kwargs):
        reads.append(1)
        return original(**kwargs)

    monkeypatch.setattr(selectors, "table_last_seq", counted)
    assert await command_run(session, Beat(request_id=None)) == {"type": "pong", "seq": sent_seq}
    assert reads == []
    assert await command_run(session, Ping(request_id="p")) == {"type": "pong", "seq": latest}
    assert reads == [1] and session.last_seq == latest and _seqs(socket.frames[-1])[-1] == latest


async def test_a_move_is_played_for_the_sessions_seat_and_answered_with_its_seq():
    table, seats = await database_sync_to_async(open_table)("classic", 3)
    player, legal = await database_sync_to_async(current_turn)(table)
    seat = next(seat for seat in seats if seat.engine_name == player)
    session, _socket = await _session_of(seat, table)
    verb, amount = random_action(random.Random(4), legal)

    reply = await command_run(session, Act(request_id="m1", verb=verb, amount=amount))

    latest = await database_sync_to_async(selectors.table_last_seq)(table_id=table.pk)
    assert reply is not None and reply["type"] == "ack" and 0 < reply.get("seq", 0) <= latest
    # The same id again is the same move: answered with the first one's seq, nothing written.
    again = await command_run(session, Act(request_id="m1", verb=verb, amount=amount))
    assert again == reply
    assert await database_sync_to_async(selectors.table_last_seq)(table_id=table.pk) == latest


async def test_news_on_its_way_when_the_log_is_read_is_waited_for_and_news_lost_is_read(monkeypatch):
    """The quiet watcher or a ping read the log just after a commit whose news had not
    reached the socket yet: the news is waited for (a while), not read again from the log;
    news that never comes is read from the log once the wait is over."""
    table, seats = await database_sync_to_async(open_table)("classic", 3)
    session, socket = await _session_of(seats[1], table)
    news = news_captured(monkeypatch)
    rng = random.Random(5)
    reads: list[int] = []
    original = what_viewers_see.table_catch_up

    def counted(**kwargs):
        reads.append(kwargs["after"])
        return original(**kwargs)

    monkeypatch.setattr(what_viewers_see, "table_catch_up", counted)
    # However slow the machine, the news below comes within the wait.
    monkeypatch.setattr(session_module, "IN_FLIGHT_SECONDS", 600.0)
    await database_sync_to_async(_play_one)(table, seats, rng)
    latest = await database_sync_to_async(selectors.table_last_seq)(table_id=table.pk)
    session.behind(latest)  # the watcher's read, made before the news came
    assert session.catching_up is not None
    await asyncio.sleep(0)
    await session.news(news[-1])  # the news, on its way then
    await session.catching_up
    assert reads == [] and session.last_seq == latest and _seqs(socket.frames[-1])[-1] == latest

    # A ping the same: its pong waits for the news, with no read of what was missed.
    await database_sync_to_async(_play_one)(table, seats, rng)
    ping = asyncio.ensure_future(command_run(session, Ping(request_id="p")))
    for _ in range(10_000):  # until the ping has read the latest seq and waits for the news
        if session.news_heard is not None and not session.news_heard.done():
            break
        await asyncio.sleep(0.01)
    else:
        pytest.fail("the ping never waited for the news on its way")
    await session.news(news[-1])
    latest = await database_sync_to_async(selectors.table_last_seq)(table_id=table.pk)
    assert await ping == {"type": "pong", "seq": latest}
    assert reads == [] and session.last_seq == latest

    # News lost on the way: read from the log after the wait.
    monkeypatch.setattr(session_module, "IN_FLIGHT_SECONDS", 0.05)
    lost_after = session.last_seq
    await database_sync_to_async(_play_one)(table, seats, rng)
    latest = await database_sync_to_async(selectors.table_last_seq)(table_id=table.pk)
    session.behind(latest)
    await session.catching_up
    assert reads == [lost_after] and session.last_seq == latest and _seqs(socket.frames[-1])[-1] == latest
