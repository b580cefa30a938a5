"""The write path's SQL (``tables.sql.write``) writes and reads exactly what the ORM would.

Rules pinned: the log is the truth, so an event inserted by the hand-written INSERT is
the row ``Event.objects.bulk_create`` makes of it, column for column, on the database
the suite runs on (SQLite here, PostgreSQL in CI); a table read by the hand-written
SELECT is the object the ORM loads, field for field; an UPDATE of some fields changes
those fields only, and, as ``save(update_fields=...)``, fails loudly when the row is gone.
"""

from __future__ import annotations

import pytest
from django.db import DatabaseError, connection, transaction
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from tables.events import NewEvent
from tables.models import Event, Hand, Seat, Table
from tables.sql.write import events_insert, events_insert_and_save, row_by_pk, row_save, rows_save

from .conftest import open_table

pytestmark = pytest.mark.django_db

COMPARED = ("table_id", "hand_id", "kind", "payload", "visible_to", "actor_id", "client_action_id")

# Payloads as the engine and the services make them, and the awkward cases of JSON in SQL:
# quotes, backslashes, a percent sign (a placeholder to a careless driver), text in other
# scripts, an empty object, JSON null inside, large and negative numbers, nesting.
PAYLOADS = [
    {"player": "12", "verb": "chaal", "amount": 20, "_hand": 3},
    {},
    {"name": 'O\'Brien "the" \\ dealer', "note": "100% sure; -- not a comment", "_hand": None},
    {"name": "दशैं 🎴 Ünïcödé", "cards": [["A", "s"], ["10", "h"]], "nested": {"a": [1, {"b": None}]}},
    {"big": 10**15, "negative": -5, "float": 0.5, "true": True, "false": False},
]


def _events(
    table: Table, hand: Hand | None, actor_id: int, first_seq: int, tag: str, rounds: int = 1
) -> list[NewEvent]:
    visible = [None, ["12"], [], ["3", "12"], None]
    return [
        NewEvent(
            table_id=table.pk,
            seq=first_seq + len(PAYLOADS) * round_ + index,
            kind=["action", "turn", "seat_joined", "cards", "pot_awarded"][index],
            payload=payload,
            hand_id=hand.pk if hand is not None and index % 2 == 0 else None,
            visible_to=visible[index],
            actor_id=actor_id if index == 0 else None,
            client_action_id=f"{tag}-{round_}-{index}" if index in (0, 3) else None,
        )
        for round_ in range(rounds)
        for index, payload in enumerate(PAYLOADS)
    ]


@pytest.mark.parametrize("rounds", [1, 4])
def test_an_inserted_event_is_the_row_the_orm_writes(rounds):
    """One round: a few events, as an action appends. Four: as many as a hand's end and the
    next deal append."""
    table, seats = open_table("faras", players=2)
    hand = Hand.objects.filter(table=table).first()
    when = timezone.now()
    raw = _events(table, hand, seats[1].pk, 10_000, "raw", rounds)
    orm = _events(table, hand, seats[1].pk, 20_000, "orm", rounds)
    with transaction.atomic():
        events_insert(raw, created_at=when)
        Event.objects.bulk_create(
            [Event(**{name: getattr(event, name) for name in (*COMPARED, "seq")}, created_at=when) for event in orm]
        )
    written_raw = list(Event.objects.filter(table=table, seq__gte=10_000, seq__lt=20_000).order_by("seq").values())
    written_orm = list(Event.objects.filter(table=table, seq__gte=20_000).order_by("seq").values())
    assert len(written_raw) == len(written_orm) == len(PAYLOADS) * rounds
    for raw_row, orm_row, event in zip(written_raw, written_orm, raw, strict=True):
        assert raw_row["seq"] == event.seq
        # The ORM stamps auto_now_add itself, at its own now; the raw insert stores the time given.
        assert raw_row["created_at"] == when and orm_row["created_at"] >= when
        assert raw_row["client_action_id"] == (None if event.client_action_id is None else event.client_action_id)
        raw_row["client_action_id"] = orm_row["client_action_id"] = None  # differ by their tag only
        assert {key: raw_row[key] for key in COMPARED} == {key: orm_row[key] for key in COMPARED}
        assert raw_row["payload"] == event.payload and raw_row["visible_to"] == event.visible_to
    # SQL NULL for "everyone", JSON [] for "no one": the two must not be confused.
    for start in range(10_000, 10_000 + len(raw), len(PAYLOADS)):
        assert Event.objects.filter(table=table, seq=start, visible_to__isnull=True).exists()
        assert Event.objects.filter(table=table, seq=start + 2, visible_to=[]).exists()


