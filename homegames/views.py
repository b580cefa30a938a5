"""Pages of the nights ahead. Thin: check access, call a service, render.

Access as for the home game's pages (``views_home_game``): its host and members; anyone else
gets a 404. Planning (templates, scheduling, moving, cancelling, opening the table)
is for the host and co-hosts: another member gets a 403.
"""

from __future__ import annotations

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from accounts.models import User
from config.confirm import confirm_page, confirmed
from config.limits import GUESSES, CacheLimit, client_address, secret_digest
from homegames.forms import AnswerForm, NightForm, PrefsForm, TemplateNameForm
from homegames.ics import nights_calendar
from homegames.models import HomeGame, MemberPrefs, Night, NightTemplate
from homegames.selectors import (
    TONIGHT,
    calendar_feed_nights,
    night_answers,
    night_unanswered,
    nights_ahead,
    nights_past,
    shown_zone,
    user_can_view_home_game,
    user_is_co_host,
    user_zone,
)
from homegames.services import (
    NightError,
    member_prefs_save,
    night_answer,
    night_cancel,
    night_start_local,
    night_template_save,
    night_update,
)
from homegames.services_members import calendar_feed_for, calendar_feed_replace
from homegames.services_schedule import is_plain, night_schedule_plain, template_seats
from homegames.services_tonight import night_open_table, night_opens_at, night_take_seat, night_too_early
from tables.pages.forms import GAME_CHOICES, OpenTableForm


def _user(request: HttpRequest) -> User:
    user = request.user
    assert isinstance(user, User)  # @login_required
    return user


def _home_game(request: HttpRequest, home_game_id: int) -> HomeGame:
    home_game = get_object_or_404(HomeGame, pk=home_game_id)
    if not user_can_view_home_game(user=request.user, home_game=home_game):
        raise Http404
    return home_game


def _planner(request: HttpRequest, home_game: HomeGame) -> User:
    if not user_is_co_host(user=request.user, home_game=home_game):
        raise PermissionDenied(_("Only the host or a co-host can plan nights."))
    return _user(request)


def _night(request: HttpRequest, home_game_id: int, night_id: int) -> tuple[HomeGame, Night]:
    home_game = _home_game(request, home_game_id)
    night = get_object_or_404(
        Night.objects.planned().select_related("template", "table"), pk=night_id, home_game=home_game
    )
    return home_game, night


@login_required
def night_list(request: HttpRequest, home_game_id: int) -> HttpResponse:
    home_game = _home_game(request, home_game_id)
    zone = user_zone(request.user)
    feed = calendar_feed_for(home_game=home_game, user=_user(request))
    nights = list(nights_ahead(home_game=home_game))
    rows = [{"night": night, "answers": night_answers(night=night)} for night in nights]
    past = nights_past(home_game=home_game)
    return render(
        request,
        "homegames/night_list.html",
        {
            "home_game": home_game,
            "rows": rows,
            "past": past,
            "zone": zone,
            "can_plan": user_is_co_host(user=request.user, home_game=home_game),
            "templates": NightTemplate.objects.filter(home_game=home_game),
            "feed_url": request.build_absolute_uri(reverse("homegames:feed", kwargs={"token": feed.token})),
        },
    )


@login_required
@require_http_methods(["GET", "POST"])
def template_new(request: HttpRequest, home_game_id: int) -> HttpResponse:
    home_game = _home_game(request, home_game_id)
    user = _planner(request, home_game)
    game = request.POST.get("game") or request.GET.get("game") or "faras"
    if game not in dict(GAME_CHOICES):
        game = "faras"
    name_form = TemplateNameForm(request.POST or None)
    form = OpenTableForm(request.POST or None, game=game)
    if request.method == "POST" and name_form.is_valid() and form.is_valid():
        try:
            night_template_save(
                home_game=home_game,
                name=name_form.cleaned_data["name"],
                game=game,
                choices=form.choices,
                by=user,
            )
        except NightError as error:
            name_form.add_error(None, error.message)
        else:
            messages.success(request, _("The template is saved; schedule a night with it."))
            return redirect("homegames:night_list", home_game_id=home_game.pk)
    return render(
        request,
        "homegames/template_form.html",
        {"home_game": home_game, "form": form, "name_form": name_form, "game": game, "games": GAME_CHOICES},
    )


