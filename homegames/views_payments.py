"""Paying during an open season, at /ledger/home-games/<id>/season/...: a transfer the open
season lists marked paid (by its payer, its payee or the host), and a payment taken back
while the season is open (``homegames.services_payments``). Thin: they check access, call a
service, and go back to the home game's page. Anyone not in the home game gets a 404."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from homegames.forms import SeasonPaidForm
from homegames.models import HomeGame, SeasonPayment
from homegames.selectors import user_can_view_home_game
from homegames.services_payments import season_payment_mark, season_payment_unmark
from homegames.views_report import signed_in
from ledger.services import LedgerError


def csv_payments(rows: list[list[object]], payments: list[SeasonPayment]) -> None:
    """What was paid during the season, below its people in its CSV, as on its page: who paid
    whom, how much, and who marked it (their name, and as the payer, the payee or the host)."""
    if not payments:
        return
    rows.append([])
    rows.append([_("Paid during the season")])
    rows.append([_("From"), _("To"), _("Amount"), _("Currency"), _("Marked by"), _("As")])
    for payment in payments:
        rows.append(
            [
                payment.payer_name,
                payment.payee_name,
                payment.amount,
                payment.currency,
                payment.marked_by.table_name,
                payment.get_marked_as_display(),
            ]
        )


def _home_game(request: HttpRequest, home_game_id: int) -> HomeGame:
    home_game = get_object_or_404(HomeGame, pk=home_game_id)
    if not user_can_view_home_game(user=request.user, home_game=home_game):
        raise Http404
    return home_game


def _refused(request: HttpRequest, error: LedgerError) -> None:
    """Someone not a party to the transfer gets a 403; any other refusal is said on the page."""
    if error.code == "not_party":
        raise PermissionDenied(str(error.message)) from error
    messages.error(request, error.message)


@login_required
@require_POST
def season_paid_view(request: HttpRequest, home_game_id: int) -> HttpResponse:
    home_game = _home_game(request, home_game_id)
    form = SeasonPaidForm(request.POST)
    if not form.is_valid():
        messages.error(request, _("That transfer could not be found."))
        return redirect("ledger:home_game_detail", home_game_id=home_game.pk)
    try:
        season_payment_mark(
            home_game=home_game,
            payer_key=form.cleaned_data["payer"],
            payee_key=form.cleaned_data["payee"],
            amount=form.cleaned_data["amount"],
            by=signed_in(request),
        )
    except LedgerError as error:
        _refused(request, error)
    return redirect("ledger:home_game_detail", home_game_id=home_game.pk)


@login_required
@require_POST
def season_payment_undo_view(request: HttpRequest, home_game_id: int, payment_id: int) -> HttpResponse:
    home_game = _home_game(request, home_game_id)
    payment = get_object_or_404(SeasonPayment, pk=payment_id, home_game=home_game)
    try:
        season_payment_unmark(payment=payment, by=signed_in(request))
    except LedgerError as error:
        _refused(request, error)
    return redirect("ledger:home_game_detail", home_game_id=home_game.pk)
