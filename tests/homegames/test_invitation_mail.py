"""The calendar invitations in a night's mails (issue 38, point 10), checked as a mail client
would read them: the message as Django's SMTP backend puts it on the wire (CRLF line ends),
parsed with the ``email`` package, its iCalendar with ``icalendar`` and byte by byte.

The rules (docs/home-games.md, "Invitations by e-mail", with their sources): the invitation
is a ``text/calendar`` part without Content-Disposition, its ``method`` parameter the
iCalendar's METHOD, inside a ``multipart/alternative`` that is the first part of the mail;
the same bytes ride along once more as ``night.ics`` (``application/ics``, an attachment),
and nowhere else; CRLF line ends, lines folded at 75 octets; the properties RFC 5546 asks of
a REQUEST and a CANCEL; ORGANIZER the mail's sender, ATTENDEE the recipient, asked to reply;
a move keeps the UID and raises SEQUENCE; no invitation to the organizer's own address."""

from __future__ import annotations

import email
import email.policy
from datetime import UTC, timedelta
from email.message import EmailMessage as ParsedMessage
from email.utils import parseaddr

import pytest
from django.core import mail
from django.utils import formats, timezone
from icalendar import Calendar

from homegames.ics import NIGHT_LENGTH
from homegames.services import MOVED_NOTE_DELAY, night_answer, night_cancel, night_schedule, night_update
from homegames.services import notices_send_due as send_due
from tests.homegames.test_notices import group  # noqa: F401 (the fixture)

#: RFC 5546, 3.2.2 and 3.2.5: the properties a REQUEST's and a CANCEL's VEVENT must have.
REQUEST_PROPERTIES = {"ATTENDEE", "DTSTAMP", "DTSTART", "ORGANIZER", "SUMMARY", "UID"}
#: What docs/home-games.md promises besides.
PROMISED = {"DTEND", "SEQUENCE", "LOCATION", "DESCRIPTION", "URL", "STATUS"}
CANCEL_PROPERTIES = {"ATTENDEE", "DTSTAMP", "ORGANIZER", "SEQUENCE", "UID"}


def on_the_wire(message) -> ParsedMessage:
    """``message`` as the SMTP backend sends it (``as_bytes(linesep="\\r\\n")``), read back."""
    raw = message.message().as_bytes(linesep="\r\n")
    return email.message_from_bytes(raw, policy=email.policy.default)


def mails_to(user):
    return [on_the_wire(m) for m in mail.outbox if m.to == [user.email]]


def calendar_parts(parsed: ParsedMessage) -> list[ParsedMessage]:
    return [part for part in parsed.walk() if part.get_content_type() in ("text/calendar", "application/ics")]


def invitation_bytes(parsed: ParsedMessage) -> bytes:
    """The iCalendar the mail carries, checked to be the same in both of its parts."""
    parts = calendar_parts(parsed)
    assert len(parts) == 2, [part.get_content_type() for part in parts]
    first, second = (part.get_payload(decode=True) for part in parts)
    assert first == second
    return first


def the_event(parsed: ParsedMessage):
    calendar = Calendar.from_ical(invitation_bytes(parsed))
    (event,) = calendar.walk("VEVENT")
    return calendar, event


def schedule(group, *, place="Asha's flat", days=3):  # noqa: F811
    home_game, host, _members, template = group
    starts = (timezone.now() + timedelta(days=days)).replace(microsecond=0)
    return night_schedule(
        home_game=home_game,
        template=template,
        starts_at=starts,
        time_zone="UTC",
        place=place,
        seat_limit=4,
        by=host,
    )