def test_many_events_go_in_batches_the_database_allows():
    table, _seats = open_table("faras", players=2, start=False)
    events = [NewEvent(table_id=table.pk, seq=50_000 + n, kind="reminder", payload={"count": n}) for n in range(1_500)]
    events_insert(events, created_at=timezone.now())
    stored = list(Event.objects.filter(table=table, seq__gte=50_000).order_by("seq").values_list("seq", "payload"))
    assert stored == [(50_000 + n, {"count": n}) for n in range(1_500)]


def test_a_duplicate_seq_is_refused_by_the_database_as_before():
    table, _seats = open_table("faras", players=2, start=False)
    with pytest.raises(DatabaseError), transaction.atomic():
        events_insert(
            [NewEvent(table_id=table.pk, seq=table.last_seq, kind="reminder", payload={})], created_at=timezone.now()
        )


def test_a_table_read_is_the_object_the_orm_loads():
    table, _seats = open_table("holdem", players=3)
    Table.objects.filter(pk=table.pk).update(due_at=timezone.now(), next_deal_at=timezone.now())
    orm = Table.objects.get(pk=table.pk)
    for for_update in (False, True):
        with transaction.atomic():
            raw = row_by_pk(Table, table.pk, for_update=for_update)
        assert raw is not None
        for model_field in Table._meta.concrete_fields:
            name = model_field.attname
            assert getattr(raw, name) == getattr(orm, name), name
            assert type(getattr(raw, name)) is type(getattr(orm, name)), name
        assert raw._state.adding is False and raw._state.db == orm._state.db


def test_the_lock_is_taken_where_the_database_has_one():
    table, _seats = open_table("faras", players=2, start=False)
    with transaction.atomic(), CaptureQueriesContext(connection) as captured:
        row_by_pk(Table, table.pk, for_update=True)
    select = [query["sql"] for query in captured.captured_queries if query["sql"].startswith("SELECT")]
    assert len(select) == 1
    assert select[0].endswith("FOR UPDATE") == connection.features.has_select_for_update


@pytest.mark.parametrize("key", [10**9, -1, 2**70, None])
def test_no_row_is_none(key):
    assert row_by_pk(Table, key) is None


@pytest.mark.parametrize("key", ["abc", [1], 1.5j])
def test_a_key_that_is_not_a_number_is_refused_as_by_the_orm(key):
    with pytest.raises((ValueError, TypeError)):
        Table.objects.filter(pk=key).first()
    with pytest.raises((ValueError, TypeError)):
        row_by_pk(Table, key)


def test_a_row_update_writes_the_named_fields_only():
    table, _seats = open_table("faras", players=2)
    hand = Hand.objects.filter(table=table).first()
    before = Hand.objects.filter(pk=hand.pk).values().get()
    when = timezone.now()
    hand.to_act = "99"
    hand.turn_seq = 4321
    hand.turn_started_at = when
    hand.turn_deadline = None
    hand.result = {"note": "not saved"}  # changed in memory, not named: stays as stored
    row_save(hand, ["to_act", "turn_seq", "turn_started_at", "turn_deadline"])
    after = Hand.objects.filter(pk=hand.pk).values().get()
    assert (after["to_act"], after["turn_seq"], after["turn_started_at"], after["turn_deadline"]) == (
        "99",
        4321,
        when,
        None,
    )
    changed = {"to_act", "turn_seq", "turn_started_at", "turn_deadline"}
    assert {key: value for key, value in after.items() if key not in changed} == {
        key: value for key, value in before.items() if key not in changed
    }


