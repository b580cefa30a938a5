"""The Celery app: the table clock's fast path. Configured from Django settings (``CELERY_*``).

A worker process also runs the clock's sweep, started when the worker is ready
(``tables.celery_tasks``), so whatever its queue lost is done within seconds.

A Celery worker forks its pool's processes from the main one, at start and whenever one
has to be replaced, by which time the main process's sweep holds a pool of PostgreSQL
connections (``DATABASES["default"]["OPTIONS"]["pool"]``, config/settings.py). A child
that inherited that pool would talk on its parent's sockets, each end's messages mixed
with the other's. So before any fork the pool is closed (its idle connections end, one in
use ends when it is given back) and the next query on either side opens a pool of its own.
"""

import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

app = Celery("dashain")
app.config_from_object("django.conf:settings", namespace="CELERY")
# Each app's tasks are in its celery_tasks.py (tables/celery_tasks.py), not Celery's default tasks.py.
app.autodiscover_tasks(related_name="celery_tasks")


def database_pools_close() -> None:
    """Close this process's database connection pools (Django's ``close_pool``), if any."""
    from django.conf import settings

    if not settings.configured:
        return
    from django.db import connections

    for alias in connections:
        close_pool = getattr(connections[alias], "close_pool", None)  # PostgreSQL's backend has one
        if close_pool is not None and connections[alias].settings_dict.get("OPTIONS", {}).get("pool"):
            close_pool()


os.register_at_fork(before=database_pools_close)
