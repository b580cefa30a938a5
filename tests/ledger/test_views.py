"""The ledger's pages: the settlement report, CSV, marking paid, home games; who may see them."""

from __future__ import annotations

import csv
import io
from decimal import Decimal

import pytest
from django.urls import reverse
from django.utils import timezone

from homegames.models import HomeGame, Night
from homegames.services_members import home_game_add_table, home_game_create
from ledger.models import TransferPaid
from ledger.services import ledger_record_buy_in, ledger_record_cash_out
from tables.models import Table
from tests.ledger.conftest import make_seat, make_table, make_user


def play_night(host, *, price="10.00", results=None, others=None, ended=True):
    """A finished table: everyone bought one stack of 1,000; ``results`` are chips at the end;
    the game ended (as ``tables.services.hand_end.game_end`` leaves it) unless ``ended`` is false."""
    table = make_table(host, price=price)
    results = results or {"Asha": 1850, "Bikash": 650, "Chandra": 500}
    others = others or {}
    seats = {}
    for number, name in enumerate(results, start=1):
        user = host if number == 1 else others.get(name)
        seat = make_seat(table, user, name, number)
        seats[name] = seat
        ledger_record_buy_in(table=table, seat=seat, chips=1000, price=Decimal(price), is_buy_back=False)
    for name, chips_end in results.items():
        ledger_record_cash_out(table=table, seat=seats[name], chips=chips_end)
    if ended:
        end_table(table)
    return table, seats


def end_table(table):
    """The table's game over, as ``game_end`` leaves it (the ledger's own rows are the caller's)."""
    table.status, table.ended_at = Table.Status.ENDED, timezone.now()
    table.save(update_fields=["status", "ended_at"])


@pytest.fixture
def night(host):
    bikash = make_user("bikash")
    table, seats = play_night(host, others={"Bikash": bikash})
    return table, seats, bikash


def test_report_renders_for_host_with_balances_and_transfers(client, host, night):
    """The settlement report: buy-ins, chips at the end, net chips and money, the transfers."""
    table, _, _ = night
    client.force_login(host)
    response = client.get(reverse("ledger:table_report", kwargs={"code": table.code}))
    assert response.status_code == 200
    page = response.content.decode()
    assert "+8.50" in page and "-3.50" in page and "-5.00" in page
    report = response.context["report"]
    assert [(t.payer_name, t.payee_name, t.amount) for t in report.transfers] == [
        ("Bikash", "Asha", Decimal("3.50")),
        ("Chandra", "Asha", Decimal("5.00")),
    ]
    assert "Mark paid" in page


def test_report_offers_a_player_the_mark_of_their_own_transfer_only(client, night):
    """Bikash pays Asha and Chandra pays Asha: Bikash may mark his own transfer, not Chandra's."""
    table, seats, bikash = night
    client.force_login(bikash)
    response = client.get(reverse("ledger:table_report", kwargs={"code": table.code}))
    assert response.status_code == 200
    page = response.content.decode()
    assert page.count("Mark paid") == 1
    assert [(row.transfer.payer_name, row.can_mark) for row in response.context["transfer_rows"]] == [
        ("Bikash", True),
        ("Chandra", False),
    ]
    assert f'name="payer" value="{seats["Bikash"].pk}"' in page
    assert f'name="payer" value="{seats["Chandra"].pk}"' not in page


def test_report_refused_to_a_stranger_and_sent_to_login_when_anonymous(client, night):
    """Access: a user not at the table gets 404 (the code reveals nothing)."""
    table, _, _ = night
    url = reverse("ledger:table_report", kwargs={"code": table.code})
    assert client.get(url).status_code == 302
    client.force_login(make_user("stranger"))
    assert client.get(url).status_code == 404
    assert client.get(reverse("ledger:table_report_csv", kwargs={"code": table.code})).status_code == 404


