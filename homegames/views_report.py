"""A table's money pages, at /ledger/tables/<code>/: its settlement report (and CSV), marking
its transfers paid, and the host's corrections. The money is the ledger's
(``ledger.selectors.ledger_report``); the page also tells, for a night of a home game, its home
game and season, and a night paid with its season is marked paid there, so the pages live
here, above both. Thin: they check access, call a selector or service, and render.

Access: the host, anyone who had a seat there (a guest too, by the token in their session),
and the members of its home game; anyone else gets a 404, so a table's code reveals nothing.
The URL names keep the ``ledger`` namespace they were published with (``config/urls.py``).
"""

from __future__ import annotations

import csv
from collections.abc import Callable
from dataclasses import dataclass
from functools import wraps
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils import timezone
from django.utils.text import slugify
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST

from accounts.models import User
from accounts.names import name_visible
from homegames.forms import CorrectionForm, TransferPaidForm
from homegames.models import Night
from homegames.selectors import user_can_view_table_report, user_zone
from homegames.selectors_seasons import night_settled_by_season
from homegames.services_seasons import night_correct_buy_in, night_transfer_mark_paid
from ledger.models import LedgerEntry
from ledger.selectors import TableReport, TransferLine, ledger_corrections, ledger_entries, ledger_report
from ledger.services import LedgerError, transfer_marker, transfer_unmark_paid
from tables.guests import GUEST_TOKEN_SESSION_KEY
from tables.models import Event, Seat, Table, table_currency


@dataclass(frozen=True)
class TransferRow:
    """A transfer on the report, with what the person reading it may do."""

    transfer: TransferLine
    can_mark: bool
    can_unmark: bool


def _table_for(request: HttpRequest, code: str) -> Table:
    table = get_object_or_404(Table, code=code)
    guest_token = request.session.get(GUEST_TOKEN_SESSION_KEY)
    if not user_can_view_table_report(user=request.user, table=table, guest_token=guest_token):
        raise Http404
    return table


