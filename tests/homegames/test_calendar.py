"""Each night's ``.ics`` file and each member's private calendar feed, parsed back with the
iCalendar library the way a phone calendar would read them. With the abuse: strangers,
guessed, old and replaced tokens, removed members, another home game's nights."""

from __future__ import annotations

from datetime import UTC, timedelta

import pytest
from django.urls import reverse
from icalendar import Calendar

from homegames.ics import night_uid
from homegames.models import CalendarFeed, HomeGame
from homegames.services import night_cancel, night_schedule, night_template_save, night_update
from homegames.services_members import calendar_feed_for, home_game_create, home_game_join, home_game_remove_member
from tests.homegames.test_nights import FARAS, schedule, tomorrow, url
from tests.ledger.conftest import make_user


@pytest.fixture
def group(db):
    host = make_user("asha")
    home_game = home_game_create(name="Friday Faras", host=host)
    members = {}
    for name in ("bikash", "chandra", "dipa"):
        members[name] = make_user(name)
        home_game_join(home_game=home_game, token=home_game.invite_token, user=members[name])
    template = night_template_save(home_game=home_game, name="Our Faras", game="faras", choices=FARAS, by=host)
    return home_game, host, members, template


def events(response) -> list:
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/calendar")
    calendar = Calendar.from_ical(response.content)
    return list(calendar.walk("VEVENT"))


def test_a_nights_ics_parses_and_follows_its_moves_and_its_cancelling(client, group):
    _home_game, host, members, _template = group
    night = schedule(group)
    client.force_login(members["bikash"])
    (event,) = events(client.get(url("night_ics", night)))
    assert event.decoded("dtstart") == night.starts_at.astimezone(UTC)
    assert str(event["location"]) == "Asha's flat"
    assert str(event["summary"]) == "Friday Faras: Our Faras"
    assert str(event["status"]) == "CONFIRMED"
    assert int(event["sequence"]) == 0
    uid = str(event["uid"])

    later = night.starts_at + timedelta(hours=2)
    night_update(night=night, starts_at=later, place="Bikash's garden", seat_limit=3, by=host)
    (event,) = events(client.get(url("night_ics", night)))
    assert str(event["uid"]) == uid  # the same event, updated in place
    assert event.decoded("dtstart") == later.astimezone(UTC)
    assert str(event["location"]) == "Bikash's garden"
    assert int(event["sequence"]) == 1

    night_cancel(night=night, by=host)
    (event,) = events(client.get(url("night_ics", night)))
    assert str(event["status"]) == "CANCELLED"
    assert int(event["sequence"]) == 2


def test_a_nights_ics_is_for_members_only(client, group):
    night = schedule(group)
    assert client.get(url("night_ics", night)).status_code == 302  # sign in first
    client.force_login(make_user("stranger"))
    assert client.get(url("night_ics", night)).status_code == 404
    other = home_game_create(name="Elsewhere", host=make_user("eve"))
    forged = reverse("homegames:night_ics", kwargs={"home_game_id": other.pk, "night_id": night.pk})
    client.force_login(other.host)
    assert client.get(forged).status_code == 404  # another home game's night


def test_a_members_feed_lists_the_home_games_nights_without_signing_in(client, group):
    home_game, host, members, _template = group
    first = schedule(group)
    second = schedule(group, starts_at=tomorrow() + timedelta(days=7))
    night_cancel(night=second, by=host)
    other = home_game_create(name="Elsewhere", host=host)
    other_template = night_template_save(home_game=other, name="Theirs", game="faras", choices=FARAS, by=host)
    night_schedule(
        home_game=other,
        template=other_template,
        starts_at=tomorrow(),
        time_zone="UTC",
        place="Far away",
        seat_limit=2,
        by=host,
    )

    client.force_login(members["chandra"])
    page = client.get(reverse("homegames:night_list", kwargs={"home_game_id": home_game.pk}))
    feed = CalendarFeed.objects.get(home_game=home_game, user=members["chandra"])
    assert feed.token in page.content.decode()
    client.logout()
    found = {str(e["uid"]): e for e in events(client.get(reverse("homegames:feed", kwargs={"token": feed.token})))}
    assert set(found) == {night_uid(first), night_uid(second)}
    assert str(found[night_uid(second)]["status"]) == "CANCELLED"
    assert str(found[night_uid(first)]["status"]) == "CONFIRMED"


def test_a_replaced_feed_token_404s_and_the_new_one_works(client, group):
    home_game, _host, members, _template = group
    schedule(group)
    old = calendar_feed_for(home_game=home_game, user=members["dipa"]).token
    client.force_login(members["dipa"])
    response = client.post(reverse("homegames:feed_replace", kwargs={"home_game_id": home_game.pk}))
    assert response.status_code == 302
    new = CalendarFeed.objects.get(home_game=home_game, user=members["dipa"]).token
    assert new != old and len(new) >= 32
    client.logout()
    assert client.get(reverse("homegames:feed", kwargs={"token": old})).status_code == 404
    assert len(events(client.get(reverse("homegames:feed", kwargs={"token": new})))) == 1


@pytest.mark.parametrize("token", ["", "x", "0" * 43, "set-password"])
def test_a_guessed_feed_token_404s(client, group, token):
    home_game, _host, members, _template = group
    calendar_feed_for(home_game=home_game, user=members["dipa"])
    path = f"/home-games/feed/{token}.ics"
    assert client.get(path).status_code == 404


def test_a_removed_members_feed_stops_and_strangers_get_none(client, group):
    home_game, host, members, _template = group
    schedule(group)
    token = calendar_feed_for(home_game=home_game, user=members["bikash"]).token
    feed_url = reverse("homegames:feed", kwargs={"token": token})
    assert client.get(feed_url).status_code == 200
    home_game_remove_member(home_game=home_game, member=members["bikash"], by=host)
    assert client.get(feed_url).status_code == 404
    # Let in again: the old address stays dead (the feed went with the membership).
    home_game = HomeGame.objects.get(pk=home_game.pk)
    home_game_join(home_game=home_game, token=home_game.invite_token, user=members["bikash"])
    assert client.get(feed_url).status_code == 404
    assert calendar_feed_for(home_game=home_game, user=members["bikash"]).token != token

    stranger = make_user("stranger")
    client.force_login(stranger)
    response = client.post(reverse("homegames:feed_replace", kwargs={"home_game_id": home_game.pk}))
    assert response.status_code == 404
    assert not CalendarFeed.objects.filter(user=stranger).exists()
