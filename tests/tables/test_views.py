"""The lobby, the open-a-table form and joining, through Django's test client.

Rules pinned: every host setting of each game is offered with the rule book's default
(book 000 for Faras: boot 10, buy-in 1,000 chips for 10.00, blind turns 4, pot limit
1,024 boots, sideshow on, A-K-Q on top); a value out of range is refused with a message
next to its field and opens nothing; a guest joins by the link with a display name, an
account holder just joins; the table page carries only the frame (state comes by socket).
"""

from __future__ import annotations

import json
import re

import pytest
from django.test import Client
from django.urls import reverse

from tables.models import Seat, Table
from tables.pages.forms import OpenTableForm

pytestmark = pytest.mark.django_db


@pytest.fixture
def host(django_user_model):
    return django_user_model.objects.create_user(username="asha", password="pass-for-tests-1", display_name="Asha")


@pytest.fixture
def host_client(host):
    client = Client()
    client.force_login(host)
    return client


def field_block(html: str, name: str) -> str:
    """The HTML of one field's block (label, input, error, help) on the settings form."""
    pattern = r'<div class="field[^"]*" data-field="' + re.escape(name) + r'">(.*?)</div>'
    match = re.search(pattern, html, re.S)
    assert match, f"no field {name}"
    return match.group(1)


@pytest.mark.parametrize(
    ("game", "expected"),
    [
        (
            "faras",
            {
                "boot": 10,
                "buy_in_chips": 1000,
                "blind_turns": "4",
                "pot_limit_boots": 1024,
                "sideshow": "on",
                "best_run": "AKQ",
                "buy_backs": "",
            },
        ),
        ("classic", {"boot": 10, "blind_turns": "", "pot_limit_boots": None, "best_run": "AKQ"}),
        ("999", {"boot": 10, "sideshow": "off"}),
        ("holdem", {"blind_speed": "10", "game_length": ""}),
    ],
)
def test_open_form_offers_each_games_settings_with_rule_book_defaults(game, expected):
    form = OpenTableForm(game=game)
    for name, value in expected.items():
        assert name in form.fields, name
        assert form[name].initial == value or str(form[name].initial) == str(value), (name, form[name].initial)
    if game == "holdem":
        assert "boot" not in form.fields and "sideshow" not in form.fields
    else:
        assert "blind_speed" not in form.fields
    # 999 reads three cards as a number: which run is best means nothing there (book 002)
    assert ("best_run" in form.fields) == (game in ("faras", "classic"))


def test_open_page_lists_every_faras_host_setting(host_client):
    html = host_client.get(reverse("table_open") + "?game=faras").content.decode()
    for name in (
        "seats",
        "boot",
        "buy_in_chips",
        "buy_in_price",
        "buy_backs",
        "blind_turns",
        "stake_limit",
        "pot_limit_boots",
        "sideshow",
        "best_run",
        "turn_timer",
        "timeout_action",
        "hand_pause",
    ):
        assert f'name="{name}"' in html, name


def test_a_boot_out_of_range_is_refused_next_to_its_field_and_opens_nothing(host_client):
    data = {
        "game": "faras",
        "seats": 6,
        "boot": 500,
        "buy_in_chips": 1000,
        "buy_in_price": "10.00",
        "buy_backs": "",
        "blind_turns": "4",
        "pot_limit_boots": 1024,
        "sideshow": "on",
        "best_run": "AKQ",
    }
    response = host_client.post(reverse("table_open") + "?game=faras", data)
    assert response.status_code == 200
    block = field_block(response.content.decode(), "boot")
    assert "field-error" in block and "100" in block
    assert Table.objects.count() == 0


def test_a_stake_limit_that_is_not_a_multiple_of_the_boot_is_refused_by_the_engine_rule(host_client):
    data = {
        "game": "faras",
        "seats": 6,
        "boot": 10,
        "buy_in_chips": 1000,
        "buy_in_price": "10.00",
        "buy_backs": "",
        "blind_turns": "4",
        "stake_limit": 25,
        "pot_limit_boots": 1024,
        "sideshow": "on",
        "best_run": "AKQ",
    }
    response = host_client.post(reverse("table_open") + "?game=faras", data)
    block = field_block(response.content.decode(), "stake_limit")
    assert "field-error" in block
    assert Table.objects.count() == 0


def test_too_many_seats_for_holdem_is_refused_next_to_the_field(host_client):
    response = host_client.post(
        reverse("table_open") + "?game=holdem", {"game": "holdem", "seats": 9, "blind_speed": "10", "game_length": ""}
    )
    block = field_block(response.content.decode(), "seats")
    assert "field-error" in block and "6" in block
    assert Table.objects.count() == 0


def test_opening_a_faras_table_with_defaults_creates_it_and_goes_to_the_table(host_client, host):
    form = OpenTableForm(game="faras")
    data = {"game": "faras"}
    for name in form.fields:
        initial = form[name].initial
        data[name] = "" if initial is None else initial
    response = host_client.post(reverse("table_open") + "?game=faras", data)
    table = Table.objects.get()
    assert response.status_code == 302 and response["Location"] == reverse("table_detail", kwargs={"code": table.code})
    assert table.host == host and table.game == "faras"
    assert table.settings["engine"]["boot"] == 10 and table.settings["engine"]["blind_turns"] == 4
    assert table.buy_in_chips == 1000


