"""The per-process cache of each table's live hand and its engine state, as committed.

Owned here, apart from both its writer and its readers: services put an entry after
their transaction commits (``tables.services.log.TableLog.flush``) and selectors read
it (``tables.selectors.live_hand_and_state``). Neither imports the other for it.

An entry is keyed by the table and holds the ``last_seq`` the table's log had when it
was stored. It is used as it is only while the locked table's ``last_seq`` is still
that number (nothing has been written since, by this process or another); otherwise
the reader asks the log only for the actions after the cached state. So the cache can
never be ahead of or behind the log, may be dropped at any moment
(:func:`state_cache_clear`), and a restart simply starts cold.
"""

from __future__ import annotations

import copy
import threading
from collections import OrderedDict
from dataclasses import dataclass
from typing import TYPE_CHECKING

from tables.models import Hand, Table

if TYPE_CHECKING:
    from engine.games import AnyHandState

CACHE_SIZE = 4096


@dataclass(frozen=True)
class CachedHand:
    """A table's live hand as it stood when the table's log ended at ``table_seq``."""

    table_seq: int  # the table's ``last_seq`` when stored: the entry is exact while it is unchanged
    hand: Hand  # the hand row as committed (a copy is handed out, never this object)
    action_seq: int  # seq of the last player action ``state`` includes (0: none)
    state: AnyHandState  # engine states are immutable values (each game has its own state type)


_cache: OrderedDict[tuple[int, str], CachedHand] = OrderedDict()
_cache_lock = threading.Lock()


def _cache_key(table: Table) -> tuple[int, str]:
    # The table's random commitment makes the key unique even if a test database reuses ids.
    return (table.pk, table.seed_commitment)


def state_cache_clear() -> None:
    """Forget every cached state (as a restart would)."""
    with _cache_lock:
        _cache.clear()


def state_cache_get(table: Table) -> CachedHand | None:
    """The table's entry, or ``None``. The caller checks ``table_seq`` against the locked table."""
    with _cache_lock:
        return _cache.get(_cache_key(table))


def state_cache_put(
    *, table: Table, table_seq: int, hand: Hand | None, action_seq: int, state: AnyHandState | None
) -> None:
    """Remember the table's live hand (or that it has none) as committed at ``table_seq``.

    Call only after the commit. A later write to the table moves its ``last_seq`` on, so
    an entry that is not current is never trusted as it is.
    """
    key = _cache_key(table)
    with _cache_lock:
        if hand is None or state is None:  # no live hand (a live hand always has a state)
            _cache.pop(key, None)
            return
        _cache[key] = CachedHand(table_seq=table_seq, hand=copy.copy(hand), action_seq=action_seq, state=state)
        _cache.move_to_end(key)
        while len(_cache) > CACHE_SIZE:
            _cache.popitem(last=False)
