"""The ledger app: buy-ins and cash-outs, settling up, home games (see docs/ledger.md)."""

from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class LedgerConfig(AppConfig):
    name = "ledger"
    verbose_name = _("Ledger")
