"""A home game's pages, at /ledger/home-games/ and /ledger/join/: the list, a new home game,
its page (standings, the open season, members, claimed seats), its CSV, a table added as a
night, the seasons, the invite link and the members. Thin: they check access, call a selector
or service, and render. A home game's pages are for its host and members; anyone else gets
a 404, so a group's number reveals nothing. The URL names keep the ``ledger`` namespace they
were published with (``config/urls.py``).
"""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied
from django.db import transaction
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.text import slugify
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST

from accounts.models import User
from accounts.services import email_change_tell
from config.confirm import confirm_page, confirmed
from config.limits import join_attempt_failed, join_retry_after
from homegames.chart import chart_build
from homegames.forms import AddTableForm, HomeGameForm, JoinEmailForm, SeasonTransferPaidForm, SettleByForm
from homegames.models import HomeGame, Season, SeasonTransfer, SeatClaim
from homegames.selectors import (
    claimable_seats,
    home_game_for_invite,
    home_games_for_user,
    user_can_view_home_game,
)
from homegames.selectors_seasons import (
    SeasonView,
    home_game_results,
    season_closed,
    season_open,
    season_unpaid,
    standings_running,
)
from homegames.services_members import (
    home_game_add_table,
    home_game_create,
    home_game_invite_replace,
    home_game_join,
    home_game_remove_member,
    home_game_set_co_host,
    seat_claim_answer,
    seat_claim_make,
)
from homegames.services_seasons import home_game_set_settle_by, season_close, season_transfer_mark_paid
from homegames.views_payments import csv_payments
from homegames.views_report import csv_corrections, csv_response, signed_in
from ledger.selectors import ledger_corrections
from ledger.services import LedgerError
from tables.models import Seat, Table, table_currency


def _home_game_for(request: HttpRequest, home_game_id: int) -> HomeGame:
    home_game = get_object_or_404(HomeGame, pk=home_game_id)
    if not user_can_view_home_game(user=request.user, home_game=home_game):
        raise Http404
    return home_game


@login_required
def home_game_list(request: HttpRequest) -> HttpResponse:
    home_games = home_games_for_user(user=signed_in(request)).select_related("host")
    return render(request, "homegames/home_game_list.html", {"home_games": home_games})


@login_required
@require_http_methods(["GET", "POST"])
def home_game_new(request: HttpRequest) -> HttpResponse:
    form = HomeGameForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            home_game = home_game_create(name=form.cleaned_data["name"], host=signed_in(request))
        except LedgerError as error:
            form.add_error("name", error.message)
        else:
            messages.success(
                request,
                _(
                    "Your home game is ready. Share the invite link below with your friends, then schedule "
                    "your first night under “Nights ahead”."
                ),
            )
            return redirect("ledger:home_game_detail", home_game_id=home_game.pk)
    return render(request, "homegames/home_game_form.html", {"form": form})


@login_required
def home_game_detail(request: HttpRequest, home_game_id: int) -> HttpResponse:
    home_game = _home_game_for(request, home_game_id)
    nights, standings = home_game_results(home_game=home_game)
    all_chips = bool(nights) and all(night.report.is_zero_value for night in nights)
    labels, series, _in_chips = standings_running(home_game=home_game, nights=nights)
    return render(
        request,
        "homegames/home_game_detail.html",
        {
            "home_game": home_game,
            "nights": nights,
            "standings": standings,
            "chart": chart_build(series, labels),
            "chips_only": all_chips,
            "is_host": home_game.host_id == request.user.pk,
            "season": season_open(home_game=home_game),
            "corrections": ledger_corrections(
                tables=Table.objects.filter(night__home_game=home_game, night__season__isnull=True)
            ),
            "unpaid": season_unpaid(home_game=home_game),
            "my_key": f"user:{request.user.pk}",
            "marks": _paid_marks(home_game),
            "mine_marked": set(
                SeasonTransfer.objects.filter(season__home_game=home_game, paid_by=request.user.pk).values_list(
                    "pk", flat=True
                )
            ),
            "past_seasons": home_game.seasons.order_by("-number"),
            "settle_by_form": SettleByForm(initial={"settle_by": home_game.settle_by}),
            "members": _members(home_game),
            "no_email_ids": {member.pk for member in _members(home_game) if not member.email},
            "co_host_ids": set(home_game.co_hosts.values_list("pk", flat=True)),
            "invite_url": (
                request.build_absolute_uri(reverse("ledger:home_game_join", kwargs={"token": home_game.invite_token}))
                if home_game.invite_token and home_game.host_id == request.user.pk
                else ""
            ),
            "claimable": claimable_seats(home_game=home_game, for_user=signed_in(request)),
            "claims": home_game.claims.select_related("user", "seat", "seat__table"),
        },
    )


