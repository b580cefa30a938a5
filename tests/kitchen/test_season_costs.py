"""The kitchen nights' shared costs in the home game's season (docs/kitchen-table.md, "Into the
season"): a season of an online night, a kitchen cash night with a pizza paid by one and split
among five, and a kitchen tournament with drinks shared by shares. Every figure is worked out
here from the docs' formulas (a night's net = chips result - share of costs + paid for costs;
a cost split to the cent by the largest remainder, ties to the smaller share, then to the
first to join; prizes 50/30/20 of the pool), never by calling the code under test; the pages
and CSVs are read as a person would.
"""

from __future__ import annotations

import csv
import html
import re
from collections import defaultdict
from decimal import Decimal
from fractions import Fraction
from io import StringIO

import pytest
from django.urls import reverse
from django.utils import timezone

from homegames.checks import ledger_problems
from homegames.models import HomeGame
from homegames.selectors_seasons import season_open
from homegames.services_members import home_game_add_table, home_game_create, seat_claim_answer, seat_claim_make
from homegames.services_seasons import home_game_set_settle_by, season_close, season_transfer_mark_paid
from kitchen.services import kitchen_buy_in, kitchen_cash_out, kitchen_cost_add, kitchen_settle
from kitchen.tournament import kitchen_clock_start, kitchen_eliminate
from ledger.models import LedgerEntry, SharedCost
from ledger.services import ledger_record_buy_in, ledger_record_cash_out
from tables.models import Event, Seat, Table
from tables.services import ServiceError
from tests.kitchen.conftest import add_by_name, host_seat, join_as, make_user, open_night
from tests.kitchen.test_tournament import at, open_tournament
from tests.ledger.conftest import make_seat, make_table
from tests.ledger.test_settlement import brute_force_minimum

PRICE = 1000  # every night: 1,000 chips for 10.00, so a chip is a cent


def split(total: int, weights: list[tuple[str, int]]) -> dict[str, int]:
    """``total`` cents by ``weights`` (name, shares), in the order the people joined: each exact
    share floored, the cents left one each to the largest dropped fractions, ties to the smaller
    exact share, then to the first to join (docs/kitchen-table.md, "Shared costs")."""
    whole = sum(count for _name, count in weights)
    exact = {name: Fraction(total * count, whole) for name, count in weights}
    shares = {name: int(value) for name, value in exact.items()}
    order = sorted(
        range(len(weights)),
        key=lambda i: (-(exact[weights[i][0]] - shares[weights[i][0]]), exact[weights[i][0]], i),
    )
    for i in order[: total - sum(shares.values())]:
        shares[weights[i][0]] += 1
    return shares


def night_nets(chips: dict[str, int], costs: list[tuple[str, int, dict[str, int]]]) -> dict[str, int]:
    """A night's nets in cents: chips result - share of the costs + paid for them."""
    nets = dict(chips)
    for payer, amount, shares in costs:
        nets[payer] = nets.get(payer, 0) + amount
        for name, cents in shares.items():
            nets[name] = nets.get(name, 0) - cents
    assert sum(nets.values()) == 0
    return nets


def cents(text: str) -> int:
    return int(Decimal(text.replace(",", "").replace("+", "")) * 100)


def text_of(fragment: str) -> str:
    return html.unescape(re.sub(r"<[^>]+>", "", fragment)).strip()


def table_rows(page: str, css_class: str) -> dict[str, dict[str, str]]:
    """The rows of the page's table of ``css_class``: the name -> {column label: text}."""
    found = re.search(rf'<table class="{css_class}.*?</table>', page, re.S)
    assert found, css_class
    rows = {}
    for row in re.findall(r'<tr>\s*<th scope="row">.*?</tr>', found.group(0), re.S):
        name = text_of(re.search(r'<th scope="row">(.*?)</th>', row, re.S).group(1))
        rows[name] = {
            label: text_of(cell)
            for label, cell in re.findall(r'<td[^>]*data-label="([^"]+)"[^>]*>(.*?)</td>', row, re.S)
        }
    return rows


def csv_rows(response) -> list[list[str]]:
    assert response.status_code == 200
    return list(csv.reader(StringIO(response.content.decode())))


