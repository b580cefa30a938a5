"""The ledger in Django's admin: entries can be read, never changed or deleted there;
no list is filtered, searched or ordered through a secret (``accounts.admin_guard``)."""

from typing import TYPE_CHECKING

from django.contrib import admin
from django.db.models import Model

from accounts.admin_guard import GuardedLookups, ReadOnlyAdmin
from ledger.models import LedgerEntry, TableLedger, TransferPaid

if TYPE_CHECKING:  # generic to the type checker only (django-stubs); plain classes at run time
    _ModelAdmin = admin.ModelAdmin[Model]  # GuardedLookups reads any model
else:
    _ModelAdmin = admin.ModelAdmin


@admin.register(LedgerEntry)
class LedgerEntryAdmin(ReadOnlyAdmin):
    """Entries come from play; a correction is a reversal made by a service."""

    list_display = ("id", "table", "player_name", "kind", "chips", "price", "reverses", "created_at")
    list_filter = ("kind",)
    search_fields = ("player_name", "table__code")


@admin.register(TableLedger)
class TableLedgerAdmin(ReadOnlyAdmin):
    list_display = ("table", "chips_bought", "chips_cashed_out", "money_paid")


@admin.register(TransferPaid)
class TransferPaidAdmin(GuardedLookups, _ModelAdmin):
    list_display = ("table", "payer_name", "payee_name", "amount", "marked_by", "at")
