"""The e-mails of a night: an invitation when it is scheduled, reminders the day before and
an hour before (each member may turn them off), a note when it moves or is cancelled; due
times in the database, sent by the table clock's sweep, once."""

from __future__ import annotations

from datetime import timedelta
from zoneinfo import ZoneInfo

import pytest
from django.core import mail
from django.utils import timezone

from homegames.models import Notice
from homegames.services import (
    MOVED_NOTE_DELAY,
    member_prefs_save,
    night_answer,
    night_cancel,
    night_schedule,
    night_template_save,
    night_update,
    notices_send_due,
)
from homegames.services_members import home_game_create, home_game_join, home_game_remove_member
from tables.background_threads import swept
from tests.homegames.test_nights import FARAS
from tests.ledger.conftest import make_user


@pytest.fixture
def group(db):
    host = make_user("asha")
    host.email = "asha@example.org"
    host.save()
    home_game = home_game_create(name="Friday Faras", host=host)
    members = {}
    for name in ("bikash", "chandra", "dipa"):
        user = make_user(name)
        user.email = f"{name}@example.org"
        user.save()
        members[name] = user
        home_game_join(home_game=home_game, token=home_game.invite_token, user=user)
    template = night_template_save(home_game=home_game, name="Our Faras", game="faras", choices=FARAS, by=host)
    return home_game, host, members, template


def schedule(group, *, days=3):
    home_game, host, _members, template = group
    starts = (timezone.now() + timedelta(days=days)).replace(microsecond=0)
    return night_schedule(
        home_game=home_game,
        template=template,
        starts_at=starts,
        time_zone="UTC",
        place="Asha's flat",
        seat_limit=4,
        by=host,
    )


def night_mails():
    """The mails sent to members (the host's digest of answers is test_answers_shown's)."""
    return [m for m in mail.outbox if not m.subject.startswith("New answers:")]


def recipients(kind=None):
    return sorted(m.to[0] for m in night_mails() if kind is None or kind in m.subject)


def test_scheduling_invites_every_member_once_through_the_sweep(group):
    _home_game, _host, members, _template = group
    members["bikash"].language = "de"
    members["bikash"].save()
    member_prefs_save(user=members["bikash"], time_zone="Europe/Berlin")
    night = schedule(group)
    assert night_mails() == []  # written to the database, not sent in the request
    swept.send_robust(sender=None)  # the table clock's sweep loop sends them
    assert recipients() == ["bikash@example.org", "chandra@example.org", "dipa@example.org"]
    german = next(m for m in night_mails() if m.to == ["bikash@example.org"])
    berlin = timezone.localtime(night.starts_at, ZoneInfo("Europe/Berlin"))
    assert german.subject.startswith("Ein Abend von Friday Faras: ")
    assert "Du bist zu einem Abend von Friday Faras eingeladen." in german.body
    assert f"{berlin:%H:%M}" in german.subject and "Europe/Berlin" in german.subject
    assert "Asha's flat" in german.body and f"/home-games/{night.home_game_id}/nights/{night.pk}/" in german.body
    assert german.extra_headers["Message-ID"].startswith(f"<night-{night.pk}-notice-")
    # Never twice: a second sweep, or a second process's, sends nothing more.
    assert notices_send_due() == 0
    assert len(night_mails()) == 3
    assert Notice.objects.filter(sent_at__isnull=False).count() == 3


def test_reminders_the_day_before_and_an_hour_before_for_those_coming(group):
    _home_game, _host, members, _template = group
    night = schedule(group)
    notices_send_due()
    mail.outbox.clear()
    night_answer(night=night, user=members["bikash"], reply="yes")
    night_answer(night=night, user=members["chandra"], reply="maybe")
    night_answer(night=night, user=members["dipa"], reply="yes")
    member_prefs_save(user=members["dipa"], time_zone="UTC", reminders=False)  # Dipa turned them off
    reminders = Notice.objects.filter(kind__in=["day_before", "hour_before"])
    assert {(n.user.username, n.kind, n.due_at) for n in reminders} == {
        (name, kind, night.starts_at - before)
        for name in ("bikash", "chandra", "dipa")
        for kind, before in (("day_before", timedelta(days=1)), ("hour_before", timedelta(hours=1)))
    }
    assert notices_send_due() == 0  # not due yet
    notices_send_due(now=night.starts_at - timedelta(days=1))
    assert recipients() == ["bikash@example.org", "chandra@example.org"]
    # Chandra says no after all: no hour-before reminder for her.
    night_answer(night=night, user=members["chandra"], reply="no")
    mail.outbox.clear()
    notices_send_due(now=night.starts_at - timedelta(hours=1))
    assert recipients() == ["bikash@example.org"]
    assert set(Notice.objects.exclude(skipped="").values_list("user__username", "skipped")) == {
        ("dipa", "reminders_off"),
        ("chandra", "not_coming"),
    }


