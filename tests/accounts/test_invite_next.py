"""The invite survives sign-up and log-in (issue 14): the join page's links carry ``?next=``
and the player lands back on the table's join page; a ``next`` to another site is ignored."""

from __future__ import annotations

import re
from urllib.parse import quote

import pytest
from django.test import Client
from django.urls import reverse

from accounts.models import User
from tables.services import table_create

pytestmark = pytest.mark.django_db

PASSWORD = "turn-the-river-7"


@pytest.fixture
def invite() -> str:
    host = User.objects.create_user(username="asha", password=PASSWORD, display_name="Asha")
    table = table_create(host=host, game="faras", choices={})
    return reverse("table_invite", kwargs={"code": table.code, "invite_token": table.invite_token})


def _links(html: str) -> list[str]:
    return [href.replace("&amp;", "&") for href in re.findall(r'href="([^"]+)"', html)]


def test_the_join_page_links_to_log_in_and_sign_up_with_the_way_back(invite):
    page = Client().get(invite).content.decode()
    links = _links(page)
    assert f"{reverse('login')}?next={quote(invite, safe='')}" in links
    assert f"{reverse('signup')}?next={quote(invite, safe='')}" in links


def test_signing_up_from_an_invite_lands_back_at_the_table(invite):
    client = Client()
    form = client.get(reverse("signup"), {"next": invite}).content.decode()
    assert f'name="next" value="{invite}"' in form
    assert f"{reverse('login')}?next={quote(invite, safe='')}" in _links(form)
    response = client.post(
        reverse("signup"),
        {
            "username": "sita",
            "display_name": "Sita",
            "email": "",
            "password1": PASSWORD,
            "password2": PASSWORD,
            "next": invite,
        },
    )
    assert response.status_code == 302 and response.url == invite
    page = client.get(invite).content.decode()
    assert "You will join as Sita" in page


def test_logging_in_from_an_invite_lands_back_at_the_table(invite):
    User.objects.create_user(username="bikash", password=PASSWORD)
    client = Client()
    form = client.get(reverse("login"), {"next": invite}).content.decode()
    assert f'name="next" value="{invite}"' in form
    assert f"{reverse('signup')}?next={quote(invite, safe='')}" in _links(form)
    response = client.post(reverse("login"), {"username": "bikash", "password": PASSWORD, "next": invite})
    assert response.status_code == 302 and response.url == invite


@pytest.mark.parametrize(
    "target", ["https://evil.example/t/ABC/", "//evil.example/", "javascript:alert(1)", "http://testserver.evil/"]
)
def test_a_next_to_another_site_is_ignored(target):
    client = Client()
    response = client.post(
        reverse("signup"),
        {
            "username": "chandra",
            "display_name": "Chandra",
            "email": "",
            "password1": PASSWORD,
            "password2": PASSWORD,
            "next": target,
        },
    )
    assert response.status_code == 302 and response.url == reverse("home")
    # Logged in now: the sign-up page sends them on, still never off the site.
    again = client.get(reverse("signup"), {"next": target})
    assert again.url == reverse("home")
    form = Client().get(reverse("signup"), {"next": target}).content.decode()
    assert target not in form and 'name="next"' not in form


def test_a_logged_in_player_opening_sign_up_from_an_invite_goes_to_the_table(invite):
    user = User.objects.create_user(username="dipesh", password=PASSWORD)
    client = Client()
    client.force_login(user)
    response = client.get(reverse("signup"), {"next": invite})
    assert response.status_code == 302 and response.url == invite
