"""The table around the hold'em hands (rule book 001): settings, the button and the blind levels.

- Settings: ``small_blind`` (10) and ``big_blind`` (20) are the blinds of a single hand
  (the replay format's settings); ``blinds_every`` (10; 5, 10 or 20, or ``None`` to keep
  the blinds fixed) is how many hands each blind level lasts; ``game_length``
  (``None``: until one player has every chip; or 30 or 60 hands). Rising blinds start
  at ``small_blind``/``big_blind`` (10/20 by default) and then climb the book's
  :data:`BLIND_LEVELS` above them.
- The button moves to the next player to the left who still has chips (no dead button).
  When the table goes down to two, it moves one seat further if the player who posted
  the big blind last hand would otherwise post it again.
- The first hand's button is the first seat given.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from engine.api import HandPlan, SettingsError, TablePosition
from engine.holdem.state import blind_seats

#: The book's blind levels, lowest first; the last one stays.
BLIND_LEVELS: tuple[tuple[int, int], ...] = (
    (10, 20),
    (15, 30),
    (25, 50),
    (50, 100),
    (75, 150),
    (100, 200),
    (150, 300),
    (200, 400),
    (300, 600),
    (400, 800),
    (500, 1000),
    (750, 1500),
    (1000, 2000),
    (1500, 3000),
    (2000, 4000),
    (3000, 6000),
)

STARTING_STACK = 1000
DEFAULT_SETTINGS: Mapping[str, Any] = {"small_blind": 10, "big_blind": 20, "blinds_every": 10, "game_length": None}
BLINDS_EVERY_CHOICES = (None, 5, 10, 20)
GAME_LENGTH_CHOICES = (None, 30, 60)


def _whole_number(value: Any) -> bool:
    return type(value) is int


def holdem_settings(overrides: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """The defaults with ``overrides`` applied; :class:`SettingsError` names a bad field."""
    settings = dict(DEFAULT_SETTINGS)
    for key, value in (overrides or {}).items():
        if key not in DEFAULT_SETTINGS:
            raise SettingsError(key, f"Hold'em has no setting {key!r}: use {', '.join(DEFAULT_SETTINGS)}.")
        settings[key] = value
    small, big = settings["small_blind"], settings["big_blind"]
    if not _whole_number(small) or small < 1:
        raise SettingsError(
            "small_blind", f"The small blind must be a whole number of chips, 1 or more, not {small!r}."
        )
    if not _whole_number(big) or big < small:
        raise SettingsError(
            "big_blind", f"The big blind must be a whole number of chips, at least the small blind, not {big!r}."
        )
    if settings["blinds_every"] not in BLINDS_EVERY_CHOICES or type(settings["blinds_every"]) is bool:
        raise SettingsError("blinds_every", "The blinds go up every 5, 10 or 20 hands (or null to keep them fixed).")
    if settings["game_length"] not in GAME_LENGTH_CHOICES or type(settings["game_length"]) is bool:
        raise SettingsError("game_length", "The game lasts until one player has every chip (null), or 30 or 60 hands.")
    return settings


def blinds_for_hand(settings: Mapping[str, Any], hands_played: int) -> tuple[int, int]:
    """The small and big blind of the hand after ``hands_played`` hands."""
    start: tuple[int, int] = (settings["small_blind"], settings["big_blind"])
    every: int | None = settings["blinds_every"]
    if every is None:
        return start
    levels = [start, *(level for level in BLIND_LEVELS if level[1] > start[1])]
    return levels[min(hands_played // every, len(levels) - 1)]


def plan_hand(
    *, settings: Mapping[str, Any], seats: Sequence[tuple[str, int]], previous: TablePosition
) -> HandPlan | None:
    """The next hand: who is dealt in (everyone with chips), the button and the blinds.

    ``seats`` is every seat at the table in order, busted players (0 chips) included, so
    the button can move past them. ``None`` when fewer than two players have chips.
    """
    names = [name for name, _ in seats]
    with_chips = [index for index, (_, stack) in enumerate(seats) if stack > 0]
    if len(with_chips) < 2:
        return None
    players = tuple((seats[index][0], seats[index][1]) for index in with_chips)
    button = previous.next_dealer(names, with_chips)
    _, big_blind_index = blind_seats(len(players), button)
    if len(players) == 2 and players[big_blind_index][0] == previous.big_blind:
        # Down to two: one seat further, so nobody posts the big blind twice in a row.
        button = 1 - button
        _, big_blind_index = blind_seats(2, button)
    small, big = blinds_for_hand(settings, previous.hands_played)
    hand_settings = {**settings, "small_blind": small, "big_blind": big}
    position = TablePosition(
        dealer=players[button][0], big_blind=players[big_blind_index][0], hands_played=previous.hands_played + 1
    )
    return HandPlan(players=players, dealer=button, settings=hand_settings, position=position)
