"""The hand-end and deal path's SQL (``tables.sql.read``, ``write_sql.row_insert``)
reads and writes exactly what the ORM would, and the log of many random hands is the same.

Rules pinned: the log is the truth, so a hand dealt through the hand-written reads and
insert deals the same cards to the same players with the same events, payloads and seqs
as through the ORM; each read loads the objects the ORM's query loads, in its order,
field for field and type for type, on the database the suite runs on (SQLite here,
PostgreSQL in CI); a player's seed counts for a hand only when the event names that hand
as a JSON number, as the ORM's key lookup does.
"""

from __future__ import annotations

import random
import re

import pytest
from django.db import connection, transaction
from django.test.utils import CaptureQueriesContext

from ledger import invariant_sql
from tables import selectors
from tables.models import Event, Hand, Seat, Table
from tables.services import ServiceError, dealing, hand_act, seat_seed_submit, seat_sit_out
from tables.sql import read as read_sql
from tables.sql import write as write_sql
from tables.sql.read import player_seeds, rows_where
from tables.sql.write import row_insert
from tables.state_cache import state_cache_clear

from .conftest import current_turn, open_table, random_action, repeatable_decks

pytestmark = pytest.mark.django_db


def _same_objects(raw: list, orm: list) -> None:
    assert [row.pk for row in raw] == [row.pk for row in orm]
    for raw_row, orm_row in zip(raw, orm, strict=True):
        for model_field in type(orm_row)._meta.concrete_fields:
            name = model_field.attname
            assert getattr(raw_row, name) == getattr(orm_row, name), name
            assert type(getattr(raw_row, name)) is type(getattr(orm_row, name)), name
        assert raw_row._state.adding is False and raw_row._state.db == orm_row._state.db


def test_seat_reads_load_what_the_orm_loads_in_its_order():
    table, seats = open_table("faras", players=4)
    other, _other_seats = open_table("faras", players=2)
    # Places out of the order the seats were made in, one watching with no place, one sitting out.
    Seat.objects.filter(pk=seats[0].pk).update(number=9)
    Seat.objects.filter(pk=seats[1].pk).update(number=None, status=Seat.Status.WATCHING)
    Seat.objects.filter(pk=seats[2].pk).update(status=Seat.Status.SITTING_OUT)
    _same_objects(
        rows_where(Seat, equal={"table_id": table.pk}, order_by=["pk"]),
        list(Seat.objects.filter(table=table).order_by("pk")),
    )
    _same_objects(
        rows_where(
            Seat,
            equal={"table_id": table.pk, "status": Seat.Status.PLAYING},
            null={"number": False},
            order_by=["number"],
        ),
        list(Seat.objects.filter(table=table, status=Seat.Status.PLAYING, number__isnull=False).order_by("number")),
    )
    unordered = rows_where(Seat, equal={"table_id": table.pk})
    _same_objects(sorted(unordered, key=lambda seat: seat.pk), list(Seat.objects.filter(table=table).order_by("pk")))
    assert rows_where(Seat, equal={"table_id": other.pk, "number": 1}) == list(
        Seat.objects.filter(table=other, number=1)
    )
    assert rows_where(Seat, equal={"table_id": 10**9}) == []


def test_hand_reads_load_what_the_orm_loads():
    table, _seats = open_table("holdem", players=3)
    Hand.objects.filter(table=table).update(result={"note": "दशैं"})
    _same_objects(
        rows_where(Hand, equal={"table_id": table.pk}, null={"ended_at": True}),
        list(Hand.objects.filter(table=table, ended_at__isnull=True)),
    )
    _same_objects(
        rows_where(Hand, equal={"table_id": table.pk}, order_by=["-number"]),
        list(Hand.objects.filter(table=table).order_by("-number")),
    )


def test_a_hands_recorded_actions_are_read_as_the_orm_reads_them(django_capture_on_commit_callbacks):
    """``hand_actions``: the seq and payload of the hand's actions with an actor (hold'em's
    engine also logs ``action`` events with none), after a seq, in order, as the ORM's."""
    table, _seats = open_table("holdem", players=3)
    for _ in range(4):  # calls and checks: the flop is dealt, the hand goes on
        player, legal = current_turn(table)
        verb = next(entry.verb for entry in legal if entry.verb in ("call", "check"))
        with django_capture_on_commit_callbacks(execute=True):
            hand_act(table_id=table.pk, seat_id=int(player), verb=verb)
    hand = Hand.objects.filter(table=table).order_by("-number").first()
    recorded = Event.objects.filter(hand=hand, kind="action", actor__isnull=False)
    assert recorded.exists()
    for after in (0, recorded.order_by("seq").first().seq, 10**6):
        orm = list(recorded.filter(seq__gt=after).order_by("seq").values_list("seq", "payload"))
        raw = read_sql.hand_actions(hand_id=hand.pk, after=after)
        assert raw == orm and [type(seq) for seq, _payload in raw] == [type(seq) for seq, _payload in orm]


