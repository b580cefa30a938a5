"""Issue 36's season replayed as it was found, through the pages and the table socket: a home
game of four nights (Faras, hold'em by chips, hold'em by places), a guest under two
spellings, tonight's table added before anyone sits, the season closed before the friends sit
down, tonight then played, last season's transfers carried over, and the home game switched to
paying night by night.

Every figure on the nights' pages, the home game's page, the seasons' pages and every CSV is
checked to the cent against the rules of docs/ledger.md worked out here from the chips the
scripted hands leave (``test_found_replayed.py`` has the helpers and the hold'em cases).
"""

from __future__ import annotations

import html
import re
from collections import defaultdict
from decimal import Decimal
from io import StringIO

import pytest
from asgiref.sync import async_to_sync
from django.core.management import CommandError, call_command
from django.test import Client

from accounts.models import User
from homegames.models import HomeGame, Season
from homegames.models import Night as NightRow
from ledger.models import LedgerEntry, TransferPaid
from tables.models import Seat, Table
from tests.ledger.test_found_replayed import (  # noqa: F401 (autouse fixtures)
    Expected,
    _cold_state_cache,
    _fast_scripted_clients,
    _hands_follow_at_once,
    cents,
    check_night,
    check_transfers,
    csv_rows,
    invite_link,
    join,
    nets_by_chips,
    open_table,
    orbits,
    page_transfers,
    person,
    places_by_chips,
    play,
    prizes_by_places,
    submit,
    text_of,
    whole,
)

pytestmark = pytest.mark.django_db(transaction=True)

CURRENCY = "NPR"
BOOT = 10


class Night:
    """One night as the test knows it: the table, who sat (in the order they joined) and the
    chips the scripted hands leave them with."""

    def __init__(self, host: Client, game: str, price: str, **choices: str) -> None:
        self.host = host
        self.price = int(Decimal(price) * 100)
        self.table = open_table(host, game, buy_in_price=price, currency=CURRENCY, **choices)
        self.link = invite_link(host, self.table)
        self.clients = [host]
        self.payouts = [int(p) for p in choices["payouts"].split("/")] if choices.get("prizes") == "places" else None
        self.expected: Expected | None = None
        self.ended: dict | None = None

    def sit(self, friends: list[Client | str]) -> None:
        """Friends with accounts (their clients) and guests (a name: a new browser) join."""
        for friend in friends:
            if isinstance(friend, str):
                client = Client()
                join(client, self.link, guest_name=friend)
            else:
                client = friend
                join(client, self.link)
            self.clients.append(client)

    @property
    def seat_ids(self) -> list[int]:
        return list(Seat.objects.filter(table=self.table).order_by("pk").values_list("pk", flat=True))

    def play_faras(self, winners: list[int]) -> None:
        """Every hand one player wins the boots: everyone else packs."""
        seats = self.seat_ids
        stacks = dict.fromkeys(seats, 1000)
        for index in winners:
            for seat in seats:
                stacks[seat] += BOOT * (len(seats) - 1) if seat == seats[index] else -BOOT
        hands = [seats[index] for index in winners]
        self._play(hands, stacks, ("chaal", "pack"))

    def play_holdem(self, winners: list[int]) -> None:
        seats = self.seat_ids
        hands, stacks = orbits(seats, [seats[index] for index in winners])
        self._play(hands, stacks, ("allin", "fold"))

    def _play(self, hands: list[int], stacks: dict[int, int], verbs: tuple[str, str]) -> None:
        host_sits = Seat.objects.filter(table=self.table, user__isnull=False, number__isnull=True).exists()
        self.ended = async_to_sync(play)(self.table, self.clients, hands, hand_verbs=verbs, host_sits=host_sits)
        names = dict(Seat.objects.filter(table=self.table).values_list("pk", "display_name"))
        if self.payouts:
            places = places_by_chips(stacks)
            prizes = prizes_by_places(self.price * len(stacks), self.payouts, places)
            nets = {seat: prizes[seat] - self.price for seat in stacks}
            self.expected = Expected(names, stacks, self.price, nets, places, prizes, CURRENCY)
        else:
            nets = nets_by_chips(stacks, price=self.price, chips=1000)
            self.expected = Expected(names, stacks, self.price, nets, currency=CURRENCY)

    def nets_by_person(self) -> dict[str, int]:
        """Nets by person: a guest is one person whatever the case of their name."""
        assert self.expected is not None
        return {self.expected.names[seat].lower(): net for seat, net in self.expected.nets.items()}

    def check(self, *, own_transfers: bool) -> None:
        assert self.expected is not None and self.ended is not None
        check_night(self.host, self.table, self.expected, self.ended, own_transfers=own_transfers)


