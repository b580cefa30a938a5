"""The tournament clock of a kitchen-table night, as pure functions of its stored state.

The clock is two stored values (``TournamentClock``): the milliseconds played before the
last start or resume (``elapsed_ms``), and when it was last started or resumed
(``running_since``, ``None`` while paused or not started). Where it is at any moment is
computed from them and the server's time, never kept by a timer in a process: a restart
changes nothing, and every page reads the same deadline.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

#: A standard home-game structure (blinds double roughly every two levels, an ante from
#: level 5, a break after level 4 and 8), for 1,000 to 10,000 starting chips; minutes a level.
STANDARD_MINUTES = 15
STANDARD_BLINDS = (
    (10, 20, 0),
    (15, 30, 0),
    (25, 50, 0),
    (50, 100, 0),
    None,
    (75, 150, 10),
    (100, 200, 20),
    (150, 300, 30),
    (200, 400, 40),
    None,
    (300, 600, 50),
    (400, 800, 75),
    (500, 1000, 100),
    (700, 1400, 150),
    (1000, 2000, 200),
)
BREAK_MINUTES = 10
MAX_LEVELS = 60
MAX_LEVEL_SECONDS = 4 * 60 * 60


def standard_levels(minutes: int = STANDARD_MINUTES) -> list[dict[str, Any]]:
    """The standard structure with ``minutes`` a level (breaks stay 10 minutes)."""
    levels: list[dict[str, Any]] = []
    for blinds in STANDARD_BLINDS:
        if blinds is None:
            levels.append({"break": True, "seconds": BREAK_MINUTES * 60})
        else:
            small, big, ante = blinds
            levels.append({"small": small, "big": big, "ante": ante, "seconds": minutes * 60})
    return levels


class LevelError(ValueError):
    """A structure that cannot be played; ``index`` is the level (0 first), or None."""

    def __init__(self, code: str, index: int | None = None) -> None:
        super().__init__(code)
        self.code = code
        self.index = index


def _whole(value: object) -> int | None:
    if isinstance(value, bool) or not isinstance(value, int):
        return None
    return value


def check_levels(levels: object) -> list[dict[str, Any]]:
    """The levels as stored: each ``{"small", "big", "ante", "seconds"}`` or ``{"break": True,
    "seconds"}``. Refused (``LevelError``): none or too many (``no_levels``), a level of 0
    seconds or less or over 4 hours (``bad_length``), blinds that are not whole numbers with
    0 < small <= big and an ante of 0 or more (``bad_blinds``), a break first (``break_first``)."""
    if not isinstance(levels, list) or not levels or len(levels) > MAX_LEVELS:
        raise LevelError("no_levels")
    clean = []
    for index, level in enumerate(levels):
        if not isinstance(level, dict):
            raise LevelError("bad_blinds", index)
        seconds = _whole(level.get("seconds"))
        if seconds is None or not 1 <= seconds <= MAX_LEVEL_SECONDS:
            raise LevelError("bad_length", index)
        if level.get("break"):
            if index == 0:
                raise LevelError("break_first", index)
            clean.append({"break": True, "seconds": seconds})
            continue
        small, big, ante = _whole(level.get("small")), _whole(level.get("big")), _whole(level.get("ante", 0))
        if small is None or big is None or ante is None or not 0 < small <= big or ante < 0:
            raise LevelError("bad_blinds", index)
        clean.append({"small": small, "big": big, "ante": ante, "seconds": seconds})
    return clean


@dataclass(frozen=True)
class ClockState:
    started: bool
    running: bool
    index: int  # the level being played (0 first); the last one goes on once reached
    elapsed_ms: int
    level_left_ms: int | None  # None in the last level (it has no end)
    deadline: datetime | None  # when the level ends, while running and not in the last level
    level_number: int  # the playing levels' count up to here (breaks not counted); 0 in a break

    def to_json(self, levels: list[dict[str, Any]], now: datetime) -> dict[str, Any]:
        level = levels[self.index]
        following = levels[self.index + 1] if self.index + 1 < len(levels) else None
        return {
            "started": self.started,
            "running": self.running,
            "index": self.index,
            "level": level,
            "level_number": self.level_number,
            "next": following,
            "left_ms": self.level_left_ms,
            "deadline_ms": int(self.deadline.timestamp() * 1000) if self.deadline else None,
            "now_ms": int(now.timestamp() * 1000),
        }


def clock_state(
    levels: list[dict[str, Any]], *, elapsed_ms: int, running_since: datetime | None, started: bool, now: datetime
) -> ClockState:
    """Where the clock is at ``now``, from its stored values."""
    elapsed = elapsed_ms
    if running_since is not None:
        elapsed += max(0, int((now - running_since) / timedelta(milliseconds=1)))
    start = 0
    for index, level in enumerate(levels):
        end = start + level["seconds"] * 1000
        if elapsed < end or index == len(levels) - 1:
            last = index == len(levels) - 1
            left = None if last else end - elapsed
            deadline = now + timedelta(milliseconds=left) if left is not None and running_since is not None else None
            number = 0 if level.get("break") else sum(1 for lv in levels[: index + 1] if not lv.get("break"))
            return ClockState(
                started=started,
                running=running_since is not None,
                index=index,
                elapsed_ms=elapsed,
                level_left_ms=left,
                deadline=deadline,
                level_number=number,
            )
        start = end
    raise AssertionError("a clock has at least one level")  # check_levels refuses none


def level_start_ms(levels: list[dict[str, Any]], index: int) -> int:
    """How many milliseconds of play come before level ``index``."""
    seconds: int = sum(level["seconds"] for level in levels[:index])
    return seconds * 1000
