"""The profile page: a player changes the name shown at the table."""

import pytest
from django.urls import reverse

from accounts.models import User

pytestmark = pytest.mark.django_db


@pytest.fixture
def player():
    return User.objects.create_user(username="binod", password="turn-the-river-7", display_name="Binod")


def test_the_profile_needs_a_login(client):
    response = client.get(reverse("profile"))

    assert response.status_code == 302
    assert response.url == f"{reverse('login')}?next={reverse('profile')}"


def test_changing_the_display_name_saves_it_and_says_so(client, player):
    client.force_login(player)

    response = client.post(reverse("profile"), {"display_name": "Binod Dai", "email": ""}, follow=True)

    player.refresh_from_db()
    assert player.display_name == "Binod Dai"
    assert [str(m) for m in response.context["messages"]] == ["Your profile is saved."]
    assert "Binod Dai" in response.text


def test_a_too_long_display_name_changes_nothing(client, player):
    client.force_login(player)

    response = client.post(reverse("profile"), {"display_name": "x" * 41, "email": ""})

    assert response.status_code == 200
    assert "display_name" in response.context["form"].errors
    player.refresh_from_db()
    assert player.display_name == "Binod"


def test_a_player_can_only_edit_their_own_profile(client, player):
    other = User.objects.create_user(username="other", password="turn-the-river-7", display_name="Other")
    client.force_login(player)

    client.post(reverse("profile"), {"display_name": "Changed", "email": "", "pk": other.pk})

    other.refresh_from_db()
    assert other.display_name == "Other"
