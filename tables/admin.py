"""Live play in Django's admin, for the people who run a site.

- Tables: listed with their game, status and host, filtered and searched by code and
  host. Their settings are changed only by the host's own service
  (``tables.services.table_update_settings(by_admin=True)``, called from the form's
  ``clean`` so that its refusal is shown on the form): the same validation, the same
  rules (between hands, checked under the table's lock; hold'em's settings fixed once
  it starts; never once the game is over), and the change written to the table's event
  log (``settings_changed``) like any other. Tables are opened in the lobby (which draws the
  secret seed), never here, and never deleted here: their event log is the record.
- Seats, hands and the event log are read-only: chips, deals and events come from play
  alone. The secret seed, the invite token and a guest's token are never shown.
- No list is filtered, searched or ordered through a secret (the seed, the invite token, a
  guest's token, an event's payload): every admin here mixes in
  ``accounts.admin_guard.GuardedLookups``.
"""

from __future__ import annotations

import json
from typing import Any

from django import forms
from django.contrib import admin
from django.http import HttpRequest
from django.utils.encoding import force_str
from django.utils.translation import gettext_lazy as _

from accounts.admin_guard import GuardedLookups, ReadOnlyAdmin, ReadOnlyInline
from tables.models import Event, Hand, Seat, Table
from tables.services import ServiceError, table_update_settings

# --- tables --------------------------------------------------------------------------------


class TableAdminForm(forms.ModelForm[Table]):
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
        if self.instance.pk is not None:
            self.fields["host_settings"].initial = self.instance.settings.get("host", {})

    def clean(self) -> dict[str, Any]:
        """Change the settings through the service; its refusal becomes the form's error.

        The change is made here, not in ``save_model``, because only here can a refusal
        (decided under the table's lock) still be shown on the form."""
        cleaned = super().clean() or {}
        choices = cleaned.get("host_settings")
        if "host_settings" in self.errors:
            return cleaned
        if not isinstance(choices, dict):
            self.add_error("host_settings", _("Give the settings as a JSON object of names and values."))
            return cleaned
        try:
            table_update_settings(table_id=self.instance.pk, choices=choices, by_admin=True)
        except ServiceError as error:
            message = force_str(error.message)
            self.add_error("host_settings", f"{error.field}: {message}" if error.field else message)
        return cleaned


@admin.register(Table)
class TableAdmin(GuardedLookups[Table], admin.ModelAdmin[Table]):
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

    def get_inlines(self, request: HttpRequest, obj: Table | None) -> list[type]:
        return [SeatInline] if obj is not None else []

    @admin.display(description=_("settings in force"))
    def settings_in_force(self, table: Table) -> str:
        return json.dumps({key: value for key, value in table.settings.items() if key != "host"}, indent=2)

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False  # a table is opened in the lobby, which draws its secret seed

    def has_delete_permission(self, request: HttpRequest, obj: Table | None = None) -> bool:
        return False  # its event log is the record of every hand

    def save_model(self, request: HttpRequest, obj: Table, form: TableAdminForm, change: bool) -> None:
        """Nothing to store: the form's ``clean`` changed the settings through the service."""
        obj.refresh_from_db()


# --- seats, hands, the event log -------------------------------------------------------------


class SeatInline(ReadOnlyInline[Seat, Table]):
    model = Seat
    fields = ("display_name", "user", "number", "status", "stack", "buy_ins", "buy_backs_used")
    readonly_fields = fields


@admin.register(Seat)
class SeatAdmin(ReadOnlyAdmin[Seat]):
    list_display = ("display_name", "table", "user", "number", "status", "stack", "buy_ins", "buy_backs_used")
    list_filter = ("status", "table__game")
    search_fields = ("display_name", "user__username", "table__code")
    list_select_related = ("table", "user")
    exclude = ("guest_token", "link_claim")  # a guest's session secret, and one waiting for a seat link


@admin.register(Hand)
class HandAdmin(ReadOnlyAdmin[Hand]):
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
class EventAdmin(ReadOnlyAdmin[Event]):
    """The log, read-only. An event only some seats may see (a player's cards) shows its
    payload only once its hand has ended: during play no one, superusers included, reads
    hidden cards here (docs/fairness.md, "Who can see what")."""

    list_display = ("table", "seq", "hand_number", "kind", "actor", "visible_to", "created_at")
    list_filter = ("kind", "table__game")
    search_fields = ("table__code", "kind")
    list_select_related = ("table", "hand", "actor")
    ordering = ("-created_at", "-seq")
    fields = ("table", "seq", "hand", "kind", "payload_shown", "visible_to", "actor", "client_action_id", "created_at")
    readonly_fields = fields

    @admin.display(description=_("payload"))
    def payload_shown(self, event: Event) -> str:
        if event.visible_to is not None and (event.hand is None or event.hand.ended_at is None):
            return force_str(_("Hidden until the hand ends: only the seats listed may see it."))
        return json.dumps(event.payload, indent=2, ensure_ascii=False)

    @admin.display(description=_("hand"), ordering="hand__number")
    def hand_number(self, event: Event) -> int | None:
        return event.hand.number if event.hand is not None else None