@login_required
@require_http_methods(["GET", "POST"])
def night_new(request: HttpRequest, home_game_id: int) -> HttpResponse:
    home_game = _home_game(request, home_game_id)
    user = _planner(request, home_game)
    zone = user_zone(user)
    own = [template for template in NightTemplate.objects.filter(home_game=home_game) if not is_plain(template)]
    form = NightForm(request.POST or None, templates=own, games=GAME_CHOICES)
    if request.method == "POST" and form.is_valid():
        chosen = form.cleaned_data["template"]  # a template, or a game with its usual settings
        template, game = (chosen, "") if isinstance(chosen, NightTemplate) else (None, chosen)
        try:
            night = night_schedule_plain(
                home_game=home_game,
                template=template,
                game=game,
                game_name=str(dict(GAME_CHOICES).get(game, game)),
                starts_at=night_start_local(day=form.cleaned_data["date"], at=form.cleaned_data["time"], zone=zone),
                time_zone=str(zone),
                place=form.cleaned_data["place"],
                seat_limit=form.cleaned_data["seat_limit"],
                by=user,
            )
        except NightError as error:
            form.add_error(None, error.message)
        else:
            messages.success(request, _("The night is on the calendar."))
            return redirect("homegames:night_detail", home_game_id=home_game.pk, night_id=night.pk)
    return render(
        request, "homegames/night_form.html", {"home_game": home_game, "form": form, "zone": zone, "own": own}
    )


@login_required
@require_http_methods(["GET", "POST"])
def night_edit(request: HttpRequest, home_game_id: int, night_id: int) -> HttpResponse:
    home_game, night = _night(request, home_game_id, night_id)
    user = _planner(request, home_game)
    zone = user_zone(user)
    local = timezone.localtime(night.start, shown_zone(night.start, zone))
    form = NightForm(
        request.POST or None,
        templates=[night.plan_template],
        initial={
            "date": local.date(),
            "time": local.time().replace(second=0, microsecond=0),
            "place": night.place,
            "template": str(night.template_id),
            "seat_limit": night.seat_limit,
        },
    )
    if request.method == "POST" and form.is_valid():
        try:
            night_update(
                night=night,
                starts_at=night_start_local(day=form.cleaned_data["date"], at=form.cleaned_data["time"], zone=zone),
                place=form.cleaned_data["place"],
                seat_limit=form.cleaned_data["seat_limit"] or template_seats(night.plan_template),
                by=user,
            )
        except NightError as error:
            form.add_error(None, error.message)
        else:
            messages.success(request, _("The night is changed; everyone who answered is told."))
            return redirect("homegames:night_detail", home_game_id=home_game.pk, night_id=night.pk)
    return render(
        request, "homegames/night_form.html", {"home_game": home_game, "form": form, "zone": zone, "night": night}
    )


@login_required
def night_detail(request: HttpRequest, home_game_id: int, night_id: int) -> HttpResponse:
    home_game, night = _night(request, home_game_id, night_id)
    answers = night_answers(night=night)
    mine = answers.by_user.get(_user(request).pk)
    is_past = night.is_played or night.start < timezone.now() - TONIGHT
    too_early = not is_past and night_too_early(night)
    zone = user_zone(request.user)
    opens_at = night_opens_at(night) if too_early else None
    return render(
        request,
        "homegames/night_detail.html",
        {
            "home_game": home_game,
            "night": night,
            "answers": answers,
            "unanswered": night_unanswered(night=night, answers=answers),
            "mine": answers.place_of(_user(request).pk),
            "my_reply": mine.reply if mine else "",
            "answer_form": AnswerForm(initial={"comment": mine.comment if mine else ""}),
            "zone": zone,
            "can_plan": user_is_co_host(user=request.user, home_game=home_game),
            "can_answer": not night.is_cancelled and not night.is_played and night.start > timezone.now(),
            "is_past": is_past,
            "too_early": too_early,
            "opens_at": opens_at,
            "opens_zone": shown_zone(opens_at, zone) if opens_at else zone,
        },
    )


