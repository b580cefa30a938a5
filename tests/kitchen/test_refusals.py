"""The bad input and abuse of issue 39's "Done when", each refused with a clear error and
nothing written, through the pages as a phone sends them: a cash-out of more chips than the
bank holds, a negative cost, a cost shared among nobody, an elimination of someone already
out, a re-buy after the period (recorded by the host, or asked for by the player and
confirmed), a level of 0 minutes; a guest recording someone else's buy-in or cash-out, a
non-host running the clock, a stranger reading the TV page of a private table."""

from __future__ import annotations

import pytest
from django.urls import reverse

from kitchen.models import AddOn, Elimination, KitchenNight, TournamentClock
from kitchen.services import kitchen_approve, kitchen_ask, kitchen_buy_in
from kitchen.tournament import kitchen_clock_start, kitchen_eliminate
from ledger.models import LedgerEntry, SharedCost
from tables.models import Event, Seat, Table
from tables.selectors import requests_pending
from tables.services import ServiceError
from tests.kitchen.conftest import add_by_name, host_seat, join_as, make_user
from tests.kitchen.test_tournament import at, open_tournament


def written():
    return (
        LedgerEntry.objects.count(),
        Event.objects.count(),
        SharedCost.objects.count(),
        Elimination.objects.count(),
        AddOn.objects.count(),
        list(TournamentClock.objects.values_list("started", "elapsed_ms", "running_since")),
        list(Seat.objects.order_by("pk").values_list("stack", "buy_ins", "number")),
    )


def refused_on_the_page(client, url, data, message):
    """Post as the page does: the refusal's message is shown and nothing is written."""
    before = written()
    response = client.post(url, data, follow=True)
    assert response.status_code == 200
    assert message in response.content.decode()
    assert written() == before


@pytest.fixture
def cash_night(client, host):
    client.force_login(host)
    client.post(reverse("kitchen:new"), {"buy_in_chips": "1000", "buy_in_price": "10.00", "currency": "USD"})
    table = KitchenNight.objects.get().table
    return table, reverse("kitchen:act", kwargs={"code": table.code})


@pytest.fixture
def tournament(client, host):
    table = open_tournament(host, rebuy_levels=1)
    client.force_login(host)
    return table, reverse("kitchen:clock", kwargs={"code": table.code})


def test_a_cash_out_of_more_chips_than_the_bank_holds(client, cash_night):
    table, act = cash_night
    bina = add_by_name(table, "Bina")  # 1,000 chips out of the bank
    message = "The bank gave out only 1000 chips that are not back yet; count again."
    refused_on_the_page(client, act, {"action": "cash_out", "player": bina.pk, "chips": "1001"}, message)


@pytest.mark.parametrize(
    ("amount", "sharers", "message"),
    [
        ("-5.00", "both", "A cost is more than zero."),
        ("5.00", "none", "Choose who shares this cost."),
    ],
)
def test_a_negative_cost_or_a_cost_shared_among_nobody(client, cash_night, amount, sharers, message):
    table, act = cash_night
    bina = add_by_name(table, "Bina")
    hostseat = host_seat(table)
    data = {"action": "cost", "what": "Pizza", "amount": amount, "paid_by": hostseat.pk}
    if sharers == "both":
        data["sharer"] = [hostseat.pk, bina.pk]
    refused_on_the_page(client, act, data, message)


def test_an_elimination_of_someone_already_out(client, host, tournament):
    table, clock_url = tournament
    hostseat = host_seat(table)
    kitchen_buy_in(table_id=table.pk, seat_id=hostseat.pk, player_seat_id=hostseat.pk)
    bina, chet = add_by_name(table, "Bina"), add_by_name(table, "Chet")
    kitchen_clock_start(table_id=table.pk, seat_id=hostseat.pk)
    kitchen_eliminate(table_id=table.pk, seat_id=hostseat.pk, player_seat_ids=[chet.pk])
    message = "Chet is out of the tournament."
    refused_on_the_page(client, clock_url, {"action": "out", "out": [chet.pk]}, message)
    refused_on_the_page(client, clock_url, {"action": "out", "out": [bina.pk, chet.pk]}, message)


def test_a_rebuy_after_the_period_recorded_by_the_host(client, tournament):
    table, _clock_url = tournament
    hostseat = host_seat(table)
    bina = add_by_name(table, "Bina")
    with at(0):
        kitchen_clock_start(table_id=table.pk, seat_id=hostseat.pk)
    act = reverse("kitchen:act", kwargs={"code": table.code})
    with at(700):  # level 2: re-buys ran through level 1
        refused_on_the_page(client, act, {"action": "buy_in", "player": bina.pk}, "The re-buy period is over.")


def test_a_rebuy_asked_for_after_the_period_is_refused_and_so_is_its_confirmation(host, tournament):
    """A player asks from their phone during the period; the host confirms after it: the
    confirmation is refused too (the tables' requests know nothing of a tournament's period)."""
    table, _clock_url = tournament
    hostseat = host_seat(table)
    dev = join_as(table, make_user("dev"))
    kitchen_buy_in(table_id=table.pk, seat_id=hostseat.pk, player_seat_id=dev.pk)
    with at(0):
        kitchen_clock_start(table_id=table.pk, seat_id=hostseat.pk)
    with at(100):
        kitchen_ask(table_id=table.pk, seat_id=dev.pk)
    request = requests_pending(table=table)[0]["request"]
    with at(700):
        before = written()
        with pytest.raises(ServiceError) as caught:
            kitchen_ask(table_id=table.pk, seat_id=dev.pk)
        assert caught.value.code == "rebuy_closed"
        assert written() == before
        with pytest.raises(ServiceError) as caught:
            kitchen_approve(table_id=table.pk, seat_id=hostseat.pk, request=request)
        assert caught.value.code == "rebuy_closed"
        assert written() == before


