"""What one action costs the database, and the live-hand cache that keeps it lean.

Rules pinned (docs/measurements/live-play.md; issue 5, "Speed"): a player's action on a
warm table is one short transaction of at most 6 queries (begin, lock the table, the
hand's new turn, the events, the table's counter, commit); a look at one's cards that
does not pass the turn does not write the hand row (5); a socket's action checks its seat
in the round trip of the table's lock on PostgreSQL (issue 37: three statements, not four),
and the hand rebuilt after another process wrote compiles no ORM query. The cache is only news: a write
this process did not see (another process, a restart) is noticed by the table's seq and
the hand is rebuilt from the log, so every action is still checked against the truth.
"""

from __future__ import annotations

import re

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from engine.games import get_game
from tables import selectors
from tables.models import Event, Table
from tables.services import SeatHolder, ServiceError, hand_act, writes_for
from tables.state_cache import state_cache_clear

from .conftest import current_turn, open_table

pytestmark = pytest.mark.django_db


def _chaal_or_first(legal) -> str:
    verbs = [entry.verb for entry in legal]
    return "chaal" if "chaal" in verbs else verbs[0]


def _warm(table: Table, django_capture_on_commit_callbacks) -> None:
    """One action with its after-commit work run, as a server does: the cache now holds the hand."""
    player, legal = current_turn(table)
    with django_capture_on_commit_callbacks(execute=True):
        hand_act(table_id=table.pk, seat_id=int(player), verb=_chaal_or_first(legal))


def test_an_action_on_a_warm_table_takes_at_most_six_queries(
    django_assert_max_num_queries, django_capture_on_commit_callbacks
):
    table, _seats = open_table("faras", players=4)
    _warm(table, django_capture_on_commit_callbacks)
    for _ in range(3):
        player, legal = current_turn(table)
        with django_capture_on_commit_callbacks(execute=True), django_assert_max_num_queries(6):
            hand_act(table_id=table.pk, seat_id=int(player), verb=_chaal_or_first(legal))


def _statements(captured) -> list[str]:
    """What each statement of the action reads or writes (``SELECT tables_table``, ``UPDATE
    tables_hand``, ...; a statement doing two things joins them with ``+``), leaving out the
    savepoints of the test's own transaction."""
    described = []
    for query in captured.captured_queries:
        sql = query["sql"]
        if sql.startswith(("SAVEPOINT", "RELEASE SAVEPOINT", "BEGIN", "COMMIT")):
            continue
        found = re.findall(r'(INSERT INTO|UPDATE|FROM) "(\w+)"', sql)
        described.append(" + ".join(f"{'SELECT' if verb == 'FROM' else verb} {name}" for verb, name in found))
    return described


def test_an_action_that_passes_the_turn_is_three_statements_on_postgresql_four_on_sqlite(
    django_capture_on_commit_callbacks,
):
    """docs/measurements/live-play.md, "Server CPU of the write path": lock the table, the hand's new turn,
    the events in one insert and the table's counter (one statement on PostgreSQL, two on
    SQLite). Nothing else is read or written: the live hand comes from the cache, the
    screens are built from memory after the commit."""
    table, _seats = open_table("faras", players=4)
    _warm(table, django_capture_on_commit_callbacks)
    write_log = ["INSERT INTO tables_event", "UPDATE tables_table"]
    if connection.vendor == "postgresql":
        write_log = [" + ".join(write_log)]
    for _ in range(3):
        player, legal = current_turn(table)
        with django_capture_on_commit_callbacks(execute=True), CaptureQueriesContext(connection) as captured:
            hand_act(table_id=table.pk, seat_id=int(player), verb=_chaal_or_first(legal))
        assert _statements(captured) == ["SELECT tables_table", "UPDATE tables_hand", *write_log]


def test_a_sockets_action_checks_its_seat_in_the_round_trip_of_the_tables_lock(django_capture_on_commit_callbacks):
    """Issue 37: a socket's write checks, under the table's lock, that its seat is still its
    own (``services.writes_for``); on PostgreSQL that read goes with the lock, in one round
    trip (two statements, the seat's read after the lock is granted). SQLite reads it apart."""
    table, _seats = open_table("faras", 4)
    _warm(table, django_capture_on_commit_callbacks)
    write_log = ["INSERT INTO tables_event", "UPDATE tables_table"]
    lock = ["SELECT tables_table", "SELECT tables_seat"]
    if connection.vendor == "postgresql":
        write_log, lock = [" + ".join(write_log)], [" + ".join(lock)]
    for _ in range(2):
        player, legal = current_turn(table)
        holder = SeatHolder(seat_id=int(player), guest_token=None)
        with (
            django_capture_on_commit_callbacks(execute=True),
            CaptureQueriesContext(connection) as captured,
            writes_for(holder),
        ):
            hand_act(table_id=table.pk, seat_id=int(player), verb=_chaal_or_first(legal))
        assert _statements(captured) == [*lock, "UPDATE tables_hand", *write_log]


def test_with_server_side_binding_the_seat_is_read_in_a_statement_of_its_own(
    monkeypatch, django_capture_on_commit_callbacks
):
    """psycopg's server-side binding takes one statement an execute: the lock and the seat's
    read then go apart, as on SQLite."""
    monkeypatch.setitem(
        connection.settings_dict, "OPTIONS", {**connection.settings_dict["OPTIONS"], "server_side_binding": True}
    )
    table, _seats = open_table("faras", 4)
    _warm(table, django_capture_on_commit_callbacks)
    player, legal = current_turn(table)
    with CaptureQueriesContext(connection) as captured, writes_for(SeatHolder(seat_id=int(player), guest_token=None)):
        hand_act(table_id=table.pk, seat_id=int(player), verb=_chaal_or_first(legal))
    assert _statements(captured)[:2] == ["SELECT tables_table", "SELECT tables_seat"]