def test_whom_a_seat_is_held_by_is_read_as_the_orm_reads_it(monkeypatch):
    """``seat_holder`` (a socket's check after each read, ``selectors.seat_gone``): the seat's
    guest token and ban as the ORM's ``values_list(...).first()``, with no ORM query compiled."""
    from django.db.models.sql.compiler import SQLCompiler

    _table, seats = open_table("faras", players=3)
    Seat.objects.filter(pk=seats[1].pk).update(guest_token="a-guest", banned=True)
    keys = [seat.pk for seat in seats] + [max(seat.pk for seat in seats) + 100]
    orm = [Seat.objects.filter(pk=key).values_list("guest_token", "banned").first() for key in keys]
    compiled: list[object] = []
    real = SQLCompiler.as_sql
    monkeypatch.setattr(SQLCompiler, "as_sql", lambda self, *a, **k: compiled.append(self) or real(self, *a, **k))
    raw = [read_sql.seat_holder(key) for key in keys]
    gone = [selectors.seat_gone(seat_id=key, guest_token=None) for key in keys]
    assert raw == orm and orm[1] == ("a-guest", True) and orm[-1] is None
    assert gone == [None, "banned", None, "seat_moved"]
    assert [type(row[1]) for row in raw if row] == [bool] * 3 and compiled == []


def test_a_model_with_a_default_ordering_is_read_through_the_orm():
    table, _seats = open_table("faras", players=2)
    assert Event._meta.ordering
    # A row updated moves in PostgreSQL's heap (its new version is written after the others): a
    # read without the model's ordering returns it last, the ORM's in its place.
    first = Event.objects.filter(table=table).first()
    Event.objects.filter(pk=first.pk).update(payload={**first.payload, "updated": True})
    if connection.vendor == "postgresql":  # the heap's order, as a busy server's planner may read it
        with connection.cursor() as cursor:
            cursor.execute("SET LOCAL enable_indexscan = off")
            cursor.execute("SET LOCAL enable_bitmapscan = off")
    _same_objects(rows_where(Event, equal={"table_id": table.pk}), list(Event.objects.filter(table=table)))


def _seed_event(table: Table, seq: int, for_hand: object, seed: str) -> None:
    Event.objects.create(
        table=table, seq=seq, kind="player_seed", payload={"seat": 1, "seed": seed, "for_hand": for_hand}
    )


@pytest.mark.parametrize("number", [1, 2, 3])
def test_a_seed_counts_for_the_hand_it_names_as_a_number_only(number):
    table, _seats = open_table("faras", players=2, start=False)
    other, _other_seats = open_table("faras", players=2, start=False)
    looks_like = [2, "2", 2.0, True, None, [2], {"n": 2}, 1, 3, 3.5]
    for offset, for_hand in enumerate(looks_like):
        _seed_event(table, 1000 + offset, for_hand, f"seed-{offset}")
    _seed_event(other, 1000, number, "other-table")
    Event.objects.create(table=table, seq=2000, kind="reminder", payload={"for_hand": number, "seed": "not-a-seed"})
    Event.objects.create(table=table, seq=2001, kind="player_seed", payload={"seat": 1, "seed": 77, "for_hand": number})
    by_the_orm = [
        str(event.payload["seed"])
        for event in Event.objects.filter(table=table, kind="player_seed", payload__for_hand=number).order_by("seq")
    ]
    assert player_seeds(table_id=table.pk, number=number) == by_the_orm
    assert "77" in by_the_orm and "other-table" not in by_the_orm and "not-a-seed" not in by_the_orm