def test_the_invitation_is_an_imip_part_first_in_the_mail_and_an_ics_attachment(group):  # noqa: F811
    _home_game, _host, members, _template = group
    schedule(group)
    send_due()
    (parsed,) = mails_to(members["bikash"])
    assert parsed.get_content_type() == "multipart/mixed"
    first, *rest = parsed.iter_parts()
    # Outlook looks for iMIP in the first part of a multipart/mixed, and only at a
    # text/calendar part that is not an attachment.
    assert first.get_content_type() == "multipart/alternative"
    text, invitation = first.iter_parts()
    assert text.get_content_type() == "text/plain"
    assert invitation.get_content_type() == "text/calendar"
    assert invitation.get("Content-Disposition") is None
    assert invitation.get_param("method") == "REQUEST" and invitation.get_content_charset() == "utf-8"
    calendar, _event = the_event(parsed)
    assert str(calendar["method"]) == invitation.get_param("method")
    # Once more as a file, for the clients that only look at attachments.
    (attachment,) = rest
    assert attachment.get_content_type() == "application/ics"
    assert attachment.get_content_disposition() == "attachment" and attachment.get_filename() == "night.ics"
    # No third copy anywhere: a client that shows every calendar part shows two at most.
    assert len(calendar_parts(parsed)) == 2
    # The text still reads first, and the invitation does not hide it.
    assert "You are invited to a night of Friday Faras." in parsed.get_body(preferencelist=("plain",)).get_content()


def test_the_icalendar_has_crlf_line_ends_and_lines_of_at_most_75_octets(group):  # noqa: F811
    _home_game, _host, members, _template = group
    place = "काठमाडौंको ठमेलमा आशाको फ्ल्याट, दोस्रो तला, ढोकाको दायाँपट्टि"  # 3 octets a letter
    night = schedule(group, place=place)
    send_due()
    (parsed,) = mails_to(members["bikash"])
    for part in calendar_parts(parsed):
        raw = part.get_payload(decode=True)
        assert raw.endswith(b"\r\n")
        lines = raw[: -len(b"\r\n")].split(b"\r\n")
        assert not any(b"\r" in line or b"\n" in line for line in lines)  # no bare CR or LF
        assert max(len(line) for line in lines) <= 75
        for line in lines:
            line.decode("utf-8")  # no character split between two lines
        assert any(line.startswith(b" ") for line in lines)  # the long lines were folded
        (event,) = Calendar.from_ical(raw).walk("VEVENT")
        assert str(event["location"]) == place == night.place


def test_a_request_and_a_cancel_have_what_rfc_5546_asks(group, settings):  # noqa: F811
    _home_game, _host, members, _template = group
    settings.DEFAULT_FROM_EMAIL = "Dashain nights <nights@example.net>"
    night = schedule(group)
    send_due()
    bikash = members["bikash"]
    (invitation,) = mails_to(bikash)
    calendar, event = the_event(invitation)
    assert REQUEST_PROPERTIES | PROMISED <= set(event)
    raw = invitation_bytes(invitation)
    assert b"VTIMEZONE" not in raw and b"\r\nDTSTART:" in raw and b"\r\nDTEND:" in raw  # times in UTC
    assert all(event[name].dt.utcoffset() == timedelta(0) for name in ("dtstart", "dtend"))
    assert all(line.endswith(b"Z") for line in raw.split(b"\r\n") if line.startswith((b"DTSTART", b"DTEND")))
    assert event.decoded("dtstart") == night.starts_at.astimezone(UTC)
    assert event.decoded("dtend") - event.decoded("dtstart") == NIGHT_LENGTH
    # ORGANIZER is the mail's sender; ATTENDEE the recipient, asked to reply (Apple's
    # Calendar offers accept and decline only then).
    assert str(event["organizer"]) == f"mailto:{parseaddr(invitation['From'])[1]}" == "mailto:nights@example.net"
    assert str(event["attendee"]) == f"mailto:{bikash.email}"
    assert event["attendee"].params["RSVP"] == "TRUE" and event["attendee"].params["PARTSTAT"] == "NEEDS-ACTION"
    assert event.decoded("sequence", 0) == 0 and str(event["status"]) == "CONFIRMED"
    # The text says what accepting it in a calendar does and does not do.
    text = invitation.get_body(preferencelist=("plain",)).get_content()
    assert "the host counts the answers given on the night's page" in text
    night_answer(night=night, user=bikash, reply="yes")
    mail.outbox.clear()
    night_cancel(night=night, by=night.created_by)
    send_due()
    (cancelled,) = mails_to(bikash)
    calendar, cancel = the_event(cancelled)
    assert str(calendar["method"]) == "CANCEL" == calendar_parts(cancelled)[0].get_param("method")
    assert CANCEL_PROPERTIES | PROMISED <= set(cancel) and str(cancel["status"]) == "CANCELLED"
    assert str(cancel["uid"]) == str(event["uid"]) and cancel.decoded("sequence") > event.decoded("sequence", 0)
    assert str(cancel["attendee"]) == f"mailto:{bikash.email}" and str(cancel["organizer"]) == str(event["organizer"])
    text = cancelled.get_body(preferencelist=("plain",)).get_content()
    assert "The night of Friday Faras is cancelled." in text and "Accepting the invitation" not in text


