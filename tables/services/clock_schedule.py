"""Putting a due time on the table clock (see ``tables.services.clock_run`` for the clock itself).

Whoever stores a due time (the next deal, a turn's alarm, a computer's move) calls
:func:`clock_due` in the same transaction. It keeps ``Table.due_at`` (the sweep's index)
no later than the new time. When that lowers ``due_at`` (a time that appeared, or came
earlier), after the commit it queues the fast path, the Celery task ``tables.clock_run``,
with the countdown to the earliest time the transaction stored. A time at or after
``due_at`` queues nothing: the task for ``due_at`` is on its way, and the clock's run at
``due_at`` queues the task for the next stored time (:func:`clock_wake`), so a turn's new
deadline costs no task a move. Queueing may fail (the broker is down): that is logged and
changes nothing else, as the time is in the database and the sweep finds it.
"""

from __future__ import annotations

import logging
from datetime import datetime

from django.utils import timezone

from tables.services.log import TableLog

logger = logging.getLogger(__name__)

#: The longest countdown ever queued (the 600 s turn timer); the broker's visibility
#: timeout must be longer (``CELERY_BROKER_TRANSPORT_OPTIONS`` in config/settings.py).
MAX_COUNTDOWN = 600


def clock_due(log: TableLog, when: datetime) -> None:
    """Note that something at the table is due at ``when`` (call with the table locked,
    wherever a due time is stored).

    Lowers ``Table.due_at`` (never raises it: an early summary costs one idle look, a late
    one would lose the thing) and, when it did, queues the fast path for the earliest such
    time after the commit (one task per transaction). A time at or after ``due_at`` is
    left to the task for ``due_at``, whose run queues the next (:func:`clock_wake`).
    """
    table = log.table
    if table.due_at is not None and when >= table.due_at:
        return
    table.due_at = when
    clock_wake(log, when)


def clock_wake(log: TableLog, when: datetime) -> None:
    """Queue the fast path for ``when`` after the commit: one task per transaction, for
    the earliest time asked (call with the table locked). The clock's run calls it for the
    next stored time it leaves in ``Table.due_at``."""
    if log.clock_at is None:
        table_id = log.table.pk

        def queue() -> None:
            clock_queue(table_id=table_id, when=log.clock_at)

        log.on_commit(queue)
    if log.clock_at is None or when < log.clock_at:
        log.clock_at = when


def clock_queue(*, table_id: int, when: datetime | None) -> bool:
    """Queue the fast path: run the table's clock at ``when``. Never raises.

    A broker that is down must not fail what was already committed: the failure is
    logged, and the sweep does the work a few seconds late.
    """
    if when is None:
        return False
    from tables.celery_tasks import clock_run

    countdown = min(max((when - timezone.now()).total_seconds(), 0.0), MAX_COUNTDOWN)
    try:
        clock_run.apply_async(args=(table_id,), countdown=countdown)
    except Exception:
        logger.warning("could not queue the clock of table %s; the sweep will do it", table_id, exc_info=True)
        return False
    return True
