"""The host's invite link: replacing it (a plain form on the table page) and reading the
current one (the host's page asks after an ``invite_rotated`` event, e.g. after a ban).

A ban replaces the link by itself (``tables.services.seat_remove``); the host may replace it
at any time. Anyone but the host is answered as for a code no table has.
"""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect
from django.urls import reverse
from django.utils.encoding import force_str
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET, require_POST

from tables import services
from tables.models import Seat, Table
from tables.pages.visitor import table_of_member
from tables.services.errors import ServiceError


def invite_url(request: HttpRequest, table: Table) -> str:
    """The table's invite link as the host sends it."""
    return request.build_absolute_uri(
        reverse("table_invite", kwargs={"code": table.code, "invite_token": table.invite_token})
    )


def _host_table(request: HttpRequest, code: str) -> tuple[Table, Seat]:
    table, seat = table_of_member(request, code)
    if table.host_id != request.user.pk:
        raise Http404(_("There is no table with that code."))
    return table, seat


@login_required
@require_POST
def table_invite_rotate(request: HttpRequest, code: str) -> HttpResponse:
    """The host replaces the invite link: the old one admits no one from now on."""
    table, seat = _host_table(request, code)
    try:
        services.invite_rotate(table_id=table.pk, seat_id=seat.pk)
    except ServiceError as error:
        messages.error(request, force_str(error.message))
    else:
        messages.success(
            request,
            _("The invite link is new: the old one lets no one join now. Everyone at the table keeps their place."),
        )
    return redirect("table_detail", code=table.code)


@login_required
@require_GET
@never_cache
def table_invite_link(request: HttpRequest, code: str) -> HttpResponse:
    """The current invite link, for the host's page only (JSON: ``{"url": ...}``)."""
    table, _seat = _host_table(request, code)
    return JsonResponse({"url": invite_url(request, table)})
