"""A home game's whole life, as a hypothesis state machine (issue 36): every night's money is
settled exactly once, and every page says what its CSV says.

The host adds nights before and after people sit; friends (and a guest) play them and the
games end, Faras and hold'em, by chips and by places, at several prices and chip values; the
host corrects buy-ins, switches between paying night by night and once a season, closes
seasons, marks transfers paid and takes marks back, through the pages. After every step:

- each settled night's money is in exactly one settle-up: its own table's, or exactly one
  season's (a closed one, or the open one of a home game settled once a season); a night not
  settled is in none, and in no closed season;
- every night's nets are what ``docs/ledger.md`` says, computed here independently: exact
  results at the chip value, or prizes split by places, rounded by the largest-remainder rule
  (ties to the lower exact result, then to the lowest seat id) to the cent;
- every page's figures equal its CSV's: the home game's open season (nets, transfers, and the
  carried transfers with their season's currency), each closed season's, each night's report;
- the transfers shown settle every net shown exactly, each from a loser to a winner, and are
  as few as a brute-force search finds;
- nothing frozen changes: a closed season's nights, nets and transfers stay as they closed;
- ``ledger_check`` finds nothing.

Played through the ledger's services (buy-ins, cash-outs, prizes, corrections: the calls live
play makes; a game's end as ``game_end`` leaves the table); the host's choices through the
pages. Bounded by examples: ``DASHAIN_LIFE_EXAMPLES`` (default 20) and at most 10 steps each.
"""

from __future__ import annotations

import csv
import html
import io
import math
import os
import re
from decimal import Decimal
from fractions import Fraction

import pytest
from django.db import transaction
from django.test import Client
from django.urls import reverse
from django.utils import timezone
from hypothesis import HealthCheck, Phase, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, invariant, precondition, rule, run_state_machine_as_test

from homegames.checks import ledger_problems
from homegames.models import HomeGame, Season, SeasonPayment
from homegames.models import Night as NightRow
from homegames.selectors_seasons import season_closed, season_open
from homegames.services_members import home_game_add_table, home_game_create, home_game_join
from homegames.services_seasons import night_correct_buy_in
from ledger.models import LedgerEntry, TransferPaid
from ledger.selectors import ledger_report
from ledger.services import (
    LedgerError,
    ledger_record_buy_in,
    ledger_record_cash_out,
    ledger_record_prizes,
)
from tables.models import Seat, Table
from tests.ledger.conftest import make_table, make_user
from tests.ledger.test_settlement import brute_force_minimum

EXAMPLES = int(os.environ.get("DASHAIN_LIFE_EXAMPLES", "20"))
PEOPLE = ("asha", "bikash", "chandra", "dipa")  # asha hosts; all have accounts
GUEST = "Gita"  # no account: a guest, matched by name across nights
#: (price, chips a buy-in gives): a chip worth 1.001 cents, 0.333 cents, 0.749 cents, 11/7 cents,
#: nothing. Odd prices: a pool shared by places rarely splits evenly (spare cents to hand out).
STACKS = [("10.01", 1000), ("9.99", 3000), ("7.49", 1000), ("0.11", 7), ("0.00", 1000)]
PAYOUTS = [(100,), (65, 35), (50, 30, 20)]
CURRENCY = "NPR"


# --- the rules of docs/ledger.md, written out again (not the ledger's code) ------------------


def largest_remainder(exact: dict[int, Fraction], total: int) -> dict[int, int]:
    """Whole cents adding up to ``total``: floor each, then the spare cents one each to the
    largest dropped fractions; ties to the lower exact value, then to the lowest seat id."""
    floors = {seat: math.floor(value) for seat, value in exact.items()}
    order = sorted(exact, key=lambda seat: (-(exact[seat] - floors[seat]), exact[seat], seat))
    for seat in order[: total - sum(floors.values())]:
        floors[seat] += 1
    return floors