def add_to_home_game(host: Client, home: str, table: Table) -> None:
    response = submit(host, f"{home}add-table/", table=str(table.pk))
    assert response.status_code == 302 and response["Location"] == home


def season_figures(text: str) -> tuple[dict[str, tuple[int, int]], list[tuple[str, str, int]]]:
    """A season's people (lower-cased name -> nights, net in cents) and transfers on a page."""
    people = {}
    table = re.search(r'<table class="season-people.*?</table>', text, re.S)
    for row in re.findall(r"<tr>\s*<th scope=\"row\">.*?</tr>", table.group(0) if table else "", re.S):
        name = text_of(re.search(r'<th scope="row">(.*?)</th>', row, re.S).group(1))
        cells = dict(
            (label, text_of(cell))
            for label, cell in re.findall(r'<td[^>]*data-label="([^"]+)"[^>]*>(.*?)</td>', row, re.S)
        )
        assert cells["Net"].startswith(CURRENCY)
        people[name.lower()] = (int(cells["Nights"]), cents(cells["Net"]))
    return people, page_transfers(text, "season-transfers")


def season_csv_figures(rows: list[list[str]]) -> tuple[dict[str, tuple[int, int]], list[tuple[str, str, int]]]:
    assert rows[0] == ["Player", "Nights", "Net", "Net chips", "Currency"]
    people, transfers, part = {}, [], "people"
    for row in rows[1:]:
        if not row:
            part = "after"
        elif row == ["From", "To", "Amount", "Currency", "Paid", "Marked by"]:
            part = "transfers"
        elif part == "people":
            assert row[4] == CURRENCY
            people[row[0].lower()] = (int(row[1]), cents(row[2]))
        elif part == "transfers":
            assert row[3] == CURRENCY
            transfers.append((row[0], row[1], cents(row[2])))
    return people, sorted(transfers)


def expected_people(nights: list[Night]) -> dict[str, tuple[int, int]]:
    totals: dict[str, list[int]] = defaultdict(lambda: [0, 0])
    for night in nights:
        for name, net in night.nets_by_person().items():
            totals[name][0] += 1
            totals[name][1] += net
    assert sum(net for _nights, net in totals.values()) == 0  # no cent made or lost by netting
    return {name: (count, net) for name, (count, net) in totals.items()}


def check_season(host: Client, page: str, csv_url: str, nights: list[Night], *, by_season: bool):
    """A season's page and CSV: each person's nets are the sum of their nights'; the transfers
    (only when paid once a season) settle them exactly and are the fewest."""
    text = host.get(page).content.decode()
    if "Still unpaid from earlier seasons" in text:
        text = text.split("Still unpaid from earlier seasons")[0]
    people, transfers = season_figures(text)
    assert people == expected_people(nights)
    csv_people, csv_transfers = season_csv_figures(csv_rows(host.get(csv_url)))
    assert csv_people == people
    assert csv_transfers == transfers
    if by_season:
        check_transfers(
            {name: net for name, (_n, net) in people.items()}, [(a.lower(), b.lower(), c) for a, b, c in transfers]
        )
    else:
        assert transfers == [] and "The nights are paid one by one" in text
    return people, transfers


