"""Paying during an open season (issue 38, payments; docs/ledger.md, "Paid during the season"):
a transfer the open season lists, marked paid by its payer, its payee or the host, is a payment
kept apart from the chips; the season's transfers are then worked out from each net less what
was paid so far, so nothing is settled twice and nothing lost when the season closes. The page
and its CSV show each payment and who marked it. With the abuse: a third member, another amount,
a stranger, taking back someone else's mark or one of a closed season."""

from __future__ import annotations

import csv
import io
import re
from decimal import Decimal

import pytest
from django.urls import reverse

from homegames.checks import ledger_problems
from homegames.models import HomeGame, SeasonPayment
from homegames.selectors_seasons import season_closed, season_open
from homegames.services_members import home_game_add_table, seat_claim_answer, seat_claim_make
from homegames.services_payments import season_payment_mark, season_payment_unmark
from homegames.services_seasons import home_game_set_settle_by, season_close
from ledger.services import LedgerError
from tests.ledger.conftest import make_user
from tests.ledger.test_found_replayed import cents, text_of
from tests.ledger.test_seasons import friends, three_nights  # noqa: F401 (the fixture)
from tests.ledger.test_views import play_night

# After the three nights of tests.ledger.test_seasons: Asha +3.50, Bikash -2.00, Chandra -1.50.
# A fourth night, played after Bikash paid: Asha -5.00, Bikash +8.00, Chandra -3.00.
FOURTH = {"Asha": 500, "Bikash": 1800, "Chandra": 700}


def key(user):
    return f"user:{user.pk}"


def transfers(view):
    return [(t.payer_name, t.payee_name, t.amount) for t in view.transfers]


def home_url(home_game):
    return reverse("ledger:home_game_detail", kwargs={"home_game_id": home_game.pk})


def paid_url(home_game):
    return reverse("ledger:season_paid", kwargs={"home_game_id": home_game.pk})


def undo_url(payment):
    ids = {"home_game_id": payment.home_game_id, "payment_id": payment.pk}
    return reverse("ledger:season_payment_undo", kwargs=ids)


def page_rows(page: str, css: str) -> list[list[str]]:
    """The cells of each body row of the page's table of class ``css``."""
    table = re.search(rf'<table class="{css}[ "].*?</table>', page, re.S)
    if table is None:
        return []
    body = re.search(r"<tbody>(.*?)</tbody>", table.group(0), re.S)
    return [
        [text_of(cell) for cell in re.findall(r"<t[dh][^>]*>(.*?)</t[dh]>", row, re.S)]
        for row in re.findall(r"<tr.*?</tr>", body.group(1) if body else "", re.S)
    ]


def csv_parts(body: str) -> dict[str, list[list[str]]]:
    """The season's CSV cut into its parts: people, payments (paid during the season), transfers."""
    rows = list(csv.reader(io.StringIO(body)))
    parts: dict[str, list[list[str]]] = {"people": [], "payments": [], "transfers": []}
    part = "people"
    for row in rows[1:]:
        if row == ["Paid during the season"]:
            part = "payments_title"
        elif row == ["From", "To", "Amount", "Currency", "Marked by", "As"]:
            part = "payments"
        elif row == ["From", "To", "Amount", "Currency", "Paid", "Marked by"]:
            part = "transfers"
        elif row and row[0] == "Correction":
            part = "corrections"
        elif row and part in parts:
            parts[part].append(row)
    return parts


def check_page_equals_csv(client, home_game, page_url, csv_url):
    """Every person's net, every payment during the season (with who marked it) and every
    transfer: the page's and the CSV's, to the cent."""
    page = client.get(page_url).content.decode()
    parts = csv_parts(client.get(csv_url).content.decode())
    people = {row[0]: cents(row[2]) for row in page_rows(page, "season-people")}
    assert people == {row[0]: cents(row[2]) for row in parts["people"]}
    paid = [(row[0], row[1], cents(row[2])) for row in page_rows(page, "season-payments")]
    assert paid == [(row[0], row[1], cents(row[2])) for row in parts["payments"]]
    for row, csv_row in zip(page_rows(page, "season-payments"), parts["payments"], strict=True):
        assert f"marked by {csv_row[4]}, {csv_row[5]}" in row[3]
    shown = sorted((row[0], row[1], cents(row[2].split(" season")[0])) for row in page_rows(page, "season-transfers"))
    assert shown == sorted((row[0], row[1], cents(row[2])) for row in parts["transfers"])
    return people, paid, shown


