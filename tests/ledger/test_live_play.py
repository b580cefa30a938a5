"""A table played through live play (tables.services) to its end: the ledger's report
matches the chips. Live play calls the ledger at every buy-in, buy-back, cash-out and
hand end (the invariant), so a chip created or lost anywhere would fail the game."""

from __future__ import annotations

import random
from fractions import Fraction

import pytest
from django.test import override_settings

from ledger.models import LedgerEntry
from ledger.selectors import ledger_chip_totals, ledger_report
from tables.models import Event, Seat
from tables.services import hand_act, seat_buy_back, seat_leave
from tables.state_cache import state_cache_clear
from tests.tables.conftest import current_turn, end_game, open_table, random_action


@pytest.fixture(autouse=True)
def _hands_follow_at_once():
    state_cache_clear()
    with override_settings(DASHAIN_NEXT_HAND_DELAY=0):
        yield
    state_cache_clear()


def _buy_back_the_broke(table, boot: int) -> int:
    bought = 0
    for seat in Seat.objects.filter(table=table, number__isnull=False):
        if seat.stack < boot:
            seat_buy_back(table_id=table.pk, seat_id=seat.pk)
            bought += 1
    return bought


def play_to_the_end(*, price: str, chips: int, seed: int, steps: int = 300):
    """Random legal Faras at 4 seats, buy-backs when broke, one player leaves, the host ends it."""
    rng = random.Random(seed)
    table, seats = open_table("faras", players=4, choices={"buy_in_price": price, "buy_in_chips": chips, "boot": 10})
    by_name = {seat.engine_name: seat for seat in seats}
    left_early = None
    for step in range(steps):
        player, legal = current_turn(table)
        if player is None:
            if step > steps // 2 and left_early is None:
                left_early = seats[3]
                seat_leave(table_id=table.pk, seat_id=left_early.pk)
            if not _buy_back_the_broke(table, boot=10):
                break
            continue
        verb, amount = random_action(rng, legal)
        hand_act(table_id=table.pk, seat_id=by_name[player].pk, verb=verb, amount=amount)
    end_game(table, seats[0].pk)
    table.refresh_from_db()
    return table, seats


@pytest.mark.django_db
@pytest.mark.parametrize(("price", "chips", "seed"), [("10.00", 300, 3), ("10.00", 3000, 7), ("0.00", 200, 11)])
def test_report_after_live_play_matches_the_chips(price, chips, seed):
    table, seats = play_to_the_end(price=price, chips=chips, seed=seed)
    assert table.hands_played >= 3
    report = ledger_report(table=table)
    assert report.is_final and not report.error

    # Chips at the end = what each seat took away (left early, or at the game's end).
    taken = {seat.pk: 0 for seat in seats}
    for event in Event.objects.filter(table=table, kind__in=["seat_left", "seat_out", "seat_removed"]):
        taken[event.payload["seat"]] += event.payload["cashed_out"]
    ended = Event.objects.get(table=table, kind="game_ended")
    for seat_id, stack in ended.payload["final_stacks"].items():
        taken[int(seat_id)] += stack
    lines = {line.seat_id: line for line in report.players}
    assert {seat_id: line.chips_end for seat_id, line in lines.items()} == taken

    # Buy-ins as live play counted them; no chip created or lost.
    for seat in Seat.objects.filter(table=table):
        assert lines[seat.pk].buy_ins == seat.buy_ins
    totals = ledger_chip_totals(table=table)
    assert (
        totals.bought == totals.cashed_out == sum(taken.values()) == sum(line.chips_bought for line in lines.values())
    )
    assert LedgerEntry.objects.filter(table=table, kind="buy_back").exists()

    # Money: each balance is chips at the end x chip value - paid, to within a cent; sum zero.
    value = Fraction(int(table.buy_in_price * 100), table.buy_in_chips)
    for line in lines.values():
        exact = line.chips_end * value - int(line.paid * 100)
        assert abs(int(line.net_money * 100) - exact) < 1
    assert sum(line.net_money for line in lines.values()) == 0
    left = {seat_id: int(line.net_money * 100) for seat_id, line in lines.items()}
    for transfer in report.transfers:
        left[transfer.payer_seat_id] += int(transfer.amount * 100)
        left[transfer.payee_seat_id] -= int(transfer.amount * 100)
    assert set(left.values()) == {0}
    if value == 0:
        assert report.is_zero_value and report.transfers == []


@pytest.mark.django_db
def test_live_play_refuses_to_end_a_hand_when_chips_do_not_add_up():
    """The invariant runs at the end of every hand: a stack recorded as bought but never
    put on the table stops the hand from ending, and the failing action changes nothing."""
    from decimal import Decimal

    from ledger.services import InvariantError, ledger_record_buy_in

    rng = random.Random(2)
    table, seats = open_table("faras", players=3)
    by_name = {seat.engine_name: seat for seat in seats}
    ledger_record_buy_in(table=table, seat=seats[1], chips=1000, price=Decimal("10.00"), is_buy_back=True)
    hands_before = table.hands_played
    for _step in range(200):
        player, legal = current_turn(table)
        assert player is not None
        verb, amount = random_action(rng, legal)
        last_seq = table.last_seq
        try:
            hand_act(table_id=table.pk, seat_id=by_name[player].pk, verb=verb, amount=amount)
        except InvariantError as error:
            assert (error.expected - error.found) == 1000
            break
    else:
        pytest.fail("no hand ended in 200 actions")
    table.refresh_from_db()
    assert table.hands_played == hands_before
    assert table.last_seq == last_seq  # the action that ended the hand was rolled back
