"""What the table TV page shows of a tournament (and the night's page beside its controls):
the level, the blinds, the time, the players left, the pool and its prizes, and the add-on
(whether it is open now, its chips and price, how many were bought; never who bought one)."""

from __future__ import annotations

from datetime import datetime
from decimal import Decimal
from typing import Any

from django.utils import timezone
from django.utils.formats import number_format
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from kitchen.addons import CENT, addon_price
from kitchen.models import AddOn, TournamentClock
from kitchen.rules import addon_phase, players_in, state_now
from ledger.selectors import ledger_chip_totals
from tables.models import Table, table_currency


def _blinds(level: dict[str, Any] | None) -> str:
    if level is None:
        return ""
    if level.get("break"):
        return _("Break")
    text = _("%(small)s / %(big)s") % {
        "small": number_format(level["small"], force_grouping=True),
        "big": number_format(level["big"], force_grouping=True),
    }
    if level["ante"]:
        text = _("%(blinds)s, ante %(ante)s") % {
            "blinds": text,
            "ante": number_format(level["ante"], force_grouping=True),
        }
    return text


def tv_state(table: Table, clock: TournamentClock) -> dict[str, Any]:
    """What the TV shows, with the level's end as an absolute time (ms since the epoch) and
    the server's time, so each page counts down from the server's clock, not its own."""
    now = timezone.now()
    state = state_now(clock, now)
    data = state.to_json(clock.levels, now)
    left = players_in(table) if table.status != Table.Status.ENDED else []
    totals = ledger_chip_totals(table=table)
    level = clock.levels[state.index]
    currency = table_currency(table)
    pool = totals.paid
    data.update(
        {
            "title": _("Break") if level.get("break") else _("Level %(n)s") % {"n": state.level_number},
            "blinds": _blinds(level),
            "next_blinds": _blinds(data["next"]),
            "players": len(left),
            "average": number_format(totals.bought // len(left), force_grouping=True) if left else "",
            "pool": _money(pool, currency),
            "payouts": [
                _("%(place)s: %(amount)s") % {"place": place, "amount": _money(pool * percent / 100, currency)}
                for place, percent in enumerate(clock.payouts, start=1)
            ],
            "ended": table.status == Table.Status.ENDED,
            "addon": _addon(table, clock, now),
        }
    )
    return data


def _addon(table: Table, clock: TournamentClock, now: datetime) -> dict[str, Any] | None:
    """The add-on as the TV shows it, or None when the tournament has none: ``open`` (it can
    be bought now: the add-on level or the break after it), what it says of when, the
    chips and price of one, and how many were bought (a count: no one's name)."""
    phase = "over" if table.status == Table.Status.ENDED else addon_phase(clock, now)
    if phase == "none":
        return None
    when = {
        "later": _("Add-ons at level %(n)s") % {"n": clock.addon_level},
        "open": _("Add-ons open now"),
        "over": _("Add-ons are over"),
    }[phase]
    price = _money(addon_price(table, clock.addon_chips).quantize(CENT), table_currency(table))
    bought = AddOn.objects.filter(clock=clock).count()
    return {
        "open": phase == "open",
        "when": when,
        "offer": _("%(chips)s chips for %(price)s")
        % {"chips": number_format(clock.addon_chips, force_grouping=True), "price": price},
        "bought": ngettext("%(count)s add-on bought", "%(count)s add-ons bought", bought) % {"count": bought},
    }


def _money(amount: Decimal, currency: str) -> str:
    text = number_format(Decimal(amount).quantize(Decimal("0.01")), decimal_pos=2, force_grouping=True)
    return f"{currency}\u00a0{text}" if currency else text
