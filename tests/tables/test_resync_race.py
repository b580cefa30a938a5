"""The watcher's page left behind its table (issue 37): news committed while a ``resync`` reads.

The page asks for the log in words (``resync``, id ``hand-log``) as soon as its snapshot
arrives, and applies none of the answer: the words only. A write that commits before that
read (the host starting the game, in the browser test that failed) has its news queued
behind the resync on the socket. The answer read past the socket's seq; the session took its
seq to be the answer's last, so the news then came as old news and was dropped: the page sat
at its snapshot's seq with its socket open, and the server believed it had sent it all (the
quiet watcher saw nothing behind). Here the write is made to commit inside the resync's read,
every time.
"""

from __future__ import annotations

from typing import Any

import pytest
from channels.db import database_sync_to_async

from tables import selectors
from tables.live.consumers import TableConsumer
from tables.models import Seat
from tables.services import table_join, table_start
from tests.tables.conftest import make_user, open_table
from tests.tables.ws import Client, connect, last_seq

pytestmark = pytest.mark.django_db(transaction=True)


class PageSeq:
    """The seq the table page has applied (static/js/table/store.js): a snapshot's, then each
    ``events`` frame's in order; the answer to its own ``hand-log`` resync is words only."""

    def __init__(self) -> None:
        self.seq = 0

    def apply(self, frame: dict[str, Any]) -> None:
        if frame["type"] == "snapshot":
            self.seq = frame["seq"]
        elif frame["type"] == "events" and frame.get("id") != "hand-log":
            for event in frame["events"]:
                if event["seq"] == self.seq + 1:
                    self.seq = event["seq"]


def _table_with_a_watcher():
    table, seats = open_table("faras", 2, start=False)
    watcher = table_join(code=table.code, invite_token=table.invite_token, user=make_user("chandra-watching"))
    return table, seats, Seat.objects.select_related("user").get(pk=watcher.pk).user


async def _frame(client: Client) -> dict[str, Any]:
    return await client.communicator.receive_json_from(timeout=10)


async def test_news_committed_while_the_pages_resync_reads_still_reaches_the_page(monkeypatch):
    monkeypatch.setattr(TableConsumer, "quiet_seconds", 3600.0)  # no catch-up by the watcher: the news itself
    table, seats, watcher_user = await database_sync_to_async(_table_with_a_watcher)()
    connected, watcher, _ = await connect(table.code, user=watcher_user)
    assert connected
    page = PageSeq()
    page.apply(watcher.frames[0])
    snapshot_seq = page.seq

    started: list[int] = []
    real_events_after = selectors.events_after

    def start_then_read(**kwargs):
        if not started:  # the host starts the game just before the resync's read
            table_start(table_id=table.pk, seat_id=seats[0].pk)
            started.append(1)
        return real_events_after(**kwargs)

    monkeypatch.setattr(selectors, "events_after", start_then_read)
    await watcher.send({"type": "resync", "after": 0, "id": "hand-log"})

    # Every pong's seq is what the server believes this page holds: the page holds it, or
    # it lost news with nothing to show the gap (the page's beat would find it, 5 s later).
    await watcher.send({"type": "beat", "id": "beat"})
    while True:
        frame = await _frame(watcher)
        if frame["type"] == "pong":
            assert frame["seq"] <= page.seq, f"the server sent up to {frame['seq']}, the page holds {page.seq}"
            break
        page.apply(frame)
    latest = await last_seq(table.pk)  # the beat was answered after the resync: the game has started
    while page.seq < latest:  # the news that may still be on its way (through Redis)
        page.apply(await _frame(watcher))
    assert started and latest > snapshot_seq and page.seq == latest
    await watcher.close()
