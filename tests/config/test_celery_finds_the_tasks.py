"""A Celery worker started on its own (``celery -A config worker``) finds the tables' tasks.

The tasks live in ``tables/celery_tasks.py``, not Celery's default ``tasks.py``, so the app
looks for that name (``config/celery.py``). Checked in a fresh interpreter: in this one the
tests have imported the module already, which would register the tasks whatever the app
looks for.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

SCRIPT = """
import json, django
django.setup()
from config.celery import app
app.loader.import_default_modules()
print(json.dumps(sorted(name for name in app.tasks if name.startswith("tables."))))
"""


def test_a_worker_process_registers_the_clock_and_push_tasks():
    root = Path(__file__).resolve().parents[2]
    out = subprocess.run(
        [sys.executable, "-c", SCRIPT],
        cwd=root,
        env={**os.environ, "DJANGO_SETTINGS_MODULE": "config.settings"},
        capture_output=True,
        text=True,
        check=True,
        timeout=120,
    )
    names = json.loads(out.stdout.strip().splitlines()[-1])
    assert {"tables.clock_run", "tables.clock_sweep", "tables.push_send"} <= set(names)
