"""The admin answers no question about a secret, whatever its query string asks.

A changelist filters by any lookup named in its query string (``?secret_seed__regex=^a``),
and "1 result" against "0 results" is an answer: 52 requests read a player's hole cards
through the event log's payload, a few thousand the table's secret seed. Every
``ModelAdmin`` of this site mixes in :class:`GuardedLookups`, which allows a lookup only
when

- every field on its path (relations followed, forward and reverse) is not a secret: a
  table's secret seed and invite token, a home game's invite token, a guest's token, an
  event's payload, a password hash, a session, what a login form posted; nor any ``BinaryField`` or ``JSONField``
  (their keys are arbitrary and their values the game's),
- it ends with at most one of the plain lookups in :data:`ALLOWED_LOOKUPS` (``regex`` and
  other transforms are never allowed: they can fail in the database or run for long),
- and Django's own rule allows it (a relation only through the admin's ``list_filter``).

A refused lookup is Django's ``DisallowedModelAdminLookup``: 400, the same page whatever
the value. Searches, orderings, list filters and ``_to_field`` never name a secret either,
and a lookup the database cannot run (a NUL byte on PostgreSQL, say) is Django's usual
"invalid lookup" redirect, never a 500. ``tests/config/test_admin_oracle.py`` walks every
registered changelist with lookups on every field and relation path and shows that the
answers are the same in two worlds that differ only in their secrets.
"""

from __future__ import annotations

from typing import Any, Generic, TypeVar

from django.contrib import admin
from django.contrib.admin import SimpleListFilter
from django.contrib.admin.options import IncorrectLookupParameters
from django.core.exceptions import FieldDoesNotExist
from django.db import DatabaseError, models, router, transaction
from django.db.models import Model
from django.db.models.constants import LOOKUP_SEP
from django.http import HttpRequest

#: ``app_label.model_name`` -> the names of its secret fields.
SECRET_FIELDS: dict[str, frozenset[str]] = {
    "tables.table": frozenset({"secret_seed", "invite_token"}),
    "tables.seat": frozenset({"guest_token", "link_claim"}),
    "homegames.homegame": frozenset({"invite_token"}),
    "homegames.calendarfeed": frozenset({"token"}),
    "tables.event": frozenset({"payload"}),
    "accounts.user": frozenset({"password"}),
    "axes.accessattempt": frozenset({"get_data", "post_data"}),
    "axes.accesslog": frozenset({"session_hash"}),
}

#: Models that are secrets whole: no lookup reaches into them.
SECRET_MODELS: frozenset[str] = frozenset({"sessions.session"})

#: The lookups a changelist may end a path with (those the admin's own filters, date
#: drill-down and search make, and the plain comparisons).
ALLOWED_LOOKUPS: frozenset[str] = frozenset(
    {
        "exact",
        "iexact",
        "in",
        "isnull",
        "isempty",  # EmptyFieldListFilter's parameter, never a database lookup
        "gt",
        "gte",
        "lt",
        "lte",
        "range",
        "contains",
        "icontains",
        "startswith",
        "istartswith",
        "endswith",
        "iendswith",
        "year",
        "month",
        "day",
        "date",
    }
)


def field_is_secret(field: Any) -> bool:
    """Whether ``field`` (a model field or a reverse relation) holds or leads to a secret."""
    model = getattr(field, "model", None)
    if model is None:
        return True
    label = model._meta.label_lower
    if label in SECRET_MODELS:
        return True
    related = getattr(field, "related_model", None)
    if related is not None and related._meta.label_lower in SECRET_MODELS:
        return True
    if isinstance(field, (models.BinaryField, models.JSONField)):
        return True
    return getattr(field, "name", None) in SECRET_FIELDS.get(label, frozenset())


def path_allowed(model: type[models.Model], lookup: str) -> bool:
    """Whether ``lookup`` (``table__game__exact``, say) keeps clear of every secret and ends
    with at most one allowed lookup."""
    parts = lookup.split(LOOKUP_SEP)
    if not parts or not parts[0]:
        return False
    current: Any = model
    index = 0
    while index < len(parts):
        if current is None or current._meta.label_lower in SECRET_MODELS:
            return False
        name = "pk" if parts[index] == "pk" else parts[index]
        try:
            field = current._meta.pk if name == "pk" else current._meta.get_field(name)
        except FieldDoesNotExist:
            break
        if field_is_secret(field):
            return False
        index += 1
        if not field.is_relation:
            current = None
            break
        current = field.related_model
    if index == 0:
        return False  # the path names no field at all
    rest = parts[index:]
    if current is not None and current._meta.label_lower in SECRET_MODELS:
        return False
    return len(rest) <= 1 and all(part in ALLOWED_LOOKUPS for part in rest)