def settled_exactly(people, paid, shown):
    """Every person's net equals what they received less what they paid (the payments during the
    season and the transfers left), to the cent; no payment is listed again as a transfer."""
    left = dict(people)
    for payer, payee, amount in [*paid, *shown]:
        left[payer] += amount
        left[payee] -= amount
    assert set(left.values()) == {0}, left
    assert not set(paid) & set(shown)


def test_a_payment_mid_season_then_another_night_then_the_close_settles_every_net_exactly_once(
    client,
    host,
    friends,  # noqa: F811
):
    home_game, _tables = three_nights(host, friends)
    bikash, chandra = friends["Bikash"], friends["Chandra"]
    assert transfers(season_open(home_game=home_game)) == [
        ("Bikash", "Asha", Decimal("2.00")),
        ("Chandra", "Asha", Decimal("1.50")),
    ]
    # Bikash pays Asha during the season and marks it on the home game's page.
    client.force_login(bikash)
    page = client.get(home_url(home_game)).content.decode()
    assert page.count("Mark paid") == 1  # his own transfer, not Chandra's
    data = {"payer": key(bikash), "payee": key(host), "amount": "2.00"}
    assert client.post(paid_url(home_game), data)["Location"] == home_url(home_game)
    payment = SeasonPayment.objects.get()
    assert (payment.marked_by, payment.marked_as, payment.season) == (bikash, "payer", None)
    view = season_open(home_game=home_game)
    assert transfers(view) == [("Chandra", "Asha", Decimal("1.50"))]  # his is not listed again
    page = client.get(home_url(home_game)).content.decode()
    assert "Paid during the season" in page and f"Paid (marked by {bikash.table_name}, the payer)" in page
    open_csv = reverse("ledger:season_csv_open", kwargs={"home_game_id": home_game.pk})
    settled_exactly(*check_page_equals_csv(client, home_game, home_url(home_game), open_csv))

    # Another night: the nets move, and what is left is worked out after Bikash's payment.
    table, _seats = play_night(host, results=FOURTH, others=friends)
    home_game_add_table(home_game=home_game, table=table, by=host)
    view = season_open(home_game=home_game)
    assert {p.name: p.net_money for p in view.people} == {
        "Asha": Decimal("-1.50"),
        "Bikash": Decimal("6.00"),
        "Chandra": Decimal("-4.50"),
    }
    assert transfers(view) == [("Asha", "Bikash", Decimal("3.50")), ("Chandra", "Bikash", Decimal("4.50"))]
    settled_exactly(*check_page_equals_csv(client, home_game, home_url(home_game), open_csv))

    # The host marks Chandra's payment (any transfer), then closes the season.
    client.force_login(host)
    data = {"payer": key(chandra), "payee": key(bikash), "amount": "4.50"}
    assert client.post(paid_url(home_game), data).status_code == 302
    assert SeasonPayment.objects.get(payer_key=key(chandra)).marked_as == "host"
    client.post(reverse("ledger:season_close", kwargs={"home_game_id": home_game.pk}), {"confirm": "1"})
    season = home_game.seasons.get()
    closed = season_closed(season=season)
    assert transfers(closed) == [("Asha", "Bikash", Decimal("3.50"))]
    assert set(season.payments.values_list("payer_name", "amount")) == {
        ("Bikash", Decimal("2.00")),
        ("Chandra", Decimal("4.50")),
    }
    assert season_open(home_game=home_game).payments == []  # the next season starts with none
    season_url = reverse("ledger:season_detail", kwargs={"home_game_id": home_game.pk, "number": 1})
    season_csv = reverse("ledger:season_csv", kwargs={"home_game_id": home_game.pk, "number": 1})
    people, paid, shown = check_page_equals_csv(client, home_game, season_url, season_csv)
    assert people == {"Asha": -150, "Bikash": 600, "Chandra": -450}
    assert paid == [("Bikash", "Asha", 200), ("Chandra", "Bikash", 450)]
    assert shown == [("Asha", "Bikash", 350)]
    settled_exactly(people, paid, shown)
    assert ledger_problems() == []  # the audit: the frozen transfers and payments settle the nets
    # The home game's page lists only Asha's transfer as still unpaid, never a paid one again.
    assert [(t.payer_name, t.amount) for t in closed.transfers if not t.paid] == [("Asha", Decimal("3.50"))]
    page = client.get(home_url(home_game)).content.decode()
    assert [(row[0], row[1]) for row in page_rows(page, "season-transfers")] == [("Asha", "Bikash")]
    # A closed season's payments are fixed: not even the host takes one back.
    for who in (host, bikash):
        with pytest.raises(LedgerError) as refused:
            season_payment_unmark(payment=season.payments.get(payer_key=key(bikash)), by=who)
        assert refused.value.code == "season_closed"
    assert season.payments.count() == 2


