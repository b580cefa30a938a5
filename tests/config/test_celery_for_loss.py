"""Celery is set up for loss (docs/operations.md, "Celery, set up for loss").

Rules pinned: tasks are acknowledged after they ran and requeued when their worker is
lost; a worker holds one ready task beyond the one it runs; Redis does not hand out a
task again while it waits for the longest countdown the clock ever queues; queueing
never retries (a committed action must not wait on a broker that is down); eager mode
is off (it is not a timer). The Celery app reads the same values.
"""

from __future__ import annotations

from django.conf import settings

from config.celery import app
from tables.services.clock_schedule import MAX_COUNTDOWN


def test_the_settings_are_those_the_operations_page_explains():
    assert settings.CELERY_TASK_ACKS_LATE is True
    assert settings.CELERY_TASK_REJECT_ON_WORKER_LOST is True
    assert settings.CELERY_WORKER_PREFETCH_MULTIPLIER == 1
    assert settings.CELERY_TASK_PUBLISH_RETRY is False
    assert settings.CELERY_TASK_ALWAYS_EAGER is False
    assert settings.CELERY_BROKER_TRANSPORT_OPTIONS["visibility_timeout"] > MAX_COUNTDOWN


def test_the_celery_app_reads_them():
    assert app.conf.task_acks_late is True
    assert app.conf.task_reject_on_worker_lost is True
    assert app.conf.worker_prefetch_multiplier == 1
    assert app.conf.task_publish_retry is False
    assert app.conf.broker_transport_options["visibility_timeout"] > MAX_COUNTDOWN


def test_the_longest_countdown_covers_the_longest_turn_timer():
    from tables.services.table_settings import TURN_TIMER_RANGE

    assert MAX_COUNTDOWN >= TURN_TIMER_RANGE[1]
