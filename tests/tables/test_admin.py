"""The admin panel (tables.admin): table settings only through the lobby's validation, and the
event log, seats and hands read-only."""

from __future__ import annotations

import pytest
from django.urls import reverse

from tables.models import Event, Hand, Seat, Table
from tests.tables.conftest import end_game, open_table

pytestmark = pytest.mark.django_db


@pytest.fixture
def admin_client(client, django_user_model):
    admin_user = django_user_model.objects.create_superuser(username="site-admin", password="x-Admin-pass-1")
    client.force_login(admin_user)
    return client


def change_data(table: Table, host_settings: str) -> dict[str, str]:
    """What the table's change form posts: the settings and the (read-only) seats' formset."""
    seats = list(Seat.objects.filter(table=table).order_by("pk"))
    data = {
        "host_settings": host_settings,
        "seats-TOTAL_FORMS": str(len(seats)),
        "seats-INITIAL_FORMS": str(len(seats)),
        "seats-MIN_NUM_FORMS": "0",
        "seats-MAX_NUM_FORMS": "1000",
    }
    for index, seat in enumerate(seats):
        data[f"seats-{index}-id"] = str(seat.pk)
        data[f"seats-{index}-table"] = str(table.pk)
    return data


def table_change_url(table: Table) -> str:
    return reverse("admin:tables_table_change", args=[table.pk])


def test_admin_refuses_a_table_setting_outside_its_range(admin_client):
    """Rule book 000: the boot is 1 to 100. The admin uses the lobby's validator and says why."""
    table, _seats = open_table("faras", players=2, start=False)
    before = table.settings
    events_before = Event.objects.filter(table=table).count()
    response = admin_client.post(table_change_url(table), change_data(table, '{"boot": 500}'))
    assert response.status_code == 200  # the form again, with the error
    page = response.content.decode()
    assert "errorlist" in page
    assert "boot: Give a number from 1 to 100." in page  # the lobby validator's own words
    table.refresh_from_db()
    assert table.settings == before
    assert Event.objects.filter(table=table).count() == events_before


@pytest.mark.parametrize(
    "host_settings",
    ['{"blind_turns": 9}', '{"seats": 12}', '{"no_such_setting": 1}', '{"buy_backs": 4}', "[1, 2]", "not json"],
)
def test_admin_refuses_other_bad_settings(admin_client, host_settings):
    table, _seats = open_table("faras", players=2, start=False)
    before = table.settings
    response = admin_client.post(table_change_url(table), change_data(table, host_settings))
    assert response.status_code == 200
    assert "errorlist" in response.content.decode()
    table.refresh_from_db()
    assert table.settings == before


def test_admin_changes_a_setting_in_range_and_logs_it(admin_client):
    table, _seats = open_table("faras", players=2, start=False)
    response = admin_client.post(table_change_url(table), change_data(table, '{"boot": 20, "blind_turns": 3}'))
    assert response.status_code == 302, response.content.decode()[:2000]
    table.refresh_from_db()
    assert table.settings["engine"]["boot"] == 20
    assert table.settings["engine"]["blind_turns"] == 3
    logged = Event.objects.filter(table=table, kind="settings_changed").get()
    assert logged.seq == table.last_seq
    assert logged.payload["settings"]["engine"]["boot"] == 20


def test_admin_does_not_change_settings_during_a_hand(admin_client):
    table, _seats = open_table("faras", players=2, start=True)
    assert Hand.objects.filter(table=table, ended_at__isnull=True).exists()
    before = table.settings
    response = admin_client.post(table_change_url(table), change_data(table, '{"boot": 20}'))
    assert response.status_code == 200
    table.refresh_from_db()
    assert table.settings == before


def test_the_event_log_cannot_be_edited_added_or_deleted_in_the_admin(admin_client):
    table, _seats = open_table("faras", players=2, start=True)
    event = Event.objects.filter(table=table).order_by("seq").first()
    payload = event.payload
    assert admin_client.get(reverse("admin:tables_event_changelist")).status_code == 200
    view = admin_client.get(reverse("admin:tables_event_change", args=[event.pk]))
    assert view.status_code == 200  # it can be read
    assert 'name="_save"' not in view.content.decode()
    changed = admin_client.post(
        reverse("admin:tables_event_change", args=[event.pk]), {"kind": "forged", "payload": "{}", "seq": event.seq}
    )
    assert changed.status_code == 403
    assert admin_client.get(reverse("admin:tables_event_add")).status_code == 403
    deleted = admin_client.post(reverse("admin:tables_event_delete", args=[event.pk]), {"post": "yes"})
    assert deleted.status_code == 403
    bulk = admin_client.post(
        reverse("admin:tables_event_changelist"), {"action": "delete_selected", "_selected_action": [event.pk]}
    )
    assert Event.objects.filter(pk=event.pk).exists(), bulk.status_code
    event.refresh_from_db()
    assert event.kind != "forged" and event.payload == payload