@login_required
def home_game_csv(request: HttpRequest, home_game_id: int) -> HttpResponse:
    home_game = _home_game_for(request, home_game_id)
    nights, standings = home_game_results(home_game=home_game)
    rows: list[list[object]] = [
        [_("Player"), _("Nights"), _("Net"), _("Net chips"), _("Biggest win"), _("Biggest win in chips")]
    ]
    for standing in standings:
        rows.append(
            [
                standing.name,
                standing.nights,
                standing.net_money,
                standing.net_chips,
                standing.biggest_win_money,
                standing.biggest_win_chips,
            ]
        )
    rows.append([])
    rows.append(
        [
            _("Night"),
            _("Table"),
            _("Player"),
            _("Buy-ins"),
            _("Chips at the end"),
            _("Net chips"),
            _("Net"),
            _("Currency"),
        ]
    )
    for night in nights:
        table = night.table
        day = table.created_at.date().isoformat()
        currency = "" if night.report.is_zero_value else table_currency(table)
        for line in night.report.players:
            net = "" if night.report.error else line.net_money  # as the page: no result yet
            rows.append([day, table.code, line.name, line.buy_ins, line.chips_end, line.net_chips, net, currency])
    return csv_response(f"dashain-{slugify(home_game.name) or 'home-game'}-standings.csv", rows)


@login_required
@require_http_methods(["GET", "POST"])
def home_game_add(request: HttpRequest, home_game_id: int) -> HttpResponse:
    home_game = _home_game_for(request, home_game_id)
    if home_game.host_id != request.user.pk:
        raise PermissionDenied(_("Only the home game's host can add a night."))
    tables = Table.objects.filter(host=signed_in(request), night__isnull=True).order_by("-created_at")
    form = AddTableForm(request.POST or None, tables=tables)
    if request.method == "POST" and form.is_valid():
        try:
            home_game_add_table(home_game=home_game, table=form.cleaned_data["table"], by=signed_in(request))
        except LedgerError as error:
            form.add_error("table", error.message)
        else:
            messages.success(request, _("The table now counts as a night of this home game."))
            return redirect("ledger:home_game_detail", home_game_id=home_game.pk)
    return render(request, "homegames/home_game_add_table.html", {"home_game": home_game, "form": form})


# --- Seasons ----------------------------------------------------------------------------


def _host_only(request: HttpRequest, home_game: HomeGame, message: str) -> User:
    """The host of ``home_game`` (members get a 403, others already had a 404)."""
    user = signed_in(request)
    if home_game.host_id != user.pk:
        raise PermissionDenied(message)
    return user


@login_required
def season_detail(request: HttpRequest, home_game_id: int, number: int) -> HttpResponse:
    home_game = _home_game_for(request, home_game_id)
    season = get_object_or_404(Season, home_game=home_game, number=number)
    return render(
        request,
        "homegames/season_detail.html",
        {
            "home_game": home_game,
            "season": season_closed(season=season),
            "is_host": home_game.host_id == request.user.pk,
            "my_key": f"user:{request.user.pk}",
            "marks": _paid_marks(home_game),
            "mine_marked": set(
                SeasonTransfer.objects.filter(season__home_game=home_game, paid_by=request.user.pk).values_list(
                    "pk", flat=True
                )
            ),
            "corrections": ledger_corrections(tables=Table.objects.filter(night__season=season)),
        },
    )


