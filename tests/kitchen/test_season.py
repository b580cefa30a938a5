"""A kitchen-table night in its home game's season: netted with an online night, corrected
like any night, its season transfers marked paid; the home game's and the season's pages say
which nights were played at the table and which online."""

from __future__ import annotations

from decimal import Decimal

from django.urls import reverse
from django.utils import timezone

from homegames.selectors_seasons import season_open
from homegames.services_members import home_game_add_table, home_game_create
from homegames.services_seasons import home_game_set_settle_by, season_close, season_transfer_mark_paid
from kitchen.services import kitchen_buy_in, kitchen_cash_out, kitchen_settle
from ledger.models import LedgerEntry
from ledger.services import ledger_correct_buy_in, ledger_record_buy_in, ledger_record_cash_out
from tables.models import Table
from tests.kitchen.conftest import host_seat, join_as, make_user, open_night
from tests.ledger.conftest import make_seat, make_table


def _online_night(host, bikash):
    """Asha and Bikash each buy 1,000 chips for 10.00; Asha ends with 1,400, Bikash 600."""
    table = make_table(host)
    seats = {"asha": make_seat(table, host, "Asha", 1), "bikash": make_seat(table, bikash, "Bikash", 2)}
    for seat in seats.values():
        ledger_record_buy_in(table=table, seat=seat, chips=1000, price=Decimal("10.00"), is_buy_back=False)
    ledger_record_cash_out(table=table, seat=seats["asha"], chips=1400)
    ledger_record_cash_out(table=table, seat=seats["bikash"], chips=600)
    Table.objects.filter(pk=table.pk).update(status=Table.Status.ENDED, ended_at=timezone.now())
    return table


def _kitchen_night(host, bikash):
    """Asha buys 1, Bikash 2 stacks; Asha hands back 500, Bikash 2,500."""
    table = open_night(host, currency="")  # as the online night: one currency to net
    asha, bik = host_seat(table), join_as(table, bikash)
    for seat in (asha, bik, bik):
        kitchen_buy_in(table_id=table.pk, seat_id=asha.pk, player_seat_id=seat.pk)
    kitchen_cash_out(table_id=table.pk, seat_id=asha.pk, player_seat_id=asha.pk, chips=500)
    kitchen_cash_out(table_id=table.pk, seat_id=asha.pk, player_seat_id=bik.pk, chips=2500)
    kitchen_settle(table_id=table.pk, seat_id=asha.pk)
    return Table.objects.get(pk=table.pk)


def test_a_kitchen_night_nets_in_the_season_with_an_online_night(client, host):
    bikash = make_user("bikash")
    home_game = home_game_create(name="Fridays", host=host, members=[bikash])
    home_game = home_game_set_settle_by(home_game=home_game, settle_by="season", by=host)
    online, kitchen = _online_night(host, bikash), _kitchen_night(host, bikash)
    for table in (online, kitchen):
        home_game_add_table(home_game=home_game, table=table, by=host)
    season = season_open(home_game=home_game)
    assert len(season.nights) == 2 and not season.waiting
    # Online: Asha +4.00, Bikash -4.00. Kitchen: Asha -5.00, Bikash +5.00. Season: Asha -1.00.
    nets = {person.name: person.net_money for person in season.people}
    assert nets == {"Asha": Decimal("-1.00"), "Bikash": Decimal("1.00")}
    assert [(t.payer_name, t.payee_name, t.amount) for t in season.transfers] == [("Asha", "Bikash", Decimal("1.00"))]

    client.force_login(host)
    page = client.get(reverse("ledger:home_game_detail", kwargs={"home_game_id": home_game.pk})).content.decode()
    assert "· At the kitchen table" in page and "· online" in page

    # A mistaken re-buy of the kitchen night corrected: no one's net moves.
    rebuy = LedgerEntry.objects.filter(table=kitchen, kind=LedgerEntry.Kind.BUY_BACK).first()
    ledger_correct_buy_in(table=kitchen, entry=rebuy, reason="one stack too many", by=host)
    assert {p.name: p.net_money for p in season_open(home_game=home_game).people} == nets

    closed = season_close(home_game=home_game, by=host)
    transfer = closed.transfers.get()
    season_transfer_mark_paid(transfer=transfer, paid=True, by=host)
    transfer.refresh_from_db()
    assert transfer.paid_at is not None
    page = client.get(
        reverse("ledger:season_detail", kwargs={"home_game_id": home_game.pk, "number": closed.number})
    ).content.decode()
    assert "· At the kitchen table" in page and "· online" in page
