"""Pass and play (issue 15, book 001: "the cards stay hidden while the phone is passed"): the
host's players on the host's phone, and who may hold it.

Rules pinned: only the host adds a local player, by a name unique at the table, seated with
a buy-in like anyone (hold'em before the start); the phone may be held only by one of its
own seats (the host's or a local player's) on that seat's turn, and only from the host's
socket; on a shared phone even Teen Patti's look at one's cards waits for one's turn;
every refusal changes nothing.
"""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from tables import selectors
from tables.models import Event, Seat, Table
from tables.services import (
    ServiceError,
    hand_act,
    hand_see,
    local_player_add,
    phone_hold_check,
    phone_seat_check,
    seat_sit_out,
    table_join,
    table_pause,
    table_start,
)
from tables.services.computers import computer_add
from tests.tables.conftest import end_game, make_user, open_table

pytestmark = pytest.mark.django_db

PLAY_CHIPS = {"buy_in_price": "0.00"}


def _unchanged(table: Table) -> tuple[int, list[tuple]]:
    return (
        Event.objects.filter(table=table).count(),
        list(Seat.objects.filter(table=table).order_by("pk").values_list("pk", "number", "stack", "status", "local")),
    )


def _refused(code: str, call, table: Table) -> ServiceError:
    before = _unchanged(table)
    with pytest.raises(ServiceError) as refused:
        call()
    assert refused.value.code == code, refused.value.message
    assert _unchanged(table) == before
    return refused.value


# --- adding local players -------------------------------------------------------------------


def test_the_host_adds_a_local_player_who_is_seated_and_buys_in_like_anyone():
    from ledger.selectors import ledger_chip_totals

    table, seats = open_table("faras", players=1, start=False)
    asha = local_player_add(table_id=table.pk, seat_id=seats[0].pk, name="  Asha   Rai ")
    assert (asha.display_name, asha.local, asha.user_id, asha.guest_token, asha.computer) == (
        "Asha Rai",
        True,
        None,
        "",
        "",
    )
    assert (asha.number, asha.status, asha.stack, asha.buy_ins) == (2, Seat.Status.PLAYING, table.buy_in_chips, 1)
    kinds = list(Event.objects.filter(table=table).order_by("-seq").values_list("kind", flat=True)[:2])
    assert kinds == ["seat_taken", "seat_joined"]
    assert selectors.seat_public(asha)["local"] is True and selectors.seat_public(asha)["guest"] is False
    # Chips at the table equal chips bought (the ledger's invariant), with the local player's.
    totals = ledger_chip_totals(table=table)
    assert totals.bought == 2 * table.buy_in_chips == sum(seat.stack for seat in Seat.objects.filter(table=table))
    assert selectors.phone_seat_ids(table=table) == [seats[0].pk, asha.pk]


def test_a_table_without_local_players_has_no_phone():
    table, _seats = open_table("faras", players=2, start=False)
    assert selectors.phone_seat_ids(table=table) is None


def test_only_the_host_adds_local_players():
    table, seats = open_table("faras", players=2, start=False)
    watcher = table_join(code=table.code, invite_token=table.invite_token, user=make_user("watcher"))
    for seat_id in (seats[1].pk, watcher.pk, None, 10**9):
        _refused(
            "not_host" if seat_id in (seats[1].pk, watcher.pk) else "no_seat",
            lambda seat_id=seat_id: local_player_add(table_id=table.pk, seat_id=seat_id, name="Bikash"),
            table,
        )


def test_a_local_players_name_is_checked_and_unique_at_the_table():
    table, seats = open_table("faras", players=2, start=False)
    host_name = seats[0].display_name
    local_player_add(table_id=table.pk, seat_id=seats[0].pk, name="Asha")
    for name in ("", "   ", None, 7, "<b>x</b>", "a\u202eb", "x" * 41):
        _refused(
            "bad_name", lambda name=name: local_player_add(table_id=table.pk, seat_id=seats[0].pk, name=name), table
        )
    for name in ("asha", " ASHA ", host_name.upper(), seats[1].display_name):
        _refused(
            "name_taken", lambda name=name: local_player_add(table_id=table.pk, seat_id=seats[0].pk, name=name), table
        )


