"""The kitchen night's pages: opening from the lobby, joining by the invite link only, the
host's forms, and what a player or a stranger may do there."""

from __future__ import annotations

import pytest
from django.urls import reverse

from kitchen.models import KitchenNight
from ledger.models import LedgerEntry
from tables.guests import GUEST_TOKEN_SESSION_KEY
from tables.models import Seat
from tests.kitchen.conftest import add_by_name, host_seat, make_user


@pytest.fixture
def opened(client, host):
    client.force_login(host)
    response = client.post(reverse("kitchen:new"), {"buy_in_chips": "500", "buy_in_price": "5.00", "currency": "EUR"})
    night = KitchenNight.objects.get()
    assert response.status_code == 302 and response["Location"] == reverse(
        "kitchen:night", kwargs={"code": night.table.code}
    )
    return night.table


def test_the_lobby_offers_a_kitchen_night(client, host):
    client.force_login(host)
    assert reverse("kitchen:new") in client.get(reverse("lobby")).content.decode()


def test_a_bad_buy_in_is_refused_and_opens_nothing(client, host):
    client.force_login(host)
    response = client.post(reverse("kitchen:new"), {"buy_in_chips": "0", "buy_in_price": "5.00", "currency": ""})
    assert response.status_code == 200 and not KitchenNight.objects.exists()


def test_the_host_runs_the_bank_from_the_page(client, opened):
    bikash = add_by_name(opened, "Bikash")
    act = reverse("kitchen:act", kwargs={"code": opened.code})
    client.post(act, {"action": "buy_in", "player": bikash.pk})
    client.post(act, {"action": "cash_out", "player": bikash.pk, "chips": "2000"})  # more than the bank holds
    assert not LedgerEntry.objects.filter(kind=LedgerEntry.Kind.CASH_OUT).exists()
    page = client.get(reverse("kitchen:night", kwargs={"code": opened.code}), follow=True).content.decode()
    assert "Difference: 1,000" in page
    client.post(act, {"action": "cash_out", "player": bikash.pk, "chips": "900"})
    page = client.get(reverse("kitchen:night", kwargs={"code": opened.code})).content.decode()
    assert "Difference: 100" in page and "Spread the difference" in page
    client.post(act, {"action": "spread", "how": "even", "reason": "lost under the table"})
    client.post(act, {"action": "settle"})
    page = client.get(reverse("kitchen:night", kwargs={"code": opened.code})).content.decode()
    assert "The settle-up" in page


def test_a_guest_joins_by_the_invite_link_only_and_cannot_record_for_anyone(client, opened):
    night_url = reverse("kitchen:night", kwargs={"code": opened.code})
    bikash = add_by_name(opened, "Bikash")
    client.logout()
    assert client.get(night_url).status_code == 404  # a stranger sees nothing
    wrong = reverse("kitchen:join", kwargs={"code": opened.code, "token": "x" * 22})
    assert client.get(wrong).status_code == 404
    join = reverse("kitchen:join", kwargs={"code": opened.code, "token": opened.invite_token})
    client.post(join, {"name": "Guest"})
    guest = Seat.objects.get(table=opened, display_name="Guest")
    assert client.session[GUEST_TOKEN_SESSION_KEY] == guest.guest_token
    assert client.get(night_url).status_code == 200
    before = LedgerEntry.objects.count()
    act = reverse("kitchen:act", kwargs={"code": opened.code})
    client.post(act, {"action": "buy_in", "player": bikash.pk})
    client.post(act, {"action": "cash_out", "player": bikash.pk, "chips": "0"})
    client.post(act, {"action": "buy_in", "player": guest.pk})
    assert LedgerEntry.objects.count() == before
    client.post(act, {"action": "ask"})  # asking is theirs to do; the host confirms
    assert "asks for a buy-in" not in client.get(night_url).content.decode()


def test_a_player_of_another_night_cannot_act_here(client, opened):
    other = make_user("other")
    client.force_login(other)
    assert client.post(reverse("kitchen:act", kwargs={"code": opened.code}), {"action": "settle"}).status_code == 404
    assert host_seat(opened).table_id == opened.pk


def test_the_lobby_lists_a_kitchen_night_as_one_and_links_to_its_page(client, opened):
    page = client.get(reverse("lobby")).content.decode()
    assert reverse("kitchen:night", kwargs={"code": opened.code}) in page
    assert reverse("table_detail", kwargs={"code": opened.code}) not in page
    assert "At the kitchen table" in page


def test_a_night_opened_for_a_home_game_is_one_of_its_nights(client, host):
    from homegames.models import Night
    from homegames.services_members import home_game_create

    mine = home_game_create(name="Fridays", host=host)
    theirs = home_game_create(name="Not mine", host=make_user("other"))
    client.force_login(host)
    form = {"buy_in_chips": "1000", "buy_in_price": "10.00", "currency": ""}
    client.post(reverse("kitchen:new"), {**form, "home_game": str(theirs.pk)})
    assert not KitchenNight.objects.exists()
    client.post(reverse("kitchen:new"), {**form, "home_game": str(mine.pk)})
    night = Night.objects.get()
    assert night.home_game == mine and night.table == KitchenNight.objects.get().table
