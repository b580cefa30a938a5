"""The invite link's "This is me" (issue 38): a guest on a new browser asks for her own seat.

The invite link's page (``views_join.table_invite``) calls :func:`claim_answer` first: a
browser that asked there sees that it waits (the page looks again every few seconds), what
the host answered, and, once the host said yes, takes the seat (``services.seat_claim_take``)
and goes to the table. When a guest's name is refused because a guest's seat has it,
:func:`claim_offer` names that seat, and the page offers "This is me" beside choosing
another name (``services.seat_claim_ask``). Signed-in visitors are never asked: a guest's
seat is for a browser where nobody is signed in, as its seat link is.
"""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.encoding import force_str
from django.utils.translation import gettext as _

from tables import services
from tables.models import Table
from tables.pages.forms import JoinForm
from tables.pages.visitor import session_guest_token
from tables.services.errors import ServiceError


def _page(request: HttpRequest, table: Table, **context: Any) -> HttpResponse:
    form = context.pop("form", None) or JoinForm(guest=True)
    return render(request, "tables/join.html", {"table": table, "form": form, "guest": True, **context})


def claim_answer(request: HttpRequest, table: Table, invite_token: str) -> HttpResponse | None:
    """The invite link's answer about this browser's "This is me", or ``None`` (the usual
    page): the POSTs of "This is me" and "Withdraw my request", and the GET of a browser
    whose claim waits, was approved (it takes the seat) or was denied."""
    if request.user.is_authenticated or table.status == Table.Status.ENDED:
        return None
    if request.method == "POST" and "this_is_me" in request.POST:
        return _ask(request, table, invite_token)
    if request.method == "POST" and "claim_withdraw" in request.POST:
        try:
            services.seat_claim_withdraw(table_id=table.pk, guest_token=session_guest_token(request))
        except ServiceError as error:
            messages.error(request, force_str(error.message))
        return redirect(request.path)
    if request.method != "GET":
        return None
    token = session_guest_token(request)
    state = services.seat_claim_state(table=table, guest_token=token)
    if state is None or state[0] == "withdrawn":
        return None
    answer, name = state
    if answer == "waiting":
        return _page(request, table, claim_waiting=name)
    if answer == "denied":
        return _page(request, table, claim_denied=name)
    try:
        taken = services.seat_claim_take(table_id=table.pk, guest_token=token)
    except ServiceError as error:
        return _page(request, table, claim_problem=force_str(error.message))
    messages.success(request, _("Welcome back, %(name)s: this is your seat.") % {"name": taken.seat.display_name})
    if taken.hand_played_out:
        messages.info(
            request,
            _("Your seat moved here during a hand: that hand is played out for you. You play from the next one."),
        )
    return redirect("table_detail", code=table.code)


def _ask(request: HttpRequest, table: Table, invite_token: str) -> HttpResponse:
    name = request.POST.get("display_name", "")
    try:
        services.seat_claim_ask(
            code=table.code,
            invite_token=invite_token,
            guest_name=name,
            guest_token=session_guest_token(request, create=True),
        )
    except ServiceError as error:
        form = JoinForm(request.POST, guest=True)
        form.is_valid()
        form.add_error("display_name", force_str(error.message))
        return _page(request, table, form=form)
    return redirect(request.path)


def claim_offer(request: HttpRequest, table: Table, error: ServiceError, name: object) -> str | None:
    """The name of the guest's seat a refused name belongs to, when the page should offer
    "This is me" for it (a guest visitor, the name taken by a guest's seat not banned)."""
    if request.user.is_authenticated or error.code != "name_taken" or table.settings.get("not_dealt"):
        return None
    seat = services.seat_claimable(table, name)
    return seat.display_name if seat is not None else None
