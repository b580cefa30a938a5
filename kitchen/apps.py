"""The kitchen-table night: real cards and chips on the table, Dashain as the bank
(see docs/kitchen-table.md)."""

from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class KitchenConfig(AppConfig):
    name = "kitchen"
    verbose_name = _("Kitchen-table nights")
