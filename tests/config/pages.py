"""Every page of the site, for the tests that look at all of them (test_csp, test_hostile_names).

:func:`page_urls` walks the project's URL patterns (the admin's own excepted, whose index and
our models' lists are added) and fails on a URL parameter it has no value for, so a new
page is covered the day it is added.
"""

from __future__ import annotations

import random
import re

from django.urls import URLPattern, URLResolver, get_resolver, reverse

from homegames.models import HomeGame, Night
from tables.models import Hand
from tables.services import hand_act
from tests.tables.conftest import current_turn, end_game, open_table, random_action

ADMIN_PAGES = 4  # the last entries of page_urls()


def routes(resolver=None, prefix: str = ""):
    """(route text, name) of every page pattern outside the admin."""
    resolver = resolver or get_resolver()
    for pattern in resolver.url_patterns:
        if isinstance(pattern, URLResolver):
            if pattern.app_name == "admin":
                continue
            yield from routes(pattern, prefix + str(pattern.pattern))
        elif isinstance(pattern, URLPattern):
            yield prefix + str(pattern.pattern), pattern.name


def fill(route: str, values: dict[str, str]) -> str:
    def value(match: re.Match) -> str:
        name = match.group(2)
        assert name in values, f"tests/config/pages.py: give a value for <{name}> in {route!r}"
        return values[name]

    return "/" + re.sub(r"<(?:(\w+):)?(\w+)>", value, route)


def site_with_a_played_game() -> dict:
    """A host who played a few hands of an ended game, kept as one night of a home game."""
    table, seats = open_table("faras", players=3)
    rng = random.Random(4)
    by_name = {seat.engine_name: seat for seat in seats}
    for _step in range(200):
        player, legal = current_turn(table)
        if player is None or Hand.objects.filter(table=table, ended_at__isnull=False).count() >= 2:
            break
        verb, amount = random_action(rng, legal)
        hand_act(table_id=table.pk, seat_id=by_name[player].pk, verb=verb, amount=amount)
    end_game(table, seats[0].pk)
    host = seats[0].user
    home_game = HomeGame.objects.create(name="Friday Faras", host=host)
    Night.objects.create(home_game=home_game, table=table)
    return {"table": table, "host": host, "home_game": home_game}


def page_urls(site) -> list[str]:
    values = {
        "code": site["table"].code,
        "invite_token": site["table"].invite_token,
        "number": "1",
        "home_game_id": str(site["home_game"].pk),
        "uidb64": "MQ",
        "token": "set-password",
        # The home game's pages for one transfer, payment, member, seat, claim or night: none exists
        # here, so these answer 404 (or 405 to a GET): the policy and escaping still hold.
        "transfer_id": "1",
        "payment_id": "1",
        "user_id": str(site["host"].pk),
        "seat_id": "1",
        "claim_id": "1",
        "night_id": "1",
        "key": "0" * 32,  # a guest's seat link (a wrong key: the refusal page)
    }
    urls = [fill(route, values) for route, _name in routes()]
    urls += [
        reverse("admin:index"),
        reverse("admin:tables_table_changelist"),
        reverse("admin:tables_event_changelist"),
        reverse("admin:ledger_ledgerentry_changelist"),
    ]
    return urls
