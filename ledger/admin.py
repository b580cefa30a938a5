"""The ledger in Django's admin: entries can be read, never changed or deleted there;
no list is filtered, searched or ordered through a secret (``accounts.admin_guard``)."""

from django.contrib import admin

from accounts.admin_guard import GuardedLookups, ReadOnlyAdmin
from ledger.models import HomeGame, HomeGameNight, LedgerEntry, TableLedger, TransferPaid


@admin.register(LedgerEntry)
class LedgerEntryAdmin(ReadOnlyAdmin[LedgerEntry]):
    """Entries come from play; a correction is a reversal made by a service."""

    list_display = ("id", "table", "player_name", "kind", "chips", "price", "reverses", "created_at")
    list_filter = ("kind",)
    search_fields = ("player_name", "table__code")


@admin.register(TableLedger)
class TableLedgerAdmin(ReadOnlyAdmin[TableLedger]):
    list_display = ("table", "chips_bought", "chips_cashed_out", "money_paid")


class HomeGameNightInline(admin.TabularInline[HomeGameNight, HomeGame]):
    model = HomeGameNight
    extra = 0
    raw_id_fields = ("table",)


@admin.register(HomeGame)
class HomeGameAdmin(GuardedLookups[HomeGame], admin.ModelAdmin[HomeGame]):
    list_display = ("name", "host", "created_at")
    search_fields = ("name",)
    filter_horizontal = ("members",)
    inlines = (HomeGameNightInline,)


@admin.register(TransferPaid)
class TransferPaidAdmin(GuardedLookups[TransferPaid], admin.ModelAdmin[TransferPaid]):
    list_display = ("table", "payer_name", "payee_name", "amount", "marked_by", "at")
