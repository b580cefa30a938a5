"""The test suite's own environment, set before Django reads its settings (pyproject.toml
loads this module with ``-p tests.environment``; a conftest would come too late, as
pytest-django reads the settings first).

The Redis of development machines and of CI (.ci/run) listens on 127.0.0.1 without a
password. With DEBUG off the settings refuse such a Redis unless told that it is meant
(docs/deployment.md); the suite says so here, explicitly, for itself and the servers and
workers it starts. A REDIS_URL with a password works the same.

Each run also has its own names on Redis (DASHAIN_REDIS_PREFIX: the channel layer's groups
and the cache's keys, docs/deployment.md), shared by the servers and workers it starts: two
runs on one Redis (two engineers, or shards of one suite) never hear each other's tables,
and a run never finds the join pages' guess counts another left behind.
"""

from __future__ import annotations

import os
import secrets

os.environ.setdefault("DASHAIN_REDIS_WITHOUT_PASSWORD", "true")
os.environ.setdefault("DASHAIN_REDIS_PREFIX", f"dashain.test-{secrets.token_hex(4)}.")
# pytest-xdist's workers inherit the controller's prefix; each worker has its own test
# database (test_<name>_gw0, ...) whose tables are numbered from 1, so each gets its own
# names on Redis too, or one worker's table 1 would hear another's.
_worker = os.environ.get("PYTEST_XDIST_WORKER")
if _worker and not os.environ["DASHAIN_REDIS_PREFIX"].endswith(f".{_worker}."):
    os.environ["DASHAIN_REDIS_PREFIX"] = f"{os.environ['DASHAIN_REDIS_PREFIX']}{_worker}."
