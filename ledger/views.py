"""Pages of the ledger: a table's settlement report (and CSV, and marking transfers paid),
home games (list, create, a night added, standings and CSV). Thin: they check access,
call a selector or service, and render.

Access: a table's report is for its host, anyone who had a seat there (a guest too, by
the token in their session), and the members of its home game; a home game's pages
are for its host and members. Anyone else gets a 404, so a table's code or a group's
number reveals nothing.
"""

from __future__ import annotations

import csv
from collections.abc import Callable
from functools import wraps
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.text import slugify
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST

from accounts.models import User
from accounts.names import name_visible
from config.confirm import confirm_page, confirmed
from config.limits import join_attempt_failed, join_retry_after
from ledger.chart import chart_build
from ledger.forms import (
    AddTableForm,
    CorrectionForm,
    HomeGameForm,
    JoinEmailForm,
    SeasonTransferPaidForm,
    SettleByForm,
    TransferPaidForm,
)
from ledger.models import HomeGame, HomeGameNight, LedgerEntry, Season, SeasonTransfer, SeatClaim
from ledger.selectors import (
    claimable_seats,
    home_game_for_invite,
    home_game_results,
    home_games_for_user,
    ledger_corrections,
    ledger_entries,
    ledger_report,
    night_settled_by_season,
    season_closed,
    season_open,
    season_unpaid,
    standings_running,
    user_can_view_home_game,
    user_can_view_table_report,
)
from ledger.services import (
    LedgerError,
    home_game_add_table,
    home_game_create,
    home_game_invite_replace,
    home_game_join,
    home_game_remove_member,
    home_game_set_co_host,
    home_game_set_settle_by,
    ledger_correct_buy_in,
    season_close,
    season_transfer_mark_paid,
    seat_claim_answer,
    seat_claim_make,
    transfer_mark_paid,
    transfer_unmark_paid,
)
from tables.guests import GUEST_TOKEN_SESSION_KEY
from tables.models import Event, Seat, Table, table_currency


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


def _signed_in(request: HttpRequest) -> User:
    """The player of a ``@login_required`` view."""
    user = request.user
    assert isinstance(user, User)  # @login_required sent anyone else to log in
    return user


def _home_game_for(request: HttpRequest, home_game_id: int) -> HomeGame:
    home_game = get_object_or_404(HomeGame, pk=home_game_id)
    if not user_can_view_home_game(user=request.user, home_game=home_game):
        raise Http404
    return home_game


def _safe_cell(value: object) -> object:
    """Keep a spreadsheet from running a name as a formula (CSV injection): judged by its
    first character as a spreadsheet sees it, after NFKC and without invisible characters
    or leading spaces (a zero-width space before "=" hides nothing)."""
    if not isinstance(value, str):
        return value
    formula_start = ("=", "+", "-", "@", "\t", "\r")
    if value[:1] in formula_start or name_visible(value).lstrip(" \u00a0")[:1] in formula_start:
        return "'" + value
    return value


