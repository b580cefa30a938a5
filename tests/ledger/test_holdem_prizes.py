"""Hold'em for money (issue 25): a buy-in price, and the pool shared by chips or by places.

The pure split first (every payout table, ties at every place, uneven cents: the prizes
always add up to the pool, to the cent), then whole games played through the services
(ended by one player holding every chip, by everyone else going out in one hand, by the
game's length, by the host), each checked against prizes worked out by hand here.
"""

from __future__ import annotations

import random
from datetime import timedelta
from decimal import Decimal
from fractions import Fraction

import pytest
from django.test import override_settings
from django.utils import timezone
from hypothesis import given, settings
from hypothesis import strategies as st

from ledger.models import LedgerEntry
from ledger.selectors import ledger_report
from ledger.services import LedgerError, ledger_record_buy_in, ledger_record_prizes
from ledger.settlement import PlayerEntry, SettlementError, settle, split_prizes
from tables.models import Event, Seat, Table
from tables.services import hand_act, seat_leave
from tables.services.clock_run import table_clock_run
from tables.state_cache import state_cache_clear
from tests.tables.conftest import current_turn, end_game, open_table, repeatable_decks

# --- the split, pure --------------------------------------------------------------------------

POOL = 6000  # three buy-ins of 20.00, in cents


@pytest.mark.parametrize(
    ("payouts", "places", "expected"),
    [
        # 50/30/20, everyone placed apart.
        ((50, 30, 20), {"A": 1, "B": 2, "C": 3}, {"A": 3000, "B": 1800, "C": 1200}),
        # Two share first: they cover first and second, (50 + 30) / 2 = 40% each.
        ((50, 30, 20), {"A": 1, "B": 1, "C": 3}, {"A": 2400, "B": 2400, "C": 1200}),
        # Three share first: every paid place, a third each.
        ((50, 30, 20), {"A": 1, "B": 1, "C": 1}, {"A": 2000, "B": 2000, "C": 2000}),
        # Two share second: (30 + 20) / 2.
        ((50, 30, 20), {"A": 1, "B": 2, "C": 2}, {"A": 3000, "B": 1500, "C": 1500}),
        # 65/35: two share second, a paid place and an unpaid one: 35 / 2 each.
        ((65, 35), {"A": 1, "B": 2, "C": 2}, {"A": 3900, "B": 1050, "C": 1050}),
        ((65, 35), {"A": 1, "B": 1, "C": 3}, {"A": 3000, "B": 3000, "C": 0}),
        ((65, 35), {"A": 1, "B": 2, "C": 3}, {"A": 3900, "B": 2100, "C": 0}),
        ((65, 35), {"A": 1, "B": 1, "C": 1}, {"A": 2000, "B": 2000, "C": 2000}),
        # Winner takes all: two level share it, a third each of three.
        ((100,), {"A": 1, "B": 2, "C": 3}, {"A": 6000, "B": 0, "C": 0}),
        ((100,), {"A": 1, "B": 1, "C": 3}, {"A": 3000, "B": 3000, "C": 0}),
        ((100,), {"A": 1, "B": 1, "C": 1}, {"A": 2000, "B": 2000, "C": 2000}),
        ((100,), {"A": 1, "B": 2, "C": 2}, {"A": 6000, "B": 0, "C": 0}),
        # The host's own table: 40/30/20/10 with four, two sharing third (20 + 10) / 2.
        ((40, 30, 20, 10), {"A": 1, "B": 2, "C": 3, "D": 3}, {"A": 2400, "B": 1800, "C": 900, "D": 900}),
    ],
)
def test_every_payout_table_with_ties_at_every_place(payouts, places, expected):
    assert split_prizes(pool=POOL, payouts=payouts, places=places) == expected


