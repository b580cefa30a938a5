"""Live play in Django's admin, for the people who run a site.

- Tables: listed with their game, status and host, filtered and searched by code and
  host. Their settings are edited only through the same validation as the lobby and the
  host's own controls (``tables.services.settings.table_settings_build``, called from the
  form's ``clean``), between hands, and the change is written to the table's event log
  (``settings_changed``) like any other. Tables are opened in the lobby (which draws the
  secret seed), never here, and never deleted here: their event log is the record.
- Seats, hands and the event log are read-only: chips, deals and events come from play
  alone. The secret seed is never shown.
"""

from __future__ import annotations

import json
from typing import Any

from django import forms
from django.contrib import admin
from django.db import transaction
from django.http import HttpRequest
from django.utils.encoding import force_str
from django.utils.translation import gettext_lazy as _

from tables import selectors
from tables.models import Event, Hand, Seat, Table
from tables.services.errors import ServiceError
from tables.services.log import TableLog
from tables.services.settings import table_settings_build


class ReadOnlyPermissions:
    """Shown, searched and filtered; never added, changed or deleted from the admin."""

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


class ReadOnlyAdmin(ReadOnlyPermissions, admin.ModelAdmin):
    pass


class ReadOnlyInline(ReadOnlyPermissions, admin.TabularInline):
    extra = 0
    can_delete = False
    show_change_link = True


# --- tables --------------------------------------------------------------------------------


class TableAdminForm(forms.ModelForm):
    """The host's settings of a table as JSON, checked by the lobby's own validator."""

    host_settings = forms.JSONField(
        label=_("host settings"),
        help_text=_(
            'The host\'s choices, as in the lobby, e.g. {"boot": 10, "seats": 6, "blind_turns": 4}. '
            "Omitted settings take the rule books' defaults."
        ),
        widget=forms.Textarea(attrs={"rows": 8, "cols": 60}),
    )

    class Meta:
        model = Table
        fields: list[str] = []

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.built_settings: dict[str, Any] | None = None
        if self.instance.pk is not None:
            self.fields["host_settings"].initial = self.instance.settings.get("host", {})

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean()
        table = self.instance
        choices = cleaned.get("host_settings")
        if "host_settings" in self.errors:
            return cleaned
        if not isinstance(choices, dict):
            self.add_error("host_settings", _("Give the settings as a JSON object of names and values."))
            return cleaned
        if table.status == Table.Status.ENDED:
            raise forms.ValidationError(_("This game is over; its settings can no longer change."))
        if Hand.objects.filter(table=table, ended_at__isnull=True).exists():
            raise forms.ValidationError(_("A hand is being played; change the settings between hands."))
        try:
            built = table_settings_build(game=table.game, choices=choices)
        except ServiceError as error:
            self.add_error("host_settings", f"{error.field}: {force_str(error.message)}" if error.field else error)
            return cleaned
        highest = selectors.seat_number_highest(table=table)
        if highest > built["seats"]:
            self.add_error(
                "host_settings", _("seats: seat %(n)s is taken; keep at least that many seats.") % {"n": highest}
            )
            return cleaned
        self.built_settings = built
        return cleaned


@admin.register(Table)
class TableAdmin(admin.ModelAdmin):
    form = TableAdminForm
    list_display = ("code", "game", "status", "host", "hands_played", "buy_in_chips", "buy_in_price", "created_at")
    list_filter = ("game", "status", "created_at")
    search_fields = ("code", "host__username", "host__display_name", "seats__display_name")
    date_hierarchy = "created_at"
    readonly_fields = (
        "code",
        "game",
        "status",
        "host",
        "seed_commitment",
        "settings_in_force",
        "buy_in_chips",
        "buy_in_price",
        "hands_played",
        "last_seq",
        "created_at",
        "started_at",
        "ended_at",
    )
    fieldsets = (
        (None, {"fields": ("code", "game", "status", "host", "hands_played", "last_seq")}),
        (_("Settings"), {"fields": ("host_settings", "settings_in_force", "buy_in_chips", "buy_in_price")}),
        (_("Fairness"), {"fields": ("seed_commitment",)}),
        (_("Times"), {"fields": ("created_at", "started_at", "ended_at")}),
    )

    def get_inlines(self, request: HttpRequest, obj: Any) -> list[type]:
        return [SeatInline] if obj is not None else []

    @admin.display(description=_("settings in force"))
    def settings_in_force(self, table: Table) -> str:
        return json.dumps({key: value for key, value in table.settings.items() if key != "host"}, indent=2)

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False  # a table is opened in the lobby, which draws its secret seed

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False  # its event log is the record of every hand

    def save_model(self, request: HttpRequest, obj: Table, form: TableAdminForm, change: bool) -> None:
        """Store the checked settings and log the change, in one transaction with the table locked."""
        built = form.built_settings
        if built is None:
            return
        with transaction.atomic():
            table = Table.objects.select_for_update().get(pk=obj.pk)
            if table.settings == built:
                return
            table.settings = built
            table.buy_in_chips = built["buy_in_chips"]
            table.buy_in_price = built["buy_in_price"]
            log = TableLog(table)
            log.append(
                "settings_changed",
                {"settings": {key: value for key, value in built.items() if key != "host"}, "by": "admin"},
            )
            log.flush()
        obj.refresh_from_db()


# --- seats, hands, the event log -------------------------------------------------------------


class SeatInline(ReadOnlyInline):
    model = Seat
    fields = ("display_name", "user", "number", "status", "stack", "buy_ins", "buy_backs_used")
    readonly_fields = fields


@admin.register(Seat)
class SeatAdmin(ReadOnlyAdmin):
    list_display = ("display_name", "table", "user", "number", "status", "stack", "buy_ins", "buy_backs_used")
    list_filter = ("status", "table__game")
    search_fields = ("display_name", "user__username", "table__code")
    list_select_related = ("table", "user")
    exclude = ("guest_token",)  # a guest's session secret


@admin.register(Hand)
class HandAdmin(ReadOnlyAdmin):
    list_display = ("__str__", "table", "number", "dealer", "pot", "started_at", "ended_at")
    list_filter = ("table__game", ("ended_at", admin.EmptyFieldListFilter))
    search_fields = ("table__code",)
    list_select_related = ("table", "dealer")
    date_hierarchy = "started_at"

    @admin.display(description=_("pot"))
    def pot(self, hand: Hand) -> int | None:
        if not hand.result or hand.result.get("void"):
            return None
        return sum(int(pot.get("amount", 0)) for pot in hand.result.get("pots", []))


@admin.register(Event)
class EventAdmin(ReadOnlyAdmin):
    list_display = ("table", "seq", "hand_number", "kind", "actor", "visible_to", "created_at")
    list_filter = ("kind", "table__game")
    search_fields = ("table__code", "kind")
    list_select_related = ("table", "hand", "actor")
    ordering = ("-created_at", "-seq")

    @admin.display(description=_("hand"), ordering="hand__number")
    def hand_number(self, event: Event) -> int | None:
        return event.hand.number if event.hand_id else None