def test_seats_for_local_players_are_checked():
    table, seats = open_table("faras", players=2, choices={"seats": 3}, start=False)
    add = local_player_add
    for number in ("2", True, 1.5):
        _refused(
            "bad_seat",
            lambda number=number: add(table_id=table.pk, seat_id=seats[0].pk, name="A", number=number),
            table,
        )
    for number in (0, 4):
        _refused(
            "bad_seat",
            lambda number=number: add(table_id=table.pk, seat_id=seats[0].pk, name="A", number=number),
            table,
        )
    _refused("seat_taken", lambda: add(table_id=table.pk, seat_id=seats[0].pk, name="A", number=1), table)
    add(table_id=table.pk, seat_id=seats[0].pk, name="A", number=3)
    _refused("table_full", lambda: add(table_id=table.pk, seat_id=seats[0].pk, name="B"), table)


def test_holdem_local_players_sit_before_the_start_and_none_after_the_end():
    table, seats = open_table("holdem", players=2)
    _refused("already_started", lambda: local_player_add(table_id=table.pk, seat_id=seats[0].pk, name="Late"), table)
    faras, faras_seats = open_table("faras", players=2)
    end_game(faras, faras_seats[0].pk)
    _refused("ended", lambda: local_player_add(table_id=faras.pk, seat_id=faras_seats[0].pk, name="Late"), faras)


def test_a_teen_patti_local_player_may_join_a_game_under_way_between_hands():
    table, seats = open_table("faras", players=2)
    late = local_player_add(table_id=table.pk, seat_id=seats[0].pk, name="Late")
    assert late.number == 3 and late.status == Seat.Status.PLAYING


# --- holding the phone ----------------------------------------------------------------------


def _pass_and_play_table(game: str = "holdem"):
    """The host seated, two local players, a remote player and a computer (play chips), started."""
    table, seats = open_table(game, players=2, choices=PLAY_CHIPS, start=False)
    host, remote = seats
    asha = local_player_add(table_id=table.pk, seat_id=host.pk, name="Asha")
    bikash = local_player_add(table_id=table.pk, seat_id=host.pk, name="Bikash")
    computer = computer_add(table_id=table.pk, seat_id=host.pk, strength="easy")
    table_start(table_id=table.pk, seat_id=host.pk)
    table.refresh_from_db()
    return SimpleNamespace(table=table, host=host, remote=remote, asha=asha, bikash=bikash, computer=computer)


def _to_act(table: Table) -> Seat:
    hand = selectors.hand_live(table=table)
    return Seat.objects.get(pk=int(hand.to_act))


def _turn_to_a_phone_seat(table: Table, host: Seat, phone: list[int]) -> Seat:
    """Play (the first legal verb, for whoever is to act) until a seat of the phone is to act."""
    from datetime import timedelta

    from django.utils import timezone

    from tables.services.clock_run import table_clock_run
    from tests.tables.conftest import current_turn

    for _ in range(200):
        player, legal = current_turn(table)
        assert player is not None
        if int(player) in phone:
            return Seat.objects.get(pk=int(player))
        seat = Seat.objects.get(pk=int(player))
        if seat.computer:
            table_clock_run(table_id=table.pk, now=timezone.now() + timedelta(seconds=10))
        else:
            verbs = [entry.verb for entry in legal]
            verb = next((v for v in ("check", "call", "chaal") if v in verbs), verbs[0])
            hand_act(table_id=table.pk, seat_id=seat.pk, verb=verb, amount=None)
    raise AssertionError("no seat of the phone came to act")