def test_report_at_chip_value_zero_shows_chips_alone(client, host):
    """settle.md: at a chip value of zero the report shows the chip results, no money."""
    table, _ = play_night(host, price="0.00")
    client.force_login(host)
    response = client.get(reverse("ledger:table_report", kwargs={"code": table.code}))
    page = response.content.decode()
    assert response.status_code == 200
    assert "chips alone" in page and "+850" in page
    assert "Who pays whom" not in page and "Paid" not in page
    rows = list(
        csv.reader(
            io.StringIO(client.get(reverse("ledger:table_report_csv", kwargs={"code": table.code})).content.decode())
        )
    )
    assert rows[0] == ["Player", "Buy-ins", "Chips bought", "Chips at the end", "Net chips"]
    assert rows[1] == ["Asha", "1", "1000", "1850", "850"]


def test_report_csv(client, host, night):
    table, _, _ = night
    client.force_login(host)
    response = client.get(reverse("ledger:table_report_csv", kwargs={"code": table.code}))
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/csv")
    assert "attachment" in response["Content-Disposition"]
    rows = list(csv.reader(io.StringIO(response.content.decode())))
    header = ["Player", "Buy-ins", "Chips bought", "Chips at the end", "Net chips", "Bought for", "Net", "Currency"]
    assert rows[0] == header
    assert rows[1:4] == [
        ["Asha", "1", "1000", "1850", "850", "10.00", "8.50", ""],
        ["Bikash", "1", "1000", "650", "-350", "10.00", "-3.50", ""],
        ["Chandra", "1", "1000", "500", "-500", "10.00", "-5.00", ""],
    ]
    assert rows[5:] == [
        ["From", "To", "Amount", "Currency", "Paid", "Marked by"],
        ["Bikash", "Asha", "3.50", "", "no", ""],
        ["Chandra", "Asha", "5.00", "", "no", ""],
    ]


def test_report_csv_names_the_hosts_currency_on_every_money_row(client, host):
    """A CSV read on its own (or added to another night's) says which currency its amounts are in."""
    table, _ = play_night(host)
    table.settings = {"host": {"currency": "NPR"}}
    table.save(update_fields=["settings"])
    client.force_login(host)
    body = client.get(reverse("ledger:table_report_csv", kwargs={"code": table.code})).content.decode()
    rows = list(csv.reader(io.StringIO(body)))
    assert rows[0][-1] == "Currency"
    assert [row[-1] for row in rows[1:4]] == ["NPR", "NPR", "NPR"]
    assert rows[5] == ["From", "To", "Amount", "Currency", "Paid", "Marked by"]
    assert [row[3] for row in rows[6:]] == ["NPR", "NPR"]


def test_csv_keeps_names_from_running_as_formulas(client, host):
    table, _ = play_night(host, results={"=HYPERLINK(1)": 1000, "Bikash": 1000})
    client.force_login(host)
    body = client.get(reverse("ledger:table_report_csv", kwargs={"code": table.code})).content.decode()
    assert "'=HYPERLINK(1)" in body


def test_host_marks_a_transfer_paid_and_undoes_it(client, host, night):
    """The host can mark each transfer paid (POST)."""
    table, seats, _ = night
    client.force_login(host)
    url = reverse("ledger:transfer_paid", kwargs={"code": table.code})
    data = {"payer": seats["Bikash"].pk, "payee": seats["Asha"].pk, "amount": "3.50", "paid": "1"}
    assert client.post(url, data).status_code == 302
    mark = TransferPaid.objects.get(table=table)
    assert (mark.payer_name, mark.payee_name, mark.amount, mark.marked_by) == ("Bikash", "Asha", Decimal("3.50"), host)
    page = client.get(reverse("ledger:table_report", kwargs={"code": table.code}))
    assert [t.paid for t in page.context["report"].transfers] == [True, False]
    assert client.post(url, {**data, "paid": ""}).status_code == 302
    assert not TransferPaid.objects.exists()


def test_only_the_payer_the_payee_or_the_host_marks_paid(client, night):
    """A player at the table marking another pair's transfer gets 403; a stranger 404; a GET is
    not allowed; nothing is written."""
    table, seats, bikash = night
    url = reverse("ledger:transfer_paid", kwargs={"code": table.code})
    data = {"payer": seats["Chandra"].pk, "payee": seats["Asha"].pk, "amount": "5.00", "paid": "1"}
    client.force_login(bikash)
    assert client.post(url, data).status_code == 403
    client.force_login(make_user("stranger"))
    assert client.post(url, data).status_code == 404
    client.force_login(table.host)
    assert client.get(url).status_code == 405
    assert not TransferPaid.objects.exists()


