"""Limits per person and per address on table sockets and on the reads they ask for.

Before issue 24 one signed-up user could open 200 sockets to their own table and send
snapshot requests within each socket's own burst: a socket at another table then waited
4.5 s for its handshake and 1.85 s for a move's answer. Each socket's token bucket
(``TableConsumer.rate_burst``) limits one socket; these limit a person and an address,
whatever number of sockets they open:

- **open sockets**: at most ``DASHAIN_SOCKETS_PER_PERSON`` (12) per person (a signed-in
  user, or a guest's session token) and ``DASHAIN_SOCKETS_PER_ADDRESS`` (100) per client
  address. One more is accepted, told ``{"type": "error", "code": "too_many_sockets"}`` and
  closed with **4429** (like HTTP 429: the page tries again later, by its backoff);
- **reads** (a socket's opening snapshot, a ``snapshot`` or ``resync`` request, each a read
  of the table from the database): a token bucket per person (a burst of 30, then 2 a
  second) and one per address (a burst of 200, then 20 a second). A request beyond them is
  answered ``{"type": "error", "code": "too_many_reads"}`` and changes nothing; a socket
  opened beyond them is closed with 4429 as above;
- **commands** (issue 34: every frame that asks the site to write: ``action``, ``see``,
  ``seat``, ``host``, ``seed``): a token bucket per person (a burst of 30, then 2 a second),
  across all their sockets. One beyond it is answered ``{"type": "error", "code":
  "too_many_commands"}`` and reaches no service, so it writes nothing. Before it, one player's
  12 pages sending ``call_variant`` wrote 939 events in 11 s and slowed moves at another
  table threefold. The burst covers a host answering a table's worth of requests at once;
  2 a second, sustained, is more than a player's pace, whose every move waits for the
  others' turns.

Chosen so that a full table of friends on one Wi-Fi never meets them: 16 players (999's most)
with a phone and a laptop each is 32 sockets from one address; all of them opening again at
once after the Wi-Fi drops is 32 reads against a burst of 200; a page asks for a snapshot
only when it connects or falls far behind (docs/live-play.md). One person's tabs and devices
rarely pass 4 sockets.

The counts are kept in each server process (its memory; exact, and released when a socket
closes, so nothing leaks when a process dies): what they protect is that process's event
loop and its database connections. The address is the scope's ``client``, the one daphne
gives the socket: behind README's nginx, with ``--proxy-headers``, the ``X-Forwarded-For``
that nginx sets to the address it saw (docs/deployment.md, "The client's address"), the same
address the join limits and the login throttle count (``config.limits.client_address``).

Token buckets and counters are the usual mechanism for this; no package in the project's
requirements counts open WebSockets, so these few lines do (``limits`` would be the
maintained choice for the buckets alone, and is not installed).
"""

from __future__ import annotations

import hashlib
import time
from collections import Counter
from dataclasses import dataclass, field
from typing import Any, Literal

from django.conf import settings
from django.utils.translation import gettext as _

CLOSE_TOO_MANY = 4429

#: Buckets not touched for this long are full again and are forgotten (memory stays bounded).
FORGET_AFTER_SECONDS = 600.0


@dataclass
class Bucket:
    """A token bucket: ``capacity`` tokens at most, ``rate`` more each second."""

    capacity: float
    rate: float
    tokens: float = -1.0
    at: float = field(default_factory=time.monotonic)

    def __post_init__(self) -> None:
        if self.tokens < 0:
            self.tokens = self.capacity

    def refill(self, now: float) -> None:
        self.tokens = min(self.capacity, self.tokens + (now - self.at) * self.rate)
        self.at = now


def _setting(name: str, default: float) -> float:
    return float(getattr(settings, name, default))


@dataclass(frozen=True)
class Who:
    """Whose socket: the person (``user:<id>`` or ``guest:<digest of the token>``; ``None``
    for a visitor with neither, who is refused anyway) and the client address."""

    person: str | None
    address: str


def socket_who(scope: dict[str, Any] | Any, guest_token: str | None) -> Who:
    user = scope.get("user")
    if user is not None and getattr(user, "is_authenticated", False):
        person: str | None = f"user:{user.pk}"
    elif guest_token:
        person = "guest:" + hashlib.sha256(str(guest_token).encode()).hexdigest()[:24]
    else:
        person = None
    client = scope.get("client") or ("unknown", 0)
    return Who(person=person, address=str(client[0]))


