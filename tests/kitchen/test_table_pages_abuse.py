"""A kitchen night's people posting to the online table's own pages (the forms of
``tables.pages``), which know nothing of the night's rules: refused, writing nothing."""

from __future__ import annotations

import pytest
from django.urls import reverse

from kitchen.services import kitchen_buy_in
from kitchen.tournament import kitchen_clock_start
from tables.events import EventKind
from tables.models import Event
from tables.selectors import requests_pending
from tests.kitchen.conftest import host_seat, join_as, make_user, open_night
from tests.kitchen.test_refusals import refused_on_the_page
from tests.kitchen.test_tournament import at, open_tournament

pytestmark = pytest.mark.django_db


NOT_DEALT = "This night is played with real cards: record it on the night&#x27;s page."


def test_the_host_cannot_remove_a_player_through_the_tables_settings_form(client, host, night):
    """Removing a player from the online table's settings form cashed out their chips as the
    table held them, with nobody counting what they handed back."""
    bikash = join_as(night, make_user("bikash"))
    kitchen_buy_in(table_id=night.pk, seat_id=host_seat(night).pk, player_seat_id=bikash.pk)
    client.force_login(host)
    url = reverse("table_remove", kwargs={"code": night.code})
    refused_on_the_page(client, url, {"seat": bikash.pk}, NOT_DEALT)
    refused_on_the_page(client, url, {"seat": bikash.pk, "ban": "on"}, NOT_DEALT)


def test_the_host_cannot_add_a_player_after_the_rebuy_period(client, host):
    """A new player added by name is a buy-in: after the period it is refused as a re-buy is,
    on the night's page; the online table's own form for it refuses a kitchen night."""
    table = open_tournament(host, rebuy_levels=1)
    hostseat = host_seat(table)
    kitchen_buy_in(table_id=table.pk, seat_id=hostseat.pk, player_seat_id=hostseat.pk)
    with at(0):
        kitchen_clock_start(table_id=table.pk, seat_id=hostseat.pk)
    client.force_login(host)
    act = reverse("kitchen:act", kwargs={"code": table.code})
    with at(700):
        refused_on_the_page(client, act, {"action": "add", "name": "Bina"}, "The re-buy period is over.")
        refused_on_the_page(
            client,
            reverse("table_local_players", kwargs={"code": table.code}),
            {"name": "Bina"},
            NOT_DEALT,
        )


def test_a_newcomer_by_the_tables_invite_link_cannot_ask_for_a_seat_after_the_period(client, host):
    """The online table's join form, "take a seat", asks the host through the tables' own
    requests, which know no re-buy period: at a kitchen night it asks nothing (the person
    joins and is sent to the night's page, where asking follows the night's rules)."""
    table = open_tournament(host, rebuy_levels=1)
    hostseat = host_seat(table)
    with at(0):
        kitchen_clock_start(table_id=table.pk, seat_id=hostseat.pk)
    url = reverse("table_invite", kwargs={"code": table.code, "invite_token": table.invite_token})
    with at(700):
        response = client.post(url, {"display_name": "Dipa", "role": "seat"}, follow=True)
    assert response.status_code == 200
    assert NOT_DEALT in response.content.decode()
    assert not Event.objects.filter(table=table, kind=EventKind.REQUEST_MADE).exists()
    assert requests_pending(table=table) == []


@pytest.mark.parametrize("command", ["add", "fill"])
def test_the_host_cannot_seat_computers_at_a_night_for_play_chips(client, host, command):
    """The online table's computers form (a table for play chips only): at a kitchen night
    for play chips it seated a computer, whose chips nobody would hand back to the bank."""
    night = open_night(host, price="0")
    client.force_login(host)
    url = reverse("table_computers", kwargs={"code": night.code})
    refused_on_the_page(client, url, {"command": command, "strength": "easy"}, NOT_DEALT)


def test_a_stranger_with_only_the_code_asks_the_online_table_and_nothing_is_recorded(client, host, night):
    """The lobby's "Ask the host" with a kitchen night's code: the online table's join request
    would wait where the night's page never shows it. Nothing is recorded, and the stranger
    sees the same waiting page as for any code, so the answer tells nothing of the code."""
    log_before = list(Event.objects.filter(table=night).values_list("seq", "kind"))
    response = client.post(reverse("table_join_by_code"), {"code": night.code, "display_name": "Stranger"})
    assert response.status_code == 302
    assert response["Location"].endswith(f"?code={night.code}")
    unknown = client.post(reverse("table_join_by_code"), {"code": "ZZZZZZ", "display_name": "Stranger"})
    assert unknown.status_code == 302 and unknown["Location"].endswith("?code=ZZZZZZ")
    assert list(Event.objects.filter(table=night).values_list("seq", "kind")) == log_before
    assert requests_pending(table=night, private=True) == []
    client.force_login(make_user("eve"))
    client.post(reverse("table_join_by_code"), {"code": night.code})
    assert list(Event.objects.filter(table=night).values_list("seq", "kind")) == log_before
