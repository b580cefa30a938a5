"""Two openings of one planned night at the same moment, on PostgreSQL (each in its own
thread and connection): the planned night's row is locked before anything is opened, so one
opens the night at the kitchen table and the other, which waited for it, opens nothing: at
the kitchen table it is refused, online it goes to the table the first opened."""

from __future__ import annotations

import threading

import pytest
from django.db import connection, transaction
from django.test import Client
from django.urls import reverse

from homegames.models import Night
from homegames.services_tonight import night_open_with
from kitchen.models import KitchenNight
from kitchen.services import kitchen_open
from tables.models import Table
from tests.kitchen.test_from_planned_night import CASH_POST, cash_form, group, page_of, plan  # noqa: F401 (the fixture)

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]


@pytest.mark.parametrize("second_way", ["kitchen", "online"])
def test_two_openings_at_once_open_one_night(group, second_way):  # noqa: F811
    """The second request opens it at the kitchen table again (refused: already open) or
    online (it goes to the table the first opened)."""
    _home_game, host, _members = group
    night = plan(group)
    online = reverse("homegames:night_open", kwargs={"home_game_id": night.home_game_id, "night_id": night.pk})
    errors: list[BaseException] = []
    responses: list = []
    opened, go = threading.Event(), threading.Event()

    def first() -> None:  # opens, and holds its transaction open until the second is waiting
        try:
            with transaction.atomic():
                night_open_with(
                    night=night,
                    by=host,
                    open_table=lambda: kitchen_open(host=host, buy_in_chips=2000, buy_in_price="20.00"),
                )
                opened.set()
                go.wait(5)
        except BaseException as error:  # pragma: no cover - reported by the test
            errors.append(error)
        finally:
            connection.close()

    def second() -> None:  # the host's second request, from another tab
        try:
            client = Client()
            client.force_login(host)
            if second_way == "kitchen":
                responses.append(client.post(cash_form(night), CASH_POST))
            else:
                responses.append(client.post(online))
        except BaseException as error:  # pragma: no cover - reported by the test
            errors.append(error)
        finally:
            connection.close()

    one = threading.Thread(target=first)
    one.start()
    assert opened.wait(5)
    two = threading.Thread(target=second)
    two.start()
    two.join(0.3)
    waited = two.is_alive()  # it waits for the planned night's row
    go.set()
    one.join(5)
    two.join(5)
    assert not errors, errors
    assert waited
    table = Table.objects.get(kitchen_night__isnull=False)
    expected = page_of(night) if second_way == "kitchen" else reverse("table_detail", kwargs={"code": table.code})
    assert responses[0]["Location"] == expected
    assert Table.objects.count() == KitchenNight.objects.count() == Night.objects.count() == 1
    assert Night.objects.get(pk=night.pk).table == Table.objects.get()
