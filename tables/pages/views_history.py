"""Hand histories on the web: a table's hand list, a hand's replayer page and the downloads
(JSON; for hold'em also PHH and PokerStars-style text).

Thin views: find the table and who is asking, check they may look (``table_for_viewer``:
``tables.history.history_may_view``), call a selector of ``tables.history``, render.
Someone not at the table gets the 404 of a code no table has and learns nothing, not even
that the table exists. A hand's page offers its players a link to share it: the pages of
that link are ``shares``' (above tables), reached here by their URL names only.
"""

from __future__ import annotations

from typing import Any

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET

from engine.export import to_text
from engine.games import get_game
from engine.holdem.phh import game_phhs, hand_phh
from engine.holdem.pokerstars import game_text
from tables import history, selectors
from tables.models import Hand, Seat, Table, table_currency
from tables.pages.page_strings import card_strings
from tables.pages.visitor import table_page_url, viewer_seat


def table_for_viewer(request: HttpRequest, code: str) -> tuple[Table, Seat | None]:
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
    table, _seat = table_for_viewer(request, code)
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
    table, seat = table_for_viewer(request, code)
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
    return render(
        request,
        "history/hand_history.html",
        {
            "table": table,
            "hand": hand,
            "may_share": history.hand_may_share(table=table, hand=hand, user=request.user, seat=seat),
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
    table, _seat = table_for_viewer(request, code)
    hand = get_object_or_404(Hand, table=table, number=number)
    export = history.hand_export_for(table=table, hand=hand)
    if export is None:
        raise Http404(_("Downloads open when the game ends."))
    return _download(export, f"dashain-{table.code}-hand-{hand.number}.json")


@require_GET
def game_export(request: HttpRequest, code: str) -> HttpResponse:
    table, _seat = table_for_viewer(request, code)
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
    table, _seat = table_for_viewer(request, code)
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
