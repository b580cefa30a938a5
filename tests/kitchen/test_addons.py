"""A tournament's add-on (issue 39): allowed only when the host says so at opening, once a
player, at the add-on level or the break after it, by the host; its money is in the pool and
the prizes; a refused add-on writes nothing."""

from __future__ import annotations

from decimal import Decimal

import pytest
from django.urls import reverse

from kitchen.addons import kitchen_addon
from kitchen.models import AddOn, Elimination, TournamentClock
from kitchen.services import kitchen_buy_in
from kitchen.tournament import kitchen_clock_start, kitchen_eliminate, kitchen_tournament_open
from kitchen.tv import tv_state
from ledger.models import LedgerEntry
from ledger.selectors import ledger_chip_totals, ledger_report
from tables.models import Event, Seat, Table
from tables.services import ServiceError
from tests.kitchen.conftest import add_by_name, host_seat, join_as, make_user
from tests.kitchen.test_tournament import LEVELS, at


def open_with_addons(host, *, addon_level=2, addon_chips=10_000, rebuy_levels=1, payouts=(50, 30, 20)):
    return kitchen_tournament_open(
        host=host,
        starting_chips=5000,
        buy_in_price="10.00",
        levels=list(LEVELS),
        rebuy_levels=rebuy_levels,
        payouts=list(payouts),
        addon_level=addon_level,
        addon_chips=addon_chips,
    )


def _written(table):
    return (
        LedgerEntry.objects.filter(table=table).count(),
        Event.objects.filter(table=table).count(),
        AddOn.objects.count(),
        list(Seat.objects.filter(table=table).order_by("pk").values_list("stack", flat=True)),
    )


def _refused(code, table, **kwargs):
    before = _written(table)
    with pytest.raises(ServiceError) as caught:
        kitchen_addon(table_id=table.pk, **kwargs)
    assert caught.value.code == code
    assert _written(table) == before


def test_an_add_on_once_a_player_in_its_period_counted_in_the_pool_and_the_prizes(host):
    """Three buy in at 10.00; add-ons of 10,000 chips (20.00) at level 2 and the break after
    it; two take one: pool 70.00, 50/30/20 gives 35.00, 21.00, 14.00."""
    table = open_with_addons(host)
    hostseat = host_seat(table)
    kitchen_addon_for = {"seat_id": hostseat.pk}
    kitchen_buy_in(table_id=table.pk, seat_id=hostseat.pk, player_seat_id=hostseat.pk)
    bina, chet = add_by_name(table, "Bina"), add_by_name(table, "Chet")
    dev = join_as(table, make_user("dev"))  # at the table, never bought in
    _refused("addon_closed", table, **kitchen_addon_for, player_seat_id=bina.pk)  # before the start
    with at(0):
        kitchen_clock_start(table_id=table.pk, seat_id=hostseat.pk)
    with at(100):  # level 1
        _refused("addon_closed", table, **kitchen_addon_for, player_seat_id=bina.pk)
    with at(700):  # level 2
        _refused("not_host", table, seat_id=dev.pk, player_seat_id=dev.pk)
        _refused("not_host", table, seat_id=bina.pk, player_seat_id=bina.pk)
        _refused("not_bought_in", table, **kitchen_addon_for, player_seat_id=dev.pk)
        kitchen_addon(table_id=table.pk, **kitchen_addon_for, player_seat_id=bina.pk)
    bina.refresh_from_db()
    assert bina.stack == 15_000
    addon_event = Event.objects.get(table=table, kind="kitchen_addon")
    assert addon_event.payload == {"seat": bina.pk, "name": "Bina", "chips": 10_000, "price": "20.00", "by": "Asha"}
    with at(1300):  # the break after level 2: still open
        _refused("addon_taken", table, **kitchen_addon_for, player_seat_id=bina.pk)
        kitchen_addon(table_id=table.pk, **kitchen_addon_for, player_seat_id=chet.pk)
        assert tv_state(table, TournamentClock.objects.get())["pool"] == "70.00"
    totals = ledger_chip_totals(table=table)
    assert (totals.bought, totals.paid) == (35_000, Decimal("70.00"))
    with at(1600):  # level 3: over
        _refused("addon_closed", table, **kitchen_addon_for, player_seat_id=hostseat.pk)
        kitchen_eliminate(table_id=table.pk, seat_id=hostseat.pk, player_seat_ids=[chet.pk])
        _refused("already_out", table, **kitchen_addon_for, player_seat_id=chet.pk)
        kitchen_eliminate(table_id=table.pk, seat_id=hostseat.pk, player_seat_ids=[hostseat.pk])
    table.refresh_from_db()
    assert table.status == Table.Status.ENDED
    report = ledger_report(table=table)
    prizes = {line.name: (line.place, line.prize, line.net_money) for line in report.players}
    assert prizes == {
        "Bina": (1, Decimal("35.00"), Decimal("5.00")),
        "Asha": (2, Decimal("21.00"), Decimal("11.00")),
        "Chet": (3, Decimal("14.00"), Decimal("-16.00")),
    }
    assert Elimination.objects.filter(clock__night__table=table).count() == 3


