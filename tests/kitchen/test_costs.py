"""Shared costs of a kitchen-table night: who paid, how much, split evenly or by shares; each
person's net is cashed out - bought in - their share + what they paid, and the settle-up's
transfers are the fewest for those nets."""

from __future__ import annotations

from decimal import Decimal

import pytest

from kitchen.selectors import kitchen_settle_up
from kitchen.services import kitchen_cash_out, kitchen_cost_add, kitchen_settle
from ledger.models import SharedCost
from ledger.selectors import ledger_cost_split
from tables.services import ServiceError
from tests.kitchen.conftest import add_by_name, host_seat, join_as, make_user


def _refused(code, call, **kwargs):
    before = SharedCost.objects.count()
    with pytest.raises(ServiceError) as caught:
        call(**kwargs)
    assert caught.value.code == code
    assert SharedCost.objects.count() == before


def test_a_cost_is_split_to_the_cent_the_odd_cents_to_the_first_to_join(night):
    host = host_seat(night)
    people = [add_by_name(night, name) for name in ("Bikash", "Chandra", "Dev")]
    cost = kitchen_cost_add(
        table_id=night.pk,
        seat_id=host.pk,
        paid_by=host.pk,
        amount="10.00",
        what="Pizza",
        shares={seat.pk: 1 for seat in people},
    )
    assert ledger_cost_split(cost) == {people[0].pk: 334, people[1].pk: 333, people[2].pk: 333}
    by_shares = kitchen_cost_add(
        table_id=night.pk,
        seat_id=host.pk,
        paid_by=people[0].pk,
        amount="9.01",
        what="Room",
        shares={people[0].pk: 2, people[1].pk: 1},
    )
    # 901 cents by 2:1 -> 600.67 and 300.33: 601 and 300.
    assert ledger_cost_split(by_shares) == {people[0].pk: 601, people[1].pk: 300}


def test_refused_costs_write_nothing(night):
    host = host_seat(night)
    bikash = add_by_name(night, "Bikash")
    base = {"table_id": night.pk, "seat_id": host.pk, "paid_by": host.pk, "what": "Pizza"}
    _refused("bad_amount", kitchen_cost_add, **base, amount="-5.00", shares={bikash.pk: 1})
    _refused("bad_amount", kitchen_cost_add, **base, amount="0", shares={bikash.pk: 1})
    _refused("bad_amount", kitchen_cost_add, **base, amount="1.005", shares={bikash.pk: 1})
    _refused("bad_amount", kitchen_cost_add, **base, amount=2.5, shares={bikash.pk: 1})
    _refused("no_sharers", kitchen_cost_add, **base, amount="5.00", shares={})
    _refused("bad_shares", kitchen_cost_add, **base, amount="5.00", shares={bikash.pk: 0})
    _refused("bad_shares", kitchen_cost_add, **base, amount="5.00", shares={999999: 1})
    _refused("no_what", kitchen_cost_add, **{**base, "what": " "}, amount="5.00", shares={bikash.pk: 1})
    _refused("bad_payer", kitchen_cost_add, **{**base, "paid_by": 999999}, amount="5.00", shares={bikash.pk: 1})
    dev = join_as(night, make_user("dev"))
    _refused("not_host", kitchen_cost_add, **{**base, "seat_id": dev.pk}, amount="5.00", shares={bikash.pk: 1})


def test_the_net_counts_the_chips_the_share_and_what_was_paid(night):
    """Asha hosts; Bikash wins 500 chips (5.00), Chandra loses them; Asha paid 12.00 of pizza for
    all three. Nets: Asha +8.00, Bikash +1.00, Chandra -9.00: two transfers."""
    host = host_seat(night)
    bikash, chandra = add_by_name(night, "Bikash"), add_by_name(night, "Chandra")
    kitchen_cost_add(
        table_id=night.pk,
        seat_id=host.pk,
        paid_by=host.pk,
        amount="12.00",
        what="Pizza",
        shares={host.pk: 1, bikash.pk: 1, chandra.pk: 1},
    )
    kitchen_cash_out(table_id=night.pk, seat_id=host.pk, player_seat_id=bikash.pk, chips=1500)
    kitchen_cash_out(table_id=night.pk, seat_id=host.pk, player_seat_id=chandra.pk, chips=500)
    kitchen_settle(table_id=night.pk, seat_id=host.pk)
    night.refresh_from_db()
    settle = kitchen_settle_up(table=night)
    lines = {line.name: line for line in settle.lines}
    assert (lines["Bikash"].chips_money, lines["Bikash"].cost_share, lines["Bikash"].net) == (
        Decimal("5.00"),
        Decimal("4.00"),
        Decimal("1.00"),
    )
    assert (lines["Asha"].costs_paid, lines["Asha"].net) == (Decimal("12.00"), Decimal("8.00"))
    assert lines["Chandra"].net == Decimal("-9.00")
    assert sum(line.net for line in settle.lines) == 0
    assert sorted(settle.transfers) == [("Chandra", "Asha", Decimal("8.00")), ("Chandra", "Bikash", Decimal("1.00"))]
