"""Notices that cannot block each other, and nights' times that every page can show.

The attack (issue 34, item 4): nights scheduled on 9999-12-31 at 23:xx made notices that
raised ``OverflowError`` at every sweep and stayed at the head of the queue, so an unrelated
home game's invitation was never sent; the same dates gave 500s on night pages for viewers
east of UTC, and when scheduling from ``Etc/GMT+12``. Here: dates are bounded where they are
entered, a notice that fails waits and is given up after a bound with its reason kept, and
every page shows nights already stored at the calendar's ends, in the extreme zones.
"""

from __future__ import annotations

from datetime import UTC, date, datetime, time, timedelta
from zoneinfo import ZoneInfo

import pytest
from django.core import mail
from django.db import DatabaseError
from django.urls import reverse
from django.utils import timezone
from icalendar import Calendar

from homegames import services
from homegames.mail import notice_message
from homegames.models import Night, Notice
from homegames.services import (
    NIGHT_AHEAD,
    NOTICE_ATTEMPTS,
    NightError,
    member_prefs_save,
    night_schedule,
    night_start_local,
    night_template_save,
    night_update,
    notices_send_due,
)
from homegames.services_members import calendar_feed_for, home_game_create, home_game_join, home_game_set_co_host
from tables.background_threads import swept
from tests.homegames.test_nights import FARAS
from tests.homegames.test_notices import group, schedule  # noqa: F401 (group: fixture)
from tests.ledger.conftest import make_user

#: The zones furthest west and east of UTC that anyone lives in (UTC-12 and UTC+14).
EXTREME_ZONES = ("Etc/GMT+12", "Pacific/Kiritimati")
#: Times at the calendar's ends, as nights scheduled before the bound were stored.
LAST = datetime(9999, 12, 31, 23, 30, tzinfo=UTC)
FIRST = datetime(1, 1, 1, 0, 30, tzinfo=UTC)


def stored_night(home_game, template, host, starts_at):
    """A night written as the site wrote them before dates were bounded (no check ran)."""
    return Night.objects.create(
        home_game=home_game, template=template, starts_at=starts_at, place="Far away", seat_limit=4, created_by=host
    )


def other_home_game():
    """An unrelated home game: its host schedules a night, and its one member is invited."""
    host = make_user("zara")
    home_game = home_game_create(name="Sunday Hold'em", host=host)
    friend = make_user("yuki")
    friend.email = "yuki@example.org"
    friend.save()
    home_game_join(home_game=home_game, token=home_game.invite_token, user=friend)
    template = night_template_save(home_game=home_game, name="Hold'em", game="faras", choices=FARAS, by=host)
    night_schedule(
        home_game=home_game,
        template=template,
        starts_at=timezone.now() + timedelta(days=2),
        time_zone="UTC",
        place="Zara's",
        seat_limit=4,
        by=host,
    )
    return friend


def test_nights_at_the_calendars_end_never_hold_up_an_unrelated_home_games_invitation(group, monkeypatch):  # noqa: F811
    """The attack as reported, the batch made small: the stored nights' invitations came
    first in the queue and failed at every sweep; now they are sent (in UTC, which the
    members' zone, UTC+14, cannot hold these times in) and the unrelated invitation goes."""
    home_game, host, members, template = group
    for name in ("bikash", "chandra", "dipa"):
        member_prefs_save(user=members[name], time_zone="Pacific/Kiritimati")
    long_ago = timezone.now() - timedelta(days=1)
    for night in (stored_night(home_game, template, host, LAST), stored_night(home_game, template, host, FIRST)):
        for member in members.values():
            Notice.objects.create(night=night, user=member, kind="invitation", version=1, due_at=long_ago)
    monkeypatch.setattr(services, "NOTICE_BATCH", len(members))
    friend = other_home_game()
    for _sweep in range(3):  # the sweep loop, three turns
        swept.send_robust(sender=None)
    assert [m.to for m in mail.outbox if "Sunday Hold'em" in m.subject] == [[friend.email]]
    last = [m for m in mail.outbox if "Friday, Dec. 31, 9999, 11:30 p.m. (UTC)" in m.subject]
    first = [m for m in mail.outbox if "Monday, Jan. 1, 0001, 12:30 a.m. (UTC)" in m.subject]
    assert len(last) == len(first) == len(members)
    assert not Notice.objects.filter(sent_at__isnull=True).exists()


def failing_for(monkeypatch, user, night=None):
    """The notices of ``user`` (of ``night``, when given) fail to render: poison notices."""
    real = services.notice_message

    def poisoned(notice, *, site_url):
        if notice.user_id == user.pk and night in (None, notice.night):
            raise RuntimeError("this notice cannot be written")
        return real(notice, site_url=site_url)

    monkeypatch.setattr(services, "notice_message", poisoned)


