"""The reads of a hand's end and the next deal as SQL built once: rows of a table's seats and
hands by simple conditions, the players' seeds for a hand, a hand's recorded actions
(its state rebuilt from the log, as after another process dealt it), and whom a seat is
held by (a socket's check after each read and in each write).

The counterpart of ``tables.sql.write`` (see there why): a hand that ends in an
action reads the seats to pay, deals the next hand (the seats dealt in, the players'
seeds) and shows the seats on every screen, all in the action's transaction. Through the
ORM each of those reads was compiled again every time (docs/measurements/live-play.md, issue 13). Each
SELECT here is built once per database and shape from the models' metadata and loads the
objects the ORM's query would load, in the same order (``tests/tables/test_read_sql.py``
compares the two on every database the suite runs on). On a database other than
PostgreSQL and SQLite each function runs the ORM query it stands for.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from django.db.backends.base.base import BaseDatabaseWrapper
from django.db.models import Field, Model

from tables.events import EventKind
from tables.models import Event, Seat
from tables.sql.write import (
    SUPPORTED_VENDORS,
    ModelT,
    Select,
    cached_sql,
    instance_from_row,
    row_values,
    select_converters,
    write_connection,
)


def rows_where(
    model: type[ModelT],
    *,
    equal: Mapping[str, Any],
    null: Mapping[str, bool] | None = None,
    order_by: Sequence[str] = (),
) -> list[ModelT]:
    """``model.objects.filter(**equal, **{f"{name}__isnull": is_null ...}).order_by(*order_by)``
    as a list, fields named by attname (``table_id``), ``-name`` to order downwards. No
    ``order_by``: no ORDER BY, as the ORM's query (for a model with no default ordering); a
    model with a default ordering is read in it, as the ORM reads it."""
    connection = write_connection(model)
    null = null or {}
    if connection.vendor not in SUPPORTED_VENDORS or model._meta.ordering:
        filters = {**equal, **{f"{name}__isnull": is_null for name, is_null in null.items()}}
        found = model._default_manager.filter(**filters)
        # ``order_by()`` with no names would drop the model's default ordering: the rows
        # came in the heap's order, which an update of a row changes.
        return list(found.order_by(*order_by) if order_by else found)
    key = ("rows_where", model, tuple(equal), tuple(null.items()), tuple(order_by))
    select: Select = cached_sql(connection, key, _rows_where_select, model, connection, key)
    params = []
    for name, value in equal.items():
        model_field = _column_field(model, name)
        params.append(model_field.get_db_prep_value(model_field.get_prep_value(value), connection, prepared=True))
    with connection.cursor() as cursor:
        cursor.execute(select.sql, params)
        rows = cursor.fetchall()
    return [instance_from_row(model, connection, select, row) for row in rows]


def _rows_where_select(model: type[Model], connection: BaseDatabaseWrapper, key: tuple[Any, ...]) -> Select:
    _kind, _model, equal, null, order_by = key
    quote = connection.ops.quote_name
    meta = model._meta
    fields = meta.concrete_fields
    conditions = [f"{quote(_column_field(model, name).column)} = %s" for name in equal]
    conditions += [
        f"{quote(_column_field(model, name).column)} IS {'' if is_null else 'NOT '}NULL" for name, is_null in null
    ]
    orders = []
    for name in order_by:
        descending = name.startswith("-")
        model_field = meta.pk if name.lstrip("-") == "pk" else _column_field(model, name.lstrip("-"))
        orders.append(f"{quote(model_field.column)} {'DESC' if descending else 'ASC'}")
    columns = ", ".join(quote(f.column) for f in fields)
    # Names from the model's metadata, quoted; every value is a parameter (so: noqa S608).
    sql = f"SELECT {columns} FROM {quote(meta.db_table)}"  # noqa: S608
    if conditions:
        sql += " WHERE " + " AND ".join(conditions)
    if orders:
        sql += " ORDER BY " + ", ".join(orders)
    return Select(
        sql=sql, attnames=[f.attname for f in fields], converters=select_converters(model, connection, fields)
    )


def _column_field(model: type[Model], name: str) -> Field[Any, Any]:
    """The field of ``model`` called ``name`` (or with that attname) that is a column."""
    model_field = model._meta.get_field(name)
    if not isinstance(model_field, Field) or not model_field.column:
        raise ValueError(f"{model.__name__}.{name} is not a column")
    return model_field


def player_seeds(*, table_id: int, number: int) -> list[str]:
    """The seeds players gave for hand ``number`` of the table, in the order given: the
    ``seed`` of each ``player_seed`` event whose ``for_hand`` is ``number``, as
    ``Event.objects.filter(table=..., kind=PLAYER_SEED, payload__for_hand=number).order_by("seq")``."""
    connection = write_connection(Event)
    if connection.vendor not in SUPPORTED_VENDORS:
        events = Event.objects.filter(table_id=table_id, kind=EventKind.PLAYER_SEED, payload__for_hand=number)
        return [str(event.payload["seed"]) for event in events.order_by("seq")]
    select: Select = cached_sql(connection, ("player_seeds",), _player_seeds_select, connection)
    payload_field = _column_field(Event, "payload")
    # The key's value compared as JSON, as the ORM's key lookup does: the number itself,
    # never a string or a true that looks like it.
    wanted = payload_field.get_db_prep_value(number, connection)
    with connection.cursor() as cursor:
        cursor.execute(select.sql, [table_id, EventKind.PLAYER_SEED.value, wanted])
        rows = cursor.fetchall()
    return [str(row_values(connection, select, row)[0]["seed"]) for row in rows]


def _player_seeds_select(connection: BaseDatabaseWrapper) -> Select:
    quote = connection.ops.quote_name
    meta = Event._meta
    payload_field = _column_field(Event, "payload")
    payload = quote(payload_field.column)
    if connection.vendor == "postgresql":
        for_hand = f"({payload} -> 'for_hand') = %s"
    else:  # SQLite, as Django's KeyTransformExact writes it: JSON's true, false and null by type
        path = "'$.\"for_hand\"'"
        for_hand = (
            f"(CASE WHEN JSON_TYPE({payload}, {path}) IN ('true', 'false', 'null') THEN JSON_TYPE({payload}, {path}) "
            f"ELSE JSON_EXTRACT({payload}, {path}) END) = JSON_EXTRACT(%s, '$')"
        )
    sql = (
        f"SELECT {payload} FROM {quote(meta.db_table)} "  # noqa: S608
        f"WHERE {quote(meta.get_field('table').column)} = %s AND {quote(meta.get_field('kind').column)} = %s "
        f"AND {for_hand} ORDER BY {quote(meta.get_field('seq').column)} ASC"
    )
    return Select(sql=sql, attnames=["payload"], converters=select_converters(Event, connection, [payload_field]))


def hand_actions(*, hand_id: int, after: int = 0) -> list[tuple[int, dict[str, Any]]]:
    """The seq and payload of each recorded action of the hand (kind ``action`` with the acting
    seat) after the seq ``after``, in order: ``Event.objects.filter(hand_id=hand_id, kind=ACTION,
    actor__isnull=False, seq__gt=after).order_by("seq").values_list("seq", "payload")``."""
    connection = write_connection(Event)
    if connection.vendor not in SUPPORTED_VENDORS:
        found = Event.objects.filter(hand_id=hand_id, kind=EventKind.ACTION, actor__isnull=False, seq__gt=after)
        return list(found.order_by("seq").values_list("seq", "payload"))
    select: Select = cached_sql(connection, ("hand_actions",), _hand_actions_select, connection)
    with connection.cursor() as cursor:
        cursor.execute(select.sql, [hand_id, EventKind.ACTION.value, after])
        rows = cursor.fetchall()
    return [(seq, payload) for seq, payload in (row_values(connection, select, row) for row in rows)]


def _hand_actions_select(connection: BaseDatabaseWrapper) -> Select:
    quote = connection.ops.quote_name
    meta = Event._meta
    fields = [_column_field(Event, "seq"), _column_field(Event, "payload")]
    column = {name: quote(_column_field(Event, name).column) for name in ("hand", "kind", "actor", "seq", "payload")}
    # Names from the model's metadata, quoted; every value is a parameter (so: noqa S608).
    sql = (
        f"SELECT {column['seq']}, {column['payload']} FROM {quote(meta.db_table)} "  # noqa: S608
        f"WHERE {column['hand']} = %s AND {column['kind']} = %s AND {column['actor']} IS NOT NULL "
        f"AND {column['seq']} > %s ORDER BY {column['seq']} ASC"
    )
    return Select(sql=sql, attnames=["seq", "payload"], converters=select_converters(Event, connection, fields))


def seat_holder_query(seat_id: int) -> tuple[str, list[Any]]:
    """The SQL (and its parameters) reading the seat's ``guest_token`` and ``banned``, as
    ``Seat.objects.filter(pk=seat_id).values_list("guest_token", "banned")`` (its one row, or none)."""
    connection = write_connection(Seat)

    def build() -> str:
        quote = connection.ops.quote_name
        meta = Seat._meta
        columns = ", ".join(quote(_column_field(Seat, name).column) for name in ("guest_token", "banned"))
        # Names from the model's metadata, quoted; the key is a parameter (so: noqa S608).
        return f"SELECT {columns} FROM {quote(meta.db_table)} WHERE {quote(meta.pk.column)} = %s"  # noqa: S608

    return cached_sql(connection, ("seat_holder",), build), [Seat._meta.pk.get_prep_value(seat_id)]


def seat_holder(seat_id: int) -> tuple[str, bool] | None:
    """The seat's ``guest_token`` and ``banned`` (``None``: no such seat), as
    ``Seat.objects.filter(pk=seat_id).values_list("guest_token", "banned").first()``."""
    connection = write_connection(Seat)
    if connection.vendor not in SUPPORTED_VENDORS:
        return Seat.objects.filter(pk=seat_id).values_list("guest_token", "banned").first()
    sql, params = seat_holder_query(seat_id)
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        row = cursor.fetchone()
    return None if row is None else (row[0], bool(row[1]))
