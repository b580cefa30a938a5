"""Hand histories on the web: a table's hand list, a hand's replayer page, the downloads
(JSON; for hold'em also PHH and PokerStars-style text), and a hand shared by a link.

Thin views: find the table and who is asking, check they may look
(``tables.history.history_may_view``), call a selector of ``tables.history``, render.
Someone not at the table gets the 404 of a code no table has and learns nothing, not even
that the table exists. A shared hand (``shares``) is the one page for anyone: its link opens the
hand's replay as a watcher at the table saw it, with no download and no way to the table.
"""

from __future__ import annotations

from typing import Any

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from config.limits import join_attempt_failed, join_retry_after
from engine.export import to_text
from engine.games import get_game
from engine.holdem.phh import game_phhs, hand_phh
from engine.holdem.pokerstars import game_text
from shares.links import share_make, share_revoke, share_token, shared_hand_by_token, shared_hand_of
from tables import history, selectors
from tables.models import Hand, Seat, Table, table_currency
from tables.pages.page_strings import card_strings
from tables.pages.visitor import table_page_url, viewer_seat


def _table_for_viewer(request: HttpRequest, code: str) -> tuple[Table, Seat | None]:
    """The table and the viewer's seat; someone who may not look is answered as for a code
    no table has (the same 404, the same words), so the page tells them nothing."""
    table = Table.objects.filter(code__iexact=code).first()
    seat = viewer_seat(request, table) if table is not None else None  # found as the table page finds it
    if table is None or not history.history_may_view(table=table, user=request.user, seat=seat):
        raise Http404(_("There is no table with that code."))
    return table, seat


def _download(export: dict[str, Any], filename: str) -> HttpResponse:
    return _file(to_text(export), filename, "application/json")


