"""The statements of the write path as SQL built once: lock a table row, update a row's
fields, insert a row (a new hand), append events. (The reads of the hand's end and the
deal are their counterpart, ``tables.sql.read``.)

Every change to a table (``tables.services.write.table_write``) locks the table's row,
may update its hand and seats, appends events and moves the table's ``last_seq`` on.
Through the ORM each statement is compiled again on every call (a queryset cloned,
its lookups resolved, its SQL assembled), and that was most of the CPU an action costs
the server (docs/measurements/live-play.md). Here each statement's SQL is built once per
database and shape, from the models' own metadata: the table and column names, each
field's ``get_db_prep_save`` for what is written and the database's and field's
converters for what is read. So the models stay the schema, and the rows written and
read are the ones the ORM would write and read (``tests/tables/test_write_sql.py``
compares the two on every database the suite runs on).

The SQL is portable: PostgreSQL and SQLite (the newcomer's database). On any other
database every function here does what the ORM call it replaces does.
"""

from __future__ import annotations

import functools
import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, TypeVar

from django.conf import settings
from django.db import DEFAULT_DB_ALIAS, DatabaseError, connections, router
from django.db.backends.base.base import BaseDatabaseWrapper
from django.db.models import Model

from tables.events import NewEvent
from tables.models import Event

SUPPORTED_VENDORS = frozenset({"postgresql", "sqlite"})

ModelT = TypeVar("ModelT", bound=Model)
Converter = Callable[[Any, Any, BaseDatabaseWrapper], Any]


@dataclass
class Select:
    sql: str
    attnames: list[str]
    converters: list[tuple[int, list[Converter], Any]] = field(default_factory=list)


_EVENT_COLUMNS = ("table_id", "seq", "hand_id", "kind", "payload", "visible_to", "actor_id", "client_action_id")

_built: dict[tuple[str, str, Any], Any] = {}
_built_lock = threading.Lock()


def cached_sql(connection: BaseDatabaseWrapper, key: Any, build: Callable[..., Any], *args: Any) -> Any:
    """``build(*args)``, made once per database and ``key``."""
    full_key = (connection.alias, connection.vendor, key)
    found = _built.get(full_key)
    if found is None:
        found = build(*args)
        with _built_lock:
            _built[full_key] = found
    return found


def write_connection(model: type[Model]) -> BaseDatabaseWrapper:
    """The database the ORM would write ``model`` to (asking the routers only if there are any)."""
    if not settings.DATABASE_ROUTERS:
        return connections[DEFAULT_DB_ALIAS]
    return connections[router.db_for_write(model)]


def select_converters(model: type[Model], connection: BaseDatabaseWrapper, fields: Sequence[Any]) -> list[Any]:
    """Per column read (``fields`` of ``model``, in order): (position, converters, column) for
    each that has converters, the database's then the field's, as the ORM applies them."""
    table = model._meta.db_table
    found = []
    for position, model_field in enumerate(fields):
        column = model_field.get_col(table)
        field_converters = model_field.get_db_converters(connection)
        converters = connection.ops.get_db_converters(column) + field_converters
        if converters:
            found.append((position, converters, column))
    return found


def instance_from_row(
    model: type[ModelT], connection: BaseDatabaseWrapper, select: Select, row: Sequence[Any]
) -> ModelT:
    """The model instance the ORM would load from ``row`` (read by ``select``)."""
    return model.from_db(connection.alias, select.attnames, row_values(connection, select, row))


def row_values(connection: BaseDatabaseWrapper, select: Select, row: Sequence[Any]) -> list[Any]:
    """The values of ``row`` (read by ``select``) as the ORM converts them."""
    values = list(row)
    for position, converters, column in select.converters:
        value = values[position]
        for converter in converters:
            value = converter(value, column, connection)
        values[position] = value
    return values