def test_a_player_out_cannot_ask_to_buy_in_again(host, tournament):
    table, _clock_url = tournament
    hostseat = host_seat(table)
    kitchen_buy_in(table_id=table.pk, seat_id=hostseat.pk, player_seat_id=hostseat.pk)
    dev = join_as(table, make_user("dev"))
    kitchen_buy_in(table_id=table.pk, seat_id=hostseat.pk, player_seat_id=dev.pk)
    add_by_name(table, "Bina")
    with at(0):
        kitchen_clock_start(table_id=table.pk, seat_id=hostseat.pk)
    with at(10):
        kitchen_eliminate(table_id=table.pk, seat_id=hostseat.pk, player_seat_ids=[dev.pk])
        before = written()
        with pytest.raises(ServiceError) as caught:
            kitchen_ask(table_id=table.pk, seat_id=dev.pk)
        assert caught.value.code == "already_out"
        assert written() == before


def test_the_host_confirms_through_the_tournaments_rules_on_the_page(client, host, tournament):
    """The page's "confirm" is the kitchen's: a request confirmed after the period is refused."""
    table, _clock_url = tournament
    hostseat = host_seat(table)
    dev = join_as(table, make_user("dev"))
    kitchen_buy_in(table_id=table.pk, seat_id=hostseat.pk, player_seat_id=dev.pk)
    with at(0):
        kitchen_clock_start(table_id=table.pk, seat_id=hostseat.pk)
    with at(100):
        kitchen_ask(table_id=table.pk, seat_id=dev.pk)
    request = requests_pending(table=table)[0]["request"]
    act = reverse("kitchen:act", kwargs={"code": table.code})
    with at(700):
        refused_on_the_page(client, act, {"action": "approve", "request": request}, "The re-buy period is over.")


@pytest.mark.parametrize("structure", [{"structure": "standard", "minutes": "0"}, {"levels": "10 20 0 0"}])
def test_a_level_of_zero_minutes_opens_nothing(client, host, structure):
    client.force_login(host)
    form = {"starting_chips": "1000", "buy_in_price": "10.00", "structure": "custom", "rebuy_levels": "0"}
    form["payouts"] = "50/30/20"
    form.update(structure)
    response = client.post(reverse("kitchen:tournament_new"), form)
    assert "Level 1: a level lasts more than 0 minutes and at most 4 hours." in response.content.decode()
    assert not Table.objects.exists() and not TournamentClock.objects.exists()


def test_a_guest_cannot_record_someone_elses_buy_in_or_cash_out(client, cash_night):
    table, act = cash_night
    bina = add_by_name(table, "Bina")
    client.logout()
    client.post(reverse("kitchen:join", kwargs={"code": table.code, "token": table.invite_token}), {"name": "Guest"})
    message = "Only the host can do that."
    refused_on_the_page(client, act, {"action": "buy_in", "player": bina.pk}, message)
    refused_on_the_page(client, act, {"action": "cash_out", "player": bina.pk, "chips": "500"}, message)


@pytest.mark.parametrize("action", ["start", "pause", "resume", "back", "out", "addon"])
def test_a_player_not_the_host_cannot_run_the_clock(client, host, tournament, action):
    table, clock_url = tournament
    hostseat = host_seat(table)
    kitchen_buy_in(table_id=table.pk, seat_id=hostseat.pk, player_seat_id=hostseat.pk)
    bina = add_by_name(table, "Bina")
    dev = make_user("dev")
    join_as(table, dev)
    if action != "start":
        kitchen_clock_start(table_id=table.pk, seat_id=hostseat.pk)
    client.force_login(dev)
    refused_on_the_page(client, clock_url, {"action": action, "out": [bina.pk], "player": bina.pk}, "Only the host")


def test_a_stranger_cannot_read_the_tv_page_of_a_private_table(client, host, tournament):
    table, _clock_url = tournament
    client.force_login(make_user("stranger"))
    for token in ("x" * 22, table.invite_token[:-1], ""):
        for name in ("kitchen:tv", "kitchen:tv_state"):
            url = f"/kitchen/{table.code}/tv/{token}/" + ("state/" if name == "kitchen:tv_state" else "")
            assert client.get(url).status_code == 404
    assert client.get(reverse("kitchen:night", kwargs={"code": table.code})).status_code == 404
    # With the link: the clock, the counts and the prizes, no one's name or buy-ins.
    hostseat = host_seat(table)
    kitchen_buy_in(table_id=table.pk, seat_id=hostseat.pk, player_seat_id=hostseat.pk)
    add_by_name(table, "Bina")
    page = client.get(reverse("kitchen:tv", kwargs={"code": table.code, "token": table.invite_token})).content
    assert b"Bina" not in page and b"Asha" not in page
