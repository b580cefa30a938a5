"""A night at the kitchen table opened from a home game's planned night (docs/kitchen-table.md,
"From a planned night"): the planned night the open forms were sent from (its host or a
co-host only), the values of its template they start from, and the opening itself, through
the home game's ``night_open_with`` (the planned night's row locked first: opened once).

What a template carries: the chips of a buy-in (hold'em's 1,000 starting chips) and its
price, so the chip value, and the currency; for a tournament, also a hold'em template's
payout table when it pays by places. Nothing else applies at a table nobody deals: a Teen
Patti template's boot and variants, hold'em's blinds by hands and its game length, the
seats, the turn timer; a clock's levels are in minutes, which no template has.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest
from django.utils.translation import gettext as _

from homegames.models import Night
from homegames.selectors import user_can_view_home_game, user_is_co_host
from homegames.services import NightError
from homegames.services_tonight import night_open_with
from tables.money import PAYOUT_PRESETS
from tables.services import ServiceError
from tables.services.table_settings import payouts_text, table_settings_build

if TYPE_CHECKING:
    from accounts.models import User
    from tables.models import Table

#: The planned night's own refusals: the form cannot fix them, its page says why.
NIGHT_REFUSALS = ("opened", "past", "too_early", "cancelled", "not_co_host")


def planned_night(request: HttpRequest) -> Night | None:
    """The planned night named by the form's address (``?night=<id>``), or None for a night
    opened alone. A stranger to its home game gets a 404, a member who is not its host or a
    co-host a 403 (as on the home game's own pages)."""
    value = request.GET.get("night", "")
    if not value:
        return None
    night = (
        Night.objects.planned().select_related("home_game", "template", "table").filter(pk=int(value)).first()
        if value.isdigit()
        else None
    )
    if night is None or not user_can_view_home_game(user=request.user, home_game=night.home_game):
        raise Http404
    if not user_is_co_host(user=request.user, home_game=night.home_game):
        raise PermissionDenied(_("Only the host or a co-host can plan nights."))
    return night


def carried(night: Night, *, tournament: bool) -> dict[str, str]:
    """The form's values from the night's template, as its table would have them (checked
    by the tables' settings; a template the rules no longer take carries nothing)."""
    try:
        built = table_settings_build(game=night.plan_template.game, choices=night.plan_template.choices)
    except ServiceError:
        return {}
    values = {
        "starting_chips" if tournament else "buy_in_chips": str(built["buy_in_chips"]),
        "buy_in_price": str(built["buy_in_price"]),
        "currency": str(built["host"].get("currency") or ""),
    }
    if tournament and built.get("prizes") == "places" and built.get("payouts"):
        values["payouts"] = payouts_text(built["payouts"])
    return values


def payout_table(text: str) -> list[int]:
    """A payout table chosen on the tournament's form: a preset's name, or a template's own
    table as it carries it (``60/40``); anything else is empty (the service refuses it)."""
    if text in PAYOUT_PRESETS:
        return list(PAYOUT_PRESETS[text])
    parts = text.split("/")
    return [int(part) for part in parts] if all(part.isdigit() for part in parts) else []


def kitchen_open_planned(*, night: Night, by: User, open_table: Callable[[], Table]) -> Table:
    """Open the planned night at the kitchen table with ``open_table`` (a cash night's or a
    tournament's opening, with no home game of its own: the planned night links it). The home
    game's refusals come back as the kitchen's (``ServiceError``, same code and message)."""
    try:
        return night_open_with(night=night, by=by, open_table=open_table)
    except NightError as error:
        raise ServiceError(error.code, error.message) from None