def test_a_third_member_another_amount_and_a_stranger_are_refused(client, host, friends):  # noqa: F811
    home_game, _tables = three_nights(host, friends)
    bikash, chandra = friends["Bikash"], friends["Chandra"]
    bikash_pays = {"payer": key(bikash), "payee": key(host), "amount": "2.00"}
    # Chandra, a member, marking Bikash's transfer: a 403 on the page, not_party in the service.
    client.force_login(chandra)
    assert client.post(paid_url(home_game), bikash_pays).status_code == 403
    with pytest.raises(LedgerError) as refused:
        season_payment_mark(
            home_game=home_game, payer_key=key(bikash), payee_key=key(host), amount=Decimal("2.00"), by=chandra
        )
    assert refused.value.code == "not_party"
    # Bikash, marking his own at another amount, or a transfer the season does not list.
    client.force_login(bikash)
    for amount in ("1.99", "2.01", "20.00", "0.00"):
        response = client.post(paid_url(home_game), {**bikash_pays, "amount": amount}, follow=True)
        assert "The settlement has no such transfer." in response.content.decode(), amount
    for payee in (key(chandra), "guest:asha", "user:999999"):
        with pytest.raises(LedgerError) as refused:
            season_payment_mark(
                home_game=home_game, payer_key=key(bikash), payee_key=payee, amount=Decimal("2.00"), by=bikash
            )
        assert refused.value.code == "no_such_transfer", payee
    # Forged input: no form, a float's text, a missing amount.
    for data in ({}, {**bikash_pays, "amount": "2.0000001"}, {"payer": key(bikash), "payee": key(host)}):
        response = client.post(paid_url(home_game), data, follow=True)
        assert "That transfer could not be found." in response.content.decode()
    # A stranger (not a member) gets a 404; a removed member too, though he was the payer.
    client.force_login(make_user("stranger"))
    assert client.post(paid_url(home_game), bikash_pays).status_code == 404
    home_game.members.remove(bikash)
    client.force_login(bikash)
    assert client.post(paid_url(home_game), bikash_pays).status_code == 404
    with pytest.raises(LedgerError) as refused:
        season_payment_mark(
            home_game=home_game, payer_key=key(bikash), payee_key=key(host), amount=Decimal("2.00"), by=bikash
        )
    assert refused.value.code == "not_party"
    assert client.get(paid_url(home_game)).status_code in (404, 405)
    assert not SeasonPayment.objects.exists()


def test_the_payee_marks_and_a_mark_is_taken_back_by_whoever_made_it_or_the_host(client, host, friends):  # noqa: F811
    home_game, _tables = three_nights(host, friends)
    bikash, chandra = friends["Bikash"], friends["Chandra"]
    # Asha is the payee of both; she marks Chandra's as the payee (she is also the host).
    payment = season_payment_mark(
        home_game=home_game, payer_key=key(chandra), payee_key=key(host), amount=Decimal("1.50"), by=host
    )
    assert payment.marked_as == "payee"
    # Marking it again: the season no longer lists it, so nothing is paid twice.
    with pytest.raises(LedgerError) as refused:
        season_payment_mark(
            home_game=home_game, payer_key=key(chandra), payee_key=key(host), amount=Decimal("1.50"), by=chandra
        )
    assert refused.value.code == "no_such_transfer"
    # Chandra (the payer) did not make it: no Undo for her, and her POST is a 403.
    client.force_login(chandra)
    page = client.get(home_url(home_game)).content.decode()
    assert f"Paid (marked by {host.table_name}, the payee)" in page and undo_url(payment) not in page
    assert client.post(undo_url(payment)).status_code == 403
    assert SeasonPayment.objects.filter(pk=payment.pk).exists()
    # Bikash marks his own; he takes it back himself.
    client.force_login(bikash)
    client.post(paid_url(home_game), {"payer": key(bikash), "payee": key(host), "amount": "2.00"})
    own = SeasonPayment.objects.get(payer_key=key(bikash))
    assert undo_url(own) in client.get(home_url(home_game)).content.decode()
    assert undo_url(payment) not in client.get(home_url(home_game)).content.decode()
    assert client.post(undo_url(own))["Location"] == home_url(home_game)
    assert not SeasonPayment.objects.filter(pk=own.pk).exists()
    assert transfers(season_open(home_game=home_game)) == [("Bikash", "Asha", Decimal("2.00"))]
    # The host takes back any: Bikash marks again, the host undoes it.
    client.post(paid_url(home_game), {"payer": key(bikash), "payee": key(host), "amount": "2.00"})
    client.force_login(host)
    assert client.post(undo_url(SeasonPayment.objects.get(payer_key=key(bikash)))).status_code == 302
    assert list(SeasonPayment.objects.values_list("pk", flat=True)) == [payment.pk]
    # A payment of another home game is a 404 here.
    other, _other_tables = three_nights(host, friends)
    foreign = reverse("ledger:season_payment_undo", kwargs={"home_game_id": other.pk, "payment_id": payment.pk})
    assert client.post(foreign).status_code == 404


