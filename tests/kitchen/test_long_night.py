"""A long kitchen-table night: once the table's log passes 999 events, a request's number on
the host's page is written without the language's grouping ("1,501" was sent back, read as
no number, and the host could confirm or deny no request for the rest of the night)."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from kitchen.services import kitchen_ask
from tables.models import Table
from tables.selectors import requests_pending
from tests.kitchen.conftest import join_as, make_user
from tests.kitchen.test_refusals import cash_night  # noqa: F401 (the fixture)


@pytest.mark.parametrize("language", ["en", "de", "hi"])
def test_past_999_events_the_host_confirms_a_request_from_the_page(client, cash_night, language):  # noqa: F811
    table, act = cash_night
    Table.objects.filter(pk=table.pk).update(last_seq=1499)
    dev = join_as(table, make_user("dev"))
    kitchen_ask(table_id=table.pk, seat_id=dev.pk)
    (pending,) = requests_pending(table=table)
    assert pending["request"] > 1000
    client.cookies.load({"django_language": language})

    page = client.get(reverse("kitchen:night", kwargs={"code": table.code})).content.decode()
    (sent,) = re.findall(r'name="request" value="([^"]*)"', page)
    assert sent == str(pending["request"])
    client.post(act, {"action": "approve", "request": sent}, follow=True)
    assert requests_pending(table=table) == []
    dev.refresh_from_db()
    assert dev.buy_ins == 1
