"""The table clock: everything that must happen later at a table is a due time in the database.

What is due, and where it is stored (``DUE_THINGS``, done in this order):

- **the next deal**: ``Table.next_deal_at``, set when a hand ends (the host's pause
  between hands, ``hand_pause``) and cleared when a hand is dealt;
- **the turn's clock**: ``Hand.turn_alarm_at`` and ``Hand.turn_alarms``. With a turn
  timer it fires at the deadline: by the book (000, "reminds you but is not enforced") a
  reminder, and one more ``REMINDER_REPEAT`` later; or, when the host chose
  ``timeout_action = "act"``, the time-out action (``tables.services.away``).

``Table.due_at`` is the earliest of them: a summary kept in the same transaction, indexed
so the sweep finds overdue tables with one query. It may be early (the clock then finds
nothing due and sets it again), never late: :func:`clock_due` only ever lowers it.

Three ways in, all through :func:`table_clock_run` ("do what is due at this table"),
which takes the table's row lock and does each due thing whose stored time has passed,
then stores the next due time. The stored time and the lock decide, so however many
times and from wherever it is called, each thing is done once:

- the **fast path**: after the commit of any write that stores a due time earlier than
  ``Table.due_at`` (or the first), the Celery task ``tables.clock_run`` is queued with the
  countdown to it (:func:`tables.services.clock_schedule.clock_due`); each run of the
  clock queues it for the next stored time it leaves in ``due_at``.
  Failing to queue (the broker is down) is logged and changes nothing else;
- the **sweep** (:func:`table_clock_sweep`): every ``DASHAIN_CLOCK_SWEEP_SECONDS`` in
  each web process and each Celery worker (``tables.background_threads``), and once when each starts;
- a socket that **connects** to a table runs that table's clock if it is overdue.

Adding a due thing (computer players' moves): store its time on the table or hand; add
a :class:`DueThing` whose ``due_at`` reads it (``None`` when nothing is due) and whose
``run`` does it and clears or moves the stored time; call ``clock_due`` wherever the
time is stored. See ``docs/operations.md``.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime, timedelta

from django.utils import timezone

from tables import selectors
from tables.events import EventKind
from tables.models import Hand, Table
from tables.services.away import away_act
from tables.services.between_hands import hand_deal_now
from tables.services.clock_schedule import clock_due, clock_wake
from tables.services.errors import ServiceError
from tables.services.log import TableLog
from tables.services.push import push_queue
from tables.services.seat_state import AWAY_KEY
from tables.services.write import table_write

logger = logging.getLogger(__name__)

#: By the book the turn timer reminds: at the deadline, and once more this long after it
#: (at most the timer's own length), so a player who missed the first hears it again.
REMINDER_REPEAT = timedelta(seconds=60)
REMINDERS = 2
#: Tables one sweep looks at; the next sweep takes the rest.
SWEEP_BATCH = 200


@dataclass(frozen=True)
class DueThing:
    """One kind of thing the clock does: when it is due at a table, and doing it.

    ``due_at(table, hand)`` reads the stored time (``hand`` is the live hand or None) and
    returns None when nothing of this kind is due. ``run(log, hand, now)`` does it under
    the table's lock and must clear or move the stored time, so it is not due again.
    """

    name: str
    due_at: Callable[[Table, Hand | None], datetime | None]
    run: Callable[[TableLog, Hand | None, datetime], None]


def _next_deal_due(table: Table, hand: Hand | None) -> datetime | None:
    return table.next_deal_at if hand is None else None


def _next_deal_run(log: TableLog, hand: Hand | None, now: datetime) -> None:
    log.table.next_deal_at = None
    hand_deal_now(log)


def _turn_alarm_due(table: Table, hand: Hand | None) -> datetime | None:
    return hand.turn_alarm_at if hand is not None and hand.to_act else None


def _turn_alarm_run(log: TableLog, hand: Hand | None, now: datetime) -> None:
    assert hand is not None
    table = log.table
    from tables.services.computers import computer_move
    from tables.services.turns import seat_is_computer

    if seat_is_computer(hand, hand.to_act):
        # A computer's turn: its alarm, after the host's pause, is its move (issue 15).
        hand.turn_alarm_at = None
        hand.turn_alarms += 1
        hand.save(update_fields=["turn_alarm_at", "turn_alarms"])
        computer_move(log, hand=hand)
        return
    if hand.to_act in hand.plan.get(AWAY_KEY, ()):
        # Away for the hand, with no move before this turn to play it (the deal, a resume:
        # turns.away_turn_clock): the away rule's move, now.
        hand.turn_alarm_at = None
        hand.turn_alarms += 1
        hand.save(update_fields=["turn_alarm_at", "turn_alarms"])
        try:
            away_act(log, hand=hand, by="away")
            return
        except ServiceError:
            logger.warning("no away action at table %s; reminding instead", table.pk)
            hand.turn_alarms -= 1
    from tables.services.turns import turn_acts

    if turn_acts(table):
        hand.turn_alarm_at = None
        hand.turn_alarms += 1
        hand.save(update_fields=["turn_alarm_at", "turn_alarms"])
        try:
            away_act(log, hand=hand, by="timer")
            return
        except ServiceError:
            # Nothing the rules allow for them now (away_act checks before it writes):
            # remind instead, as by the book.
            logger.warning("no time-out action at table %s; reminding instead", table.pk)
            hand.turn_alarms -= 1
    hand.turn_alarms += 1
    timer = table.settings.get("turn_timer") or 0
    repeat = min(REMINDER_REPEAT, timedelta(seconds=timer)) if timer else REMINDER_REPEAT
    hand.turn_alarm_at = now + repeat if hand.turn_alarms < REMINDERS else None
    hand.save(update_fields=["turn_alarm_at", "turn_alarms"])
    if hand.turn_alarm_at is not None:
        clock_due(log, hand.turn_alarm_at)
    log.append(
        EventKind.REMINDER,
        {
            "player": hand.to_act,
            "deadline": hand.turn_deadline.isoformat() if hand.turn_deadline else None,
            "count": hand.turn_alarms,
        },
        hand=hand,
    )
    # The reminder reaches a pocket too (Web Push, issue 28): queued with the event, sent
    # after the commit, once (tables.push).
    if hand.to_act.isdigit():
        push_queue(log, about="turn", seat_ids=[int(hand.to_act)])


NEXT_DEAL = DueThing("next_deal", _next_deal_due, _next_deal_run)
TURN_ALARM = DueThing("turn_alarm", _turn_alarm_due, _turn_alarm_run)
DUE_THINGS: list[DueThing] = [NEXT_DEAL, TURN_ALARM]


def clock_next(table: Table, hand: Hand | None) -> datetime | None:
    """The earliest stored due time at the table (None when nothing is due or it is not playing)."""
    if table.status != Table.Status.PLAYING:
        return None
    times = [when for thing in DUE_THINGS if (when := thing.due_at(table, hand)) is not None]
    return min(times, default=None)


def table_clock_run(*, table_id: int, now: datetime | None = None) -> list[str]:
    """Do what is due at the table, each thing once; returns the names of what was done.

    Under the table's row lock: each due thing whose stored time is at or before ``now``
    is done (and clears or moves its time; a new time it stores queues the fast path),
    then ``Table.due_at`` is set to the next stored time. Safe to call at any time, as
    often as anyone likes: what is not due is left alone.
    """
    now = now or timezone.now()
    done: list[str] = []
    try:
        with table_write(table_id) as (table, log):
            if table.status == Table.Status.PLAYING:
                for thing in DUE_THINGS:
                    hand = selectors.hand_live(table=table)
                    when = thing.due_at(table, hand)
                    if when is not None and when <= now and table.status == Table.Status.PLAYING:
                        thing.run(log, hand, now)
                        done.append(thing.name)
            # Exact again, and the fast path queued for it: a time stored at or after the
            # old ``due_at`` queued nothing (clock_due), so this run wakes the clock next.
            # A queue that is lost leaves the time to the sweep.
            table.due_at = clock_next(table, selectors.hand_live(table=table))
            if table.due_at is not None:
                clock_wake(log, table.due_at)
    except ServiceError as error:
        if error.code != "ended":
            return done  # no such table
        # Nothing is ever due at an ended table: take it off the sweep's list.
        Table.objects.filter(pk=table_id, status=Table.Status.ENDED).update(due_at=None, next_deal_at=None)
    return done


def table_clock_run_if_due(*, table_id: int, now: datetime | None = None) -> list[str]:
    """Run the table's clock only if its summary says something is overdue (one read, no lock)."""
    now = now or timezone.now()
    if not Table.objects.filter(pk=table_id, due_at__lte=now).exists():
        return []
    return table_clock_run(table_id=table_id, now=now)


def table_clock_sweep(*, now: datetime | None = None) -> dict[int, list[str]]:
    """Run the clock of every table with something overdue; returns what was done where.

    One table's failure is logged and does not stop the others.
    """
    now = now or timezone.now()
    overdue = list(Table.objects.filter(due_at__lte=now).order_by("due_at").values_list("pk", flat=True)[:SWEEP_BATCH])
    done: dict[int, list[str]] = {}
    for table_id in overdue:
        try:
            done[table_id] = table_clock_run(table_id=table_id, now=now)
        except Exception:
            logger.exception("the clock of table %s failed", table_id)
    return done
