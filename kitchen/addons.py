"""A tournament's add-on (docs/kitchen-table.md, "Add-ons"): when the host allows them, each
player still in may buy one stack of the add-on's chips at the night's chip value, once,
while the clock is at the add-on level or the break right after it. The chips go through the
ledger (a buy-back entry) and so into the prize pool; the log has a ``kitchen_addon``."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from kitchen.models import AddOn, Elimination, TournamentClock
from kitchen.record import levels_reached
from kitchen.rules import addon_open
from ledger.services import LedgerError, ledger_record_buy_in
from tables.events import EventKind
from tables.models import Table
from tables.services import ServiceError
from tables.services.hosting import require_host
from tables.services.write import seat_at, table_write

CENT = Decimal("0.01")


def _whole(value: object) -> int | None:
    return None if isinstance(value, bool) or not isinstance(value, int) else value


def addon_price(table: Table, chips: int) -> Decimal:
    """What ``chips`` cost at the night's chip value (the buy-in's price over its chips)."""
    return Decimal(table.buy_in_price) * chips / table.buy_in_chips


def addon_check(
    table: Table, levels: list[dict[str, Any]], addon_level: object, addon_chips: object
) -> tuple[int, int]:
    """The add-on's level and chips as stored, ``(0, 0)`` for none. Refused (``bad_addon``):
    a level that is not one of the structure's playing levels, chips that are not a whole
    number above 0, or whose price at the night's chip value is not in whole cents."""
    level, chips = _whole(addon_level), _whole(addon_chips)
    playing = sum(1 for lv in levels if not lv.get("break"))
    if level == 0:
        return 0, 0
    if level is None or not 1 <= level <= playing:
        raise ServiceError(
            "bad_addon", _("Add-ons are at one of the structure's levels, or none (0)."), field="addon_level"
        )
    if chips is None or chips < 1 or addon_price(table, chips) != addon_price(table, chips).quantize(CENT):
        raise ServiceError(
            "bad_addon",
            _("An add-on is a whole number of chips above 0 whose price at the night's chip value is in cents."),
            field="addon_chips",
        )
    return level, chips


def kitchen_addon(*, table_id: int, seat_id: int, player_seat_id: int) -> AddOn:
    """The host records a player's add-on. Refused: the tournament allows none
    (``no_addons``), outside the add-on level and the break after it (``addon_closed``), a
    player's second (``addon_taken``), a player out (``already_out``) or who never bought in
    (``not_bought_in``), anyone but the host (``not_host``)."""
    with table_write(table_id) as (table, log):
        host = require_host(table, seat_id)
        clock = TournamentClock.objects.select_for_update().filter(night__table=table).first()
        if clock is None or not clock.addon_level:
            raise ServiceError("no_addons", _("This tournament has no add-ons."))
        player = seat_at(table, player_seat_id)
        if Elimination.objects.filter(seat=player).exists():
            raise ServiceError("already_out", _("%(name)s is out of the tournament.") % {"name": player.display_name})
        if player.buy_ins < 1:
            raise ServiceError("not_bought_in", _("%(name)s has not bought in.") % {"name": player.display_name})
        if AddOn.objects.filter(seat=player).exists():
            raise ServiceError(
                "addon_taken", _("%(name)s has had their add-on already.") % {"name": player.display_name}
            )
        if not addon_open(clock):
            raise ServiceError("addon_closed", _("Add-ons are bought at their level or the break after it."))
        levels_reached(log, table, clock, timezone.now())
        price = addon_price(table, clock.addon_chips).quantize(CENT)
        player.stack += clock.addon_chips
        player.save(update_fields=["stack"])
        try:
            ledger_record_buy_in(
                table=table, seat=player, chips=clock.addon_chips, price=price, is_buy_back=True, by=host.user
            )
        except LedgerError as error:
            raise ServiceError(error.code, error.message) from None
        addon = AddOn.objects.create(clock=clock, seat=player)
        log.append(
            EventKind.KITCHEN_ADDON,
            {
                "seat": player.pk,
                "name": player.display_name,
                "chips": clock.addon_chips,
                "price": str(price),
                "by": host.display_name,
            },
            actor=host,
        )
    return addon
