"""Amounts typed at the kitchen table in the page's language: in German "10,50" is ten fifty
(a German phone's decimal keypad offers only the comma; the page's own message said "etwa
10,00" and refused it). Only where it cannot mean anything else: "10,50" in English, or
"1.050,00" in German, is refused as before and opens or records nothing."""

from __future__ import annotations

from decimal import Decimal

import pytest
from django.urls import reverse

from kitchen.models import KitchenNight
from ledger.models import SharedCost
from tables.models import Table
from tests.kitchen.conftest import add_by_name, host_seat
from tests.kitchen.test_from_planned_night import TOURNAMENT_POST
from tests.kitchen.test_refusals import cash_night  # noqa: F401 (the fixture)


def opened(client, host, language, url, data):
    client.force_login(host)
    client.cookies.load({"django_language": language})
    before = Table.objects.count()
    client.post(reverse(url), data)
    return Table.objects.order_by("-pk").first() if Table.objects.count() > before else None


@pytest.mark.parametrize("url", ["kitchen:new", "kitchen:tournament_new"])
def test_a_german_host_types_the_price_with_a_comma(client, host, url):
    data = dict(TOURNAMENT_POST) if url == "kitchen:tournament_new" else {"buy_in_chips": "1000", "currency": "EUR"}
    table = opened(client, host, "de", url, {**data, "buy_in_price": "10,50"})
    assert table is not None and Decimal(table.buy_in_price) == Decimal("10.50")


@pytest.mark.parametrize(("language", "typed"), [("en", "10,50"), ("de", "1.050,00"), ("de", "10,5,0")])
def test_a_price_that_could_mean_two_things_is_refused(client, host, language, typed):
    assert opened(client, host, language, "kitchen:new", {"buy_in_chips": "1000", "buy_in_price": typed}) is None
    assert not KitchenNight.objects.exists()


def test_a_german_host_types_a_cost_with_a_comma(client, cash_night):  # noqa: F811
    table, act = cash_night
    bina = add_by_name(table, "Bina")
    hostseat = host_seat(table)
    client.cookies.load({"django_language": "de"})
    sharers = [hostseat.pk, bina.pk]
    client.post(act, {"action": "cost", "what": "Pizza", "amount": "12,50", "paid_by": hostseat.pk, "sharer": sharers})
    assert [cost.amount for cost in SharedCost.objects.all()] == [Decimal("12.50")]