@login_required
def season_csv(request: HttpRequest, home_game_id: int, number: int | None = None) -> HttpResponse:
    """The season's settle-up as CSV: each person's net, the transfers with their paid
    marks, and the corrections of its nights (the open season without ``number``)."""
    home_game = _home_game_for(request, home_game_id)
    if number is None:
        view = season_open(home_game=home_game)
        tables = Table.objects.filter(night__home_game=home_game, night__season__isnull=True)
    else:
        season = get_object_or_404(Season, home_game=home_game, number=number)
        view = season_closed(season=season)
        tables = Table.objects.filter(night__season=season)
    rows = _season_people_rows(view)
    csv_payments(rows, view.payments)
    if view.transfers:
        rows.append([])
        # Who marked it, as the page names them beside "Paid".
        rows.append([_("From"), _("To"), _("Amount"), _("Currency"), _("Paid"), _("Marked by")])
        marks = _paid_marks(home_game)
        for transfer in view.transfers:
            paid = _("yes") if transfer.paid else _("no")
            marker = marks.get(transfer.transfer_id, "") if transfer.paid and transfer.transfer_id else ""
            rows.append([transfer.payer_name, transfer.payee_name, transfer.amount, view.currency, paid, marker])
    csv_corrections(rows, ledger_corrections(tables=tables), money=True, currency=view.currency)
    name = slugify(home_game.name) or "home-game"
    return csv_response(f"dashain-{name}-season-{view.number}.csv", rows)


def _season_people_rows(view: SeasonView) -> list[list[object]]:
    """Each person's net; with shared costs, their chips' result, share of the costs and paid
    for costs before it, then each cost (a row per sharer), as the season's page shows them."""
    if not view.costs:
        rows: list[list[object]] = [[_("Player"), _("Nights"), _("Net"), _("Net chips"), _("Currency")]]
        rows.extend([p.name, p.nights, p.net_money, p.net_chips, view.currency] for p in view.people)
        return rows
    rows = [
        [
            _("Player"),
            _("Nights"),
            _("Chips"),
            _("Share of costs"),
            _("Paid for costs"),
            _("Net"),
            _("Net chips"),
            _("Currency"),
        ]
    ]
    for p in view.people:
        rows.append(
            [p.name, p.nights, p.chips_money, p.cost_share, p.costs_paid, p.net_money, p.net_chips, view.currency]
        )
    rows.append([])
    rows.append(
        [_("Night"), _("Table"), _("Cost"), _("Amount"), _("Paid by"), _("Shared by"), _("Share"), _("Currency")]
    )
    for cost in view.costs:
        table = cost.night.table
        day = table.created_at.date().isoformat()
        for name, share in cost.shares:
            rows.append([day, table.code, cost.what, cost.amount, cost.paid_by, name, share, view.currency])
    return rows


@login_required
@require_POST
def season_close_view(request: HttpRequest, home_game_id: int) -> HttpResponse:
    home_game = _home_game_for(request, home_game_id)
    user = _host_only(request, home_game, _("Only the home game's host can close a season."))
    if not confirmed(request):
        return confirm_page(
            request,
            title=_("Close the season?"),
            explanation=_(
                "The season's nets are settled into the fewest payments, and its nights can no longer be corrected."
            ),
            button=_("Yes, close the season"),
            back_url=reverse("ledger:home_game_detail", kwargs={"home_game_id": home_game.pk}),
        )
    try:
        season = season_close(home_game=home_game, by=user)
    except LedgerError as error:
        messages.error(request, error.message)
        return redirect("ledger:home_game_detail", home_game_id=home_game.pk)
    messages.success(request, _("The season is closed. A new one starts with the next night."))
    return redirect("ledger:season_detail", home_game_id=home_game.pk, number=season.number)


