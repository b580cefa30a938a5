"""Who may mark a table's own transfer paid (issue 38, payments): the payer and the payee (the
person behind the seat: its account, or the guest whose browser holds the seat's token), and
the host (any); the mark names who made it and as whom; a person takes back only a mark they
made, the host any. Anyone else is refused and nothing changes."""

from __future__ import annotations

import csv
import io
from decimal import Decimal

import pytest
from django.urls import reverse

from homegames.services_seasons import night_transfer_mark_paid, season_close
from ledger.models import TransferPaid
from ledger.selectors import ledger_report
from ledger.services import LedgerError, transfer_mark_paid, transfer_unmark_paid
from tables.guests import GUEST_TOKEN_SESSION_KEY
from tests.ledger.conftest import make_user
from tests.ledger.test_seasons import friends, three_nights  # noqa: F401 (the fixture)
from tests.ledger.test_views import play_night

# Asha hosts and breaks even; Chandra (a guest) pays Bikash 5.00, Eka (a guest) pays Dipa 2.00.
RESULTS = {"Asha": 1000, "Bikash": 1500, "Chandra": 500, "Dipa": 1200, "Eka": 800}


@pytest.fixture
def night(host):
    bikash, dipa = make_user("bikash"), make_user("dipa")
    table, seats = play_night(host, results=RESULTS, others={"Bikash": bikash, "Dipa": dipa})
    assert [(t.payer_name, t.payee_name, t.amount) for t in ledger_report(table=table).transfers] == [
        ("Chandra", "Bikash", Decimal("5.00")),
        ("Eka", "Dipa", Decimal("2.00")),
    ]
    return table, seats, {"Bikash": bikash, "Dipa": dipa}


def chandra_pays(table, seats, **who):
    """Chandra's transfer to Bikash marked paid by ``who`` (``by=``, ``guest_token=``)."""
    return transfer_mark_paid(
        table=table, payer_seat=seats["Chandra"], payee_seat=seats["Bikash"], amount=Decimal("5.00"), **who
    )


def paid_lines(table):
    return [(t.payer_name, t.paid, t.marked_by_name, t.marked_as) for t in ledger_report(table=table).transfers]


def test_the_payee_marks_their_transfer_and_the_mark_names_them(night):
    table, seats, users = night
    mark = chandra_pays(table, seats, by=users["Bikash"])
    assert (mark.marked_by, mark.marked_as, mark.marked_by_name) == (users["Bikash"], "payee", "Bikash")
    assert paid_lines(table) == [("Chandra", True, "Bikash", "payee"), ("Eka", False, "", "")]


def test_a_guest_payer_marks_by_the_token_in_her_browser(night):
    table, seats, _users = night
    mark = chandra_pays(table, seats, by=None, guest_token=seats["Chandra"].guest_token)
    assert (mark.marked_by, mark.marked_as, mark.marked_by_name) == (None, "payer", "Chandra")
    assert paid_lines(table)[0] == ("Chandra", True, "Chandra", "payer")


def test_the_host_marks_any_transfer(night, host):
    table, seats, _users = night
    mark = chandra_pays(table, seats, by=host)
    assert (mark.marked_by, mark.marked_as, mark.marked_by_name) == (host, "host", host.table_name)


def test_a_third_player_a_guest_of_another_seat_and_a_stranger_are_refused(night):
    """Dipa (an account at the table) and Eka (a guest at the table) are not party to Chandra's
    transfer; a guest token of another table's seat and none at all are no one's."""
    table, seats, users = night
    _other_table, other_seats = play_night(make_user("otherhost"), results={"Asha": 1000, "Chandra": 1000})
    for who in (
        {"by": users["Dipa"]},
        {"by": None, "guest_token": seats["Eka"].guest_token},
        {"by": None, "guest_token": other_seats["Chandra"].guest_token},
        {"by": None, "guest_token": ""},
        {"by": make_user("stranger")},
    ):
        with pytest.raises(LedgerError) as refused:
            chandra_pays(table, seats, **who)
        assert refused.value.code == "not_party", who
    assert not TransferPaid.objects.exists()
    # Nor may a seat of another table stand in for a seat of this one.
    with pytest.raises(LedgerError) as refused:
        transfer_mark_paid(
            table=table,
            payer_seat=other_seats["Chandra"],
            payee_seat=seats["Bikash"],
            amount=Decimal("5.00"),
            by=None,
            guest_token=other_seats["Chandra"].guest_token,
        )
    assert refused.value.code == "not_party"
    assert not TransferPaid.objects.exists()


