"""Links to one finished hand's replay that anyone may open (issue 40): see shares.models."""

from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class SharesConfig(AppConfig):
    name = "shares"
    verbose_name = _("Shared hands")
