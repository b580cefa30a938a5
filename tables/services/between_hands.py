"""Between hands: dealing the next hand now or after the pause, and reminding a waiting player.

After a hand ends the next one is dealt at once when the pause is 0 (tests), or by the
Celery task ``tables.start_next_hand`` queued on commit (its service is
:func:`hand_start_next`, which deals only if no hand was dealt since). A turn's reminder
is the task ``tables.remind_turn`` (service :func:`hand_remind`): it reminds only if the
same turn is still waiting, and never acts for anyone.
"""

from __future__ import annotations

from django.conf import settings as django_settings

from tables import selectors
from tables.events import EventKind
from tables.models import Hand, Table
from tables.services.dealing import deal_next_hand
from tables.services.errors import ServiceError
from tables.services.log import TableLog
from tables.services.write import table_write

# Hands dealt one after another in one transaction when the pause between hands is 0
# (tests); a bound so that a run of hands that end at the deal cannot loop for ever.
MAX_INLINE_HANDS = 3


def next_hand_delay() -> float:
    """Seconds between the end of a hand and the next deal (``DASHAIN_NEXT_HAND_DELAY``)."""
    return float(getattr(django_settings, "DASHAIN_NEXT_HAND_DELAY", 3))


def next_hand_schedule(log: TableLog) -> None:
    """Deal the next hand now (pause 0) or after the pause, through a Celery task queued on commit."""
    table = log.table
    if table.status != Table.Status.PLAYING:
        return
    delay = next_hand_delay()
    if delay > 0:
        from tables.tasks import start_next_hand  # the task calls back into hand_start_next

        table_id, after = table.pk, table.hands_played
        log.on_commit(lambda: start_next_hand.apply_async(args=(table_id, after), countdown=delay))
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


def hand_start_next(*, table_id: int, after_number: int) -> Hand | None:
    """Deal the hand after ``after_number`` if it is still due (the Celery task's service).

    A task that comes late (a hand was dealt since, or the game ended) does nothing."""
    try:
        with table_write(table_id) as (table, log):
            if table.hands_played != after_number:
                return None
            return hand_deal_now(log)
    except ServiceError as error:
        if error.code == "ended":
            return None
        raise


def hand_remind(*, table_id: int, hand_id: int, turn_seq: int) -> bool:
    """Remind the player (and the table) whose turn started at ``turn_seq`` if it still waits.

    Never acts for anyone. Returns whether a reminder was sent.
    """
    try:
        with table_write(table_id) as (table, log):
            hand = Hand.objects.filter(pk=hand_id, table=table).first()
            if (
                hand is None
                or hand.ended_at is not None
                or hand.turn_seq != turn_seq
                or not hand.to_act
                or table.status != Table.Status.PLAYING
            ):
                return False
            log.append(
                EventKind.REMINDER,
                {"player": hand.to_act, "deadline": hand.turn_deadline.isoformat() if hand.turn_deadline else None},
                hand=hand,
            )
            return True
    except ServiceError as error:
        if error.code == "ended":
            return False
        raise
