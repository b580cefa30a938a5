"""A kitchen-table night opened through the services, with its people."""

from __future__ import annotations

import pytest

from accounts.models import User
from kitchen.services import kitchen_add, kitchen_open
from tables.models import Seat, Table
from tables.services import table_join


def make_user(username: str) -> User:
    return User.objects.create(username=username, display_name=username.capitalize())


def open_night(host: User, *, chips: int = 1000, price: str = "10.00", currency: str = "USD") -> Table:
    return kitchen_open(host=host, buy_in_chips=chips, buy_in_price=price, currency=currency)


def host_seat(table: Table) -> Seat:
    return Seat.objects.get(table=table, user=table.host)


def add_by_name(table: Table, name: str) -> Seat:
    """The host adds a person by name (their first buy-in)."""
    return kitchen_add(table_id=table.pk, seat_id=host_seat(table).pk, name=name)


def join_as(table: Table, user: User) -> Seat:
    return table_join(code=table.code, invite_token=table.invite_token, user=user)


@pytest.fixture
def host(db) -> User:
    return make_user("asha")


@pytest.fixture
def night(host) -> Table:
    return open_night(host)
