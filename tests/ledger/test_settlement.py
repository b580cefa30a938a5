"""The pure settlement (ledger/settlement.py): shares, rounding and the fewest transfers."""

from __future__ import annotations

from collections import Counter
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ledger.settlement import (
    PlayerEntry,
    SettlementError,
    Transfer,
    entries_from_buy_ins,
    greedy_transfers,
    minimum_transfers,
    round_largest_remainder,
    settle,
    zero_sum_groups,
)
from tables.money import format_chip_value


def brute_force_minimum(amounts: list[int]) -> int:
    """The true minimum number of payments, by exhaustive search (a different method).

    Settle the first unsettled player entirely against each player of opposite sign
    in turn and recurse; every settlement graph can be ordered this way, so the
    smallest depth found is the minimum.
    """
    debts = [amount for amount in amounts if amount]

    def search(start: int) -> int:
        while start < len(debts) and debts[start] == 0:
            start += 1
        if start == len(debts):
            return 0
        best = len(debts)
        for other in range(start + 1, len(debts)):
            if debts[other] * debts[start] < 0:
                debts[other] += debts[start]
                best = min(best, 1 + search(start + 1))
                debts[other] -= debts[start]
        return best

    return search(0)


def apply_transfers(balances: dict[str, int], transfers: list[Transfer]) -> dict[str, int]:
    left = dict(balances)
    for transfer in transfers:
        left[transfer.payer] += transfer.amount
        left[transfer.payee] -= transfer.amount
    return left


# --- The spec's example and the named cases ------------------------------------------


def test_spec_example_balances_and_two_transfers():
    """settle.md: Asha +8.50, Bikash -13.50, Chandra +5.00, Bikash pays both."""
    entries = entries_from_buy_ins(
        [("Asha", 1, 1850), ("Bikash", 2, 650), ("Chandra", 1, 1500)], price=1000, chips_per_buy_in=1000
    )
    result = settle(entries)
    assert result.chip_value == 1
    assert result.balances == {"Asha": 850, "Bikash": -1350, "Chandra": 500}
    assert result.transfers == (Transfer("Bikash", "Asha", 850), Transfer("Bikash", "Chandra", 500))


def test_chip_value_zero_gives_zero_balances_and_no_transfers():
    """settle.md: at a chip value of zero every balance is zero and nobody pays."""
    entries = entries_from_buy_ins(
        [("Asha", 1, 1900), ("Bikash", 3, 100), ("Chandra", 1, 3000)], price=0, chips_per_buy_in=1000
    )
    result = settle(entries)
    assert result.is_zero_value
    assert result.balances == {"Asha": 0, "Bikash": 0, "Chandra": 0}
    assert result.transfers == ()


def test_chip_value_in_fractions_of_a_cent_rounds_by_largest_remainder():
    """10.00 for 3 chips: a chip is 333 1/3 cents; the spare cent goes to the largest remainder."""
    entries = entries_from_buy_ins(
        [("Asha", 1, 4), ("Bikash", 1, 1), ("Chandra", 1, 4)], price=1000, chips_per_buy_in=3
    )
    result = settle(entries)
    # Exact: Asha and Chandra +333 1/3, Bikash -666 2/3.
    assert result.exact_balances == {
        "Asha": Fraction(1000, 3),
        "Bikash": Fraction(-2000, 3),
        "Chandra": Fraction(1000, 3),
    }
    # Floors 333, -667, 333 leave one cent. All three dropped 1/3 of a cent, so the
    # tie goes to the lowest exact result: Bikash.
    assert result.balances == {"Asha": 333, "Bikash": -666, "Chandra": 333}
    assert sum(result.balances.values()) == 0