def test_a_failing_notice_waits_with_back_off_and_never_takes_the_batch_from_the_others(group, monkeypatch):  # noqa: F811
    _home_game, _host, members, _template = group
    monkeypatch.setattr(services, "NOTICE_BATCH", 1)
    night = schedule(group)
    failing_for(monkeypatch, members["bikash"], night)
    poison = Notice.objects.get(night=night, user=members["bikash"])
    others = Notice.objects.filter(night=night).exclude(pk=poison.pk).order_by("pk")
    Notice.objects.filter(pk=poison.pk).update(due_at=poison.due_at - timedelta(seconds=1))  # first in line
    now = timezone.now()
    assert notices_send_due(now=now) == 0  # the poison notice had the batch of one, and failed
    poison.refresh_from_db()
    assert (poison.attempts, poison.retry_at, poison.sent_at) == (1, now + timedelta(minutes=1), None)
    assert poison.failure == "RuntimeError: this notice cannot be written"
    # Not due for a retry: the sweep passes over it, and the others go, one a sweep.
    assert notices_send_due(now=now) == 1
    assert notices_send_due(now=now) == 1
    assert sorted(m.to[0] for m in mail.outbox) == sorted(notice.user.email for notice in others)
    poison.refresh_from_db()
    assert poison.attempts == 1
    # Due for its retry together with notices never tried: those go first.
    mail.outbox.clear()
    second = schedule(group, days=4)
    fresh = Notice.objects.filter(night=second)
    Notice.objects.filter(night=second).update(due_at=poison.due_at)
    for _notice in fresh:
        assert notices_send_due(now=poison.retry_at) == 1
    assert len(mail.outbox) == fresh.count() == 3
    poison.refresh_from_db()
    assert poison.attempts == 1  # not tried while they waited
    notices_send_due(now=poison.retry_at)
    poison.refresh_from_db()
    assert poison.attempts == 2


def test_a_notice_that_keeps_failing_is_given_up_after_the_bound_with_its_reason(group, monkeypatch):  # noqa: F811
    _home_game, _host, members, _template = group
    failing_for(monkeypatch, members["bikash"])
    night = schedule(group)
    poison = Notice.objects.get(night=night, user=members["bikash"])
    now = timezone.now()
    notices_send_due(now=now)
    waits = []
    for attempt in range(1, NOTICE_ATTEMPTS):
        poison.refresh_from_db()
        assert poison.attempts == attempt and poison.skipped == ""
        waits.append(poison.retry_at - now)
        assert notices_send_due(now=poison.retry_at - timedelta(seconds=1)) == 0 and poison.attempts == attempt
        now = poison.retry_at
        notices_send_due(now=now)
    assert waits == [timedelta(minutes=m) for m in (1, 2, 4, 8, 16, 32, 60, 60, 60)]
    poison.refresh_from_db()
    assert (poison.attempts, poison.skipped, poison.sent_at) == (NOTICE_ATTEMPTS, "failed", None)
    assert poison.failure == "RuntimeError: this notice cannot be written"
    assert notices_send_due(now=now + timedelta(days=1)) == 0  # given up: never tried again
    assert len(mail.outbox) == 2  # the two others
    # The operator sends the given-up notices again (docs/operations.md, "Mail").
    monkeypatch.undo()
    Notice.objects.filter(skipped="failed").update(skipped="", attempts=0, retry_at=None)
    assert notices_send_due(now=now + timedelta(days=1)) == 1
    assert mail.outbox[-1].to == [members["bikash"].email]


def test_scheduling_at_the_calendars_end_from_utc_minus_12_is_refused_not_a_500(client, group):  # noqa: F811
    home_game, host, _members, template = group
    member_prefs_save(user=host, time_zone="Etc/GMT+12")
    client.force_login(host)
    response = client.post(
        reverse("homegames:night_new", kwargs={"home_game_id": home_game.pk}),
        {"date": "9999-12-31", "time": "23:30", "place": "Far", "template": template.pk, "seat_limit": 4},
    )
    assert response.status_code == 200
    assert "A night can be planned at most two years ahead." in response.content.decode()
    assert not Night.objects.exists() and not Notice.objects.exists()


@pytest.mark.parametrize("zone", [*EXTREME_ZONES, "UTC", "Asia/Kathmandu"])
def test_a_night_is_planned_at_most_two_years_ahead_in_every_zone(group, zone):  # noqa: F811
    home_game, host, _members, template = group
    last_day = (timezone.now() + NIGHT_AHEAD).date()
    with pytest.raises(NightError) as refused:
        night_start_local(day=date(9999, 12, 31), at=time(23, 30), zone=ZoneInfo(zone))
    assert refused.value.code == "too_far"
    with pytest.raises(NightError) as refused:
        night_start_local(day=last_day + timedelta(days=1), at=time(0, 0), zone=ZoneInfo(zone))
    assert refused.value.code == "too_far"
    base = {"home_game": home_game, "template": template, "time_zone": zone, "place": "Here", "by": host}
    for starts_at in (datetime(9999, 12, 31, 23, 30, tzinfo=ZoneInfo(zone)), timezone.now() + NIGHT_AHEAD * 1.01):
        with pytest.raises(NightError) as refused:
            night_schedule(**base, starts_at=starts_at, seat_limit=4)
        assert refused.value.code == "too_far"
    assert not Night.objects.exists()
    # An hour within the bound is planned.
    start = (timezone.now() + NIGHT_AHEAD - timedelta(hours=1)).astimezone(ZoneInfo(zone))
    night = night_schedule(**base, starts_at=start, seat_limit=4)
    with pytest.raises(NightError) as refused:  # and it cannot be moved past the bound either
        night_update(night=night, starts_at=timezone.now() + NIGHT_AHEAD * 1.01, place="Here", seat_limit=4, by=host)
    assert refused.value.code == "too_far"