class SocketLimits:
    """The open sockets and read buckets of one server process (all on its event loop)."""

    def __init__(self) -> None:
        self.open_by_person: Counter[str] = Counter()
        self.open_by_address: Counter[str] = Counter()
        self.person_reads: dict[str, Bucket] = {}
        self.address_reads: dict[str, Bucket] = {}
        self.person_commands: dict[str, Bucket] = {}

    # --- open sockets -------------------------------------------------------------------

    def open(self, who: Who) -> bool:
        """Count one more socket for ``who``, unless that passes a limit (then count nothing)."""
        per_person = int(_setting("DASHAIN_SOCKETS_PER_PERSON", 12))
        per_address = int(_setting("DASHAIN_SOCKETS_PER_ADDRESS", 100))
        if who.person is not None and self.open_by_person[who.person] >= per_person:
            return False
        if self.open_by_address[who.address] >= per_address:
            return False
        if who.person is not None:
            self.open_by_person[who.person] += 1
        self.open_by_address[who.address] += 1
        return True

    def close(self, who: Who) -> None:
        """A socket counted by :meth:`open` closed."""
        if who.person is not None:
            self.open_by_person[who.person] -= 1
            if self.open_by_person[who.person] <= 0:
                del self.open_by_person[who.person]
        self.open_by_address[who.address] -= 1
        if self.open_by_address[who.address] <= 0:
            del self.open_by_address[who.address]

    # --- reads ----------------------------------------------------------------------------

    def read(self, who: Who) -> bool:
        """Take one read from the person's and the address's buckets (from neither if either is empty)."""
        now = time.monotonic()
        buckets = [
            self._bucket(
                self.address_reads,
                who.address,
                _setting("DASHAIN_READS_PER_ADDRESS_BURST", 200),
                _setting("DASHAIN_READS_PER_ADDRESS_RATE", 20.0),
                now,
            )
        ]
        if who.person is not None:
            buckets.append(
                self._bucket(
                    self.person_reads,
                    who.person,
                    _setting("DASHAIN_READS_PER_PERSON_BURST", 30),
                    _setting("DASHAIN_READS_PER_PERSON_RATE", 2.0),
                    now,
                )
            )
        for bucket in buckets:
            bucket.refill(now)
        if any(bucket.tokens < 1 for bucket in buckets):
            return False
        for bucket in buckets:
            bucket.tokens -= 1
        return True

    # --- commands ----------------------------------------------------------------------

    def command(self, who: Who) -> bool:
        """Take one command (a frame that makes the site write) from the person's bucket."""
        if who.person is None:
            return True  # a visitor without a session is refused by every service anyway
        now = time.monotonic()
        bucket = self._bucket(
            self.person_commands,
            who.person,
            _setting("DASHAIN_COMMANDS_PER_PERSON_BURST", 30),
            _setting("DASHAIN_COMMANDS_PER_PERSON_RATE", 2.0),
            now,
        )
        bucket.refill(now)
        if bucket.tokens < 1:
            return False
        bucket.tokens -= 1
        return True

    def _bucket(self, buckets: dict[str, Bucket], key: str, capacity: float, rate: float, now: float) -> Bucket:
        bucket = buckets.get(key)
        if bucket is None:
            if len(buckets) > 10_000:
                self._forget(buckets, now)
            bucket = buckets[key] = Bucket(capacity=capacity, rate=rate, at=now)
        return bucket

    @staticmethod
    def _forget(buckets: dict[str, Bucket], now: float) -> None:
        for key in [key for key, bucket in buckets.items() if now - bucket.at > FORGET_AFTER_SECONDS]:
            del buckets[key]


#: This process's limits.
LIMITS = SocketLimits()


#: A refusal: its code and the sentence the page is told.
Refusal = tuple[str, str]


def _too_many_reads() -> Refusal:
    return "too_many_reads", _("Too many requests from you; the page tries again shortly.")


class SocketCount:
    """One socket's place in this process's limits: counted open from :meth:`admit` to
    :meth:`release`, its reads and commands taken from its person's and address's buckets.
    Each method returns the refusal to tell the page, or ``None``."""

    def __init__(self) -> None:
        self.who: Who | None = None

    def admit(self, who: Who) -> Refusal | None:
        """Count this socket and its opening read (the page is closed with 4429 if refused)."""
        if not LIMITS.open(who):
            return "too_many_sockets", _("Too many open pages of this table from you; close some and try again.")
        self.who = who
        if LIMITS.read(who):
            return None
        self.release()
        return _too_many_reads()

    def release(self) -> None:
        who = self.who
        if who is not None:
            self.who = None
            LIMITS.close(who)

    def take(self, limit: Literal["command", "read"] | None) -> Refusal | None:
        """A frame's cost: a command (over all the person's sockets), a read, or nothing."""
        who = self.who
        if who is None or limit is None:
            return None
        if limit == "command":
            if LIMITS.command(who):
                return None
            return "too_many_commands", _("Too many commands from you at once; wait a moment and try again.")
        return None if LIMITS.read(who) else _too_many_reads()
