"""The lobby and the table page: thin views that parse, call a service, and render.

- ``lobby``: the tables I host or sit at, with their state; join by code; open a table.
- ``table_open``: the open-a-table form for one game (``?game=faras``).
- ``table_detail``: the table page. It renders only the frame and the translated
  strings (``tables.pages.page_strings``); every bit of game state reaches it through the
  WebSocket (docs/live-play.md).
- ``table_settings``, ``table_remove``, ``table_computers``, ``table_local_players``: the
  host's forms.

Joining a table is ``tables.pages.views_join``; who makes the request (the guest's
token, their seat) ``tables.pages.visitor``.
"""

from __future__ import annotations

from decimal import Decimal
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.encoding import force_str
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from engine.games import get_game
from tables import selectors, services
from tables.events import event_kinds_for_page
from tables.models import Seat, Table, table_currency
from tables.pages.forms import GAME_CHOICES, JoinByCodeForm, OpenTableForm
from tables.pages.page_strings import table_page_strings
from tables.pages.views_join import seat_link_url
from tables.pages.visitor import (
    service_error_on_form,
    session_guest_token,
    table_of_member,
    table_page_url,
    viewer_seat,
)
from tables.services.errors import ServiceError


def lobby(request: HttpRequest) -> HttpResponse:
    rows: dict[int, dict[str, Any]] = {}
    if request.user.is_authenticated:
        for table in Table.objects.filter(host=request.user).exclude(status=Table.Status.ENDED):
            rows[table.pk] = {"table": table, "seat": None, "hosting": True}
        seats = Seat.objects.filter(user=request.user)
    else:
        token = session_guest_token(request)
        seats = Seat.objects.filter(guest_token=token) if token else Seat.objects.none()
    # A table whose host banned me is not mine to go back to: the lobby forgets it.
    for seat in seats.filter(banned=False).select_related("table"):
        row = rows.setdefault(seat.table_id, {"table": seat.table, "seat": None, "hosting": False})
        row["seat"] = seat
    ordered = sorted(rows.values(), key=lambda row: row["table"].created_at, reverse=True)
    return render(request, "tables/lobby.html", {"rows": ordered, "code_form": JoinByCodeForm(), "games": GAME_CHOICES})


def _chosen_game(request: HttpRequest) -> str:
    game = request.GET.get("game") or request.POST.get("game") or "faras"
    return game if game in dict(GAME_CHOICES) else "faras"


@login_required
@require_http_methods(["GET", "POST"])
def table_open(request: HttpRequest) -> HttpResponse:
    game = _chosen_game(request)
    form = OpenTableForm(request.POST or None, game=game)
    if request.method == "POST" and form.is_valid():
        try:
            table = services.table_create(host=request.user, game=game, choices=form.choices)
        except ServiceError as error:
            service_error_on_form(form, error)
        else:
            return redirect("table_detail", code=table.code)
    return render(request, "tables/open.html", {"form": form, "game": game, "games": GAME_CHOICES})


def table_detail(request: HttpRequest, code: str) -> HttpResponse:
    """The table's page, for the people at it. Anyone else goes to the join page, as from a
    code no table has (the same redirect either way: it tells a stranger nothing)."""
    table = selectors.table_by_code(code=code)
    seat = viewer_seat(request, table) if table is not None else None
    if table is None or seat is None or seat.banned:
        return redirect("table_join", code=code)
    if table.settings.get("not_dealt"):  # a kitchen night: nobody is dealt, its page is the night's
        return redirect(table_page_url(table))
    is_host = request.user.is_authenticated and table.host_id == request.user.pk
    # The invite link is the host's to give: only their page shows it.
    join_url = (
        request.build_absolute_uri(
            reverse("table_invite", kwargs={"code": table.code, "invite_token": table.invite_token})
        )
        if is_host
        else ""
    )
    return render(
        request,
        "tables/table.html",
        {
            "table": table,
            "seat": seat,
            "is_host": is_host,
            "computers_allowed": Decimal(table.buy_in_price) == 0,
            "stake": table_stake(table),
            # Offered only while the host may seat one (the service refuses otherwise; the
            # page hides the form when the game starts or ends: regions/host.js).
            "computers_open": computers_open(table),
            "join_url": join_url,
            # A guest's own seat link, to keep: the way back to this seat on any device.
            "seat_url": seat_link_url(request, seat) if seat.is_guest else "",
            # Turn reminders by Web Push (issue 28): the site's public VAPID key, "" when off.
            "push_key": services.push_public_key() if (seat.user_id or seat.guest_token) else "",
            # This seat's subscriptions: the page shows "on" only for a browser among them.
            "push_endpoints": (
                list(seat.push_subscriptions.values_list("endpoint", flat=True))
                if (seat.user_id or seat.guest_token) and services.push_public_key()
                else []
            ),
            # Every kind of event the log may hold, {"SEAT_TAKEN": "seat_taken", ...}
            # (tables.events.EventKind): the page reads the names from here.
            "event_kinds": event_kinds_for_page(),
            "page_config": {
                "code": table.code,
                "game": table.game,
                # engine.api.TableRules (docs/architecture.md), as in the snapshot's table.rules.
                "rules": get_game(table.game).table_rules.to_json(table.settings.get("engine", {})),
                "socket_path": f"/ws/table/{table.code}/",
                "seat": str(seat.pk),
                "is_host": is_host,
                "title": f"{table.get_game_display()} · {table.code}",
                # The buy-in's currency (ISO code, or "" for plain amounts): fixed once anyone
                # has bought in, so a buy-back's question may name it (tables.services.table_settings).
                "currency": table_currency(table),
                # What is at stake (issue 25): the price of a buy-in; null at a play-chip table.
                "stake": (
                    {"price": str(table.buy_in_price), "payouts": table.settings.get("payouts")}
                    if Decimal(table.buy_in_price) != 0
                    else None
                ),
                "strings": table_page_strings(),
                # The moves the host's "Act for" never offers (tables.services.away).
                "player_only_verbs": sorted(services.PLAYER_ONLY_VERBS),
            },
        },
    )


