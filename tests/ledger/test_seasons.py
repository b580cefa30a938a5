"""One settle-up for a season: each person's net across the season's settled nights, the
fewest transfers that settle them all, paid marks, the host's choice of night or season,
and unpaid transfers carried into the next season. With the abuse: members, strangers,
forged ids."""

from __future__ import annotations

from decimal import Decimal

import pytest
from django.urls import reverse

from homegames.models import HomeGame, Night, Season, SeasonTransfer
from homegames.selectors_seasons import season_closed, season_open, season_unpaid
from homegames.services_members import home_game_add_table, home_game_create
from homegames.services_seasons import (
    home_game_set_settle_by,
    night_transfer_mark_paid,
    season_close,
    season_transfer_mark_paid,
)
from ledger.models import TransferPaid
from ledger.selectors import ledger_report
from ledger.services import LedgerError, ledger_record_buy_in, transfer_mark_paid
from tests.ledger.conftest import make_seat, make_table, make_user
from tests.ledger.test_settlement import brute_force_minimum
from tests.ledger.test_views import play_night

# Three nights of Asha (the host), Bikash and Chandra: one stack of 1,000 for 10.00 each.
NIGHTS = [
    {"Asha": 1850, "Bikash": 650, "Chandra": 500},  # +8.50 -3.50 -5.00
    {"Asha": 500, "Bikash": 1500, "Chandra": 1000},  # -5.00 +5.00  0.00
    {"Asha": 1000, "Bikash": 650, "Chandra": 1350},  #  0.00 -3.50 +3.50
]


@pytest.fixture
def friends(host):
    return {"Bikash": make_user("bikash"), "Chandra": make_user("chandra")}


def three_nights(host, friends, *, settle_by=HomeGame.SettleBy.SEASON, nights=NIGHTS, settings=None):
    home_game = home_game_create(name="Friday Faras", host=host)
    if settle_by == HomeGame.SettleBy.SEASON:
        home_game_set_settle_by(home_game=home_game, settle_by=settle_by, by=host)
    tables = []
    for results in nights:
        table, _seats = play_night(host, results=results, others=friends)
        if settings:
            table.settings = settings
            table.save(update_fields=["settings"])
        home_game_add_table(home_game=home_game, table=table, by=host)
        tables.append(table)
    home_game.refresh_from_db()
    return home_game, tables


def nets(view):
    return {person.name: person.net_money for person in view.people}


def test_the_season_nets_each_person_across_its_nights_from_the_tables_reports(host, friends):
    home_game, tables = three_nights(host, friends)
    view = season_open(home_game=home_game)
    assert nets(view) == {"Asha": Decimal("3.50"), "Bikash": Decimal("-2.00"), "Chandra": Decimal("-1.50")}
    # Each person's net is the sum of what each night's own report says (the tables' results).
    per_night = {}
    for table in tables:
        for line in ledger_report(table=table).players:
            per_night[line.name] = per_night.get(line.name, Decimal(0)) + line.net_money
    assert nets(view) == per_night
    assert sum(nets(view).values()) == 0  # cent-true: nothing created or lost
    assert [(t.payer_name, t.payee_name, t.amount) for t in view.transfers] == [
        ("Bikash", "Asha", Decimal("2.00")),
        ("Chandra", "Asha", Decimal("1.50")),
    ]
    # Night by night it would take four payments; the season takes two.
    assert sum(len(ledger_report(table=t).transfers) for t in tables) == 4
    assert all(person.nights == 3 for person in view.people)