def expected_nets(night: Night) -> dict[int, int]:
    """Each seat's net in cents at an ended night, as docs/ledger.md defines it."""
    paid = {seat: stacks * night.price_cents for seat, stacks in night.stacks.items()}
    if night.places:
        pool = sum(paid.values())
        by_place = sorted(night.places, key=lambda seat: night.places[seat])
        exact: dict[int, Fraction] = {}
        start = 0
        while start < len(by_place):
            level = [seat for seat in by_place if night.places[seat] == night.places[by_place[start]]]
            covered = sum(night.payouts[start : start + len(level)])
            for seat in level:
                exact[seat] = Fraction(pool * covered, 100 * len(level))
            start += len(level)
        prizes = largest_remainder(exact, pool)
        return {seat: prizes[seat] - paid[seat] for seat in night.stacks}
    exact = {
        seat: Fraction(night.chips_end[seat] * night.price_cents, night.chips) - paid[seat] for seat in night.stacks
    }
    return largest_remainder(exact, 0)


def cents(text: str) -> int:
    """``"+8.50"``, ``"NPR -3.50"``, ``"0.00"`` -> cents."""
    found = re.search(r"([+-]?)(\d+)\.(\d\d)", text)
    assert found, text
    value = int(found.group(2)) * 100 + int(found.group(3))
    return -value if found.group(1) == "-" else value


class Night:
    """What the machine knows of one night, apart from the ledger."""

    def __init__(self, table: Table, *, kind: str, price: str, chips: int, payouts: tuple[int, ...]) -> None:
        self.table = table
        self.kind = kind  # "faras", "holdem_chips" or "holdem_places"
        self.price_cents = int(Decimal(price) * 100)
        self.chips = chips
        self.payouts = payouts
        self.seats: dict[int, Seat] = {}
        self.names: dict[int, str] = {}
        self.stacks: dict[int, int] = {}  # stacks bought, per seat
        self.chips_end: dict[int, int] = {}
        self.places: dict[int, int] = {}
        self.played = False
        self.ended = False
        self.nets: dict[int, int] | None = None  # cents, once ended


def page_people(section: str) -> dict[str, int]:
    """Names and nets of a season's people table on a page."""
    table = re.search(r'<table class="season-people.*?</table>', section, re.S)
    if table is None:
        return {}
    rows = re.findall(r'<th scope="row">(.*?)</th>.*?<td class="net number"[^>]*>(.*?)</td>', table.group(0), re.S)
    return {html.unescape(name): cents(html.unescape(net)) for name, net in rows}


def page_transfers(section: str, css: str = "season-transfers") -> list[tuple[str, str, int, str]]:
    """(from, to, cents, currency) of each transfer row of a table of transfers on a page."""
    table = re.search(rf'<table class="{css}.*?</table>', section, re.S)
    if table is None:
        return []
    lines = []
    for row in re.findall(r'<tr class="transfer.*?</tr>', table.group(0), re.S):
        cells = [html.unescape(cell) for cell in re.findall(r"<td[^>]*>(.*?)</td>", row, re.S)]
        amount = re.sub(r"<[^>]+>.*", "", cells[2]).strip()
        currency = amount.split("\u00a0")[0] if "\u00a0" in amount else ""
        lines.append((cells[0].strip(), cells[1].strip(), cents(amount), currency))
    return sorted(lines)


def csv_of(response) -> list[list[str]]:
    assert response.status_code == 200
    return list(csv.reader(io.StringIO(response.content.decode())))


def page_payments(section: str) -> list[tuple[str, str, int]]:
    """(from, to, cents) of each payment made during a season, on its page."""
    table = re.search(r'<table class="season-payments.*?</table>', section, re.S)
    if table is None:
        return []
    lines = []
    for row in re.findall(r'<tr class="payment.*?</tr>', table.group(0), re.S):
        cells = [
            html.unescape(re.sub(r"<[^>]+>", "", cell)).strip()
            for cell in re.findall(r"<td[^>]*>(.*?)</td>", row, re.S)
        ]
        lines.append((cells[0], cells[1], cents(cells[2])))
    return sorted(lines)