def test_moving_a_night_tells_everyone_who_answered_or_was_invited_and_the_reminders_follow(group):
    _home_game, host, members, _template = group
    night = schedule(group)
    night_answer(night=night, user=members["bikash"], reply="yes")
    night_answer(night=night, user=members["chandra"], reply="no")
    notices_send_due()
    mail.outbox.clear()
    later = night.starts_at + timedelta(days=2)
    night, _moved = night_update(night=night, starts_at=later, place="Bikash's", seat_limit=4, by=host)
    notices_send_due()
    assert night_mails() == []  # the note waits a few minutes, for a host who moves it again
    notices_send_due(now=timezone.now() + MOVED_NOTE_DELAY)
    # Everyone who answered, and Dipa, who did not but was sent the invitation her calendar holds.
    assert recipients("Moved") == ["bikash@example.org", "chandra@example.org", "dipa@example.org"]
    mail.outbox.clear()
    # The old time's reminder is not sent; the new time's is.
    notices_send_due(now=later - timedelta(days=2, hours=1))
    assert night_mails() == []
    notices_send_due(now=later - timedelta(hours=1))
    assert recipients() == ["bikash@example.org", "bikash@example.org"]  # day before and hour before
    assert Notice.objects.filter(version=1, kind="hour_before", skipped="stale").exists()


def test_cancelling_tells_everyone_who_answered_or_was_invited_and_no_reminder_follows(group):
    _home_game, host, members, _template = group
    night = schedule(group)
    night_answer(night=night, user=members["bikash"], reply="yes")
    night_answer(night=night, user=members["dipa"], reply="maybe")
    notices_send_due()
    mail.outbox.clear()
    night_cancel(night=night, by=host)
    notices_send_due()
    # Chandra never answered on the page, but her calendar may have accepted the invitation.
    assert recipients("Cancelled") == ["bikash@example.org", "chandra@example.org", "dipa@example.org"]
    cancellation = next(m for m in night_mails() if m.to == ["chandra@example.org"])
    calendar = [part for part in cancellation.message().walk() if part.get_content_type() == "text/calendar"]
    assert calendar and all(part.get_param("method") == "CANCEL" for part in calendar)
    mail.outbox.clear()
    notices_send_due(now=night.starts_at)
    assert night_mails() == []


def test_a_night_cancelled_before_its_invitations_went_out_tells_only_who_answered(group):
    """Nobody's calendar holds a night whose invitation was never sent: the cancellation goes
    to those who answered on the page, and the invitations still due are not sent."""
    _home_game, host, members, _template = group
    night = schedule(group)
    night_answer(night=night, user=members["bikash"], reply="yes")
    night_cancel(night=night, by=host)
    notices_send_due()
    assert recipients() == ["bikash@example.org"]
    assert recipients("Cancelled") == ["bikash@example.org"]


def test_a_removed_member_or_one_without_an_address_gets_nothing(group):
    home_game, host, members, _template = group
    members["chandra"].email = ""
    members["chandra"].save()
    night = schedule(group)
    home_game_remove_member(home_game=home_game, member=members["dipa"], by=host)
    notices_send_due()
    assert recipients() == ["bikash@example.org"]
    assert dict(Notice.objects.exclude(skipped="").values_list("user__username", "skipped")) == {
        "chandra": "no_email",
        "dipa": "not_member",
    }
    assert night.notices.count() == 3


def test_a_mail_server_that_fails_loses_nothing_a_later_sweep_sends_it(group, monkeypatch):
    schedule(group)
    from django.core.mail.backends.locmem import EmailBackend

    real = EmailBackend.send_messages
    calls = {"n": 0}

    def flaky(self, messages):
        calls["n"] += 1
        if calls["n"] == 2:
            raise OSError("connection refused")
        return real(self, messages)

    monkeypatch.setattr(EmailBackend, "send_messages", flaky)
    now = timezone.now()
    assert notices_send_due(now=now) == 2
    failed = Notice.objects.get(sent_at__isnull=True, skipped="")
    assert failed.attempts == 1 and failed.failure == "OSError: connection refused"
    assert notices_send_due(now=now) == 0  # it waits a minute before its next try
    assert notices_send_due(now=failed.retry_at) == 1
    assert len(night_mails()) == 3 and len(set(recipients())) == 3


def test_whoever_moves_up_from_the_waiting_list_is_told(group):
    _home_game, host, members, _template = group
    night = schedule(group)
    night, _moved = night_update(night=night, starts_at=night.starts_at, place="Here", seat_limit=2, by=host)
    for name in ("bikash", "chandra", "dipa"):
        night_answer(night=night, user=members[name], reply="yes")  # Dipa waits
    notices_send_due()
    mail.outbox.clear()
    night_answer(night=night, user=members["bikash"], reply="no")
    notices_send_due()
    assert [(m.to[0], m.subject.split(":")[0]) for m in night_mails()] == [("dipa@example.org", "You have a seat")]
    assert "you are coming" in night_mails()[0].body
    # A higher seat limit seats whoever waits next, and tells them too.
    night_answer(night=night, user=members["bikash"], reply="yes")  # waits now
    mail.outbox.clear()
    night_update(night=night, starts_at=night.starts_at, place="Here", seat_limit=3, by=host)
    notices_send_due()
    assert [m.to[0] for m in night_mails()] == ["bikash@example.org"]