def test_a_time_the_clocks_skip_or_pass_twice_is_refused_with_a_clear_reason(client, group):  # noqa: F811
    home_game, host, _members, template = group
    berlin = ZoneInfo("Europe/Berlin")
    year = timezone.now().year + 1
    spring = max(date(year, 3, day) for day in range(25, 32) if date(year, 3, day).weekday() == 6)
    autumn = max(date(year, 10, day) for day in range(25, 32) if date(year, 10, day).weekday() == 6)
    with pytest.raises(NightError) as refused:
        night_start_local(day=spring, at=time(2, 30), zone=berlin)
    assert refused.value.code == "no_such_time"
    assert str(refused.value) == (
        "02:30 does not exist on that day in Europe/Berlin: the clocks go forward. Choose another time."
    )
    with pytest.raises(NightError) as refused:
        night_start_local(day=autumn, at=time(2, 30), zone=berlin)
    assert refused.value.code == "twice_time"
    assert str(refused.value) == (
        "02:30 happens twice on that day in Europe/Berlin: the clocks go back. Choose another time."
    )
    # Either side of each change is a night like any other.
    assert night_start_local(day=spring, at=time(3, 30), zone=berlin).utcoffset() == timedelta(hours=2)
    assert night_start_local(day=autumn, at=time(3, 30), zone=berlin).utcoffset() == timedelta(hours=1)
    member_prefs_save(user=host, time_zone="Europe/Berlin")
    client.force_login(host)
    response = client.post(
        reverse("homegames:night_new", kwargs={"home_game_id": home_game.pk}),
        {"date": spring.isoformat(), "time": "02:30", "place": "Here", "template": template.pk, "seat_limit": 4},
    )
    assert response.status_code == 200 and "the clocks go forward" in response.content.decode()
    assert not Night.objects.exists()


@pytest.mark.parametrize("zone", [*EXTREME_ZONES, "UTC"])
def test_every_page_shows_nights_stored_at_the_calendars_ends_to_viewers_in_the_extreme_zones(client, group, zone):  # noqa: F811
    home_game, host, members, template = group
    home_game_set_co_host(home_game=home_game, member=members["bikash"], is_co_host=True, by=host)
    nights = [stored_night(home_game, template, host, when) for when in (LAST, FIRST)]
    viewer = members["bikash"]
    viewer.email = "bikash@example.org"
    viewer.save()
    member_prefs_save(user=viewer, time_zone=zone)
    client.force_login(viewer)
    pages = [
        reverse("homegames:night_list", kwargs={"home_game_id": home_game.pk}),
        reverse("ledger:home_game_detail", kwargs={"home_game_id": home_game.pk}),
        reverse("home"),
    ]
    for night in nights:
        kwargs = {"home_game_id": home_game.pk, "night_id": night.pk}
        pages += [reverse(f"homegames:{name}", kwargs=kwargs) for name in ("night_detail", "night_edit", "night_ics")]
    for page in pages:
        response = client.get(page)
        assert response.status_code == 200, page
    detail = client.get(
        reverse("homegames:night_detail", kwargs={"home_game_id": home_game.pk, "night_id": nights[0].pk})
    )
    # UTC+14 cannot hold the last night's time: it is shown in UTC, and says so.
    assert ("(in UTC)" in detail.content.decode()) == (zone == "Pacific/Kiritimati")
    feed = client.get(
        reverse("homegames:feed", kwargs={"token": calendar_feed_for(home_game=home_game, user=viewer).token})
    )
    assert feed.status_code == 200
    starts = [event.decoded("dtstart") for event in Calendar.from_ical(feed.content).walk("VEVENT")]
    assert LAST in starts  # the feed holds the nights from 90 days ago on: the last one
    for night in nights:
        for kind in Notice.Kind.values:
            notice = Notice(night=night, user=viewer, kind=kind, version=1, due_at=timezone.now(), moved_from=LAST)
            message = notice_message(notice, site_url="https://example.org")
            assert "Far away" in message.body and "Friday Faras" in message.subject


def test_a_failure_that_cannot_be_recorded_leaves_the_notice_due_and_the_sweep_goes_on(group, monkeypatch):  # noqa: F811
    _home_game, _host, members, _template = group
    night = schedule(group)
    failing_for(monkeypatch, members["bikash"], night)

    def broken(*_args):
        raise DatabaseError("the database went away")

    monkeypatch.setattr(services, "_notice_failed", broken)
    Notice.objects.filter(user=members["bikash"]).update(due_at=timezone.now() - timedelta(seconds=1))  # first
    assert notices_send_due() == 2  # the two others
    poison = Notice.objects.get(user=members["bikash"])
    assert (poison.sent_at, poison.skipped, poison.attempts) == (None, "", 0)  # still due
