"""Join limits that never lock a house out (issue 24, item 6): at a home game everyone is on
one Wi-Fi, one address. After 20 failed joins from it, the real invite link still lets the
next friend in and someone already at the table still gets back by the code; a stranger's
guesses from that address stay refused."""

from __future__ import annotations

import random

import pytest
from django.test import Client
from django.urls import reverse

from config.limits import MAX_FAILED_JOINS, join_attempts_forget
from tables.models import Seat
from tests.tables.conftest import open_table

pytestmark = pytest.mark.django_db


@pytest.fixture
def house():
    """The home's one address, its count forgotten before and after."""
    address = f"10.{random.randint(0, 255)}.{random.randint(0, 255)}.7"
    join_attempts_forget(address)
    yield address
    join_attempts_forget(address)


def _typos(address: str) -> None:
    typist = Client(REMOTE_ADDR=address)
    for attempt in range(MAX_FAILED_JOINS + 5):
        typist.get(reverse("table_join", kwargs={"code": f"TYPO{attempt:02d}"}))


def test_after_twenty_failed_joins_the_real_invite_link_still_seats_a_friend(house):
    table, _seats = open_table("faras", players=2, start=False)
    _typos(house)
    link = reverse("table_invite", kwargs={"code": table.code, "invite_token": table.invite_token})
    friend = Client(REMOTE_ADDR=house)
    assert friend.get(link).status_code == 200
    joined = friend.post(link, {"display_name": "Gita", "role": "seat"})
    assert joined.status_code == 302 and joined["Location"] == reverse("table_detail", kwargs={"code": table.code})
    assert Seat.objects.filter(table=table, display_name="Gita", number__isnull=False).exists()
    # Back by the short link and the lobby's code box, as someone already at the table.
    assert friend.get(reverse("table_join", kwargs={"code": table.code})).status_code == 302
    assert friend.get(reverse("table_join_by_code"), {"code": table.code}).status_code == 302


def test_failed_guesses_from_that_address_stay_limited(house):
    table, _seats = open_table("faras", players=2, start=False)
    _typos(house)
    stranger = Client(REMOTE_ADDR=house)
    for url, params in (
        (reverse("table_invite", kwargs={"code": table.code, "invite_token": table.invite_token[:-1] + "x"}), None),
        (reverse("table_invite", kwargs={"code": "NOSUCH", "invite_token": table.invite_token}), None),
        (reverse("table_join", kwargs={"code": table.code}), None),
        (reverse("table_join_by_code"), {"code": table.code}),
    ):
        assert stranger.get(url, params).status_code == 429, url
    assert stranger.post(reverse("table_join_by_code"), {"code": table.code, "display_name": "X"}).status_code == 429