def _file(text: str, filename: str, content_type: str) -> HttpResponse:
    response = HttpResponse(text, content_type=f"{content_type}; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response


@require_GET
def table_history(request: HttpRequest, code: str) -> HttpResponse:
    table, _seat = _table_for_viewer(request, code)
    if table.settings.get("not_dealt"):  # a kitchen night: its record is on the night's page
        return redirect(table_page_url(table))
    return render(
        request,
        "history/table_history.html",
        {
            "table": table,
            "hands": history.table_hand_list(table=table),
            "exports_open": history.history_exports_open(table=table),
            "secret_seed": (history.revealed_secret_seed(table=table) or b"").hex(),
            "placings": history.recorded_placings(table=table),
            "prizes_in_money": history.prizes_in_money(table=table),
            "currency": table_currency(table),
            "ended_by_host": history.ended_by_host(table=table),
        },
    )


@require_GET
def hand_history(request: HttpRequest, code: str, number: int) -> HttpResponse:
    table, seat = _table_for_viewer(request, code)
    hand = get_object_or_404(Hand, table=table, number=number)
    viewer = seat.engine_name if seat is not None else None
    hosts = seat is not None and seat.user_id is not None and seat.user_id == table.host_id
    if hosts and selectors.phone_seat_ids(table=table) is not None:
        # Pass and play: a page of the host's is opened on the phone the players pass round,
        # and a page is never held (no tap): it shows the hands as a watcher saw them, not
        # the host's own hidden cards (live or mucked) to whoever holds the phone.
        viewer = None
    if seat is not None and hand.number <= seat.link_moved_hand:
        # Played before a guest's seat link moved the seat to this browser (issue 34): another
        # browser's hand, shown here as a watcher saw it.
        viewer = None
    names = history.seat_names(table=table)
    may_share = history.hand_may_share(table=table, hand=hand, user=request.user, seat=seat)
    shared = shared_hand_of(hand) if may_share else None
    return render(
        request,
        "history/hand_history.html",
        {
            "table": table,
            "hand": hand,
            "may_share": may_share,
            "share_url": request.build_absolute_uri(_shared_url(shared)) if shared is not None else "",
            "exports_open": history.history_exports_open(table=table),
            "holdem_files": history.history_exports_open(table=table) and _writes_poker_files(table),
            "previous_number": number - 1 if number > 1 else None,
            "next_number": number + 1 if Hand.objects.filter(table=table, number=number + 1).exists() else None,
            "replay": {
                "steps": history.hand_replay_steps(table=table, hand=hand, viewer=viewer),
                "names": names,
                "viewer": viewer,
                "game": table.game,
                "strings": replayer_strings(),
            },
        },
    )


@require_GET
def hand_export(request: HttpRequest, code: str, number: int) -> HttpResponse:
    table, _seat = _table_for_viewer(request, code)
    hand = get_object_or_404(Hand, table=table, number=number)
    export = history.hand_export_for(table=table, hand=hand)
    if export is None:
        raise Http404(_("Downloads open when the game ends."))
    return _download(export, f"dashain-{table.code}-hand-{hand.number}.json")


@require_GET
def game_export(request: HttpRequest, code: str) -> HttpResponse:
    table, _seat = _table_for_viewer(request, code)
    if table.settings.get("not_dealt"):  # a kitchen night: no deck to verify, its record is the night's page
        raise Http404(_("This night was not dealt here: its record is on the night's page."))
    export = history.game_export_build(table=table)
    if export is None:
        raise Http404(_("Downloads open when the game ends."))
    return _download(export, f"dashain-{table.code}-game.json")


def _writes_poker_files(table: Table) -> bool:
    """Whether the table's game is also written as PHH and PokerStars-style text (hold'em)."""
    return get_game(table.game).table_rules.poker_hand_histories


def _holdem_game_export(request: HttpRequest, code: str) -> tuple[Table, dict[str, Any]]:
    """A hold'em game's export for the other formats: the same people and the same moment
    as the JSON (once the game has ended); Teen Patti has no such format (404)."""
    table, _seat = _table_for_viewer(request, code)
    export = history.game_export_build(table=table) if _writes_poker_files(table) else None
    if export is None:
        raise Http404(_("Downloads open when the game ends."))
    return table, export


@require_GET
def game_phh(request: HttpRequest, code: str) -> HttpResponse:
    table, export = _holdem_game_export(request, code)
    text = game_phhs(export["hands"])
    return _file(text, f"dashain-{table.code}-game.phhs", "application/toml")


@require_GET
def hand_phh_file(request: HttpRequest, code: str, number: int) -> HttpResponse:
    table, export = _holdem_game_export(request, code)
    hands = [hand for hand in export["hands"] if hand["hand_number"] == number]
    text = hand_phh(hands[0]) if hands else ""
    if not text:
        raise Http404(_("That hand did not finish."))
    return _file(text, f"dashain-{table.code}-hand-{number}.phh", "application/toml")


@require_GET
def game_pokerstars(request: HttpRequest, code: str) -> HttpResponse:
    table, export = _holdem_game_export(request, code)
    text = game_text(
        export["hands"],
        hand_ids=history.hand_ids(table=table),
        played_at=history.hand_times(table=table),
    )
    return _file(text, f"dashain-{table.code}-game.txt", "text/plain")


# --- a hand shared by a link ------------------------------------------------------------------


def _shared_url(shared: Any) -> str:
    return reverse("shared_hand", kwargs={"token": share_token(shared)})


def _hand_to_share(request: HttpRequest, code: str, number: int) -> tuple[Hand, Seat | None]:
    table, seat = _table_for_viewer(request, code)
    hand = get_object_or_404(Hand, table=table, number=number)
    if not history.hand_may_share(table=table, hand=hand, user=request.user, seat=seat):
        raise Http404(_("Only the host and the players of a finished hand can share it."))
    return hand, seat


@require_POST
def hand_share(request: HttpRequest, code: str, number: int) -> HttpResponse:
    hand, seat = _hand_to_share(request, code, number)
    name = seat.display_name if seat is not None else getattr(request.user, "display_name", "")
    share_make(hand=hand, user_id=request.user.pk if request.user.is_authenticated else None, name=name)
    return redirect(reverse("hand_history", kwargs={"code": hand.table.code, "number": number}) + "#share")


@require_POST
def hand_share_revoke(request: HttpRequest, code: str, number: int) -> HttpResponse:
    hand, _seat = _hand_to_share(request, code, number)
    share_revoke(hand=hand)
    return redirect(reverse("hand_history", kwargs={"code": hand.table.code, "number": number}) + "#share")


@require_GET
def shared_hand(request: HttpRequest, token: str) -> HttpResponse:
    """The replay of a shared hand for anyone with its link, as a watcher at the table saw it.
    A link that names no shared hand (mistyped, revoked) counts as a failed guess, as a wrong
    invite link does; past the limit such guesses get 429, a real link still opens."""
    shared = shared_hand_by_token(token)
    if shared is None:
        wait = join_retry_after(request)
        if wait:
            response = render(request, "history/shared_hand_gone.html", {"too_many": True}, status=429)
            response["Retry-After"] = str(wait)
            return response
        join_attempt_failed(request)
        return render(request, "history/shared_hand_gone.html", {}, status=404)
    hand, table = shared.hand, shared.hand.table
    summary = history.shared_hand_summary(table=table, hand=hand)
    response = render(
        request,
        "history/shared_hand.html",
        {
            "table": table,
            "hand": hand,
            "summary": summary,
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


def replayer_strings() -> dict[str, Any]:
    """The replayer's words, translated here so static/js/replayer.js holds none."""
    return {
        "step": _("Step %(n)s of %(total)s"),
        "pot": _("Pot"),
        "stake": _("Stake"),
        "board": _("Board"),
        "joker": _("Turned up for everyone: %(card)s, every card of its rank is a joker"),
        "dealer": _("Dealer"),
        "packed": _("Packed"),
        "folded": _("Folded"),
        "seen": _("Seen"),
        "blind": _("Blind"),
        "hidden": _("Cards not shown"),
        "you": _("you"),
        "bet": _("In the pot"),
        "stack": _("Chips"),
        "to_act": _("To act"),
        "cards": card_strings(),
    }
