"""The words and dates of the nights (issue 38, points 5 and 10): the night's calendar event
has an end and a description; the invitation mail carries a calendar invitation
(``METHOD:REQUEST``, with ``DTEND``, its organizer and attendee) a calendar can accept, and
the cancellation a ``METHOD:CANCEL``; nights are named with their weekday, in the
language's own date format; the home game's page names a planned night by its planned day
and place; the host who said yes is seated when she opens tonight's table; "Add a night"
no longer names adding a played table."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from django.core import mail
from django.urls import reverse
from django.utils import formats, timezone, translation
from icalendar import Calendar

from homegames.ics import NIGHT_LENGTH
from homegames.services import night_answer, night_cancel, night_schedule, notices_send_due
from homegames.services_tonight import night_open_table
from tables.models import Seat, Table
from tests.homegames.test_invitation_mail import mails_to
from tests.homegames.test_invitation_mail import the_event as sent_event
from tests.homegames.test_nights import url
from tests.homegames.test_notices import group  # noqa: F401 (the fixture)


def schedule_at(group, starts):  # noqa: F811
    home_game, host, _members, template = group
    return night_schedule(
        home_game=home_game,
        template=template,
        starts_at=starts,
        time_zone="UTC",
        place="Asha's flat",
        seat_limit=4,
        by=host,
    )


def the_event(body: bytes):
    calendar = Calendar.from_ical(body)
    (event,) = calendar.walk("VEVENT")
    return calendar, event


def test_the_ics_has_an_end_and_a_description(client, group):  # noqa: F811
    _home_game, host, _members, _template = group
    night = schedule_at(group, (timezone.now() + timedelta(days=3)).replace(microsecond=0))
    client.force_login(host)
    _calendar, event = the_event(client.get(url("night_ics", night)).content)
    assert event.decoded("dtend") - event.decoded("dtstart") == NIGHT_LENGTH
    description = str(event["description"])
    assert "Friday Faras: Our Faras" in description and "Asha's flat" in description
    assert url("night_detail", night) in description


def test_the_invitation_mail_is_a_calendar_invitation(group):  # noqa: F811
    """The mail's structure and its iCalendar byte by byte: test_invitation_mail."""
    _home_game, _host, members, _template = group
    night = schedule_at(group, (timezone.now() + timedelta(days=3)).replace(microsecond=0))
    notices_send_due()
    (invitation,) = mails_to(members["bikash"])
    calendar, event = sent_event(invitation)
    assert str(calendar["method"]) == "REQUEST"
    assert event.decoded("dtstart") == night.starts_at.astimezone(UTC)
    assert event.decoded("dtend") == night.starts_at.astimezone(UTC) + NIGHT_LENGTH
    assert str(event["attendee"]) == f"mailto:{members['bikash'].email}" and str(event["organizer"]).startswith(
        "mailto:"
    )
    assert str(event["uid"]).startswith(f"night-{night.pk}@")
    night_answer(night=night, user=members["bikash"], reply="yes")
    mail.outbox.clear()
    night_cancel(night=night, by=night.created_by)
    notices_send_due()
    (cancelled,) = mails_to(members["bikash"])
    calendar, event = sent_event(cancelled)
    assert str(calendar["method"]) == "CANCEL" and str(event["status"]) == "CANCELLED"


def test_nights_are_named_with_their_weekday_in_the_languages_format(client, group):  # noqa: F811
    home_game, host, members, _template = group
    starts = (timezone.now() + timedelta(hours=3)).replace(microsecond=0)  # tonight: its table may be opened
    night = schedule_at(group, starts)
    client.force_login(members["bikash"])
    body = client.get(url("night_detail", night)).content.decode()
    with translation.override("en"):
        day = formats.date_format(starts, "DATE_FORMAT")
        weekday = formats.date_format(starts, "l")
    assert f"{weekday}, {day}" in body
    # Opened from the plan, the home game's page names the night by its planned day and place.
    night_answer(night=night, user=host, reply="yes")
    table = night_open_table(night=night, by=host)
    page = client.get(reverse("ledger:home_game_detail", kwargs={"home_game_id": home_game.pk})).content.decode()
    assert f"{weekday}, {day}" in page and "Asha&#x27;s flat" in page
    # She said yes, so opening the table seated her.
    assert Seat.objects.filter(table=table, user=host).exists()
    assert Table.objects.get(pk=table.pk).host == host


def test_adding_a_played_table_is_not_called_adding_a_night(client, group):  # noqa: F811
    home_game, host, _members, _template = group
    client.force_login(host)
    page = client.get(reverse("ledger:home_game_detail", kwargs={"home_game_id": home_game.pk})).content.decode()
    assert ">Add a night<" not in page and "Add a table you already played" in page
    response = client.post(reverse("ledger:home_game_new"), {"name": "Saturday Faras"}, follow=True)
    text = response.content.decode()
    assert "Add a table to it after each night" not in text and "schedule your first night" in text
    # The form itself said so too (the second group's trial): it now leads to the nights ahead.
    form = client.get(reverse("ledger:home_game_new")).content.decode()
    assert "add its table here" not in form and "schedule its nights under" in form


def test_the_mails_write_the_time_with_its_weekday_in_the_members_language(group):  # noqa: F811
    _home_game, _host, members, _template = group
    members["bikash"].language = "de"
    members["bikash"].save()
    starts = datetime(2027, 3, 5, 19, 30, tzinfo=UTC)  # a Friday
    if starts <= timezone.now() + timedelta(hours=2):
        starts = starts.replace(year=timezone.now().year + 1)
    schedule_at(group, starts)
    notices_send_due()
    (german,) = [m for m in mail.outbox if m.to == [members["bikash"].email]]
    (english,) = [m for m in mail.outbox if m.to == [members["chandra"].email]]
    for message, language in ((german, "de"), (english, "en")):
        with translation.override(language):
            when = (
                f"{formats.date_format(starts, 'l')}, {formats.date_format(starts, 'DATE_FORMAT')}, "
                f"{formats.time_format(starts, 'TIME_FORMAT')} (UTC)"
            )
        assert message.subject.endswith(when), (message.subject, when)
