"""The lobby and the table page: thin views that parse, call a service, and render.

- ``lobby``: the tables I host or sit at, with their state; join by code; open a table.
- ``table_open``: the open-a-table form for one game (``?game=faras``).
- ``table_join``: reached by the table's link or code; a guest gives a display name,
  an account holder just joins; take a seat or watch.
- ``table_detail``: the table page. It renders only the frame and the translated
  strings; every bit of game state reaches it through the WebSocket (docs/live-play.md).
- ``table_settings``: the host changes the settings between hands.

A guest is known by a random token kept in their session under the key the table's
socket reads (``tables.guests.GUEST_TOKEN_SESSION_KEY``).
"""

from __future__ import annotations

from decimal import Decimal
from typing import Any

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.encoding import force_str
from django.utils.translation import gettext as _
from django.utils.translation import pgettext
from django.views.decorators.http import require_http_methods

from config.limits import join_attempt_failed, join_retry_after
from engine.games import get_game
from tables import selectors, services
from tables.events import event_kinds_for_page
from tables.guests import GUEST_TOKEN_SESSION_KEY
from tables.models import Seat, Table, table_currency
from tables.pages.forms import GAME_CHOICES, JoinAskForm, JoinByCodeForm, JoinForm, OpenTableForm
from tables.services.errors import ServiceError


def _guest_token(request: HttpRequest, *, create: bool = False) -> str | None:
    token = request.session.get(GUEST_TOKEN_SESSION_KEY)
    if token is None and create:
        token = services.guest_token_new()
        request.session[GUEST_TOKEN_SESSION_KEY] = token
    return token


def viewer_seat(request: HttpRequest, table: Table) -> Seat | None:
    """The seat (playing, sitting out or watching) of whoever makes the request, if any."""
    return selectors.seat_for_viewer(table=table, user=request.user, guest_token=_guest_token(request))


def _table_or_404(code: str) -> Table:
    table = selectors.table_by_code(code=code)
    if table is None:
        raise Http404(_("There is no table with that code."))
    return table


def table_page_url(table: Table) -> str:
    """The page of ``table`` for the people at it. A table played with real cards (a kitchen
    night: the setting ``not_dealt``) has no online table: its page is the night's."""
    if table.settings.get("not_dealt"):
        return reverse("kitchen:night", kwargs={"code": table.code})
    return reverse("table_detail", kwargs={"code": table.code})


def _table_of_member(request: HttpRequest, code: str) -> tuple[Table, Seat]:
    """The table and the visitor's own seat there. A visitor without one (or banned) is
    answered as for a code no table has: the same 404, the same words, so a table's page
    tells a stranger nothing, not even that it exists."""
    table = selectors.table_by_code(code=code)
    seat = viewer_seat(request, table) if table is not None else None
    if table is None or seat is None or seat.banned:
        raise Http404(_("There is no table with that code."))
    return table, seat


def _service_error_on_form(form: forms.BaseForm, error: ServiceError) -> None:
    form.add_error(error.field if error.field in form.fields else None, force_str(error.message))


def lobby(request: HttpRequest) -> HttpResponse:
    rows: dict[int, dict[str, Any]] = {}
    if request.user.is_authenticated:
        for table in Table.objects.filter(host=request.user).exclude(status=Table.Status.ENDED):
            rows[table.pk] = {"table": table, "seat": None, "hosting": True}
        seats = Seat.objects.filter(user=request.user)
    else:
        token = _guest_token(request)
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
            _service_error_on_form(form, error)
        else:
            return redirect("table_detail", code=table.code)
    return render(request, "tables/open.html", {"form": form, "game": game, "games": GAME_CHOICES})


def _join_refused(
    request: HttpRequest,
    code_form: JoinByCodeForm | None = None,
    *,
    code: str = "",
    ask_form: JoinAskForm | None = None,
    count: bool = True,
) -> HttpResponse:
    """A guess that failed (no such table, or no invite token): counted, and answered the same
    whether the table exists or not, so a code tells a stranger nothing. The page offers to
    ask the host of that code to let them in."""
    if count:
        join_attempt_failed(request)
    guest = not request.user.is_authenticated
    if ask_form is None and code:
        ask_form = JoinAskForm(initial={"code": code.strip().upper()}, guest=guest)
    return render(
        request,
        "tables/join_code.html",
        {"code_form": code_form or JoinByCodeForm(), "refused": True, "ask_form": ask_form},
        status=403,
    )