def online_night(host, users) -> tuple[Table, dict[str, int]]:
    """Asha, Bikash and Chandra (accounts) and Esha (a guest) buy 1,000 chips each and end with
    1,350, 700, 1,200 and 750."""
    table = make_table(host)
    ends = {"Asha": 1350, "Bikash": 700, "Chandra": 1200, "Esha": 750}
    seats = {name: make_seat(table, users.get(name), name, number) for number, name in enumerate(ends, start=1)}
    for seat in seats.values():
        ledger_record_buy_in(table=table, seat=seat, chips=1000, price=Decimal("10.00"), is_buy_back=False)
    for name, seat in seats.items():
        ledger_record_cash_out(table=table, seat=seat, chips=ends[name])
    Table.objects.filter(pk=table.pk).update(status=Table.Status.ENDED, ended_at=timezone.now())
    return table, {name: end - 1000 for name, end in ends.items()}  # a chip is a cent


def kitchen_cash_night(host, users) -> tuple[Table, dict[str, int], list]:
    """Six people: Asha hosts, Bikash, Chandra and Dipa join by the link, Esha and Farid are
    added by name; one stack each and a re-buy for Bikash (7,000 chips). Chandra pays a 25.03
    pizza shared by five (not Farid); they hand back 1,500, 800, 2,100, 1,000, 600, 1,000."""
    table = open_night(host, currency="")
    asha = host_seat(table)
    seats = {"Asha": asha}
    for name in ("Bikash", "Chandra", "Dipa"):
        seats[name] = join_as(table, users[name])
    for name in ("Asha", "Bikash", "Chandra", "Dipa", "Bikash"):
        kitchen_buy_in(table_id=table.pk, seat_id=asha.pk, player_seat_id=seats[name].pk)
    for name in ("Esha", "Farid"):
        seats[name] = add_by_name(table, name)
    sharers = ["Asha", "Bikash", "Chandra", "Dipa", "Esha"]
    kitchen_cost_add(
        table_id=table.pk,
        seat_id=asha.pk,
        paid_by=seats["Chandra"].pk,
        amount="25.03",
        what="Pizza",
        shares={seats[name].pk: 1 for name in sharers},
    )
    back = {"Asha": 1500, "Bikash": 800, "Chandra": 2100, "Dipa": 1000, "Esha": 600, "Farid": 1000}
    for name, chips in back.items():
        kitchen_cash_out(table_id=table.pk, seat_id=asha.pk, player_seat_id=seats[name].pk, chips=chips)
    kitchen_settle(table_id=table.pk, seat_id=asha.pk)
    bought = {"Asha": 1000, "Bikash": 2000, "Chandra": 1000, "Dipa": 1000, "Esha": 1000, "Farid": 1000}
    chips = {name: back[name] - bought[name] for name in back}
    # Joined in this order (their seats' ids): Asha, Bikash, Chandra, Dipa, Esha.
    costs = [("Chandra", 2503, split(2503, [(name, 1) for name in sharers]))]
    return Table.objects.get(pk=table.pk), chips, costs


