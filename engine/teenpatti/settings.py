"""Teen Patti settings: the spec's table of keys, the three presets, and their validation.

Keys (``shared/spec/hand-scenario.md``) and the allowed values:

==================  ========================================================================
``boot``            1 to 100 chips: the ante from everyone, also the opening stake (book 000)
``blind_turns``     2 to 6, or ``None`` for no limit: blind bets before a player must see
``stake_limit``     ``None`` or a multiple of the boot, at least twice the boot: the highest
                    stake a raise may set
``pot_limit_boots`` ``None`` or 2 to 1,000,000: when a bet brings the pot to this many boots
                    or more, everyone still in shows
``raise``           ``"any"`` (steps of a boot, as high as chips go) or ``"double"`` (the new
                    stake at most twice the current one, in steps of a boot)
``sideshow``        ``"previous"``, ``"previous_seen"`` or ``"off"``
``blind_show``      ``True`` / ``False``: may a blind player ask for a show (for one stake)
``best_run``        ``"AKQ"`` or ``"A23"``: the top run; the other is second
``ranking``         ``"standard"`` or ``"digits"`` (999)
``variant``         optional: ``"none"`` (the default), ``"muflis"``, ``"ak47"``, ``"joker"`` or
                    ``"four_card"`` (:mod:`engine.teenpatti.variants`); not with ``"digits"``
==================  ========================================================================

``variant`` is in no preset's defaults: a key the replay format may omit, so settings without
it (every file and every stored table before the variants) mean ``"none"``, and
:meth:`Settings.to_json` leaves it out when it is ``"none"``.

A bad value raises :class:`engine.api.SettingsError` whose ``field`` is the key.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from engine.api import SettingsError, is_whole_number
from engine.teenpatti.ranking import BEST_RUNS, RANKINGS
from engine.teenpatti.variants import VARIANTS

RAISE_RULES = ("any", "double")
SIDESHOW_RULES = ("previous", "previous_seen", "off")

BOOT_RANGE = (1, 100)
BLIND_TURNS_RANGE = (2, 6)
POT_LIMIT_RANGE = (2, 1_000_000)
STAKE_LIMIT_MAX = 10_000_000

PRESETS: dict[str, dict[str, Any]] = {
    "faras": {
        "boot": 10,
        "blind_turns": 4,
        "stake_limit": None,
        "pot_limit_boots": 1024,
        "raise": "any",
        "sideshow": "previous",
        "blind_show": False,
        "best_run": "AKQ",
        "ranking": "standard",
    },
    "classic": {
        "boot": 10,
        "blind_turns": None,
        "stake_limit": None,
        "pot_limit_boots": None,
        "raise": "double",
        "sideshow": "previous_seen",
        "blind_show": True,
        "best_run": "AKQ",
        "ranking": "standard",
    },
    "999": {
        "boot": 10,
        "blind_turns": None,
        "stake_limit": None,
        "pot_limit_boots": None,
        "raise": "double",
        "sideshow": "off",
        "blind_show": True,
        "best_run": "A23",
        "ranking": "digits",
    },
}

#: Keys a settings mapping may leave out (they then take the value meaning "as the preset").
OPTIONAL_KEYS = ("variant",)

#: Seats each preset allows (Faras: book 000; Classic: book 004; 999: book 002).
PLAYER_COUNTS: dict[str, tuple[int, int]] = {"faras": (2, 8), "classic": (3, 7), "999": (2, 16)}


@dataclass(frozen=True, slots=True)
class Settings:
    """Validated settings of one hand (``raise_rule`` is the ``raise`` key)."""

    boot: int
    blind_turns: int | None
    stake_limit: int | None
    pot_limit_boots: int | None
    raise_rule: str
    sideshow: str
    blind_show: bool
    best_run: str
    ranking: str
    variant: str = "none"

    @property
    def pot_limit(self) -> int | None:
        """The pot, in chips, at which everyone still in shows."""
        return None if self.pot_limit_boots is None else self.pot_limit_boots * self.boot

    def to_json(self) -> dict[str, Any]:
        out = {
            "boot": self.boot,
            "blind_turns": self.blind_turns,
            "stake_limit": self.stake_limit,
            "pot_limit_boots": self.pot_limit_boots,
            "raise": self.raise_rule,
            "sideshow": self.sideshow,
            "blind_show": self.blind_show,
            "best_run": self.best_run,
            "ranking": self.ranking,
        }
        if self.variant != "none":
            out["variant"] = self.variant
        return out


def _int_in(values: Mapping[str, Any], key: str, low: int, high: int, *, optional: bool) -> int | None:
    value = values[key]
    if value is None and optional:
        return None
    if not is_whole_number(value) or not low <= value <= high:
        allowed = f"a whole number from {low:,} to {high:,}" + (", or null for none" if optional else "")
        raise SettingsError(key, f"must be {allowed}, not {value!r}.")
    return int(value)


def _choice(values: Mapping[str, Any], key: str, choices: tuple[str, ...]) -> str:
    value = values[key]
    if value not in choices:
        raise SettingsError(key, f"must be one of {', '.join(repr(c) for c in choices)}, not {value!r}.")
    return str(value)


def merge_settings(preset: str, overrides: Mapping[str, Any] | None) -> dict[str, Any]:
    """The preset's defaults with ``overrides`` applied, validated; a plain dict."""
    defaults = PRESETS[preset]
    values = dict(defaults)
    if overrides:
        if not isinstance(overrides, Mapping):
            raise SettingsError("settings", "must be an object of setting names and values.")
        for key, value in overrides.items():
            if key not in defaults and key not in OPTIONAL_KEYS:
                known = ", ".join([*defaults, *OPTIONAL_KEYS])
                raise SettingsError(str(key), f"is not a {preset} setting; the settings are {known}.")
            values[key] = value
    parse_settings(values)
    return values