def _back(home_game: HomeGame, night: Night) -> HttpResponse:
    return redirect("homegames:night_detail", home_game_id=home_game.pk, night_id=night.pk)


@login_required
@require_POST
def night_answer_view(request: HttpRequest, home_game_id: int, night_id: int) -> HttpResponse:
    home_game, night = _night(request, home_game_id, night_id)
    form = AnswerForm(request.POST)
    if not form.is_valid():
        messages.error(request, _("Answer yes, maybe or no, with at most 100 characters of comment."))
        return _back(home_game, night)
    try:  # always the signed-in member's own answer: no field names another
        night_answer(
            night=night, user=_user(request), reply=form.cleaned_data["reply"], comment=form.cleaned_data["comment"]
        )
    except NightError as error:
        messages.error(request, error.message)
    return _back(home_game, night)


@login_required
@require_POST
def night_cancel_view(request: HttpRequest, home_game_id: int, night_id: int) -> HttpResponse:
    home_game, night = _night(request, home_game_id, night_id)
    user = _planner(request, home_game)
    if not confirmed(request):
        return confirm_page(
            request,
            title=_("Cancel the night?"),
            explanation=_(
                "Everyone who answered gets an e-mail that the night is cancelled. A cancelled night cannot be "
                "brought back; you would schedule a new one."
            ),
            button=_("Yes, cancel the night"),
            back_url=reverse("homegames:night_detail", kwargs={"home_game_id": home_game.pk, "night_id": night.pk}),
        )
    try:
        night_cancel(night=night, by=user)
    except NightError as error:
        messages.error(request, error.message)
    else:
        messages.success(request, _("The night is cancelled; everyone who answered is told."))
    return _back(home_game, night)


@login_required
@require_POST
def night_open_view(request: HttpRequest, home_game_id: int, night_id: int) -> HttpResponse:
    home_game, night = _night(request, home_game_id, night_id)
    user = _planner(request, home_game)
    try:
        table = night_open_table(night=night, by=user)
    except NightError as error:
        messages.error(request, error.message)
        return _back(home_game, night)
    return redirect("table_detail", code=table.code)


@login_required
@require_POST
def night_sit_view(request: HttpRequest, home_game_id: int, night_id: int) -> HttpResponse:
    home_game, night = _night(request, home_game_id, night_id)
    try:
        night_take_seat(night=night, user=_user(request))
    except NightError as error:
        messages.error(request, error.message)
        return _back(home_game, night)
    assert night.table is not None  # night_take_seat refuses a night with no table
    return redirect("table_detail", code=night.table.code)


@login_required
@require_http_methods(["GET", "POST"])
def prefs(request: HttpRequest) -> HttpResponse:
    user = _user(request)
    prefs = MemberPrefs.objects.filter(user=user).first()
    initial = {"time_zone": str(user_zone(user)), "reminders": prefs.reminders if prefs else True}
    form = PrefsForm(request.POST or None, initial=initial)
    back = _safe_next(request)
    if request.method == "POST" and form.is_valid():
        member_prefs_save(user=user, time_zone=form.cleaned_data["time_zone"], reminders=form.cleaned_data["reminders"])
        messages.success(request, _("Your calendar settings are saved."))
        return redirect(back or "homegames:prefs")
    return render(request, "homegames/prefs.html", {"form": form, "next": back})


def _safe_next(request: HttpRequest) -> str:
    """The page to go back to after saving (``next``), if it is on this site; else ""."""
    target = request.POST.get("next") or request.GET.get("next") or ""
    if target and url_has_allowed_host_and_scheme(
        target, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    ):
        return target
    return ""


