"""The e-mails of a night, written in the recipient's language (``accounts.language.mail_language``:
the one she reads the site in) with times in their zone."""

from __future__ import annotations

from datetime import datetime, timedelta, tzinfo
from email import encoders
from email.mime.base import MIMEBase
from email.mime.multipart import MIMEMultipart
from email.utils import parseaddr
from typing import TYPE_CHECKING, Any

from django.conf import settings
from django.core.mail import EmailMessage
from django.template.loader import render_to_string
from django.utils import formats, translation
from django.utils.translation import gettext as _

from accounts.language import mail_language
from homegames.ics import invitation_method, night_invitation
from homegames.models import Answer, Notice
from homegames.selectors import night_answers, shown_zone, user_zone

if TYPE_CHECKING:
    from collections.abc import Callable


#: The host's digest of answers waits this long after the first answer it tells, so that
#: answers given meanwhile go into the same mail.
ANSWER_DIGEST_DELAY = timedelta(minutes=30)

#: The mails that carry the night as a calendar invitation (``ics.night_invitation``).
CALENDAR_KINDS = (Notice.Kind.INVITATION, Notice.Kind.MOVED, Notice.Kind.CANCELLED, Notice.Kind.SEAT_FREED)

#: The invitation's file name: the CalConnect guide asks for a name that ends in ``.ics``.
INVITATION_FILENAME = "night.ics"

SUBJECTS: dict[str, Callable[[], str]] = {
    Notice.Kind.INVITATION: lambda: _("A night of %(name)s: %(when)s"),
    Notice.Kind.DAY_BEFORE: lambda: _("Tomorrow: %(name)s, %(when)s"),
    Notice.Kind.HOUR_BEFORE: lambda: _("In an hour: %(name)s, %(when)s"),
    Notice.Kind.MOVED: lambda: _("Moved: %(name)s is now %(when)s"),
    Notice.Kind.CANCELLED: lambda: _("Cancelled: %(name)s, %(when)s"),
    Notice.Kind.SEAT_FREED: lambda: _("You have a seat: %(name)s, %(when)s"),
    Notice.Kind.ANSWERS: lambda: _("New answers: %(name)s, %(when)s"),
}


def _new_answers(notice: Notice) -> list[Answer]:
    """The answers a host's digest tells: those given since it was written (the first
    answer not told yet, ``ANSWER_DIGEST_DELAY`` before it is due), hers aside, in order."""
    since = notice.due_at - ANSWER_DIGEST_DELAY
    answers = notice.night.answers.exclude(user_id=notice.user_id).filter(answered_at__gte=since)
    return list(answers.select_related("user").order_by("answered_at", "id"))


def _when(value: datetime, zone: tzinfo) -> str:
    """``value`` in the member's zone, named, with its weekday, in the formats of the active
    language (Django's, as the pages write it); in UTC where that zone cannot hold it."""
    local = value.astimezone(shown_zone(value, zone))
    day = f"{formats.date_format(local, 'l')}, {formats.date_format(local, 'DATE_FORMAT')}"
    return f"{day}, {formats.time_format(local, 'TIME_FORMAT')} ({local.tzinfo})"


class InvitationMail(EmailMessage):
    """A night's e-mail carrying its calendar invitation as iMIP (RFC 6047), in the shape the
    CalConnect developer guide recommends and Google Calendar's own invitations have::

        multipart/mixed
          multipart/alternative
            text/plain                                  the mail's text
            text/calendar; method=REQUEST (or CANCEL)   the invitation, no Content-Disposition
          application/ics; name="night.ics"             the same bytes, as an attachment

    Outlook takes only a ``text/calendar`` part that is not an attachment, inside the
    first part of a ``multipart/mixed``, as a meeting request ([MS-STANOICAL] 2.2.168,
    2.2.174); clients that look only at attachments find ``night.ics``. Both calendar parts
    are base64 (RFC 6047, 2.5: non-ASCII iCalendar gets a transfer encoding), so its CRLF
    line ends and 75-octet folds reach the client byte for byte."""

    def __init__(self, *, subject: str, body: str, to: list[str], calendar: bytes, method: str) -> None:
        super().__init__(subject=subject, body=body, to=to)
        self.calendar = calendar
        self.method = method
        attachment = MIMEBase("application", "ics", name=INVITATION_FILENAME)
        attachment.set_payload(calendar)
        encoders.encode_base64(attachment)
        attachment.add_header("Content-Disposition", "attachment", filename=INVITATION_FILENAME)
        self.attach(attachment)

    def message(self) -> Any:
        mixed = super().message()
        text, *attachments = mixed.get_payload()
        invitation = MIMEBase("text", "calendar")
        invitation.replace_header("Content-Type", f'text/calendar; charset="utf-8"; method={self.method}')
        invitation.set_payload(self.calendar)
        encoders.encode_base64(invitation)
        mixed.set_payload([MIMEMultipart("alternative", _subparts=[text, invitation]), *attachments])
        return mixed


def _organizer() -> str:
    """The invitations' ORGANIZER: the address the mail comes from (the CalConnect guide:
    an agent's address rather than a person's)."""
    return parseaddr(settings.DEFAULT_FROM_EMAIL)[1] or f"nights@{settings.DASHAIN_MAIL_DOMAIN}"


def notice_message(notice: Notice, *, site_url: str) -> EmailMessage:
    """The e-mail of ``notice``; its Message-ID is the notice's own, so a copy sent again
    after a crash reads as the same message to mail programs that look. A night's
    invitation, move, cancellation and freed seat carry the calendar invitation
    (``InvitationMail``), except to a member whose address is the organizer's own: a
    calendar takes such an invitation for one its reader sent."""
    user, night = notice.user, notice.night
    zone = user_zone(user)
    organizer = _organizer()
    invites = notice.kind in CALENDAR_KINDS and user.email.casefold() != organizer.casefold()
    method = invitation_method(night)
    with translation.override(mail_language(user)):
        when_text = _when(night.start, zone)
        subject = SUBJECTS[notice.kind]() % {"name": night.home_game.name, "when": when_text}
        digest: dict[str, object] = {}
        if notice.kind == Notice.Kind.ANSWERS:
            answers = night_answers(night=night)
            digest = {
                "new_answers": _new_answers(notice),
                "coming": len(answers.coming),
                "waiting": len(answers.waiting),
            }
        body = render_to_string(
            "homegames/email/notice.txt",
            {
                "notice": notice,
                "night": night,
                "when": when_text,
                "before": _when(notice.moved_from, zone) if notice.moved_from else "",
                "url": f"{site_url.rstrip('/')}/home-games/{night.home_game_id}/nights/{night.pk}/",
                "prefs_url": f"{site_url.rstrip('/')}/home-games/calendar-settings/",
                "calendar_request": invites and method == "REQUEST",
                **digest,
            },
        )
        invitation = (
            night_invitation(night, attendee=user.email, organizer=organizer, site_url=site_url) if invites else b""
        )
    message: EmailMessage
    if invites:
        message = InvitationMail(subject=subject, body=body, to=[user.email], calendar=invitation, method=method)
    else:
        message = EmailMessage(subject=subject, body=body, to=[user.email])
    message.extra_headers["Message-ID"] = f"<night-{night.pk}-notice-{notice.pk}@{settings.DASHAIN_MAIL_DOMAIN}>"
    return message
