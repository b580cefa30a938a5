"""Joining a table, one view per way in, and a guest's way back to their seat.

- ``table_invite`` (``/t/<code>/<invite token>/``): the invite link, the one way a newcomer
  joins.
- ``table_join`` (``/t/<code>/``): the short link; it only takes someone already at the
  table back to it.
- ``table_join_by_code`` (``/tables/join/``): the lobby's code form, the same; a stranger
  may ask the host to be let in (``services.join_ask``) and waits on a page that looks
  again every few seconds; ``table_join_withdraw`` takes the request back.
- ``table_seat_link`` (``/t/<code>/seat/<seat>/<key>/``): a guest's own seat link, and
  ``table_seat_links``, the host's list of them.

Failed guesses (no such table, a wrong token or link) are counted per address and
answered the same whether the table exists or not (``config.limits``); past the limit the
real invite link, a real seat link and someone already at the table are still answered
(:func:`_admitted_anyway`).
"""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.encoding import force_str
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from config.limits import join_attempt_failed, join_retry_after
from tables import selectors, services
from tables.models import Seat, Table
from tables.pages.forms import JoinAskForm, JoinByCodeForm, JoinForm
from tables.pages.views_claim import claim_answer, claim_offer
from tables.pages.visitor import (
    service_error_on_form,
    session_guest_token,
    table_of_member,
    table_page_url,
    viewer_seat,
)
from tables.services.errors import ServiceError


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
            guest_token=session_guest_token(request, create=True) if guest else None,
        )
    except ServiceError as error:
        service_error_on_form(form, error)
        return _join_refused(request, ask_form=form, count=False)
    kept = [c for c in _join_asked(request) if c != code][-JOIN_ASKED_KEPT + 1 :]
    request.session[JOIN_ASKED_SESSION_KEY] = [*kept, code]
    return redirect(f"{reverse('table_join_by_code')}?code={code}")


def _join_waiting(request: HttpRequest, code: str, table: Table | None) -> HttpResponse:
    """The page of someone who asked to be let in at ``code``: waiting (it looks again every
    few seconds), the host's no, or, once the host said yes, the table itself."""
    guest = not request.user.is_authenticated
    user = None if guest else request.user
    answer = services.join_answer(table=table, user=user, guest_token=session_guest_token(request)) if table else None
    context: dict[str, Any] = {"code_form": JoinByCodeForm(), "asked_code": code, "waiting": True}
    if table is not None and answer == "approved":
        try:
            services.join_approved_take(table_id=table.pk, user=user, guest_token=session_guest_token(request))
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
        services.join_withdraw(code=code, user=user, guest_token=session_guest_token(request))
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


def _rate_limited(request: HttpRequest, code: str | None, invite_token: str | None) -> HttpResponse | None:
    """The 429 for an address past its failed-guess limit, unless it is admitted anyway."""
    wait = join_retry_after(request)
    if wait and not _admitted_anyway(request, code, invite_token):
        return _too_many_guesses(request, wait)
    return None


def _back_to_the_table(request: HttpRequest, table: Table) -> HttpResponse | None:
    """Someone already at ``table`` goes to its page (a banned one to the lobby, told why);
    ``None`` for anyone else."""
    seat = viewer_seat(request, table)
    if seat is not None and seat.banned:
        messages.error(request, _("The host has removed you from this game."))
        return redirect("lobby")
    if seat is not None:
        return redirect(table_page_url(table))
    return None


@require_http_methods(["GET", "POST"])
def table_join_by_code(request: HttpRequest) -> HttpResponse:
    """``/tables/join/``: the lobby's code form. A GET with a code takes someone already at that
    table back to it, shows a code this session asked at its waiting page, and refuses anyone
    else (offering to ask the host). A POST is that "Ask the host" (:func:`_join_ask`)."""
    limited = _rate_limited(request, None, None)
    if limited is not None:
        return limited
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


def _join_link(request: HttpRequest, code: str, invite_token: str | None) -> Table | HttpResponse:
    """Where both links begin: the rate limit, the table (refused when there is none), and
    someone already at it sent back to it (:func:`_back_to_the_table`). The table, or the answer."""
    limited = _rate_limited(request, code, invite_token)
    if limited is not None:
        return limited
    table = selectors.table_by_code(code=code)
    if table is None:
        return _join_refused(request, code=code)
    return _back_to_the_table(request, table) or table


@require_http_methods(["GET", "POST"])
def table_join(request: HttpRequest, code: str) -> HttpResponse:
    """``/t/<code>/``, the short link: it only takes someone already at the table back to it;
    anyone else is refused as at a code no table has, and asked for the invite link."""
    table = _join_link(request, code, None)
    if not isinstance(table, Table):
        return table
    return _join_refused(request, code=table.code)


@require_http_methods(["GET", "POST"])
def table_invite(request: HttpRequest, code: str, invite_token: str) -> HttpResponse:
    """``/t/<code>/<invite token>/``, the invite link: a newcomer joins (a guest gives a display
    name, an account holder just joins) and takes a seat or watches. A wrong token is refused
    as the short link refuses a stranger."""
    table = _join_link(request, code, invite_token)
    if not isinstance(table, Table):
        return table
    if not services.invite_token_matches(table, invite_token):
        return _join_refused(request, code=table.code)
    claimed = claim_answer(request, table, invite_token)  # "This is me" (issue 38)
    if claimed is not None:
        return claimed
    guest = not request.user.is_authenticated
    form = JoinForm(request.POST or None, guest=guest)
    if request.method != "POST" or not form.is_valid():
        return render(request, "tables/join.html", {"table": table, "form": form, "guest": guest})
    seat = None
    try:
        seat = services.table_join(
            code=table.code,
            invite_token=invite_token,
            user=None if guest else request.user,
            guest_name=form.cleaned_data.get("display_name"),
            guest_token=session_guest_token(request, create=True) if guest else None,
        )
        if form.cleaned_data["role"] == "seat":
            _seat_take_or_ask(request, table, seat)
    except ServiceError as error:
        if seat is None:
            offer = claim_offer(request, table, error, form.cleaned_data.get("display_name"))
            service_error_on_form(form, error)
            context = {"table": table, "form": form, "guest": guest, "claim_offer": offer}
            return render(request, "tables/join.html", context)
        # joined, but the seat could not be taken (full, hold'em started...): watch
        messages.warning(request, force_str(error.message))
    return redirect("table_detail", code=table.code)


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
    token = session_guest_token(request)
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
        token = session_guest_token(request, create=True) or ""
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
    table, _seat = table_of_member(request, code)
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
