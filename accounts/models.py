"""Accounts: Django's own user, with the display name shown at the table and the site's language
(chosen, or the browser's as last seen, for the mails)."""

from django.conf import settings
from django.contrib.auth.models import AbstractUser
from django.db import models
from django.utils.translation import gettext_lazy as _


class User(AbstractUser):
    display_name = models.CharField(
        _("display name"),
        max_length=40,
        blank=True,
        help_text=_("The name other players see at the table. Your username if left empty."),
    )

    # Empty: follow the browser (or the language cookie). Set by the language switcher
    # and the profile form, applied on every request once logged in (accounts.middleware).
    language = models.CharField(
        _("language"),
        max_length=10,
        blank=True,
        choices=settings.LANGUAGES,
        help_text=_("The site's language for you, on every device you log in from."),
    )

    # The language the site was last shown in to this account while ``language`` is empty
    # (the browser's, or the language cookie's), kept by accounts.language's middleware when
    # it changes, so that mails sent later, with no browser to ask, come in it too.
    browser_language = models.CharField(
        _("language of the last visit"),
        max_length=10,
        blank=True,
        choices=settings.LANGUAGES,
        editable=False,
        help_text=_("The language the site was last shown in, while the account follows the browser."),
    )

    @property
    def table_name(self) -> str:
        return self.display_name or self.username
