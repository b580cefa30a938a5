"""The admin at /admin/ lists players with their display names and edits them."""

import pytest
from django.urls import reverse

from accounts.models import User

pytestmark = pytest.mark.django_db


def test_a_superuser_sees_players_and_their_display_names(client):
    admin = User.objects.create_superuser(username="host", password="turn-the-river-7", email="host@example.com")
    User.objects.create_user(username="maya", password="turn-the-river-7", display_name="Maya Didi")
    client.force_login(admin)

    listing = client.get(reverse("admin:accounts_user_changelist"))
    change = client.get(reverse("admin:accounts_user_change", args=[admin.pk]))

    assert listing.status_code == 200
    assert "Maya Didi" in listing.text
    assert change.status_code == 200
    assert 'name="display_name"' in change.text


def test_a_player_who_is_not_staff_is_sent_to_the_admin_login(client):
    player = User.objects.create_user(username="maya", password="turn-the-river-7")
    client.force_login(player)

    response = client.get(reverse("admin:accounts_user_changelist"))

    assert response.status_code == 302
    assert response.url.startswith(reverse("admin:login"))
