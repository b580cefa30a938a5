"""Hold'em for money (issue 25), from the cheater's side: the host changing the price or how
the pool is shared after a buy-in (page, socket, admin), bad values on the forms, a guest
forging fields, computers at a money table, a start with fewer players than paid places.
Every refusal says why next to its field and changes nothing."""

from __future__ import annotations

from decimal import Decimal

import pytest
from channels.db import database_sync_to_async
from django.test import Client, override_settings
from django.urls import reverse

from ledger.models import LedgerEntry
from tables.models import Seat, Table
from tables.services import seat_take, table_join, table_start, table_update_settings
from tables.services.computers import computer_add
from tables.services.errors import ServiceError
from tables.state_cache import state_cache_clear
from tests.tables.conftest import make_user, open_table

MONEY = {"buy_in_price": "20.00", "currency": "USD", "prizes": "places", "payouts": "50/30/20"}


@pytest.fixture(autouse=True)
def _hands_follow_at_once():
    state_cache_clear()
    with override_settings(DASHAIN_NEXT_HAND_DELAY=0):
        yield
    state_cache_clear()


def _row(table: Table) -> tuple:
    table.refresh_from_db()
    return (table.settings, table.buy_in_chips, table.buy_in_price, table.last_seq)


def _holdem_form(**values: str) -> dict[str, str]:
    """What the hold'em settings form posts, with ``values`` changed."""
    data = {
        "seats": "6",
        "blind_speed": "10",
        "game_length": "",
        "buy_in_price": "20.00",
        "currency": "USD",
        "prizes": "places",
        "payouts": "50/30/20",
        "turn_timer": "",
        "timeout_action": "remind",
        "hand_pause": "5",
    }
    data.update(values)
    return data


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("change", "code", "field"),
    [
        ({"buy_in_price": "50.00"}, "chip_value_fixed", "buy_in_price"),
        ({"buy_in_price": "0.00"}, "chip_value_fixed", "buy_in_price"),
        ({"payouts": "65/35"}, "prizes_fixed", "payouts"),
        ({"payouts": "100"}, "prizes_fixed", "payouts"),
        ({"prizes": "chips"}, "prizes_fixed", "prizes"),
        ({"currency": "EUR"}, "currency_fixed", "currency"),
    ],
)
def test_the_host_cannot_change_the_stake_after_a_buy_in(change, code, field):
    table, seats = open_table("holdem", players=2, choices=MONEY, start=False)
    before = _row(table)
    with pytest.raises(ServiceError) as refused:
        table_update_settings(table_id=table.pk, seat_id=seats[0].pk, choices=change)
    assert (refused.value.code, refused.value.field) == (code, field)
    assert _row(table) == before


@pytest.mark.django_db
def test_before_anyone_buys_in_the_host_may_change_the_stake():
    host = make_user("host-before")
    from tables.services import table_create

    table = table_create(host=host, game="holdem", choices=MONEY)
    host_seat = Seat.objects.get(table=table, user=host)
    table_update_settings(table_id=table.pk, seat_id=host_seat.pk, choices={"payouts": "65/35", "buy_in_price": "5.00"})
    table.refresh_from_db()
    assert table.settings["payouts"] == [65, 35] and table.buy_in_price == Decimal("5.00")
    seat_take(table_id=table.pk, seat_id=host_seat.pk)
    with pytest.raises(ServiceError):
        table_update_settings(table_id=table.pk, seat_id=host_seat.pk, choices={"payouts": "100"})


@pytest.mark.django_db
def test_the_settings_page_refuses_beside_the_field_and_changes_nothing():
    table, seats = open_table("holdem", players=2, choices=MONEY, start=False)
    client = Client()
    client.force_login(seats[0].user)
    url = reverse("table_settings", kwargs={"code": table.code})
    before = _row(table)
    page = client.post(url, _holdem_form(payouts="65/35"))
    assert page.status_code == 200
    html = page.content.decode()
    field = html[html.index('data-field="payouts"') :]
    assert "field-error" in field[: field.index("</div>")]
    assert "start a new game" in html
    assert _row(table) == before
    # The page shows the stake it is fixed at, and saving it unchanged is fine.
    assert client.post(url, _holdem_form()).status_code == 302


