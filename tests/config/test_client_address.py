"""Every limit counts the address daphne gives, never one a header of the client's names.

Rule pinned (issue 34, item 2; config/limits.py; docs/deployment.md, "The client's address"):
behind README's nginx, daphne's ``--proxy-headers`` turns the ``X-Forwarded-For`` nginx sets
into the request's ``REMOTE_ADDR`` and the socket's ``client``. The login throttle
(django-axes, through ``AXES_CLIENT_IP_CALLABLE``), the join limits and the socket limits
read that, and nothing reads an address from a header itself: a client that writes
``X-Forwarded-For`` (or ``X-Real-IP``) to this process changes no count. Whether nginx lets
a client's header through at all is tested by running README's recipe
(``tests/production/test_recipe.py``).
"""

from __future__ import annotations

import random

import pytest
from axes.helpers import get_client_ip_address
from django.conf import settings
from django.test import Client, RequestFactory
from django.urls import reverse

from accounts.models import User
from config.limits import MAX_FAILED_JOINS, join_attempts_forget
from tables.live.socket_limits import socket_who

PASSWORD = "turn-the-river-7"


def _address() -> str:
    return f"10.{random.randint(0, 255)}.{random.randint(0, 255)}.{random.randint(1, 254)}"


def _forged(number: int) -> dict[str, str]:
    return {"HTTP_X_FORWARDED_FOR": f"203.0.113.{number % 250 + 1}", "HTTP_X_REAL_IP": f"198.51.100.{number % 250 + 1}"}


def test_axes_reads_the_address_daphne_gave_even_were_ipware_installed():
    request = RequestFactory().get("/", REMOTE_ADDR="192.0.2.7", **_forged(1))

    assert get_client_ip_address(request, use_ipware=True) == "192.0.2.7"
    assert get_client_ip_address(request) == "192.0.2.7"


@pytest.mark.django_db
def test_a_login_made_without_an_address_goes_through():
    """Django's test client logs in with a request that has no REMOTE_ADDR, as any login made
    in code does: axes looks its attempts up under no address (PostgreSQL's IP address column
    refuses a word such as "unknown"), and the login goes through."""
    user = User.objects.create_user(username="asha", password=PASSWORD)
    client = Client()
    client.force_login(user)

    assert client.get(reverse("profile")).status_code == 200


@pytest.mark.django_db
def test_wrong_passwords_with_a_forged_address_each_time_still_lock_out():
    User.objects.create_user(username="asha", password=PASSWORD)
    client = Client(REMOTE_ADDR=_address())

    statuses = [
        client.post(reverse("login"), {"username": "asha", "password": "wrong"}, **_forged(attempt)).status_code
        for attempt in range(settings.AXES_FAILURE_LIMIT + 1)
    ]

    assert statuses[-1] == 429


@pytest.mark.django_db
def test_a_victims_address_written_in_the_header_does_not_lock_the_victim_out():
    User.objects.create_user(username="asha", password=PASSWORD)
    victim, attacker = _address(), _address()
    forged = {"HTTP_X_FORWARDED_FOR": victim}
    for _attempt in range(settings.AXES_FAILURE_LIMIT + 1):
        Client(REMOTE_ADDR=attacker).post(reverse("login"), {"username": "asha", "password": "wrong"}, **forged)

    answer = Client(REMOTE_ADDR=victim).post(reverse("login"), {"username": "asha", "password": PASSWORD})

    assert answer.status_code == 302


@pytest.mark.django_db
def test_join_guesses_with_a_forged_address_each_time_still_reach_429():
    guesser = _address()
    client = Client(REMOTE_ADDR=guesser)
    try:
        statuses = [
            client.get(reverse("table_join", kwargs={"code": f"NOPE{attempt:02d}"}), **_forged(attempt)).status_code
            for attempt in range(MAX_FAILED_JOINS + 1)
        ]
    finally:
        join_attempts_forget(guesser)

    assert statuses[:MAX_FAILED_JOINS] == [403] * MAX_FAILED_JOINS
    assert statuses[-1] == 429


def test_a_socket_counts_against_its_scopes_client_not_its_headers():
    scope = {
        "client": ("192.0.2.9", 50123),
        "headers": [(b"x-forwarded-for", b"203.0.113.5"), (b"x-real-ip", b"198.51.100.5")],
    }

    assert socket_who(scope, guest_token=None).address == "192.0.2.9"