def _select_by_pk(model: type[Model], connection: BaseDatabaseWrapper, for_update: bool) -> Select:
    quote = connection.ops.quote_name
    meta = model._meta
    fields = meta.concrete_fields
    columns = ", ".join(quote(f.column) for f in fields)
    # Names from the model's metadata, quoted; every value is a parameter (so: noqa S608).
    pk_column = quote(meta.pk.column)
    sql = f"SELECT {columns} FROM {quote(meta.db_table)} WHERE {pk_column} = %s"  # noqa: S608
    # As the ORM: FOR UPDATE where the database has it. SQLite has none and needs none: the
    # site's SQLite transactions begin IMMEDIATE, holding the database's write lock.
    if for_update and connection.features.has_select_for_update:
        sql += " FOR UPDATE"
    return Select(
        sql=sql, attnames=[f.attname for f in fields], converters=select_converters(model, connection, fields)
    )


def row_by_pk(model: type[ModelT], pk: Any, *, for_update: bool = False) -> ModelT | None:
    """``model.objects[.select_for_update()].filter(pk=pk).first()``, without compiling a
    query: ``None`` when there is no such row. Raises ``ValueError``/``TypeError`` for a
    ``pk`` that is not a key, as the ORM does."""
    return row_by_pk_then(model, pk, for_update=for_update)[0]


def row_by_pk_then(
    model: type[ModelT], pk: Any, *, for_update: bool = False, then: tuple[str, Sequence[Any]] | None = None
) -> tuple[ModelT | None, list[tuple[Any, ...]]]:
    """:func:`row_by_pk`, and the rows (as the driver gives them) of the query ``then`` (SQL
    with ``%s`` parameters, and its parameters) run after it, in the same transaction.

    On PostgreSQL both statements go in one round trip (one ``execute`` of the two, which
    Django's client-side binding allows); each statement has its own snapshot, so the second
    sees what was committed before the row's lock was granted, as a query of its own after
    the lock would. Elsewhere (and with psycopg's server-side binding, which takes one
    statement an execute) ``then`` is a query of its own."""
    connection = write_connection(model)
    pk = model._meta.pk.get_prep_value(pk)
    if connection.vendor not in SUPPORTED_VENDORS:
        queryset = model._default_manager.filter(pk=pk)
        found = None if pk is None else (queryset.select_for_update() if for_update else queryset).first()
        return found, _rows(connection, then)
    low, high = connection.ops.integer_field_range(model._meta.pk.get_internal_type())
    if pk is None or (low is not None and pk < low) or (high is not None and pk > high):
        return None, _rows(connection, then)  # as the ORM: a key out of the column's range matches no row
    select: Select = cached_sql(
        connection, ("select", model, for_update), lambda: _select_by_pk(model, connection, for_update)
    )
    # Two statements in one execute need client-side binding (Django's default for psycopg).
    together = (
        then is not None
        and connection.vendor == "postgresql"
        and not connection.settings_dict.get("OPTIONS", {}).get("server_side_binding")
    )
    with connection.cursor() as cursor:
        if together and then is not None:
            cursor.execute(f"{select.sql}; {then[0]}", [pk, *then[1]])
        else:
            cursor.execute(select.sql, [pk])
        row = cursor.fetchone()
        rows = cursor.fetchall() if together and cursor.nextset() else []
    if not together:
        rows = _rows(connection, then)
    return (None if row is None else instance_from_row(model, connection, select, row)), rows


def _rows(connection: BaseDatabaseWrapper, query: tuple[str, Sequence[Any]] | None) -> list[tuple[Any, ...]]:
    if query is None:
        return []
    with connection.cursor() as cursor:
        cursor.execute(query[0], list(query[1]))
        return [tuple(row) for row in cursor.fetchall()]


def row_save(instance: Model, fields: Sequence[str]) -> None:
    """``instance.save(update_fields=fields)`` (field names or attnames) as one UPDATE
    built once per model and set of fields; as the ORM, an error when no row was updated."""
    connection = write_connection(type(instance))
    if connection.vendor not in SUPPORTED_VENDORS:
        instance.save(update_fields=fields)
        return
    _execute_update(connection, *_update(connection, instance, fields))