def test_marking_a_transfer_the_settlement_does_not_list_is_refused(client, host, night):
    table, seats, _ = night
    client.force_login(host)
    url = reverse("ledger:transfer_paid", kwargs={"code": table.code})
    client.post(url, {"payer": seats["Asha"].pk, "payee": seats["Bikash"].pk, "amount": "3.50", "paid": "1"})
    client.post(url, {"payer": "x", "payee": seats["Asha"].pk, "amount": "3.50", "paid": "1"})
    assert not TransferPaid.objects.exists()


# --- Home games --------------------------------------------------------------------


def test_create_a_home_game_page(client, host):
    client.force_login(host)
    assert client.get(reverse("ledger:home_game_new")).status_code == 200
    response = client.post(reverse("ledger:home_game_new"), {"name": "Friday Faras"})
    home_game = HomeGame.objects.get()
    assert response.status_code == 302 and response["Location"].endswith(f"/home-games/{home_game.pk}/")
    assert home_game.host == host and list(home_game.members.all()) == [host]
    assert client.post(reverse("ledger:home_game_new"), {"name": ""}).status_code == 200
    assert HomeGame.objects.count() == 1


def test_add_a_table_to_a_home_game_page(client, host, night):
    table, _, bikash = night
    home_game = home_game_create(name="Friday Faras", host=host)
    url = reverse("ledger:home_game_add_table", kwargs={"home_game_id": home_game.pk})
    client.force_login(host)
    assert client.get(url).status_code == 200
    assert client.post(url, {"table": table.pk}).status_code == 302
    assert Night.objects.get().table == table
    assert bikash in home_game.members.all()  # players with accounts join the group
    client.force_login(bikash)
    assert client.get(url).status_code == 403  # a member, not the host


def test_home_game_standings_across_nights_and_csv(client, host):
    """Standings: net per player, nights played, biggest win, over every settled night."""
    bikash = make_user("bikash")
    home_game = home_game_create(name="Friday Faras", host=host)
    first, _ = play_night(host, results={"Asha": 1850, "Bikash": 650, "Chandra": 500}, others={"Bikash": bikash})
    second, _ = play_night(host, results={"Asha": 700, "Bikash": 1300}, others={"Bikash": bikash})
    chips_only, _ = play_night(host, price="0", results={"Asha": 1500, "Bikash": 500}, others={"Bikash": bikash})
    for table in (first, second, chips_only):
        home_game_add_table(home_game=home_game, table=table, by=host)
    client.force_login(bikash)
    response = client.get(reverse("ledger:home_game_detail", kwargs={"home_game_id": home_game.pk}))
    assert response.status_code == 200
    standings = {s.name: s for s in response.context["standings"]}
    assert standings["Asha"].net_money == Decimal("5.50") and standings["Asha"].nights == 3
    assert standings["Asha"].biggest_win_money == Decimal("8.50")
    assert standings["Asha"].net_chips == 850 - 300 + 500
    assert standings["Bikash"].net_money == Decimal("-0.50") and standings["Bikash"].nights == 3
    assert standings["Bikash"].biggest_win_money == Decimal("3.00")
    assert standings["Chandra"].net_money == Decimal("-5.00") and standings["Chandra"].nights == 1
    assert [s.name for s in response.context["standings"]] == ["Asha", "Bikash", "Chandra"]
    csv_response = client.get(reverse("ledger:home_game_csv", kwargs={"home_game_id": home_game.pk}))
    rows = list(csv.reader(io.StringIO(csv_response.content.decode())))
    assert rows[0][:3] == ["Player", "Nights", "Net"]
    assert rows[1][:3] == ["Asha", "3", "5.50"]
    nights = [row for row in rows if len(row) == 8]
    assert len(nights) == 1 + 3 + 2 + 2
    assert nights[0][-1] == "Currency" and all(row[-1] == "" for row in nights[1:])