def _csv_response(filename: str, rows: list[list[object]]) -> HttpResponse:
    response = HttpResponse(content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    writer = csv.writer(response)
    for row in rows:
        writer.writerow([_safe_cell(cell) for cell in row])
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


@_guest_or_login
def table_report(request: HttpRequest, code: str) -> HttpResponse:
    table = _table_for(request, code)
    report = ledger_report(table=table)
    night = HomeGameNight.objects.filter(table=table).select_related("home_game", "season").first()
    # The season whose settle-up holds this night: the closed one it was settled in, else the
    # open one (a night counts in the season open when its game ends: docs/ledger.md).
    season_number = None
    if night is not None:
        season_number = night.season.number if night.season else night.home_game.seasons.count() + 1
    return render(
        request,
        "ledger/table_report.html",
        {
            "table": table,
            "currency": table_currency(table),
            "report": report,
            "entries": ledger_entries(table=table),
            "corrections": ledger_corrections(tables=[table]),
            "is_host": request.user.is_authenticated and table.host_id == request.user.pk,
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
    if money:
        header += [_("Bought for"), _("Net"), _("Currency")]
    rows: list[list[object]] = [header]
    for line in report.players:
        row: list[object] = [line.name, line.buy_ins, line.chips_bought, line.chips_end, line.net_chips]
        if places:
            row += [line.place or "", line.prize if line.prize is not None else ""]
        if money:
            # No result yet (chips in a hand, a pool not yet paid by places): the Net cell is
            # empty, as on the page, never a 0.00 nobody won.
            row += [line.paid, "" if report.error else line.net_money, currency]
        rows.append(row)
    # A night paid with its season lists no transfers of its own, as its page does not: the
    # season's settle-up pays it (listing them here would have a host collect twice).
    if money and report.transfers and night_settled_by_season(table=table) is None:
        rows.append([])
        rows.append([_("From"), _("To"), _("Amount"), _("Currency"), _("Paid")])
        for transfer in report.transfers:
            rows.append(
                [
                    transfer.payer_name,
                    transfer.payee_name,
                    transfer.amount,
                    currency,
                    _("yes") if transfer.paid else _("no"),
                ]
            )
    _csv_corrections(rows, ledger_corrections(tables=[table]), money=money, currency=currency)
    return _csv_response(f"dashain-{slugify(table.code)}-settlement.csv", rows)


def _csv_corrections(rows: list[list[object]], corrections: list[LedgerEntry], *, money: bool, currency: str) -> None:
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
    user = _signed_in(request)
    if table.host_id != user.pk:
        raise PermissionDenied(_("Only the table's host can correct its buy-ins."))
    form = CorrectionForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        entry = get_object_or_404(LedgerEntry, pk=form.cleaned_data["entry"], table=table)
        try:
            ledger_correct_buy_in(table=table, entry=entry, reason=form.cleaned_data["reason"], by=user)
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
    return render(
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


@login_required
@require_POST
def transfer_paid(request: HttpRequest, code: str) -> HttpResponse:
    table = _table_for(request, code)
    if table.host_id != request.user.pk:
        raise PermissionDenied(_("Only the host can mark a transfer paid."))
    form = TransferPaidForm(request.POST)
    if not form.is_valid():
        messages.error(request, _("That transfer could not be found."))
        return redirect("ledger:table_report", code=table.code)
    payer = get_object_or_404(Seat, pk=form.cleaned_data["payer"], table=table)
    payee = get_object_or_404(Seat, pk=form.cleaned_data["payee"], table=table)
    try:
        if form.cleaned_data["paid"]:
            transfer_mark_paid(
                table=table,
                payer_seat=payer,
                payee_seat=payee,
                amount=form.cleaned_data["amount"],
                by=_signed_in(request),
            )
        else:
            transfer_unmark_paid(table=table, payer_seat=payer, payee_seat=payee, by=_signed_in(request))
    except LedgerError as error:
        messages.error(request, error.message)
    return redirect("ledger:table_report", code=table.code)


@login_required
def home_game_list(request: HttpRequest) -> HttpResponse:
    home_games = home_games_for_user(user=_signed_in(request)).select_related("host")
    return render(request, "ledger/home_game_list.html", {"home_games": home_games})


@login_required
@require_http_methods(["GET", "POST"])
def home_game_new(request: HttpRequest) -> HttpResponse:
    form = HomeGameForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            home_game = home_game_create(name=form.cleaned_data["name"], host=_signed_in(request))
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
    return render(request, "ledger/home_game_form.html", {"form": form})


@login_required
def home_game_detail(request: HttpRequest, home_game_id: int) -> HttpResponse:
    home_game = _home_game_for(request, home_game_id)
    nights, standings = home_game_results(home_game=home_game)
    all_chips = bool(nights) and all(night.report.is_zero_value for night in nights)
    labels, series, _in_chips = standings_running(home_game=home_game, nights=nights)
    return render(
        request,
        "ledger/home_game_detail.html",
        {
            "home_game": home_game,
            "nights": nights,
            "standings": standings,
            "chart": chart_build(series, labels),
            "chips_only": all_chips,
            "is_host": home_game.host_id == request.user.pk,
            "season": season_open(home_game=home_game),
            "corrections": ledger_corrections(
                tables=[
                    night.table
                    for night in HomeGameNight.objects.filter(home_game=home_game, season__isnull=True).select_related(
                        "table"
                    )
                ]
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
            "claimable": claimable_seats(home_game=home_game),
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
        table = night.night.table
        day = table.created_at.date().isoformat()
        currency = "" if night.report.is_zero_value else table_currency(table)
        for line in night.report.players:
            net = "" if night.report.error else line.net_money  # as the page: no result yet
            rows.append([day, table.code, line.name, line.buy_ins, line.chips_end, line.net_chips, net, currency])
    return _csv_response(f"dashain-{slugify(home_game.name) or 'home-game'}-standings.csv", rows)


@login_required
@require_http_methods(["GET", "POST"])
def home_game_add(request: HttpRequest, home_game_id: int) -> HttpResponse:
    home_game = _home_game_for(request, home_game_id)
    if home_game.host_id != request.user.pk:
        raise PermissionDenied(_("Only the home game's host can add a night."))
    tables = Table.objects.filter(host=_signed_in(request), home_game_night__isnull=True).order_by("-created_at")
    form = AddTableForm(request.POST or None, tables=tables)
    if request.method == "POST" and form.is_valid():
        try:
            home_game_add_table(home_game=home_game, table=form.cleaned_data["table"], by=_signed_in(request))
        except LedgerError as error:
            form.add_error("table", error.message)
        else:
            messages.success(request, _("The table now counts as a night of this home game."))
            return redirect("ledger:home_game_detail", home_game_id=home_game.pk)
    return render(request, "ledger/home_game_add_table.html", {"home_game": home_game, "form": form})


# --- Seasons ----------------------------------------------------------------------------


def _host_only(request: HttpRequest, home_game: HomeGame, message: str) -> User:
    """The host of ``home_game`` (members get a 403, others already had a 404)."""
    user = _signed_in(request)
    if home_game.host_id != user.pk:
        raise PermissionDenied(message)
    return user


@login_required
def season_detail(request: HttpRequest, home_game_id: int, number: int) -> HttpResponse:
    home_game = _home_game_for(request, home_game_id)
    season = get_object_or_404(Season, home_game=home_game, number=number)
    return render(
        request,
        "ledger/season_detail.html",
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
            "corrections": ledger_corrections(
                tables=[night.table for night in HomeGameNight.objects.filter(season=season).select_related("table")]
            ),
        },
    )


@login_required
def season_csv(request: HttpRequest, home_game_id: int, number: int | None = None) -> HttpResponse:
    """The season's settle-up as CSV: each person's net, the transfers with their paid
    marks, and the corrections of its nights (the open season without ``number``)."""
    home_game = _home_game_for(request, home_game_id)
    if number is None:
        view = season_open(home_game=home_game)
        tables = [
            night.table
            for night in HomeGameNight.objects.filter(home_game=home_game, season__isnull=True).select_related("table")
        ]
    else:
        season = get_object_or_404(Season, home_game=home_game, number=number)
        view = season_closed(season=season)
        tables = [night.table for night in HomeGameNight.objects.filter(season=season).select_related("table")]
    rows: list[list[object]] = [[_("Player"), _("Nights"), _("Net"), _("Net chips"), _("Currency")]]
    for person in view.people:
        rows.append([person.name, person.nights, person.net_money, person.net_chips, view.currency])
    if view.transfers:
        rows.append([])
        rows.append([_("From"), _("To"), _("Amount"), _("Currency"), _("Paid")])
        for transfer in view.transfers:
            paid = _("yes") if transfer.paid else _("no")
            rows.append([transfer.payer_name, transfer.payee_name, transfer.amount, view.currency, paid])
    _csv_corrections(rows, ledger_corrections(tables=tables), money=True, currency=view.currency)
    name = slugify(home_game.name) or "home-game"
    return _csv_response(f"dashain-{name}-season-{view.number}.csv", rows)


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
    user = _signed_in(request)
    transfer = get_object_or_404(SeasonTransfer, pk=transfer_id, season__home_game=home_game)
    form = SeasonTransferPaidForm(request.POST)
    form.is_valid()  # a boolean: anything but a true value means "not paid"
    try:  # the host, the payer or the payee (the service checks)
        season_transfer_mark_paid(transfer=transfer, paid=form.cleaned_data.get("paid", False), by=user)
    except LedgerError as error:
        raise PermissionDenied(error.message) from error
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
            response = render(request, "ledger/home_game_join.html", {"too_many": True}, status=429)
            response["Retry-After"] = str(wait)
            return response
        join_attempt_failed(request)
        raise Http404
    if not request.user.is_authenticated:
        if request.method == "POST":
            return redirect_to_login(request.get_full_path())
        return render(request, "ledger/home_game_join.html", {"home_game": home_game, "next": request.path})
    user = _signed_in(request)
    if user_can_view_home_game(user=user, home_game=home_game):
        return redirect("ledger:home_game_detail", home_game_id=home_game.pk)
    form = JoinEmailForm(request.POST if request.method == "POST" else None) if not user.email else None
    if request.method == "POST" and (form is None or form.is_valid()):
        try:
            home_game_join(home_game=home_game, token=token, user=user)
        except LedgerError as error:  # the host replaced the link meanwhile
            raise Http404 from error
        if form is not None and form.cleaned_data["email"]:
            user.email = form.cleaned_data["email"]
            user.save(update_fields=["email"])
        messages.success(request, _("You are a member of %(name)s.") % {"name": home_game.name})
        return redirect("ledger:home_game_detail", home_game_id=home_game.pk)
    return render(request, "ledger/home_game_join.html", {"home_game": home_game, "form": form})


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
    seat = get_object_or_404(Seat, pk=seat_id, table__home_game_night__home_game=home_game)
    try:
        seat_claim_make(home_game=home_game, seat=seat, by=_signed_in(request))
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
    seat_claim_answer(claim=claim, confirm=request.POST.get("confirm") == "1", by=user)
    return redirect("ledger:home_game_detail", home_game_id=home_game.pk)