def test_uneven_cents_go_by_the_ledgers_largest_remainder_rule():
    # 10.01 shared three ways at first: 333 1/3 cents each; the two spare cents go to the
    # players earliest in name (seat) order, the exact shares being equal.
    assert split_prizes(pool=1001, payouts=(100,), places={"A": 1, "B": 1, "C": 1}) == {"A": 334, "B": 334, "C": 333}
    # 50/30/20 of 10.01: 500.5, 300.3, 200.2; the one spare cent goes to the largest fraction.
    assert split_prizes(pool=1001, payouts=(50, 30, 20), places={"A": 1, "B": 2, "C": 3}) == {
        "A": 501,
        "B": 300,
        "C": 200,
    }
    # 65/35 of 0.03 with the second place shared: 1.95 to first, 0.525 each to the two second.
    assert split_prizes(pool=3, payouts=(65, 35), places={"A": 1, "B": 2, "C": 2}) == {"A": 2, "B": 1, "C": 0}


@pytest.mark.parametrize("payouts", [(), (60, 30), (50, 30, 20, 0), (101, -1), (50, 30, 20.0), (True,), (50, 50, 0)])
def test_a_bad_payout_table_is_refused(payouts):
    with pytest.raises(SettlementError):
        split_prizes(pool=POOL, payouts=payouts, places={"A": 1, "B": 2, "C": 3, "D": 4})


def test_more_paid_places_than_players_is_refused():
    with pytest.raises(SettlementError) as refused:
        split_prizes(pool=POOL, payouts=(50, 30, 20), places={"A": 1, "B": 2})
    assert refused.value.code == "too_many_places"


@st.composite
def _games(draw):
    players = draw(st.integers(min_value=2, max_value=6))
    paid = draw(st.integers(min_value=1, max_value=players))
    cuts = sorted(draw(st.lists(st.integers(1, 99), min_size=paid - 1, max_size=paid - 1, unique=True)))
    # A payout table never pays a place more than the one above it (the settings refuse that).
    payouts = sorted((b - a for a, b in zip([0, *cuts], [*cuts, 100], strict=True)), reverse=True)
    # Places as the engine gives them: a sorted list of levels, equal keys share, next skips.
    keys = sorted(draw(st.lists(st.integers(0, 3), min_size=players, max_size=players)), reverse=True)
    places = {}
    for index, key in enumerate(keys):
        places[f"P{index}"] = places[f"P{index - 1}"] if index and key == keys[index - 1] else index + 1
    pool = draw(st.integers(min_value=0, max_value=10**8))
    return pool, payouts, places


@settings(max_examples=300, deadline=None)
@given(_games())
def test_the_prizes_always_add_up_to_the_pool_and_level_players_get_the_same_within_a_cent(game):
    pool, payouts, places = game
    prizes = split_prizes(pool=pool, payouts=payouts, places=places)
    assert sum(prizes.values()) == pool
    ordered = sorted(places, key=lambda name: places[name])
    for index, name in enumerate(ordered):
        level = [other for other in ordered if places[other] == places[name]]
        start = ordered.index(level[0])
        exact = Fraction(pool * sum(payouts[start : start + len(level)]), 100 * len(level))
        assert abs(prizes[name] - exact) < 1  # within a cent of the exact share
        assert max(prizes[o] for o in level) - min(prizes[o] for o in level) <= 1
        if index:  # a better place never wins less (beyond the odd cent)
            assert prizes[ordered[index - 1]] >= prizes[name] - 1


def test_settle_by_prizes_is_prize_minus_paid_and_refuses_prizes_that_are_not_the_pool():
    entries = [
        PlayerEntry("A", 1000, 2000, 3000, prize=3000),
        PlayerEntry("B", 1000, 2000, 0, prize=1800),
        PlayerEntry("C", 1000, 2000, 0, prize=1200),
    ]
    result = settle(entries)
    assert result.balances == {"A": 1000, "B": -200, "C": -800}
    assert [(t.payer, t.payee, t.amount) for t in result.transfers] == [("B", "A", 200), ("C", "A", 800)]
    with pytest.raises(SettlementError) as refused:
        settle([*entries[:2], PlayerEntry("C", 1000, 2000, 0, prize=1201)])
    assert refused.value.code == "prizes_mismatch"
    with pytest.raises(SettlementError) as refused:
        settle([*entries[:2], PlayerEntry("C", 1000, 2000, 0)])
    assert refused.value.code == "missing_prize"


