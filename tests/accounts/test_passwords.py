"""Password change (logged in) and reset (by an e-mailed link), both Django's own views."""

import re

import pytest
from django.contrib.auth.forms import PasswordChangeForm
from django.core import mail
from django.urls import reverse
from django.utils.html import escape

from accounts.models import User

pytestmark = pytest.mark.django_db

OLD = "turn-the-river-7"
NEW = "flop-a-set-of-nines"


@pytest.fixture
def player(client):
    user = User.objects.create_user(username="gita", password=OLD, email="gita@example.com")
    return user


def change(client, old, new1, new2=None):
    return client.post(
        reverse("password_change"),
        {"old_password": old, "new_password1": new1, "new_password2": new2 or new1},
    )


def test_password_change_needs_a_login(client):
    response = client.get(reverse("password_change"))

    assert response.status_code == 302
    assert response.url.startswith(reverse("login"))


def test_password_change_sets_the_new_password_and_keeps_the_session(client, player):
    client.force_login(player)

    response = change(client, OLD, NEW)

    assert response.status_code == 302
    assert response.url == reverse("password_change_done")
    player.refresh_from_db()
    assert player.check_password(NEW)
    assert client.get(reverse("profile")).status_code == 200  # still logged in


def test_a_wrong_old_password_changes_nothing(client, player):
    client.force_login(player)

    response = change(client, OLD + "x", NEW)

    assert response.status_code == 200
    message = PasswordChangeForm.error_messages["password_incorrect"]
    assert response.context["form"].errors["old_password"] == [message]
    assert escape(str(message)) in response.text
    player.refresh_from_db()
    assert player.check_password(OLD)


def test_a_weak_new_password_changes_nothing(client, player):
    client.force_login(player)

    response = change(client, OLD, "12345678")

    assert response.status_code == 200
    assert "new_password2" in response.context["form"].errors
    player.refresh_from_db()
    assert player.check_password(OLD)


def test_password_reset_mails_a_link_that_sets_a_new_password(client, player):
    response = client.post(reverse("password_reset"), {"email": "gita@example.com"})
    assert response.url == reverse("password_reset_done")
    assert len(mail.outbox) == 1
    link = re.search(r"https?://[^/\s]+(/accounts/reset/\S+/)", mail.outbox[0].body).group(1)
    assert "gita" in mail.outbox[0].body

    form_page = client.get(link, follow=True)
    assert form_page.context["validlink"] is True
    response = client.post(form_page.redirect_chain[-1][0], {"new_password1": NEW, "new_password2": NEW})

    assert response.url == reverse("password_reset_complete")
    player.refresh_from_db()
    assert player.check_password(NEW)


def test_password_reset_for_an_unknown_address_sends_nothing_and_says_the_same(client, player):
    response = client.post(reverse("password_reset"), {"email": "nobody@example.com"})

    assert response.url == reverse("password_reset_done")
    assert mail.outbox == []