_CACHE: dict[tuple[Any, ...], Settings] = {}


def parse_settings(values: Mapping[str, Any]) -> Settings:
    """Check every key of a full settings mapping; :class:`SettingsError` names the first bad one."""
    if isinstance(values, Settings):
        return values
    try:
        cache_key = tuple((key, type(value), value) for key, value in values.items())
        cached = _CACHE.get(cache_key)
    except TypeError:  # an unhashable value: validate it (and fail) below
        cache_key, cached = None, None
    if cached is not None:
        return cached
    for key in PRESETS["faras"]:
        if key not in values:
            raise SettingsError(key, "is missing.")
    for key in values:
        if key not in PRESETS["faras"] and key not in OPTIONAL_KEYS:
            known = ", ".join([*PRESETS["faras"], *OPTIONAL_KEYS])
            raise SettingsError(str(key), f"is not a Teen Patti setting; the settings are {known}.")
    boot = _int_in(values, "boot", *BOOT_RANGE, optional=False)
    assert boot is not None
    blind_turns = _int_in(values, "blind_turns", *BLIND_TURNS_RANGE, optional=True)
    stake_limit = _int_in(values, "stake_limit", 2 * boot, STAKE_LIMIT_MAX, optional=True)
    if stake_limit is not None and stake_limit % boot:
        raise SettingsError("stake_limit", f"must be a multiple of the boot ({boot}), not {stake_limit}.")
    pot_limit_boots = _int_in(values, "pot_limit_boots", *POT_LIMIT_RANGE, optional=True)
    raise_rule = _choice(values, "raise", RAISE_RULES)
    sideshow = _choice(values, "sideshow", SIDESHOW_RULES)
    blind_show = values["blind_show"]
    if not isinstance(blind_show, bool):
        raise SettingsError("blind_show", f"must be true or false, not {blind_show!r}.")
    best_run = _choice(values, "best_run", BEST_RUNS)
    ranking = _choice(values, "ranking", RANKINGS)
    variant = _choice(values, "variant", VARIANTS) if "variant" in values else "none"
    if variant != "none" and ranking != "standard":
        raise SettingsError(
            "variant", f"{variant} plays the standard ranking, so it cannot go with 999's digits (ranking {ranking!r})."
        )
    settings = Settings(
        boot, blind_turns, stake_limit, pot_limit_boots, raise_rule, sideshow, blind_show, best_run, ranking, variant
    )
    if cache_key is not None and len(_CACHE) < 1024:
        _CACHE[cache_key] = settings
    return settings
