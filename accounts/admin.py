"""The admin for players: Django's UserAdmin with the display name.

Every admin of the site filters, searches and orders through no secret
(``accounts.admin_guard``): the player admin here, and Django's groups and django-axes'
login records, registered again below with the same guard.
"""

from typing import Any

from django import forms
from django.apps import apps
from django.contrib import admin
from django.contrib.auth.admin import GroupAdmin, UserAdmin
from django.contrib.auth.models import Group
from django.db.models import Model
from django.http import HttpRequest
from django.utils.translation import gettext_lazy as _

from accounts.admin_guard import GuardedLookups
from accounts.models import User
from accounts.services import email_change_tell


@admin.register(User)
class PlayerAdmin(GuardedLookups[User], UserAdmin[User]):
    list_display = ("username", "display_name", "email", "is_staff", "date_joined")
    search_fields = ("username", "display_name", "email")
    fieldsets = (
        *(UserAdmin.fieldsets or ()),
        (_("At the table"), {"fields": ("display_name",)}),
    )
    add_fieldsets = (
        *UserAdmin.add_fieldsets,
        (_("At the table"), {"fields": ("display_name",)}),
    )

    def save_model(self, request: HttpRequest, obj: User, form: forms.ModelForm[User], change: bool) -> None:
        """A new address an admin saves is told to the apps above, as the player's own
        profile tells it (``accounts.services.email_change_tell``), in the admin's transaction
        and before the row is written: the invitations that waited for an address are due."""
        if "email" in form.changed_data:
            email_change_tell(user=obj, before=str(form.initial.get("email") or ""))
        super().save_model(request, obj, form, change)


def registered_admins(site: admin.AdminSite = admin.site) -> dict[type[Model], admin.ModelAdmin[Any]]:
    """Every model of ``site`` and its admin, through the site's public API."""
    return {model: site.get_model_admin(model) for model in apps.get_models() if site.is_registered(model)}


def guard_registered(site: admin.AdminSite = admin.site) -> None:
    """Register again, with :class:`GuardedLookups`, every admin registered before this
    module by another app (Django's groups, django-axes' records)."""
    for model, model_admin in registered_admins(site).items():
        if isinstance(model_admin, GuardedLookups):
            continue
        base = type(model_admin)
        guarded = type(f"Guarded{base.__name__}", (GuardedLookups, base), {"__module__": __name__})
        site.unregister(model)
        site.register(model, guarded)


if not admin.site.is_registered(Group):  # pragma: no cover - auth always registers it
    admin.site.register(Group, GroupAdmin)
guard_registered()
