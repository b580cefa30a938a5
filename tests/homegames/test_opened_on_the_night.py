"""Tonight's table is opened on the night itself (issue 38, found by the second group's
trial: "Open tonight's table" was offered 11 days ahead of a planned night). From
``OPENS_BEFORE`` (12 hours) before the planned start until the night is behind us: before
it, the night's page offers no opening (online or at the kitchen table) and says from when,
and a direct POST is refused with that reason, opening nothing, online and at the kitchen
table alike."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from homegames.models import Night
from homegames.services import NightError, night_answer
from homegames.services_tonight import OPENS_BEFORE, night_open_table, night_open_with, night_opens_at
from tables.models import Table
from tests.homegames.test_night_wording import schedule_at
from tests.homegames.test_nights import group, url  # noqa: F401 (the fixture)
from tests.kitchen.test_from_planned_night import CASH_POST, TOURNAMENT_POST, cash_form, tournament_form, written

TOO_EARLY = "can be opened on the night itself"


def schedule_in(group, ahead: timedelta) -> Night:  # noqa: F811
    return schedule_at(group, (timezone.now() + ahead).replace(microsecond=0))


def test_a_night_days_ahead_offers_no_opening_and_a_direct_post_opens_nothing(client, group):  # noqa: F811
    _home_game, host, _members, _template = group
    night = schedule_in(group, timedelta(days=11))
    night_answer(night=night, user=host, reply="yes")
    client.force_login(host)
    page = client.get(url("night_detail", night)).content.decode()
    assert "Open tonight's table" not in page and url("night_open", night) not in page
    assert "?night=" not in page  # nor the kitchen table's forms
    assert "Tonight's table can be opened on the night itself, from" in page
    assert "Move or change" in page  # the rest of the host's part stays
    before = written()
    response = client.post(url("night_open", night), follow=True)
    assert response.redirect_chain[-1][0] == url("night_detail", night)
    assert TOO_EARLY in response.content.decode()
    for form, data in ((cash_form(night), CASH_POST), (tournament_form(night), TOURNAMENT_POST)):
        response = client.post(form, data, follow=True)
        assert response.redirect_chain[-1][0] == url("night_detail", night)
        assert TOO_EARLY in response.content.decode()
    assert written() == before and not Table.objects.exists()


def test_the_opening_time_is_not_followed_by_a_second_full_stop(client, group):  # noqa: F811
    """A night at 7:30 p.m. opens at 7:30 a.m.: the time, which in English ends in a full stop
    of its own, is not the sentence's last word ("... 7:30 a.m.." was written)."""
    host = group[1]
    day = (timezone.now() + timedelta(days=11)).replace(hour=19, minute=30, second=0, microsecond=0)
    night = schedule_at(group, day)
    assert night_opens_at(night) == day - OPENS_BEFORE
    client.force_login(host)
    page = client.get(url("night_detail", night)).content.decode()
    opens = re.search(r'<p class="note night-opens">(.*?)</p>', page, re.S)
    assert opens is not None
    assert "from 7:30 a.m. on " in opens[1]
    assert ".." not in opens[1] and opens[1].endswith(f"{day.year}.")


def test_the_services_refuse_a_night_not_yet_on_its_day_and_open_nothing(group):  # noqa: F811
    _home_game, host, _members, _template = group
    night = schedule_in(group, OPENS_BEFORE + timedelta(minutes=5))
    opened: list[str] = []
    for open_it in (
        lambda: night_open_table(night=night, by=host),
        lambda: night_open_with(night=night, by=host, open_table=lambda: opened.append("kitchen")),  # type: ignore[arg-type]
    ):
        with pytest.raises(NightError) as refused:
            open_it()
        assert refused.value.code == "too_early" and TOO_EARLY in str(refused.value)
    night.refresh_from_db()
    assert night.table is None and opened == [] and not Table.objects.exists()


def test_within_the_hours_before_it_starts_the_night_is_opened(client, group):  # noqa: F811
    _home_game, host, _members, _template = group
    night = schedule_in(group, OPENS_BEFORE - timedelta(minutes=5))
    client.force_login(host)
    page = client.get(url("night_detail", night)).content.decode()
    assert "Open tonight's table" in page and f'href="{cash_form(night)}"' in page and TOO_EARLY not in page
    response = client.post(url("night_open", night))
    night.refresh_from_db()
    assert night.table is not None
    assert response["Location"] == reverse("table_detail", kwargs={"code": night.table.code})
    assert night_open_table(night=night, by=host) == night.table  # a second press: the same table
