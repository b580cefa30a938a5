"""The season pages and the home game's page name a night by its planned start (weekday, date,
time, in the viewer's zone, in Django's formats for the language) and place; a table added
after the fact by the day it opened in the viewer's zone. Never by the table's code."""

from __future__ import annotations

import html
import re
import zoneinfo
from datetime import UTC, datetime

import pytest
from django.urls import reverse
from django.utils.formats import date_format, time_format

from homegames.models import MemberPrefs, Night, NightTemplate
from homegames.services_members import home_game_add_table, home_game_create
from homegames.services_seasons import season_close
from tables.models import Table
from tests.ledger.conftest import make_user
from tests.ledger.test_views import play_night

KATHMANDU = zoneinfo.ZoneInfo("Asia/Kathmandu")  # UTC+5:45: both nights fall on the next day there
PLANNED = datetime(2026, 3, 6, 18, 30, tzinfo=UTC)  # Friday in UTC, Saturday 00:15 in Kathmandu
OPENED = datetime(2026, 2, 27, 20, 0, tzinfo=UTC)  # Friday in UTC, Saturday 01:45 in Kathmandu


def _titles(page: str) -> dict[str, str]:
    """Each night's link text by its table's code, tags and spaces taken out."""
    links = re.findall(r'<a href="/ledger/tables/([A-Z0-9]+)/">(.*?)</a>', page, flags=re.S)
    return {code: " ".join(html.unescape(re.sub(r"<[^>]+>", "", text)).split()) for code, text in links}


@pytest.mark.django_db
def test_nights_are_named_by_their_plan_or_the_day_their_table_opened_in_the_viewers_zone(client):
    host, bikash = make_user("host"), make_user("bikash")
    MemberPrefs.objects.create(user=host, time_zone="Asia/Kathmandu")
    home_game = home_game_create(name="Friday Faras", host=host)
    added, _seats = play_night(host, results={"Asha": 1500, "Bikash": 500}, others={"Bikash": bikash})
    opened, _seats = play_night(host, results={"Asha": 500, "Bikash": 1500}, others={"Bikash": bikash})
    Table.objects.filter(pk=added.pk).update(created_at=OPENED)
    for table in (added, opened):
        home_game_add_table(home_game=home_game, table=table, by=host)
    template = NightTemplate.objects.create(home_game=home_game, name="our Faras", game="faras")
    Night.objects.filter(table=opened).update(starts_at=PLANNED, place="Asha's", template=template, seat_limit=6)

    planned_local, opened_local = PLANNED.astimezone(KATHMANDU), OPENED.astimezone(KATHMANDU)
    expected = {
        opened.code: f"{date_format(planned_local, 'l')}, {date_format(planned_local, 'DATE_FORMAT')}, "
        f"{time_format(planned_local, 'TIME_FORMAT')} · Asha's",
        added.code: f"{date_format(opened_local, 'l')}, {date_format(opened_local, 'DATE_FORMAT')} · online",
    }
    assert date_format(planned_local, "l") == date_format(opened_local, "l") == "Saturday"  # not UTC's Friday
    client.force_login(host)
    home = client.get(reverse("ledger:home_game_detail", kwargs={"home_game_id": home_game.pk})).content.decode()
    assert {code: title for code, title in _titles(home).items() if code in expected} == expected

    season = season_close(home_game=home_game, by=host)
    page = client.get(reverse("ledger:season_detail", kwargs={"home_game_id": home_game.pk, "number": season.number}))
    titles = _titles(page.content.decode())
    assert titles == expected
    assert not any(code in title for title in titles.values() for code in expected)