def test_the_seasons_transfers_are_the_fewest_a_brute_force_search_finds(host):
    """Six people over two nights with round amounts: zero-sum groups appear, and the
    count matches an exhaustive search; the transfers settle every balance exactly."""
    users = {name: make_user(name.lower()) for name in ["Bikash", "Chandra", "Dipa", "Eka", "Gita"]}
    # Season nets -6, +2, -3, +3, -4, +8: biggest-loser-pays-biggest-winner over everyone takes
    # five payments; two zero-sum groups ({-3, +3} and the other four) take four.
    nights = [
        {"Asha": 700, "Bikash": 1200, "Chandra": 700, "Dipa": 1000, "Eka": 1000, "Gita": 1400},
        {"Asha": 700, "Bikash": 1000, "Chandra": 1000, "Dipa": 1300, "Eka": 600, "Gita": 1400},
    ]
    home_game, _tables = three_nights(host, users, nights=nights)
    view = season_open(home_game=home_game)
    balances = {person.key: int(person.net_money * 100) for person in view.people}
    assert sum(balances.values()) == 0
    assert len(view.transfers) == brute_force_minimum(list(balances.values())) == 4
    left = dict(balances)
    for transfer in view.transfers:
        cents = int(transfer.amount * 100)
        assert cents > 0 and balances[transfer.payer_key] < 0 < balances[transfer.payee_key]
        left[transfer.payer_key] += cents
        left[transfer.payee_key] -= cents
    assert set(left.values()) == {0}


def test_closing_freezes_the_transfers_and_starts_a_new_season(client, host, friends):
    home_game, tables = three_nights(host, friends)
    client.force_login(host)
    response = client.post(reverse("ledger:season_close", kwargs={"home_game_id": home_game.pk}), {"confirm": "1"})
    season = Season.objects.get(home_game=home_game)
    assert response.status_code == 302 and response["Location"].endswith(f"/seasons/{season.number}/")
    assert season.number == 1 and season.closed_by == host
    assert set(Night.objects.filter(season=season).values_list("table_id", flat=True)) == {t.pk for t in tables}
    assert sorted((t.payer_name, t.payee_name, t.amount) for t in season.transfers.all()) == [
        ("Bikash", "Asha", Decimal("2.00")),
        ("Chandra", "Asha", Decimal("1.50")),
    ]
    # The open season is empty now: nothing counted twice.
    assert season_open(home_game=home_game).people == []
    page = client.get(reverse("ledger:season_detail", kwargs={"home_game_id": home_game.pk, "number": 1}))
    assert page.status_code == 200 and "Mark paid" in page.content.decode()
    assert nets(page.context["season"]) == {
        "Asha": Decimal("3.50"),
        "Bikash": Decimal("-2.00"),
        "Chandra": Decimal("-1.50"),
    }


def test_an_unpaid_transfer_is_carried_into_the_next_season_until_marked(client, host, friends):
    home_game, _tables = three_nights(host, friends)
    season_close(home_game=home_game, by=host)
    bikash_pays = SeasonTransfer.objects.get(payer_name="Bikash")
    chandra_pays = SeasonTransfer.objects.get(payer_name="Chandra")
    client.force_login(host)
    client.post(
        reverse("ledger:season_transfer_paid", kwargs={"home_game_id": home_game.pk, "transfer_id": bikash_pays.pk}),
        {"paid": "1"},
    )
    bikash_pays.refresh_from_db()
    assert bikash_pays.paid_at is not None and bikash_pays.paid_by == host
    # A night of the next season, then that season closes too: Chandra's 1.50 is still shown.
    table, _seats = play_night(host, results={"Asha": 900, "Bikash": 1100, "Chandra": 1000}, others=friends)
    home_game_add_table(home_game=home_game, table=table, by=host)
    season_close(home_game=home_game, by=host)
    assert [(line.payer_name, line.amount, line.season_number) for line in season_unpaid(home_game=home_game)] == [
        ("Chandra", Decimal("1.50"), 1),
        ("Asha", Decimal("1.00"), 2),
    ]
    page = client.get(reverse("ledger:home_game_detail", kwargs={"home_game_id": home_game.pk}))
    assert "Still unpaid from earlier seasons" in page.content.decode()
    season_transfer_mark_paid(transfer=chandra_pays, paid=True, by=host)
    assert [line.payer_name for line in season_unpaid(home_game=home_game)] == ["Asha"]
    # The mark is a note: the host may take it back.
    season_transfer_mark_paid(transfer=chandra_pays, paid=False, by=host)
    assert len(season_unpaid(home_game=home_game)) == 2


