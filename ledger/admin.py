"""The ledger in Django's admin: entries can be read, never changed or deleted there."""

from django.contrib import admin

from ledger.models import HomeGame, HomeGameNight, LedgerEntry, TableLedger, TransferPaid


@admin.register(LedgerEntry)
class LedgerEntryAdmin(admin.ModelAdmin):
    list_display = ("id", "table", "player_name", "kind", "chips", "price", "reverses", "created_at")
    list_filter = ("kind",)
    search_fields = ("player_name", "table__code")

    def has_add_permission(self, request):
        return False  # entries come from play; a correction is a reversal made by a service

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False


@admin.register(TableLedger)
class TableLedgerAdmin(admin.ModelAdmin):
    list_display = ("table", "chips_bought", "chips_cashed_out", "money_paid")

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False


class HomeGameNightInline(admin.TabularInline):
    model = HomeGameNight
    extra = 0
    raw_id_fields = ("table",)


@admin.register(HomeGame)
class HomeGameAdmin(admin.ModelAdmin):
    list_display = ("name", "host", "created_at")
    search_fields = ("name",)
    filter_horizontal = ("members",)
    inlines = (HomeGameNightInline,)


@admin.register(TransferPaid)
class TransferPaidAdmin(admin.ModelAdmin):
    list_display = ("table", "payer_name", "payee_name", "amount", "marked_by", "at")