def csv_payments(rows: list[list[str]]) -> list[tuple[str, str, int]]:
    """The part "Paid during the season" of a season's CSV."""
    start = (
        rows.index(["From", "To", "Amount", "Currency", "Marked by", "As"]) + 1
        if rows.count(["Paid during the season"])
        else len(rows)
    )
    lines = []
    for row in rows[start:]:
        if not row:
            break
        lines.append((row[0], row[1], cents(row[2])))
    return sorted(lines)


def left_after(nets: dict[str, int], payments: list[tuple[str, str, int]]) -> dict[str, int]:
    """What each person is still owed or owes once the payments made during the season count."""
    left = dict(nets)
    for payer, payee, amount in payments:
        left[payer] += amount
        left[payee] -= amount
    assert sum(left.values()) == 0
    return {name: amount for name, amount in left.items() if amount}


def csv_people_and_transfers(rows: list[list[str]]) -> tuple[dict[str, int], list[tuple[str, str, int, str]]]:
    people: dict[str, int] = {}
    transfers = []
    part = "people"
    for row in rows[1:]:
        if not row:
            part = "after"
            continue
        if row[:2] == ["From", "To"]:
            part = "transfers" if row[4] == "Paid" else "payments"
            continue
        if row[:1] == ["Correction"]:
            part = "corrections"
            continue
        if part == "people":
            people[row[0]] = cents(row[2])
        elif part == "transfers":
            transfers.append((row[0], row[1], cents(row[2]), row[3]))
    return people, sorted(transfers)


def check_fewest(nets: dict[str, int], transfers: list[tuple[str, str, int, str]]) -> None:
    """The transfers settle every net exactly, each from a loser to a winner, and no fewer
    payments could (a brute-force search)."""
    left = dict(nets)
    for payer, payee, amount, _currency in transfers:
        assert amount > 0 and nets[payer] < 0 < nets[payee], (payer, payee, amount, nets)
        left[payer] += amount
        left[payee] -= amount
    assert set(left.values()) <= {0}, left
    assert len(transfers) == brute_force_minimum(list(nets.values())), (nets, transfers)


