"""Guessing a table's code or invite token is rate-limited, per client address.

Every join attempt that names no table, or a table without its invite token, counts
against the address it came from; past ``MAX_FAILED_JOINS`` in ``WINDOW_SECONDS`` the join
pages answer 429 (too many requests) to every further guess. The limit never refuses the
table's real invite link, nor someone already at the table coming back by its code
(``tables.pages.views._admitted_anyway``): at a home game everyone is on one Wi-Fi, one address,
and one person's typos must not lock the whole house out. A token has 128 random
bits and cannot be guessed anyway; the limit stops a stranger from walking the 6-letter
codes to learn which tables exist and who hosts them.

The counts live in Django's cache (``CACHES`` in ``config/settings.py``): Redis when
``REDIS_URL`` is set, so every daphne process shares one count per address; otherwise the
process's own memory, right for the single process of a home game. The database would do
too, but a count that expires by itself and costs no write transaction is what a cache is
for. The address is ``REMOTE_ADDR``, which daphne's ``--proxy-headers`` sets from the
proxy's ``X-Forwarded-For`` (docs/deployment.md).
"""

from __future__ import annotations

from django.core.cache import cache
from django.http import HttpRequest

MAX_FAILED_JOINS = 20
WINDOW_SECONDS = 600


def _key(request: HttpRequest) -> str:
    return "dashain:join-failures:" + str(request.META.get("REMOTE_ADDR", "unknown"))


def join_attempts_exceeded(request: HttpRequest) -> bool:
    """Whether this address has failed too often lately to be answered at all."""
    return int(cache.get(_key(request), 0)) >= MAX_FAILED_JOINS


def join_attempt_failed(request: HttpRequest) -> None:
    """Count one more failed guess for this address (the window starts at the first)."""
    key = _key(request)
    if cache.add(key, 1, timeout=WINDOW_SECONDS):
        return
    try:
        cache.incr(key)
    except ValueError:  # expired between add and incr
        cache.add(key, 1, timeout=WINDOW_SECONDS)


def join_attempts_forget(address: str) -> None:
    """Forget an address's failures (tests; an operator who unblocks someone)."""
    cache.delete("dashain:join-failures:" + address)