# --- whole games through the services ----------------------------------------------------------


@pytest.fixture(autouse=True)
def _hands_follow_at_once():
    state_cache_clear()
    with override_settings(DASHAIN_NEXT_HAND_DELAY=0):
        yield
    state_cache_clear()


def _money_table(payouts: str | None, *, players: int = 3, price: str = "20.00", start: bool = True, **choices):
    sharing = {"prizes": "places", "payouts": payouts} if payouts else {"prizes": "chips"}
    return open_table(
        "holdem",
        players=players,
        choices={"buy_in_price": price, "currency": "USD", **sharing, **choices},
        start=start,
    )


def _play(table: Table, choose, *, hands: int | None = None) -> None:
    """Play until the game ends (or ``hands`` hands have been dealt), every move by ``choose``."""
    for _ in range(5000):
        table.refresh_from_db()
        if table.status == Table.Status.ENDED or (hands is not None and table.hands_played >= hands):
            return
        player, legal = current_turn(table)
        if player is None:
            continue
        hand_act(table_id=table.pk, seat_id=int(player), **choose(legal))
    raise AssertionError("the game did not end")


def _play_one(table: Table, choose) -> None:
    player, legal = current_turn(table)
    hand_act(table_id=table.pk, seat_id=int(player), **choose(legal))


def _all_in(legal):
    verbs = [action.verb for action in legal]
    return {"verb": "allin" if "allin" in verbs else "call"}


def _passive(legal):
    verbs = [action.verb for action in legal]
    return {"verb": "check" if "check" in verbs else "call"}


def _prizes(table: Table) -> dict[int, tuple[int | None, Decimal]]:
    rows = LedgerEntry.objects.filter(table=table, kind=LedgerEntry.Kind.PRIZE)
    return {row.seat_id: (row.place, row.price) for row in rows}


def _placings(table: Table) -> dict[int, int]:
    ended = Event.objects.get(table=table, kind="game_ended")
    return {p["seat"]: p["place"] for p in ended.payload["placings"]}


def _check_the_ledger(table: Table, *, pool: Decimal) -> None:
    """The prizes are the pool to the cent, each player's net is prize - paid, nets add to 0."""
    report = ledger_report(table=table)
    assert report.is_final and not report.error
    assert sum(line.prize for line in report.players) == pool
    assert sum(line.net_money for line in report.players) == 0
    for line in report.players:
        assert line.net_money == line.prize - line.paid
    # No chip created or lost: everything bought was cashed out.
    assert sum(line.chips_end for line in report.players) == sum(line.chips_bought for line in report.players)


@pytest.mark.django_db
def test_one_player_takes_every_chip_50_30_20(monkeypatch):
    repeatable_decks(monkeypatch, random.Random(25))
    table, seats = _money_table("50/30/20")
    _play(table, _all_in)
    places = _placings(table)
    prizes = _prizes(table)
    by_place = {places[seat.pk]: prizes[seat.pk][1] for seat in seats}
    winner = next(seat for seat in seats if places[seat.pk] == 1)
    assert Seat.objects.get(pk=winner.pk).stack == 0  # cashed out
    if sorted(places.values()) == [1, 2, 3]:
        assert by_place == {1: Decimal("30.00"), 2: Decimal("18.00"), 3: Decimal("12.00")}
    else:  # two went out in one hand with the same chips: they share 30 + 20
        assert sorted(places.values()) == [1, 2, 2]
        assert by_place == {1: Decimal("30.00"), 2: Decimal("15.00")}
    assert all(prizes[seat.pk][0] == places[seat.pk] for seat in seats)
    _check_the_ledger(table, pool=Decimal("60.00"))
    report = ledger_report(table=table)
    assert len(report.transfers) == 2  # the two losers each pay the winner


