"""A home game's planned night played at the kitchen table (issue 39): its host or a co-host
opens it from the night's page, a cash game or a tournament, the form starting from the
night's template; the night is then linked to the planned night and counted in the home
game, its members who are coming are led to it, and once settled it is behind us. Opened
once; never a cancelled night or one behind us; a member who is not a co-host and a stranger
are refused and nothing is written."""

from __future__ import annotations

from datetime import timedelta
from decimal import Decimal

import pytest
from django.urls import reverse
from django.utils import timezone

from homegames.models import Night
from homegames.selectors import nights_ahead, nights_past
from homegames.services import night_answer, night_cancel, night_schedule, night_template_save
from homegames.services_members import home_game_create, home_game_join, home_game_set_co_host
from homegames.services_tonight import night_open_table
from kitchen.models import KitchenNight, TournamentClock
from kitchen.services import kitchen_buy_in, kitchen_cash_out, kitchen_settle
from tables.models import Seat, Table, table_currency
from tests.kitchen.conftest import host_seat, make_user

CASH_TEMPLATE = {"seats": 6, "boot": 10, "buy_in_chips": 2000, "buy_in_price": "20.00", "currency": "NPR"}
HOLDEM_TEMPLATE = {"seats": 6, "blind_speed": 10, "buy_in_price": "5.00", "currency": "EUR", "prizes": "places"}


@pytest.fixture
def group(db):
    host = make_user("asha")
    home_game = home_game_create(name="Friday Faras", host=host)
    members = {}
    for name in ("bikash", "chandra", "dipa"):
        members[name] = make_user(name)
        home_game_join(home_game=home_game, token=home_game.invite_token, user=members[name])
    return home_game, host, members


def plan(group, *, game="faras", choices=None) -> Night:
    home_game, host, _members = group
    template = night_template_save(
        home_game=home_game, name=f"Our {game}", game=game, choices=choices or CASH_TEMPLATE, by=host
    )
    return night_schedule(
        home_game=home_game,
        template=template,
        starts_at=(timezone.now() + timedelta(hours=3)).replace(microsecond=0),  # tonight: it may be opened
        time_zone="Asia/Kathmandu",
        place="Asha's flat",
        seat_limit=4,
        by=host,
    )


def page_of(night: Night) -> str:
    return reverse("homegames:night_detail", kwargs={"home_game_id": night.home_game_id, "night_id": night.pk})


def cash_form(night: Night) -> str:
    return f"{reverse('kitchen:new')}?night={night.pk}"


def tournament_form(night: Night) -> str:
    return f"{reverse('kitchen:tournament_new')}?night={night.pk}"


CASH_POST = {"buy_in_chips": "2000", "buy_in_price": "20.00", "currency": "NPR"}
TOURNAMENT_POST = {
    "starting_chips": "1000",
    "buy_in_price": "5.00",
    "currency": "EUR",
    "structure": "standard",
    "minutes": "15",
    "rebuy_levels": "0",
    "payouts": "60/40",
    "addon_level": "0",
    "addon_chips": "",
}


def written():
    return (
        Table.objects.count(),
        KitchenNight.objects.count(),
        Night.objects.count(),
        list(Night.objects.order_by("pk").values_list("table_id", flat=True)),
        Seat.objects.count(),
    )


def test_the_host_opens_a_planned_cash_night_at_the_kitchen_table_and_the_members_are_led_to_it(client, group):
    home_game, host, members = group
    night = plan(group)
    night_answer(night=night, user=members["bikash"], reply="yes")
    night_answer(night=night, user=members["dipa"], reply="no")
    client.force_login(host)
    page = client.get(page_of(night)).content.decode()
    assert f'href="{cash_form(night)}"' in page and f'href="{tournament_form(night)}"' in page

    form = client.get(cash_form(night)).content.decode()  # the template's values to start from
    assert 'value="2000"' in form and 'value="20.00"' in form and '<option value="NPR" selected>' in form
    assert "Asha&#x27;s flat" in form and 'name="home_game"' not in form
    response = client.post(cash_form(night), CASH_POST)
    table = Table.objects.get(kitchen_night__isnull=False)
    assert response["Location"] == reverse("kitchen:night", kwargs={"code": table.code})
    night.refresh_from_db()
    assert night.table == table and table.settings["not_dealt"]
    assert Night.objects.get(table=table).home_game == home_game  # counts in the season
    assert (table.buy_in_chips, table.buy_in_price, table_currency(table)) == (2000, Decimal("20.00"), "NPR")

    page = client.get(page_of(night)).content.decode()
    assert reverse("kitchen:night", kwargs={"code": table.code}) in page and "At the kitchen table" in page
    assert "?night=" not in page  # opened: no second opening offered

    # Bikash is coming: the night's page leads him to the kitchen night, where he asks for a buy-in.
    client.force_login(members["bikash"])
    sit = reverse("homegames:night_sit", kwargs={"home_game_id": home_game.pk, "night_id": night.pk})
    assert sit in client.get(page_of(night)).content.decode()
    response = client.post(sit, follow=True)
    assert response.redirect_chain[-1][0] == reverse("kitchen:night", kwargs={"code": table.code})
    assert "Ask for a buy-in" in response.content.decode()
    bikash = Seat.objects.get(table=table, user=members["bikash"])
    assert bikash.number is None and bikash.buy_ins == 0  # at the night; nothing bought yet
    client.force_login(members["dipa"])  # not coming: no place at it
    client.post(sit)
    assert not Seat.objects.filter(table=table, user=members["dipa"]).exists()

    # Played and settled: the night leaves the nights ahead, as a played night does.
    asha = host_seat(table)
    for player in (asha, bikash):
        kitchen_buy_in(table_id=table.pk, seat_id=asha.pk, player_seat_id=player.pk)
    kitchen_cash_out(table_id=table.pk, seat_id=asha.pk, player_seat_id=asha.pk, chips=3000)
    kitchen_cash_out(table_id=table.pk, seat_id=asha.pk, player_seat_id=bikash.pk, chips=1000)
    assert night in nights_ahead(home_game=home_game)
    kitchen_settle(table_id=table.pk, seat_id=asha.pk)
    assert night not in nights_ahead(home_game=home_game) and night in nights_past(home_game=home_game)
    client.force_login(host)
    assert "This night has been played" in client.get(page_of(night)).content.decode()