class HomeGameLife(RuleBasedStateMachine):
    def __init__(self) -> None:
        super().__init__()
        self._atomic = transaction.atomic()
        self._atomic.__enter__()  # every example starts from the same empty home game
        self.users = {name: make_user(name) for name in PEOPLE}
        self.host = self.users["asha"]
        self.home_game = home_game_create(name="Life", host=self.host)
        for name in PEOPLE[1:]:
            home_game_join(home_game=self.home_game, token=self.home_game.invite_token, user=self.users[name])
        self.client = Client()
        self.client.force_login(self.host)
        self.nights: list[Night] = []
        self.frozen: dict[int, tuple[list[int], dict[str, Decimal], list[tuple[str, str, Decimal]]]] = {}
        self.plays = 0

    def teardown(self) -> None:
        transaction.set_rollback(True)
        self._atomic.__exit__(None, None, None)

    # --- the host's and the players' moves ---------------------------------------------------

    @rule(
        kind=st.sampled_from(["faras", "holdem_chips", "holdem_places"]),
        stack=st.sampled_from(STACKS),
        payouts=st.sampled_from(PAYOUTS),
    )
    def add_a_night(self, kind, stack, payouts):
        """A table added to the home game before anyone sits (tonight's, opened early)."""
        price, chips = stack
        settings_ = {"host": {"currency": CURRENCY}}
        if kind != "faras":
            settings_ |= {"prizes": "places", "payouts": list(payouts)} if kind == "holdem_places" else {}
            settings_.setdefault("prizes", "chips")
        table = make_table(
            self.host,
            price=price,
            chips=chips,
            settings=settings_,
            game=Table.Game.FARAS if kind == "faras" else Table.Game.HOLDEM,
        )
        home_game_add_table(home_game=self.home_game, table=table, by=self.host)
        self.nights.append(Night(table, kind=kind, price=price, chips=chips, payouts=payouts))

    def _unplayed(self) -> list[Night]:
        return [night for night in self.nights if not night.played and not night.ended]

    @precondition(lambda self: any(not n.played and not n.ended for n in self.nights))
    @rule(data=st.data())
    def play(self, data):
        """People sit (the host, some friends, maybe the guest), buy in once or twice, play;
        the chips at the end are any split of the chips bought."""
        self._play(data.draw(st.sampled_from(self._unplayed())), data)

    @rule(
        kind=st.sampled_from(["faras", "holdem_chips", "holdem_places"]),
        stack=st.sampled_from(STACKS),
        payouts=st.sampled_from(PAYOUTS),
        data=st.data(),
    )
    def a_whole_night(self, kind, stack, payouts, data):
        """The usual night: the table added, played and the game ended, in one step."""
        self.add_a_night(kind, stack, payouts)
        self._play(self.nights[-1], data)
        self._end(self.nights[-1])

    def _play(self, night: Night, data) -> None:
        who = ["asha", *data.draw(st.lists(st.sampled_from([*PEOPLE[1:], GUEST]), min_size=1, max_size=3, unique=True))]
        # Each night's seat ids cross a power of ten (9, 10, 11; 99, 100, 101; ...): the
        # tie-break is the lowest id as a number ("10" sorts before "9" as text).
        self.plays += 1
        base = 10**self.plays - 2
        for number, name in enumerate(who, start=1):
            user = self.users.get(name)
            seat = Seat.objects.create(
                pk=base + number,
                table=night.table,
                user=user,
                display_name=name.capitalize() if user else name,
                guest_token="" if user else f"guest-{base + number}",
                number=number,
                status=Seat.Status.PLAYING,
            )
            night.seats[seat.pk], night.names[seat.pk] = seat, seat.display_name
            night.stacks[seat.pk] = data.draw(st.integers(1, 2))
            for bought in range(night.stacks[seat.pk]):
                ledger_record_buy_in(
                    table=night.table,
                    seat=seat,
                    chips=night.chips,
                    price=Decimal(night.price_cents) / 100,
                    is_buy_back=bought > 0,
                )
        total = sum(night.stacks.values()) * night.chips
        cuts = sorted(data.draw(st.lists(st.integers(0, total), min_size=len(who) - 1, max_size=len(who) - 1)))
        ends = [b - a for a, b in zip([0, *cuts], [*cuts, total], strict=True)]
        for seat_id, chips_end in zip(night.seats, ends, strict=True):
            night.chips_end[seat_id] = chips_end
            ledger_record_cash_out(table=night.table, seat=night.seats[seat_id], chips=chips_end)
        if night.kind == "holdem_places":
            # Book 001's placings: players level share a place and the next place skips (1, 1, 3).
            scores = {seat_id: data.draw(st.integers(0, 1)) for seat_id in night.seats}  # ties, often
            night.places = {
                seat_id: 1 + sum(1 for other in scores.values() if other > score) for seat_id, score in scores.items()
            }
            night.payouts = night.payouts[: len(who)] if len(night.payouts) <= len(who) else (100,)
        night.played = True

    @precondition(lambda self: any(not n.ended for n in self.nights))
    @rule(data=st.data())
    def end_the_game(self, data):
        """The game ends (played, or nobody ever sat): prizes recorded by places, as game_end does."""
        # A played night when there is one (a night ended unplayed is rarer at a real table).
        played = [n for n in self.nights if n.played and not n.ended]
        self._end(data.draw(st.sampled_from(played or [n for n in self.nights if not n.ended])))

    def _end(self, night: Night) -> None:
        if night.places:
            ledger_record_prizes(table=night.table, places=night.places, payouts=night.payouts)
        night.table.status, night.table.ended_at = Table.Status.ENDED, timezone.now()
        night.table.save(update_fields=["status", "ended_at"])
        night.ended = True
        night.nets = expected_nets(night) if night.played else {}
        self._check_night_page(night)

    @precondition(lambda self: any(n.ended and n.played and not n.places for n in self.nights))
    @rule(data=st.data())
    def correct_a_buy_in(self, data):
        """The host reverses a buy-in of an ended night by chips: refused for a closed season or a
        stack that was played; otherwise the record changes and no one's money does."""
        night = data.draw(st.sampled_from([n for n in self.nights if n.ended and n.played and not n.places]))
        entries = list(
            LedgerEntry.objects.filter(
                table=night.table, kind__in=(LedgerEntry.Kind.BUY_IN, LedgerEntry.Kind.BUY_BACK)
            ).order_by("pk")
        )
        entry = data.draw(st.sampled_from(entries))
        before = LedgerEntry.objects.filter(table=night.table).count()
        try:
            night_correct_buy_in(table=night.table, entry=entry, reason="counted twice", by=self.host)
        except LedgerError as error:
            closed = NightRow.objects.get(table=night.table).season_id is not None
            assert error.code in {"chips_played", "already_reversed"} | ({"season_closed"} if closed else set())
            assert LedgerEntry.objects.filter(table=night.table).count() == before
        else:
            assert NightRow.objects.get(table=night.table).season_id is None

    @rule(settle_by=st.sampled_from(HomeGame.SettleBy.values))
    def choose_how_to_settle(self, settle_by):
        self.client.post(
            reverse("ledger:home_game_settle_by", kwargs={"home_game_id": self.home_game.pk}), {"settle_by": settle_by}
        )
        self.home_game.refresh_from_db()
        if self.home_game.settle_by != settle_by:  # refused: the open season (or a night of it) was being paid
            open_tables = NightRow.objects.filter(home_game=self.home_game, season__isnull=True).values("table")
            open_payments = SeasonPayment.objects.filter(home_game=self.home_game, season__isnull=True)
            assert TransferPaid.objects.filter(table__in=open_tables).exists() or open_payments.exists()

    @precondition(lambda self: self.home_game.settle_by == HomeGame.SettleBy.SEASON)
    @rule(data=st.data(), undo=st.booleans())
    def pay_during_the_season(self, data, undo):
        """The host marks one of the open season's transfers paid (a payment during the season),
        or takes one of its payments back."""
        view = season_open(home_game=self.home_game)
        if undo and view.payments:
            payment = data.draw(st.sampled_from(view.payments))
            ids = {"home_game_id": self.home_game.pk, "payment_id": payment.pk}
            self.client.post(reverse("ledger:season_payment_undo", kwargs=ids))
            assert not SeasonPayment.objects.filter(pk=payment.pk).exists()
            return
        if not view.transfers:
            return
        transfer = data.draw(st.sampled_from(view.transfers))
        before = SeasonPayment.objects.filter(home_game=self.home_game).count()
        self.client.post(
            reverse("ledger:season_paid", kwargs={"home_game_id": self.home_game.pk}),
            {"payer": transfer.payer_key, "payee": transfer.payee_key, "amount": str(transfer.amount)},
        )
        assert SeasonPayment.objects.filter(home_game=self.home_game).count() == before + 1

    @rule()
    def close_the_season(self):
        view = season_open(home_game=self.home_game)
        settled = [result.night.table_id for result in view.nights]
        before = Season.objects.filter(home_game=self.home_game).count()
        self.client.post(reverse("ledger:season_close", kwargs={"home_game_id": self.home_game.pk}), {"confirm": "1"})
        seasons = Season.objects.filter(home_game=self.home_game)
        if not settled:
            assert seasons.count() == before  # empty_season: nothing written
            return
        season = seasons.get(number=before + 1)
        nights = sorted(season.nights.values_list("table_id", flat=True))
        assert nights == sorted(settled)
        assert all(n.ended for n in self.nights if n.table.pk in nights)
        closed = season_closed(season=season)
        self.frozen[season.number] = (
            nights,
            {person.key: person.net_money for person in closed.people},
            sorted((t.payer_key, t.payee_key, t.amount) for t in closed.transfers),
        )
        self._check_season_page(season.number)

    @precondition(lambda self: any(n.ended and n.played for n in self.nights))
    @rule(data=st.data(), paid=st.booleans())
    def mark_a_nights_transfer(self, data, paid):
        night = data.draw(st.sampled_from([n for n in self.nights if n.ended and n.played]))
        report = ledger_report(table=night.table)
        if not report.transfers:
            return
        transfer = data.draw(st.sampled_from(report.transfers))
        self.client.post(
            reverse("ledger:transfer_paid", kwargs={"code": night.table.code}),
            {
                "payer": transfer.payer_seat_id,
                "payee": transfer.payee_seat_id,
                "amount": str(transfer.amount),
                **({"paid": "1"} if paid else {}),
            },
        )
        self._check_night_page(night)

    @precondition(lambda self: bool(self.frozen))
    @rule(data=st.data(), paid=st.booleans())
    def mark_a_seasons_transfer(self, data, paid):
        transfers = list(Season.objects.filter(home_game=self.home_game).values_list("transfers", "number"))
        transfers = [(pk, number) for pk, number in transfers if pk is not None]
        if not transfers:
            return
        pk, number = data.draw(st.sampled_from(transfers))
        self.client.post(
            reverse("ledger:season_transfer_paid", kwargs={"home_game_id": self.home_game.pk, "transfer_id": pk}),
            {"paid": "1"} if paid else {},
        )
        self._check_season_page(number)

    # --- what must hold after every step -----------------------------------------------------

    @invariant()
    def every_nights_money_is_settled_once_and_every_page_is_its_csv(self):
        open_view = season_open(home_game=self.home_game)
        closed = {
            number: season_closed(season=Season.objects.get(home_game=self.home_game, number=number))
            for number in self.frozen
        }
        self.every_settled_night_is_in_exactly_one_settle_up(open_view)
        self.nothing_frozen_changes(closed)
        self.the_home_games_page_is_its_csv_and_its_transfers_the_fewest(open_view, closed)
        assert ledger_problems() == []

    def every_settled_night_is_in_exactly_one_settle_up(self, open_view):
        open_settled = {result.night.table_id for result in open_view.nights}
        seasons = {season.pk: season for season in Season.objects.filter(home_game=self.home_game)}
        marked = set(TransferPaid.objects.values_list("table_id", flat=True))
        for night in self.nights:
            row = NightRow.objects.get(table=night.table)
            report = ledger_report(table=night.table)
            if not night.ended:
                # Not settled: in no settle-up yet, and never in a closed season.
                assert row.season_id is None and night.table.pk not in open_settled
                continue
            assert {line.seat_id: int(line.net_money * 100) for line in report.players} == night.nets
            season = seasons.get(row.season_id) if row.season_id else None
            by_season = (season.settle_by if season else self.home_game.settle_by) == HomeGame.SettleBy.SEASON
            settle_ups = [
                not by_season,  # its own table's transfers
                season is not None and by_season,  # a closed season's frozen transfers
                season is None and by_season and night.table.pk in open_settled,  # the open season's
            ]
            assert settle_ups.count(True) == 1, (night.table.code, settle_ups)
            assert season is not None or night.table.pk in open_settled
            if by_season:
                assert night.table.pk not in marked  # never paid on its own as well

    def the_home_games_page_is_its_csv_and_its_transfers_the_fewest(self, view, closed):
        page = self.client.get(reverse("ledger:home_game_detail", kwargs={"home_game_id": self.home_game.pk}))
        text = page.content.decode()
        section = text.split('<section aria-labelledby="season-heading"', 1)[1].split("</section>", 1)[0]
        current, _, carried = section.partition("Still unpaid from earlier seasons")
        people = page_people(current)
        transfers = page_transfers(current)
        payments = page_payments(current)
        # The open season's nets are the sum of its settled nights' (independently computed).
        expected: dict[str, int] = {}
        for night in self.nights:
            if night.ended and night.table.pk in {r.night.table_id for r in view.nights}:
                for seat_id, net in (night.nets or {}).items():
                    name = night.names[seat_id]
                    expected[name] = expected.get(name, 0) + net
        assert people == expected
        if view.people:
            url = reverse("ledger:season_csv_open", kwargs={"home_game_id": self.home_game.pk})
            rows = csv_of(self.client.get(url))
            csv_people, csv_transfers = csv_people_and_transfers(rows)
            assert csv_people == people
            assert [t[:3] for t in csv_transfers] == [t[:3] for t in transfers]
            assert csv_payments(rows) == payments
        # What was paid during the season and the transfers left settle every net exactly once.
        if self.home_game.settle_by == HomeGame.SettleBy.SEASON and view.people:
            check_fewest(left_after(people, payments), transfers)
        else:
            assert transfers == [] and payments == []
        # Carried transfers: each unpaid one of a closed season, in that season's currency.
        unpaid = page_transfers(carried)
        frozen_unpaid = sorted(
            (t.payer_name, t.payee_name, int(t.amount * 100), t.currency)
            for season in closed.values()
            for t in season.transfers
            if not t.paid
        )
        assert unpaid == frozen_unpaid
        assert all(currency == CURRENCY for *_rest, currency in unpaid)

    def nothing_frozen_changes(self, closed):
        for number, (nights, nets, transfers) in self.frozen.items():
            season = closed[number]
            assert sorted(result.night.table_id for result in season.nights) == nights
            assert {person.key: person.net_money for person in season.people} == nets
            assert sorted((t.payer_key, t.payee_key, t.amount) for t in season.transfers) == transfers

    # --- the pages of one night, one season ---------------------------------------------------

    def _check_night_page(self, night: Night) -> None:
        """A night's report and its CSV: the same nets and transfers, the transfers the fewest."""
        report = ledger_report(table=night.table)
        text = self.client.get(reverse("ledger:table_report", kwargs={"code": night.table.code})).content.decode()
        rows = csv_of(self.client.get(reverse("ledger:table_report_csv", kwargs={"code": night.table.code})))
        if report.is_zero_value:
            return
        row = r'<tr data-seat="\d+">\s*<th scope="row">(.*?)</th>.*?<td class="net number"[^>]*>(.*?)</td>'
        nets_page = {html.unescape(name): cents(html.unescape(net)) for name, net in re.findall(row, text, re.S)}
        net_column = rows[0].index("Net")
        nets_csv = {row[0]: cents(row[net_column]) for row in rows[1 : 1 + len(report.players)]}
        assert nets_page == nets_csv == {night.names[s]: net for s, net in (night.nets or {}).items()}
        transfers_page = page_transfers(text, css="transfers")
        _people, transfers_csv = csv_people_and_transfers([rows[0], *rows[1 + len(report.players) :]])
        if transfers_page:
            assert [t[:3] for t in transfers_page] == [t[:3] for t in transfers_csv]
            check_fewest(nets_page, transfers_page)

    def _check_season_page(self, number: int) -> None:
        kwargs = {"home_game_id": self.home_game.pk, "number": number}
        text = self.client.get(reverse("ledger:season_detail", kwargs=kwargs)).content.decode()
        people = page_people(text)
        transfers = page_transfers(text)
        csv_people, csv_transfers = csv_people_and_transfers(
            csv_of(self.client.get(reverse("ledger:season_csv", kwargs=kwargs)))
        )
        rows = csv_of(self.client.get(reverse("ledger:season_csv", kwargs=kwargs)))
        payments = page_payments(text)
        assert people == csv_people
        assert transfers == csv_transfers
        assert payments == csv_payments(rows)
        assert all(currency == CURRENCY for *_rest, currency in transfers)
        if transfers or payments:
            check_fewest(left_after(people, payments), transfers)


@pytest.mark.django_db
def test_a_home_games_whole_life_settles_every_night_once():
    run_state_machine_as_test(
        HomeGameLife,
        settings=settings(
            max_examples=EXAMPLES,
            stateful_step_count=10,
            deadline=None,
            suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
            database=None,
            phases=[Phase.explicit, Phase.reuse, Phase.generate]
            if os.environ.get("DASHAIN_LIFE_NO_SHRINK")
            else list(Phase),
        ),
    )