def test_home_game_pages_refused_to_non_members(client, host):
    """Access: someone not in the group gets 404 on the page and its CSV."""
    home_game = home_game_create(name="Friday Faras", host=host)
    client.force_login(make_user("stranger"))
    assert client.get(reverse("ledger:home_game_detail", kwargs={"home_game_id": home_game.pk})).status_code == 404
    assert client.get(reverse("ledger:home_game_csv", kwargs={"home_game_id": home_game.pk})).status_code == 404
    url = reverse("ledger:home_game_add_table", kwargs={"home_game_id": home_game.pk})
    assert client.get(url).status_code == 404
    assert client.get(reverse("ledger:home_game_list")).status_code == 200


def test_home_game_member_may_see_its_nights_reports(client, host):
    """A member of the group may read every night's report, even one they did not play."""
    table, _ = play_night(host)
    home_game = home_game_create(name="Friday Faras", host=host, members=[member := make_user("member")])
    home_game_add_table(home_game=home_game, table=table, by=host)
    client.force_login(member)
    assert client.get(reverse("ledger:table_report", kwargs={"code": table.code})).status_code == 200
    assert client.get(reverse("ledger:home_game_list")).context["home_games"][0] == home_game


def test_mark_paid_form_survives_a_locale_with_decimal_commas(client, host, night):
    """In German the page shows 3,50, but the form posts 3.50 so the mark still matches."""
    table, seats, _ = night
    client.force_login(host)
    page = client.get(
        reverse("ledger:table_report", kwargs={"code": table.code}), HTTP_ACCEPT_LANGUAGE="de"
    ).content.decode()
    assert "3,50" in page and 'name="amount" value="3.50"' in page
    url = reverse("ledger:transfer_paid", kwargs={"code": table.code})
    client.post(url, {"payer": seats["Bikash"].pk, "payee": seats["Asha"].pk, "amount": "3.50", "paid": "1"})
    assert TransferPaid.objects.filter(table=table).count() == 1


def test_report_lists_every_entry_with_reversals(client, host):
    """The record behind the report: each entry as written, a reversal named with what it cancels."""
    from ledger.services import ledger_reverse

    table = make_table(host)
    seat = make_seat(table, host, "Asha", 1)
    ledger_record_buy_in(table=table, seat=seat, chips=1000, price=Decimal("10.00"), is_buy_back=False)
    mistake = ledger_record_buy_in(table=table, seat=seat, chips=1000, price=Decimal("10.00"), is_buy_back=True)
    ledger_reverse(entry=mistake, by=host, note="pressed twice")
    ledger_record_cash_out(table=table, seat=seat, chips=1000)
    client.force_login(host)
    response = client.get(reverse("ledger:table_report", kwargs={"code": table.code}))
    page = response.content.decode()
    assert "Reversal (Buy-back): pressed twice" in page
    assert [entry.kind for entry in response.context["entries"]] == ["buy_in", "buy_back", "reversal", "cash_out"]
    assert response.context["report"].players[0].buy_ins == 1


def test_guest_who_sat_at_the_table_sees_its_report(client, host, night):
    """A guest (no account) is known by the token in their session, as at the table."""
    from tables.guests import GUEST_TOKEN_SESSION_KEY

    table, seats, _ = night
    url = reverse("ledger:table_report", kwargs={"code": table.code})
    session = client.session
    session[GUEST_TOKEN_SESSION_KEY] = seats["Chandra"].guest_token
    session.save()
    response = client.get(url)
    # Her own transfer (Chandra pays Asha) she may mark; Bikash's she may not.
    assert response.status_code == 200 and response.content.decode().count("Mark paid") == 1
    assert client.get(reverse("ledger:table_report_csv", kwargs={"code": table.code})).status_code == 200
    paid_url = reverse("ledger:transfer_paid", kwargs={"code": table.code})
    assert client.post(paid_url, {})["Location"] == url  # back to the report, nothing found
    assert not TransferPaid.objects.exists()
    session[GUEST_TOKEN_SESSION_KEY] = "someone-elses-token"
    session.save()
    assert client.get(url).status_code == 404
