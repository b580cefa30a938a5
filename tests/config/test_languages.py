"""The site's language: the switcher, the browser's language on a first visit, the choice
kept by the cookie (guests) and by the account (accounts.language), the JS catalogue."""

from __future__ import annotations

import pytest
from django.conf import settings
from django.test import Client
from django.urls import reverse

from accounts.models import User

pytestmark = pytest.mark.django_db

COOKIE = settings.LANGUAGE_COOKIE_NAME


@pytest.fixture
def player():
    return User.objects.create_user(username="sita", password="turn-the-river-7", display_name="Sita")


def page_language(response) -> str:
    text = response.content.decode()
    start = text.index('<html lang="') + len('<html lang="')
    return text[start : text.index('"', start)]


def test_the_browser_language_is_chosen_on_the_first_visit(client):
    assert page_language(client.get("/", HTTP_ACCEPT_LANGUAGE="hi-IN,hi;q=0.9,en;q=0.5")) == "hi"
    assert page_language(client.get("/", HTTP_ACCEPT_LANGUAGE="de-AT")) == "de"
    assert page_language(client.get("/", HTTP_ACCEPT_LANGUAGE="fr")) == "en"


@pytest.mark.parametrize("path_name", ["home", "login", "signup", "password_reset"])
def test_every_page_has_the_switcher_with_each_language_in_its_own_name(client, path_name):
    text = client.get(reverse(path_name)).content.decode()

    assert f'action="{reverse("set_language")}"' in text
    for own_name in ("English", "नेपाली", "हिंदी", "Deutsch"):
        assert own_name in text
    assert reverse("javascript-catalog") in text


def test_a_guest_choice_is_kept_by_the_cookie_over_the_browser(client):
    response = client.post(reverse("set_language"), {"language": "ne", "next": "/accounts/login/"})

    assert response.status_code == 302
    assert response.url == "/accounts/login/"
    assert client.cookies[COOKIE].value == "ne"
    assert page_language(client.get("/", HTTP_ACCEPT_LANGUAGE="de")) == "ne"


def test_the_switcher_returns_to_the_page_it_was_on(client):
    page = "/accounts/login/?next=/tables/"

    response = client.post(reverse("set_language"), {"language": "hi"}, HTTP_REFERER=f"http://testserver{page}")

    assert response.status_code == 302
    assert response.url == f"http://testserver{page}"
    foreign = client.post(reverse("set_language"), {"language": "hi"}, HTTP_REFERER="https://evil.example/")
    assert foreign.url == "/"


def test_the_switcher_does_not_echo_the_pages_query(client):
    text = client.get(reverse("login"), {"next": "https://evil.example/"}).content.decode()

    switcher = text[text.index('class="language-switcher"') :]
    assert "evil.example" not in switcher[: switcher.index("</form>")]


def test_an_unknown_language_or_a_foreign_next_changes_nothing(client, player):
    client.force_login(player)

    response = client.post(reverse("set_language"), {"language": "xx", "next": "https://evil.example/"})

    assert response.status_code == 302
    assert response.url == "/"  # not the foreign address
    assert COOKIE not in client.cookies
    player.refresh_from_db()
    assert player.language == ""


def test_a_get_to_the_switcher_changes_nothing(client, player):
    client.force_login(player)

    client.get(reverse("set_language"), {"language": "de"})

    player.refresh_from_db()
    assert player.language == ""
    assert COOKIE not in client.cookies


def test_the_account_remembers_the_choice_and_applies_it_at_login_on_another_device(client, player):
    client.force_login(player)
    client.post(reverse("set_language"), {"language": "de", "next": "/"})
    player.refresh_from_db()
    assert player.language == "de"

    other_device = Client()
    response = other_device.post(
        reverse("login"), {"username": "sita", "password": "turn-the-river-7"}, HTTP_ACCEPT_LANGUAGE="hi"
    )

    assert response.status_code == 302
    assert other_device.cookies[COOKIE].value == "de"
    assert page_language(other_device.get("/", HTTP_ACCEPT_LANGUAGE="hi")) == "de"


def test_the_account_language_wins_over_a_stale_cookie(client, player):
    player.language = "hi"
    player.save()
    client.cookies[COOKIE] = "de"
    client.force_login(player)

    response = client.get("/")

    assert page_language(response) == "hi"
    assert response.cookies[COOKIE].value == "hi"


def test_a_guest_choice_becomes_the_account_choice_at_login_when_it_has_none(client, player):
    client.post(reverse("set_language"), {"language": "ne", "next": "/"})

    client.post(reverse("login"), {"username": "sita", "password": "turn-the-river-7"})

    player.refresh_from_db()
    assert player.language == "ne"


def test_the_language_stays_after_logging_out(client, player):
    player.language = "de"
    player.save()
    client.post(reverse("login"), {"username": "sita", "password": "turn-the-river-7"})

    client.post(reverse("logout"))

    assert page_language(client.get("/", HTTP_ACCEPT_LANGUAGE="en")) == "de"


def test_the_profile_form_sets_the_language_and_empty_means_the_browser(client, player):
    client.force_login(player)

    client.post(reverse("profile"), {"display_name": "Sita", "email": "", "language": "hi"})
    player.refresh_from_db()
    assert player.language == "hi"

    client.post(reverse("profile"), {"display_name": "Sita", "email": "", "language": ""})
    player.refresh_from_db()
    assert player.language == ""

    response = client.post(reverse("profile"), {"display_name": "Sita", "email": "", "language": "klingon"})
    assert "language" in response.context["form"].errors
    player.refresh_from_db()
    assert player.language == ""


def test_the_javascript_catalogue_gives_the_page_scripts_gettext(client):
    response = client.get(reverse("javascript-catalog"), HTTP_ACCEPT_LANGUAGE="de")

    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/javascript")
    script = response.content.decode()
    for name in ("gettext", "ngettext", "interpolate", "get_format"):
        assert f"django.{name} = function" in script