def test_opening_needs_an_account(client):
    response = client.get(reverse("table_open"))
    assert response.status_code == 302 and "login" in response["Location"]


@pytest.fixture
def table(host_client):
    form = OpenTableForm(game="faras")
    data = {"game": "faras"}
    for name in form.fields:
        initial = form[name].initial
        data[name] = "" if initial is None else initial
    host_client.post(reverse("table_open") + "?game=faras", data)
    return Table.objects.get()


def test_a_guest_joins_by_the_link_with_a_name_and_takes_a_seat(client, table):
    link = reverse("table_invite", kwargs={"code": table.code, "invite_token": table.invite_token})
    page = client.get(link).content.decode()
    assert 'name="display_name"' in page
    refused = client.post(link, {"display_name": "   ", "role": "seat"})
    assert "field-error" in refused.content.decode()
    assert not Seat.objects.filter(table=table, user__isnull=True).exists()
    response = client.post(link, {"display_name": "Guest Gita", "role": "seat"})
    assert response["Location"] == reverse("table_detail", kwargs={"code": table.code})
    seat = Seat.objects.get(table=table, display_name="Guest Gita")
    assert seat.is_guest and seat.number == 1 and seat.stack == 1000
    # the same browser is known again: the table page renders for it
    assert client.get(response["Location"]).status_code == 200


def test_an_account_holder_just_joins_and_may_watch(client, django_user_model, table):
    bikash = django_user_model.objects.create_user(username="bikash", password="pass-for-tests-2")
    client.force_login(bikash)
    link = reverse("table_invite", kwargs={"code": table.code, "invite_token": table.invite_token})
    assert 'name="display_name"' not in client.get(link).content.decode()
    client.post(link, {"role": "watch"})
    seat = Seat.objects.get(table=table, user=bikash)
    assert seat.status == Seat.Status.WATCHING and seat.number is None


def test_join_by_code_takes_a_player_back_and_asks_a_newcomer_for_the_link(client, host_client, table):
    """Issue 14: the code alone admits no one; it takes someone already at the table back to it."""
    response = host_client.get(reverse("table_join_by_code"), {"code": table.code.lower()})
    assert response["Location"] == reverse("table_detail", kwargs={"code": table.code})
    stranger = client.get(reverse("table_join_by_code"), {"code": table.code})
    missing = client.get(reverse("table_join_by_code"), {"code": "NOPE42"})
    assert stranger.status_code == missing.status_code == 403
    assert "ask the host for the invite link" in stranger.content.decode()
    # The same answer whether the table exists or not: a code tells a stranger nothing.
    assert table.host.table_name not in stranger.content.decode()


def test_the_table_page_without_a_seat_sends_to_the_join_page(client, table):
    response = client.get(reverse("table_detail", kwargs={"code": table.code}))
    assert response["Location"] == reverse("table_join", kwargs={"code": table.code})


def test_the_table_page_holds_no_game_state_only_the_socket_and_strings(host_client, table):
    html = host_client.get(reverse("table_detail", kwargs={"code": table.code})).content.decode()
    config = json.loads(
        re.search(r'<script id="table-config" type="application/json">(.*?)</script>', html, re.S).group(1)
    )
    assert config["socket_path"].endswith(f"{table.code}/")
    assert set(config) == {
        "code",
        "game",
        "rules",
        "socket_path",
        "seat",
        "is_host",
        "title",
        "currency",
        "stake",
        "strings",
        "player_only_verbs",
    }
    assert config["strings"]["chaal"] == "Chaal"
    # The moves "Act for" never offers: those that show or compare a player's cards (issue 38).
    assert config["player_only_verbs"] == ["accept", "see", "show", "sideshow"]


def test_the_lobby_lists_the_tables_i_host_and_play_at(host_client, table):
    html = host_client.get(reverse("lobby")).content.decode()
    assert table.code in html and "Host" in html


def test_only_the_host_reaches_the_settings_page_and_a_bad_value_is_refused_beside_it(
    host_client, django_user_model, table
):
    url = reverse("table_settings", kwargs={"code": table.code})
    page = host_client.get(url).content.decode()
    assert 'name="boot"' in page and 'value="10"' in field_block(page, "boot")
    refused = host_client.post(
        url,
        {
            "seats": 6,
            "boot": 0,
            "buy_in_chips": 1000,
            "buy_in_price": "10.00",
            "sideshow": "on",
            "best_run": "AKQ",
            "blind_turns": "4",
        },
    )
    assert "field-error" in field_block(refused.content.decode(), "boot")
    table.refresh_from_db()
    assert table.settings["engine"]["boot"] == 10
    saved = host_client.post(
        url,
        {
            "seats": 6,
            "boot": 20,
            "buy_in_chips": 1000,
            "buy_in_price": "10.00",
            "sideshow": "on",
            "best_run": "AKQ",
            "blind_turns": "4",
            "pot_limit_boots": 1024,
        },
    )
    assert saved["Location"] == reverse("table_detail", kwargs={"code": table.code})
    table.refresh_from_db()
    assert table.settings["engine"]["boot"] == 20

    other = Client()
    other.force_login(django_user_model.objects.create_user(username="bikash", password="pass-for-tests-2"))
    other.post(
        reverse("table_invite", kwargs={"code": table.code, "invite_token": table.invite_token}), {"role": "watch"}
    )
    assert other.get(url).status_code == 404
