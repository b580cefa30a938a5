"""The kitchen-table night's pages: opening one (alone, for a home game, or for a home game's
planned night: ``kitchen.planned``), joining by the invite link, and the night's page (the
bank, the balance, the costs, the settle-up). Thin: each parses the form, calls a
service and redirects; a refusal is shown as the service's message."""

from __future__ import annotations

from collections.abc import Callable
from decimal import Decimal
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.formats import get_format, number_format
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from accounts.models import User
from homegames.models import HomeGame, Night
from kitchen import export
from kitchen import selectors as kitchen_selectors
from kitchen import services as kitchen_services
from kitchen.addons import addon_price
from kitchen.models import AddOn
from kitchen.planned import NIGHT_REFUSALS, carried, kitchen_open_planned, planned_night
from kitchen.rules import addon_open, players_in, tournament_of
from kitchen.tv import tv_state
from tables import selectors
from tables.guests import GUEST_TOKEN_SESSION_KEY
from tables.models import CURRENCIES, Seat, Table, table_currency
from tables.services import (
    ServiceError,
    guest_token_new,
    invite_token_matches,
    request_deny,
    table_join,
)


def _night_or_404(code: str) -> Table:
    table = selectors.table_by_code(code=code)
    if table is None or kitchen_selectors.kitchen_night(table=table) is None:
        raise Http404
    return table


def _seat(request: HttpRequest, table: Table) -> Seat | None:
    seat = selectors.seat_for_viewer(
        table=table, user=request.user, guest_token=request.session.get(GUEST_TOKEN_SESSION_KEY)
    )
    return None if seat is None or seat.banned else seat


def hosted_home_games(request: HttpRequest) -> list[HomeGame]:
    return list(HomeGame.objects.filter(host_id=request.user.pk).order_by("name"))


def chosen_home_game(request: HttpRequest) -> HomeGame | None:
    """The home game chosen on an open form: one the user hosts, or none; another is refused."""
    chosen = request.POST.get("home_game", "").strip()
    if not chosen:
        return None
    for home_game in hosted_home_games(request):
        if str(home_game.pk) == chosen:
            return home_game
    raise ServiceError("not_host", _("Choose one of the home games you host."))


def open_night(request: HttpRequest, planned: Night | None, open_table: Callable[[HomeGame | None], Table]) -> Table:
    """Open a night with ``open_table``: alone, with the home game chosen on the form, or for
    the planned night the form was sent from (``kitchen.planned``: it links the home game)."""
    if planned is None:
        return open_table(chosen_home_game(request))
    by = request.user
    assert isinstance(by, User)  # login_required
    return kitchen_open_planned(night=planned, by=by, open_table=lambda: open_table(None))


def refused(request: HttpRequest, planned: Night | None, error: ServiceError) -> HttpResponse | None:
    """The refusal shown; for one of the planned night's own (already open, behind us), its
    page, where the host finds the table open or the reason."""
    messages.error(request, str(error.message))
    if planned is not None and error.code in NIGHT_REFUSALS:
        return redirect("homegames:night_detail", home_game_id=planned.home_game_id, night_id=planned.pk)
    return None


def form_context(request: HttpRequest, planned: Night | None, values: dict[str, str]) -> dict[str, Any]:
    return {
        "values": values,
        "currencies": CURRENCIES,
        "home_games": [] if planned is not None else hosted_home_games(request),
        "planned": planned,
    }


@login_required
def night_new(request: HttpRequest) -> HttpResponse:
    planned = planned_night(request)
    values = {"buy_in_chips": "1000", "buy_in_price": "10.00", "currency": ""}
    if planned is not None:
        values.update(carried(planned, tournament=False))
    if request.method == "POST":
        values = {key: request.POST.get(key, "").strip() for key in values}
        chips: object = int(values["buy_in_chips"]) if values["buy_in_chips"].isdigit() else values["buy_in_chips"]
        try:
            table = open_night(
                request,
                planned,
                lambda home_game: kitchen_services.kitchen_open(
                    host=request.user,  # type: ignore[arg-type]  # login_required
                    buy_in_chips=chips,
                    buy_in_price=typed_amount(values["buy_in_price"]),
                    currency=values["currency"],
                    home_game=home_game,
                ),
            )
        except ServiceError as error:
            back = refused(request, planned, error)
            if back is not None:
                return back
        else:
            return redirect("kitchen:night", code=table.code)
    return render(request, "kitchen/new.html", form_context(request, planned, values))


