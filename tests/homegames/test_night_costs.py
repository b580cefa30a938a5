"""The home game's signal for a night's shared costs (``homegames.night_costs``): what an app
answers is checked before the season counts it, so no answer can create or lose a cent."""

from __future__ import annotations

import pytest

from homegames.night_costs import NightCost, NightCostError, night_costs, night_costs_wanted
from tests.ledger.conftest import make_table, make_user


@pytest.fixture
def table(db):
    return make_table(make_user("host"))


def answering(answer):
    """Connect a receiver that answers ``answer`` for the test's length."""

    def receiver(sender, *, tables, **kwargs):
        return answer(tables)

    night_costs_wanted.connect(receiver, weak=False, dispatch_uid="test_night_costs")
    return receiver


@pytest.fixture(autouse=True)
def disconnect():
    yield
    night_costs_wanted.disconnect(dispatch_uid="test_night_costs")


def test_a_sound_answer_is_read_by_table(table):
    cost = NightCost(table_id=table.pk, what="Pizza", amount=1000, paid_by=1, shares=((1, 334), (2, 333), (3, 333)))
    answering(lambda tables: [cost])
    assert night_costs(tables=[table]) == {table.pk: [cost]}
    assert night_costs(tables=[]) == {}


@pytest.mark.parametrize(
    "bad",
    [
        lambda table: "not a list",
        lambda table: [("Pizza", 1000)],
        lambda table: [NightCost(table_id=table.pk + 1, what="x", amount=100, paid_by=1, shares=((1, 100),))],
        lambda table: [NightCost(table_id=table.pk, what="x", amount=100, paid_by=1, shares=((1, 60), (2, 39)))],
        lambda table: [NightCost(table_id=table.pk, what="x", amount=100, paid_by=1, shares=((1, 101), (2, -1)))],
        lambda table: [NightCost(table_id=table.pk, what="x", amount=0, paid_by=1, shares=())],
    ],
    ids=["not_a_list", "not_a_cost", "another_table", "a_cent_lost", "a_negative_share", "no_money"],
)
def test_an_answer_that_would_create_or_lose_money_is_refused(table, bad):
    answering(lambda tables: bad(table))
    with pytest.raises(NightCostError):
        night_costs(tables=[table])
