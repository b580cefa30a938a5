"""The lobby's forms: opening a table with every host setting of its game, joining one.

:class:`OpenTableForm` is built for one game (``game=...``): its fields are that game's
host settings, each with the rule book's default filled in and its range enforced, so a
bad value gets a message next to its field. The rules of what a host may set live in
``tables.services.settings`` (``table_settings_build``); the form calls it rather than
repeating them, and only adds the widgets, defaults and labels.
"""

from __future__ import annotations

from decimal import Decimal
from typing import Any

from django import forms
from django.utils.encoding import force_str
from django.utils.translation import gettext_lazy as _

from engine.games import get_game
from tables.services.errors import ServiceError
from tables.services.settings import (
    DEFAULT_HAND_PAUSE,
    HAND_PAUSE_RANGE,
    TEEN_PATTI_GAMES,
    TURN_TIMER_RANGE,
    seat_range,
    table_settings_build,
)

GAME_CHOICES = [
    ("faras", _("Faras")),
    ("classic", _("Classic Teen Patti")),
    ("999", _("999")),
    ("holdem", _("No-limit Texas hold'em")),
]
NO_LIMIT = ""

BUY_BACK_CHOICES = [
    (NO_LIMIT, _("Unlimited")),
    ("0", _("None")),
    ("1", _("Up to one")),
    ("2", _("Up to two")),
    ("3", _("Up to three")),
    ("5", _("Up to five")),
]
BLIND_TURN_CHOICES = [(NO_LIMIT, _("No limit"))] + [(str(n), str(n)) for n in range(2, 7)]
SIDESHOW_CHOICES = [("on", _("On")), ("off", _("Off"))]
BEST_RUN_CHOICES = [("AKQ", _("A-K-Q on top, A-2-3 second")), ("A23", _("A-2-3 on top, A-K-Q second"))]
VARIANT_CHOICES = [
    ("none", _("None: the usual cards and ranking")),
    ("muflis", _("Muflis: the lowest hand wins")),
    ("ak47", _("AK47: every ace, king, four and seven is a joker")),
    ("joker", _("Joker: a card turned up after the deal makes its rank jokers")),
    ("four_card", _("Four-card: four cards each, the best three play")),
]
BLIND_SPEED_CHOICES = [("5", _("Every 5 hands")), ("10", _("Every 10 hands")), ("20", _("Every 20 hands"))]
TIMEOUT_ACTION_CHOICES = [
    ("remind", _("Remind the player (the rule book)")),
    ("act", _("Act for them: pack, or check / fold in hold'em; they sit out")),
]
PRIZE_CHOICES = [
    ("chips", _("By chips: each chip is worth the price / 1,000")),
    ("places", _("By places: the pool is paid by the payout table")),
]
#: The payout tables offered by name (``ledger.settlement.PAYOUT_PRESETS``); any other is typed.
PAYOUT_PRESETS = ["100", "65/35", "50/30/20"]
GAME_LENGTH_CHOICES = [
    (NO_LIMIT, _("Until one player has every chip")),
    ("30", _("30 hands, then the biggest stack wins")),
    ("60", _("60 hands, then the biggest stack wins")),
]


def _optional_int(value: str) -> int | None:
    return None if value in (None, "") else int(value)


def _optional_number_choice(**kwargs: Any) -> forms.TypedChoiceField:
    """A number picked from a list whose ``NO_LIMIT`` entry means ``None`` (no limit)."""
    return forms.TypedChoiceField(coerce=_optional_int, empty_value=None, required=False, **kwargs)


