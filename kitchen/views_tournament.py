"""The tournament's pages: opening one (alone, for a home game or its planned night), the
host's clock and eliminations (forms on the night's page, posted here), and the table TV page
with its state as JSON. Thin: parse, call a service, redirect or render."""

from __future__ import annotations

import re
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from kitchen import tournament
from kitchen.addons import kitchen_addon
from kitchen.clock import standard_levels
from kitchen.models import TournamentClock
from kitchen.planned import carried, payout_table, planned_night
from kitchen.rules import tournament_of
from kitchen.tv import tv_state
from kitchen.views import _night_or_404, _seat, form_context, open_night, refused, typed_amount
from tables.models import Table
from tables.money import PAYOUT_PRESETS
from tables.services import ServiceError, invite_token_matches

_LINE = re.compile(r"^\s*(?:(break)|(\d+)\s+(\d+)(?:\s+(\d+))?)\s+(\d+)(s?)\s*$", re.IGNORECASE)


def parse_levels(text: str) -> list[dict[str, Any]] | str:
    """The host's levels, one a line: ``SMALL BIG [ANTE] MINUTES`` or ``break MINUTES``
    (``...s`` for seconds). A line that does not read gives its number (as text)."""
    levels: list[dict[str, Any]] = []
    for number, line in enumerate((line for line in text.splitlines() if line.strip()), start=1):
        match = _LINE.match(line)
        if match is None:
            return str(number)
        brk, small, big, ante, length, seconds = match.groups()
        length_s = int(length) * (1 if seconds else 60)
        if brk:
            levels.append({"break": True, "seconds": length_s})
        else:
            levels.append({"small": int(small), "big": int(big), "ante": int(ante or 0), "seconds": length_s})
    return levels


def _whole(text: str) -> object:
    """A whole number as typed, or the text itself (the service refuses it)."""
    return int(text) if text.isdigit() else text


@login_required
def tournament_new(request: HttpRequest) -> HttpResponse:
    values = {
        "starting_chips": "5000",
        "buy_in_price": "10.00",
        "currency": "",
        "structure": "standard",
        "minutes": "15",
        "levels": "",
        "rebuy_levels": "0",
        "payouts": "50/30/20",
        "addon_level": "0",
        "addon_chips": "",
    }
    planned = planned_night(request)
    if planned is not None:
        values.update(carried(planned, tournament=True))
    if request.method == "POST":
        values = {key: request.POST.get(key, "").strip() for key in values}
        levels: object
        if values["structure"] == "standard":
            minutes = values["minutes"]
            levels = standard_levels(int(minutes)) if minutes.isdigit() and int(minutes) > 0 else [{"seconds": 0}]
        else:
            levels = parse_levels(values["levels"])
        if isinstance(levels, str):
            messages.error(
                request, _("Line %(n)s of the levels does not read as “25 50 0 15” or “break 10”.") % {"n": levels}
            )
        else:
            try:
                table = open_night(
                    request,
                    planned,
                    lambda home_game: tournament.kitchen_tournament_open(
                        host=request.user,  # type: ignore[arg-type]  # login_required
                        starting_chips=_whole(values["starting_chips"]),
                        buy_in_price=typed_amount(values["buy_in_price"]),
                        currency=values["currency"],
                        levels=levels,
                        rebuy_levels=int(values["rebuy_levels"]) if values["rebuy_levels"].isdigit() else -1,
                        payouts=payout_table(values["payouts"]),
                        addon_level=_whole(values["addon_level"] or "0"),
                        addon_chips=_whole(values["addon_chips"]),
                        home_game=home_game,
                    ),
                )
            except ServiceError as error:
                back = refused(request, planned, error)
                if back is not None:
                    return back
            else:
                return redirect("kitchen:night", code=table.code)
    context = form_context(request, planned, values)
    # A template's own payout table (``60/40``) is offered beside the presets.
    own = [values["payouts"]] if sum(payout_table(values["payouts"])) == 100 else []
    context["presets"] = list(dict.fromkeys([*PAYOUT_PRESETS, *own]))
    return render(request, "kitchen/tournament_new.html", context)


@require_POST
def clock_act(request: HttpRequest, code: str) -> HttpResponse:
    table = _night_or_404(code)
    seat = _seat(request, table)
    if seat is None:
        raise Http404
    calls = {
        "start": tournament.kitchen_clock_start,
        "pause": tournament.kitchen_clock_pause,
        "resume": tournament.kitchen_clock_resume,
        "back": tournament.kitchen_clock_back,
    }
    action = request.POST.get("action", "")
    try:
        if action == "out":
            ids = [int(v) for v in request.POST.getlist("out") if v.isdigit()]
            tournament.kitchen_eliminate(table_id=table.pk, seat_id=seat.pk, player_seat_ids=ids)
        elif action == "addon":
            player = request.POST.get("player", "")
            kitchen_addon(table_id=table.pk, seat_id=seat.pk, player_seat_id=int(player) if player.isdigit() else 0)
        elif action in calls:
            calls[action](table_id=table.pk, seat_id=seat.pk)
        else:
            raise ServiceError("bad_request", _("That is not something this page does."))
    except ServiceError as error:
        messages.error(request, str(error.message))
    return redirect("kitchen:night", code=table.code)


def _tv_night(code: str, token: str) -> tuple[Table, TournamentClock]:
    table = _night_or_404(code)
    clock = tournament_of(table)
    if clock is None or not invite_token_matches(table, token):
        raise Http404  # the TV page is reached with the table's link only
    return table, clock


def tv_page(request: HttpRequest, code: str, token: str) -> HttpResponse:
    table, clock = _tv_night(code, token)
    return render(request, "kitchen/tv.html", {"table": table, "state": tv_state(table, clock), "token": token})


def tv_state_json(request: HttpRequest, code: str, token: str) -> JsonResponse:
    table, clock = _tv_night(code, token)
    return JsonResponse(tv_state(table, clock))