def test_tie_in_remainders_broken_by_lower_exact_result_then_name():
    """docs/ledger.md: equal remainders -> lower exact result first, then the smaller name."""
    exact = {"Dev": Fraction(1, 2), "Asha": Fraction(1, 2), "Bikash": Fraction(-1, 1)}
    # Floors 0, 0, -1 leave one unit; Dev and Asha tie on 1/2 and on exact result: Asha by name.
    assert round_largest_remainder(exact) == {"Dev": 0, "Asha": 1, "Bikash": -1}
    exact = {"Asha": Fraction(3, 2), "Dev": Fraction(1, 2), "Bikash": Fraction(-2, 1)}
    # Same remainders, Dev's exact result is lower: Dev gets the unit.
    assert round_largest_remainder(exact) == {"Asha": 1, "Dev": 1, "Bikash": -2}


def test_result_does_not_depend_on_the_order_players_are_listed():
    """settle.md: the same input always gives the same list (order of listing included)."""
    rows = [("Asha", 1, 5), ("Bikash", 2, 1), ("Chandra", 1, 9), ("Dev", 1, 10)]
    first = settle(entries_from_buy_ins(rows, price=1000, chips_per_buy_in=5))
    second = settle(entries_from_buy_ins(list(reversed(rows)), price=1000, chips_per_buy_in=5))
    assert first.transfers == second.transfers
    assert first.balances == second.balances


def test_many_buy_backs():
    """Seed rule book: each buy-back adds a stack at the same price and counts when settling."""
    rows = [("Asha", 25, 1000), ("Bikash", 1, 20_000), ("Chandra", 4, 9_000)]
    result = settle(entries_from_buy_ins(rows, price=1000, chips_per_buy_in=1000))
    assert result.balances == {"Asha": -24_000, "Bikash": 19_000, "Chandra": 5_000}
    assert result.transfers == (Transfer("Asha", "Bikash", 19_000), Transfer("Asha", "Chandra", 5_000))


def test_exact_beats_greedy_when_groups_settle_among_themselves():
    """The minimum is n minus the most zero-sum groups, which a greedy settlement misses."""
    balances = {"A": -9, "B": 7, "C": -2, "D": 5, "E": 6, "F": -7}
    # Groups {B,F} and {A,C,D,E}: 1 + 3 = 4 transfers; biggest-first greedy needs 5.
    assert len(minimum_transfers(balances)) == 4
    assert len(greedy_transfers(balances)) == 5
    assert brute_force_minimum(list(balances.values())) == 4


def test_equal_and_opposite_balances_pair_off():
    groups = zero_sum_groups({"A": 5, "B": -5, "C": 2, "D": -2, "E": 0})
    assert sorted(map(sorted, groups)) == [["A", "B"], ["C", "D"]]


def test_chip_value_display():
    assert format_chip_value(Fraction(1)) == "0.01"
    assert format_chip_value(Fraction(0)) == "0.00"
    assert format_chip_value(Fraction(1, 2)) == "0.005"
    assert format_chip_value(Fraction(1000, 3)) == "3.333333333333"
    assert format_chip_value(Fraction(5), digits=0) == "5"


# --- Refusals ----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("entries", "code"),
    [
        ([PlayerEntry("Asha", 1000, 1000, 900), PlayerEntry("Bikash", 1000, 1000, 1000)], "chips_mismatch"),
        ([PlayerEntry("Asha", 1000, 1000, 1100), PlayerEntry("Bikash", 1000, 1000, 1000)], "chips_mismatch"),
        ([PlayerEntry("Asha", 1000, 1000, 1000), PlayerEntry("asha ", 1000, 1000, 1000)], "duplicate_name"),
        ([PlayerEntry("", 1000, 1000, 1000)], "bad_name"),
        ([PlayerEntry("Asha", -1000, 1000, -1000)], "negative"),
        ([PlayerEntry("Asha", 1000, -1000, 1000)], "negative"),
        ([PlayerEntry("Asha", 1000, 1000.0, 1000)], "bad_number"),
    ],
)
def test_bad_entries_refused(entries, code):
    with pytest.raises(SettlementError) as caught:
        settle(entries)
    assert caught.value.code == code


def test_transfers_refuse_balances_that_do_not_sum_to_zero():
    with pytest.raises(SettlementError) as caught:
        minimum_transfers({"A": 5, "B": -4})
    assert caught.value.code == "not_zero_sum"


