"""Home games in Django's admin, with their nights; no list is filtered, searched or ordered
through a secret (``accounts.admin_guard``: the invite link's token)."""

from django.contrib import admin

from accounts.admin_guard import GuardedLookups
from homegames.models import HomeGame, Night


class NightInline(admin.TabularInline[Night, HomeGame]):
    model = Night
    extra = 0
    fields = ("starts_at", "place", "status", "table", "season")
    raw_id_fields = ("table",)


@admin.register(HomeGame)
class HomeGameAdmin(GuardedLookups[HomeGame], admin.ModelAdmin[HomeGame]):
    list_display = ("name", "host", "created_at")
    search_fields = ("name",)
    filter_horizontal = ("members",)
    inlines = (NightInline,)