def test_a_tournament_from_a_holdem_template_carries_its_price_currency_and_payout_table(client, group):
    _home_game, host, _members = group
    night = plan(group, game="holdem", choices={**HOLDEM_TEMPLATE, "payouts": "60/40"})
    client.force_login(host)
    form = client.get(tournament_form(night)).content.decode()
    assert 'id="id_starting_chips" name="starting_chips" inputmode="numeric" required value="1000"' in form
    assert 'value="5.00"' in form and '<option value="EUR" selected>' in form
    assert '<option value="60/40" selected>60/40</option>' in form  # beside the presets
    refused = client.post(tournament_form(night), {**TOURNAMENT_POST, "payouts": "70/abc"})
    assert "adding up to 100" in refused.content.decode() and "70/abc" not in refused.content.decode()
    assert not TournamentClock.objects.exists() and not Table.objects.exists()
    client.post(tournament_form(night), TOURNAMENT_POST)
    clock = TournamentClock.objects.get()
    table = clock.night.table
    night.refresh_from_db()
    assert night.table == table and Night.objects.get(table=table).home_game_id == night.home_game_id
    assert clock.payouts == [60, 40] and len(clock.levels) > 1 and clock.addon_level == 0
    assert (table.buy_in_chips, table.buy_in_price, table_currency(table)) == (1000, Decimal("5.00"), "EUR")


def test_a_cash_template_opens_a_tournament_with_its_chips_and_the_presets(client, group):
    _home_game, host, _members = group
    night = plan(group)
    client.force_login(host)
    form = client.get(tournament_form(night)).content.decode()
    assert 'required value="2000"' in form and '<option value="50/30/20" selected>' in form


def test_a_planned_night_is_opened_once_at_the_kitchen_table_or_online(client, group):
    _home_game, host, _members = group
    night = plan(group)
    client.force_login(host)
    client.post(cash_form(night), CASH_POST)
    before = written()
    response = client.post(cash_form(night), CASH_POST)  # a double submit
    assert response["Location"] == page_of(night)
    assert "Tonight&#x27;s table is already open." in client.get(page_of(night)).content.decode()
    response = client.post(tournament_form(night), TOURNAMENT_POST)
    assert response["Location"] == page_of(night)
    assert written() == before and not TournamentClock.objects.exists()
    night.refresh_from_db()
    assert night_open_table(night=night, by=host) == night.table  # online: the same table
    assert written() == before

    online = plan(group)
    table = night_open_table(night=online, by=host)
    before = written()
    client.post(cash_form(online), CASH_POST)  # already open online
    assert written() == before
    online.refresh_from_db()
    assert online.table == table and not KitchenNight.objects.filter(table=table).exists()


def test_a_cancelled_night_or_one_behind_us_is_not_opened(client, group):
    _home_game, host, _members = group
    cancelled, past = plan(group), plan(group)
    night_cancel(night=cancelled, by=host)
    Night.objects.filter(pk=past.pk).update(starts_at=timezone.now() - timedelta(hours=13))
    client.force_login(host)
    before = written()
    for night, reason in ((cancelled, "This night has been cancelled."), (past, "This night is behind us")):
        response = client.post(cash_form(night), CASH_POST)
        assert response["Location"] == page_of(night)
        page = client.get(page_of(night)).content.decode()
        assert reason in page and "?night=" not in page  # and nothing offers it
        client.post(tournament_form(night), TOURNAMENT_POST)
    assert written() == before


def test_a_co_host_opens_it_a_member_and_a_stranger_cannot(client, group):
    home_game, host, members = group
    night = plan(group)
    before = written()
    client.force_login(members["bikash"])  # a member, not a co-host
    assert "?night=" not in client.get(page_of(night)).content.decode()
    for url, data in ((cash_form(night), CASH_POST), (tournament_form(night), TOURNAMENT_POST)):
        assert client.get(url).status_code == 403
        assert client.post(url, data).status_code == 403
    client.force_login(make_user("esha"))  # a stranger to the home game
    for url, data in ((cash_form(night), CASH_POST), (tournament_form(night), TOURNAMENT_POST)):
        assert client.get(url).status_code == 404
        assert client.post(url, data).status_code == 404
    for forged in ("999999", "x", "-1"):  # no such night
        assert client.post(f"{reverse('kitchen:new')}?night={forged}", CASH_POST).status_code == 404
    client.logout()
    assert client.post(cash_form(night), CASH_POST).status_code == 302  # to sign in
    assert written() == before

    home_game_set_co_host(home_game=home_game, member=members["chandra"], is_co_host=True, by=host)
    client.force_login(members["chandra"])
    client.post(cash_form(night), CASH_POST)
    night.refresh_from_db()
    assert night.table is not None and night.table.host == members["chandra"]
    assert night.table.kitchen_night is not None
