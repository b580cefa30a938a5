"""The migrations that moved the kitchen nights' shared costs into the ledger lose no cost.

A database is taken back to the last migrations before the move, filled with costs through the
kitchen's model as it was then (two nights, one recorder gone, costs recorded at known times),
then migrated to the end; every cost is read back through the ledger's model, field by field
and in the order recorded. Then back again (the costs return to the kitchen) and forward once
more. On SQLite by default, on PostgreSQL with ``DATABASE_URL`` set.
"""

from __future__ import annotations

from datetime import UTC, datetime
from decimal import Decimal

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

from accounts.models import User
from ledger.models import SharedCost
from tests.ledger.conftest import make_seat, make_table

BEFORE_THE_MOVE = [("kitchen", "0003_tournament_addons"), ("ledger", "0006_home_game_to_homegames")]
AFTER_THE_COPY = [("kitchen", "0004_costs_to_the_ledger")]


def _migrate(targets: list[tuple[str, str]]) -> MigrationExecutor:
    executor = MigrationExecutor(connection)
    executor.migrate(targets)
    return MigrationExecutor(connection)  # a fresh loader: the graph as applied now


def _leaves() -> list[tuple[str, str]]:
    return MigrationExecutor(connection).loader.graph.leaf_nodes()


def _at(hour: int) -> datetime:
    return datetime(2026, 11, 20, hour, 30, tzinfo=UTC)


@pytest.mark.django_db(transaction=True)
def test_every_kitchen_cost_becomes_a_ledger_cost_as_it_was():
    host, friend = User.objects.create(username="host"), User.objects.create(username="friend")
    first, second = make_table(host), make_table(friend)
    asha, bikash = make_seat(first, host, "Asha", 1), make_seat(first, None, "Bikash", 2)
    chandra = make_seat(second, friend, "Chandra", 1)

    old = _migrate(BEFORE_THE_MOVE).loader.project_state(BEFORE_THE_MOVE).apps
    night_model, cost_model = old.get_model("kitchen", "KitchenNight"), old.get_model("kitchen", "SharedCost")
    nights = [night_model.objects.create(table_id=table.pk) for table in (first, second)]
    written = [
        (nights[0], first, "Pizza", Decimal("25.03"), asha, {str(asha.pk): 1, str(bikash.pk): 1}, host, 19),
        (nights[1], second, "Room", Decimal("40.00"), chandra, {str(chandra.pk): 3}, None, 18),
        (nights[0], first, "Drinks", Decimal("9.01"), bikash, {str(asha.pk): 2, str(bikash.pk): 1}, friend, 21),
    ]
    for night, _table, what, amount, payer, shares, recorder, hour in written:
        cost = cost_model.objects.create(
            night=night,
            what=what,
            amount=amount,
            paid_by_id=payer.pk,
            shares=shares,
            recorded_by_id=recorder.pk if recorder else None,
        )
        cost_model.objects.filter(pk=cost.pk).update(created_at=_at(hour))  # auto_now_add set it to now

    _migrate(_leaves())

    moved = list(SharedCost.objects.order_by("id"))
    assert [
        (cost.table, cost.what, cost.amount, cost.paid_by, cost.shares, cost.recorded_by, cost.created_at)
        for cost in moved
    ] == [
        (table, what, amount, payer, shares, recorder, _at(hour))
        for _night, table, what, amount, payer, shares, recorder, hour in written
    ]
    assert list(first.shared_costs.values_list("what", flat=True)) == ["Pizza", "Drinks"]

    # Backwards, the costs return to the kitchen as they were; forwards again, to the ledger.
    back = _migrate(BEFORE_THE_MOVE).loader.project_state(BEFORE_THE_MOVE).apps
    returned = back.get_model("kitchen", "SharedCost").objects.order_by("id")
    assert [(c.night.table_id, c.what, c.amount, c.paid_by_id, c.shares, c.created_at) for c in returned] == [
        (table.pk, what, amount, payer.pk, shares, _at(hour))
        for _night, table, what, amount, payer, shares, _recorder, hour in written
    ]
    _migrate(_leaves())
    assert SharedCost.objects.count() == 3


@pytest.mark.django_db(transaction=True)
def test_the_move_refuses_to_finish_with_a_cost_missing():
    """The copy counts: the migration stops (and its transaction writes nothing) rather than
    lose a cost."""
    host = User.objects.create(username="host")
    table = make_table(host)
    seat = make_seat(table, host, "Asha", 1)
    old = _migrate(BEFORE_THE_MOVE).loader.project_state(BEFORE_THE_MOVE).apps
    night = old.get_model("kitchen", "KitchenNight").objects.create(table_id=table.pk)
    old.get_model("kitchen", "SharedCost").objects.create(
        night=night, what="Pizza", amount=Decimal("5.00"), paid_by_id=seat.pk, shares={str(seat.pk): 1}
    )
    # A ledger cost already there (never in real data) makes the counts differ.
    mid_state = [("kitchen", "0003_tournament_addons"), ("ledger", "0007_shared_costs")]
    mid = _migrate(mid_state).loader.project_state(mid_state).apps
    mid.get_model("ledger", "SharedCost").objects.create(
        table_id=table.pk, what="Stray", amount=Decimal("1.00"), paid_by_id=seat.pk, shares={str(seat.pk): 1}
    )
    with pytest.raises(RuntimeError, match="1 kitchen costs but 2 ledger costs"):
        _migrate(AFTER_THE_COPY)
    after = MigrationExecutor(connection)
    assert ("kitchen", "0004_costs_to_the_ledger") not in after.loader.applied_migrations
    assert mid.get_model("kitchen", "SharedCost").objects.count() == 1
    mid.get_model("ledger", "SharedCost").objects.all().delete()
    _migrate(_leaves())
    assert [cost.what for cost in SharedCost.objects.all()] == ["Pizza"]