def check_standings(host: Client, home: str, nights: list[Night]) -> None:
    """The standings on the home game's page and in its CSV, over every settled night."""
    expected: dict[str, dict[str, int]] = defaultdict(lambda: {"nights": 0, "net": 0, "chips": 0, "best": 0})
    for night in nights:
        assert night.expected is not None
        for seat, net in night.expected.nets.items():
            person_ = expected[night.expected.names[seat].lower()]
            person_["nights"] += 1
            person_["net"] += net
            person_["chips"] += night.expected.stacks[seat] - 1000
            person_["best"] = max(person_["best"], net)
    text = host.get(home).content.decode()
    standings = re.search(r'<table class="standings.*?</table>', text, re.S).group(0)
    shown = {}
    for row in re.findall(r"<tr>\s*<th scope=\"row\">.*?</tr>", standings, re.S):
        name = text_of(re.search(r'<th scope="row">(.*?)</th>', row, re.S).group(1)).lower()
        cells = dict(
            (label, text_of(cell))
            for label, cell in re.findall(r'<td[^>]*data-label="([^"]+)"[^>]*>(.*?)</td>', row, re.S)
        )
        best = cells["Biggest win"]
        shown[name] = {
            "nights": int(cells["Nights"]),
            "net": cents(cells["Net"]),
            "chips": whole(cells["Net chips"]),
            "best": 0 if best == "\u2013" else cents(best),
        }
    assert shown == expected
    # The chart's description and legend: each person's final running net, as the standings.
    chart = re.search(r'<desc id="chart-desc">(.*?)</desc>', text, re.S).group(1)
    finals = dict(part.rsplit(": ", 1) for part in html.unescape(chart).split("; "))
    assert {name.lower(): cents(net) for name, net in finals.items()} == {n: p["net"] for n, p in expected.items()}
    legend = re.findall(r'</span>([^<]*) <span class="chart-legend-net">([^<]*)</span>', text)
    assert {html.unescape(name).lower(): cents(net) for name, net in legend} == {
        n: p["net"] for n, p in expected.items()
    }
    # Each night's card: every player's net that night.
    section = text.split('<h2 id="nights-heading">')[1]
    for night in nights:
        assert night.expected is not None
        card = re.search(
            rf'<article class="card night">\s*<h3><a href="/ledger/tables/{night.table.code}/">.*?</article>',
            section,
            re.S,
        )
        items = [text_of(item) for item in re.findall(r"<li>(.*?)</li>", card.group(0), re.S)]
        assert {item.rsplit(":", 1)[0].lower(): cents(item.rsplit(":", 1)[1]) for item in items} == {
            night.expected.names[seat].lower(): net for seat, net in night.expected.nets.items()
        }
    rows = csv_rows(host.get(f"{home}standings.csv"))
    assert rows[0] == ["Player", "Nights", "Net", "Net chips", "Biggest win", "Biggest win in chips"]
    in_csv = {}
    for row in rows[1 : rows.index([])]:
        in_csv[row[0].lower()] = {
            "nights": int(row[1]),
            "net": cents(row[2]),
            "chips": int(row[3]),
            "best": cents(row[4]),
        }
    assert in_csv == expected
    # Each night's rows: every player's chips and net, in the night's currency.
    night_rows = rows[rows.index([]) + 2 :]
    for night in nights:
        assert night.expected is not None
        mine = {row[2]: row for row in night_rows if row[1] == night.table.code}
        assert {name.lower() for name in mine} == {name.lower() for name in night.expected.names.values()}
        for seat, name in night.expected.names.items():
            row = mine[name]
            assert int(row[4]) == night.expected.stacks[seat]
            assert (cents(row[6]), row[7]) == (night.expected.nets[seat], CURRENCY)


def ledger_check_finds_nothing() -> None:
    out = StringIO()
    call_command("ledger_check", stdout=out)
    assert "every night is settled once" in out.getvalue()


