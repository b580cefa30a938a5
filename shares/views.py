"""The shared hand's pages: making and revoking a hand's link, the page that shows it, and the
hand's replay behind the link for anyone who has it.

Thin views above the history's pages (``tables.pages.views_history``): the same check of who
may look at a table's hands (``table_for_viewer``: the 404 of a code no table has for anyone
else), ``tables.history.hand_may_share`` for who may make or revoke a link (the host and the
hand's players), ``shares.links`` for the link itself. The table's hand page reaches these by
their URL names only (``hand_share``, ``hand_link``), so tables never imports this app.
The page behind a link shows the hand as a watcher at the table saw it, with no download and
no way to the table (docs/fairness.md, "A shared hand").
"""

from __future__ import annotations

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from config.limits import join_attempt_failed, join_retry_after
from shares.links import share_make, share_revoke, share_token, shared_hand_by_token, shared_hand_of
from tables import history
from tables.models import Hand, Seat
from tables.pages.views_history import replayer_strings, table_for_viewer


def _hand_to_share(request: HttpRequest, code: str, number: int) -> tuple[Hand, Seat | None]:
    table, seat = table_for_viewer(request, code)
    hand = get_object_or_404(Hand, table=table, number=number)
    if not history.hand_may_share(table=table, hand=hand, user=request.user, seat=seat):
        raise Http404(_("Only the host and the players of a finished hand can share it."))
    return hand, seat


def _link_page(hand: Hand) -> HttpResponse:
    return redirect(reverse("hand_link", kwargs={"code": hand.table.code, "number": hand.number}))


@require_GET
def hand_link(request: HttpRequest, code: str, number: int) -> HttpResponse:
    """The hand's link for whoever may share it: the link and *Revoke the link* once made,
    *Make a link* until then. Opening it makes nothing (a chat app's preview fetch is a GET)."""
    hand, _seat = _hand_to_share(request, code, number)
    shared = shared_hand_of(hand)
    share_url = reverse("shared_hand", kwargs={"token": share_token(shared)}) if shared is not None else ""
    return render(
        request,
        "shares/hand_link.html",
        {"table": hand.table, "hand": hand, "share_url": request.build_absolute_uri(share_url) if share_url else ""},
    )


@require_POST
def hand_share(request: HttpRequest, code: str, number: int) -> HttpResponse:
    hand, seat = _hand_to_share(request, code, number)
    name = seat.display_name if seat is not None else getattr(request.user, "display_name", "")
    share_make(hand=hand, user_id=request.user.pk if request.user.is_authenticated else None, name=name)
    return _link_page(hand)


@require_POST
def hand_share_revoke(request: HttpRequest, code: str, number: int) -> HttpResponse:
    hand, _seat = _hand_to_share(request, code, number)
    share_revoke(hand=hand)
    return _link_page(hand)


@require_GET
def shared_hand(request: HttpRequest, token: str) -> HttpResponse:
    """The replay of a shared hand for anyone with its link, as a watcher at the table saw it.
    A link that names no shared hand (mistyped, revoked) counts as a failed guess, as a wrong
    invite link does; past the limit such guesses get 429, a real link still opens."""
    shared = shared_hand_by_token(token)
    if shared is None:
        wait = join_retry_after(request)
        if wait:
            response = render(request, "shares/shared_hand_gone.html", {"too_many": True}, status=429)
            response["Retry-After"] = str(wait)
            return response
        join_attempt_failed(request)
        return render(request, "shares/shared_hand_gone.html", {}, status=404)
    hand, table = shared.hand, shared.hand.table
    response = render(
        request,
        "shares/shared_hand.html",
        {
            "table": table,
            "hand": hand,
            "summary": history.shared_hand_summary(table=table, hand=hand),
            "page_url": request.build_absolute_uri(),
            "replay": {
                "steps": history.hand_replay_steps(table=table, hand=hand, viewer=None),
                "names": history.seat_names(table=table),
                "viewer": None,
                "game": table.game,
                "strings": replayer_strings(),
            },
        },
    )
    response["X-Robots-Tag"] = "noindex"
    return response