def test_seats_and_hands_are_read_only_and_tables_are_not_added_or_deleted(admin_client):
    table, seats = open_table("faras", players=2, start=True)
    seat = seats[1]
    stack = seat.stack
    response = admin_client.post(reverse("admin:tables_seat_change", args=[seat.pk]), {"stack": stack + 500})
    assert response.status_code == 403
    seat.refresh_from_db()
    assert seat.stack == stack
    hand = Hand.objects.filter(table=table).first()
    assert admin_client.post(reverse("admin:tables_hand_change", args=[hand.pk]), {}).status_code == 403
    assert admin_client.get(reverse("admin:tables_table_add")).status_code == 403
    assert admin_client.post(reverse("admin:tables_table_delete", args=[table.pk]), {"post": "yes"}).status_code == 403
    assert Table.objects.filter(pk=table.pk).exists()


def test_admin_lists_search_and_filter(admin_client):
    table, _seats = open_table("faras", players=2, start=True)
    pages = {
        "admin:tables_table_changelist": {"q": table.code, "status__exact": "playing", "game__exact": "faras"},
        "admin:tables_seat_changelist": {"q": table.code, "status__exact": "playing"},
        "admin:tables_hand_changelist": {"q": table.code},
        "admin:tables_event_changelist": {"q": table.code, "kind__exact": "hand_started"},
    }
    for name, query in pages.items():
        response = admin_client.get(reverse(name), query)
        assert response.status_code == 200, name
        assert table.code in response.content.decode(), name
    page = admin_client.get(table_change_url(table)).content.decode()
    assert table.seed_commitment in page
    assert bytes(table.secret_seed).hex() not in page  # the secret stays secret until the game ends


def test_ledger_entries_are_read_only_in_the_admin(admin_client):
    ledger_models = pytest.importorskip("ledger.models")
    assert admin_client.get(reverse("admin:ledger_ledgerentry_add")).status_code == 403
    assert ledger_models.LedgerEntry is not None


def test_admin_cannot_change_holdem_settings_once_the_game_started(admin_client, settings):
    """Book 001: hold'em's settings are fixed from the first deal. The admin's form goes through
    the host's service, so it keeps that rule (it used to skip it) and shows the refusal."""
    from tables.services import hand_act
    from tests.tables.conftest import current_turn

    settings.DASHAIN_NEXT_HAND_DELAY = 3600  # the next hand waits: the table is between hands
    table, _seats = open_table("holdem", players=2, start=True)
    player, _legal = current_turn(table)
    hand_act(table_id=table.pk, seat_id=int(player), verb="fold")
    assert not Hand.objects.filter(table=table, ended_at__isnull=True).exists()
    table.refresh_from_db()
    assert table.status == Table.Status.PLAYING
    before, events_before = table.settings, Event.objects.filter(table=table).count()
    response = admin_client.post(table_change_url(table), change_data(table, '{"blind_speed": 5}'))
    assert response.status_code == 200
    assert "Hold&#x27;em settings are fixed once the game starts." in response.content.decode()
    table.refresh_from_db()
    assert table.settings == before and Event.objects.filter(table=table).count() == events_before


def test_admin_cannot_change_settings_of_an_ended_game(admin_client):
    table, seats = open_table("faras", players=2, start=True)

    end_game(table, seats[0].pk)
    events_before = Event.objects.filter(table=table).count()
    response = admin_client.post(table_change_url(table), change_data(table, '{"boot": 20}'))
    assert response.status_code == 200
    assert "This game is over." in response.content.decode()
    assert Event.objects.filter(table=table).count() == events_before


def test_admin_change_is_logged_as_the_admins_and_a_save_without_change_writes_nothing(admin_client):
    table, _seats = open_table("faras", players=2, start=False)
    admin_client.post(table_change_url(table), change_data(table, '{"boot": 30}'))
    logged = Event.objects.filter(table=table, kind="settings_changed").get()
    assert logged.payload["by"] == "admin"
    table.refresh_from_db()
    response = admin_client.post(table_change_url(table), change_data(table, '{"boot": 30}'))
    assert response.status_code == 302
    assert Event.objects.filter(table=table, kind="settings_changed").count() == 1
