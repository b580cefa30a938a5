"""The ledger app: buy-ins and cash-outs, the chip invariant, settling up (see docs/ledger.md)."""

from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class LedgerConfig(AppConfig):
    name = "ledger"
    verbose_name = _("Ledger")

    def ready(self) -> None:
        from ledger.bank import LedgerBank
        from tables.money import bank_set

        bank_set(LedgerBank())  # every table records its chips with the ledger