# The codes this session asked to be let in at (newest last), so its waiting page needs no
# table to exist: to a stranger, asking at a code no table has looks the same.
JOIN_ASKED_SESSION_KEY = "dashain_join_asked"
JOIN_ASKED_KEPT = 5


def _join_asked(request: HttpRequest) -> list[str]:
    asked = request.session.get(JOIN_ASKED_SESSION_KEY, [])
    return [code for code in asked if isinstance(code, str)] if isinstance(asked, list) else []


def _join_ask(request: HttpRequest) -> HttpResponse:
    """The refused page's "Ask the host": counted like a guess, recorded if there is such a
    table (``services.join_ask``), and answered with the same waiting page either way."""
    guest = not request.user.is_authenticated
    form = JoinAskForm(request.POST, guest=guest)
    if not form.is_valid():
        return _join_refused(request, ask_form=form)
    code = form.cleaned_data["code"]
    join_attempt_failed(request)
    try:
        services.join_ask(
            code=code,
            user=None if guest else request.user,
            guest_name=form.cleaned_data.get("display_name"),
            guest_token=_guest_token(request, create=True) if guest else None,
        )
    except ServiceError as error:
        _service_error_on_form(form, error)
        return _join_refused(request, ask_form=form, count=False)
    kept = [c for c in _join_asked(request) if c != code][-JOIN_ASKED_KEPT + 1 :]
    request.session[JOIN_ASKED_SESSION_KEY] = [*kept, code]
    return redirect(f"{reverse('table_join_by_code')}?code={code}")


def _join_waiting(request: HttpRequest, code: str, table: Table | None) -> HttpResponse:
    """The page of someone who asked to be let in at ``code``: waiting (it looks again every
    few seconds), the host's no, or, once the host said yes, the table itself."""
    guest = not request.user.is_authenticated
    user = None if guest else request.user
    answer = services.join_answer(table=table, user=user, guest_token=_guest_token(request)) if table else None
    context: dict[str, Any] = {"code_form": JoinByCodeForm(), "asked_code": code, "waiting": True}
    if table is not None and answer == "approved":
        try:
            services.join_approved_take(table_id=table.pk, user=user, guest_token=_guest_token(request))
        except ServiceError as error:
            context.update(
                waiting=False,
                problem=force_str(error.message),
                ask_form=JoinAskForm(initial={"code": code}, guest=guest),
            )
        else:
            request.session[JOIN_ASKED_SESSION_KEY] = [c for c in _join_asked(request) if c != code]
            return redirect("table_detail", code=table.code)
    elif answer == "denied":
        context.update(waiting=False, denied=True)
    elif answer == "withdrawn":
        context.update(waiting=False, withdrawn=True)
    return render(request, "tables/join_code.html", context)


@require_http_methods(["POST"])
def table_join_withdraw(request: HttpRequest) -> HttpResponse:
    """The waiting page's "Withdraw my request" (``services.join_withdraw``). Only a code this
    session asked at is looked up, and only the asker's own request can be withdrawn (the
    service finds it by their account or session, never by a number from the page). A code
    no table has, or an ask that recorded nothing, answers as a withdrawal does, so the page
    still tells a stranger nothing; a second withdrawal, or one after the host's answer, is
    refused and changes nothing."""
    code = str(request.POST.get("code", "")).strip().upper()
    context: dict[str, Any] = {"code_form": JoinByCodeForm(), "asked_code": code}
    if code not in _join_asked(request):
        context["problem"] = _("You have no request waiting at that table.")
        return render(request, "tables/join_code.html", context, status=409)
    user = request.user if request.user.is_authenticated else None
    try:
        services.join_withdraw(code=code, user=user, guest_token=_guest_token(request))
    except ServiceError as error:
        if error.code != "no_request":  # answered already: the waiting page shows the answer
            context.update(problem=force_str(error.message), answered=error.code == "request_answered")
            return render(request, "tables/join_code.html", context, status=409)
    request.session[JOIN_ASKED_SESSION_KEY] = [c for c in _join_asked(request) if c != code]
    context["withdrawn"] = True
    return render(request, "tables/join_code.html", context)


