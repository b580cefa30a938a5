"""A confirmation step for actions that cannot be undone (cancel a night, close a season,
replace an invite link, remove a member), without JavaScript.

The page's button posts to the action without ``confirm``; the action then answers with a
page that says what will happen and a second form, which posts the same fields and
``confirm=1``. Only that second post acts. Both are POST: a link or a prefetch does nothing.
"""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.functional import Promise


def confirmed(request: HttpRequest) -> bool:
    """Whether this POST is the confirming one."""
    return request.POST.get("confirm") == "1"


def confirm_page(
    request: HttpRequest,
    *,
    title: str | Promise,
    explanation: str | Promise,
    button: str | Promise,
    back_url: str,
    keep: tuple[str, ...] = (),
) -> HttpResponse:
    """The page that asks before acting: its form posts back to the same address, with the
    fields named in ``keep`` as they came and ``confirm=1``."""
    fields = [(name, request.POST[name]) for name in keep if name in request.POST]
    return render(
        request,
        "confirm.html",
        {
            "title": title,
            "explanation": explanation,
            "button": button,
            "action": request.path,
            "fields": fields,
            "back_url": back_url,
        },
    )