@pytest.mark.django_db
def test_everyone_else_goes_out_in_one_hand_and_they_share_the_place(monkeypatch):
    # Hand 1: all three all in from 1,000 each. Whoever wins the whole pot is first; the
    # other two went out in the same hand with the same chips: they share second, and with
    # 50/30/20 they share second and third, 25% each.
    for seed in range(40):
        state_cache_clear()
        repeatable_decks(monkeypatch, random.Random(seed))
        table, seats = _money_table("50/30/20")
        _play(table, _all_in, hands=2)  # stops when a second hand is dealt, if one is
        table.refresh_from_db()
        if table.status == Table.Status.ENDED and table.hands_played == 1:
            break
    else:
        raise AssertionError("no deck of the 40 ended the game in one hand")
    places = _placings(table)
    assert sorted(places.values()) == [1, 2, 2]
    prizes = {places[seat.pk]: _prizes(table)[seat.pk][1] for seat in seats}
    assert prizes == {1: Decimal("30.00"), 2: Decimal("15.00")}
    _check_the_ledger(table, pool=Decimal("60.00"))


@pytest.mark.django_db
def test_a_game_ended_by_its_length_places_by_chips_and_pays_65_35(monkeypatch):
    repeatable_decks(monkeypatch, random.Random(7))
    table, seats = _money_table("65/35", game_length=30, price="10.01")
    _play(table, _passive)
    table.refresh_from_db()
    assert table.hands_played == 30
    places = _placings(table)
    stacks = Event.objects.get(table=table, kind="game_ended").payload["final_stacks"]
    ranked = sorted(seats, key=lambda seat: -stacks[str(seat.pk)])
    # Passive play with blinds: the biggest stack is first; the prizes follow the places.
    assert places[ranked[0].pk] == 1
    pool = 3003  # 3 x 10.01, in cents
    expected = split_by_hand(pool, (65, 35), places)
    assert {seat: price for seat, (_place, price) in _prizes(table).items()} == expected
    _check_the_ledger(table, pool=Decimal("30.03"))


def split_by_hand(pool: int, payouts: tuple[int, ...], places: dict[int, int]) -> dict[int, Decimal]:
    """The payout rule written out plainly for a check: whole cents, then the spare cents."""
    ordered = sorted(places, key=lambda seat: (places[seat], seat))
    exact = {}
    for seat in ordered:
        level = [other for other in ordered if places[other] == places[seat]]
        first = ordered.index(level[0])
        covered = sum(payouts[first : first + len(level)])
        exact[seat] = Fraction(pool * covered, 100 * len(level))
    cents = {seat: int(value) for seat, value in exact.items()}
    spare = pool - sum(cents.values())
    for seat in sorted(exact, key=lambda seat: (-(exact[seat] - cents[seat]), exact[seat], seat))[:spare]:
        cents[seat] += 1
    return {seat: Decimal(cents[seat]) / 100 for seat in cents}


@pytest.mark.django_db
def test_the_host_ending_early_places_the_stacks_at_that_moment_and_everyone_sees_it(monkeypatch):
    repeatable_decks(monkeypatch, random.Random(3))
    table, seats = _money_table("100")
    _play(table, _passive, hands=4)
    table.refresh_from_db()
    hand_live = current_turn(table)[0] is not None
    end_game(table, seats[0].pk)
    ended = Event.objects.get(table=table, kind="game_ended")
    assert ended.payload["reason"] == "host"
    stacks = ended.payload["final_stacks"]
    places = _placings(table)
    best = max(stacks.values())
    leaders = {int(seat) for seat, chips in stacks.items() if chips == best}
    assert {seat for seat, place in places.items() if place == 1} == leaders
    expected = split_by_hand(6000, (100,), places)
    assert {seat: price for seat, (_place, price) in _prizes(table).items()} == expected
    _check_the_ledger(table, pool=Decimal("60.00"))
    assert hand_live in (True, False)  # ended between hands or during one: both place the stacks


