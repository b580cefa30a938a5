"""The night's CSVs and its admin (issue 39): the night's CSV has the settle-up with the
costs apart, a tournament's CSV its levels as played, places and prizes; each equals the
night's page to the cent; only the people at the night read them; the admin only reads."""

from __future__ import annotations

import csv
import io
import re
from decimal import Decimal

import pytest
from django.urls import reverse

from kitchen.models import AddOn, Elimination, KitchenNight, TournamentClock
from kitchen.services import kitchen_buy_in, kitchen_cash_out, kitchen_cost_add, kitchen_settle
from kitchen.tournament import kitchen_clock_start, kitchen_eliminate
from ledger.models import SharedCost
from tests.kitchen.conftest import add_by_name, host_seat, make_user
from tests.kitchen.test_tournament import at, open_tournament


def _csv(client, name, table):
    response = client.get(reverse(f"kitchen:{name}", kwargs={"code": table.code}))
    assert response.status_code == 200 and response["Content-Type"].startswith("text/csv")
    return list(csv.reader(io.StringIO(response.content.decode())))


def _table_rows(page, css_class):
    """The cells of each body row of the page's table of that class, as text."""
    table = re.search(rf'<table class="{css_class}[^"]*">(.*?)</table>', page, re.S)
    assert table is not None
    body = table.group(1).split("<tbody>")[1]
    return [
        [re.sub(r"<[^>]+>", "", cell).strip() for cell in re.findall(r"<t[hd][^>]*>(.*?)</t[hd]>", row, re.S)]
        for row in re.findall(r"<tr>(.*?)</tr>", body, re.S)
    ]


def _section(rows, header):
    """The rows after the header row that starts with ``header``, to the next empty row."""
    start = next(i for i, row in enumerate(rows) if row and row[0] == header)
    section = []
    for row in rows[start + 1 :]:
        if not row:
            break
        section.append(row)
    return section


def test_the_nights_csv_is_its_settle_up_with_the_costs_apart_to_the_cent(client, night, host):
    hostseat = host_seat(night)
    kitchen_buy_in(table_id=night.pk, seat_id=hostseat.pk, player_seat_id=hostseat.pk)
    bikash, chandra = add_by_name(night, "Bikash"), add_by_name(night, "Chandra")
    kitchen_cost_add(
        table_id=night.pk,
        seat_id=hostseat.pk,
        paid_by=hostseat.pk,
        amount="10.00",
        what="Pizza",
        shares={hostseat.pk: 1, bikash.pk: 1, chandra.pk: 1},
    )
    kitchen_cost_add(
        table_id=night.pk,
        seat_id=hostseat.pk,
        paid_by=bikash.pk,
        amount="9.01",
        what="=Drinks",
        shares={bikash.pk: 2, chandra.pk: 1},
    )
    for seat, chips in ((hostseat, 1500), (bikash, 700), (chandra, 800)):
        kitchen_cash_out(table_id=night.pk, seat_id=hostseat.pk, player_seat_id=seat.pk, chips=chips)
    client.force_login(host)
    before = _csv(client, "night_csv", night)
    assert before[0][0] == "Cost"  # no settle-up before the night is settled
    kitchen_settle(table_id=night.pk, seat_id=hostseat.pk)
    rows = _csv(client, "night_csv", night)
    page = client.get(reverse("kitchen:night", kwargs={"code": night.code})).content.decode()
    settle = _section(rows, "Player")
    # Chips result, share of costs, paid for costs, net: the page's cells, to the cent.
    assert [row[:5] for row in settle] == _table_rows(page, "kitchen-settle")
    assert settle == [
        ["Asha", "5.00", "3.34", "10.00", "11.66", "USD"],
        ["Bikash", "-3.00", "9.34", "9.01", "-3.33", "USD"],
        ["Chandra", "-2.00", "6.33", "0.00", "-8.33", "USD"],
    ]
    assert sum(Decimal(row[4]) for row in settle) == 0
    costs = _section(rows, "Cost")
    assert costs == [
        ["Pizza", "10.00", "Asha", "Asha", "3.34", "USD"],
        ["Pizza", "10.00", "Asha", "Bikash", "3.33", "USD"],
        ["Pizza", "10.00", "Asha", "Chandra", "3.33", "USD"],
        ["'=Drinks", "9.01", "Bikash", "Bikash", "6.01", "USD"],  # a formula is never run
        ["'=Drinks", "9.01", "Bikash", "Chandra", "3.00", "USD"],
    ]
    for name, share in (("Asha", "3.34"), ("Bikash", "6.01"), ("Chandra", "3.00")):
        assert f"{name} USD\u00a0{share}" in page or f"{name} USD {share}" in page
    transfers = _section(rows, "From")
    assert sum(Decimal(row[2]) for row in transfers) == Decimal("11.66")
    for payer, payee, amount, _currency in transfers:
        assert f"{payer} pays {payee} USD" in page and amount in page