def test_a_season_of_four_nights_tonight_added_before_anyone_sits_closed_carried_and_paid_night_by_night():
    asha = person("asha")
    asha_user = User.objects.get(username="asha")
    bikash, chandra = person("bikash"), person("chandra")
    response = submit(asha, "/ledger/home-games/new/", name="Friday Faras")
    home = response["Location"]
    assert re.fullmatch(r"/ledger/home-games/\d+/", home)
    home_game = HomeGame.objects.get(pk=int(home.split("/")[-2]))
    invite = re.search(r'<input id="invite-link"[^>]*value="([^"]+)"', asha.get(home).content.decode()).group(1)
    for friend, email in ((bikash, "bikash@example.com"), (chandra, "chandra@example.com")):
        submit(friend, invite.replace("http://testserver", ""), email=email)
    assert home_game.members.count() == 3
    submit(asha, home, action=f"{home}settle-by/", settle_by="season")
    home_game.refresh_from_db()
    assert home_game.settle_by == HomeGame.SettleBy.SEASON

    # Night 1, Faras: a guest, Gita. Bikash wins three hands of five, Gita one, Asha one.
    faras = Night(asha, "faras", "10.00", boot=str(BOOT), buy_in_chips="1000")
    faras.sit([bikash, chandra, "Gita"])
    faras.play_faras([1, 3, 1, 0, 1])
    # Night 2, hold'em by chips at 9.99: Gita again, spelled "gita"; Chandra wins two orbits.
    by_chips = Night(asha, "holdem", "9.99", prizes="chips", seats="3", blind_speed="20")
    by_chips.sit([chandra, "gita"])
    by_chips.play_holdem([1, 1, 2])
    # Night 3, hold'em by places 65/35 at 10.01: Asha wins an orbit, Bikash and Chandra share
    # second (17.5% each: 5.25525, the one cent left over to Bikash, who joined first).
    by_places = Night(asha, "holdem", "10.01", prizes="places", payouts="65/35", seats="3", blind_speed="20")
    by_places.sit([bikash, chandra])
    by_places.play_holdem([0])
    assert by_places.expected.prizes == dict(zip(by_places.seat_ids, [1952, 526, 525], strict=True))
    season_1 = [faras, by_chips, by_places]
    for night in season_1:
        add_to_home_game(asha, home, night.table)
        night.check(own_transfers=False)
        assert (
            "This night is paid with season 1 of its home game"
            in asha.get(f"/ledger/tables/{night.table.code}/").content.decode()
        )

    # Tonight's table, hold'em by chips at 7.49, added before anyone sits; the host closes the
    # season before the friends sit down.
    tonight = Night(asha, "holdem", "7.49", prizes="chips", seats="3", blind_speed="20")
    add_to_home_game(asha, home, tonight.table)
    page = asha.get(home).content.decode()
    assert "One night is still being played" in page
    open_people, open_transfers = check_season(asha, home, f"{home}season.csv", season_1, by_season=True)
    asking = submit(asha, home, action=f"{home}season/close/")
    assert asking.status_code == 200 and "Close the season?" in asking.content.decode()
    closed = asha.post(f"{home}season/close/", {"confirm": "1"})
    assert closed.status_code == 302 and closed["Location"] == f"{home}seasons/1/"
    season = Season.objects.get(home_game=home_game, number=1)
    assert sorted(season.nights.values_list("table_id", flat=True)) == sorted(n.table.pk for n in season_1)
    frozen = check_season(asha, f"{home}seasons/1/", f"{home}seasons/1/season.csv", season_1, by_season=True)
    assert frozen == (open_people, open_transfers)  # closing froze what the open season showed
    # A night of the closed season can no longer be corrected: the form is refused, nothing written.
    entries = LedgerEntry.objects.count()
    bikash_buy_in = LedgerEntry.objects.get(table=faras.table, kind="buy_in", player_name__iexact="bikash")
    page = f"/ledger/tables/{faras.table.code}/correct/"
    refused = submit(asha, page, where={"entry": str(bikash_buy_in.pk)}, reason="counted twice")
    assert refused.status_code == 200 and "This night&#x27;s season is closed" in refused.content.decode()
    assert LedgerEntry.objects.count() == entries

    # Now tonight is played: Bikash wins an orbit; Asha and Gita, level at 970, lose 22.47 cents
    # each exactly: the spare cent to the lower seat id, the host's.
    tonight.sit([bikash, "GITA"])
    tonight.play_holdem([1])
    assert tonight.expected.nets == dict(zip(tonight.seat_ids, [-22, 45, -23], strict=True))
    tonight.check(own_transfers=False)
    report = asha.get(f"/ledger/tables/{tonight.table.code}/").content.decode()
    assert "This night is paid with season 2 of its home game" in report
    # Season 1 is as it closed; season 2 counts tonight alone.
    assert check_season(asha, f"{home}seasons/1/", f"{home}seasons/1/season.csv", season_1, by_season=True) == frozen
    check_season(asha, home, f"{home}season.csv", [tonight], by_season=True)

    # Carried over: season 1's unpaid transfers on the home game's page, in NPR; one marked paid
    # there leaves the list and shows paid on season 1's page.
    carried = asha.get(home).content.decode().split("Still unpaid from earlier seasons")[1]
    assert page_transfers(carried, "season-transfers") == frozen[1]
    assert all(f"{CURRENCY}\u00a0" in row for row in re.findall(r'<tr class="transfer.*?</tr>', carried, re.S))
    first = season.transfers.order_by("pk").first()
    submit(asha, home, action=f"{home}season-transfers/{first.pk}/paid/")
    carried = asha.get(home).content.decode().split("Still unpaid from earlier seasons")[1]
    left = [t for t in frozen[1] if (t[0], t[1]) != (first.payer_name, first.payee_name)]
    assert page_transfers(carried, "season-transfers") == left
    rows = csv_rows(asha.get(f"{home}seasons/1/season.csv"))
    marks = {(row[0], row[1]): row[4:] for row in rows if len(row) == 6 and row[4] in ("yes", "no")}
    # Who marked it, as the page names them ("Paid (marked by asha)": her account's table name).
    assert "Paid (marked by asha)" in asha.get(f"{home}seasons/1/").content.decode()
    assert marks == {
        (t[0], t[1]): ["yes", "asha"] if (t[0], t[1]) == (first.payer_name, first.payee_name) else ["no", ""]
        for t in frozen[1]
    }

    # Paid night by night from now on: the open season lists no payments, on its page or in its
    # CSV; tonight's own page lists its transfers, and the host marks one paid there.
    submit(asha, home, action=f"{home}settle-by/", settle_by="night")
    check_season(asha, home, f"{home}season.csv", [tonight], by_season=False)
    tonight.check(own_transfers=True)
    transfers = page_transfers(asha.get(f"/ledger/tables/{tonight.table.code}/").content.decode(), "transfers")
    seat_of = {name: seat for seat, name in tonight.expected.names.items()}
    payer, payee, amount = transfers[0]
    submit(
        asha,
        f"/ledger/tables/{tonight.table.code}/",
        action=f"/ledger/tables/{tonight.table.code}/paid/",
        where={"payer": str(seat_of[payer]), "payee": str(seat_of[payee])},
    )
    rows = csv_rows(asha.get(f"/ledger/tables/{tonight.table.code}/settlement.csv"))
    assert [row for row in rows if row[:2] == [payer, payee]] == [
        [payer, payee, f"{Decimal(amount) / 100:.2f}", CURRENCY, "yes", "asha"]
    ]
    assert "Paid (marked by asha, the host)" in asha.get(f"/ledger/tables/{tonight.table.code}/").content.decode()

    # The standings over all four nights, and nothing settled twice or nowhere.
    check_standings(asha, home, [*season_1, tonight])
    ledger_check_finds_nothing()
    assert Table.objects.filter(status=Table.Status.ENDED).count() == 4

    # A night of season 1 double-counted on purpose (a paid mark on its own table, written below
    # the services, which refuse it): ledger_check names that night and exits with status 1.
    seats = {seat.display_name.lower(): seat for seat in Seat.objects.filter(table=faras.table)}
    TransferPaid.objects.create(
        table=faras.table,
        payer_seat=seats["chandra"],
        payee_seat=seats["bikash"],
        payer_name=seats["chandra"].display_name,
        payee_name=seats["bikash"].display_name,
        amount=Decimal("0.50"),
        marked_by=asha_user,
    )
    out = StringIO()
    with pytest.raises(CommandError) as found:
        call_command("ledger_check", stdout=out)
    assert found.value.returncode == 1
    night = NightRow.objects.get(table=faras.table)
    assert out.getvalue().splitlines() == [
        f"settled_twice: night {night.pk} (table {faras.table.code}) of home game {home_game.pk} (Friday Faras) "
        "is paid with season 1 and has transfers marked paid on its own too."
    ]
