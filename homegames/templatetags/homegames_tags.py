"""``{% tonight_tables %}``: the open tables of the nights the viewer is coming to (the home
page and the lobby); ``{% night_when night zone %}``: a night's start in the viewer's zone;
``{% night_title night %}``: a night's name on the home game's and the seasons' pages;
``{% viewers_day moment as name %}``: a moment's day in the viewer's zone (a season's closing);
``{% viewers_zone as name %}``: the viewer's zone, for ``{% timezone %}`` (a kitchen night's record)."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from django import template
from django.contrib.auth.models import AnonymousUser
from django.utils import timezone
from django.utils.formats import date_format

from homegames.models import MemberPrefs, Night
from homegames.selectors import shown_zone, tonights_tables_for, user_zone

register = template.Library()


@register.inclusion_tag("homegames/_tonight.html", takes_context=True)
def tonight_tables(context: dict[str, Any]) -> dict[str, Any]:
    request = context.get("request")
    user = getattr(request, "user", None)
    nights = tonights_tables_for(user=user) if user is not None and user.is_authenticated else []
    return {"nights": nights, "csrf_token": context.get("csrf_token")}


@register.inclusion_tag("homegames/_night_when.html", takes_context=True)
def night_when_here(context: dict[str, Any], night: Any) -> dict[str, Any]:
    """The start in the viewer's own zone (the signed-in person of the page's request)."""
    return night_when(night, _viewers_zone(context))


@register.inclusion_tag("homegames/_night_when.html")
def night_when(night: Any, zone: Any) -> dict[str, Any]:
    """The start in ``zone``; in UTC, and saying so, where ``zone`` cannot hold it."""
    shown = shown_zone(night.starts_at, zone)
    return {"night": night, "shown": shown, "in_utc": shown is not zone}


@register.inclusion_tag("homegames/_night_title.html", takes_context=True)
def night_title(context: dict[str, Any], night: Night) -> dict[str, Any]:
    """A night's name, in the viewer's zone: its planned start (weekday, date, time) and place
    when it was planned; else the weekday and date its table opened (a table added after the
    fact), and whether it was played at the kitchen table or online."""
    zone = _viewers_zone(context)
    if night.starts_at is not None:
        return {"when": night_when(night, zone), "place": night.place}
    opened = night.table.created_at if night.table is not None else night.created_at
    kitchen = night.table is not None and bool(night.table.settings.get("not_dealt"))
    return {"opened": opened, "shown": shown_zone(opened, zone), "kitchen": kitchen}


@register.inclusion_tag("homegames/_zone_prompt.html", takes_context=True)
def zone_prompt(context: dict[str, Any]) -> dict[str, Any]:
    """For a signed-in person who has not chosen a time zone: the browser's zone (read by
    ``static/js/zone_prompt.js`` with the Intl API) proposed, to confirm with one button or
    to choose another. Nothing for anyone else."""
    request = context.get("request")
    user = getattr(request, "user", None)
    show = user is not None and user.is_authenticated and not MemberPrefs.objects.filter(user=user).exists()
    return {"show": show, "next": request.get_full_path() if request else "", "csrf_token": context.get("csrf_token")}


@register.simple_tag(takes_context=True)
def viewers_day(context: dict[str, Any], moment: datetime) -> str:
    """``moment``'s day in the viewer's zone (Django's ``DATE_FORMAT``): a season closed just
    after midnight in Kathmandu closed on that day there, whatever the day in UTC."""
    zone = shown_zone(moment, _viewers_zone(context))
    return date_format(timezone.localtime(moment, zone), "DATE_FORMAT")


@register.simple_tag(takes_context=True)
def viewers_zone(context: dict[str, Any]) -> Any:
    """The viewer's zone (their calendar settings', UTC until they choose one)."""
    return _viewers_zone(context)


def _viewers_zone(context: Any) -> Any:
    """The viewer's zone (``selectors.user_zone``), read once a page: the tags above run once
    a night or a season on the home game's and the seasons' pages."""
    cache = context.render_context
    if _ZONE not in cache:
        request = context.get("request")
        cache[_ZONE] = user_zone(getattr(request, "user", None) or AnonymousUser())
    return cache[_ZONE]


_ZONE = "homegames_tags.viewers_zone"