def order_allowed(model: type[models.Model], term: Any) -> bool:
    """Whether one ordering term (a name, ``-name``, or an expression) names no secret."""
    if isinstance(term, str):
        return term.lstrip("-+") in ("?", "pk") or path_allowed(model, term.lstrip("-+"))
    expression_name = getattr(term, "name", None)  # F("...")
    if isinstance(expression_name, str):
        return path_allowed(model, expression_name)
    return all(order_allowed(model, source) for source in getattr(term, "get_source_expressions", list)())


_ModelT = TypeVar("_ModelT", bound=Model)
_ParentT = TypeVar("_ParentT", bound=Model)


class GuardedLookups(Generic[_ModelT]):
    """Mixed into every ModelAdmin of the site: no lookup, search, filter or ordering
    through a secret, and no 500 from a lookup the database refuses."""

    model: type[_ModelT]

    def lookup_allowed(self, lookup: str, value: str, request: HttpRequest | None = None) -> bool:
        if lookup in _simple_filter_parameters(self, request):
            return True  # the admin's own filter: it builds its query itself
        if not path_allowed(self.model, lookup):
            return False
        return bool(super().lookup_allowed(lookup, value, request))  # type: ignore[misc]

    def to_field_allowed(self, request: HttpRequest, to_field: str) -> bool:
        if not path_allowed(self.model, to_field):
            return False
        return bool(super().to_field_allowed(request, to_field))  # type: ignore[misc]

    def get_search_fields(self, request: HttpRequest) -> list[str]:
        fields = super().get_search_fields(request)  # type: ignore[misc]
        return [name for name in fields if path_allowed(self.model, name.lstrip("^=@"))]

    def get_list_filter(self, request: HttpRequest) -> list[Any]:
        return [item for item in super().get_list_filter(request) if _filter_allowed(self.model, item)]  # type: ignore[misc]

    def get_ordering(self, request: HttpRequest) -> list[Any]:
        ordering = super().get_ordering(request) or ()  # type: ignore[misc]
        return [term for term in ordering if order_allowed(self.model, term)]

    def get_sortable_by(self, request: HttpRequest) -> Any:
        sortable = super().get_sortable_by(request)  # type: ignore[misc]
        return [name for name in sortable if not isinstance(name, str) or _display_sort_allowed(self, name)]

    def get_changelist_instance(self, request: HttpRequest) -> Any:
        """The list, its rows fetched here: a lookup the database cannot run is an invalid
        lookup (Django's redirect to ``?e=1``), never a 500, and leaves no broken transaction."""
        try:
            with transaction.atomic(using=router.db_for_read(self.model)):
                changelist = super().get_changelist_instance(request)  # type: ignore[misc]
                len(changelist.result_list)  # run the query now, inside the savepoint
        except (DatabaseError, ValueError, TypeError, OverflowError) as error:
            raise IncorrectLookupParameters(error) from error
        return changelist


def _simple_filter_parameters(admin: Any, request: HttpRequest | None) -> set[str]:
    items = admin.get_list_filter(request) if request is not None else admin.list_filter
    return {
        item.parameter_name
        for item in items
        if isinstance(item, type) and issubclass(item, SimpleListFilter) and item.parameter_name
    }


def _filter_allowed(model: type[models.Model], item: Any) -> bool:
    if isinstance(item, (list, tuple)):
        item = item[0]
    if isinstance(item, str):
        return path_allowed(model, item)
    return True  # a SimpleListFilter: its own parameter, checked by lookup_allowed


def _display_sort_allowed(admin: Any, name: str) -> bool:
    """A list column may be sorted by unless it is, or sorts by, a secret."""
    try:
        field = admin.model._meta.get_field(name)
    except FieldDoesNotExist:
        attribute = getattr(admin, name, None) or getattr(admin.model, name, None)
        ordering = getattr(attribute, "admin_order_field", None)
        return ordering is None or order_allowed(admin.model, ordering)
    return not field_is_secret(field)


# --- the read-only admin every app's admin builds on ---------------------------------------


class ReadOnlyPermissions:
    """Shown, searched and filtered; never added, changed or deleted from the admin."""

    def has_add_permission(self, request: HttpRequest, obj: Model | None = None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Model | None = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Model | None = None) -> bool:
        return False


class ReadOnlyAdmin(GuardedLookups[_ModelT], ReadOnlyPermissions, admin.ModelAdmin[_ModelT]):
    pass


class ReadOnlyInline(ReadOnlyPermissions, admin.TabularInline[_ModelT, _ParentT]):
    extra = 0
    can_delete = False
    show_change_link = True
