"""Corrections: the host reverses a mistaken buy-in or buy-back of an ended table with a
reason. The stack it bought is taken back from what the player ended with, so the table's
chips stay equal to the chips bought and no one's result moves; the reason and who made it
are shown on the report, in its CSV and in the season. With the abuse: a player who is
not the host, a guest, a stranger, a forged entry of another table, a second reversal, a
correction that would create chips, a closed season."""

from __future__ import annotations

import csv
import io
from decimal import Decimal

import pytest
from django.urls import reverse
from django.utils import timezone

from homegames.models import Night
from homegames.services_members import home_game_create
from homegames.services_seasons import night_correct_buy_in, season_close
from ledger.models import LedgerEntry, TableLedger
from ledger.selectors import ledger_report
from ledger.services import (
    LedgerError,
    ledger_check_invariant,
    ledger_correct_buy_in,
    ledger_record_buy_in,
    ledger_record_cash_out,
)
from tables.guests import GUEST_TOKEN_SESSION_KEY
from tables.models import Table
from tests.ledger.conftest import make_seat, make_table, make_user

PRICE = Decimal("10.00")


def ended_night(host, *, others=None):
    """Asha (host) 1 stack, Bikash 2 (the second a mistake), Chandra (a guest) 1; the game ended
    with Asha 500 chips, Bikash 2200, Chandra 1300."""
    table = make_table(host)
    bikash = others or make_user("bikash")
    seats = {
        "asha": make_seat(table, host, "Asha", 1),
        "bikash": make_seat(table, bikash, "Bikash", 2),
        "chandra": make_seat(table, None, "Chandra", 3),
    }
    entries = {
        "asha": ledger_record_buy_in(table=table, seat=seats["asha"], chips=1000, price=PRICE, is_buy_back=False),
        "bikash": ledger_record_buy_in(table=table, seat=seats["bikash"], chips=1000, price=PRICE, is_buy_back=False),
        "chandra": ledger_record_buy_in(table=table, seat=seats["chandra"], chips=1000, price=PRICE, is_buy_back=False),
        "mistake": ledger_record_buy_in(table=table, seat=seats["bikash"], chips=1000, price=PRICE, is_buy_back=True),
    }
    for name, chips in (("asha", 500), ("bikash", 2200), ("chandra", 1300)):
        ledger_record_cash_out(table=table, seat=seats[name], chips=chips)
    table.status, table.ended_at = Table.Status.ENDED, timezone.now()
    table.save(update_fields=["status", "ended_at"])
    return table, seats, entries, bikash


def nets(table) -> dict[str, Decimal]:
    return {line.name: line.net_money for line in ledger_report(table=table).players}


def correct_url(table) -> str:
    return reverse("ledger:table_correct", kwargs={"code": table.code})


@pytest.fixture
def night(db):
    host = make_user("asha")
    return (host, *ended_night(host))


def test_the_host_reverses_a_mistaken_buy_back_and_everyone_sees_why(client, night):
    host, table, _seats, entries, bikash = night
    before = nets(table)
    client.force_login(host)
    page = client.get(correct_url(table))
    assert page.status_code == 200
    response = client.post(correct_url(table), {"entry": entries["mistake"].pk, "reason": "pressed twice"})
    assert response.status_code == 302

    reversal = LedgerEntry.objects.get(reverses=entries["mistake"])
    assert reversal.note == "pressed twice" and reversal.recorded_by == host
    totals = TableLedger.objects.get(table=table)
    assert (totals.chips_bought, totals.chips_cashed_out, totals.money_paid) == (3000, 3000, Decimal("30.00"))
    ledger_check_invariant(table=table, chips_at_table=0)
    report = ledger_report(table=table)
    line = next(line for line in report.players if line.name == "Bikash")
    assert (line.buy_ins, line.chips_bought, line.chips_end, line.paid) == (1, 1000, 1200, Decimal("10.00"))
    assert nets(table) == before  # the stack went back with its price: no result moves

    # Everyone at the table sees it: Bikash on the report, and in the CSV.
    client.force_login(bikash)
    report_page = client.get(reverse("ledger:table_report", kwargs={"code": table.code})).content.decode()
    assert "pressed twice" in report_page and "asha reversed Bikash" in report_page
    rows = list(csv.reader(io.StringIO(client.get(f"/ledger/tables/{table.code}/settlement.csv").content.decode())))
    (row,) = [row for row in rows if "pressed twice" in row]
    assert row[:5] == ["Reversed", table.code, "Bikash", "Buy-back", "1000"] and "asha" in row


def test_an_entry_already_reversed_is_refused_and_nothing_is_written(client, night):
    host, table, _seats, entries, _bikash = night
    ledger_correct_buy_in(table=table, entry=entries["mistake"], reason="pressed twice", by=host)
    count = LedgerEntry.objects.count()
    with pytest.raises(LedgerError) as error:
        ledger_correct_buy_in(table=table, entry=entries["mistake"], reason="again", by=host)
    assert error.value.code == "already_reversed"
    client.force_login(host)
    response = client.post(correct_url(table), {"entry": entries["mistake"].pk, "reason": "again"}, follow=True)
    assert "already been reversed" in response.content.decode()
    assert LedgerEntry.objects.count() == count