def night_join(request: HttpRequest, code: str, token: str) -> HttpResponse:
    """The invite link: a signed-in user joins with a button, a guest with a name."""
    table = _night_or_404(code)
    if not invite_token_matches(table, token):
        raise Http404
    if _seat(request, table) is not None:
        return redirect("kitchen:night", code=table.code)
    if request.method == "POST":
        guest_token = None
        if not request.user.is_authenticated:
            guest_token = request.session.get(GUEST_TOKEN_SESSION_KEY) or guest_token_new()
            request.session[GUEST_TOKEN_SESSION_KEY] = guest_token
        try:
            table_join(
                code=table.code,
                invite_token=token,
                user=request.user,
                guest_name=request.POST.get("name", ""),
                guest_token=guest_token,
            )
        except ServiceError as error:
            messages.error(request, str(error.message))
        else:
            return redirect("kitchen:night", code=table.code)
    return render(request, "kitchen/join.html", {"table": table, "token": token})


def night_detail(request: HttpRequest, code: str) -> HttpResponse:
    table = _night_or_404(code)
    seat = _seat(request, table)
    if seat is None:
        raise Http404  # only the people at the night see it (joining needs the invite link)
    is_host = seat.user_id is not None and seat.user_id == table.host_id
    bank = kitchen_selectors.kitchen_bank(table=table)
    pending = selectors.requests_pending(table=table)
    context: dict[str, Any] = {
        "table": table,
        "seat": seat,
        "is_host": is_host,
        "bank": bank,
        "mine": next((line for line in bank.lines if line.seat.pk == seat.pk), None),
        "pending": [p for p in pending if p["what"] in ("seat", "buy_back")],
        "my_request": any(p["seat"] == seat.pk for p in pending),
        "settle": kitchen_selectors.kitchen_settle_up(table=table),
        "ended": table.status == Table.Status.ENDED,
        "invite_path": f"/kitchen/{table.code}/join/{table.invite_token}/" if is_host else "",
        "chip_price": Decimal(table.buy_in_price),
        "currency": table_currency(table),
    }
    clock = tournament_of(table)
    if clock is not None:
        context["clock"] = tv_state(table, clock)
        context["players_in"] = players_in(table)
        context["tv_path"] = f"/kitchen/{table.code}/tv/{table.invite_token}/" if is_host else ""
        context["places"] = export.tournament_places(table)
        if is_host and addon_open(clock):
            taken = set(AddOn.objects.filter(clock=clock).values_list("seat_id", flat=True))
            context["addon_players"] = [player for player in context["players_in"] if player.pk not in taken]
            context["addon_chips"] = number_format(clock.addon_chips, force_grouping=True)
            price = addon_price(table, clock.addon_chips).quantize(Decimal("0.01"))
            context["addon_price"] = number_format(price, decimal_pos=2, force_grouping=True)
    context["record"] = kitchen_selectors.night_record(table=table)
    return render(request, "kitchen/night.html", context)


def typed_amount(value: object) -> str:
    """An amount of money as the host typed it, with the language's decimal sign read as one:
    "10,50" in German is 10.50 (a German phone's decimal keypad has only the comma). Only when
    it cannot mean anything else: one such sign and no full stop; any other text is passed on
    as typed, for the service to take or refuse ("10,50" in English stays refused, never 1050)."""
    text = str(value or "").strip()
    mark = str(get_format("DECIMAL_SEPARATOR"))
    if mark != "." and "." not in text and text.count(mark) == 1:
        return text.replace(mark, ".")
    return text