def test_the_phone_is_held_by_its_seat_whose_turn_it_is():
    at = _pass_and_play_table()
    table, host, asha, bikash = at.table, at.host, at.asha, at.bikash
    phone = [host.pk, asha.pk, bikash.pk]
    assert selectors.phone_seat_ids(table=table) == phone
    to_act = _turn_to_a_phone_seat(table, host, phone)
    seat, seats = phone_hold_check(table_id=table.pk, seat_id=host.pk, hold_seat_id=to_act.pk)
    assert (seat.pk, seats) == (to_act.pk, phone)
    for other in (pk for pk in phone if pk != to_act.pk):
        refused = _refused(
            "not_their_turn",
            lambda other=other: phone_hold_check(table_id=table.pk, seat_id=host.pk, hold_seat_id=other),
            table,
        )
        assert Seat.objects.get(pk=other).display_name in refused.message


def test_nobody_else_holds_the_phone_and_it_holds_nobody_else():
    at = _pass_and_play_table()
    table, host, remote, asha, bikash, computer = at.table, at.host, at.remote, at.asha, at.bikash, at.computer
    phone = [host.pk, asha.pk, bikash.pk]
    to_act = _turn_to_a_phone_seat(table, host, phone)
    _other_table, other_seats = open_table("holdem", players=2)
    watcher = table_join(code=table.code, invite_token=table.invite_token, user=make_user("watcher"))
    # A stranger's socket (the remote player's, a watcher's, another table's seat) claiming a local seat.
    for socket_seat in (remote.pk, watcher.pk, other_seats[0].pk, None):
        _refused(
            "not_your_phone",
            lambda s=socket_seat: phone_hold_check(table_id=table.pk, seat_id=s, hold_seat_id=to_act.pk),
            table,
        )
    # The host's socket claiming a seat that does not play on this phone.
    for target in (remote.pk, computer.pk, watcher.pk, other_seats[0].pk, 10**9):
        _refused(
            "not_on_this_phone",
            lambda t=target: phone_hold_check(table_id=table.pk, seat_id=host.pk, hold_seat_id=t),
            table,
        )
    for target in ("1", str(to_act.pk), True, 1.0, [to_act.pk], {"seat": to_act.pk}):
        _refused(
            "bad_seat", lambda t=target: phone_hold_check(table_id=table.pk, seat_id=host.pk, hold_seat_id=t), table
        )
    _refused("no_table", lambda: phone_hold_check(table_id=10**9, seat_id=host.pk, hold_seat_id=to_act.pk), table)
    _refused("no_table", lambda: phone_hold_check(table_id="x", seat_id=host.pk, hold_seat_id=to_act.pk), table)


def test_no_phone_to_hold_without_local_players():
    table, seats = open_table("holdem", players=2)
    _refused(
        "not_pass_and_play",
        lambda: phone_hold_check(table_id=table.pk, seat_id=seats[0].pk, hold_seat_id=seats[0].pk),
        table,
    )


def test_the_phone_is_not_held_before_the_first_deal_while_paused_or_once_the_game_is_over():
    waiting, seats = open_table("faras", players=1, start=False)
    local = local_player_add(table_id=waiting.pk, seat_id=seats[0].pk, name="Early")
    for seat in (seats[0].pk, local.pk):
        _refused(
            "not_their_turn",
            lambda seat=seat: phone_hold_check(table_id=waiting.pk, seat_id=seats[0].pk, hold_seat_id=seat),
            waiting,
        )
    at = _pass_and_play_table("faras")
    table, host, asha, bikash = at.table, at.host, at.asha, at.bikash
    phone = [host.pk, asha.pk, bikash.pk]
    to_act = _turn_to_a_phone_seat(table, host, phone)
    table_pause(table_id=table.pk, seat_id=host.pk)
    _refused("paused", lambda: phone_hold_check(table_id=table.pk, seat_id=host.pk, hold_seat_id=to_act.pk), table)
    end_game(table, host.pk)
    _refused("ended", lambda: phone_hold_check(table_id=table.pk, seat_id=host.pk, hold_seat_id=to_act.pk), table)