@pytest.mark.django_db
def test_a_player_who_leaves_early_is_placed_when_they_left(monkeypatch):
    repeatable_decks(monkeypatch, random.Random(11))
    with override_settings(DASHAIN_NEXT_HAND_DELAY=3600):  # the next deal waits: a pause between hands
        table, seats = _money_table("50/30/20", players=4)
        while current_turn(table)[0] is not None:  # play hand 1 out; hand 2 waits
            _play_one(table, _passive)
        leaver = next(seat for seat in seats[1:] if Seat.objects.get(pk=seat.pk).stack > 0)
        seat_leave(table_id=table.pk, seat_id=leaver.pk)  # between hands: keeps their chips
    table_clock_run(table_id=table.pk, now=timezone.now() + timedelta(hours=2))  # the next deal
    _play(table, _all_in)
    places = _placings(table)
    # Everyone else was still in when the leaver left: the leaver is last of all (no one went
    # broke in the passive first hand), though they left with chips.
    assert places[leaver.pk] == 4
    assert _prizes(table)[leaver.pk] == (4, Decimal("0.00"))
    _check_the_ledger(table, pool=Decimal("80.00"))
    leaver_line = next(line for line in ledger_report(table=table).players if line.seat_id == leaver.pk)
    assert leaver_line.chips_end > 0 and leaver_line.net_money == Decimal("-20.00")  # their chips buy nothing


@pytest.mark.django_db
def test_by_chips_a_hold_em_night_settles_like_teen_patti(monkeypatch):
    repeatable_decks(monkeypatch, random.Random(25))
    table, _seats = _money_table(None)
    _play(table, _all_in)
    report = ledger_report(table=table)
    assert report.is_final and not report.error and not report.by_places
    assert report.chip_value == Fraction(2000, 1000)  # 20.00 for 1,000 chips: 2 cents a chip
    for line in report.players:
        assert line.net_money == Decimal(line.chips_end * 2 - 2000) / 100
        assert line.prize is None
    assert not LedgerEntry.objects.filter(table=table, kind=LedgerEntry.Kind.PRIZE).exists()
    # The game-over screen's placings carry each player's result, as the settle-up has it.
    placings = Event.objects.get(table=table, kind="game_ended").payload["placings"]
    nets = {line.seat_id: line.net_money for line in report.players}
    assert {p["seat"]: Decimal(p["net"]) for p in placings} == nets
    assert all("prize" not in p for p in placings)


@pytest.mark.django_db
def test_at_zero_price_places_pay_nothing_and_chips_still_show(monkeypatch):
    repeatable_decks(monkeypatch, random.Random(25))
    table, _seats = _money_table("50/30/20", price="0.00")
    _play(table, _all_in)
    report = ledger_report(table=table)
    assert report.is_zero_value and report.is_final and not report.error
    assert all(line.prize == Decimal("0.00") and line.net_money == 0 for line in report.players)
    assert report.transfers == []


@pytest.mark.django_db
def test_prizes_are_recorded_once_and_the_game_ended_before_a_deal_pays_everyone_back():
    table, seats = _money_table("50/30/20", start=False)
    end_game(table, seats[0].pk)
    assert {seat: prize for seat, prize in _prizes(table).items()} == {
        seat.pk: (None, Decimal("20.00")) for seat in seats
    }
    assert all(line.net_money == 0 for line in ledger_report(table=table).players)
    with pytest.raises(LedgerError) as refused:
        ledger_record_prizes(table=table, places={seats[0].pk: 1}, payouts=[100])
    assert refused.value.code == "prizes_recorded"
    assert LedgerEntry.objects.filter(table=table, kind=LedgerEntry.Kind.PRIZE).count() == 3


# --- the pages: report, CSV, home game ----------------------------------------------------------