def kitchen_tournament(host, users) -> tuple[Table, dict[str, int], list]:
    """Asha, Bikash, Dipa and Farid (added by name) buy in at 10.00 (pool 40.00); Chandra comes
    for the drinks only. Dipa pays 9.01 of drinks shared Bikash 2, Chandra 1, Farid 1. Farid
    goes out fourth, Bikash third, Dipa second: 50/30/20 is 20.00, 12.00, 8.00."""
    table = open_tournament(host, rebuy_levels=1)
    asha = host_seat(table)
    seats = {"Asha": asha, "Bikash": join_as(table, users["Bikash"]), "Dipa": join_as(table, users["Dipa"])}
    for name in ("Asha", "Bikash", "Dipa"):
        kitchen_buy_in(table_id=table.pk, seat_id=asha.pk, player_seat_id=seats[name].pk)
    seats["Chandra"] = join_as(table, users["Chandra"])
    seats["Farid"] = add_by_name(table, "Farid")
    weights = [("Bikash", 2), ("Chandra", 1), ("Farid", 1)]  # in the order they joined
    kitchen_cost_add(
        table_id=table.pk,
        seat_id=asha.pk,
        paid_by=seats["Dipa"].pk,
        amount="9.01",
        what="Drinks",
        shares={seats[name].pk: count for name, count in weights},
    )
    with at(0):
        kitchen_clock_start(table_id=table.pk, seat_id=asha.pk)
    with at(60):
        for name in ("Farid", "Bikash", "Dipa"):
            kitchen_eliminate(table_id=table.pk, seat_id=asha.pk, player_seat_ids=[seats[name].pk])
    pool = 4 * 1000
    prizes = {"Asha": pool * 50 // 100, "Dipa": pool * 30 // 100, "Bikash": pool * 20 // 100, "Farid": 0}
    chips = {name: prize - 1000 for name, prize in prizes.items()}
    return Table.objects.get(pk=table.pk), chips, [("Dipa", 901, split(901, weights))]


@pytest.fixture
def users(db):
    return {name: make_user(name.lower()) for name in ("Asha", "Bikash", "Chandra", "Dipa")}


@pytest.fixture
def season(users):
    """The three nights in a home game paid once a season, with each night's nets worked out."""
    host = users["Asha"]
    home_game = home_game_create(name="Fridays", host=host, members=[users[n] for n in ("Bikash", "Chandra", "Dipa")])
    home_game = home_game_set_settle_by(home_game=home_game, settle_by="season", by=host)
    online, online_chips = online_night(host, users)
    cash, cash_chips, cash_costs = kitchen_cash_night(host, users)
    tournament, tournament_chips, tournament_costs = kitchen_tournament(host, users)
    for table in (online, cash, tournament):
        home_game_add_table(home_game=home_game, table=table, by=host)
    nights = {
        online: (online_chips, []),
        cash: (cash_chips, cash_costs),
        tournament: (tournament_chips, tournament_costs),
    }
    return home_game, nights


def expected_people(nights) -> dict[str, dict[str, int]]:
    """Each person's nights, chips result, share of costs, paid for costs and net, summed over
    the nights, in cents."""
    people: dict[str, dict[str, int]] = defaultdict(
        lambda: dict.fromkeys(("nights", "chips", "share", "paid", "net"), 0)
    )
    for chips, costs in nights.values():
        here = set(chips)
        for name, result in chips.items():
            people[name]["chips"] += result
        for payer, amount, shares in costs:
            people[payer]["paid"] += amount
            here.add(payer)
            for name, share in shares.items():
                people[name]["share"] += share
                here.add(name)
        for name, net in night_nets(chips, costs).items():
            people[name]["net"] += net
        for name in here:
            people[name]["nights"] += 1
    assert sum(person["net"] for person in people.values()) == 0
    return dict(people)


def page_people(page: str) -> dict[str, dict[str, int]]:
    return {
        name: {
            "nights": int(cells["Nights"]),
            "chips": cents(cells["Chips"]),
            "share": cents(cells["Share of costs"]),
            "paid": cents(cells["Paid for costs"]),
            "net": cents(cells["Net"]),
        }
        for name, cells in table_rows(page, "season-people").items()
    }


def page_transfers(page: str) -> list[tuple[str, str, int]]:
    found = re.search(r'<table class="season-transfers.*?</table>', page, re.S)
    rows = re.findall(r'<tr class="transfer.*?</tr>', found.group(0), re.S) if found else []
    transfers = []
    for row in rows:
        cells = {
            label: text_of(cell)
            for label, cell in re.findall(r'<td[^>]*data-label="([^"]+)"[^>]*>(.*?)</td>', row, re.S)
        }
        transfers.append((cells["From"], cells["To"], cents(cells["Amount"].split()[0])))
    return sorted(transfers)


def csv_season(rows: list[list[str]]) -> tuple[dict[str, dict[str, int]], list[tuple[str, str, int]], list[list[str]]]:
    """The season CSV's people, transfers and cost rows."""
    assert rows[0] == ["Player", "Nights", "Chips", "Share of costs", "Paid for costs", "Net", "Net chips", "Currency"]
    people, transfers, costs, part = {}, [], [], "people"
    for row in rows[1:]:
        if not row:
            part = ""
        elif row[:3] == ["Night", "Table", "Cost"]:
            part = "costs"
        elif row[:2] == ["From", "To"]:
            part = "transfers"
        elif row[0] == "Correction":
            part = ""
        elif part == "people":
            people[row[0]] = {
                "nights": int(row[1]),
                "chips": cents(row[2]),
                "share": cents(row[3]),
                "paid": cents(row[4]),
                "net": cents(row[5]),
            }
        elif part == "costs":
            costs.append(row)
        elif part == "transfers":
            transfers.append((row[0], row[1], cents(row[2])))
    return people, sorted(transfers), costs


def check_transfers(nets: dict[str, int], transfers: list[tuple[str, str, int]]) -> None:
    """The transfers settle every net exactly, each from a loser to a winner, and are as few
    as an exhaustive search finds."""
    left = dict(nets)
    for payer, payee, amount in transfers:
        assert amount > 0 and nets[payer] < 0 < nets[payee]
        left[payer] += amount
        left[payee] -= amount
    assert set(left.values()) == {0}
    assert len(transfers) == brute_force_minimum(list(nets.values()))


def expected_cost_rows(season_nights) -> list[list[str]]:
    rows = []
    for table, (_chips, costs) in season_nights.items():
        what = {"Chandra": "Pizza", "Dipa": "Drinks"}
        for payer, amount, shares in costs:
            for name, share in shares.items():
                rows.append(
                    [
                        table.created_at.date().isoformat(),
                        table.code,
                        what[payer],
                        f"{amount / 100:.2f}",
                        payer,
                        name,
                        f"{share / 100:.2f}",
                        "",
                    ]
                )
    return sorted(rows)


def test_each_persons_season_net_is_the_sum_of_the_night_pages_nets_costs_included(client, users, season):
    home_game, nights = season
    client.force_login(users["Asha"])
    # Each kitchen night's page shows the nets the docs' formula gives, costs apart.
    for table, (chips, costs) in nights.items():
        if not costs:
            continue
        page = client.get(reverse("kitchen:night", kwargs={"code": table.code})).content.decode()
        shown = {name: cents(cells["Net"]) for name, cells in table_rows(page, "kitchen-settle").items()}
        assert shown == night_nets(chips, costs)
    expected = expected_people(nights)
    # Asha +3.50 -0.01 +10.00; Chandra +2.00 +31.02 -2.25 (the pizza's payer, a drinks sharer only).
    assert expected["Asha"]["net"] == 1349 and expected["Chandra"]["net"] == 3077
    home = client.get(reverse("ledger:home_game_detail", kwargs={"home_game_id": home_game.pk})).content.decode()
    assert page_people(home) == expected
    transfers = page_transfers(home)
    check_transfers({name: person["net"] for name, person in expected.items()}, transfers)
    assert "Pizza: 25.03, paid by Chandra." in home and "Drinks: 9.01, paid by Dipa." in home

    # The standings stay the chips' results (a cost is no game result).
    standings = csv_rows(client.get(reverse("ledger:home_game_csv", kwargs={"home_game_id": home_game.pk})))
    chips_only = {row[0]: cents(row[2]) for row in standings[1 : standings.index([])]}
    assert chips_only == {name: person["chips"] for name, person in expected.items()}
    assert chips_only["Chandra"] == 200 + 1100 != expected["Chandra"]["net"]

    # The season's CSV is its page, to the cent, with the costs apart (a row per sharer).
    rows = csv_rows(client.get(reverse("ledger:season_csv_open", kwargs={"home_game_id": home_game.pk})))
    csv_people, csv_transfers, cost_rows = csv_season(rows)
    assert csv_people == expected and csv_transfers == transfers
    assert sorted(cost_rows) == expected_cost_rows(nights)


def test_closed_the_season_keeps_its_figures_carries_what_is_unpaid_and_refuses_a_late_cost(client, users, season):
    home_game, nights = season
    host = users["Asha"]
    client.force_login(host)
    home = reverse("ledger:home_game_detail", kwargs={"home_game_id": home_game.pk})
    open_transfers = page_transfers(client.get(home).content.decode())
    closed = season_close(home_game=home_game, by=host)
    assert sorted((t.payer_name, t.payee_name, int(t.amount * 100)) for t in closed.transfers.all()) == open_transfers
    season_page = reverse("ledger:season_detail", kwargs={"home_game_id": home_game.pk, "number": closed.number})
    page = client.get(season_page).content.decode()
    expected = expected_people(nights)
    assert page_people(page) == expected and page_transfers(page) == open_transfers
    rows = csv_rows(client.get(reverse("ledger:season_csv", kwargs={"home_game_id": home_game.pk, "number": 1})))
    assert csv_season(rows)[:2] == (expected, open_transfers)
    assert ledger_problems() == []  # the frozen transfers settle the closed nets, costs included

    # One marked paid; the rest are carried, listed on the home game's page.
    first = closed.transfers.order_by("payer_name", "payee_name").first()
    season_transfer_mark_paid(transfer=first, paid=True, by=host)
    text = client.get(home).content.decode()
    unpaid = page_transfers(text.split("Still unpaid from earlier seasons")[1])
    assert unpaid == [t for t in open_transfers if t != (first.payer_name, first.payee_name, int(first.amount * 100))]
    assert "No night of this season has been settled yet." in text

    # A cost of a night of the closed season is refused and writes nothing.
    cash = next(table for table, (_chips, costs) in nights.items() if costs and costs[0][0] == "Chandra")
    asha = host_seat(cash)
    before = (SharedCost.objects.count(), Event.objects.count(), LedgerEntry.objects.count())
    with pytest.raises(ServiceError) as refused:
        kitchen_cost_add(
            table_id=cash.pk, seat_id=asha.pk, paid_by=asha.pk, amount="5.00", what="Late pizza", shares={asha.pk: 1}
        )
    assert refused.value.code == "season_closed"
    response = client.post(
        reverse("kitchen:act", kwargs={"code": cash.code}),
        {"action": "cost", "what": "Late pizza", "amount": "5.00", "paid_by": str(asha.pk), "sharer": [str(asha.pk)]},
        follow=True,
    )
    assert "This night&#x27;s season is closed; its costs can no longer change." in response.content.decode()
    assert (SharedCost.objects.count(), Event.objects.count(), LedgerEntry.objects.count()) == before
    assert page_people(client.get(season_page).content.decode()) == expected


def test_a_night_paid_with_its_season_lists_no_transfers_of_its_own(client, users, season):
    """Settled exactly once: the night's page and CSV point to the season, which pays its costs."""
    home_game, nights = season
    client.force_login(users["Asha"])
    cash = next(table for table, (_chips, costs) in nights.items() if costs and costs[0][0] == "Chandra")
    page = client.get(reverse("kitchen:night", kwargs={"code": cash.code})).content.decode()
    assert "kitchen-transfers" not in page and "Who pays whom" not in page
    assert "This night is paid with season 1 of its home game, the open season" in page
    assert "The shared costs count there too" in page
    rows = csv_rows(client.get(reverse("kitchen:night_csv", kwargs={"code": cash.code})))
    assert ["From", "To", "Amount", "Currency"] not in rows
    season_close(home_game=home_game, by=users["Asha"])
    page = client.get(reverse("kitchen:night", kwargs={"code": cash.code})).content.decode()
    assert "This night was paid with season 1 of its home game" in page and "Who pays whom" not in page


def test_paid_night_by_night_a_kitchen_night_settles_its_costs_on_its_own_page(client, users):
    """A home game paid night by night: the night's page lists the transfers, costs included;
    the season lists none, and its nets still count the costs."""
    host = users["Asha"]
    home_game = home_game_create(name="Tuesdays", host=host, members=[users["Bikash"], users["Chandra"]])
    assert home_game.settle_by == HomeGame.SettleBy.NIGHT
    table, chips, costs = kitchen_cash_night(host, users)
    home_game_add_table(home_game=home_game, table=table, by=host)
    client.force_login(host)
    page = client.get(reverse("kitchen:night", kwargs={"code": table.code})).content.decode()
    nets = night_nets(chips, costs)
    listed = [
        (payer, payee, cents(amount))
        for payer, payee, amount in re.findall(r"<li>(\w+) pays (\w+) ([\d.]+)</li>", page)
    ]
    check_transfers(nets, sorted(listed))
    home = client.get(reverse("ledger:home_game_detail", kwargs={"home_game_id": home_game.pk})).content.decode()
    assert {name: person["net"] for name, person in page_people(home).items()} == nets
    assert page_transfers(home) == []
    assert Seat.objects.filter(table=table).count() == 6


def test_a_claimed_guest_seat_brings_its_share_of_the_costs_to_the_member(users):
    """Esha was added by name at the cash night and shared the pizza; once the host confirms
    her claim, her chips and her share count as her account's in the season."""
    host = users["Asha"]
    esha = make_user("esha")
    home_game = home_game_create(name="Sundays", host=host, members=[users["Bikash"], esha])
    table, chips, costs = kitchen_cash_night(host, users)
    home_game_add_table(home_game=home_game, table=table, by=host)
    nets = night_nets(chips, costs)
    guest = {person.key: person for person in season_open(home_game=home_game).people}["guest:esha"]
    claim = seat_claim_make(home_game=home_game, seat=Seat.objects.get(table=table, display_name="Esha"), by=esha)
    seat_claim_answer(claim=claim, confirm=True, by=host)
    people = {person.key: person for person in season_open(home_game=home_game).people}
    assert "guest:esha" not in people
    mine = people[f"user:{esha.pk}"]
    assert (mine.chips_money, mine.cost_share, mine.net_money) == (
        Decimal(chips["Esha"]) / 100,
        Decimal(costs[0][2]["Esha"]) / 100,
        Decimal(nets["Esha"]) / 100,
    )
    assert (guest.cost_share, guest.net_money) == (mine.cost_share, mine.net_money)
