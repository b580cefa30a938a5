"""Home games in Django's admin, with their nights; no list is filtered, searched or ordered
through a secret (``accounts.admin_guard``: the invite link's token)."""

from typing import TYPE_CHECKING

from django.contrib import admin
from django.db.models import Model

from accounts.admin_guard import GuardedLookups
from homegames.models import HomeGame, HomeGameNight

if TYPE_CHECKING:  # generic to the type checker only (django-stubs); plain classes at run time
    _TabularInline = admin.TabularInline[HomeGameNight, HomeGame]
    _ModelAdmin = admin.ModelAdmin[Model]  # GuardedLookups reads any model
else:
    _TabularInline = admin.TabularInline
    _ModelAdmin = admin.ModelAdmin


class HomeGameNightInline(_TabularInline):
    model = HomeGameNight
    extra = 0
    raw_id_fields = ("table",)


@admin.register(HomeGame)
class HomeGameAdmin(GuardedLookups, _ModelAdmin):
    list_display = ("name", "host", "created_at")
    search_fields = ("name",)
    filter_horizontal = ("members",)
    inlines = (HomeGameNightInline,)