def test_a_payer_marking_another_amount_or_direction_is_refused(night):
    table, seats, users = night
    token = seats["Chandra"].guest_token
    for amount in (Decimal("4.99"), Decimal("5.01"), Decimal("0.00"), Decimal("10.00")):
        with pytest.raises(LedgerError) as refused:
            transfer_mark_paid(
                table=table,
                payer_seat=seats["Chandra"],
                payee_seat=seats["Bikash"],
                amount=amount,
                by=None,
                guest_token=token,
            )
        assert refused.value.code == "no_such_transfer"
    # Bikash "paying" Chandra: a transfer the settlement does not list.
    with pytest.raises(LedgerError) as refused:
        transfer_mark_paid(
            table=table,
            payer_seat=seats["Bikash"],
            payee_seat=seats["Chandra"],
            amount=Decimal("5.00"),
            by=users["Bikash"],
        )
    assert refused.value.code == "no_such_transfer"
    assert not TransferPaid.objects.exists()


def test_a_mark_is_taken_back_by_whoever_made_it_or_the_host(night, host):
    table, seats, users = night
    token = seats["Chandra"].guest_token

    def unmark(**who):
        transfer_unmark_paid(table=table, payer_seat=seats["Chandra"], payee_seat=seats["Bikash"], **who)

    chandra_pays(table, seats, by=users["Bikash"])
    for who in ({"by": None, "guest_token": token}, {"by": users["Dipa"]}, {"by": None, "guest_token": ""}):
        with pytest.raises(LedgerError) as refused:
            unmark(**who)  # the payer did not make it; the others are not party
        assert refused.value.code == "not_party"
    assert paid_lines(table)[0] == ("Chandra", True, "Bikash", "payee")
    unmark(by=users["Bikash"])
    assert not TransferPaid.objects.exists()
    # The host's mark: neither the payer nor the payee takes it back; the host does.
    chandra_pays(table, seats, by=host)
    for who in ({"by": None, "guest_token": token}, {"by": users["Bikash"]}):
        with pytest.raises(LedgerError):
            unmark(**who)
    assert TransferPaid.objects.get().marked_as == "host"
    unmark(by=host)
    # And the host takes back the guest payer's own mark.
    chandra_pays(table, seats, by=None, guest_token=token)
    unmark(by=host)
    assert not TransferPaid.objects.exists()


def test_marking_twice_keeps_the_first_mark(night):
    table, seats, users = night
    first = chandra_pays(table, seats, by=users["Bikash"])
    second = chandra_pays(table, seats, by=None, guest_token=seats["Chandra"].guest_token)
    assert first.pk == second.pk and TransferPaid.objects.get().marked_as == "payee"


# --- Through the pages -----------------------------------------------------------------------


def report_url(table):
    return reverse("ledger:table_report", kwargs={"code": table.code})


def paid_url(table):
    return reverse("ledger:transfer_paid", kwargs={"code": table.code})


def as_guest(client, seat):
    session = client.session
    session[GUEST_TOKEN_SESSION_KEY] = seat.guest_token
    session.save()


def chandras(seats, paid="1", amount="5.00"):
    return {"payer": seats["Chandra"].pk, "payee": seats["Bikash"].pk, "amount": amount, "paid": paid}


