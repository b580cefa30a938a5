"""Celery tasks of live play: turn reminders and dealing the next hand after the pause.

Tasks are thin: each calls one service. Both are queued with ``transaction.on_commit``
by the services, and both re-check the log when they run, so a stale task does nothing:

- ``remind_turn`` reminds only if the same turn (same seq) is still waiting; it never acts.
- ``start_next_hand`` deals only if no hand was dealt since it was queued.

Without Redis they run on Celery's in-memory transport in a worker thread inside the
web process (``tables.worker``); with ``REDIS_URL``, in ``celery -A config worker``.
"""

from __future__ import annotations

from config.celery import app


@app.task(name="tables.remind_turn", ignore_result=True)
def remind_turn(table_id: int, hand_id: int, seq: int) -> bool:
    from tables.services import hand_remind

    return hand_remind(table_id=table_id, hand_id=hand_id, turn_seq=seq)


@app.task(name="tables.start_next_hand", ignore_result=True)
def start_next_hand(table_id: int, after_number: int) -> bool:
    from tables.services import hand_start_next

    return hand_start_next(table_id=table_id, after_number=after_number) is not None
