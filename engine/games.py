"""Find a game's rules by the name used in scenarios and table settings."""

from __future__ import annotations

from engine.api import Game

GAME_NAMES = ("faras", "classic", "999", "holdem")


def get_game(name: str) -> Game:
    """The rules of ``name`` (one of :data:`GAME_NAMES`); ``KeyError`` for any other."""
    if name in ("faras", "classic", "999"):
        from engine.teenpatti import preset_game

        return preset_game(name)
    if name == "holdem":
        from engine.holdem import HOLDEM

        return HOLDEM
    raise KeyError(name)