def test_the_guest_payer_marks_through_the_form_and_everyone_sees_who_marked_it(client, night, host):
    table, seats, users = night
    as_guest(client, seats["Chandra"])
    page = client.get(report_url(table)).content.decode()
    assert page.count("Mark paid") == 1 and f'name="payer" value="{seats["Chandra"].pk}"' in page
    assert client.post(paid_url(table), chandras(seats))["Location"] == report_url(table)
    mark = TransferPaid.objects.get()
    assert (mark.marked_by, mark.marked_as, mark.marked_by_name) == (None, "payer", "Chandra")
    page = client.get(report_url(table)).content.decode()
    assert "Paid (marked by Chandra, the payer)" in page and "Undo" in page  # her own mark
    for user in (host, users["Bikash"], users["Dipa"]):
        client.force_login(user)
        assert "Paid (marked by Chandra, the payer)" in client.get(report_url(table)).content.decode()
    # Bikash (the payee) did not make the mark: no Undo for him, and his POST is a 403.
    client.force_login(users["Bikash"])
    assert "Undo" not in client.get(report_url(table)).content.decode()
    assert client.post(paid_url(table), chandras(seats, paid="")).status_code == 403
    # The host's page offers Undo (any mark), and Mark paid for Eka's transfer.
    client.force_login(host)
    page = client.get(report_url(table)).content.decode()
    assert "Undo" in page and page.count("Mark paid") == 1
    assert client.post(paid_url(table), chandras(seats, paid="")).status_code == 302
    assert not TransferPaid.objects.exists()


def test_the_payee_marks_through_the_form_in_german(client, night):
    table, seats, users = night
    client.force_login(users["Bikash"])
    assert client.post(paid_url(table), chandras(seats)).status_code == 302
    page = client.get(report_url(table), headers={"accept-language": "de"}).content.decode()
    assert "Bezahlt (markiert von Bikash, dem Empfänger)" in page


def test_a_guest_of_another_seat_and_a_third_player_get_a_403_through_the_form(client, night):
    table, seats, users = night
    as_guest(client, seats["Eka"])
    assert client.post(paid_url(table), chandras(seats)).status_code == 403
    client.force_login(users["Dipa"])
    assert client.post(paid_url(table), chandras(seats)).status_code == 403
    assert "Mark paid" in client.get(report_url(table)).content.decode()  # his own: Eka pays Dipa
    client.logout()
    assert client.post(paid_url(table), chandras(seats))["Location"].startswith(reverse("login"))
    assert not TransferPaid.objects.exists()


def test_a_different_amount_through_the_form_is_refused_with_a_reason(client, night):
    table, seats, users = night
    client.force_login(users["Bikash"])
    response = client.post(paid_url(table), chandras(seats, amount="50.00"), follow=True)
    assert "The settlement has no such transfer." in response.content.decode()
    assert not TransferPaid.objects.exists()


def test_a_night_of_a_closed_season_is_refused_through_its_page_as_before(client, host, friends):  # noqa: F811
    home_game, tables = three_nights(host, friends)
    season_close(home_game=home_game, by=host)
    table = tables[0]
    transfer = ledger_report(table=table).transfers[0]
    assert transfer.payer_name == "Bikash"
    data = {"payer": transfer.payer_seat_id, "payee": transfer.payee_seat_id, "amount": str(transfer.amount)}
    for user in (friends["Bikash"], host):
        client.force_login(user)
        response = client.post(paid_url(table), {**data, "paid": "1"}, follow=True)
        assert "This night is settled with its home game&#x27;s season, not on its own." in response.content.decode()
        page = client.get(report_url(table)).content.decode()
        assert "Mark paid" not in page
    assert not TransferPaid.objects.exists()
    with pytest.raises(LedgerError) as refused:
        night_transfer_mark_paid(
            table=table,
            payer_seat=table.seats.get(pk=transfer.payer_seat_id),
            payee_seat=table.seats.get(pk=transfer.payee_seat_id),
            amount=transfer.amount,
            by=friends["Bikash"],
        )
    assert refused.value.code == "settled_by_season"


def test_the_csv_names_who_marked_each_transfer_paid_as_the_page_does(client, night, host):
    table, seats, _users = night
    chandra_pays(table, seats, by=None, guest_token=seats["Chandra"].guest_token)
    client.force_login(host)
    assert "Paid (marked by Chandra, the payer)" in client.get(report_url(table)).content.decode()
    body = client.get(reverse("ledger:table_report_csv", kwargs={"code": table.code})).content.decode()
    rows = list(csv.reader(io.StringIO(body)))
    assert ["From", "To", "Amount", "Currency", "Paid", "Marked by"] in rows
    assert ["Chandra", "Bikash", "5.00", "", "yes", "Chandra"] in rows
    assert ["Eka", "Dipa", "2.00", "", "no", ""] in rows
