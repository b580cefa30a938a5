"""A hand is rebuilt from its log in one place (docs/architecture.md, "State is a replay").

The engine's ``apply`` is called by the project's apps twice: ``selectors.hand_replay``,
which replays recorded actions (the live hand's state, the last finished hand a snapshot
shows, the history's replay), and ``acting.move_play``, which plays a new one. A third call
would be a second replay of the log, free to drift from the first.
"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
APPS = ("tables", "ledger", "homegames", "kitchen", "shares", "accounts", "config")


def _apply_calls() -> set[tuple[str, str]]:
    """Each (module, enclosing function) that calls something's ``apply``."""
    found = set()
    for app in APPS:
        for path in (ROOT / app).rglob("*.py"):
            if "migrations" in path.parts:
                continue
            tree = ast.parse(path.read_text(encoding="utf-8"))
            for function in ast.walk(tree):
                if not isinstance(function, ast.FunctionDef | ast.AsyncFunctionDef):
                    continue
                for node in ast.walk(function):
                    if (
                        isinstance(node, ast.Call)
                        and isinstance(node.func, ast.Attribute)
                        and node.func.attr == "apply"
                    ):
                        found.add((path.relative_to(ROOT).as_posix(), function.name))
    return found


def test_the_engine_applies_actions_in_one_replay_and_one_move():
    assert _apply_calls() == {("tables/selectors.py", "hand_replay"), ("tables/services/acting.py", "move_play")}
