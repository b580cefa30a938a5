"""Login throttled (issue 24, item 11) by django-axes: wrong passwords for one username from
one address are counted in the database; past the limit that username is locked out from
that address for the cool-off, with a page that says so (translated); other players on the
same address (one home Wi-Fi) and the same player from elsewhere still log in."""

from __future__ import annotations

import random

import pytest
from axes.models import AccessAttempt, AccessLog
from django.conf import settings
from django.core.management import call_command
from django.test import Client
from django.urls import reverse

from accounts.models import User

pytestmark = pytest.mark.django_db

PASSWORD = "turn-the-river-7"
LIMIT = settings.AXES_FAILURE_LIMIT


@pytest.fixture
def wifi() -> str:
    return f"10.{random.randint(0, 255)}.{random.randint(0, 255)}.20"


@pytest.fixture
def players():
    return [User.objects.create_user(username=name, password=PASSWORD) for name in ("asha", "bikash")]


def _log_in(address: str, username: str, password: str, **headers: str):
    return Client(REMOTE_ADDR=address).post(reverse("login"), {"username": username, "password": password}, **headers)


def _typos(address: str, username: str, count: int) -> list[int]:
    return [_log_in(address, username, PASSWORD + "x").status_code for _attempt in range(count)]


def test_wrong_passwords_lock_that_username_at_that_address_with_a_page_that_says_why(players, wifi):
    statuses = _typos(wifi, "asha", LIMIT + 2)
    assert statuses[: LIMIT - 1] == [200] * (LIMIT - 1)  # the form's "wrong password", as before
    assert set(statuses[LIMIT:]) == {429}
    locked = _log_in(wifi, "asha", PASSWORD)  # the right password too, while the lock lasts
    assert locked.status_code == 429
    page = locked.content.decode()
    assert "Too many tries" in page and "15 minutes" in page
    assert "_auth_user_id" not in locked.client.session


def test_the_count_lives_in_the_database_so_every_process_sees_it(players, wifi):
    _typos(wifi, "asha", 3)
    attempt = AccessAttempt.objects.get(username="asha", ip_address=wifi)
    assert attempt.failures_since_start == 3
    assert settings.AXES_HANDLER == "axes.handlers.database.AxesDatabaseHandler"
    # A success clears the count, and no record is kept of who logged in from where.
    assert _log_in(wifi, "asha", PASSWORD).status_code == 302
    assert not AccessAttempt.objects.filter(username="asha").exists()
    assert not AccessLog.objects.exists()


def test_one_players_typos_never_lock_out_the_house(players, wifi):
    _typos(wifi, "asha", LIMIT + 2)
    assert _log_in(wifi, "bikash", PASSWORD).status_code == 302  # the same Wi-Fi, another player
    elsewhere = f"10.{random.randint(0, 255)}.{random.randint(0, 255)}.21"
    assert _log_in(elsewhere, "asha", PASSWORD).status_code == 302  # the same player, elsewhere


def test_a_right_password_before_the_limit_starts_the_count_again(players, wifi):
    _typos(wifi, "asha", LIMIT - 1)
    assert _log_in(wifi, "asha", PASSWORD).status_code == 302
    assert set(_typos(wifi, "asha", LIMIT - 1)) == {200}


def test_the_lockout_page_is_in_the_players_language(players, wifi):
    _typos(wifi, "asha", LIMIT)
    page = _log_in(wifi, "asha", PASSWORD, HTTP_ACCEPT_LANGUAGE="de").content.decode()
    assert "Too many tries" not in page
    assert "15 Minuten" in page


def test_the_operator_lifts_a_lock_with_axes_reset(players, wifi):
    _typos(wifi, "asha", LIMIT)
    assert _log_in(wifi, "asha", PASSWORD).status_code == 429
    call_command("axes_reset_username", "asha")
    assert _log_in(wifi, "asha", PASSWORD).status_code == 302
    _typos(wifi, "asha", LIMIT)
    call_command("axes_reset")
    assert _log_in(wifi, "asha", PASSWORD).status_code == 302