def rows_save(instances: Sequence[Model], fields: Sequence[str]) -> None:
    """:func:`row_save` of each of ``instances`` (rows of one model, each once), in one UPDATE
    (each field set by a ``CASE`` on the key) built once per model, fields and number of
    rows; as the ORM, an error when a row was not updated."""
    if len(instances) <= 1:
        for instance in instances:
            row_save(instance, fields)
        return
    model = type(instances[0])
    connection = write_connection(model)
    if connection.vendor not in SUPPORTED_VENDORS:
        for instance in instances:
            instance.save(update_fields=fields)
        return
    meta = model._meta
    rows = len(instances)
    key = ("update_rows", model, tuple(fields), rows)
    model_fields = cached_sql(
        connection, ("fields", "update", model, tuple(fields)), lambda: [meta.get_field(name) for name in fields]
    )

    def build() -> str:
        quote = connection.ops.quote_name
        pk_column = quote(meta.pk.column)
        assignments = []
        for model_field in model_fields:
            # PostgreSQL types a CASE by its values: each is cast to the column's type (a
            # value that is NULL in every row would be text). SQLite needs no cast.
            value = f"CAST(%s AS {model_field.db_type(connection)})" if connection.vendor == "postgresql" else "%s"
            cases = " ".join([f"WHEN %s THEN {value}"] * rows)
            assignments.append(f"{quote(model_field.column)} = CASE {pk_column} {cases} END")
        keys = ", ".join(["%s"] * rows)
        return f"UPDATE {quote(meta.db_table)} SET {', '.join(assignments)} WHERE {pk_column} IN ({keys})"  # noqa: S608

    params: list[Any] = []
    for model_field in model_fields:
        for instance in instances:
            params += (instance.pk, model_field.get_db_prep_save(getattr(instance, model_field.attname), connection))
    params += [instance.pk for instance in instances]
    with connection.cursor() as cursor:
        cursor.execute(cached_sql(connection, key, build), params)
        if cursor.rowcount != rows:
            raise DatabaseError("Save with update_fields did not affect any rows.")


def _update(connection: BaseDatabaseWrapper, instance: Model, fields: Sequence[str]) -> tuple[str, list[Any]]:
    model = type(instance)
    meta = model._meta
    key = ("update", model, tuple(fields))
    model_fields = cached_sql(connection, ("fields", *key), lambda: [meta.get_field(name) for name in fields])

    def build() -> str:
        quote = connection.ops.quote_name
        assignments = ", ".join(f"{quote(f.column)} = %s" for f in model_fields)
        pk_column = quote(meta.pk.column)
        return f"UPDATE {quote(meta.db_table)} SET {assignments} WHERE {pk_column} = %s"  # noqa: S608

    params = [f.get_db_prep_save(getattr(instance, f.attname), connection) for f in model_fields]
    params.append(instance.pk)
    return cached_sql(connection, key, build), params


def _execute_update(connection: BaseDatabaseWrapper, sql: str, params: list[Any]) -> None:
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        if cursor.rowcount == 0:
            raise DatabaseError("Save with update_fields did not affect any rows.")


def events_insert(events: Sequence[NewEvent], *, created_at: datetime) -> None:
    """Insert ``events`` into the log in one statement (in batches the database allows), as
    ``Event.objects.bulk_create`` of the same rows would, without asking their ids back."""
    if not events:
        return
    connection = write_connection(Event)
    if connection.vendor not in SUPPORTED_VENDORS:
        Event.objects.bulk_create(
            [
                Event(created_at=created_at, **{name: getattr(event, name) for name in _EVENT_COLUMNS})
                for event in events
            ]
        )
        return
    for sql, params in _inserts(connection, events, created_at):
        with connection.cursor() as cursor:
            cursor.execute(sql, params)