@pytest.mark.django_db
def test_the_admin_refuses_a_new_payout_table_too(admin_client):
    from tests.tables.test_admin import change_data, table_change_url

    table, _seats = open_table("holdem", players=2, choices=MONEY, start=False)
    before = _row(table)
    response = admin_client.post(
        table_change_url(table),
        change_data(table, '{"buy_in_price": "20.00", "currency": "USD", "prizes": "places", "payouts": "100"}'),
    )
    assert response.status_code == 200
    assert "start a new game" in response.content.decode()
    assert _row(table) == before


@pytest.mark.django_db(transaction=True)
async def test_the_hosts_settings_frame_is_refused_and_a_guests_is_not_the_hosts():
    from tests.tables.ws import connect, users_of

    table, seats = await database_sync_to_async(open_table)("holdem", 2, MONEY, False)
    users = await users_of(seats)
    connected, host_socket, _ = await connect(table.code, user=users[0])
    assert connected
    before = await database_sync_to_async(_row)(table)
    reply = await host_socket.request({"type": "host", "verb": "settings", "settings": {"payouts": [100]}})
    assert await database_sync_to_async(_row)(table) == before
    assert reply["type"] == "error" and reply["code"] == "prizes_fixed", reply
    await host_socket.communicator.disconnect()
    # A guest at the table forging the host's frame.
    guest = await database_sync_to_async(table_join)(
        code=table.code, invite_token=table.invite_token, guest_name="Gita", guest_token="g" * 32
    )
    connected, guest_socket, _ = await connect(table.code, guest_token=guest.guest_token)
    assert connected
    before = await database_sync_to_async(_row)(table)
    reply = await guest_socket.request(
        {"type": "host", "verb": "settings", "settings": {"prizes": "places", "payouts": [100]}}
    )
    assert reply["type"] == "error" and reply["code"] == "not_host", reply
    await guest_socket.communicator.disconnect()
    assert await database_sync_to_async(_row)(table) == before


@pytest.mark.django_db
def test_a_guest_cannot_reach_the_settings_page_nor_open_a_money_table():
    table, _seats = open_table("holdem", players=2, choices=MONEY, start=False)
    guest = table_join(code=table.code, invite_token=table.invite_token, guest_name="Gita", guest_token="g" * 32)
    from tables.guests import GUEST_TOKEN_SESSION_KEY

    client = Client()
    session = client.session
    session[GUEST_TOKEN_SESSION_KEY] = guest.guest_token
    session.save()
    before = _row(table)
    url = reverse("table_settings", kwargs={"code": table.code})
    assert client.post(url, _holdem_form(payouts="100", buy_in_price="1.00")).status_code in (302, 404)
    assert _row(table) == before
    tables = Table.objects.count()
    opened = client.post(reverse("table_open") + "?game=holdem", _holdem_form())
    assert opened.status_code == 302 and "login" in opened["Location"]
    assert Table.objects.count() == tables


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("values", "words"),
    [
        ({"payouts": "60/30"}, "add up to 90"),
        ({"payouts": "110/-10"}, "negative"),
        ({"payouts": "50.5/49.5"}, "whole percents"),
        ({"payouts": "40/30/20/5/3/1/1", "seats": "6"}, "more than the 6 players"),
        ({"payouts": "20/30/50"}, "never pays more"),
        ({"payouts": "50/50/0"}, "at least 1 percent"),
        ({"payouts": "half/half"}, "such as 50/30/20"),
        ({"prizes": "pot"}, ""),
        ({"buy_in_price": "-1"}, ""),
        ({"buy_in_price": "1.005"}, ""),
    ],
)
def test_the_open_form_puts_bad_values_beside_their_field_and_opens_nothing(values, words):
    client = Client()
    client.force_login(make_user("opener"))
    response = client.post(reverse("table_open") + "?game=holdem", _holdem_form(**values))
    assert response.status_code == 200
    html = response.content.decode()
    field = next(iter(set(values) - {"seats"}))
    block = html[html.index(f'data-field="{field}"') :]
    block = block[: block.index("</div>")]
    assert "field-error" in block
    assert words in block
    assert not Table.objects.exists()