class OpenTableForm(forms.Form):
    """The host settings of one game, with the rule books' defaults filled in.

    Field names are the keys of ``tables.services.settings.table_settings_build``, which
    owns the ranges: ``clean`` hands it the choices and puts its refusal next to the field
    it names. ``table_settings`` then holds the settings to store.
    """

    def __init__(self, *args: Any, game: str, **kwargs: Any) -> None:
        if game not in dict(GAME_CHOICES):
            raise ValueError(f"unknown game {game!r}")
        super().__init__(*args, **kwargs)
        self.game = game
        self.table_settings: dict[str, Any] | None = None
        self.choices: dict[str, Any] = {}
        defaults = dict(get_game(game).settings({}))
        low, high = seat_range(game)
        self.fields["seats"] = forms.IntegerField(
            label=_("Seats"),
            initial=min(high, 6),
            min_value=low,
            max_value=high,
            help_text=_("From %(low)d to %(high)d players.") % {"low": low, "high": high},
        )
        if game in TEEN_PATTI_GAMES:
            self._add_teen_patti_fields(defaults)
        else:
            self._add_holdem_fields()
        self.fields["turn_timer"] = forms.IntegerField(
            label=_("Turn reminder (seconds)"),
            required=False,
            min_value=TURN_TIMER_RANGE[0],
            max_value=TURN_TIMER_RANGE[1],
            help_text=_(
                "From %(low)d to %(high)d seconds: each player's time for a turn. What happens when it runs "
                "out is your choice below. Empty: no timer."
            )
            % {"low": TURN_TIMER_RANGE[0], "high": TURN_TIMER_RANGE[1]},
        )
        self.fields["timeout_action"] = forms.ChoiceField(
            label=_("When the timer runs out"),
            choices=TIMEOUT_ACTION_CHOICES,
            required=False,
            initial="remind",
            help_text=_(
                "By the rule book the timer only reminds. Whatever you choose, you can act for a "
                "player whose time has run out (after a minute when there is no timer)."
            ),
        )
        self.fields["hand_pause"] = forms.IntegerField(
            label=_("Pause between hands (seconds)"),
            initial=DEFAULT_HAND_PAUSE,
            required=False,
            min_value=HAND_PAUSE_RANGE[0],
            max_value=HAND_PAUSE_RANGE[1],
            help_text=_("From %(low)d to %(high)d seconds.")
            % {"low": HAND_PAUSE_RANGE[0], "high": HAND_PAUSE_RANGE[1]},
        )
        self.fields["approve_seats"] = forms.BooleanField(
            label=_("I approve seats and buy-backs"),
            required=False,
            initial=False,
            help_text=_(
                "When on, a player who asks for a seat or to buy in again waits until you "
                "approve it in the host's panel of the table page."
            ),
        )

    def _add_teen_patti_fields(self, defaults: dict[str, Any]) -> None:
        self.fields["boot"] = forms.IntegerField(
            label=_("Boot"),
            initial=defaults["boot"],
            min_value=1,
            max_value=100,
            help_text=_("Chips everyone puts in before the deal; also the opening stake (1 to 100)."),
        )
        self.fields["buy_in_chips"] = forms.IntegerField(
            label=_("Chips per buy-in"),
            initial=1000,
            min_value=1,
            max_value=10_000_000,
            help_text=_("At least one boot."),
        )
        self._add_price_fields(initial=Decimal("10.00"))
        self.fields["buy_backs"] = _optional_number_choice(
            label=_("Buy-backs"),
            choices=BUY_BACK_CHOICES,
            initial=NO_LIMIT,
            help_text=_("How many times a player may buy in again."),
        )
        self.fields["blind_turns"] = _optional_number_choice(
            label=_("Blind turns"),
            choices=BLIND_TURN_CHOICES,
            initial=NO_LIMIT if defaults["blind_turns"] is None else str(defaults["blind_turns"]),
            help_text=_("Blind bets allowed before a player must look."),
        )
        self.fields["stake_limit"] = forms.IntegerField(
            label=_("Stake limit"),
            required=False,
            min_value=1,
            initial=defaults["stake_limit"],
            help_text=_(
                "The highest stake a raise may set: a multiple of the boot, at least twice it. Empty: no limit."
            ),
        )
        self.fields["pot_limit_boots"] = forms.IntegerField(
            label=_("Pot limit (in boots)"),
            required=False,
            min_value=2,
            max_value=1_000_000,
            initial=defaults["pot_limit_boots"],
            help_text=_("When the pot reaches this many boots, everyone still in shows. Empty: no limit."),
        )
        self.fields["sideshow"] = forms.ChoiceField(
            label=_("Sideshow"),
            choices=SIDESHOW_CHOICES,
            initial="off" if defaults["sideshow"] == "off" else "on",
        )
        if defaults["ranking"] != "digits":  # 999 counts a hand as a number: runs do not rank there
            self.fields["best_run"] = forms.ChoiceField(
                label=_("Best run"),
                choices=BEST_RUN_CHOICES,
                initial=defaults["best_run"],
            )
            self.fields["variant"] = forms.ChoiceField(
                label=_("Variant"),
                choices=VARIANT_CHOICES,
                initial="none",
                required=False,
                help_text=_("A variant changes the cards and how hands rank; the betting stays as set here."),
            )
            self.fields["dealers_choice"] = forms.MultipleChoiceField(
                label=_("Dealer's choice"),
                choices=VARIANT_CHOICES,
                required=False,
                initial=[],
                widget=forms.CheckboxSelectMultiple,
                help_text=_(
                    "Tick the variants the dealer of each hand may call before the deal (at least two). "
                    "A dealer who calls none plays the variant above. None ticked: off."
                ),
            )

    def _add_price_fields(self, *, initial: Decimal) -> None:
        self.fields["buy_in_price"] = forms.DecimalField(
            label=_("Price of a buy-in"),
            initial=initial,
            min_value=Decimal("0"),
            max_value=Decimal("1000000"),
            max_digits=12,
            decimal_places=2,
            help_text=_("What a buy-in costs; 0 plays for chips alone. Dashain never handles money."),
        )
        self.fields["currency"] = forms.ChoiceField(
            label=_("Currency"),
            choices=[
                ("", _("None: plain amounts")),
                ("NPR", _("Nepali rupee (NPR)")),
                ("INR", _("Indian rupee (INR)")),
                ("EUR", _("Euro (EUR)")),
                ("USD", _("US dollar (USD)")),
                ("GBP", _("Pound sterling (GBP)")),
            ],
            required=False,
            initial="",
            help_text=_("What the price is in; the settlement shows every amount in it."),
        )

    def _add_holdem_fields(self) -> None:
        self.fields["blind_speed"] = forms.TypedChoiceField(
            label=_("Blinds go up"),
            choices=BLIND_SPEED_CHOICES,
            coerce=int,
            initial="10",
            help_text=_(
                "The blinds start at 10 and 20 and follow the rule book's levels. "
                "Everyone starts with 1,000 play chips."
            ),
        )
        self.fields["game_length"] = _optional_number_choice(
            label=_("Length of the game"), choices=GAME_LENGTH_CHOICES, initial=NO_LIMIT
        )
        # Issue 25: hold'em for money. Everyone still buys 1,000 chips, once.
        self._add_price_fields(initial=Decimal("0.00"))
        self.fields["buy_in_price"].help_text = _(
            "What each player pays for the 1,000 chips, once (no rebuys); 0 plays for chips alone. "
            "Fixed once anyone has bought in. Dashain never handles money."
        )
        self.fields["prizes"] = forms.ChoiceField(
            label=_("How the money is shared"),
            choices=PRIZE_CHOICES,
            initial="chips",
            help_text=_("Chosen before anyone buys in, and fixed from then on."),
        )
        self.fields["payouts"] = forms.CharField(
            label=_("Payouts by place (percent)"),
            required=False,
            initial="65/35",
            max_length=60,
            widget=forms.TextInput(attrs={"list": "payout-presets", "inputmode": "numeric"}),
            help_text=_(
                "When shared by places: the percent of the pool for 1st, 2nd, ... place, whole numbers "
                "adding up to 100, such as 100 (winner takes all), 65/35 or 50/30/20; no more places than players."
            ),
        )

    def clean(self) -> dict[str, Any]:
        super().clean()
        cleaned = self.cleaned_data  # what Form.clean returns
        if self.errors:
            return cleaned
        choices = {name: value for name, value in cleaned.items() if name in self.fields}
        if "buy_in_price" in choices:
            choices["buy_in_price"] = str(choices["buy_in_price"])
        self.choices = choices
        try:
            self.table_settings = table_settings_build(game=self.game, choices=choices)
        except ServiceError as error:
            self.add_error(error.field if error.field in self.fields else None, force_str(error.message))
        return cleaned


