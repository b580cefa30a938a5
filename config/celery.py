"""The Celery app: the table clock's fast path. Configured from Django settings (``CELERY_*``).

A worker process also runs the clock's sweep, started when the worker is ready
(``tables.tasks``), so whatever its queue lost is done within seconds.
"""

import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

app = Celery("dashain")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()