@pytest.mark.django_db
def test_the_open_form_opens_a_money_table_with_its_stake():
    client = Client()
    client.force_login(make_user("opener"))
    response = client.post(reverse("table_open") + "?game=holdem", _holdem_form())
    assert response.status_code == 302
    table = Table.objects.get()
    assert table.buy_in_price == Decimal("20.00") and table.buy_in_chips == 1000
    assert table.settings["prizes"] == "places" and table.settings["payouts"] == [50, 30, 20]
    page = client.get(response["Location"]).content.decode()
    assert "A buy-in costs USD\u00a020.00" in page and "1st: 50%, 2nd: 30%, 3rd: 20%" in page


@pytest.mark.django_db
def test_computers_stay_at_play_chip_tables():
    table, seats = open_table("holdem", players=1, choices=MONEY, start=False)
    with pytest.raises(ServiceError) as refused:
        computer_add(table_id=table.pk, seat_id=seats[0].pk, strength="easy")
    assert refused.value.code == "money_table"
    assert not Seat.objects.filter(table=table).exclude(computer="").exists()


@pytest.mark.django_db
def test_the_start_needs_as_many_players_as_paid_places():
    table, seats = open_table("holdem", players=2, choices=MONEY, start=False)
    before = _row(table)
    with pytest.raises(ServiceError) as refused:
        table_start(table_id=table.pk, seat_id=seats[0].pk)
    assert refused.value.code == "too_few_players" and "3 places" in refused.value.message
    assert _row(table) == before
    third = table_join(code=table.code, invite_token=table.invite_token, user=make_user("third"))
    seat_take(table_id=table.pk, seat_id=third.pk)
    table_start(table_id=table.pk, seat_id=seats[0].pk)
    table.refresh_from_db()
    assert table.status == Table.Status.PLAYING


@pytest.mark.django_db
def test_no_prize_is_recorded_while_the_game_runs_and_the_report_says_why():
    from ledger.selectors import ledger_report

    table, _seats = open_table("holdem", players=3, choices=MONEY)
    report = ledger_report(table=table)
    assert report.by_places and report.payouts == (50, 30, 20)
    assert "paid by places when the game ends" in report.error
    assert report.transfers == []
    assert not LedgerEntry.objects.filter(table=table, kind=LedgerEntry.Kind.PRIZE).exists()


@pytest.mark.django_db
def test_the_host_cannot_send_a_player_with_chips_out_of_the_prizes():
    from tables.services import seat_remove

    table, seats = open_table("holdem", players=3, choices={**MONEY, "payouts": "65/35"})
    with override_settings(DASHAIN_NEXT_HAND_DELAY=3600):  # between hands after this one
        from tables.services import hand_act
        from tests.tables.conftest import current_turn

        while current_turn(table)[0] is not None:
            player, legal = current_turn(table)
            verbs = [action.verb for action in legal]
            hand_act(table_id=table.pk, seat_id=int(player), verb="check" if "check" in verbs else "call")
    target = Seat.objects.get(pk=seats[1].pk)
    assert target.stack > 0
    before = _row(table)
    for ban in (False, True):
        with pytest.raises(ServiceError) as refused:
            seat_remove(table_id=table.pk, seat_id=seats[0].pk, remove_seat_id=target.pk, ban=ban)
        assert refused.value.code == "keeps_place"
    assert _row(table) == before
    assert Seat.objects.get(pk=target.pk).number is not None