@login_required
@require_POST
def settle_by_view(request: HttpRequest, home_game_id: int) -> HttpResponse:
    home_game = _home_game_for(request, home_game_id)
    user = _host_only(request, home_game, _("Only the home game's host chooses how it settles up."))
    form = SettleByForm(request.POST)
    if not form.is_valid():
        messages.error(request, _("Choose night by night or once a season."))
    else:
        try:
            home_game_set_settle_by(home_game=home_game, settle_by=form.cleaned_data["settle_by"], by=user)
        except LedgerError as error:
            messages.error(request, error.message)
    return redirect("ledger:home_game_detail", home_game_id=home_game.pk)


def _paid_marks(home_game: HomeGame) -> dict[int, str]:
    """Who marked each paid season transfer of ``home_game`` (its id -> their name)."""
    marked = SeasonTransfer.objects.filter(season__home_game=home_game, paid_by__isnull=False).select_related("paid_by")
    return {transfer.pk: transfer.paid_by.table_name for transfer in marked if transfer.paid_by is not None}


@login_required
@require_POST
def season_transfer_paid(request: HttpRequest, home_game_id: int, transfer_id: int) -> HttpResponse:
    home_game = _home_game_for(request, home_game_id)
    user = signed_in(request)
    transfer = get_object_or_404(SeasonTransfer, pk=transfer_id, season__home_game=home_game)
    form = SeasonTransferPaidForm(request.POST)
    form.is_valid()  # a boolean: anything but a true value means "not paid"
    try:  # the host, the payer or the payee (the service checks)
        season_transfer_mark_paid(transfer=transfer, paid=form.cleaned_data.get("paid", False), by=user)
    except LedgerError as error:
        raise PermissionDenied(str(error.message)) from error
    if request.POST.get("next") == "season":
        return redirect("ledger:season_detail", home_game_id=home_game.pk, number=transfer.season.number)
    return redirect("ledger:home_game_detail", home_game_id=home_game.pk)


# --- Members ------------------------------------------------------------------------------


def _members(home_game: HomeGame) -> list[User]:
    return sorted(home_game.members.all(), key=lambda user: (user.pk != home_game.host_id, user.table_name.casefold()))


@require_http_methods(["GET", "POST"])
def home_game_join_view(request: HttpRequest, token: str) -> HttpResponse:
    """The invite link: shows the home game and a button to join; to someone not signed in,
    the home game and the way to sign up or log in, both coming back here (``next``).
    Someone with no e-mail address is asked for one, saying what it is for. An old or guessed link is a 404
    and counts as a failed guess of the address, as a wrong table link does
    (``config.limits``); past the limit a wrong link gets 429 with ``Retry-After``,
    and the real link is still served (a house shares one address)."""
    home_game = home_game_for_invite(token=token)
    if home_game is None:
        wait = join_retry_after(request)
        if wait:
            response = render(request, "homegames/home_game_join.html", {"too_many": True}, status=429)
            response["Retry-After"] = str(wait)
            return response
        join_attempt_failed(request)
        raise Http404
    if not request.user.is_authenticated:
        if request.method == "POST":
            return redirect_to_login(request.get_full_path())
        return render(request, "homegames/home_game_join.html", {"home_game": home_game, "next": request.path})
    user = signed_in(request)
    if user_can_view_home_game(user=user, home_game=home_game):
        return redirect("ledger:home_game_detail", home_game_id=home_game.pk)
    form = JoinEmailForm(request.POST if request.method == "POST" else None) if not user.email else None
    if request.method == "POST" and (form is None or form.is_valid()):
        try:
            home_game_join(home_game=home_game, token=token, user=user)
        except LedgerError as error:  # the host replaced the link meanwhile
            raise Http404 from error
        if form is not None and form.cleaned_data["email"]:
            with transaction.atomic():
                user.email = form.cleaned_data["email"]
                email_change_tell(user=user, before="")  # an invitation the sweep skipped meanwhile is due again
                user.save(update_fields=["email"])
        messages.success(request, _("You are a member of %(name)s.") % {"name": home_game.name})
        return redirect("ledger:home_game_detail", home_game_id=home_game.pk)
    return render(request, "homegames/home_game_join.html", {"home_game": home_game, "form": form})