class JoinForm(forms.Form):
    """Joining a table: a guest gives a display name; everyone chooses to sit or to watch."""

    display_name = forms.CharField(label=_("Your name at the table"), max_length=40, required=False)
    role = forms.ChoiceField(
        label=_("Join as"),
        choices=[("seat", _("Take a seat")), ("watch", _("Watch"))],
        initial="seat",
        widget=forms.RadioSelect,
    )

    def __init__(self, *args: Any, guest: bool, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.guest = guest
        if guest:
            self.fields["display_name"].required = True
        else:
            del self.fields["display_name"]

    def clean_display_name(self) -> str:
        name = " ".join(self.cleaned_data.get("display_name", "").split())
        if self.guest and not name:
            raise forms.ValidationError(_("Please give the name other players will see."))
        return name


class JoinByCodeForm(forms.Form):
    """The lobby's "join by code" box."""

    code = forms.CharField(label=_("Table code"), max_length=12)

    def clean_code(self) -> str:
        code: str = self.cleaned_data["code"]
        return code.strip()


class JoinAskForm(forms.Form):
    """Someone with only a table's code asks its host to let them in (a guest gives a name)."""

    code = forms.CharField(widget=forms.HiddenInput, max_length=12)
    display_name = forms.CharField(label=_("Your name at the table"), max_length=40, required=False)

    def __init__(self, *args: Any, guest: bool, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.guest = guest
        if not guest:
            del self.fields["display_name"]

    def clean_code(self) -> str:
        code: str = self.cleaned_data["code"]
        return code.strip().upper()

    def clean_display_name(self) -> str:
        name = " ".join(self.cleaned_data.get("display_name", "").split())
        if self.guest and not name:
            raise forms.ValidationError(_("Please give the name other players will see."))
        return name
