"""What a check of :mod:`engine.verify` found wrong, and the reading of an exported event
that every check shares."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True, slots=True)
class Finding:
    """One check that failed. ``hand_number`` is ``None`` for the game as a whole; ``check``
    is ``commitment``, ``seed``, ``log``, ``deal``, ``result``, ``order`` or ``unverifiable``
    (the file lacks what a check needs: it is refused, never passed)."""

    hand_number: int | None
    check: str
    message: str

    def line(self) -> str:
        where = "game" if self.hand_number is None else f"hand {self.hand_number}"
        if self.check == "unverifiable":
            return f"{where}: CANNOT VERIFY: {self.message}"
        return f"{where}: MISMATCH ({self.check}): {self.message}"


def event_data(event: Mapping[str, Any]) -> Mapping[str, Any]:
    """An exported event's ``data``, or an empty mapping when it has none."""
    data = event.get("data")
    return data if isinstance(data, Mapping) else {}
