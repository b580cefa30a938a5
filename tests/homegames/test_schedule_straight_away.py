"""A new host schedules a night straight away (issue 38, found by the second group's trial:
"Schedule a night" needed a template first, and its seat limit had no default). Without a
template the form offers the games, each with its usual settings, kept as the home game's
plain template of that game (made once); the seat limit left empty is every seat of the
table. Templates of one's own stay offered first. A refused night leaves no template behind."""

from __future__ import annotations

from datetime import timedelta

from django.urls import reverse
from django.utils import timezone

from homegames.models import Night, NightTemplate
from homegames.services import night_template_save
from homegames.services_members import home_game_create, home_game_join
from tests.homegames.test_nights import FARAS, url
from tests.ledger.conftest import make_user


def new_night_url(home_game) -> str:
    return reverse("homegames:night_new", kwargs={"home_game_id": home_game.pk})


def fields(**extra):
    day = (timezone.now() + timedelta(days=11)).date()
    return {"date": day.isoformat(), "time": "19:30", "place": "Asha's flat", "seat_limit": "", **extra}


def test_a_new_host_schedules_with_a_game_and_its_usual_settings(client, db):
    host = make_user("asha")
    home_game = home_game_create(name="Friday Faras", host=host)
    client.force_login(host)
    page = client.get(new_night_url(home_game)).content.decode()
    assert "make a template</a> of the game and house rules" not in page
    assert '<option value="game:faras" selected>Faras</option>' in page
    assert '<option value="game:holdem">' in page and "Leave it empty for every seat" in page
    response = client.post(new_night_url(home_game), fields(template="game:faras"))
    night = Night.objects.get()
    assert response["Location"] == url("night_detail", night)
    assert night.template.game == "faras" and night.template.name == "Faras" and night.template.choices == {}
    assert night.seat_limit == 6  # the usual Faras table's seats
    # A second night of the same game uses the same plain template; another game gets its own.
    client.post(new_night_url(home_game), fields(template="game:faras", seat_limit="4"))
    client.post(new_night_url(home_game), fields(template="game:holdem"))
    assert [(t.game, t.name) for t in NightTemplate.objects.order_by("pk")] == [
        ("faras", "Faras"),
        ("holdem", "No-limit Texas hold'em"),
    ]
    assert sorted(Night.objects.values_list("seat_limit", flat=True)) == [4, 6, 6]
    # The plain templates are offered as their games, not twice.
    page = client.get(new_night_url(home_game)).content.decode()
    assert page.count(">Faras</option>") == 1


def test_own_templates_come_first_and_the_seat_limit_defaults_to_the_templates_table(client, db):
    host = make_user("asha")
    home_game = home_game_create(name="Friday Faras", host=host)
    five = night_template_save(
        home_game=home_game, name="Our Faras", game="faras", choices={**FARAS, "seats": 5}, by=host
    )
    client.force_login(host)
    page = client.get(new_night_url(home_game)).content.decode()
    assert f'<option value="{five.pk}" selected>Our Faras</option>' in page
    assert 'label="Your templates"' in page and '<option value="game:classic">' in page
    assert "Choose the game: its table opens with the usual settings" not in page
    client.post(new_night_url(home_game), fields(template=str(five.pk)))
    night = Night.objects.get()
    assert night.template == five and night.seat_limit == 5
    assert NightTemplate.objects.count() == 1
    # Changing the night with the seat limit emptied: every seat of its table.
    client.post(url("night_edit", night), fields(template=str(five.pk), seat_limit="3"))
    night.refresh_from_db()
    assert night.seat_limit == 3
    client.post(url("night_edit", night), fields(template=str(five.pk)))
    night.refresh_from_db()
    assert night.seat_limit == 5


def test_a_refused_night_leaves_no_template_and_planning_stays_the_hosts(client, db):
    host, friend = make_user("asha"), make_user("bikash")
    home_game = home_game_create(name="Friday Faras", host=host)
    home_game_join(home_game=home_game, token=home_game.invite_token, user=friend)
    client.force_login(host)
    yesterday = (timezone.now() - timedelta(days=1)).date().isoformat()
    for data, reason in (
        (fields(template="game:faras", date=yesterday), "A night cannot start in the past."),
        (fields(template="game:faras", seat_limit="7"), "The seat limit is from 2 to 6"),
        (fields(template="game:poker"), "Select a valid choice."),
        (fields(template="game:faras", place=" "), "This field is required."),
    ):
        response = client.post(new_night_url(home_game), data)
        assert response.status_code == 200 and reason in response.content.decode()
    client.force_login(friend)  # a member, not a co-host
    assert client.post(new_night_url(home_game), fields(template="game:faras")).status_code == 403
    assert not NightTemplate.objects.exists() and not Night.objects.exists()