def _int(value: object) -> int | None:
    text = str(value or "").strip()
    return int(text) if text.isdigit() else None


def _count(value: object) -> object:
    """A count of chips as typed: a whole number, or the text itself (the service refuses it)."""
    text = str(value or "").strip()
    return int(text) if text.isdigit() else text


def _act(table: Table, seat: Seat, post: Any) -> str:
    """Carry out the form's ``action``; returns the message to show."""
    action = post.get("action")
    player = _int(post.get("player"))
    actions: dict[str, Callable[[], object]] = {
        "add": lambda: kitchen_services.kitchen_add(table_id=table.pk, seat_id=seat.pk, name=post.get("name", "")),
        "buy_in": lambda: kitchen_services.kitchen_buy_in(
            table_id=table.pk, seat_id=seat.pk, player_seat_id=player or 0
        ),
        "ask": lambda: kitchen_services.kitchen_ask(table_id=table.pk, seat_id=seat.pk),
        "approve": lambda: kitchen_services.kitchen_approve(
            table_id=table.pk, seat_id=seat.pk, request=_int(post.get("request"))
        ),
        "deny": lambda: request_deny(table_id=table.pk, seat_id=seat.pk, request=_int(post.get("request"))),
        "cash_out": lambda: kitchen_services.kitchen_cash_out(
            table_id=table.pk, seat_id=seat.pk, player_seat_id=player or 0, chips=_count(post.get("chips"))
        ),
        "recount": lambda: kitchen_services.kitchen_recount(
            table_id=table.pk,
            seat_id=seat.pk,
            player_seat_id=player or 0,
            chips=_count(post.get("chips")),
            reason=post.get("reason", ""),
        ),
        "spread": lambda: kitchen_services.kitchen_spread(
            table_id=table.pk, seat_id=seat.pk, how=post.get("how"), reason=post.get("reason", "")
        ),
        "settle": lambda: kitchen_services.kitchen_settle(table_id=table.pk, seat_id=seat.pk),
        "cost": lambda: kitchen_services.kitchen_cost_add(
            table_id=table.pk,
            seat_id=seat.pk,
            paid_by=_int(post.get("paid_by")),
            amount=typed_amount(post.get("amount", "")),
            what=post.get("what", ""),
            shares=_shares(post),
        ),
    }
    if action not in actions:
        raise ServiceError("bad_request", _("That is not something this page does."))
    actions[action]()
    return _("Done.")


def _shares(post: Any) -> dict[int, int]:
    """The sharers ticked on the cost form, each with their shares (1 when left empty)."""
    shares = {}
    for value in post.getlist("sharer"):
        seat_id = _int(value)
        if seat_id is not None:
            count = str(post.get(f"shares_{seat_id}", "") or "1").strip()
            shares[seat_id] = int(count) if count.isdigit() else 0
    return shares


@require_POST
def night_act(request: HttpRequest, code: str) -> HttpResponse:
    table = _night_or_404(code)
    seat = _seat(request, table)
    if seat is None:
        raise Http404
    try:
        messages.success(request, _act(table, seat, request.POST))
    except ServiceError as error:
        messages.error(request, str(error.message))
    return redirect("kitchen:night", code=table.code)


def night_csv(request: HttpRequest, code: str) -> HttpResponse:
    """The night's CSV: the settle-up, the costs apart, who pays whom (the people at it only)."""
    table = _night_or_404(code)
    if _seat(request, table) is None:
        raise Http404
    return export.csv_response(export.filename(table, "night"), export.night_rows(table))


def tournament_csv(request: HttpRequest, code: str) -> HttpResponse:
    """A tournament's CSV: the levels as played, the places and the prizes."""
    table = _night_or_404(code)
    if _seat(request, table) is None or tournament_of(table) is None:
        raise Http404
    return export.csv_response(export.filename(table, "tournament"), export.tournament_rows(table))