def test_a_night_still_being_played_waits_for_the_next_season(host, friends):
    home_game, _tables = three_nights(host, friends, nights=NIGHTS[:1])
    running = make_table(host)
    ledger_record_buy_in(
        table=running, seat=make_seat(running, host, "Asha", 1), chips=1000, price=Decimal("10.00"), is_buy_back=False
    )
    home_game_add_table(home_game=home_game, table=running, by=host)
    view = season_open(home_game=home_game)
    assert len(view.nights) == 1 and len(view.waiting) == 1
    season = season_close(home_game=home_game, by=host)
    assert list(season.nights.values_list("table_id", flat=True)) != [running.pk]
    assert Night.objects.get(table=running).season is None


def test_night_by_night_home_games_keep_each_tables_transfers(client, host, friends):
    home_game, tables = three_nights(host, friends, settle_by=HomeGame.SettleBy.NIGHT)
    view = season_open(home_game=home_game)
    assert not view.by_season and nets(view)["Asha"] == Decimal("3.50")
    season = season_close(home_game=home_game, by=host)
    assert season.settle_by == HomeGame.SettleBy.NIGHT and not season.transfers.exists()
    client.force_login(host)
    page = client.get(reverse("ledger:table_report", kwargs={"code": tables[0].code})).content.decode()
    assert "Mark paid" in page


def test_by_season_a_nights_own_transfers_are_not_marked_paid(client, host, friends):
    _home_game, tables = three_nights(host, friends)
    report = ledger_report(table=tables[0])
    first = report.transfers[0]
    payer = tables[0].seats.get(pk=first.payer_seat_id)
    payee = tables[0].seats.get(pk=first.payee_seat_id)
    with pytest.raises(LedgerError) as refused:
        night_transfer_mark_paid(table=tables[0], payer_seat=payer, payee_seat=payee, amount=first.amount, by=host)
    assert refused.value.code == "settled_by_season"
    assert not TransferPaid.objects.exists()
    client.force_login(host)
    page = client.get(reverse("ledger:table_report", kwargs={"code": tables[0].code})).content.decode()
    assert "This night is paid with season 1 of its home game" in page and "Mark paid" not in page


def test_switching_to_the_season_is_refused_once_a_night_is_being_paid(client, host, friends):
    home_game, tables = three_nights(host, friends, settle_by=HomeGame.SettleBy.NIGHT)
    first = ledger_report(table=tables[0]).transfers[0]
    transfer_mark_paid(
        table=tables[0],
        payer_seat=tables[0].seats.get(pk=first.payer_seat_id),
        payee_seat=tables[0].seats.get(pk=first.payee_seat_id),
        amount=first.amount,
        by=host,
    )
    client.force_login(host)
    url = reverse("ledger:home_game_settle_by", kwargs={"home_game_id": home_game.pk})
    response = client.post(url, {"settle_by": "season"}, follow=True)
    assert "already has a transfer marked paid" in response.content.decode()
    home_game.refresh_from_db()
    assert home_game.settle_by == HomeGame.SettleBy.NIGHT
    # After the close the next season may be paid by season.
    season_close(home_game=home_game, by=host)
    client.post(url, {"settle_by": "season"})
    home_game.refresh_from_db()
    assert home_game.settle_by == HomeGame.SettleBy.SEASON
    # A forged choice is refused and changes nothing.
    client.post(url, {"settle_by": "weekly"})
    home_game.refresh_from_db()
    assert home_game.settle_by == HomeGame.SettleBy.SEASON


def test_nights_in_different_currencies_are_not_netted(host, friends):
    home_game, _tables = three_nights(host, friends, nights=NIGHTS[:1], settings={"host": {"currency": "NPR"}})
    table, _seats = play_night(host, results=NIGHTS[1], others=friends)
    table.settings = {"host": {"currency": "INR"}}
    table.save(update_fields=["settings"])
    home_game_add_table(home_game=home_game, table=table, by=host)
    view = season_open(home_game=home_game)
    assert view.error and view.transfers == []
    with pytest.raises(LedgerError) as refused:
        season_close(home_game=home_game, by=host)
    assert refused.value.code == "season_not_netted"
    assert not Season.objects.exists()