def test_a_correction_that_would_create_chips_is_refused(client, night):
    """Asha ended with 500 chips: her stack of 1000 was played; taking it back would leave
    more chips cashed out than bought."""
    host, table, _seats, entries, _bikash = night
    before = nets(table)
    client.force_login(host)
    response = client.post(correct_url(table), {"entry": entries["asha"].pk, "reason": "no"}, follow=True)
    assert "were played" in response.content.decode()
    assert not LedgerEntry.objects.filter(kind=LedgerEntry.Kind.REVERSAL).exists()
    assert nets(table) == before
    ledger_check_invariant(table=table, chips_at_table=0)


@pytest.mark.parametrize("reason", ["", "   "])
def test_a_correction_needs_a_reason(client, night, reason):
    host, table, _seats, entries, _bikash = night
    client.force_login(host)
    client.post(correct_url(table), {"entry": entries["mistake"].pk, "reason": reason})
    with pytest.raises(LedgerError) as error:
        ledger_correct_buy_in(table=table, entry=entries["mistake"], reason=reason, by=host)
    assert error.value.code == "no_reason"
    assert not LedgerEntry.objects.filter(kind=LedgerEntry.Kind.REVERSAL).exists()


def test_a_cash_out_or_a_live_table_is_not_corrected(night):
    host, table, _seats, _entries, _bikash = night
    cash_out = LedgerEntry.objects.filter(table=table, kind=LedgerEntry.Kind.CASH_OUT).first()
    with pytest.raises(LedgerError) as error:
        ledger_correct_buy_in(table=table, entry=cash_out, reason="x", by=host)
    assert error.value.code == "not_a_buy_in"
    live = make_table(host)
    seat = make_seat(live, host, "Asha", 1)
    entry = ledger_record_buy_in(table=live, seat=seat, chips=1000, price=PRICE, is_buy_back=False)
    with pytest.raises(LedgerError) as error:
        ledger_correct_buy_in(table=live, entry=entry, reason="x", by=host)
    assert error.value.code == "still_playing"
    assert not LedgerEntry.objects.filter(kind=LedgerEntry.Kind.REVERSAL).exists()


def test_a_player_who_is_not_the_host_a_guest_and_a_stranger_cannot_correct(client, night):
    _host, table, seats, entries, bikash = night
    data = {"entry": entries["mistake"].pk, "reason": "mine now"}
    client.force_login(bikash)  # at the table, reads the report: a 403
    assert client.get(correct_url(table)).status_code == 403
    assert client.post(correct_url(table), data).status_code == 403
    with pytest.raises(LedgerError) as error:
        ledger_correct_buy_in(table=table, entry=entries["mistake"], reason="mine now", by=bikash)
    assert error.value.code == "not_host"
    client.logout()
    session = client.session  # Chandra, a guest by her seat's token: sign in first
    session[GUEST_TOKEN_SESSION_KEY] = seats["chandra"].guest_token
    session.save()
    assert client.post(correct_url(table), data).status_code == 302
    assert "/login" in client.post(correct_url(table), data)["Location"]
    client.logout()  # a fresh session: no guest's token
    client.force_login(make_user("stranger"))
    assert client.post(correct_url(table), data).status_code == 404
    assert not LedgerEntry.objects.filter(kind=LedgerEntry.Kind.REVERSAL).exists()


def test_a_forged_entry_of_another_table_is_a_404(client, night):
    host, table, _seats, _entries, _bikash = night
    _other, _other_seats, other_entries, _ = ended_night(host, others=make_user("dipa"))
    client.force_login(host)
    response = client.post(correct_url(table), {"entry": other_entries["mistake"].pk, "reason": "forged"})
    assert response.status_code == 404
    with pytest.raises(LedgerError) as error:
        ledger_correct_buy_in(table=table, entry=other_entries["mistake"], reason="forged", by=host)
    assert error.value.code == "wrong_table"
    assert not LedgerEntry.objects.filter(kind=LedgerEntry.Kind.REVERSAL).exists()


def test_the_season_shows_its_corrections_and_a_closed_season_refuses_more(client, night):
    host, table, _seats, entries, bikash = night
    home_game = home_game_create(name="Friday Faras", host=host, members=[bikash])
    Night.objects.create(home_game=home_game, table=table)
    ledger_correct_buy_in(table=table, entry=entries["mistake"], reason="=HYPERLINK(1)", by=host)
    client.force_login(bikash)
    page = client.get(reverse("ledger:home_game_detail", kwargs={"home_game_id": home_game.pk})).content.decode()
    assert "=HYPERLINK(1)" in page and "asha reversed Bikash" in page
    rows = list(csv.reader(io.StringIO(client.get(f"/ledger/tables/{table.code}/settlement.csv").content.decode())))
    assert ["'=HYPERLINK(1)"] == [cell for row in rows for cell in row if "HYPERLINK" in cell]  # no formula

    season_close(home_game=home_game, by=host)
    season = client.get(reverse("ledger:season_detail", kwargs={"home_game_id": home_game.pk, "number": 1}))
    assert "=HYPERLINK(1)" in season.content.decode()
    other = LedgerEntry.objects.get(table=table, kind=LedgerEntry.Kind.BUY_IN, seat__display_name="Chandra")
    with pytest.raises(LedgerError) as error:
        night_correct_buy_in(table=table, entry=other, reason="late", by=host)
    assert error.value.code == "season_closed"
