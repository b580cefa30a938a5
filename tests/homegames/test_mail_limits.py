"""What one person can make the site mail to a member (issue 34, item 9): a co-host sent one
member 51 mails in 28 seconds by moving a night again and again and scheduling new ones.
Now the moves of one night before its note goes out make one note (the latest time, and the
time before the first of them), and no member is sent more than the hourly bound; the rest
wait for the hour, in order, and none is lost."""

from __future__ import annotations

from datetime import UTC, timedelta

from django.core import mail
from django.utils import formats, timezone

from homegames.models import Notice
from homegames.services import (
    MOVED_NOTE_DELAY,
    mails_per_member_hour,
    night_answer,
    night_cancel,
    night_schedule,
    night_update,
    notices_send_due,
)
from homegames.services_members import home_game_set_co_host
from tests.homegames.test_notices import group, schedule  # noqa: F401 (group: fixture)


def shown(value):
    """A time as the mails write it in English: weekday, Django's date and time formats."""
    value = value.astimezone(UTC)
    day = f"{formats.date_format(value, 'l')}, {formats.date_format(value, 'DATE_FORMAT')}"
    return f"{day}, {formats.time_format(value, 'TIME_FORMAT')}"


def mails_to(address, subject=""):
    return [m for m in mail.outbox if m.to == [address] and m.subject.startswith(subject)]


def test_a_co_host_moving_a_night_fifty_times_sends_each_member_one_note(group):  # noqa: F811
    home_game, host, members, _template = group
    co_host = members["bikash"]
    home_game_set_co_host(home_game=home_game, member=co_host, is_co_host=True, by=host)
    night = schedule(group, days=3)
    first_time = night.starts_at
    for name in ("chandra", "dipa"):
        night_answer(night=night, user=members[name], reply="yes")
    notices_send_due()
    mail.outbox.clear()
    for move in range(1, 51):  # the sweep loop runs between the moves, as it does every 2 s
        night, _moved = night_update(
            night=night, starts_at=first_time + timedelta(minutes=move), place="Here", seat_limit=4, by=co_host
        )
        notices_send_due()
    assert mail.outbox == []
    notices_send_due(now=timezone.now() + MOVED_NOTE_DELAY)
    # Those who answered, and Bikash, sent the invitation (his calendar holds the night).
    for name in ("bikash", "chandra", "dipa"):
        (note,) = mails_to(members[name].email, "Moved")
        assert f"{shown(night.starts_at)} (UTC)" in note.subject  # the latest time
        assert f"Before the move: {shown(first_time)} (UTC)" in note.body  # the time they knew
    assert len(mail.outbox) == 3
    # A night moved and moved back before its note goes out sends none.
    mail.outbox.clear()
    last_heard = night.starts_at
    night, _moved = night_update(
        night=night, starts_at=last_heard + timedelta(hours=2), place="Here", seat_limit=4, by=co_host
    )
    night, _moved = night_update(night=night, starts_at=last_heard, place="Here", seat_limit=4, by=co_host)
    notices_send_due(now=timezone.now() + MOVED_NOTE_DELAY)
    assert mail.outbox == []
    assert set(Notice.objects.filter(kind="moved", version__gt=51).values_list("skipped", flat=True)) == {"not_moved"}


def test_a_co_host_scheduling_many_nights_sends_no_member_more_than_the_hourly_bound(group):  # noqa: F811
    home_game, host, members, template = group
    co_host = members["bikash"]
    home_game_set_co_host(home_game=home_game, member=co_host, is_co_host=True, by=host)
    bound = mails_per_member_hour()
    assert bound == 10
    start = timezone.now()
    for day in range(25):
        night_schedule(
            home_game=home_game,
            template=template,
            starts_at=start + timedelta(days=2 + day),
            time_zone="UTC",
            place="Here",
            seat_limit=4,
            by=co_host,
        )
    victim = members["chandra"].email
    for sweep in range(30):  # a minute of the sweep loop: nothing more goes out
        notices_send_due(now=start + timedelta(seconds=2 * sweep))
    assert len(mails_to(victim)) == bound
    # The rest wait for the hour, in the order they were written, and none is lost.
    first_sent = Notice.objects.filter(user=members["chandra"], sent_at__isnull=False).earliest("sent_at").sent_at
    waiting = Notice.objects.filter(user=members["chandra"], sent_at__isnull=True)
    assert {n.retry_at for n in waiting} == {first_sent + timedelta(hours=1)}
    notices_send_due(now=first_sent + timedelta(hours=1))
    assert len(mails_to(victim)) == 2 * bound
    notices_send_due(now=first_sent + timedelta(hours=2))
    assert len(mails_to(victim)) == 25
    dates = [m.subject.split(": ")[1] for m in mails_to(victim)]
    written = [f"{shown(start + timedelta(days=2 + day))} (UTC)" for day in range(25)]
    assert dates == written  # in order
    # So does every other member, the host included; the co-host scheduled them and gets none.
    assert len(mails_to(members["dipa"].email)) == len(mails_to(host.email)) == 25
    assert mails_to(co_host.email) == []


def test_a_night_cancelled_before_its_invitation_goes_out_sends_no_invitation(group):  # noqa: F811
    _home_game, host, _members, _template = group
    night = schedule(group)
    night_cancel(night=night, by=host)
    notices_send_due()
    assert mail.outbox == []
    assert set(Notice.objects.values_list("kind", "skipped")) == {("invitation", "stale")}