def test_an_inserted_hand_is_the_row_the_orm_creates():
    table, seats = open_table("faras", players=3, start=False)
    fields = {
        "table": table,
        "dealer": seats[1],
        "plan": {"players": [[str(seats[0].pk), 1000]], "dealer": 0, "note": 'it\'s 100% "quoted" दशैं'},
        "player_seeds": ["a-1", "b_2"],
    }
    raw = Hand(number=1, **fields)
    with CaptureQueriesContext(connection) as captured:
        row_insert(raw)
    orm = Hand.objects.create(number=2, **fields)
    assert len([query for query in captured.captured_queries if "tables_hand" in query["sql"]]) == 1
    assert raw.pk is not None and raw.pk != orm.pk and raw._state.adding is False
    stored_raw = Hand.objects.filter(pk=raw.pk).values().get()
    stored_orm = Hand.objects.filter(pk=orm.pk).values().get()
    assert stored_raw["started_at"] == raw.started_at and stored_orm["started_at"] >= raw.started_at
    differ = {"id", "number", "started_at"}
    assert {k: v for k, v in stored_raw.items() if k not in differ} == {
        k: v for k, v in stored_orm.items() if k not in differ
    }
    assert {k: getattr(raw, k) for k in stored_raw} == stored_raw


def _orm_everywhere(monkeypatch) -> None:
    """Every read and write of the path through the ORM, and the live hand asked of the
    database before each deal: the path as it was before its SQL was built once."""
    for module in (write_sql, read_sql, invariant_sql):
        monkeypatch.setattr(module, "SUPPORTED_VENDORS", frozenset())
    monkeypatch.setattr(
        dealing, "_hand_live", lambda log: Hand.objects.filter(table=log.table, ended_at__isnull=True).exists()
    )


def _lean_action(rng: random.Random, legal) -> tuple[str, int | None]:
    """Mostly folding or calling (many hands, few players out), now and then any legal action."""
    verbs = {entry.verb: entry for entry in legal}
    if rng.random() < 0.1:
        return random_action(rng, legal)
    for verb in ("fold", "pack") if rng.random() < 0.4 else ("check", "call", "chaal", "fold", "pack"):
        if verb in verbs:
            return verb, verbs[verb].min
    return random_action(rng, legal)


def _play(table: Table, seats: list[Seat], rng: random.Random, actions: int, django_capture_on_commit_callbacks):
    """Random legal actions (now and then a player's seed for the next hand, or a player
    sitting out) with the after-commit work run; then the log, as far as it is the truth."""
    first = table.last_seq
    for _ in range(actions):
        player, legal = current_turn(table)
        if player is None:
            break
        with django_capture_on_commit_callbacks(execute=True):
            roll = rng.random()
            seat = rng.choice(seats)
            try:
                if roll < 0.08:
                    seat_seed_submit(table_id=table.pk, seat_id=seat.pk, seed=f"s{rng.randrange(10**6)}")
                elif roll < 0.1:
                    seat_sit_out(table_id=table.pk, seat_id=seat.pk)
            except ServiceError:
                pass
            verb, amount = _lean_action(rng, legal)
            hand_act(table_id=table.pk, seat_id=int(player), verb=verb, amount=amount)
    return [
        (event.seq, event.kind, _timeless(event.payload), event.visible_to, event.actor_id, event.client_action_id)
        for event in Event.objects.filter(table=table, seq__gt=first).order_by("seq")
    ] + [("hands", list(Hand.objects.filter(table=table).order_by("number").values_list("number", "player_seeds")))]


@pytest.mark.parametrize("game", ["faras", "classic", "holdem"])
def test_many_random_hands_log_the_same_events_as_through_the_orm(
    game, monkeypatch, django_capture_on_commit_callbacks
):
    """The same table played twice from the same point with the same random choices: once
    through the ORM (rolled back), once through the SQL built once. Same log, seq for seq."""
    repeatable_decks(monkeypatch, random.Random(13))
    table, seats = open_table(game, players=4)
    logs = []
    for orm in (True, False):
        state_cache_clear()
        table.refresh_from_db()
        with monkeypatch.context() as patched:
            if orm:
                _orm_everywhere(patched)
            try:
                with transaction.atomic():
                    logs.append(_play(table, seats, random.Random(7), 400, django_capture_on_commit_callbacks))
                    raise _RolledBack
            except _RolledBack:
                pass
    orm_log, sql_log = logs
    hands = orm_log[-1][1]
    assert len(hands) > 10, "enough hands to have ended many"
    assert any(seeds for _number, seeds in hands), "some hand dealt with a player's seed"
    assert sql_log == orm_log


class _RolledBack(Exception):
    pass


_MOMENT = re.compile(r"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d")


def _timeless(value: object) -> object:
    """``value`` with each moment (a turn's deadline, when the host may act) as ``"<time>"``:
    the two runs are played at different times, all else must be equal."""
    if isinstance(value, dict):
        return {key: _timeless(item) for key, item in value.items()}
    if isinstance(value, list):
        return [_timeless(item) for item in value]
    if isinstance(value, str) and _MOMENT.match(value):
        return "<time>"
    return value
