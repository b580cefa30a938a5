"""The Celery app: turn reminders. Configured from Django settings (``CELERY_*``)."""

import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

app = Celery("dashain")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()
