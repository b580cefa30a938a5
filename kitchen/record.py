"""The night's record in the table's event log: the levels of a tournament's clock as they
were played. The clock is stored, not timed (``kitchen.clock``), so no process notices a
level beginning: each write to the clock (and each elimination) first appends a
``kitchen_level`` for every level begun since the last one in the log, with the moment it
began, computed from the clock's stored values."""

from __future__ import annotations

from datetime import datetime, timedelta
from decimal import Decimal
from typing import Any

from kitchen.clock import level_start_ms
from kitchen.models import TournamentClock
from kitchen.rules import state_now
from tables.events import EventKind
from tables.models import Event, Table


def level_payload(levels: list[dict[str, Any]], index: int, at: datetime) -> dict[str, Any]:
    level = levels[index]
    payload: dict[str, Any] = {
        "level": index + 1,
        "at": at.isoformat(),
        "minutes": format((Decimal(level["seconds"]) / 60).quantize(Decimal("0.01")).normalize(), "f"),
        "brk": bool(level.get("break")),
    }
    if not level.get("break"):
        payload.update(small=level["small"], big=level["big"], ante=level.get("ante", 0))
    return payload


def levels_reached(log: Any, table: Table, clock: TournamentClock, now: datetime) -> None:
    """Append a ``kitchen_level`` for each level begun, by the clock running, since the last
    one in the log (called in the transaction, before the write changes the clock)."""
    if not clock.started or clock.running_since is None:
        return  # a paused clock begins no level
    state = state_now(clock, now)
    logged_levels = Event.objects.filter(table=table, kind=EventKind.KITCHEN_LEVEL).order_by("-seq")
    last = logged_levels.values_list("payload", flat=True).first()
    logged = last["level"] if last else 0  # levels 1..logged are in the log, the last one being played
    for index in range(logged, state.index + 1):
        began = now - timedelta(milliseconds=state.elapsed_ms - level_start_ms(clock.levels, index))
        log.append(EventKind.KITCHEN_LEVEL, level_payload(clock.levels, index, began))


def level_now(log: Any, clock: TournamentClock, index: int, now: datetime) -> None:
    """The level the host's action puts the clock at (the start, or a level back), begun now."""
    log.append(EventKind.KITCHEN_LEVEL, level_payload(clock.levels, index, now))
