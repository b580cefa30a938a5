"""Accounts: Django's own user, with the display name shown at the table."""

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

    @property
    def table_name(self) -> str:
        return self.display_name or self.username