def test_a_row_update_writes_json_and_foreign_keys_as_the_orm_does():
    table, _seats = open_table("faras", players=2, start=False)
    table.settings = {**table.settings, "note": 'it\'s 100% "quoted" दशैं'}
    table.position = {}
    row_save(table, ["settings", "position", "host_id"])
    stored = Table.objects.get(pk=table.pk)
    assert stored.settings == table.settings and stored.position == {} and stored.host_id == table.host_id


def test_updating_a_row_that_is_gone_fails_as_save_does():
    table, _seats = open_table("faras", players=2, start=False)
    Table.objects.filter(pk=table.pk).update(last_seq=table.last_seq)  # still there: fine
    row_save(table, ["last_seq"])
    ghost = Table.objects.get(pk=table.pk)
    ghost.pk = 10**9
    with pytest.raises(DatabaseError, match="did not affect any rows"):
        row_save(ghost, ["last_seq"])


@pytest.mark.parametrize("rounds", [1, 4])
def test_events_and_the_tables_counter_are_one_statement_on_postgresql_with_the_same_rows(rounds):
    table, seats = open_table("faras", players=2)
    hand = Hand.objects.filter(table=table).first()
    events = _events(table, hand, seats[1].pk, 30_000, "both", rounds)
    table.last_seq = 30_000 + len(events) - 1
    when = timezone.now()
    with transaction.atomic(), CaptureQueriesContext(connection) as captured:
        events_insert_and_save(events, created_at=when, instance=table, fields=["last_seq"])
    writes = [query["sql"] for query in captured.captured_queries if "tables_" in query["sql"]]
    assert len(writes) == (1 if connection.vendor == "postgresql" else 2)
    assert Table.objects.get(pk=table.pk).last_seq == table.last_seq
    stored = list(Event.objects.filter(table=table, seq__gte=30_000).order_by("seq").values(*COMPARED, "seq"))
    assert stored == [{name: getattr(event, name) for name in (*COMPARED, "seq")} for event in events]


def test_when_the_table_row_is_gone_neither_the_events_nor_the_update_stay():
    table, _seats = open_table("faras", players=2, start=False)
    ghost = Table.objects.get(pk=table.pk)
    ghost.pk = 10**9
    events = [NewEvent(table_id=table.pk, seq=40_000, kind="reminder", payload={})]
    with pytest.raises(DatabaseError, match="did not affect any rows"), transaction.atomic():
        events_insert_and_save(events, created_at=timezone.now(), instance=ghost, fields=["last_seq"])
    assert not Event.objects.filter(table=table, seq=40_000).exists()


def test_many_rows_updated_in_one_statement_change_the_named_fields_only():
    _table, seats = open_table("faras", players=4)
    _other, other_seats = open_table("faras", players=2)
    before = {seat.pk: Seat.objects.filter(pk=seat.pk).values().get() for seat in [*seats, *other_seats]}
    for index, seat in enumerate(seats[:3]):
        seat.stack = 10_000 + index
        seat.number = None  # NULL in every row: still typed as the column
        seat.display_name = "changed in memory, not named"
    with CaptureQueriesContext(connection) as captured:
        rows_save(seats[:3], ["stack", "number"])
    assert len([query for query in captured.captured_queries if "tables_seat" in query["sql"]]) == 1
    for seat in [*seats, *other_seats]:
        after = Seat.objects.filter(pk=seat.pk).values().get()
        changed = {"stack": 10_000 + seats.index(seat), "number": None} if seat in seats[:3] else {}
        assert after == {**before[seat.pk], **changed}


def test_many_rows_updated_when_one_is_gone_fail_as_save_does():
    _table, seats = open_table("faras", players=3)
    ghost = Seat.objects.get(pk=seats[2].pk)
    ghost.pk = 10**9
    with pytest.raises(DatabaseError, match="did not affect any rows"), transaction.atomic():
        rows_save([seats[0], seats[1], ghost], ["stack"])
    rows_save([seats[0]], ["stack"])
    rows_save([], ["stack"])
