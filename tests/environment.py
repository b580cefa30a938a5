"""The test suite's own environment, set before Django reads its settings (pyproject.toml
loads this module with ``-p tests.environment``; a conftest would come too late, as
pytest-django reads the settings first).

The Redis of development machines and of CI (.ci/run) listens on 127.0.0.1 without a
password. With DEBUG off the settings refuse such a Redis unless told that it is meant
(docs/deployment.md); the suite says so here, explicitly, for itself and the servers and
workers it starts. A REDIS_URL with a password works the same.
"""

from __future__ import annotations

import os

os.environ.setdefault("DASHAIN_REDIS_WITHOUT_PASSWORD", "true")
