"""A played night is behind us (issue 38, point 9): once tonight's table has ended, the
night leaves "ahead" (the nights page lists it under the nights behind), its page says it
was played and links to the results, with no answer buttons and no "Take your seat"; its
feed entry says where the results are; answers to it are refused; and no one is invited to
it, neither a member who joins after it was played nor one whose invitation had not gone out."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from django.conf import settings
from django.urls import reverse
from django.utils import timezone
from icalendar import Calendar

from homegames.models import Notice
from homegames.selectors import nights_ahead
from homegames.services import NightError, night_answer, notices_send_due
from homegames.services_members import calendar_feed_for, home_game_join
from homegames.services_tonight import night_open_table, night_take_seat
from tables.models import Table
from tests.homegames.test_nights import url
from tests.homegames.test_notices import group, schedule  # noqa: F401 (the fixture)
from tests.ledger.conftest import make_user


def played(night, host):
    """Tonight's table opened before the planned time, and played to its end."""
    table = night_open_table(night=night, by=host)
    Table.objects.filter(pk=table.pk).update(status=Table.Status.ENDED, ended_at=timezone.now())
    night.refresh_from_db()
    return table


def test_a_played_night_is_behind_us_on_every_page(client, group):  # noqa: F811
    home_game, host, members, _template = group
    night = schedule(group, days=0.25)  # tonight, 6 hours ahead
    ahead = schedule(group, days=9)
    night_answer(night=night, user=members["bikash"], reply="yes")
    table = played(night, host)
    assert [n.pk for n in nights_ahead(home_game=home_game)] == [ahead.pk]
    client.force_login(members["bikash"])
    page = client.get(reverse("homegames:night_list", kwargs={"home_game_id": home_game.pk})).content.decode()
    cards = re.findall(r'<article class="card night-plan[^"]*">.*?</article>', page, re.S)
    assert len(cards) == 1 and url("night_detail", ahead) in cards[0]
    behind = re.search(r'<section aria-labelledby="past-heading".*?</section>', page, re.S)
    assert behind is not None and url("night_detail", night) in behind.group(0) and "Played" in behind.group(0)
    body = client.get(url("night_detail", night)).content.decode()
    assert "This night has been played" in body
    assert reverse("ledger:table_report", kwargs={"code": table.code}) in body
    assert 'name="reply"' not in body and "Take your seat" not in body
    with pytest.raises(NightError) as refused:
        night_answer(night=night, user=members["chandra"], reply="yes")
    assert refused.value.code == "played"
    with pytest.raises(NightError) as refused:
        night_take_seat(night=night, user=members["bikash"])
    assert refused.value.code == "played"
    feed = calendar_feed_for(home_game=home_game, user=members["bikash"])
    response = client.get(reverse("homegames:feed", kwargs={"token": feed.token}))
    events = {str(event["uid"]): event for event in Calendar.from_ical(response.content).walk("VEVENT")}
    description = str(events[f"night-{night.pk}@{settings.DASHAIN_MAIL_DOMAIN}"]["description"])
    assert f"Played at table {table.code}" in description and f"/ledger/tables/{table.code}/" in description


def test_no_one_is_invited_to_a_played_night(group):  # noqa: F811
    home_game, host, _members, _template = group
    night = schedule(group, days=0.25)  # tonight, 6 hours ahead
    ahead = schedule(group, days=9)
    played(night, host)
    # The invitations written at scheduling had not gone out: they are not sent now.
    notices_send_due()
    invitations = Notice.objects.filter(night=night, kind=Notice.Kind.INVITATION)
    assert invitations.count() == 3 and set(invitations.values_list("skipped", flat=True)) == {"played"}
    # Someone who joins after it was played is invited to the night ahead only.
    late = make_user("gita")
    home_game_join(home_game=home_game, token=home_game.invite_token, user=late)
    assert list(Notice.objects.filter(user=late).values_list("night_id", flat=True)) == [ahead.pk]
    assert timezone.now() < night.starts_at - timedelta(hours=1)  # planned ahead, played early