def _too_many_guesses(request: HttpRequest, wait: int) -> HttpResponse:
    """429, with how long until the address's window of guesses ends (``Retry-After``: the
    ``wait`` read once, by the check that refused)."""
    response = render(request, "tables/join_code.html", {"code_form": JoinByCodeForm(), "too_many": True}, status=429)
    response["Retry-After"] = str(wait)
    return response


def _admitted_anyway(request: HttpRequest, code: str | None, invite_token: str | None) -> bool:
    """Whether a request from an address past its failed-guess limit is still answered: the
    table's real invite link, or someone already at the table coming back by its code. At a
    home game everyone shares one address, so one person's typos must not lock the others
    out; a stranger's wrong guess, real code or not, still gets the 429 (the token has 128
    random bits: no guess finds it)."""
    if code is None:
        code = request.GET.get("code") if request.method == "GET" else None
    if not isinstance(code, str) or not code:
        return False
    table = selectors.table_by_code(code=code)
    if table is None:
        return False
    if invite_token is not None:
        return services.invite_token_matches(table, invite_token)
    seat = viewer_seat(request, table)
    return seat is not None and not seat.banned


@require_http_methods(["GET", "POST"])
def table_join(request: HttpRequest, code: str | None = None, invite_token: str | None = None) -> HttpResponse:
    """The invite link (``/t/<code>/<invite token>/``) lets a newcomer join. The code alone (the
    short link, the lobby's code form) only takes someone already at the table back to it;
    anyone else is asked for the invite link. Failed guesses are rate-limited per address,
    and the limit never refuses the real invite link nor someone already at the table."""
    wait = join_retry_after(request)
    if wait and not _admitted_anyway(request, code, invite_token):
        return _too_many_guesses(request, wait)
    if code is None:
        if request.method == "POST":
            return _join_ask(request)
        code_form = JoinByCodeForm(request.GET or None)
        if not code_form.is_valid():
            return render(request, "tables/join_code.html", {"code_form": code_form})
        asked = code_form.cleaned_data["code"].upper()
        table = selectors.table_by_code(code=asked)
        if table is not None and viewer_seat(request, table) is not None:
            return redirect(table_page_url(table))
        if asked in _join_asked(request):
            return _join_waiting(request, asked, table)
        return _join_refused(request, code_form, code=asked)
    table = selectors.table_by_code(code=code)
    if table is None:
        return _join_refused(request, code=code)
    seat = viewer_seat(request, table)
    if seat is not None and seat.banned:
        messages.error(request, _("The host has removed you from this game."))
        return redirect("lobby")
    if seat is not None:
        return redirect(table_page_url(table))
    if not services.invite_token_matches(table, invite_token):
        return _join_refused(request, code=table.code)
    guest = not request.user.is_authenticated
    form = JoinForm(request.POST or None, guest=guest)
    if request.method == "POST" and form.is_valid():
        try:
            seat = services.table_join(
                code=table.code,
                invite_token=invite_token,
                user=None if guest else request.user,
                guest_name=form.cleaned_data.get("display_name"),
                guest_token=_guest_token(request, create=True) if guest else None,
            )
            if form.cleaned_data["role"] == "seat":
                _seat_take_or_ask(request, table, seat)
        except ServiceError as error:
            if seat is None:
                _service_error_on_form(form, error)
            else:  # joined, but the seat could not be taken (full, hold'em started...): watch
                messages.warning(request, force_str(error.message))
                return redirect("table_detail", code=table.code)
        else:
            return redirect("table_detail", code=table.code)
    return render(request, "tables/join.html", {"table": table, "form": form, "guest": guest})