def test_a_tournament_without_add_ons_refuses_one(host):
    table = open_with_addons(host, addon_level=0, addon_chips=0)
    hostseat = host_seat(table)
    bina = add_by_name(table, "Bina")
    with at(0):
        kitchen_clock_start(table_id=table.pk, seat_id=hostseat.pk)
    with at(700):
        _refused("no_addons", table, seat_id=hostseat.pk, player_seat_id=bina.pk)


@pytest.mark.parametrize(
    ("addon_level", "addon_chips"),
    [(4, 5000), (-1, 5000), (True, 5000), ("2", 5000), (2, 0), (2, -5000), (2, 3), (2, 2.5)],
)
def test_an_add_on_that_cannot_be_played_is_refused_and_opens_nothing(host, addon_level, addon_chips):
    """The structure has three playing levels; 3 chips at 10.00 for 5,000 is not in cents."""
    with pytest.raises(ServiceError) as caught:
        open_with_addons(host, addon_level=addon_level, addon_chips=addon_chips)
    assert caught.value.code == "bad_addon"
    assert not Table.objects.exists() and not TournamentClock.objects.exists()


def test_the_host_opens_a_tournament_with_add_ons_and_records_one_on_the_page(client, host):
    from django.urls import reverse

    client.force_login(host)
    form = {
        "starting_chips": "5000",
        "buy_in_price": "10.00",
        "structure": "custom",
        "levels": "10 20 0 10\n20 40 0 10\nbreak 5\n50 100 10 10",
        "rebuy_levels": "1",
        "payouts": "50/30/20",
        "addon_level": "2",
        "addon_chips": "3",
    }
    page = client.post(reverse("kitchen:tournament_new"), form).content.decode()
    assert "in cents" in page and not TournamentClock.objects.exists()
    response = client.post(reverse("kitchen:tournament_new"), {**form, "addon_chips": "10000"})
    clock = TournamentClock.objects.get()
    assert (clock.addon_level, clock.addon_chips) == (2, 10_000)
    table = clock.night.table
    night = reverse("kitchen:night", kwargs={"code": table.code})
    assert response["Location"] == night
    hostseat = host_seat(table)
    kitchen_buy_in(table_id=table.pk, seat_id=hostseat.pk, player_seat_id=hostseat.pk)
    with at(0):
        kitchen_clock_start(table_id=table.pk, seat_id=hostseat.pk)
    with at(100):
        assert "Record the add-on" not in client.get(night).content.decode()
    with at(700):
        assert "10,000 chips for 20.00" in client.get(night).content.decode()
        client.post(reverse("kitchen:clock", kwargs={"code": table.code}), {"action": "addon", "player": hostseat.pk})
        page = client.get(night).content.decode()
    assert AddOn.objects.filter(seat=hostseat).exists()
    assert "Asha: an add-on of 10,000 chips for 20.00." in page and "Record the add-on" not in page
    assert "Level 2 began" in page  # the level the add-on was bought in, recorded before it


def test_the_tv_shows_when_add_ons_are_open_their_price_and_how_many_were_bought(client, host):
    """The TV page's state, from the server's clock: the add-on level ahead, open at its level
    and the break after it, over after; one's chips and price, and a count of those bought,
    never who bought one. A tournament without add-ons shows none."""
    table = open_with_addons(host)  # 10,000 chips at level 2 (20.00)
    hostseat = host_seat(table)
    kitchen_buy_in(table_id=table.pk, seat_id=hostseat.pk, player_seat_id=hostseat.pk)
    bina = add_by_name(table, "Bina")
    state_url = reverse("kitchen:tv_state", kwargs={"code": table.code, "token": table.invite_token})
    tv_url = reverse("kitchen:tv", kwargs={"code": table.code, "token": table.invite_token})

    def addon():
        return client.get(state_url).json()["addon"]

    ahead = {"open": False, "when": "Add-ons at level 2", "offer": "10,000 chips for 20.00"}
    assert addon() == {**ahead, "bought": "0 add-ons bought"}  # before the start
    with at(0):
        kitchen_clock_start(table_id=table.pk, seat_id=hostseat.pk)
    with at(100):
        assert addon() == {**ahead, "bought": "0 add-ons bought"}
    with at(700):  # level 2
        kitchen_addon(table_id=table.pk, seat_id=hostseat.pk, player_seat_id=bina.pk)
        shown = addon()
        assert shown == {
            "open": True,
            "when": "Add-ons open now",
            "offer": "10,000 chips for 20.00",
            "bought": "1 add-on bought",
        }
        page = client.get(tv_url).content.decode()
        assert 'class="tv-addon tv-addon--open"' in page and "1 add-on bought" in page
    with at(1300):  # the break after it
        assert addon()["open"] is True
    with at(1600):  # level 3
        assert addon() == {"open": False, "when": "Add-ons are over", **{k: shown[k] for k in ("offer", "bought")}}
        state = client.get(state_url).content.decode()
        assert "Bina" not in state and "Asha" not in state  # a count, no one's name

    plain = open_with_addons(host, addon_level=0, addon_chips=0)
    assert tv_state(plain, TournamentClock.objects.get(night__table=plain))["addon"] is None
    page = client.get(reverse("kitchen:tv", kwargs={"code": plain.code, "token": plain.invite_token})).content.decode()
    assert 'id="tv-addon" hidden' in page
