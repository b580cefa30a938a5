"""The garbage collector's set-up for a long-running process of the site (daphne, a service worker).

Kept off the objects loaded at start-up (``gc.freeze``) and run less often: measured on
these machines, this cut the 99th percentile of a broadcast from ~170 ms to ~30 ms
(docs/live-play.md). Called once start-up is done.
"""

from __future__ import annotations

import gc


def collector_settle() -> None:
    gc.collect()
    gc.freeze()
    gc.set_threshold(50_000, 20, 100)