def seat_link_url(request: HttpRequest, seat: Seat) -> str:
    """A guest's seat link, in full (``services.seat_link_key``)."""
    path = reverse(
        "table_seat_link",
        kwargs={"code": seat.table.code, "seat_id": seat.pk, "key": services.seat_link_key(seat)},
    )
    return request.build_absolute_uri(path)


@require_http_methods(["GET", "POST"])
def table_seat_link(request: HttpRequest, code: str, seat_id: int, key: str) -> HttpResponse:
    """A guest's own seat link: back in the same seat, name and chips on any browser.

    GET only asks ("Sit as Dipa on this device?", saying who holds the seat now); the POST
    moves the seat. A link shown in a chat app is fetched for its preview, and a GET that
    moved the seat would take it from the guest's own phone. A seat dealt into the hand
    being played moves when that hand ends: the page says so and looks again every few
    seconds until it has (issue 34). A link works once: a used one says so and moves nothing.

    The real link, used or not, is answered whatever the address's failed guesses, as the
    invite link is (issue 34: a house shares one address). A wrong link counts as a failed
    guess at a table's links (``config.limits``), and answers the same whatever was wrong."""
    table = selectors.table_by_code(code=code)
    seat = Seat.objects.filter(table=table, pk=seat_id).first() if table is not None else None
    link = services.seat_link_state(seat, key) if seat is not None else None
    if table is None or seat is None or link is None:
        wait = join_retry_after(request)
        if wait:
            return _too_many_guesses(request, wait)
        join_attempt_failed(request)
        return render(request, "tables/seat_link.html", {"refused": True}, status=404)
    token = _guest_token(request)
    if token and seat.guest_token == token:
        messages.success(request, _("Welcome back, %(name)s: this is your seat.") % {"name": seat.display_name})
        return redirect("table_detail", code=table.code)
    context: dict[str, Any] = {"table": table, "seat": seat, "error": ""}
    if token and seat.link_claim == token and link == "current":
        return render(request, "tables/seat_link.html", {**context, "waiting": True})
    if link == "used":
        return render(request, "tables/seat_link.html", {**context, "used": True}, status=410)
    if request.user.is_authenticated:
        context["error"] = _("You are signed in: a guest's seat link is for a browser where nobody is signed in.")
    elif request.method == "POST":
        token = _guest_token(request, create=True) or ""
        try:
            used = services.seat_link_use(code=table.code, seat_id=seat.pk, key=key, guest_token=token)
        except ServiceError as refusal:
            context["error"] = force_str(refusal.message)
        else:
            if used.guest_token != token:  # waiting for the hand to end: the GET says so
                return redirect(request.path)
            messages.success(request, _("Welcome back, %(name)s: this is your seat.") % {"name": seat.display_name})
            return redirect("table_detail", code=table.code)
    context["dealt_in"] = selectors.seat_in_live_hand(table=table, seat=seat)
    return render(request, "tables/seat_link.html", context)


def table_seat_links(request: HttpRequest, code: str) -> HttpResponse:
    """The host's list of every guest's seat link, to hand one again to a guest on a new
    device. Only the host's: anyone else gets the same 404 as for a code no table has."""
    table, _seat = _table_of_member(request, code)
    if not (request.user.is_authenticated and table.host_id == request.user.pk):
        raise Http404(_("There is no table with that code."))
    if table.settings.get("not_dealt"):
        return redirect(table_page_url(table))
    guests = [
        {"seat": guest, "url": seat_link_url(request, guest)}
        for guest in Seat.objects.filter(table=table, user__isnull=True, computer="", local=False, banned=False)
        .select_related("table")
        .order_by("display_name")
    ]
    return render(request, "tables/seat_links.html", {"table": table, "guests": guests})