@login_required
@require_POST
def zone_confirm(request: HttpRequest) -> HttpResponse:
    """The time zone the browser proposed (``{% zone_prompt %}``), confirmed by the person:
    saved with their reminders as they were, then back to the page they were on."""
    user = _user(request)
    prefs = MemberPrefs.objects.filter(user=user).first()
    try:
        member_prefs_save(
            user=user, time_zone=request.POST.get("time_zone", ""), reminders=prefs.reminders if prefs else True
        )
    except NightError as error:
        messages.error(request, error.message)
    else:
        messages.success(request, _("Times are now shown in your time zone."))
    return redirect(_safe_next(request) or "homegames:prefs")


def _calendar_response(body: bytes, filename: str) -> HttpResponse:
    response = HttpResponse(body, content_type="text/calendar; charset=utf-8")
    response["Content-Disposition"] = f'inline; filename="{filename}"'
    return response


@login_required
@require_GET
def night_ics(request: HttpRequest, home_game_id: int, night_id: int) -> HttpResponse:
    """The night as an ``.ics`` file (members only, as the night's page)."""
    home_game, night = _night(request, home_game_id, night_id)
    body = nights_calendar([night], name=home_game.name, site_url=settings.DASHAIN_SITE_URL)
    return _calendar_response(body, f"night-{night.pk}.ics")


#: Requests a feed token, and a client address to any feed, may make in 10 minutes (the
#: window starts at the first). A phone polling every 5 minutes makes 2; see docs/home-games.md.
FEED_PER_TOKEN = CacheLimit("feed-token", 60, setting="DASHAIN_FEED_PER_TOKEN")
FEED_PER_ADDRESS = CacheLimit("feed-address", 600, setting="DASHAIN_FEED_PER_ADDRESS")


def _too_many(retry_after: int) -> HttpResponse:
    response = HttpResponse(
        _("Too many requests for calendar feeds. Try again later."),
        status=429,
        content_type="text/plain; charset=utf-8",
    )
    response["Retry-After"] = str(retry_after)
    return response


@never_cache
@require_GET
def feed(request: HttpRequest, token: str) -> HttpResponse:
    """A member's private calendar feed: no sign-in (phone calendars have none), the token
    is the key. An old, guessed or replaced token, or a removed member's, gets a 404 and
    counts as a failed guess of the address, as a wrong join link does (``GUESSES``).

    Limited with the join pages' counter (``config.limits.CacheLimit``): served
    requests count per token and per address; past either limit, or an unknown token past the
    address's guesses, the answer is 429 with ``Retry-After``, and a refusal counts nothing."""
    address = client_address(request)
    wait = FEED_PER_ADDRESS.retry_after(address)
    if wait:
        return _too_many(wait)
    found = calendar_feed_nights(token=token)
    if found is None:
        wait = GUESSES.retry_after(address)
        if wait:
            return _too_many(wait)
        GUESSES.hit(address)
        raise Http404
    digest = secret_digest(token)
    wait = FEED_PER_TOKEN.retry_after(digest)
    if wait:
        return _too_many(wait)
    FEED_PER_TOKEN.hit(digest)
    FEED_PER_ADDRESS.hit(address)
    calendar_feed, nights = found
    body = nights_calendar(nights, name=calendar_feed.home_game.name, site_url=settings.DASHAIN_SITE_URL)
    return _calendar_response(body, f"home-game-{calendar_feed.home_game_id}.ics")


@login_required
@require_POST
def feed_replace(request: HttpRequest, home_game_id: int) -> HttpResponse:
    home_game = _home_game(request, home_game_id)
    calendar_feed_replace(home_game=home_game, user=_user(request))
    messages.success(request, _("Your calendar feed has a new address; the old one no longer works."))
    return redirect("homegames:night_list", home_game_id=home_game.pk)
