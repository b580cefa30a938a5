"""The host's currency: chosen with the buy-in price, fixed once anyone has bought in like
the chip value, and shown with every amount of the settlement page in the page language's
own order and decimal sign (docs/glossary-*.md)."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import translation

from ledger.templatetags.ledger_numbers import in_currency
from tables.models import Seat
from tables.pages.forms import OpenTableForm
from tables.services import (
    ServiceError,
    seat_take,
    table_create,
    table_join,
    table_update_settings,
)
from tables.services.table_settings import CURRENCIES, table_currency, table_settings_build
from tests.tables.conftest import end_game, make_user

pytestmark = pytest.mark.django_db


def test_the_host_chooses_a_currency_or_none():
    assert table_settings_build(game="faras", choices={"currency": "NPR"})["host"]["currency"] == "NPR"
    assert "currency" not in table_settings_build(game="faras", choices={})["host"]
    for bad in ("XYZ", "npr", 5, True):
        with pytest.raises(ServiceError) as refused:
            table_settings_build(game="classic", choices={"currency": bad})
        assert refused.value.field == "currency"
    # Issue 25: hold'em may be played for money too, in the same currencies.
    assert table_settings_build(game="holdem", choices={"currency": "EUR"})["host"]["currency"] == "EUR"
    with pytest.raises(ServiceError) as refused:
        table_settings_build(game="holdem", choices={"currency": "XYZ"})
    assert refused.value.field == "currency"


def test_the_open_form_offers_exactly_the_currencies_the_service_accepts():
    form = OpenTableForm(game="faras")

    assert [code for code, _label in form.fields["currency"].choices] == ["", *CURRENCIES]


def test_the_currency_is_fixed_once_anyone_has_bought_in():
    host = make_user("asha")
    table = table_create(host=host, game="faras", choices={"currency": "NPR"})
    host_seat = Seat.objects.get(table=table, user=host)
    # before any buy-in the host may change it
    table_update_settings(table_id=table.pk, seat_id=host_seat.pk, choices={"currency": "INR"})
    table.refresh_from_db()
    assert table_currency(table) == "INR"
    seat_take(table_id=table.pk, seat_id=host_seat.pk)
    table.refresh_from_db()
    before = (table.settings, table.last_seq)

    with pytest.raises(ServiceError) as refused:
        table_update_settings(table_id=table.pk, seat_id=host_seat.pk, choices={"currency": "EUR"})

    assert refused.value.code == "currency_fixed" and refused.value.field == "currency"
    table.refresh_from_db()
    assert (table.settings, table.last_seq) == before
    # a change that keeps the currency (it is merged with the earlier choices) still goes through
    table_update_settings(table_id=table.pk, seat_id=host_seat.pk, choices={"boot": 20})
    table.refresh_from_db()
    assert table_currency(table) == "INR"


@pytest.mark.parametrize(
    ("language", "price", "transfer"),
    [
        ("en", "NPR\u00a010.00", "NPR\u00a010.00"),
        ("ne", "NPR\u00a010.00", "NPR\u00a010.00"),
        ("de", "10,00\u00a0NPR", "10,00\u00a0NPR"),
    ],
)
def test_the_settlement_page_writes_amounts_in_the_hosts_currency(language, price, transfer):
    host = make_user("asha")
    table = table_create(host=host, game="faras", choices={"currency": "NPR"})
    host_seat = Seat.objects.get(table=table, user=host)
    seat_take(table_id=table.pk, seat_id=host_seat.pk)
    friend = table_join(code=table.code, invite_token=table.invite_token, user=make_user("bikash"))
    seat_take(table_id=table.pk, seat_id=friend.pk)
    end_game(table, host_seat.pk)
    client = Client()
    client.force_login(host)
    client.cookies["django_language"] = language

    text = client.get(reverse("ledger:table_report", kwargs={"code": table.code})).content.decode()

    assert price in text  # the buy-in's price, in the lead sentence and the entries
    assert text.count("NPR") >= 3


def test_the_currency_goes_where_the_language_puts_it():
    with translation.override("de"):
        assert in_currency("+8,50", "EUR") == "+8,50\u00a0EUR"
    with translation.override("hi"):
        assert in_currency("+8.50", "INR") == "INR\u00a0+8.50"
    assert in_currency("8.50", "") == "8.50"
