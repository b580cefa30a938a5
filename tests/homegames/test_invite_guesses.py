"""A home game's invite link is a secret like a table's: a wrong one counts as a failed guess
of the address, on the join pages' counter (``config.limits.GUESSES``). Past the
limit every wrong link, table or home game, is answered 429 with ``Retry-After`` (the
seconds until the address's window ends); the real link still lets the next friend in."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from config.limits import GUESSES, MAX_FAILED_JOINS, WINDOW_SECONDS
from homegames.models import HomeGame
from tests.homegames.test_feed_limits import address, clock, refused  # noqa: F401 (fixtures)
from tests.homegames.test_late_invitations import newcomer
from tests.homegames.test_notices import group  # noqa: F401 (fixture)

pytestmark = pytest.mark.django_db


def join_url(token: str) -> str:
    return reverse("ledger:home_game_join", kwargs={"token": token})


def signed_in(address: str, name: str) -> Client:  # noqa: F811
    client = Client(REMOTE_ADDR=address)
    client.force_login(newcomer(name))
    return client


def test_wrong_invite_links_count_as_guesses_and_the_real_one_still_joins(group, address, clock):  # noqa: F811
    home_game, _host, _members, _template = group
    guesser = signed_in(address, "esha")
    wrong = home_game.invite_token[:-1] + ("A" if home_game.invite_token[-1] != "A" else "B")
    for _attempt in range(MAX_FAILED_JOINS):
        assert guesser.get(join_url(wrong)).status_code == 404
    assert GUESSES.retry_after(address) == WINDOW_SECONDS
    # Past the limit: 429 with the seconds left, for a wrong home-game link and a wrong table code alike.
    clock.at += 100
    refused_link = guesser.get(join_url(wrong))
    assert refused(refused_link) == WINDOW_SECONDS - 100
    assert b"Too many tries from here." in refused_link.content
    assert refused(guesser.get(reverse("table_join", kwargs={"code": "NOSUCH"}))) == WINDOW_SECONDS - 100
    # A refusal counts nothing and joins no one; the real link, from the same house, still joins.
    assert not home_game.members.filter(username="esha").exists()
    friend = signed_in(address, "farid")
    assert friend.get(join_url(home_game.invite_token)).status_code == 200
    assert friend.post(join_url(home_game.invite_token)).status_code == 302
    assert HomeGame.objects.get(pk=home_game.pk).members.filter(username="farid").exists()
    # Once the window is over, a wrong link is a plain 404 again.
    clock.at += WINDOW_SECONDS
    assert guesser.get(join_url(wrong)).status_code == 404


def test_a_refused_table_join_says_when_to_try_again(address, clock):  # noqa: F811
    client = Client(REMOTE_ADDR=address)
    for attempt in range(MAX_FAILED_JOINS):  # refused (403), not yet limited
        assert client.get(reverse("table_join", kwargs={"code": f"TYPO{attempt:02d}"})).status_code == 403
    clock.at += 250
    for url, params in (
        (reverse("table_join", kwargs={"code": "NOSUCH"}), None),
        (reverse("table_join_by_code"), {"code": "NOSUCH"}),
    ):
        response = client.get(url, params)
        assert refused(response) == WINDOW_SECONDS - 250, url