def test_the_tournaments_csv_has_its_levels_places_and_prizes_as_its_page(client, host):
    table = open_tournament(host)
    hostseat = host_seat(table)
    kitchen_buy_in(table_id=table.pk, seat_id=hostseat.pk, player_seat_id=hostseat.pk)
    players = [hostseat] + [add_by_name(table, name) for name in ("Bina", "Chet", "Dipa")]
    with at(0):
        kitchen_clock_start(table_id=table.pk, seat_id=hostseat.pk)
    with at(1300):  # the break after level 2
        kitchen_eliminate(table_id=table.pk, seat_id=hostseat.pk, player_seat_ids=[players[3].pk])
    with at(1600):  # level 3 began at 1500
        kitchen_eliminate(table_id=table.pk, seat_id=hostseat.pk, player_seat_ids=[players[1].pk, players[2].pk])
    client.force_login(host)
    rows = _csv(client, "tournament_csv", table)
    levels = _section(rows, "Level")
    assert levels == [
        ["1", "2026-12-05T20:00:00+00:00", "10", "20", "0", "10"],
        ["2", "2026-12-05T20:10:00+00:00", "20", "40", "0", "10"],
        ["3", "2026-12-05T20:20:00+00:00", "Break", "", "", "5"],
        ["4", "2026-12-05T20:25:00+00:00", "50", "100", "10", "10"],
    ]
    places = _section(rows, "Place")
    # 40.00 at 50/30/20: Asha 20.00; Bina and Chet share 30% + 20%; Dipa nothing.
    assert places == [
        ["1", "Asha", "20.00", "10.00", "10.00", ""],
        ["2", "Bina", "10.00", "10.00", "0.00", ""],
        ["2", "Chet", "10.00", "10.00", "0.00", ""],
        ["4", "Dipa", "0.00", "10.00", "-10.00", ""],
    ]
    page = client.get(reverse("kitchen:night", kwargs={"code": table.code})).content.decode()
    assert [row[:5] for row in places] == _table_rows(page, "kitchen-places")
    assert sum(Decimal(row[2]) for row in places) == Decimal("40.00")


def test_only_the_people_at_the_night_read_its_csvs(client, night, host):
    client.force_login(make_user("stranger"))
    assert client.get(reverse("kitchen:night_csv", kwargs={"code": night.code})).status_code == 404
    client.force_login(host)
    assert client.get(reverse("kitchen:tournament_csv", kwargs={"code": night.code})).status_code == 404  # no clock
    table = open_tournament(host)
    client.logout()
    assert client.get(reverse("kitchen:tournament_csv", kwargs={"code": table.code})).status_code == 404


@pytest.mark.parametrize("model", [KitchenNight, SharedCost, TournamentClock, Elimination, AddOn])
def test_the_admin_reads_the_nights_and_changes_nothing(admin_client, host, model):
    open_tournament(host)
    name = f"admin:{model._meta.app_label}_{model._meta.model_name}"
    assert admin_client.get(reverse(f"{name}_changelist")).status_code == 200
    assert admin_client.get(reverse(f"{name}_add")).status_code == 403
