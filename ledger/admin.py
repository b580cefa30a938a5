"""The ledger in Django's admin: entries can be read, never changed or deleted there;
no list is filtered, searched or ordered through a secret (``accounts.admin_guard``)."""

from django.contrib import admin

from accounts.admin_guard import GuardedLookups, ReadOnlyAdmin
from ledger.models import LedgerEntry, SharedCost, TableLedger, TransferPaid


@admin.register(LedgerEntry)
class LedgerEntryAdmin(ReadOnlyAdmin[LedgerEntry]):
    """Entries come from play; a correction is a reversal made by a service."""

    list_display = ("id", "table", "player_name", "kind", "chips", "price", "reverses", "created_at")
    list_filter = ("kind",)
    search_fields = ("player_name", "table__code")


@admin.register(SharedCost)
class SharedCostAdmin(ReadOnlyAdmin[SharedCost]):
    """Costs come from the kitchen night's page, through the ledger's service."""

    list_display = ("table", "what", "amount", "paid_by", "recorded_by", "created_at")
    search_fields = ("what", "table__code")


@admin.register(TableLedger)
class TableLedgerAdmin(ReadOnlyAdmin[TableLedger]):
    list_display = ("table", "chips_bought", "chips_cashed_out", "money_paid")


@admin.register(TransferPaid)
class TransferPaidAdmin(GuardedLookups[TransferPaid], admin.ModelAdmin[TransferPaid]):
    list_display = ("table", "payer_name", "payee_name", "amount", "marked_by", "at")
