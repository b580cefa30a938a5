"""The calendar feed's limits, per token and per client address, on the join pages' counter
(``config.limits.CacheLimit``): a calendar that polls is never refused; a burst on
one token, a burst from one address across tokens, and guessed tokens are answered 429 with
``Retry-After``, and a refusal counts nothing. An unknown token is one answer, whether it
was revoked or never issued, and counts against the same guesses as a wrong join link."""

from __future__ import annotations

import random
import re

import pytest
from django.test import Client
from django.urls import reverse

from config import limits
from config.limits import GUESSES, MAX_FAILED_JOINS, secret_digest
from homegames.services_members import calendar_feed_for, calendar_feed_replace, home_game_remove_member
from homegames.views import FEED_PER_ADDRESS, FEED_PER_TOKEN
from tests.homegames.test_calendar import group  # noqa: F401 (fixture)
from tests.homegames.test_nights import schedule


class Clock:
    """The limits' wall clock, moved by hand (no test waits for a window to pass)."""

    def __init__(self) -> None:
        self.at = 1_900_000_000.0

    def __call__(self) -> float:
        return self.at


@pytest.fixture
def clock(monkeypatch):
    moved = Clock()
    monkeypatch.setattr(limits, "now", moved)
    return moved


@pytest.fixture
def address():
    """A client address of its own, its counts forgotten before and after."""
    where = f"10.{random.randint(0, 255)}.{random.randint(0, 255)}.{random.randint(1, 254)}"
    GUESSES.forget(where)
    FEED_PER_ADDRESS.forget(where)
    yield where
    GUESSES.forget(where)
    FEED_PER_ADDRESS.forget(where)


def feed_url(token: str) -> str:
    return reverse("homegames:feed", kwargs={"token": token})


def tokens(group, *names):  # noqa: F811
    home_game, _host, members, _template = group
    found = [calendar_feed_for(home_game=home_game, user=members[name]).token for name in names]
    for token in found:
        FEED_PER_TOKEN.forget(secret_digest(token))
    return found


def page(response) -> tuple[int, str]:
    """The status and the page, without the per-response mask of the CSRF token."""
    return response.status_code, re.sub(r'name="csrfmiddlewaretoken" value="[^"]*"', "", response.content.decode())


def refused(response, window=600) -> int:
    """The Retry-After of a 429 (asserting it is one)."""
    assert response.status_code == 429
    wait = int(response["Retry-After"])
    assert 0 < wait <= window
    return wait


def test_the_defaults_are_the_documented_ones():
    assert (FEED_PER_TOKEN.most(), FEED_PER_TOKEN.window) == (60, 600)
    assert (FEED_PER_ADDRESS.most(), FEED_PER_ADDRESS.window) == (600, 600)


def test_six_devices_polling_one_feed_every_five_minutes_are_never_refused(group, address, clock):  # noqa: F811
    """Apple's calendar polls every 5 minutes at most often; six devices of one member on one
    Wi-Fi, for an hour (each 10 minutes: 12 requests of the 60 a token may make)."""
    schedule(group)
    (token,) = tokens(group, "bikash")
    phone = Client(REMOTE_ADDR=address)
    for _poll in range(12):
        for device in range(6):
            clock.at += 1 + device  # the devices a few seconds apart
            assert phone.get(feed_url(token)).status_code == 200
        clock.at += 300 - 21


def test_a_burst_on_one_token_is_refused_until_its_window_ends(group, address, clock):  # noqa: F811
    schedule(group)
    hammered, other = tokens(group, "bikash", "chandra")
    client = Client(REMOTE_ADDR=address)
    for _ in range(FEED_PER_TOKEN.most()):
        assert client.get(feed_url(hammered)).status_code == 200
    clock.at += 100
    wait = refused(client.get(feed_url(hammered)))
    assert wait == 500  # the window started at the first request
    for _ in range(20):
        refused(client.get(feed_url(hammered)))
    # The refusals counted nothing: not the token, not the address (the house's other feeds work).
    from django.core.cache import cache

    assert cache.get(FEED_PER_TOKEN.key(secret_digest(hammered))) == FEED_PER_TOKEN.most()
    assert cache.get(FEED_PER_ADDRESS.key(address)) == FEED_PER_TOKEN.most()
    assert client.get(feed_url(other)).status_code == 200
    # From another address the same token is refused too: the limit is the token's.
    refused(Client(REMOTE_ADDR="192.0.2.9").get(feed_url(hammered)))
    clock.at += wait
    assert client.get(feed_url(hammered)).status_code == 200


def test_a_burst_from_one_address_across_tokens_is_refused(group, address, clock, settings):  # noqa: F811
    settings.DASHAIN_FEED_PER_ADDRESS = 9  # the default is 600; the counting is the same
    schedule(group)
    feeds = tokens(group, "bikash", "chandra", "dipa")
    client = Client(REMOTE_ADDR=address)
    for _ in range(3):
        for token in feeds:
            assert client.get(feed_url(token)).status_code == 200
    for token in feeds:
        refused(client.get(feed_url(token)))
    clock.at += 30
    assert refused(client.get(feed_url("0" * 43))) == 570  # checked first, before any lookup
    from django.core.cache import cache

    assert cache.get(GUESSES.key(address)) is None  # ...so that refusal was no guess either
    neighbour = Client(REMOTE_ADDR="192.0.2.10")
    FEED_PER_ADDRESS.forget("192.0.2.10")
    assert neighbour.get(feed_url(feeds[0])).status_code == 200  # another address is not touched
    clock.at += 570
    assert client.get(feed_url(feeds[1])).status_code == 200


def test_unknown_tokens_are_one_answer_and_count_as_guesses_as_a_wrong_join_link_does(group, address, clock):  # noqa: F811
    home_game, host, members, _template = group
    schedule(group)
    revoked, valid, removed = tokens(group, "bikash", "chandra", "dipa")
    calendar_feed_replace(home_game=home_game, user=members["bikash"])
    home_game_remove_member(home_game=home_game, member=members["dipa"], by=host)
    never = "A" * 43
    client = Client(REMOTE_ADDR=address)
    answers = [client.get(feed_url(token)) for token in (revoked, never, removed, "short")]
    assert {page(a) for a in answers} == {(404, page(answers[0])[1])}
    # The same guesses as the join pages: a wrong table code from this address counts too.
    for attempt in range(MAX_FAILED_JOINS - len(answers)):
        client.get(reverse("table_join", kwargs={"code": f"NOPE{attempt:02d}"}))
    late = [client.get(feed_url(token)) for token in (revoked, never, removed)]
    assert {(*page(a), a["Retry-After"]) for a in late} == {(429, page(late[0])[1], late[0]["Retry-After"])}
    refused(late[0])
    # The member whose token is real is still served from the same address (as the table's
    # real invite link is on the join pages): one guesser does not lock the house out.
    assert client.get(feed_url(valid)).status_code == 200
