"""The kitchen nights in Django's admin, read-only (``accounts.admin_guard.ReadOnlyAdmin``):
the nights, a tournament's clock, its eliminations and add-ons come from
the night's page through the services, never from the admin."""

from django.contrib import admin

from accounts.admin_guard import ReadOnlyAdmin
from kitchen.models import AddOn, Elimination, KitchenNight, TournamentClock


@admin.register(KitchenNight)
class KitchenNightAdmin(ReadOnlyAdmin[KitchenNight]):
    list_display = ("table", "created_at")
    search_fields = ("table__code",)


@admin.register(TournamentClock)
class TournamentClockAdmin(ReadOnlyAdmin[TournamentClock]):
    list_display = ("night", "started", "elapsed_ms", "running_since", "rebuy_levels", "addon_level", "addon_chips")


@admin.register(Elimination)
class EliminationAdmin(ReadOnlyAdmin[Elimination]):
    list_display = ("clock", "seat", "place", "created_at")


@admin.register(AddOn)
class AddOnAdmin(ReadOnlyAdmin[AddOn]):
    list_display = ("clock", "seat", "created_at")