def test_an_empty_season_cannot_be_closed(host):
    home_game = home_game_create(name="Friday Faras", host=host)
    with pytest.raises(LedgerError) as refused:
        season_close(home_game=home_game, by=host)
    assert refused.value.code == "empty_season" and not Season.objects.exists()


def test_a_guest_is_one_person_across_nights_by_name(host, friends):
    nights = [
        {"Asha": 1500, "Bikash": 1000, "Dipa": 500},
        {"Asha": 1000, "Bikash": 800, "dipa ": 1200},
    ]
    home_game, _tables = three_nights(host, {"Bikash": friends["Bikash"]}, nights=nights)
    view = season_open(home_game=home_game)
    dipa = [person for person in view.people if person.key == "guest:dipa"]
    assert len(dipa) == 1 and dipa[0].nights == 2 and dipa[0].net_money == Decimal("-3.00")


# --- Who may do what ----------------------------------------------------------------


def test_a_member_may_read_the_season_but_not_close_it_switch_or_mark_paid(client, host, friends):
    home_game, _tables = three_nights(host, friends)
    home_game.members.add(friends["Bikash"], friends["Chandra"])
    season_close(home_game=home_game, by=host)
    transfer = SeasonTransfer.objects.get(payer_name="Bikash")
    client.force_login(friends["Chandra"])  # neither the payer nor the payee of Bikash's transfer
    assert (
        client.get(reverse("ledger:season_detail", kwargs={"home_game_id": home_game.pk, "number": 1})).status_code
        == 200
    )
    paid_url = reverse("ledger:season_transfer_paid", kwargs={"home_game_id": home_game.pk, "transfer_id": transfer.pk})
    assert client.post(paid_url, {"paid": "1"}).status_code == 403
    transfer.refresh_from_db()
    assert transfer.paid_at is None  # someone else's debt is not theirs to mark
    assert client.post(reverse("ledger:season_close", kwargs={"home_game_id": home_game.pk})).status_code == 403
    settle_url = reverse("ledger:home_game_settle_by", kwargs={"home_game_id": home_game.pk})
    assert client.post(settle_url, {"settle_by": "night"}).status_code == 403
    home_game.refresh_from_db()
    assert home_game.settle_by == HomeGame.SettleBy.SEASON and Season.objects.count() == 1
    with pytest.raises(LedgerError):
        season_close(home_game=home_game, by=friends["Bikash"])
    with pytest.raises(LedgerError):
        season_transfer_mark_paid(transfer=transfer, paid=True, by=friends["Chandra"])


def test_a_stranger_gets_404_everywhere_and_forged_ids_change_nothing(client, host, friends):
    home_game, _tables = three_nights(host, friends)
    season_close(home_game=home_game, by=host)
    transfer = SeasonTransfer.objects.first()
    stranger = make_user("stranger")
    client.force_login(stranger)
    urls = [
        ("get", reverse("ledger:season_detail", kwargs={"home_game_id": home_game.pk, "number": 1})),
        ("post", reverse("ledger:season_close", kwargs={"home_game_id": home_game.pk})),
        ("post", reverse("ledger:home_game_settle_by", kwargs={"home_game_id": home_game.pk})),
        (
            "post",
            reverse("ledger:season_transfer_paid", kwargs={"home_game_id": home_game.pk, "transfer_id": transfer.pk}),
        ),
    ]
    for method, url in urls:
        assert getattr(client, method)(url, {"paid": "1", "settle_by": "night"}).status_code == 404, url
    # The host of another home game cannot mark this one's transfer through their own.
    other = home_game_create(name="Other", host=stranger)
    forged = reverse("ledger:season_transfer_paid", kwargs={"home_game_id": other.pk, "transfer_id": transfer.pk})
    assert client.post(forged, {"paid": "1"}).status_code == 404
    transfer.refresh_from_db()
    assert transfer.paid_at is None
    assert season_closed(season=Season.objects.get()).transfers[0].paid is False
    client.logout()
    assert client.get(urls[0][1]).status_code == 302  # to log in