# --- Properties --------------------------------------------------------------------


@st.composite
def games(draw, max_players: int = 8):
    """A random table: a buy-in price/chips, each player's buy-ins, chips moved around."""
    count = draw(st.integers(1, max_players))
    chips_per = draw(st.integers(1, 2000))
    price = draw(st.integers(0, 10_000))
    buy_ins = draw(st.lists(st.integers(0, 5), min_size=count, max_size=count))
    total = sum(buy_ins) * chips_per
    # Chips at the end: split ``total`` at random cut points.
    cuts = sorted(draw(st.lists(st.integers(0, total), min_size=count - 1, max_size=count - 1)))
    ends = [b - a for a, b in zip([0, *cuts], [*cuts, total], strict=True)]
    rows = [(f"P{i}", buy_ins[i], ends[i]) for i in range(count)]
    return entries_from_buy_ins(rows, price=price, chips_per_buy_in=chips_per)


@settings(max_examples=150, deadline=None)
@given(games())
def test_property_balances_sum_to_zero_and_round_within_a_cent(entries):
    """settle.md: balances add up to exactly zero; each is its exact value rounded up or down."""
    result = settle(entries)
    assert sum(result.balances.values()) == 0
    for name, amount in result.balances.items():
        assert abs(amount - result.exact_balances[name]) < 1
        assert amount * result.exact_balances[name] >= 0  # never changes sign


@settings(max_examples=150, deadline=None)
@given(games())
def test_property_transfers_settle_everyone_loser_to_winner_in_the_fewest(entries):
    """settle.md: transfers settle every balance, loser to winner, as few as possible."""
    result = settle(entries)
    transfers = list(result.transfers)
    assert set(apply_transfers(result.balances, transfers).values()) <= {0}
    for transfer in transfers:
        assert transfer.amount > 0
        assert result.balances[transfer.payer] < 0 < result.balances[transfer.payee]
    assert len(transfers) == brute_force_minimum(list(result.balances.values()))


@settings(max_examples=200, deadline=None)
@given(st.lists(st.integers(-30, 30), min_size=1, max_size=7))
def test_property_minimum_matches_brute_force_on_small_balances(amounts):
    """Small amounts make many zero-sum groups: the hard case for a greedy settlement."""
    amounts = [*amounts, -sum(amounts)]
    balances = {f"P{i}": amount for i, amount in enumerate(amounts)}
    transfers = minimum_transfers(balances)
    assert set(apply_transfers(balances, transfers).values()) <= {0}
    assert len(transfers) == brute_force_minimum(amounts)
    # No pair pays twice, no one both pays and is paid.
    assert not Counter((t.payer, t.payee) for t in transfers) - Counter(set((t.payer, t.payee) for t in transfers))
    assert not {t.payer for t in transfers} & {t.payee for t in transfers}


def test_sixteen_players_settle_exactly():
    """Exact for 16 players: settles everyone and never needs more than greedy."""
    amounts = [1250, -700, 300, -850, 40, -40, 999, -1, -998, 505, -505, 77, -300, 23, -100, 300]
    amounts[-1] -= sum(amounts)
    balances = {f"P{i:02}": amount for i, amount in enumerate(amounts)}
    transfers = minimum_transfers(balances)
    assert set(apply_transfers(balances, transfers).values()) <= {0}
    groups = zero_sum_groups(balances)
    assert len(transfers) == sum(1 for a in amounts if a) - len(groups)
    assert len(transfers) <= len(greedy_transfers(balances))


@settings(max_examples=100, deadline=None)
@given(games(), st.randoms(use_true_random=False))
def test_property_same_players_in_any_order_give_the_same_answer(entries, rng):
    """settle.md: the same input always gives the same list, whatever order the players come in."""
    shuffled = list(entries)
    rng.shuffle(shuffled)
    first, second = settle(entries), settle(shuffled)
    assert first.transfers == second.transfers
    assert first.balances == second.balances
