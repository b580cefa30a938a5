"""The pages learn when the next hand is dealt: the table's ``next_deal_at`` in every screen and snapshot.

Rules pinned (issue 16, "every state said plainly"): between hands the table's public
summary carries the time the table clock deals the next hand (the host's pause after the
hand's end), pushed with the news of the hand's end and in a snapshot; the deal clears it
(a page then shows the new hand, not "dealing"); with no deal due (the game not started,
a hand live) it is null. The page counts down to it and says "Dealing the next hand" once
it has come (docs/ui.md); it is the server's time, so every page says the same.
"""

from __future__ import annotations

from datetime import datetime

import pytest

from tables import what_viewers_see
from tables.models import Table
from tables.services import hand_act, table_clock_run, table_start
from tests.tables.conftest import current_turn, open_table

pytestmark = pytest.mark.django_db


@pytest.fixture
def host_pause(settings):
    """The host's pause between hands applies (the suite's override of 0 is lifted)."""
    settings.DASHAIN_NEXT_HAND_DELAY = None


@pytest.fixture
def screens(monkeypatch):
    """Every screen the writers broadcast, in order."""
    from tables.services import log

    sent: list[dict] = []
    monkeypatch.setattr(log, "broadcast", lambda group, frames, screen=None: sent.append(screen or {}))
    return sent


def _snapshot_table(table: Table, seat_id: int) -> dict:
    return what_viewers_see.table_snapshot(table_id=table.pk, seat_id=seat_id)["table"]


def test_between_hands_every_page_is_told_when_the_next_deal_is_due(
    host_pause, screens, django_capture_on_commit_callbacks
):
    table, seats = open_table("faras", 2, {"hand_pause": 7}, start=False)
    assert _snapshot_table(table, seats[0].pk)["next_deal_at"] is None  # not started: nothing due
    with django_capture_on_commit_callbacks(execute=True):
        table_start(table_id=table.pk, seat_id=seats[0].pk)
    assert screens[-1]["table"]["next_deal_at"] is None  # a hand is live

    player, _legal = current_turn(table)
    seat = next(seat for seat in seats if seat.engine_name == player)
    with django_capture_on_commit_callbacks(execute=True):
        hand_act(table_id=table.pk, seat_id=seat.pk, verb="pack")
    table.refresh_from_db()
    assert table.next_deal_at is not None
    pushed = screens[-1]["table"]["next_deal_at"]
    assert datetime.fromisoformat(pushed) == table.next_deal_at
    assert _snapshot_table(table, seats[1].pk)["next_deal_at"] == pushed  # a page that connects now

    # The clock deals at that time: the news of the deal clears it.
    with django_capture_on_commit_callbacks(execute=True):
        assert table_clock_run(table_id=table.pk, now=table.next_deal_at) == ["next_deal"]
    assert screens[-1]["table"]["next_deal_at"] is None
    assert screens[-1]["hand"]["number"] == 2
    assert _snapshot_table(table, seats[0].pk)["next_deal_at"] is None