@pytest.mark.django_db
def test_the_report_csv_and_home_game_show_places_and_prizes(monkeypatch):
    import csv
    import io

    from django.test import Client
    from django.urls import reverse

    from homegames.selectors_seasons import home_game_results
    from homegames.services_members import home_game_add_table, home_game_create

    repeatable_decks(monkeypatch, random.Random(25))
    table, seats = _money_table("50/30/20")
    _play(table, _all_in)
    places = _placings(table)
    prizes = _prizes(table)
    client = Client()
    client.force_login(seats[0].user)
    page = client.get(reverse("ledger:table_report", kwargs={"code": table.code})).content.decode()
    assert "shared by places (50/30/20 percent)" in page
    for seat in seats:
        row = page[page.index(f'data-seat="{seat.pk}"') :]
        row = row[: row.index("</tr>")]
        assert f'class="number place" data-label="Place">{places[seat.pk]}<' in row
        assert f"USD\u00a0{prizes[seat.pk][1]}" in row
    assert "Who pays whom" in page and "ended this game" not in page
    rows = list(
        csv.reader(
            io.StringIO(client.get(reverse("ledger:table_report_csv", kwargs={"code": table.code})).content.decode())
        )
    )
    assert rows[0] == ["Player", "Buy-ins", "Chips bought", "Chips at the end", "Net chips", "Place", "Prize",
                       "Bought for", "Net", "Currency"]  # fmt: skip
    by_name = {row[0]: row for row in rows[1:4]}
    for seat in seats:
        row = by_name[seat.display_name]
        assert (int(row[5]), Decimal(row[6])) == (places[seat.pk], prizes[seat.pk][1])
        assert Decimal(row[8]) == prizes[seat.pk][1] - Decimal("20.00")
    # The night counts in the home game's standings like any other: net = prize - paid.
    home = home_game_create(name="Friday", host=seats[0].user)
    home_game_add_table(home_game=home, table=table, by=seats[0].user)
    _nights, standings = home_game_results(home_game=home)
    assert {s.key: s.net_money for s in standings} == {
        f"user:{seat.user_id}": prizes[seat.pk][1] - Decimal("20.00") for seat in seats
    }


@pytest.mark.django_db
def test_the_report_says_the_host_ended_the_game(monkeypatch):
    from django.test import Client
    from django.urls import reverse

    repeatable_decks(monkeypatch, random.Random(3))
    table, seats = _money_table("65/35")
    _play(table, _passive, hands=3)
    end_game(table, seats[0].pk)
    client = Client()
    client.force_login(seats[1].user)
    page = client.get(reverse("ledger:table_report", kwargs={"code": table.code})).content.decode()
    assert "The host ended this game" in page
    history = client.get(reverse("table_history", kwargs={"code": table.code})).content.decode()
    assert "The host ended the game" in history
    first = next(seat for seat, place in _placings(table).items() if place == 1)
    assert f"prize USD\u00a0{_prizes(table)[first][1]}" in history


@pytest.mark.django_db
@pytest.mark.parametrize("first_id", [8, 98])
def test_a_tied_places_spare_cent_goes_to_the_lowest_seat_id_past_nine(first_id):
    """docs/ledger.md: the spare cents go to the largest dropped fractions, "ties to the lower
    exact share, then to the lowest seat id, the first to join", also when the ids have
    different numbers of digits (8, 9, 10; 98, 99, 100): compared as numbers, not as text."""
    from tests.ledger.conftest import make_table, make_user

    host = make_user("host")
    table = make_table(host, price="10.01", settings={"prizes": "places", "payouts": [50, 30, 20]})
    seats = []
    for number, seat_id in enumerate(range(first_id, first_id + 4), start=1):
        seat = Seat.objects.create(
            pk=seat_id,
            table=table,
            user=host if number == 1 else None,
            display_name=f"P{seat_id}",
            guest_token="" if number == 1 else f"guest-{seat_id}",
            number=number,
            status=Seat.Status.PLAYING,
        )
        ledger_record_buy_in(table=table, seat=seat, chips=1000, price=Decimal("10.01"), is_buy_back=False)
        seats.append(seat)
    # The last to join wins; the other three share second (they cover 30 + 20 percent of 40.04:
    # 6.67333... each, two cents dropped but one handed back: the first of them to join gets it).
    tied = seats[:3]
    places = {seat.pk: 2 for seat in tied} | {seats[3].pk: 1}
    ledger_record_prizes(table=table, places=places, payouts=[50, 30, 20])
    prizes = {seat_id: prize for seat_id, (_place, prize) in _prizes(table).items()}
    assert prizes == {
        first_id: Decimal("6.68"),
        first_id + 1: Decimal("6.67"),
        first_id + 2: Decimal("6.67"),
        first_id + 3: Decimal("20.02"),
    }
    assert sum(prizes.values()) == Decimal("40.04")