def test_seeing_ones_cards_without_passing_the_turn_does_not_write_the_hand(
    django_assert_max_num_queries, django_capture_on_commit_callbacks
):
    table, _seats = open_table("faras", players=4)
    _warm(table, django_capture_on_commit_callbacks)
    player, _legal = current_turn(table)
    hand = selectors.hand_live(table=table)
    before = (hand.to_act, hand.turn_seq)
    with django_capture_on_commit_callbacks(execute=True), django_assert_max_num_queries(5) as captured:
        hand_act(table_id=table.pk, seat_id=int(player), verb="see")
    assert not [query for query in captured.captured_queries if "tables_hand" in query["sql"]]
    hand.refresh_from_db()
    assert (hand.to_act, hand.turn_seq) == before
    turn = Event.objects.filter(table=table, kind="turn").order_by("-seq").first()
    assert turn.payload["player"] == player and turn.payload["new"] is False


def test_a_write_this_process_did_not_see_is_read_from_the_log(django_capture_on_commit_callbacks):
    table, _seats = open_table("faras", players=4)
    _warm(table, django_capture_on_commit_callbacks)
    # Another process acts: its commit never reaches this process's cache.
    player, legal = current_turn(table)
    with django_capture_on_commit_callbacks(execute=False):
        hand_act(table_id=table.pk, seat_id=int(player), verb=_chaal_or_first(legal))
    # The player who just acted may not act again; the next one may, against the new state.
    with pytest.raises(ServiceError) as refused:
        hand_act(table_id=table.pk, seat_id=int(player), verb="chaal")
    assert refused.value.code == "not_your_turn"
    table.refresh_from_db()
    hand, state, _seq = selectors.live_hand_and_state(table=table)
    state_cache_clear()
    fresh_hand, fresh_state, _fresh_seq = selectors.live_hand_and_state(table=table)
    game = get_game("faras")
    assert game.to_act(state) == game.to_act(fresh_state) != player
    assert game.view(state, None) == game.view(fresh_state, None)
    assert hand.pk == fresh_hand.pk


def test_the_hand_rebuilt_after_another_process_wrote_compiles_no_orm_query(
    monkeypatch, django_capture_on_commit_callbacks
):
    """Issue 37: the first action after another process wrote (the Celery worker dealt) reads
    the live hand and its recorded actions through the SQL built once (``tables.sql.read``),
    not by compiling ORM queries, and replays the hand from them."""
    from django.db.models.sql.compiler import SQLCompiler

    table, _seats = open_table("faras", players=4)
    _warm(table, django_capture_on_commit_callbacks)
    player, legal = current_turn(table)
    with django_capture_on_commit_callbacks(execute=False):  # another process's write
        hand_act(table_id=table.pk, seat_id=int(player), verb=_chaal_or_first(legal))
    player, legal = current_turn(table)
    compiled: list[str] = []
    real = SQLCompiler.as_sql

    def counted(self, *args, **kwargs):
        compiled.append(self.query.model.__name__)
        return real(self, *args, **kwargs)

    monkeypatch.setattr(SQLCompiler, "as_sql", counted)
    with django_capture_on_commit_callbacks(execute=True), CaptureQueriesContext(connection) as captured:
        hand_act(table_id=table.pk, seat_id=int(player), verb=_chaal_or_first(legal))
    assert compiled == []
    assert _statements(captured)[:3] == ["SELECT tables_table", "SELECT tables_hand", "SELECT tables_event"]


def test_an_action_that_ends_a_hand_and_deals_the_next_reads_each_thing_once(django_capture_on_commit_callbacks):
    """docs/measurements/live-play.md, issue 13: the action that ends a hand pays the seats (one UPDATE),
    closes the hand, checks the ledger (the entries and the running totals in one statement), deals the
    next hand (the seats dealt in, the players' seeds, the new hand) and shows the seats.
    No query asks whether a hand is live: this transaction has just ended the only one."""
    table, _seats = open_table("faras", players=4)
    _warm(table, django_capture_on_commit_callbacks)
    start = selectors.hand_live(table=table).number
    while True:
        player, legal = current_turn(table)
        verbs = [entry.verb for entry in legal]
        with django_capture_on_commit_callbacks(execute=True), CaptureQueriesContext(connection) as captured:
            hand_act(table_id=table.pk, seat_id=int(player), verb="pack" if "pack" in verbs else verbs[0])
        if selectors.hand_live(table=table).number != start:
            break
    write_log = ["INSERT INTO tables_event", "UPDATE tables_table"]
    if connection.vendor == "postgresql":
        write_log = [" + ".join(write_log)]
    assert _statements(captured) == [
        "SELECT tables_table",
        "SELECT tables_seat",  # the seats paid
        "UPDATE tables_seat",  # their four stacks
        "UPDATE tables_hand",  # the hand closed
        "SELECT ledger_tableledger + SELECT ledger_ledgerentry",  # the invariant, both counts
        "SELECT tables_seat",  # the seats dealt in
        "SELECT tables_event",  # the players' seeds
        "INSERT INTO tables_hand",
        "UPDATE tables_hand",  # its first turn
        *write_log,
        "SELECT tables_seat",  # the seats on every screen
    ]