def _seat_take_or_ask(request: HttpRequest, table: Table, seat: Seat) -> None:
    """Sit down, or, where the host approves seats, ask for one (the page shows the wait)."""
    try:
        services.seat_take(table_id=table.pk, seat_id=seat.pk)
    except ServiceError as error:
        if error.code != "ask_host":
            raise
        services.seat_ask(table_id=table.pk, seat_id=seat.pk, what="seat")
        # "until-seated": the table page takes it away once the host has answered yes (main.js).
        messages.info(
            request, _("You asked the host for a seat; you watch until they answer."), extra_tags="until-seated"
        )


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

    table, seat = _table_of_member(request, code)
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
    table, seat = _table_of_member(request, code)
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
    table, seat = _table_of_member(request, code)
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
            _service_error_on_form(form, error)
        else:
            return redirect("table_detail", code=table.code)
    others = Seat.objects.filter(table=table).exclude(pk=seat.pk).order_by("pk")
    return render(request, "tables/settings.html", {"form": form, "table": table, "others": others})


@login_required
@require_http_methods(["POST"])
def table_remove(request: HttpRequest, code: str) -> HttpResponse:
    """The host removes a player from the settings page, with or without a ban (a plain form:
    it works without the table page's script)."""
    table, seat = _table_of_member(request, code)
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


def card_strings() -> dict[str, Any]:
    """The names of the cards, for the labels static/js/cards.js gives them (screen readers)."""
    return {
        "ranks": {
            "A": _("Ace"),
            "K": _("King"),
            "Q": _("Queen"),
            "J": _("Jack"),
            "T": _("Ten"),
            "9": _("Nine"),
            "8": _("Eight"),
            "7": _("Seven"),
            "6": _("Six"),
            "5": _("Five"),
            "4": _("Four"),
            "3": _("Three"),
            "2": _("Two"),
        },
        "suits": {"s": _("spades"), "h": _("hearts"), "d": _("diamonds"), "c": _("clubs")},
        "of": _("%(rank)s of %(suit)s"),
        "back": _("Face-down card"),
    }


