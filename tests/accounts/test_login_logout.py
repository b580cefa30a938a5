"""Log in with Django's form, log out only by POST."""

import pytest
from django.contrib.auth.forms import AuthenticationForm
from django.urls import reverse
from django.utils.html import escape

from accounts.models import User

pytestmark = pytest.mark.django_db

PASSWORD = "turn-the-river-7"


@pytest.fixture
def player():
    return User.objects.create_user(username="hari", password=PASSWORD, display_name="Hari")


def test_log_in_with_the_right_password_starts_a_session(client, player):
    response = client.post(reverse("login"), {"username": "hari", "password": PASSWORD})

    assert response.status_code == 302
    assert response.url == reverse("home")
    assert client.session["_auth_user_id"] == str(player.pk)


def test_log_in_goes_back_to_the_page_asked_for(client, player):
    response = client.post(reverse("login") + "?next=/accounts/profile/", {"username": "hari", "password": PASSWORD})

    assert response.url == "/accounts/profile/"


def test_a_wrong_password_is_refused_with_the_forms_own_message(client, player):
    response = client.post(reverse("login"), {"username": "hari", "password": PASSWORD + "x"})

    assert response.status_code == 200
    form = response.context["form"]
    message = form.error_messages["invalid_login"] % {"username": form.username_field.verbose_name}
    assert form.non_field_errors() == [message]
    assert escape(str(message)) in response.text
    assert "_auth_user_id" not in client.session
    player.refresh_from_db()
    assert player.last_login is None
    assert isinstance(form, AuthenticationForm)


def test_log_out_is_a_post_and_ends_the_session(client, player):
    client.force_login(player)

    assert client.get(reverse("logout")).status_code == 405
    assert "_auth_user_id" in client.session

    response = client.post(reverse("logout"))

    assert response.status_code == 302
    assert response.url == reverse("home")
    assert "_auth_user_id" not in client.session


def test_the_header_shows_the_display_name_and_a_logout_form(client, player):
    client.force_login(player)

    page = client.get(reverse("home")).text

    assert '<a class="site-nav__user"' in page and ">Hari</a>" in page
    assert f'method="post" action="{reverse("logout")}"' in page


def test_the_header_offers_log_in_and_sign_up_to_a_visitor(client):
    page = client.get(reverse("home")).text

    assert f'href="{reverse("login")}"' in page
    assert f'href="{reverse("signup")}"' in page
    assert reverse("logout") not in page


def test_a_logged_in_player_skips_the_login_page(client, player):
    client.force_login(player)

    response = client.get(reverse("login") + "?next=/accounts/profile/")

    assert response.status_code == 302
    assert response.url == "/accounts/profile/"
