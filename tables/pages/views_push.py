"""Turn reminders by Web Push (issue 28): the web app's manifest, its service worker, and a
seat's one-tap opt-in (``tables.services.push``; sending is ``tables.push``)."""

from __future__ import annotations

import json

from django.http import HttpRequest, HttpResponse, JsonResponse
from django.template.loader import render_to_string
from django.templatetags.static import static
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods

from tables.pages.visitor import table_of_member
from tables.services import ServiceError, push_subscribe, push_unsubscribe

#: The longest subscription JSON a browser sends (an endpoint of 1000 characters and two keys).
MAX_SUBSCRIPTION = 2000


@require_GET
def web_manifest(request: HttpRequest) -> JsonResponse:
    """The installable web app's manifest, from the site's own origin."""
    manifest = {
        "name": "Dashain",
        "short_name": "Dashain",
        "description": _("Home card games with friends: Faras, Teen Patti, 999 and hold'em."),
        "start_url": "/tables/",
        "scope": "/",
        "display": "standalone",
        "background_color": "#14532d",
        "theme_color": "#14532d",
        "icons": [{"src": static("img/favicon.svg"), "sizes": "any", "type": "image/svg+xml", "purpose": "any"}],
    }
    response = JsonResponse(manifest, json_dumps_params={"ensure_ascii": False})
    response["Content-Type"] = "application/manifest+json"
    return response


@require_GET
def service_worker(request: HttpRequest) -> HttpResponse:
    """The service worker, at the site's root so its scope is every page. It shows the
    pushes and opens the table when one is tapped; it caches nothing."""
    response = HttpResponse(render_to_string("tables/sw.js"), content_type="text/javascript; charset=utf-8")
    response["Cache-Control"] = "no-cache"
    return response


@require_http_methods(["POST"])
def table_push(request: HttpRequest, code: str) -> JsonResponse:
    """Turn this browser's push reminders on (``subscription``: the browser's subscription
    JSON) or off (``off``) for the visitor's own seat at the table: the seat comes from the
    session, never from the request. Anyone without a seat here gets the table's 404."""
    _table, seat = table_of_member(request, code)
    try:
        if request.POST.get("off"):
            push_unsubscribe(seat=seat, endpoint=request.POST.get("endpoint") or None)
            return JsonResponse({"on": False})
        raw = request.POST.get("subscription", "")
        if not raw or len(raw) > MAX_SUBSCRIPTION:
            raise ServiceError("bad_subscription", _("That push subscription is not valid."))
        try:
            data = json.loads(raw)
        except (ValueError, RecursionError):
            raise ServiceError("bad_subscription", _("That push subscription is not valid.")) from None
        push_subscribe(seat=seat, data=data, language=getattr(request, "LANGUAGE_CODE", "") or "")
    except ServiceError as error:
        return JsonResponse(error.to_json(), status=400)
    return JsonResponse({"on": True})