def table_page_strings() -> dict[str, Any]:
    """Every word the table page's script shows, translated for the request's language."""
    return {
        "cards": card_strings(),
        "chips": _("%(n)s chips"),
        "connection_open": _("Connected"),
        "connection_connecting": _("Connecting…"),
        "connection_closed": _("Connection lost: reconnecting…"),
        "connection_gone": _("Not at this table"),
        "offline": _("Offline"),
        "gone_banned": _("The host has removed you from this game."),
        "gone_moved": _("Your seat is open on another device now: this page no longer plays for it."),
        "gone_gone": _("You are no longer at this table."),
        "seat_link_copied": _("Your seat link is copied: keep it somewhere only you can see."),
        "not_connected": _("Not connected: wait a moment, the page is reconnecting."),
        # The database away (docs/operations.md, "The database stopped"): static/js/table/resend.js.
        "connection_unavailable": _("The table is catching its breath: coming back in a moment…"),
        "unavailable": _("The table is catching its breath: its records cannot be reached. Try again in a moment."),
        "unavailable_resending": _("The table is catching its breath: your move will be sent again in a moment."),
        "move_not_played": _("Your move was not played: look at the table, then make it again."),
        "refused": _("That move is not allowed now."),
        "status_waiting": _("Waiting for players"),
        "status_playing": _("Playing"),
        "status_paused": _("Paused"),
        "status_ended": _("Ended"),
        "status_ending": _("Ends when this hand ends"),
        # The state of play in words (regions/status.js, docs/ui.md).
        "paused_line": _("Paused by the host: nobody can act until the game resumes."),
        "their_turn": _("%(player)s to act."),
        "waiting_for_start": _("Waiting for players: the host starts the game once everyone has sat down."),
        "waiting_for_chips": _("Waiting for players: too few have chips to be dealt in."),
        "waiting_next_hand": _("Waiting for the next hand."),
        "next_hand_in": _("Next hand in %(time)s."),
        "dealing": _("Dealing the next hand…"),
        "hand_number": _("Hand %(number)s"),
        "dealer": _("Dealer"),
        "dealer_short": pgettext("dealer badge", "D"),
        "button": _("Button"),
        "button_short": pgettext("button badge", "B"),
        "to_act": _("To act"),
        "seen": _("Seen"),
        "blind": _("Blind"),
        "packed": _("Packed"),
        "folded": _("Folded"),
        "all_in": _("All in"),
        "away": _("Away"),
        "seat_playing": _("Playing"),
        "seat_sitting_out": _("Sitting out"),
        "seat_watching": _("Watching"),
        "won": _("Won %(amount)s"),
        "bet_hand": _("In the pot: %(amount)s"),
        "bet_round": _("Bet: %(amount)s"),
        "pot": _("Pot %(amount)s"),
        "stake": _("Stake %(stake)s · boot %(boot)s"),
        "blinds": _("Blinds %(small)s / %(big)s"),
        "current_bet": _("to call: %(amount)s"),
        "board_label": _("Board: %(cards)s"),
        "variant_none": _("None: the usual cards and ranking"),
        "variant_muflis": _("Muflis: the lowest hand wins"),
        "dealers_choice_label": _("Dealer's choice: if you deal the next hand, call its variant"),
        "dealers_choice_call": _("Call the next hand"),
        "log_variant_called": _("%(player)s calls the next hand: %(variant)s."),
        "log_dealer_calls": _("The dealer calls: %(variant)s."),
        "variant_ak47": _("AK47: every ace, king, four and seven is a joker"),
        "variant_joker": _("Joker: a card turned up after the deal makes its rank jokers"),
        "variant_four_card": _("Four-card: four cards each, the best three play"),
        "joker_label": _("Turned up for everyone: %(card)s, every card of its rank is a joker"),
        "my_card_hidden": _("Your card, face down"),
        "not_looked": _("You have not looked yet."),
        "sideshow_asked_you": _("%(asker)s asks you for a sideshow."),
        "sideshow_waiting": _("%(asker)s asked %(partner)s for a sideshow; waiting for the answer."),
        "costs": _("costs %(amount)s"),
        "chaal": _("Chaal"),
        "raise_to": _("Raise to"),
        "show": _("Show"),
        "sideshow": _("Sideshow"),
        "sideshow_with": _("Sideshow with %(partner)s"),
        "blind_turns_used": _("Your blind turns are used up: see your cards or pack."),
        "pack": _("Pack"),
        "check": _("Check"),
        "call_amount": _("Call %(amount)s"),
        "bet": _("Bet"),
        "all_in_amount": _("All in (%(amount)s)"),
        "fold": _("Fold"),
        "step_down": _("One step less"),
        "step_up": _("One step more"),
        "amount_range": _("Choose an amount from %(min)s to %(max)s."),
        "result_won": _("%(player)s wins %(amount)s."),
        "reason_show": _("Decided by a show."),
        "reason_last_player": _("Everyone else packed."),
        "reason_pot_limit": _("The pot limit was reached: everyone still in showed."),
        "reason_showdown": _("Decided at the showdown."),
        "reason_folds": _("Everyone else folded."),
        "main_pot": _("Main pot"),
        "side_pot": _("Side pot %(number)s"),
        "pot_line": _("%(pot)s of %(amount)s: %(winners)s"),
        "pot_line_short": _("%(pot)s %(amount)s"),
        "stacks_now": _("Stacks now: %(stacks)s"),
        "final_stacks": _("Chips at the end: %(stacks)s"),
        "placings": _("Placings: %(placings)s"),
        "placing": _("%(place)s. %(name)s, %(chips)s chips"),
        "placing_prize": _("%(place)s. %(name)s, %(chips)s chips, wins %(prize)s"),
        "placing_net": _("%(place)s. %(name)s, %(chips)s chips, %(net)s"),
        "stake_pool": _("The pool so far: %(pool)s from %(players)s buy-ins."),
        "turn_clock": _("%(name)s to act: %(time)s left"),
        "turn_time_up": _("%(name)s to act: the time is up"),
        "your_turn_clock": _("Your turn: %(time)s left"),
        "your_turn_time_up": _("Your turn: the time is up"),
        "act_for": _("Act for %(player)s"),
        "pass_to": _("Pass to %(name)s"),
        "i_am": _("I am %(name)s"),
        "phone_holding": _("%(name)s holds the phone: only their cards show."),
        "hide_cards": _("Hide my cards"),
        "phone_hidden": _("Every card is hidden while the phone is passed."),
        "on_this_phone": _("On this phone"),
        "phone_buy_again": _("%(name)s: buy in again"),
        "phone_buy_again_confirm": _("%(name)s buys in again: %(chips)s chips for %(price)s?"),
        "phone_sit_out": _("%(name)s: sit out"),
        "phone_come_back": _("%(name)s: come back"),
        "phone_leave": _("%(name)s: leave and cash out"),
        "phone_take_seat": _("%(name)s: take a seat"),
        "computer_easy": _("Computer, easy"),
        "computer_normal": _("Computer, normal"),
        "computer_hard": _("Computer, hard"),
        "take_seat": _("Take a seat"),
        "leave_seat": _("Leave the seat and cash out"),
        "your_seat": _("Seat %(number)s · %(stack)s"),
        "watching": _("You are watching."),
        "end_game_confirm": _("End the game for everyone?"),
        "end_game_yes": _("Yes, end the game"),
        "buy_again": _("Buy in again"),
        "buy_again_confirm": _("Buy in again: %(chips)s chips for %(price)s?"),
        "buy_again_yes": _("Yes, buy in again"),
        # "No" to any question the page asks before a step (static/js/table/controls.js).
        "question_no": _("Cancel"),
        # A price with its currency's ISO code, in the order the language writes it
        # (ledger_numbers.in_currency: "NPR 10.00", German "10,00 EUR").
        "price_in_currency": _("%(currency)s %(amount)s"),
        "sit_out": _("Sit out"),
        "come_back": _("Come back"),
        "sitting_out_dealt_in": _(
            "At this table you are still dealt in while you sit out, as at a tournament: "
            "your blinds are paid and your hand is checked or folded for you."
        ),
        "start": _("Start the game"),
        "pause": _("Pause"),
        "resume": _("Resume"),
        "end_game": _("End the game"),
        "end_game_after_hand": _(
            "The game ends when this hand ends: the hand is played out and its pot paid. "
            "A player whose time runs out is played for as when away."
        ),
        "remove_player": _("Remove %(player)s"),
        "remove_ban": _("Remove %(player)s and ban them for the rest of the game"),
        "ban_player": _("Ban %(player)s for the rest of the game"),
        "ban_confirm": _("Ban %(player)s for the rest of the game? They cannot sit, watch or join again."),
        "ban_yes": _("Yes, ban %(player)s"),
        "ask_seat": _("Ask the host for a seat"),
        "ask_buy_back": _("Ask the host to buy in again"),
        "waiting_seat": _("Waiting for the host to approve your seat."),
        "waiting_buy_back": _("Waiting for the host to approve your buy-back."),
        "cancel_request": _("Withdraw my request"),
        "denied_seat": _("The host said no to your seat."),
        "denied_buy_back": _("The host said no to your buy-back."),
        "request_seat": _("%(player)s asks for a seat."),
        "request_seat_number": _("%(player)s asks for seat %(number)s."),
        "request_buy_back": _("%(player)s asks to buy in again."),
        "request_join": _("%(player)s asks to be let in, to watch."),
        "approve": _("Approve"),
        "deny": _("Deny"),
        "approve_player": _("Approve %(player)s"),
        "deny_player": _("Deny %(player)s"),
        "your_turn": _("Your turn."),
        "your_turn_reminder": _("Reminder: it is your turn."),
        "link_copied": _("Link copied."),
        "log_hand_started": _("Hand %(number)s: %(dealer)s deals."),
        "log_boot": _("Everyone puts in the boot of %(amount)s."),
        "log_small_blind": _("%(player)s puts in the small blind of %(amount)s."),
        "log_big_blind": _("%(player)s puts in the big blind of %(amount)s."),
        "log_dealt": _("The cards are dealt."),
        "log_joker": _("The card turned up is %(card)s: every card of its rank is a joker this hand."),
        "log_see": _("%(player)s looks at their cards."),
        "log_chaal_blind": _("%(player)s plays chaal blind for %(amount)s."),
        "log_chaal_seen": _("%(player)s plays chaal for %(amount)s."),
        "log_raise_blind": _("%(player)s raises blind: the stake is now %(stake)s (paid %(amount)s)."),
        "log_raise_seen": _("%(player)s raises: the stake is now %(stake)s (paid %(amount)s)."),
        "log_pack": _("%(player)s packs."),
        "log_pack_sideshow": _("%(player)s packs after the sideshow."),
        "log_sideshow": _("%(player)s asks %(partner)s for a sideshow (paid %(amount)s)."),
        "log_sideshow_accepted": _("%(player)s accepts the sideshow."),
        "log_sideshow_refused": _("%(player)s refuses the sideshow."),
        "log_sideshow_result": _("In the sideshow, %(loser)s has the lower hand."),
        "log_show": _("%(player)s asks %(against)s for a show (paid %(amount)s)."),
        "log_showdown": _("The hands are turned up."),
        "log_wins": _("%(player)s wins %(amount)s."),
        "log_hand_over": _("Hand %(number)s is over."),
        "log_hand_void": _("The hand was called off; the chips went back."),
        "log_shows": _("%(player)s shows %(cards)s."),
        "log_muck": _("%(player)s's hand cannot win and is thrown away unseen."),
        "log_uncalled": _("%(amount)s nobody called goes back to %(player)s."),
        "log_pot_awarded": _("%(pot)s of %(amount)s to %(winners)s."),
        "log_raise": _("%(player)s raises to %(total)s."),
        "log_reminder": _("Reminder: %(player)s is to act."),
        "log_seat_joined": _("%(name)s joins the table."),
        "log_seat_taken": _("%(name)s sits down with %(stack)s chips."),
        "log_seat_bought_back": _("%(name)s buys in again for %(chips)s chips."),
        "log_seat_sat_out": _("%(name)s sits out."),
        "log_seat_came_back": _("%(name)s comes back."),
        "log_seat_removed": _("The host removes %(name)s from their seat."),
        "log_seat_left": _("%(name)s leaves their seat."),
        "log_seat_banned": _("The host bans %(name)s for the rest of the game."),
        "log_invite_rotated": _("The host makes a new invite link; the old one lets no one join now."),
        "log_request_seat": _("%(name)s asks the host for a seat."),
        "log_request_buy_back": _("%(name)s asks the host to buy in again."),
        "log_request_denied": _("The host says no to %(name)s."),
        "log_request_join": _("%(name)s asks the host to be let in."),
        "log_request_join_approved": _("The host lets %(name)s in."),
        "log_request_cancelled": _("%(name)s withdraws their request."),
        "log_game_started": _("The game starts."),
        "log_game_paused": _("The host pauses the game."),
        "log_game_resumed": _("The game goes on."),
        "log_game_ended": _("The game is over."),
        "log_game_ended_by_host": _("The host ended the game."),
        "log_game_ending": _("The host ends the game: it ends when this hand ends."),
        "log_settings_changed": _("The host changed the settings; they apply from the next hand."),
        "street_flop": _("the flop"),
        "street_turn": _("the turn"),
        "street_river": _("the river"),
        "log_fold": _("%(player)s folds."),
        "log_check": _("%(player)s checks."),
        "log_call": _("%(player)s calls %(amount)s."),
        "log_bet": _("%(player)s bets %(amount)s."),
        "log_allin": _("%(player)s is all in for %(amount)s."),
        "log_board": _("On %(street)s: %(cards)s."),
        "category_trail": _("Trail"),
        "category_pure_sequence": _("Pure sequence"),
        "category_sequence": _("Sequence"),
        "category_colour": _("Colour"),
        "category_pair": _("Pair"),
        "category_high_card": _("High card"),
        "category_digits": _("Number"),
        "category_two_pair": _("Two pair"),
        "category_three_of_a_kind": _("Three of a kind"),
        "category_straight": _("Straight"),
        "category_flush": _("Flush"),
        "category_full_house": _("Full house"),
        "category_four_of_a_kind": _("Four of a kind"),
        "category_straight_flush": _("Straight flush"),
    }
