"""Fixtures for the ledger's tests: users, a table made directly through the tables models."""

from __future__ import annotations

import itertools
from decimal import Decimal

import pytest

from accounts.models import User
from tables.models import Seat, Table

_codes = itertools.count(1)


def make_user(username: str) -> User:
    # No password: tests log in with force_login, and hashing one is slow.
    return User.objects.create(username=username)


def make_table(host: User, *, price: str = "10.00", chips: int = 1000, game: str = Table.Game.FARAS, **extra) -> Table:
    return Table.objects.create(
        code=f"LEDG{next(_codes):04d}",
        game=game,
        buy_in_chips=chips,
        buy_in_price=Decimal(price),
        host=host,
        secret_seed=b"\0" * 32,
        seed_commitment="0" * 64,
        **extra,
    )


def make_seat(table: Table, user: User | None, name: str, number: int) -> Seat:
    return Seat.objects.create(
        table=table,
        user=user,
        display_name=name,
        guest_token="" if user else f"guest-{name}-{number}",
        number=number,
        status=Seat.Status.PLAYING,
    )


@pytest.fixture
def host(db) -> User:
    return make_user("host")


@pytest.fixture
def table(host) -> Table:
    return make_table(host)