@login_required
@require_POST
def invite_replace_view(request: HttpRequest, home_game_id: int) -> HttpResponse:
    home_game = _home_game_for(request, home_game_id)
    user = _host_only(request, home_game, _("Only the home game's host can replace its invite link."))
    if home_game.invite_token and not confirmed(request):
        return confirm_page(
            request,
            title=_("Replace the invite link?"),
            explanation=_(
                "The link you shared stops working at once: a friend who has not joined yet needs the new one."
            ),
            button=_("Yes, replace the link"),
            back_url=reverse("ledger:home_game_detail", kwargs={"home_game_id": home_game.pk}),
        )
    home_game_invite_replace(home_game=home_game, by=user)
    messages.success(request, _("A new invite link is ready; the old one joins no one now."))
    return redirect("ledger:home_game_detail", home_game_id=home_game.pk)


def _member_of(home_game: HomeGame, user_id: int) -> User:
    member = home_game.members.filter(pk=user_id).first()
    if member is None:
        raise Http404
    return member


@login_required
@require_POST
def member_remove_view(request: HttpRequest, home_game_id: int, user_id: int) -> HttpResponse:
    home_game = _home_game_for(request, home_game_id)
    user = _host_only(request, home_game, _("Only the home game's host can remove a member."))
    member = _member_of(home_game, user_id)
    if not confirmed(request):
        return confirm_page(
            request,
            title=_("Remove %(name)s?") % {"name": member.table_name},
            explanation=_(
                "%(name)s no longer sees the home game's pages, nights or calendar feed, and the invite link is "
                "replaced so the old one joins no one. Their past nights still count in the standings."
            )
            % {"name": member.table_name},
            button=_("Yes, remove %(name)s") % {"name": member.table_name},
            back_url=reverse("ledger:home_game_detail", kwargs={"home_game_id": home_game.pk}),
        )
    try:
        home_game_remove_member(home_game=home_game, member=member, by=user)
    except LedgerError as error:
        messages.error(request, error.message)
    else:
        messages.success(request, _("The member is removed, and the invite link was replaced."))
    return redirect("ledger:home_game_detail", home_game_id=home_game.pk)


@login_required
@require_POST
def member_co_host_view(request: HttpRequest, home_game_id: int, user_id: int) -> HttpResponse:
    home_game = _home_game_for(request, home_game_id)
    user = _host_only(request, home_game, _("Only the home game's host chooses the co-hosts."))
    try:
        home_game_set_co_host(
            home_game=home_game,
            member=_member_of(home_game, user_id),
            is_co_host=request.POST.get("co_host") == "1",
            by=user,
        )
    except LedgerError as error:
        messages.error(request, error.message)
    return redirect("ledger:home_game_detail", home_game_id=home_game.pk)


@login_required
@require_POST
def seat_claim_view(request: HttpRequest, home_game_id: int, seat_id: int) -> HttpResponse:
    home_game = _home_game_for(request, home_game_id)
    seat = get_object_or_404(Seat, pk=seat_id, table__night__home_game=home_game)
    try:
        seat_claim_make(home_game=home_game, seat=seat, by=signed_in(request))
    except LedgerError as error:
        messages.error(request, error.message)
    else:
        messages.success(request, _("Your claim is sent; it counts once the host confirms it."))
    return redirect("ledger:home_game_detail", home_game_id=home_game.pk)


@login_required
@require_POST
def seat_claim_answer_view(request: HttpRequest, home_game_id: int, claim_id: int) -> HttpResponse:
    home_game = _home_game_for(request, home_game_id)
    user = _host_only(request, home_game, _("Only the home game's host confirms a claimed seat."))
    claim = get_object_or_404(SeatClaim, pk=claim_id, home_game=home_game)
    try:
        seat_claim_answer(claim=claim, confirm=request.POST.get("confirm") == "1", by=user)
    except LedgerError as error:
        messages.error(request, error.message)
    return redirect("ledger:home_game_detail", home_game_id=home_game.pk)
