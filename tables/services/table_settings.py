"""A table's settings: the host's choices checked against the rule books' ranges.

Rule book 000 lists the host settings of Faras and their ranges: boot 1 to 100,
buy-in price and chips, buy-backs unlimited / none / up to 1, 2, 3 or 5, blind turns
2 to 6 or no limit, stake limit, pot limit (in boots, or none), sideshow on or off,
best run A-K-Q or A-2-3, seats 2 to 8 and a turn timer that reminds but is not
enforced. Faras and Classic also take a variant (Muflis, AK47, Joker or Four-card; the
rules are in docs/rules.md, "Variants"), kept in the engine's settings. Classic (3 to 7)
and 999 (2 to 16, book 002) are presets of the same engine
with their own player counts, and a table seats as many as its game allows. Rule book
001 (hold'em) adds the blind speed (every 5, 10 or 20 hands) and the game length
(until one player has every chip, or 30 or 60 hands); everyone starts with 1,000 play
chips and there are no rebuys. Issue 25 lets a hold'em table be played for money: a
buy-in price (and currency), and how the pool is shared, ``prizes``: ``"chips"`` (each
chip is worth the price / 1,000, as at a Teen Patti table) or ``"places"`` with
``payouts``, the host's payout table (whole percents per place, adding up to 100, no
more places than seats). Both are fixed once anyone has bought in (:func:`prizes_kept`).

The stored form (``Table.settings``) is::

    {"engine": {...the engine's full settings...}, "host": {...the host's flat choices...},
     "seats": 6, "turn_timer": null, "timeout_action": "remind", "hand_pause": 5,
     "buy_in_chips": 1000, "buy_in_price": "10.00",
     "buy_backs": null, "game_length": null, "computer_pause": 2, "approve_seats": false}

and, at a hold'em table, ``"prizes": "chips"`` (``"payouts": null``) or ``"prizes": "places",
"payouts": [50, 30, 20]``.

``approve_seats`` (off by default): the host approves every seat and buy-back a player
asks for (``tables.services.requests``).
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Mapping
from decimal import Decimal, InvalidOperation
from fractions import Fraction
from typing import TYPE_CHECKING, Any, Literal, TypeVar, overload

from django.conf import settings as django_settings
from django.utils import formats
from django.utils.translation import gettext as _

from engine.api import SettingsError
from engine.games import get_game
from tables.models import CURRENCIES, Seat, Table, table_currency
from tables.money import PAYOUT_PRESETS, format_chip_value
from tables.services.errors import ServiceError
from tables.services.refusals import settings_refusal_message

if TYPE_CHECKING:
    from django_stubs_ext import StrPromise

GAMES = ("faras", "classic", "999", "holdem")
TEEN_PATTI_GAMES = ("faras", "classic", "999")
BUY_BACK_CHOICES = (None, 0, 1, 2, 3, 5)
GAME_LENGTH_CHOICES = (None, 30, 60)
BLIND_SPEED_CHOICES = (5, 10, 20)
TURN_TIMER_RANGE = (5, 600)
MAX_SEATS = 16  # 999's most (book 002); each game's own count is the engine's
HOLDEM_STARTING_CHIPS = 1000

# Host keys that are the table's own; every other key is handed to the engine.
TIMEOUT_ACTIONS = ("remind", "act")
HAND_PAUSE_RANGE = (3, 30)
DEFAULT_HAND_PAUSE = 5
#: Seconds a computer player waits before it acts (issue 15: a human-like pause).
COMPUTER_PAUSE_CHOICES = (1, 2, 3, 5)
DEFAULT_COMPUTER_PAUSE = 2
TABLE_KEYS = frozenset(
    {
        "seats",
        "turn_timer",
        "timeout_action",
        "hand_pause",
        "buy_in_chips",
        "buy_in_price",
        "buy_backs",
        "game_length",
        "currency",
        "computer_pause",
        "approve_seats",
        "dealers_choice",
        "not_dealt",
    }
)
# The currency a buy-in's price is in (ISO 4217), or none: then prices are plain amounts.
# Kept with the host's choices (settings["host"]["currency"]); read it with table_currency().
TEEN_PATTI_ENGINE_KEYS = frozenset(
    {"boot", "blind_turns", "stake_limit", "pot_limit_boots", "sideshow", "best_run", "variant"}
)
#: The Teen Patti variants a host may pick on top of Faras or Classic (docs/rules.md, "Variants").
VARIANT_CHOICES = ("none", "muflis", "ak47", "joker", "four_card")
HOLDEM_ENGINE_KEYS = frozenset({"blind_speed"})
#: Hold'em's own table keys: how the pool is shared (issue 25).
HOLDEM_TABLE_KEYS = frozenset({"prizes", "payouts"})
PRIZE_CHOICES = ("chips", "places")
DEFAULT_PAYOUTS = PAYOUT_PRESETS["100"]


def _error(field: str, message: str | StrPromise) -> ServiceError:
    return ServiceError("invalid_settings", message, field=field)


@overload
def _int(field: str, value: object, *, low: int, high: int, allow_none: Literal[False] = False) -> int: ...
@overload
def _int(field: str, value: object, *, low: int, high: int, allow_none: bool) -> int | None: ...
def _int(field: str, value: object, *, low: int, high: int, allow_none: bool = False) -> int | None:
    if value is None or value == "":
        if allow_none:
            return None
        raise _error(field, _("This setting is required."))
    if isinstance(value, bool):
        raise _error(field, _("Give a whole number."))
    if isinstance(value, str) and value.strip().lstrip("-").isdigit():
        value = int(value.strip())
    if not isinstance(value, int):
        raise _error(field, _("Give a whole number."))
    if not low <= value <= high:
        raise _error(field, _("Give a number from %(low)s to %(high)s.") % {"low": _shown(low), "high": _shown(high)})
    return value


Choice = TypeVar("Choice")


def _choice(field: str, value: object, choices: tuple[Choice, ...]) -> Choice:
    if isinstance(value, str) and value.strip().isdigit():
        value = int(value.strip())
    if value == "":
        value = None
    if isinstance(value, bool) or value not in choices:
        shown = ", ".join(_("none") if c is None else str(c) for c in choices)
        raise _error(field, _("Choose one of: %(choices)s.") % {"choices": shown})
    return choices[choices.index(value)]  # the choice equal to value


def _yes_no(field: str, value: object) -> bool:
    """On or off, from a form's checkbox, a socket's JSON or a stored choice (omitted: off)."""
    if value in (None, "", False, "off", "false", "0", 0):
        return False
    if value in (True, "on", "true", "1", 1):
        return True
    raise _error(field, _("Choose on or off."))


def _price(value: object) -> Decimal:
    if isinstance(value, bool) or isinstance(value, float):
        raise _error("buy_in_price", _("Give the price as an amount such as 10.00."))
    try:
        price = Decimal(str(value).strip())
    except (InvalidOperation, ValueError):
        raise _error("buy_in_price", _("Give the price as an amount such as 10.00.")) from None
    if not price.is_finite() or price < 0 or price > Decimal("1000000") or price != price.quantize(Decimal("0.01")):
        raise _error("buy_in_price", _("Give a price from 0.00 to 1,000,000.00, with at most two decimals."))
    return price.quantize(Decimal("0.01"))


def seat_range(game_name: str) -> tuple[int, int]:
    """The fewest and most seats a table of this game may have (the engine's counts, at most MAX_SEATS)."""
    game = get_game(game_name)
    return max(2, game.min_players), min(MAX_SEATS, game.max_players)


def table_settings_build(*, game: str, choices: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """Check the host's ``choices`` for ``game`` and return the settings to store.

    Omitted choices take the rule books' defaults. Raises :class:`ServiceError`
    (code ``invalid_settings``, ``field`` naming the setting) and nothing else.
    """
    if game not in GAMES:
        raise _error("game", _("Choose one of: %(choices)s.") % {"choices": ", ".join(GAMES)})
    choices = dict(choices or {})
    engine_keys = TEEN_PATTI_ENGINE_KEYS if game in TEEN_PATTI_GAMES else HOLDEM_ENGINE_KEYS | HOLDEM_TABLE_KEYS
    unknown = set(choices) - TABLE_KEYS - engine_keys
    if unknown:
        field = sorted(unknown)[0]
        raise _error(field, _("This game has no such setting."))

    low, high = seat_range(game)
    seats = _int("seats", choices.get("seats", min(high, 6)), low=low, high=high)
    turn_timer = _int(
        "turn_timer", choices.get("turn_timer"), low=TURN_TIMER_RANGE[0], high=TURN_TIMER_RANGE[1], allow_none=True
    )
    # Book 000: the timer "reminds you but is not enforced"; acting for the player is the host's choice.
    # Empty (a form left blank) means the default, as for an omitted choice.
    timeout_action = _choice("timeout_action", choices.get("timeout_action") or "remind", TIMEOUT_ACTIONS)
    computer_pause = _choice(
        "computer_pause", choices.get("computer_pause") or DEFAULT_COMPUTER_PAUSE, COMPUTER_PAUSE_CHOICES
    )
    hand_pause = _int(
        "hand_pause", choices.get("hand_pause"), low=HAND_PAUSE_RANGE[0], high=HAND_PAUSE_RANGE[1], allow_none=True
    )
    if hand_pause is None:
        hand_pause = DEFAULT_HAND_PAUSE
    approve_seats = _yes_no("approve_seats", choices.get("approve_seats"))
    # A table played with real cards (a kitchen-table night, docs/kitchen-table.md): never dealt.
    not_dealt = _yes_no("not_dealt", choices.get("not_dealt"))

    engine_overrides: dict[str, Any] = {}
    holdem_prizes: dict[str, Any] = {}
    if game in TEEN_PATTI_GAMES:
        boot = _int("boot", choices.get("boot", 10), low=1, high=100)
        engine_overrides["boot"] = boot
        if "blind_turns" in choices:
            engine_overrides["blind_turns"] = _int(
                "blind_turns", choices["blind_turns"], low=2, high=6, allow_none=True
            )
        if "stake_limit" in choices:
            engine_overrides["stake_limit"] = _int(
                "stake_limit", choices["stake_limit"], low=boot, high=10**9, allow_none=True
            )
        if "pot_limit_boots" in choices:
            engine_overrides["pot_limit_boots"] = _int(
                "pot_limit_boots", choices["pot_limit_boots"], low=2, high=10**6, allow_none=True
            )
        if "sideshow" in choices:
            engine_overrides["sideshow"] = _sideshow(game, choices["sideshow"])
        if "best_run" in choices:
            engine_overrides["best_run"] = _choice("best_run", choices["best_run"], ("AKQ", "A23"))
        if choices.get("variant") not in (None, "", "none"):
            variant = _choice("variant", choices["variant"], VARIANT_CHOICES)
            if get_game(game).settings({}).get("ranking") != "standard":
                raise _error("variant", _("The variants play the usual ranking; 999 counts digits instead."))
            engine_overrides["variant"] = variant
        dealers_choice = _dealers_choice(game, choices.get("dealers_choice"))
        buy_in_chips = _int("buy_in_chips", choices.get("buy_in_chips", 1000), low=boot, high=10**7)
        buy_in_price = _price(choices.get("buy_in_price", "10.00"))
        if choices.get("currency") not in (None, "", *CURRENCIES):
            raise _error("currency", _("Choose one of: %(choices)s.") % {"choices": ", ".join(CURRENCIES)})
        buy_backs = _choice("buy_backs", choices.get("buy_backs"), BUY_BACK_CHOICES)
        game_length = None
        if "game_length" in choices and choices["game_length"] not in (None, ""):
            raise _error("game_length", _("Only hold'em has a game length."))
    else:
        # The host's blind speed is the engine's ``blinds_every`` (hands per blind level).
        engine_overrides["blinds_every"] = _choice("blind_speed", choices.get("blind_speed", 10), BLIND_SPEED_CHOICES)
        game_length = _choice("game_length", choices.get("game_length"), GAME_LENGTH_CHOICES)
        engine_overrides["game_length"] = game_length
        # Rule book 001: everyone starts with 1,000 chips and there are no rebuys. Issue 25:
        # the host may put a price on the buy-in (0.00, the default, plays for chips alone).
        for key, fixed in (("buy_in_chips", HOLDEM_STARTING_CHIPS), ("buy_backs", 0)):
            if key in choices and choices[key] not in (fixed, str(fixed)):
                raise _error(key, _("Hold'em is played with %(value)s here.") % {"value": fixed})
        buy_in_price = _price(choices.get("buy_in_price", "0.00"))
        if choices.get("currency") not in (None, "", *CURRENCIES):
            raise _error("currency", _("Choose one of: %(choices)s.") % {"choices": ", ".join(CURRENCIES)})
        buy_in_chips, buy_backs = HOLDEM_STARTING_CHIPS, 0
        prizes = _choice("prizes", choices.get("prizes") or "chips", PRIZE_CHOICES)
        payouts = _payouts(choices.get("payouts"), seats=seats) if prizes == "places" else None
        holdem_prizes = {"prizes": prizes, "payouts": list(payouts) if payouts is not None else None}
        if choices.get("dealers_choice"):
            raise _error("dealers_choice", _("This game has no such setting."))
        dealers_choice = []

    try:
        engine_settings = dict(get_game(game).settings(engine_overrides))
    except SettingsError as error:
        raise _error(error.field, settings_refusal_message(error)) from None
    host = {key: value for key, value in choices.items()}
    if "buy_in_price" in host:
        host["buy_in_price"] = str(buy_in_price)
    if holdem_prizes.get("payouts"):
        host["payouts"] = payouts_text(holdem_prizes["payouts"])  # as the settings page shows it
    built: dict[str, Any] = {
        "engine": engine_settings,
        "host": host,
        "seats": seats,
        "turn_timer": turn_timer,
        "timeout_action": timeout_action,
        "hand_pause": hand_pause,
        "buy_in_chips": buy_in_chips,
        "buy_in_price": str(buy_in_price),
        "buy_backs": buy_backs,
        "game_length": game_length,
        "computer_pause": computer_pause,
        "approve_seats": approve_seats,
        **holdem_prizes,
    }
    if not_dealt:
        built["not_dealt"] = True
    if dealers_choice:
        # The variants the dealer of each hand may call before the deal (docs/rules.md,
        # "Dealer's choice"); absent when the host allows none (the table's variant holds).
        built["dealers_choice"] = dealers_choice
    return built


def _dealers_choice(game: str, value: object) -> list[str]:
    """The variants the host lets each hand's dealer call: a list of variant names (a form's
    ticked boxes), in the order of ``VARIANT_CHOICES``; empty or omitted: none."""
    if value in (None, "", []):
        return []
    if isinstance(value, str):
        value = [value]
    if not isinstance(value, list | tuple) or any(item not in VARIANT_CHOICES for item in value):
        raise _error("dealers_choice", _("Choose one of: %(choices)s.") % {"choices": ", ".join(VARIANT_CHOICES)})
    if get_game(game).settings({}).get("ranking") != "standard":
        raise _error("dealers_choice", _("The variants play the usual ranking; 999 counts digits instead."))
    if len(set(value)) < 2:
        raise _error("dealers_choice", _("Tick at least two variants for the dealer to choose from."))
    return [choice for choice in VARIANT_CHOICES if choice in value]


_PERCENT = re.compile(r"[0-9]+")
_PAYOUT_SEPARATORS = re.compile(r"[\s/,;]+")


def _payouts(value: object, *, seats: int) -> tuple[int, ...]:
    """The host's payout table: a preset's name or their own percentages, first place first,
    as text (``"50/30/20"``, ``"50, 30, 20"``; a ``%`` after a number is allowed) or a list
    of whole numbers (a socket's JSON). Each a whole percent of at least 1, adding up to
    100, and no more paid places than the table seats. Omitted: winner takes all."""
    if value is None or value == "":
        return DEFAULT_PAYOUTS
    parts: list[object]
    if isinstance(value, str):
        parts = [part.removesuffix("%") for part in _PAYOUT_SEPARATORS.split(value.strip()) if part]
    elif isinstance(value, list | tuple):
        parts = list(value)
    else:
        raise _error("payouts", _("Give the percent for each place, first place first, such as 50/30/20."))
    percents: list[int] = []
    for part in parts:
        if isinstance(part, int) and not isinstance(part, bool):
            number = part
        elif isinstance(part, str) and _PERCENT.fullmatch(part):
            number = int(part)
        elif isinstance(part, str) and part.startswith("-"):
            raise _error("payouts", _("A percent cannot be negative."))
        elif isinstance(part, float) or (isinstance(part, str) and re.fullmatch(r"[0-9]*[.,][0-9]+", part)):
            raise _error("payouts", _("Give whole percents, with no fractions."))
        else:
            raise _error("payouts", _("Give the percent for each place, first place first, such as 50/30/20."))
        if number < 0:
            raise _error("payouts", _("A percent cannot be negative."))
        if number == 0:
            raise _error("payouts", _("Each paid place gets at least 1 percent; leave out the places not paid."))
        percents.append(number)
    if not percents:
        raise _error("payouts", _("Give the percent for each place, first place first, such as 50/30/20."))
    if sum(percents) != 100:
        raise _error(
            "payouts", _("The percentages add up to %(total)s; they must add up to 100.") % {"total": sum(percents)}
        )
    if any(lower > higher for higher, lower in itertools.pairwise(percents)):
        raise _error("payouts", _("A place never pays more than the place above it: first place first."))
    if len(percents) > seats:
        raise _error(
            "payouts",
            _("%(places)s paid places are more than the %(seats)s players this table seats.")
            % {"places": len(percents), "seats": seats},
        )
    return tuple(percents)


def payouts_text(payouts: list[int] | tuple[int, ...] | None) -> str:
    """A payout table as the host writes it: ``50/30/20``."""
    return "/".join(str(percent) for percent in payouts or ())


def prizes_kept(*, table: Table, settings: Mapping[str, Any]) -> None:
    """Refuse new ``settings`` that change how a hold'em table's pool is shared (by chips or
    by places, and the payout table) once anyone has bought in: the players bought in for
    the game the table showed them. The price is held by :func:`chip_value_kept`."""
    if not Seat.objects.filter(table=table, buy_ins__gt=0).exists():
        return
    before = (table.settings.get("prizes") or "chips", table.settings.get("payouts"))
    after = (settings.get("prizes") or "chips", settings.get("payouts"))
    if before == after:
        return
    field = "prizes" if before[0] != after[0] else "payouts"
    raise ServiceError(
        "prizes_fixed",
        _(
            "Players have bought in for a game shared %(sharing)s; how the money is shared is fixed "
            "from the first buy-in. To share it another way, start a new game."
        )
        % {"sharing": prizes_described(before[0], before[1])},
        field=field,
    )


def prizes_described(prizes: str, payouts: list[int] | tuple[int, ...] | None) -> str:
    """How a hold'em pool is shared, in words: "by chips", "by places (50/30/20)"."""
    if prizes == "places":
        return _("by places (%(payouts)s)") % {"payouts": payouts_text(payouts)}
    return _("by chips")


def _sideshow(game: str, value: object) -> str:
    """On/off from the host (rule book 000), or the engine's own partner rule."""
    preset = get_game(game).settings({}).get("sideshow", "previous")
    if value in (True, "on", "true", "1", 1):
        return preset if preset != "off" else "previous"
    if value in (False, "off", "false", "0", 0):
        return "off"
    if isinstance(value, str) and value in ("previous", "previous_seen"):
        return value
    raise _error("sideshow", _("Choose on or off."))


def chip_value_kept(*, table: Table, settings: Mapping[str, Any]) -> None:
    """Refuse new ``settings`` (as built above) that change the table's chip value once
    anyone has bought in. The value (price over chips) is the host's until the first
    buy-in; after it every player's result is chips x value - paid, so a new value would
    move money between players without a hand being played. The host may still change
    how many chips a buy-in gives, at the same value.
    """
    if not Seat.objects.filter(table=table, buy_ins__gt=0).exists():
        return
    if ((settings.get("host") or {}).get("currency") or "") != table_currency(table):
        raise ServiceError(
            "currency_fixed",
            _("The buy-ins here were paid in %(currency)s. To play in another currency, start a new game.")
            % {"currency": table_currency(table) or _("plain amounts")},
            field="currency",
        )
    value = Fraction(Decimal(table.buy_in_price)) / table.buy_in_chips
    chips = int(settings["buy_in_chips"])
    if Fraction(Decimal(settings["buy_in_price"])) / chips == value:
        return
    price = value * chips
    values = {"value": _shown(Decimal(_money(value))), "chips": _shown(chips), "price": _shown(Decimal(_money(price)))}
    if (price * 100).denominator == 1:
        message = _(
            "A chip here is worth %(value)s since the first buy-in, so %(chips)s chips cost %(price)s. "
            "To play at another value, start a new game."
        )
    else:
        message = _(
            "A chip here is worth %(value)s since the first buy-in, and %(chips)s chips would not cost "
            "a whole number of cents. To play at another value, start a new game."
        )
    raise ServiceError("chip_value_fixed", message % values, field="buy_in_price")


def _shown(number: int | Decimal) -> str:
    """A number inside a refusal, written the reader's way (1,000 and 0.01; in German 1.000 and 0,01)."""
    return str(formats.number_format(number, force_grouping=True))


def _money(amount: Fraction) -> str:
    """An exact amount in currency units, with at least two decimals (``0.01``, ``0.005``)."""
    return format_chip_value(amount * 100)


def table_seconds(table: Table, key: str, default: float, override_setting: str) -> float:
    """A table's pause in seconds: the host's ``key`` (``default`` when unset), unless the
    Django setting ``override_setting`` is set, which then holds for every table (tests)."""
    override = getattr(django_settings, override_setting, None)
    if override is not None:
        return float(override)
    return float(table.settings.get(key, default))
