"""The nights as iCalendar (RFC 5545), built with the ``icalendar`` library: one night's
``.ics`` file and a member's calendar feed of a home game's nights.

Each night is one event whose UID never changes, so phone calendars update it in place:
``SEQUENCE`` goes up when the night moves (``Night.version``) and once more when it
is cancelled, and a cancelled night stays in the feed with ``STATUS:CANCELLED``.
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import UTC, datetime, timedelta

from django.conf import settings
from django.utils import timezone
from django.utils.translation import gettext as _
from icalendar import Calendar, Event, vCalAddress, vText

from homegames.models import Night


def night_uid(night: Night) -> str:
    return f"night-{night.pk}@{settings.DASHAIN_MAIL_DOMAIN}"


def night_sequence(night: Night) -> int:
    return (night.version - 1) + (1 if night.is_cancelled else 0)


#: How long a night is put in calendars (its end, ``DTEND``): the site does not know when the
#: last hand will be, and a calendar needs an end to block the evening.
NIGHT_LENGTH = timedelta(hours=4)


def night_event(night: Night, *, site_url: str) -> Event:
    event = Event()
    event.add("uid", night_uid(night))
    event.add("dtstamp", timezone.now().astimezone(UTC))
    event.add("dtstart", night.start.astimezone(UTC))
    event.add("dtend", night_end(night).astimezone(UTC))
    event.add("summary", f"{night.home_game.name}: {night.plan_template.name}")
    event.add("location", night.place)
    event.add("sequence", night_sequence(night))
    event.add("status", "CANCELLED" if night.is_cancelled else "CONFIRMED")
    page = f"{site_url.rstrip('/')}/home-games/{night.home_game_id}/nights/{night.pk}/"
    event.add("url", page)
    event.add("description", night_description(night, page=page, site_url=site_url))
    return event


def night_description(night: Night, *, page: str, site_url: str) -> str:
    """What a calendar shows under the event: the game, the place, the night's page; once
    played, where its results are."""
    lines = [f"{night.home_game.name}: {night.plan_template.name}", night.place]
    if night.is_played and night.table is not None:
        report = f"{site_url.rstrip('/')}/ledger/tables/{night.table.code}/"
        lines.append(_("Played at table %(code)s. Results: %(url)s") % {"code": night.table.code, "url": report})
    elif night.is_cancelled:
        lines.append(_("Cancelled."))
    lines.append(page)
    return "\n".join(lines)


def night_end(night: Night) -> datetime:
    """The night's end as calendars show it; the calendar's last moment for a night at its very end."""
    try:
        return night.start + NIGHT_LENGTH
    except OverflowError:
        return datetime.max.replace(tzinfo=UTC)


def invitation_method(night: Night) -> str:
    """The iTIP method of the night's invitation: ``CANCEL`` once it is cancelled, else
    ``REQUEST``. The mail's ``text/calendar`` part names the same (RFC 6047, 2.4)."""
    return "CANCEL" if night.is_cancelled else "REQUEST"


def night_invitation(night: Night, *, attendee: str, organizer: str, site_url: str) -> bytes:
    """An invitation a calendar can accept (iTIP, RFC 5546): ``METHOD:REQUEST`` with the
    night's event, its organizer and the one attendee, or ``METHOD:CANCEL`` once it is
    cancelled. The UID and SEQUENCE are the feed's, so accepting it and subscribing to the
    feed show one event, updated in place. ``RSVP=TRUE``: Apple's Calendar offers accept and
    decline only to an attendee asked to reply (docs/home-games.md, "Invitations by e-mail")."""
    calendar = Calendar()
    calendar.add("prodid", "-//Dashain//home game nights//EN")
    calendar.add("version", "2.0")
    calendar.add("calscale", "GREGORIAN")
    calendar.add("method", invitation_method(night))
    event = night_event(night, site_url=site_url)
    event.add("organizer", vCalAddress(f"mailto:{organizer}"))
    attendee_address = vCalAddress(f"mailto:{attendee}")
    attendee_address.params["ROLE"] = vText("REQ-PARTICIPANT")
    attendee_address.params["PARTSTAT"] = vText("NEEDS-ACTION")
    attendee_address.params["RSVP"] = vText("TRUE")
    event.add("attendee", attendee_address)
    calendar.add_component(event)
    return bytes(calendar.to_ical())


def nights_calendar(nights: Iterable[Night], *, name: str, site_url: str) -> bytes:
    calendar = Calendar()
    calendar.add("prodid", "-//Dashain//home game nights//EN")
    calendar.add("version", "2.0")
    calendar.add("calscale", "GREGORIAN")
    calendar.add("method", "PUBLISH")
    calendar.add("x-wr-calname", name)
    for night in nights:
        calendar.add_component(night_event(night, site_url=site_url))
    return bytes(calendar.to_ical())