def test_the_moved_mail_updates_the_same_event_and_tells_both_times(group):  # noqa: F811
    _home_game, host, members, _template = group
    night = schedule(group)
    send_due()
    bikash = members["bikash"]
    (invitation,) = mails_to(bikash)
    _calendar, first = the_event(invitation)
    night_answer(night=night, user=bikash, reply="yes")
    mail.outbox.clear()
    before = night.starts_at
    moved, _changed = night_update(
        night=night, starts_at=before + timedelta(hours=2), place=night.place, seat_limit=night.seat_limit, by=host
    )
    send_due(now=timezone.now() + MOVED_NOTE_DELAY)
    (note,) = [m for m in mails_to(bikash) if m["Subject"].startswith("Moved:")]
    calendar, event = the_event(note)
    assert str(calendar["method"]) == "REQUEST" == calendar_parts(note)[0].get_param("method")
    assert REQUEST_PROPERTIES <= set(event)
    assert str(event["uid"]) == str(first["uid"]) and event.decoded("sequence") == first.decoded("sequence", 0) + 1
    assert event.decoded("dtstart") == moved.starts_at.astimezone(UTC) == (before + timedelta(hours=2)).astimezone(UTC)
    lines = note.get_body(preferencelist=("plain",)).get_content().splitlines()
    assert f"When: {shown(moved.starts_at)}" in lines and f"Before the move: {shown(before)}" in lines


def shown(value):
    """A time as the mails write it to a member in UTC (test_night_wording checks the format)."""
    value = value.astimezone(UTC)
    day = f"{formats.date_format(value, 'l')}, {formats.date_format(value, 'DATE_FORMAT')}"
    return f"{day}, {formats.time_format(value, 'TIME_FORMAT')} (UTC)"


@pytest.mark.parametrize("sender", ["bikash@example.org", "Dashain <BIKASH@example.org>"])
def test_no_invitation_to_the_organizers_own_address(group, settings, sender):  # noqa: F811
    _home_game, _host, members, _template = group
    settings.DEFAULT_FROM_EMAIL = sender
    schedule(group)
    send_due()
    (own,) = mails_to(members["bikash"])
    assert calendar_parts(own) == [] and own.get_content_type() == "text/plain"
    assert "You are invited to a night of Friday Faras." in own.get_content()
    assert "Accepting the invitation" not in own.get_content()
    (other,) = mails_to(members["chandra"])
    assert len(calendar_parts(other)) == 2


def test_reminders_and_the_hosts_digest_carry_no_invitation(group):  # noqa: F811
    _home_game, _host, members, _template = group
    night = schedule(group, days=3)
    send_due()
    night_answer(night=night, user=members["bikash"], reply="yes")
    mail.outbox.clear()
    send_due(now=night.starts_at - timedelta(minutes=30))  # the digest, then both reminders
    sent = [on_the_wire(m) for m in mail.outbox]
    subjects = sorted(m["Subject"].split(":")[0] for m in sent)
    assert subjects == ["In an hour", "New answers", "Tomorrow"], subjects
    assert all(calendar_parts(m) == [] for m in sent)