def test_the_phone_asks_between_hands_for_its_own_players_only():
    at = _pass_and_play_table("faras")
    table, host, remote, asha = at.table, at.host, at.remote, at.asha
    assert phone_seat_check(table_id=table.pk, seat_id=host.pk, local_seat_id=asha.pk).pk == asha.pk
    _refused(
        "not_your_phone", lambda: phone_seat_check(table_id=table.pk, seat_id=remote.pk, local_seat_id=asha.pk), table
    )
    _refused(
        "not_on_this_phone",
        lambda: phone_seat_check(table_id=table.pk, seat_id=host.pk, local_seat_id=remote.pk),
        table,
    )
    seat_sit_out(table_id=table.pk, seat_id=asha.pk)
    assert Seat.objects.get(pk=asha.pk).status == Seat.Status.SITTING_OUT


def test_on_a_shared_phone_a_teen_patti_player_looks_only_on_their_turn():
    at = _pass_and_play_table("faras")
    table, host, asha, bikash = at.table, at.host, at.asha, at.bikash
    phone = [host.pk, asha.pk, bikash.pk]
    to_act = _turn_to_a_phone_seat(table, host, phone)
    waiting = next(pk for pk in phone if pk != to_act.pk)
    _refused("not_your_turn", lambda: hand_see(table_id=table.pk, seat_id=waiting, only_on_turn=True), table)
    _refused(
        "not_your_turn", lambda: hand_act(table_id=table.pk, seat_id=waiting, verb="pack", only_on_turn=True), table
    )
    # Out of turn a player on their own phone still may (book 000: "You can look at any time").
    hand_see(table_id=table.pk, seat_id=waiting)
    hand_see(table_id=table.pk, seat_id=to_act.pk, only_on_turn=True)


# --- the host's page ------------------------------------------------------------------------


def test_the_host_adds_a_local_player_from_the_table_page_and_nobody_else_can():
    from django.test import Client

    table, seats = open_table("faras", players=2, start=False)
    host, friend = Client(), Client()
    host.force_login(seats[0].user)
    friend.force_login(seats[1].user)
    url = f"/tables/{table.code}/local-players/"
    assert "host-local-players" in host.get(f"/tables/{table.code}/").content.decode()
    assert "host-local-players" not in friend.get(f"/tables/{table.code}/").content.decode()
    before = _unchanged(table)
    assert friend.post(url, {"name": "Sneaky"}).status_code == 404
    assert host.get(url).status_code == 405
    assert _unchanged(table) == before
    response = host.post(url, {"name": seats[1].display_name}, follow=True)  # a name already at the table
    assert _unchanged(table) == before
    assert "already called" in response.content.decode()
    assert host.post(url, {"name": "Bina"}).status_code == 302
    bina = Seat.objects.get(table=table, display_name="Bina")
    assert bina.local and bina.number == 3


def test_the_hosts_own_players_need_no_approval_at_a_table_that_asks_for_it():
    """With "I approve seats and buy-backs" on, the players on the host's phone are the host's
    to seat: their seat requests from the phone go through without a request to approve."""
    from tables.services import seat_buy_back, seat_leave, seat_take, table_update_settings

    table, seats = open_table("faras", players=2, start=False)
    table_update_settings(table_id=table.pk, seat_id=seats[0].pk, choices={"approve_seats": True})
    local = local_player_add(table_id=table.pk, seat_id=seats[0].pk, name="Bina")
    seat_leave(table_id=table.pk, seat_id=local.pk)
    seat_take(table_id=table.pk, seat_id=local.pk)
    seat_buy_back(table_id=table.pk, seat_id=local.pk)
    local.refresh_from_db()
    assert (local.number, local.buy_ins) == (3, 3)
    assert not Event.objects.filter(table=table, kind="request_made").exists()
    with pytest.raises(ServiceError) as must_ask:  # a player on their own phone still asks
        seat_buy_back(table_id=table.pk, seat_id=seats[1].pk)
    assert must_ask.value.code == "ask_host"
