"""The tournament's pages: opening one with levels of one's own, the TV page reachable with
the table's link only (showing no invite link), the clock's controls the host's alone."""

from __future__ import annotations

from django.urls import reverse

from kitchen.models import TournamentClock
from kitchen.views_tournament import parse_levels
from tests.kitchen.conftest import join_as, make_user


def _open(client, host, levels="10 20 0 1\nbreak 30s\n20 40 5 1"):
    client.force_login(host)
    return client.post(
        reverse("kitchen:tournament_new"),
        {
            "starting_chips": "1000",
            "buy_in_price": "10.00",
            "currency": "",
            "structure": "custom",
            "minutes": "15",
            "levels": levels,
            "rebuy_levels": "1",
            "payouts": "50/30/20",
        },
    )


def test_levels_as_the_host_writes_them():
    assert parse_levels("10 20 15\nbreak 5\n 25 50 5 30s ") == [
        {"small": 10, "big": 20, "ante": 0, "seconds": 900},
        {"break": True, "seconds": 300},
        {"small": 25, "big": 50, "ante": 5, "seconds": 30},
    ]
    assert parse_levels("10 20 15\nten twenty") == "2"


def test_a_tournament_opens_and_a_level_of_zero_minutes_does_not(client, host):
    response = _open(client, host, levels="10 20 0 0")
    assert response.status_code == 200 and not TournamentClock.objects.exists()
    assert "more than 0 minutes" in response.content.decode()
    response = _open(client, host)
    clock = TournamentClock.objects.get()
    assert response["Location"] == reverse("kitchen:night", kwargs={"code": clock.night.table.code})
    assert [level["seconds"] for level in clock.levels] == [60, 30, 60]


def test_the_tv_page_needs_the_tables_link_and_shows_no_invite(client, host):
    _open(client, host)
    table = TournamentClock.objects.get().night.table
    client.logout()
    tv = reverse("kitchen:tv", kwargs={"code": table.code, "token": table.invite_token})
    wrong = reverse("kitchen:tv", kwargs={"code": table.code, "token": "x" * 22})
    assert client.get(wrong).status_code == 404
    assert client.get(reverse("kitchen:tv_state", kwargs={"code": table.code, "token": "x" * 22})).status_code == 404
    page = client.get(tv).content.decode()
    assert "Level 1" in page and "10 / 20" in page
    # The link is in the address only: nothing on the page repeats it or links to join.
    assert page.count(table.invite_token) == 1 and "/join/" not in page  # the state URL's own
    state = client.get(reverse("kitchen:tv_state", kwargs={"code": table.code, "token": table.invite_token})).json()
    assert (state["started"], state["players"], state["index"]) == (False, 0, 0)


def test_only_the_host_runs_the_clock(client, host):
    _open(client, host)
    table = TournamentClock.objects.get().night.table
    dev = make_user("dev")
    join_as(table, dev)
    client.force_login(dev)
    client.post(reverse("kitchen:clock", kwargs={"code": table.code}), {"action": "start"})
    assert not TournamentClock.objects.get().started
    client.force_login(host)
    client.post(reverse("kitchen:clock", kwargs={"code": table.code}), {"action": "start"})
    assert TournamentClock.objects.get().started
