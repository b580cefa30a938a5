"""Celery tasks of live play: the fast path of the table clock, and its sweep.

Tasks are thin: each calls one service. ``clock_run`` is queued after commit by
``tables.services.clock_schedule.clock_due`` with the countdown to the next due time; it does
whatever is due at the table then, once, under the table's lock, and nothing when it
is early, late or a duplicate. Losing it costs only the sweep's interval: the due
time is stored in the database, not in the queue.

Without Redis they run on Celery's in-memory transport in a worker thread inside the
web process (``tables.background_threads``); with ``REDIS_URL``, in ``celery -A config worker``.
"""

from __future__ import annotations

from config.celery_typed import on_worker_ready, task


@task(name="tables.clock_run")
def clock_run(table_id: int) -> list[str]:
    from tables.services import table_clock_run

    return table_clock_run(table_id=table_id)


@task(name="tables.clock_sweep")
def clock_sweep() -> int:
    from tables.services import table_clock_sweep

    return len(table_clock_sweep())


@task(name="tables.push_send")
def push_send() -> int:
    """Send the queued Web Push messages (tables.push), queued after the commit that wrote them."""
    from tables.push import push_send_pending

    return sum(push_send_pending().values())


# Names queued by earlier releases: a task left in a queue across an upgrade runs the clock.
@task(name="tables.remind_turn")
def remind_turn(table_id: int, *_args: int) -> list[str]:
    return clock_run(table_id)


@task(name="tables.start_next_hand")
def start_next_hand(table_id: int, *_args: int) -> list[str]:
    return clock_run(table_id)


@on_worker_ready
def _start_clock_sweeper(**_kwargs: object) -> None:
    """A worker process (and the in-process worker) also runs the clock's sweep loop."""
    from tables.background_threads import clock_sweeper_start

    clock_sweeper_start()