def _guest_or_login(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
    """Signed-in users, and guests whose session holds a seat's token; others log in first."""

    @wraps(view)
    def wrapped(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        if request.user.is_authenticated or request.session.get(GUEST_TOKEN_SESSION_KEY):
            return view(request, *args, **kwargs)
        return redirect_to_login(request.get_full_path())

    return wrapped


def signed_in(request: HttpRequest) -> User:
    """The player of a ``@login_required`` view."""
    user = request.user
    assert isinstance(user, User)  # @login_required sent anyone else to log in
    return user


def safe_cell(value: object) -> object:
    """Keep a spreadsheet from running a name as a formula (CSV injection): judged by its
    first character as a spreadsheet sees it, after NFKC and without invisible characters
    or leading spaces (a zero-width space before "=" hides nothing)."""
    if not isinstance(value, str):
        return value
    formula_start = ("=", "+", "-", "@", "\t", "\r")
    if value[:1] in formula_start or name_visible(value).lstrip(" \u00a0")[:1] in formula_start:
        return "'" + value
    return value


def csv_response(filename: str, rows: list[list[object]]) -> HttpResponse:
    response = HttpResponse(content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    writer = csv.writer(response)
    for row in rows:
        writer.writerow([safe_cell(cell) for cell in row])
    return response


def table_ended_by_host(table: Table) -> str:
    """Whether the host ended the game (the log's ``game_ended`` says so): the report tells
    everyone, as the history does, since a host may end a game to lock in a lead (issue 25).
    ``"placed"`` when the game placed its players then (hold'em: the placings are the stacks at
    that moment), ``"ended"`` for a game without placings (Faras, Teen Patti), else ``""``."""
    if table.status != Table.Status.ENDED:
        return ""
    ended = Event.objects.filter(table=table, kind="game_ended", payload__reason="host").only("payload").first()
    if ended is None:
        return ""
    return "placed" if "placings" in ended.payload else "ended"


def render_in_viewers_zone(request: HttpRequest, template: str, context: dict[str, Any]) -> HttpResponse:
    """``template`` with every time in the viewer's zone (``zone`` in its context): a member's
    own (``user_zone``), UTC for a guest or someone who has not chosen one, as the nights'
    pages write them."""
    zone = user_zone(request.user)
    with timezone.override(zone):
        return render(request, template, {**context, "zone": zone})


@_guest_or_login
def table_report(request: HttpRequest, code: str) -> HttpResponse:
    table = _table_for(request, code)
    report = ledger_report(table=table)
    night = Night.objects.filter(table=table).select_related("home_game", "season").first()
    # The season whose settle-up holds this night: the closed one it was settled in, else the
    # open one (a night counts in the season open when its game ends: docs/ledger.md).
    season_number = None
    if night is not None:
        season_number = night.season.number if night.season else night.home_game.seasons.count() + 1
    return render_in_viewers_zone(
        request,
        "ledger/table_report.html",
        {
            "table": table,
            "currency": table_currency(table),
            "report": report,
            "entries": ledger_entries(table=table),
            "corrections": ledger_corrections(tables=[table]),
            "is_host": request.user.is_authenticated and table.host_id == request.user.pk,
            "transfer_rows": transfer_rows(table, report, request),
            "night": night,
            "season_number": season_number,
            "by_season": night_settled_by_season(table=table) is not None,
            "has_computers": table.seats.exclude(computer="").exists(),
            "has_prizes": report.by_places and any(line.prize is not None for line in report.players),
            "ended_by_host": table_ended_by_host(table),
        },
    )


@_guest_or_login
def table_report_csv(request: HttpRequest, code: str) -> HttpResponse:
    table = _table_for(request, code)
    report = ledger_report(table=table)
    money = not report.is_zero_value
    # The currency the host chose ("" when none): a column of its own, so a spreadsheet
    # that adds up several nights never mixes rupees and dollars unseen.
    currency = table_currency(table)
    header: list[object] = [_("Player"), _("Buy-ins"), _("Chips bought"), _("Chips at the end"), _("Net chips")]
    # A hold'em pool shared by places (issue 25): each place and prize beside the chips. Every
    # other table's columns stay as they were.
    places = report.by_places and any(line.prize is not None for line in report.players)
    if places:
        header += [_("Place"), _("Prize")]
    if money and report.costs:  # a kitchen night's shared costs: the chips' result, then the costs apart
        header += [_("Bought for"), _("Chips"), _("Share of costs"), _("Paid for costs"), _("Net"), _("Currency")]
    elif money:
        header += [_("Bought for"), _("Net"), _("Currency")]
    rows: list[list[object]] = [header]
    for line in report.players:
        row: list[object] = [line.name, line.buy_ins, line.chips_bought, line.chips_end, line.net_chips]
        if places:
            row += [line.place or "", line.prize if line.prize is not None else ""]
        if money:
            # No result yet (chips in a hand, a pool not yet paid by places): the Net cell is
            # empty, as on the page, never a 0.00 nobody won.
            row.append(line.paid)
            if report.costs:
                row += ["" if report.error else line.net_money, line.cost_share, line.costs_paid]
            row += ["" if report.error else line.net, currency]
        rows.append(row)
    # A night paid with its season lists no transfers of its own, as its page does not: the
    # season's settle-up pays it (listing them here would have a host collect twice).
    if money and report.transfers and night_settled_by_season(table=table) is None:
        rows.append([])
        # Who marked it, as the page names them beside "Paid".
        rows.append([_("From"), _("To"), _("Amount"), _("Currency"), _("Paid"), _("Marked by")])
        for transfer in report.transfers:
            rows.append(
                [
                    transfer.payer_name,
                    transfer.payee_name,
                    transfer.amount,
                    currency,
                    _("yes") if transfer.paid else _("no"),
                    transfer.marked_by_name if transfer.paid else "",
                ]
            )
    csv_corrections(rows, ledger_corrections(tables=[table]), money=money, currency=currency)
    return csv_response(f"dashain-{slugify(table.code)}-settlement.csv", rows)


def csv_corrections(rows: list[list[object]], corrections: list[LedgerEntry], *, money: bool, currency: str) -> None:
    """The corrections below a CSV: whose entry, what it was, the reason and who made it."""
    if not corrections:
        return
    rows.append([])
    header: list[object] = [_("Correction"), _("Table"), _("Player"), _("Entry"), _("Chips")]
    if money:
        header += [_("Price"), _("Currency")]
    rows.append([*header, _("Reason"), _("Corrected by"), _("Time")])
    for correction in corrections:
        assert correction.reverses is not None  # a correction is a reversal
        row: list[object] = [
            _("Reversed"),
            correction.table.code,
            correction.player_name,
            correction.reverses.get_kind_display(),
            correction.chips,
        ]
        if money:
            row += [correction.price, currency]
        by = correction.recorded_by.table_name if correction.recorded_by else ""
        rows.append([*row, correction.note, by, correction.created_at.isoformat(timespec="seconds")])


@login_required
@require_http_methods(["GET", "POST"])
def table_correct(request: HttpRequest, code: str) -> HttpResponse:
    """The host reverses a mistaken buy-in or buy-back, with a reason (``ledger_correct_buy_in``).
    Someone who may read the report but is not the host gets a 403; anyone else a 404."""
    table = _table_for(request, code)
    user = signed_in(request)
    if table.host_id != user.pk:
        raise PermissionDenied(_("Only the table's host can correct its buy-ins."))
    form = CorrectionForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        entry = get_object_or_404(LedgerEntry, pk=form.cleaned_data["entry"], table=table)
        try:
            night_correct_buy_in(table=table, entry=entry, reason=form.cleaned_data["reason"], by=user)
        except LedgerError as error:
            messages.error(request, error.message)
        else:
            messages.success(request, _("The entry is reversed; everyone at the table sees why and by whom."))
            return redirect("ledger:table_report", code=table.code)
    elif request.method == "POST":
        messages.error(request, _("Say why the entry was a mistake."))
    buys = (
        LedgerEntry.objects.filter(table=table, kind__in=(LedgerEntry.Kind.BUY_IN, LedgerEntry.Kind.BUY_BACK))
        .select_related("reversed_by")
        .order_by("id")
    )
    return render_in_viewers_zone(
        request,
        "ledger/table_correct.html",
        {
            "table": table,
            "currency": table_currency(table),
            "buys": buys,
            "corrections": ledger_corrections(tables=[table]),
            "form": CorrectionForm(),
            "is_zero_value": ledger_report(table=table).is_zero_value,
        },
    )


def _asker(request: HttpRequest) -> tuple[User | None, str]:
    """Who asks: their account (``None`` for a guest) and the guest token in their browser."""
    user = request.user if isinstance(request.user, User) else None
    return user, str(request.session.get(GUEST_TOKEN_SESSION_KEY) or "")


def transfer_rows(table: Table, report: TableReport, request: HttpRequest) -> list[TransferRow]:
    """The report's transfers, each with what the asker may do with it: mark it paid (the payer,
    the payee, the host) and take the mark back (the host, or whoever made it)."""
    by, guest_token = _asker(request)
    seats = {seat.pk: seat for seat in table.seats.all()}
    rows = []
    for transfer in report.transfers:
        marker = transfer_marker(
            table=table,
            payer_seat=seats[transfer.payer_seat_id],
            payee_seat=seats[transfer.payee_seat_id],
            by=by,
            guest_token=guest_token,
        )
        is_host = by is not None and table.host_id == by.pk
        rows.append(
            TransferRow(
                transfer=transfer,
                can_mark=bool(marker) and report.is_final,
                can_unmark=report.is_final and (is_host or (bool(marker) and transfer.marked_as == marker)),
            )
        )
    return rows


@_guest_or_login
@require_POST
def transfer_paid(request: HttpRequest, code: str) -> HttpResponse:
    """A transfer marked paid, or the mark taken back: by its payer or payee (a guest by the
    token in their browser), or the host. Anyone else who reads the report gets a 403."""
    table = _table_for(request, code)
    form = TransferPaidForm(request.POST)
    if not form.is_valid():
        messages.error(request, _("That transfer could not be found."))
        return redirect("ledger:table_report", code=table.code)
    payer = get_object_or_404(Seat, pk=form.cleaned_data["payer"], table=table)
    payee = get_object_or_404(Seat, pk=form.cleaned_data["payee"], table=table)
    by, guest_token = _asker(request)
    try:
        if form.cleaned_data["paid"]:
            night_transfer_mark_paid(
                table=table,
                payer_seat=payer,
                payee_seat=payee,
                amount=form.cleaned_data["amount"],
                by=by,
                guest_token=guest_token,
            )
        else:
            transfer_unmark_paid(table=table, payer_seat=payer, payee_seat=payee, by=by, guest_token=guest_token)
    except LedgerError as error:
        if error.code == "not_party":
            raise PermissionDenied(str(error.message)) from error
        messages.error(request, error.message)
    return redirect("ledger:table_report", code=table.code)
