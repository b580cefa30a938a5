"""Between hands: dealing the next hand now or after the host's pause.

After a hand ends the next one is dealt at once when the pause is 0 (tests), or is put
on the table clock: ``Table.next_deal_at`` is stored and the clock deals it when it is
due (``tables.services.clock_run``), whatever becomes of the task queued for it.
"""

from __future__ import annotations

from datetime import timedelta

from django.utils import timezone

from tables import selectors
from tables.models import Hand, Table
from tables.services.clock_schedule import clock_due
from tables.services.dealing import deal_next_hand
from tables.services.hand_end import game_end
from tables.services.log import TableLog
from tables.services.table_settings import DEFAULT_HAND_PAUSE, table_seconds

# Hands dealt one after another in one transaction when the pause between hands is 0
# (tests); a bound so that a run of hands that end at the deal cannot loop for ever.
MAX_INLINE_HANDS = 3


def next_hand_delay(table: Table) -> float:
    """Seconds between the end of a hand and the next deal: the host's ``hand_pause``, unless
    ``DASHAIN_NEXT_HAND_DELAY`` overrides it for every table (tests use 0)."""
    return table_seconds(table, "hand_pause", DEFAULT_HAND_PAUSE, "DASHAIN_NEXT_HAND_DELAY")


def next_hand_schedule(log: TableLog) -> None:
    """Deal the next hand now (pause 0) or after the pause: a due time on the table clock."""
    table = log.table
    if table.status != Table.Status.PLAYING:
        return
    if table.ending:
        # The host ended the game during the hand that just ended (tables.services.hosting.table_end).
        game_end(log, reason="host")
        return
    delay = next_hand_delay(table)
    if delay > 0:
        table.next_deal_at = timezone.now() + timedelta(seconds=delay)
        clock_due(log, table.next_deal_at)
        return
    for _deal in range(MAX_INLINE_HANDS):
        hand = deal_next_hand(log)
        if hand is None or hand.ended_at is None:
            return


def hand_deal_now(log: TableLog) -> Hand | None:
    """Deal a hand now (if one is due); when it ends at the deal, go on to the next as usual."""
    hand = deal_next_hand(log)
    if hand is not None and hand.ended_at is not None:
        next_hand_schedule(log)
    return hand


def deal_when_ready(log: TableLog) -> None:
    """After a seat change: deal (now or after the pause) if the table plays and no hand is live."""
    if log.table.status == Table.Status.PLAYING and selectors.hand_live(table=log.table) is None:
        next_hand_schedule(log)
