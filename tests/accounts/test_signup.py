"""Sign-up: a new player gets an account and is logged in; bad input creates nothing."""

import re

import pytest
from django.contrib.auth import password_validation
from django.urls import reverse
from django.utils.html import escape

from accounts.forms import SignUpForm
from accounts.models import User
from homegames.models import MemberPrefs
from homegames.selectors import user_zone

pytestmark = pytest.mark.django_db

GOOD_PASSWORD = "turn-the-river-7"


def sign_up(client, **overrides):
    data = {
        "username": "sita",
        "display_name": "Sita Didi",
        "email": "",
        "password1": GOOD_PASSWORD,
        "password2": GOOD_PASSWORD,
    } | overrides
    return client.post(reverse("signup"), data)


def test_sign_up_creates_the_account_logs_in_and_keeps_the_display_name(client):
    response = sign_up(client)

    assert response.status_code == 302
    assert response.url == reverse("home")
    user = User.objects.get(username="sita")
    assert user.display_name == "Sita Didi"
    assert user.table_name == "Sita Didi"
    assert user.check_password(GOOD_PASSWORD)
    assert user.password != GOOD_PASSWORD  # stored as Django's hash, never as typed
    assert client.session["_auth_user_id"] == str(user.pk)
    home = client.get(reverse("home"))
    assert "Sita Didi" in home.text


def test_display_name_may_be_left_empty_and_the_username_is_shown(client):
    sign_up(client, display_name="")

    assert User.objects.get(username="sita").table_name == "sita"


def test_a_taken_username_is_refused_even_in_another_case(client):
    User.objects.create_user(username="Sita", password=GOOD_PASSWORD)

    response = sign_up(client, username="sita")

    assert response.status_code == 200
    message = User().unique_error_message(User, ["username"]).message
    assert response.context["form"].errors["username"] == [message]
    assert escape(str(message)) in response.text
    assert User.objects.count() == 1
    assert "_auth_user_id" not in client.session


@pytest.mark.parametrize(
    "password",
    ["password", "12345678", "sita2", "sitadidi1"],
    ids=["common", "numeric", "short", "like-the-display-name"],
)
def test_a_weak_password_is_refused_with_the_validators_own_message(client, password):
    expected = []
    try:
        password_validation.validate_password(password, User(username="sita", display_name="Sita Didi"))
    except Exception as error:  # ValidationError: its messages are what the form must show
        expected = list(error.messages)
    assert expected, "the chosen password must be one Django's validators refuse"

    response = sign_up(client, password1=password, password2=password)

    assert response.status_code == 200
    assert response.context["form"].errors["password2"] == expected
    for message in expected:
        assert escape(str(message)) in response.text
    assert not User.objects.exists()


def test_two_different_passwords_are_refused(client):
    response = sign_up(client, password2=GOOD_PASSWORD + "x")

    assert response.status_code == 200
    message = SignUpForm.error_messages["password_mismatch"]
    assert response.context["form"].errors["password2"] == [message]
    assert not User.objects.exists()


def test_a_display_name_longer_than_forty_characters_is_refused(client):
    response = sign_up(client, display_name="x" * 41)

    assert response.status_code == 200
    assert "display_name" in response.context["form"].errors
    assert not User.objects.exists()


def test_the_sign_up_page_extends_the_base_layout(client):
    response = client.get(reverse("signup"))

    assert response.status_code == 200
    assert [t.name for t in response.templates][:2] == ["accounts/signup.html", "base.html"]
    assert 'name="password2"' in response.text


def test_a_logged_in_player_is_sent_home_instead_of_signing_up_again(client):
    player = User.objects.create_user(username="sita", password=GOOD_PASSWORD)
    client.force_login(player)

    response = sign_up(client, username="sita2")

    assert response.status_code == 302
    assert response.url == reverse("home")
    assert User.objects.count() == 1


def test_the_time_zone_confirmed_at_sign_up_is_the_one_the_nights_are_shown_in(client):
    page = client.get(reverse("signup"))
    zone_list = re.search(r'<select name="time_zone"[^>]*>', page.text)
    assert zone_list is not None and "data-browser-zone" in zone_list.group(0)  # static/js/zone_field.js sets it
    assert re.search(r'<option value="UTC" selected>', page.text)  # without the browser's, UTC

    response = sign_up(client, time_zone="Asia/Kathmandu")

    assert response.status_code == 302
    user = User.objects.get(username="sita")
    assert MemberPrefs.objects.get(user=user).time_zone == "Asia/Kathmandu"
    assert MemberPrefs.objects.get(user=user).reminders is True
    assert str(user_zone(user)) == "Asia/Kathmandu"


def test_a_zone_not_on_the_list_is_refused_and_creates_nothing(client):
    response = sign_up(client, time_zone="Mars/Olympus_Mons", username="ravi", password2="not-the-same-1")

    assert response.status_code == 200
    assert not User.objects.filter(username="ravi").exists()
    assert not MemberPrefs.objects.exists()
    errors = response.context["form"].errors
    assert "time_zone" in errors and "password2" in errors
    # Sent back with errors, the list keeps the person's choice: the browser's zone is not put over it.
    zone_list = re.search(r'<select name="time_zone"[^>]*>', response.text)
    assert zone_list is not None and "data-browser-zone" not in zone_list.group(0)


def test_a_sign_up_without_a_zone_keeps_none_and_the_nights_propose_the_browsers(client):
    assert sign_up(client).status_code == 302
    assert not MemberPrefs.objects.filter(user__username="sita").exists()
