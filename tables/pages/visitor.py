"""Who makes a page's request: the guest's token kept in their session, their seat at a
table, the page of a table for the people at it, and a service's refusal put on a form.

A guest is known by a random token kept in their session under the key the table's
socket reads (``tables.guests.GUEST_TOKEN_SESSION_KEY``).
"""

from __future__ import annotations

from django import forms
from django.http import Http404, HttpRequest
from django.urls import reverse
from django.utils.encoding import force_str
from django.utils.translation import gettext as _

from tables import selectors, services
from tables.guests import GUEST_TOKEN_SESSION_KEY
from tables.models import Seat, Table
from tables.services.errors import ServiceError


def session_guest_token(request: HttpRequest, *, create: bool = False) -> str | None:
    token = request.session.get(GUEST_TOKEN_SESSION_KEY)
    if token is None and create:
        token = services.guest_token_new()
        request.session[GUEST_TOKEN_SESSION_KEY] = token
    return token


def viewer_seat(request: HttpRequest, table: Table) -> Seat | None:
    """The seat (playing, sitting out or watching) of whoever makes the request, if any."""
    return selectors.seat_for_viewer(table=table, user=request.user, guest_token=session_guest_token(request))


def table_page_url(table: Table) -> str:
    """The page of ``table`` for the people at it. A table played with real cards (a kitchen
    night: the setting ``not_dealt``) has no online table: its page is the night's."""
    if table.settings.get("not_dealt"):
        return reverse("kitchen:night", kwargs={"code": table.code})
    return reverse("table_detail", kwargs={"code": table.code})


def table_of_member(request: HttpRequest, code: str) -> tuple[Table, Seat]:
    """The table and the visitor's own seat there. A visitor without one (or banned) is
    answered as for a code no table has: the same 404, the same words, so a table's page
    tells a stranger nothing, not even that it exists."""
    table = selectors.table_by_code(code=code)
    seat = viewer_seat(request, table) if table is not None else None
    if table is None or seat is None or seat.banned:
        raise Http404(_("There is no table with that code."))
    return table, seat


def service_error_on_form(form: forms.BaseForm, error: ServiceError) -> None:
    form.add_error(error.field if error.field in form.fields else None, force_str(error.message))