def test_switching_to_night_by_night_is_refused_while_the_season_is_being_paid(host, friends):  # noqa: F811
    home_game, _tables = three_nights(host, friends)
    season_payment_mark(
        home_game=home_game,
        payer_key=key(friends["Bikash"]),
        payee_key=key(host),
        amount=Decimal("2.00"),
        by=friends["Bikash"],
    )
    with pytest.raises(LedgerError) as refused:
        home_game_set_settle_by(home_game=home_game, settle_by=HomeGame.SettleBy.NIGHT, by=host)
    assert refused.value.code == "season_being_paid"
    home_game.refresh_from_db()
    assert home_game.settle_by == HomeGame.SettleBy.SEASON
    # Once the season is closed, the next one may be paid night by night.
    season_close(home_game=home_game, by=host)
    home_game_set_settle_by(home_game=home_game, settle_by=HomeGame.SettleBy.NIGHT, by=host)


def test_night_by_night_the_season_lists_nothing_to_mark(client, host, friends):  # noqa: F811
    home_game, _tables = three_nights(host, friends, settle_by=HomeGame.SettleBy.NIGHT)
    client.force_login(friends["Bikash"])
    assert client.get(home_url(home_game)).content.decode().count(paid_url(home_game)) == 0
    with pytest.raises(LedgerError) as refused:
        season_payment_mark(
            home_game=home_game,
            payer_key=key(friends["Bikash"]),
            payee_key=key(host),
            amount=Decimal("2.00"),
            by=friends["Bikash"],
        )
    assert refused.value.code == "no_such_transfer"
    assert not SeasonPayment.objects.exists()


def test_a_guest_named_by_a_payment_cannot_become_a_member_until_it_is_taken_back(client, host, friends):  # noqa: F811
    """Chandra played as a guest and paid Asha during the season; the payment names the guest.
    Confirming Dipa's claim of one of Chandra's seats would count those results as Dipa's while
    the payment stays the guest's: refused until the payment is taken back."""
    home_game, tables = three_nights(host, {"Bikash": friends["Bikash"]})
    assert ("Chandra", "Asha", Decimal("1.50")) in transfers(season_open(home_game=home_game))
    payment = season_payment_mark(
        home_game=home_game, payer_key="guest:chandra", payee_key=key(host), amount=Decimal("1.50"), by=host
    )
    dipa = make_user("dipa")
    home_game.members.add(dipa)
    claim = seat_claim_make(home_game=home_game, seat=tables[0].seats.get(display_name="Chandra"), by=dipa)
    with pytest.raises(LedgerError) as refused:
        seat_claim_answer(claim=claim, confirm=True, by=host)
    assert refused.value.code == "season_being_paid"
    client.force_login(host)
    answer = reverse("ledger:seat_claim_answer", kwargs={"home_game_id": home_game.pk, "claim_id": claim.pk})
    response = client.post(answer, {"confirm": "1"}, follow=True)
    assert "A payment of this season names this guest" in response.content.decode()
    claim.refresh_from_db()
    assert claim.confirmed_at is None
    season_payment_unmark(payment=payment, by=host)
    assert seat_claim_answer(claim=claim, confirm=True, by=host).confirmed_at is not None