def table_stake(table: Table) -> dict[str, Any] | None:
    """What is at stake at ``table``, for the line under its head (issue 25): the price of a
    buy-in and, for a hold'em pool shared by places, the payout table in words; ``None`` at a
    table played for chips alone."""
    if Decimal(table.buy_in_price) == 0:
        return None
    payouts = table.settings.get("payouts") if table.settings.get("prizes") == "places" else None
    places = [
        _("%(place)s: %(percent)s%%") % {"place": ordinal_place(number), "percent": percent}
        for number, percent in enumerate(payouts or [], start=1)
    ]
    return {
        "price": table.buy_in_price,
        "chips": table.buy_in_chips,
        "currency": table_currency(table),
        "by_places": payouts is not None,
        "places": ", ".join(places),
    }


def ordinal_place(number: int) -> str:
    """A place in words for a payout table: 1st, 2nd, ... (the site seats at most 16)."""
    names = {1: _("1st"), 2: _("2nd"), 3: _("3rd")}
    return str(names.get(number) or _("%(n)sth") % {"n": number})


def computers_open(table: Table) -> bool:
    """Whether a computer may take a seat now: not once the game has ended, nor at a full
    table, and in hold'em only before it starts (book 001: seats are taken before the start)."""
    if table.status == Table.Status.ENDED:
        return False
    if Seat.objects.filter(table=table, number__isnull=False).count() >= int(table.settings["seats"]):
        return False
    return get_game(table.game).table_rules.seating_after_start or table.status == Table.Status.WAITING


@login_required
@require_http_methods(["POST"])
def table_computers(request: HttpRequest, code: str) -> HttpResponse:
    """The host adds a computer to the first empty seat, or fills every empty seat (issue 15)."""
    from tables.services.computers import computer_add, computer_fill

    table, seat = table_of_member(request, code)
    if table.host_id != request.user.pk:
        raise Http404(_("Only the host can seat computers."))
    strength = request.POST.get("strength", "")
    try:
        if request.POST.get("command") == "fill":
            computer_fill(table_id=table.pk, seat_id=seat.pk, strength=strength)
        else:
            computer_add(table_id=table.pk, seat_id=seat.pk, strength=strength)
    except ServiceError as error:
        messages.error(request, error.message)
    return redirect("table_detail", code=table.code)


@login_required
@require_http_methods(["POST"])
def table_local_players(request: HttpRequest, code: str) -> HttpResponse:
    """The host adds a player who plays on the host's phone (pass and play, issue 15)."""
    table, seat = table_of_member(request, code)
    if table.host_id != request.user.pk:
        raise Http404(_("Only the host can add players on their phone."))
    try:
        services.local_player_add(table_id=table.pk, seat_id=seat.pk, name=request.POST.get("name", ""))
    except ServiceError as error:
        messages.error(request, force_str(error.message))
    return redirect("table_detail", code=table.code)


@login_required
@require_http_methods(["GET", "POST"])
def table_settings(request: HttpRequest, code: str) -> HttpResponse:
    table, seat = table_of_member(request, code)
    if table.host_id != request.user.pk:
        raise Http404(_("Only the host can change the settings."))
    if table.settings.get("not_dealt"):
        return redirect(table_page_url(table))
    current = dict(table.settings.get("host", {}))
    form = OpenTableForm(request.POST or None, game=table.game, initial=current)
    if request.method == "POST" and form.is_valid():
        try:
            services.table_update_settings(table_id=table.pk, seat_id=seat.pk, choices=form.choices)
        except ServiceError as error:
            service_error_on_form(form, error)
        else:
            return redirect("table_detail", code=table.code)
    others = Seat.objects.filter(table=table).exclude(pk=seat.pk).order_by("pk")
    return render(request, "tables/settings.html", {"form": form, "table": table, "others": others})


@login_required
@require_http_methods(["POST"])
def table_remove(request: HttpRequest, code: str) -> HttpResponse:
    """The host removes a player from the settings page, with or without a ban (a plain form:
    it works without the table page's script)."""
    table, seat = table_of_member(request, code)
    if table.host_id != request.user.pk:
        raise Http404(_("Only the host can change the settings."))
    try:
        remove_id = int(request.POST.get("seat", ""))
    except ValueError:
        messages.error(request, _("Choose a player."))
        return redirect("table_settings", code=table.code)
    try:
        removed = services.seat_remove(
            table_id=table.pk, seat_id=seat.pk, remove_seat_id=remove_id, ban=request.POST.get("ban") == "on"
        )
    except ServiceError as error:
        messages.error(request, force_str(error.message))
    else:
        if removed.banned:
            messages.success(
                request, _("%(name)s is removed for the rest of the game.") % {"name": removed.display_name}
            )
            messages.info(
                request, _("The invite link is new (the table page shows it): the old one lets no one join now.")
            )
        else:
            messages.success(request, _("%(name)s is removed from their seat.") % {"name": removed.display_name})
    return redirect("table_settings", code=table.code)
