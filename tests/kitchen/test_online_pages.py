"""A kitchen night has no online table: its online pages send the people at it to the
night's page, links go there, and the ledger's report names it as a kitchen night."""

from __future__ import annotations

import pytest
from django.urls import reverse

from homegames.services_members import home_game_add_table, home_game_create
from kitchen.models import KitchenNight
from tests.kitchen.conftest import make_user


@pytest.fixture
def opened(client, host):
    client.force_login(host)
    client.post(reverse("kitchen:new"), {"buy_in_chips": "500", "buy_in_price": "5.00", "currency": "EUR"})
    return KitchenNight.objects.get().table


@pytest.mark.parametrize("name", ["table_detail", "table_history", "table_settings", "table_seat_links"])
def test_the_online_pages_of_a_kitchen_night_go_to_the_nights_page(client, opened, name):
    response = client.get(reverse(name, kwargs={"code": opened.code}))
    assert response.status_code == 302
    assert response["Location"] == reverse("kitchen:night", kwargs={"code": opened.code})


def test_the_short_link_takes_someone_at_the_night_to_its_page(client, opened):
    response = client.get(reverse("table_join", kwargs={"code": opened.code}))
    assert response["Location"] == reverse("kitchen:night", kwargs={"code": opened.code})


def test_a_stranger_gets_what_any_table_gives_them(client, opened):
    client.force_login(make_user("other"))
    response = client.get(reverse("table_detail", kwargs={"code": opened.code}))
    assert response.status_code == 302
    assert response["Location"] == reverse("table_join", kwargs={"code": opened.code})
    assert client.get(reverse("table_history", kwargs={"code": opened.code})).status_code == 404


def test_the_report_names_the_night_at_the_kitchen_table(client, host, opened):
    home_game = home_game_create(name="Fridays", host=host)
    home_game_add_table(home_game=home_game, table=opened, by=host)
    page = client.get(reverse("ledger:table_report", kwargs={"code": opened.code})).content.decode()
    assert "At the kitchen table" in page and "999" not in page
    assert reverse("kitchen:night", kwargs={"code": opened.code}) in page
    assert reverse("table_detail", kwargs={"code": opened.code}) not in page
    csv = client.get(reverse("ledger:table_report_csv", kwargs={"code": opened.code})).content.decode()
    assert "999" not in csv


def test_a_settled_kitchen_night_offers_no_game_download_to_verify(client, host):
    """A kitchen night deals nothing, so `python -m engine verify` has no deck to check and
    would call every cash-out unexplained: its game download is refused (404), its record is
    the night's page."""
    from kitchen.services import kitchen_buy_in, kitchen_cash_out, kitchen_settle
    from tests.kitchen.conftest import host_seat, open_night

    table = open_night(host)
    seat = host_seat(table)
    kitchen_buy_in(table_id=table.pk, seat_id=seat.pk, player_seat_id=seat.pk)
    kitchen_cash_out(table_id=table.pk, seat_id=seat.pk, player_seat_id=seat.pk, chips=1000)
    kitchen_settle(table_id=table.pk, seat_id=seat.pk)
    client.force_login(host)

    response = client.get(reverse("game_export", kwargs={"code": table.code}))

    assert response.status_code == 404
    assert "not dealt" in response.content.decode()