def events_insert_and_save(
    events: Sequence[NewEvent], *, created_at: datetime, instance: Model, fields: Sequence[str]
) -> None:
    """:func:`events_insert` then :func:`row_save` (``fields`` may be empty: no UPDATE).

    On PostgreSQL, one statement: the INSERT as a data-modifying ``WITH`` of the UPDATE
    (both run, in one snapshot, or neither), so an action's events and its table's new
    ``last_seq`` take one round trip instead of two."""
    connection = write_connection(Event)
    inserts = _inserts(connection, events, created_at) if connection.vendor == "postgresql" and fields else []
    if len(inserts) != 1:
        events_insert(events, created_at=created_at)
        if fields:
            row_save(instance, fields)
        return
    [(insert_sql, insert_params)] = inserts
    update_sql, update_params = _update(connection, instance, fields)
    _execute_update(connection, f"WITH new_events AS ({insert_sql}) {update_sql}", insert_params + update_params)


def _inserts(
    connection: BaseDatabaseWrapper, events: Sequence[NewEvent], created_at: datetime
) -> list[tuple[str, list[Any]]]:
    """The INSERT statements (SQL, parameters) of ``events``: one per batch the database allows."""
    if not events:
        return []
    fields = _event_fields()
    payload_field, visible_field = fields[4], fields[5]
    when = fields[-1].get_db_prep_save(created_at, connection)
    batch = max(1, connection.ops.bulk_batch_size(fields, events))
    statements = []
    for start in range(0, len(events), batch):
        chunk = events[start : start + batch]
        rows = len(chunk)
        params: list[Any] = []
        for event in chunk:
            params += (
                event.table_id,
                event.seq,
                event.hand_id,
                event.kind,
                payload_field.get_db_prep_save(event.payload, connection),
                visible_field.get_db_prep_save(event.visible_to, connection),
                event.actor_id,
                event.client_action_id,
                when,
            )
        statements.append((cached_sql(connection, ("insert_events", rows), _events_sql, connection, rows), params))
    return statements


@functools.cache
def _event_fields() -> list[Any]:
    """The fields of an event's row in the order of ``_EVENT_COLUMNS``, then ``created_at``."""
    by_attname = {model_field.attname: model_field for model_field in Event._meta.concrete_fields}
    return [by_attname[name] for name in (*_EVENT_COLUMNS, "created_at")]


def _events_sql(connection: BaseDatabaseWrapper, rows: int) -> str:
    quote = connection.ops.quote_name
    meta = Event._meta
    columns = ", ".join(quote(model_field.column) for model_field in _event_fields())
    row = "(" + ", ".join(["%s"] * (len(_EVENT_COLUMNS) + 1)) + ")"
    return f"INSERT INTO {quote(meta.db_table)} ({columns}) VALUES " + ", ".join([row] * rows)  # noqa: S608


def row_insert(instance: Model) -> None:
    """``instance.save(force_insert=True)`` for a new row of a model with an automatic key (as
    ``Model.objects.create`` does): every concrete field but the key, each as its ``pre_save``
    gives it (``auto_now_add`` stamps now), in one INSERT built once per model that returns the
    new key where the database can; the instance is then loaded, as after ``save``."""
    model = type(instance)
    connection = write_connection(model)
    meta = model._meta
    returning = connection.features.can_return_columns_from_insert
    if connection.vendor not in SUPPORTED_VENDORS or not returning or instance.pk is not None:
        instance.save(force_insert=True)
        return
    fields = cached_sql(
        connection, ("insert_fields", model), lambda: [f for f in meta.concrete_fields if f is not meta.pk]
    )

    def build() -> str:
        quote = connection.ops.quote_name
        columns = ", ".join(quote(f.column) for f in fields)
        values = ", ".join(["%s"] * len(fields))
        table = quote(meta.db_table)
        return f"INSERT INTO {table} ({columns}) VALUES ({values}) RETURNING {quote(meta.pk.column)}"  # noqa: S608

    sql = cached_sql(connection, ("insert", model), build)
    params = [f.get_db_prep_save(f.pre_save(instance, True), connection) for f in fields]
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        (pk,) = cursor.fetchone()
    for _position, converters, column in select_converters(model, connection, [meta.pk]):
        for converter in converters:
            pk = converter(pk, column, connection)
    instance.pk = pk
    instance._state.adding = False
    instance._state.db = connection.alias
