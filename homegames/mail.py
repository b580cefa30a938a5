"""The e-mails of a night, written in the recipient's language with times in their zone."""

from __future__ import annotations

from typing import TYPE_CHECKING

from django.conf import settings
from django.core.mail import EmailMessage
from django.template.loader import render_to_string
from django.utils import timezone, translation
from django.utils.translation import gettext as _

from homegames.models import Notice
from homegames.selectors import user_zone

if TYPE_CHECKING:
    from collections.abc import Callable


SUBJECTS: dict[str, Callable[[], str]] = {
    Notice.Kind.INVITATION: lambda: _("A night of %(name)s: %(when)s"),
    Notice.Kind.DAY_BEFORE: lambda: _("Tomorrow: %(name)s, %(when)s"),
    Notice.Kind.HOUR_BEFORE: lambda: _("In an hour: %(name)s, %(when)s"),
    Notice.Kind.MOVED: lambda: _("Moved: %(name)s is now %(when)s"),
    Notice.Kind.CANCELLED: lambda: _("Cancelled: %(name)s, %(when)s"),
    Notice.Kind.SEAT_FREED: lambda: _("You have a seat: %(name)s, %(when)s"),
}


def notice_message(notice: Notice, *, site_url: str) -> EmailMessage:
    """The e-mail of ``notice``; its Message-ID is the notice's own, so a copy sent again
    after a crash reads as the same message to mail programs that look."""
    user, night = notice.user, notice.night
    with translation.override(user.language or settings.LANGUAGE_CODE), timezone.override(user_zone(user)):
        when = timezone.localtime(night.starts_at)
        when_text = f"{when:%Y-%m-%d %H:%M} ({timezone.get_current_timezone_name()})"
        subject = SUBJECTS[notice.kind]() % {"name": night.home_game.name, "when": when_text}
        body = render_to_string(
            "homegames/email/notice.txt",
            {
                "notice": notice,
                "night": night,
                "when": when_text,
                "url": f"{site_url.rstrip('/')}/home-games/{night.home_game_id}/nights/{night.pk}/",
                "prefs_url": f"{site_url.rstrip('/')}/home-games/calendar-settings/",
            },
        )
    message = EmailMessage(subject=subject, body=body, to=[user.email])
    message.extra_headers["Message-ID"] = f"<night-{night.pk}-notice-{notice.pk}@{settings.DASHAIN_MAIL_DOMAIN}>"
    return message
