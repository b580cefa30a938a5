"""``{% invite_named next as home_game %}``: the home game a home game's invite link leads to,
for the log-in and sign-up pages to name it when ``next`` is that link.

The token is checked as the join page checks it: a wrong one counts as a failed guess of
the client's address (``config.limits``), and past the limit nothing is named, so these
pages cannot be used to try tokens the join page would refuse."""

from __future__ import annotations

from typing import Any
from urllib.parse import urlsplit

from django import template
from django.urls import Resolver404, resolve

from config.limits import join_attempt_failed, join_retry_after
from homegames.models import HomeGame
from homegames.selectors import home_game_for_invite

register = template.Library()


@register.simple_tag(takes_context=True)
def invite_named(context: dict[str, Any], next_url: str | None) -> HomeGame | None:
    request = context.get("request")
    if not next_url or request is None:
        return None
    try:
        match = resolve(urlsplit(next_url).path)
    except Resolver404:
        return None
    if match.view_name != "ledger:home_game_join" or join_retry_after(request):
        return None
    home_game = home_game_for_invite(token=str(match.kwargs.get("token", "")))
    if home_game is None:
        join_attempt_failed(request)
    return home_game
