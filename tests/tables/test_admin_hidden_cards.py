"""Hidden cards stay hidden from operators during play (issue 14): the admin's event pages show
a live hand's hidden payloads masked, to superusers too, and show them once the hand has ended."""

from __future__ import annotations

import json

import pytest
from django.urls import reverse

from tables.models import Event
from tests.tables.conftest import end_game, open_table

pytestmark = pytest.mark.django_db


@pytest.fixture
def superuser_client(client, django_user_model):
    client.force_login(django_user_model.objects.create_superuser(username="operator", password="x-Admin-pass-1"))
    return client


def _hole_cards(table) -> list[Event]:
    events = list(Event.objects.filter(table=table, kind="hole_cards").order_by("seq"))
    assert events and all(event.visible_to for event in events)
    return events


def _cards_text(event: Event) -> str:
    return json.dumps(event.payload["cards"])


def test_a_live_hands_hole_cards_are_masked_for_a_superuser(superuser_client):
    table, _seats = open_table("holdem", players=3)
    for event in _hole_cards(table):
        page = superuser_client.get(reverse("admin:tables_event_change", args=[event.pk])).content.decode()
        assert "Hidden until the hand ends" in page
        for card in event.payload["cards"]:
            assert f'"{card}"' not in page and f"&quot;{card}&quot;" not in page
    listing = superuser_client.get(reverse("admin:tables_event_changelist")).content.decode()
    for event in _hole_cards(table):
        assert _cards_text(event) not in listing
    # A public event of the same hand is shown as it is.
    blind = Event.objects.filter(table=table, kind="blind").first()
    page = superuser_client.get(reverse("admin:tables_event_change", args=[blind.pk])).content.decode()
    assert "Hidden until the hand ends" not in page and "&quot;blind&quot;" in page


def test_once_the_hand_has_ended_the_admin_shows_the_payload(superuser_client):
    table, seats = open_table("holdem", players=3)
    end_game(table, seats[0].pk)  # the live hand is called off: it has ended
    for event in _hole_cards(table):
        assert event.hand.ended_at is not None
        page = superuser_client.get(reverse("admin:tables_event_change", args=[event.pk])).content.decode()
        assert "Hidden until the hand ends" not in page
        assert event.payload["cards"][0] in page
