"""Find a game's rules by the name used in scenarios and table settings."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, TypeAlias

from engine.api import Game

if TYPE_CHECKING:
    # mypy checks each game against the protocol with its own state type, so a method
    # whose signature drifts from engine.api.Game fails the type check, not a table.
    from engine.holdem import HOLDEM
    from engine.holdem.state import HandState as HoldemHandState
    from engine.teenpatti import HandState as TeenPattiHandState
    from engine.teenpatti import TeenPattiGame

    _holdem: Game[HoldemHandState] = HOLDEM
    _teenpatti: type[Game[TeenPattiHandState]] = TeenPattiGame

    # A hand's state in whichever game a table plays: the table keeps it and hands it
    # back to the game that made it (for annotations only: the games load lazily).
    AnyHandState: TypeAlias = TeenPattiHandState | HoldemHandState

GAME_NAMES = ("faras", "classic", "999", "holdem")


def get_game(name: str) -> Game[Any]:
    """The rules of ``name`` (one of :data:`GAME_NAMES`); ``KeyError`` for any other."""
    if name in ("faras", "classic", "999"):
        from engine.teenpatti import preset_game

        return preset_game(name)
    if name == "holdem":
        from engine.holdem import HOLDEM

        return HOLDEM
    raise KeyError(name)
