"""Guessing a secret is rate-limited, per client address; and the one counter that does it.

Every join attempt that names no table, or a table without its invite token, counts
against the address it came from; past ``MAX_FAILED_JOINS`` in ``WINDOW_SECONDS`` the join
pages answer 429 (too many requests) to every further guess. The limit never refuses the
table's real invite link, a guest's real seat link (``tables.pages.views_join.table_seat_link``),
nor someone already at the table coming back by its code
(``tables.pages.views_join._admitted_anyway``): at a home game everyone is on one Wi-Fi, one address,
and one person's typos must not lock the whole house out. A token has 128 random
bits and cannot be guessed anyway; the limit stops a stranger from walking the 6-letter
codes to learn which tables exist and who hosts them. The home games' calendar feed counts
an unknown feed token against the same guesses (``homegames.views.feed``), and so does a
home game's wrong invite link (``homegames.views_home_game.home_game_join_view``). The counter lives with
the site's configuration because pages of three apps share it.

:class:`CacheLimit` is the counter: at most ``limit`` hits per key in a window of
``window`` seconds that starts at the key's first hit. The counts live in Django's cache
(``CACHES`` in ``config/settings.py``): Redis when ``REDIS_URL`` is set, so every daphne
process shares one count per key; otherwise the process's own memory, right for the single
process of a home game. The database would do too, but a count that expires by itself and
costs no write transaction is what a cache is for.

The address is :func:`client_address`, the one daphne gives the request (``REMOTE_ADDR``):
the peer's, or with ``--proxy-headers`` the proxy's ``X-Forwarded-For``, which README's
nginx sets to the address it saw (docs/deployment.md, "The client's address"). The login
throttle (``AXES_CLIENT_IP_CALLABLE``) and the socket limits (the scope's ``client``, the
same address) count the same one; no code of the site reads an address from a header itself.
"""

from __future__ import annotations

import hashlib
import math
import time
from dataclasses import dataclass

from django.conf import settings
from django.core.cache import cache
from django.http import HttpRequest

MAX_FAILED_JOINS = 20
WINDOW_SECONDS = 600


def now() -> float:
    """The wall clock the windows are read with (shared by every process; tests move it)."""
    return time.time()


def client_address(request: HttpRequest) -> str:
    """The client's address as daphne gave it (never a header the client could write)."""
    return str(request.META.get("REMOTE_ADDR") or "unknown")


def login_client_address(request: HttpRequest) -> str | None:
    """The address django-axes records a login under: the same one, or none where a request
    has none (a login made in code, not over HTTP). Axes keeps it in an IP address column,
    which on PostgreSQL refuses anything else ("unknown")."""
    address = request.META.get("REMOTE_ADDR")
    return str(address) if address else None


def secret_digest(secret: str) -> str:
    """What a key is counted under when it is a secret (the cache never holds the secret)."""
    return hashlib.sha256(secret.encode()).hexdigest()[:32]


@dataclass(frozen=True)
class CacheLimit:
    """At most ``limit`` hits per key in a window of ``window`` seconds from the key's first
    hit (``setting``, when given, names a Django setting that replaces ``limit``).

    The count is added and incremented atomically in the cache; the window's start is kept
    beside it, so a refusal can say how long until the window ends (``Retry-After``). Both
    expire with the window; :meth:`retry_after` also drops a window it finds over (the clock
    it reads is ``now``, which tests move)."""

    name: str
    limit: int
    window: int = WINDOW_SECONDS
    setting: str | None = None

    def key(self, ident: str) -> str:
        return f"dashain:{self.name}:{ident}"

    def most(self) -> int:
        return int(getattr(settings, self.setting, self.limit)) if self.setting else self.limit

    def retry_after(self, ident: str) -> int:
        """0 while ``ident`` is under its limit; else the whole seconds until its window ends."""
        at, key = now(), self.key(ident)
        found = cache.get_many([key, key + ":since"])
        since = found.get(key + ":since")
        if since is not None and at - float(since) >= self.window:
            self.forget(ident)  # over, though the cache has not dropped it yet: the next hit starts anew
            return 0
        if int(found.get(key, 0)) < self.most():
            return 0
        return self.window if since is None else max(1, math.ceil(float(since) + self.window - at))

    def hit(self, ident: str) -> None:
        """Count one more hit for ``ident`` (a window starts at the first)."""
        key = self.key(ident)
        if cache.add(key, 1, timeout=self.window):
            cache.set(key + ":since", now(), timeout=self.window)
            return
        try:
            cache.incr(key)
        except ValueError:  # expired between add and incr
            if cache.add(key, 1, timeout=self.window):
                cache.set(key + ":since", now(), timeout=self.window)

    def forget(self, ident: str) -> None:
        """Forget ``ident``'s hits (tests; an operator who unblocks someone)."""
        cache.delete_many([self.key(ident), self.key(ident) + ":since"])


#: Failed guesses of a secret (a table's code or invite token, a seat link, a feed token), per address.
GUESSES = CacheLimit("join-failures", MAX_FAILED_JOINS)


def _key(request: HttpRequest) -> str:
    return GUESSES.key(client_address(request))


def join_retry_after(request: HttpRequest) -> int:
    """Whole seconds until this address may guess again (0: it may now)."""
    return GUESSES.retry_after(client_address(request))


def join_attempt_failed(request: HttpRequest) -> None:
    """Count one more failed guess for this address (the window starts at the first)."""
    GUESSES.hit(client_address(request))


def join_attempts_forget(address: str) -> None:
    """Forget an address's failures (tests; an operator who unblocks someone)."""
    GUESSES.forget(address)
