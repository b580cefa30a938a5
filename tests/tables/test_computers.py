"""Computer players at a table (issue 15): who may seat them, where, and what they cost.

Rules pinned: computers only at tables whose chip value is 0 (a host at a money table is
told why not); only the host seats them, in empty seats, hold'em before the game starts
(book 001: seats are taken before the start); they buy in like anyone, so the chips at
the table still equal the chips bought; every refusal changes nothing.
"""

from __future__ import annotations

import pytest
from django.test import Client

from engine.games import get_game
from tables import selectors
from tables.models import Event, Seat
from tables.services import ServiceError, table_join
from tables.services.computers import computer_add, computer_fill
from tests.tables.conftest import end_game, make_user, open_table

pytestmark = pytest.mark.django_db

PLAY_CHIPS = {"buy_in_price": "0.00"}


def _log_size(table) -> int:
    return Event.objects.filter(table=table).count()


def _refused(code: str, call, table) -> None:
    before = (_log_size(table), Seat.objects.filter(table=table).count())
    with pytest.raises(ServiceError) as refused:
        call()
    assert refused.value.code == code
    assert (_log_size(table), Seat.objects.filter(table=table).count()) == before


def test_a_host_at_a_money_table_is_told_why_not():
    table, seats = open_table("faras", players=2, start=False)  # the default: $10 for 1,000 chips
    _refused("money_table", lambda: computer_add(table_id=table.pk, seat_id=seats[0].pk, strength="easy"), table)
    _refused("money_table", lambda: computer_fill(table_id=table.pk, seat_id=seats[0].pk, strength="hard"), table)


def test_only_the_host_seats_computers_and_only_of_a_known_strength():
    table, seats = open_table("faras", players=2, choices=PLAY_CHIPS, start=False)
    guest = table_join(code=table.code, invite_token=table.invite_token, user=make_user("watcher"))
    for seat_id in (seats[1].pk, guest.pk):
        _refused(
            "not_host", lambda seat_id=seat_id: computer_add(table_id=table.pk, seat_id=seat_id, strength="easy"), table
        )
    for strength in ("", "expert", None, 3):
        _refused(
            "bad_strength",
            lambda strength=strength: computer_add(table_id=table.pk, seat_id=seats[0].pk, strength=strength),
            table,
        )


def test_a_computer_takes_an_empty_seat_and_buys_in_like_anyone():
    from ledger.selectors import ledger_chip_totals

    table, seats = open_table("faras", players=2, choices={**PLAY_CHIPS, "seats": 4}, start=False)
    _refused(
        "seat_taken", lambda: computer_add(table_id=table.pk, seat_id=seats[0].pk, strength="easy", number=1), table
    )
    _refused("bad_seat", lambda: computer_add(table_id=table.pk, seat_id=seats[0].pk, strength="easy", number=9), table)
    computer = computer_add(table_id=table.pk, seat_id=seats[0].pk, strength="hard", number=4)
    assert (computer.number, computer.computer, computer.user_id, computer.stack) == (4, "hard", None, 1000)
    assert selectors.seat_public(computer)["computer"] == "hard"
    assert not selectors.seat_public(computer)["guest"]
    taken = Event.objects.filter(table=table, kind="seat_taken").order_by("-seq").first()
    assert taken.payload["computer"] == "hard" and taken.payload["seat"] == computer.pk
    assert ledger_chip_totals(table=table).bought == 3000
    filled = computer_fill(table_id=table.pk, seat_id=seats[0].pk, strength="easy")
    assert [seat.number for seat in filled] == [3]
    _refused("table_full", lambda: computer_add(table_id=table.pk, seat_id=seats[0].pk, strength="easy"), table)
    assert len({seat.display_name for seat in Seat.objects.filter(table=table)}) == 4


def test_holdem_computers_sit_before_the_game_starts():
    table, seats = open_table("holdem", players=2, start=False)
    filled = computer_fill(table_id=table.pk, seat_id=seats[0].pk, strength="normal")
    assert len(filled) == int(table.settings["seats"]) - 2
    started, started_seats = open_table("holdem", players=2)
    _refused(
        "already_started",
        lambda: computer_add(table_id=started.pk, seat_id=started_seats[0].pk, strength="easy"),
        started,
    )


def test_the_page_offers_computers_only_to_the_host_of_a_play_chips_table():
    table, seats = open_table("faras", players=2, choices=PLAY_CHIPS, start=False)
    host, player = Client(), Client()
    host.force_login(seats[0].user)
    player.force_login(seats[1].user)
    assert b'name="strength"' in host.get(f"/tables/{table.code}/").content
    assert b'name="strength"' not in player.get(f"/tables/{table.code}/").content
    assert player.post(f"/tables/{table.code}/computers/", {"strength": "easy"}).status_code == 404
    response = host.post(f"/tables/{table.code}/computers/", {"strength": "easy", "command": "fill"})
    assert response.status_code == 302
    assert Seat.objects.filter(table=table).exclude(computer="").count() == int(table.settings["seats"]) - 2
    money, money_seats = open_table("faras", players=2, start=False)
    host.force_login(money_seats[0].user)
    page = host.get(f"/tables/{money.code}/").content.decode()
    assert 'name="strength"' not in page and "play chips" in page
    host.post(f"/tables/{money.code}/computers/", {"strength": "easy"})
    assert not Seat.objects.filter(table=money).exclude(computer="").exists()


def test_the_page_offers_computers_only_while_the_host_may_seat_them():
    """Found by tests/browser/test_computers.py: the form stayed on the page once the game had
    ended (and on a hold'em table once it had started, and at a full table), where every
    click is refused."""
    from tables.services import table_start

    def offered(table, host) -> bool:
        page = host.get(f"/tables/{table.code}/").content.decode()
        form = page.split('id="host-computers"', 1)[1].split(">", 1)[0]
        return "hidden" not in form

    host = Client()
    faras, faras_seats = open_table("faras", players=2, choices=PLAY_CHIPS, start=False)
    holdem, holdem_seats = open_table("holdem", players=2, start=False)
    full, full_seats = open_table("faras", players=2, choices={**PLAY_CHIPS, "seats": 3}, start=False)
    host.force_login(full_seats[0].user)
    assert offered(full, host)
    computer_add(table_id=full.pk, seat_id=full_seats[0].pk, strength="easy")
    assert not offered(full, host)  # every seat is taken
    host.force_login(faras_seats[0].user)
    assert offered(faras, host)
    table_start(table_id=faras.pk, seat_id=faras_seats[0].pk)
    assert offered(faras, host)  # Teen Patti seats computers between hands too
    end_game(faras, faras_seats[0].pk)
    assert not offered(faras, host)
    host.force_login(holdem_seats[0].user)
    assert offered(holdem, host)
    table_start(table_id=holdem.pk, seat_id=holdem_seats[0].pk)
    assert not offered(holdem, host)


# --- computers playing -------------------------------------------------------------------------


def _computer_turn(table) -> None:
    """Run the table clock once the computer's pause is over (its turn's alarm is its move)."""
    from datetime import timedelta

    from django.utils import timezone

    from tables.services.clock_run import table_clock_run

    before = Event.objects.filter(table=table).count()
    table_clock_run(table_id=table.pk, now=timezone.now() + timedelta(seconds=10))
    assert Event.objects.filter(table=table).count() > before


def _play(table, *, hands: int, steps: int = 3000) -> None:
    """People take the first legal move of chaal/check/call (else the first); computers move
    when their turn is due, until ``hands`` hands have been dealt or the game ends."""
    from tables.models import Table
    from tables.services import hand_act
    from tests.tables.conftest import current_turn

    for _ in range(steps):
        table.refresh_from_db()
        if table.status == Table.Status.ENDED or table.hands_played > hands:
            return
        player, legal = current_turn(table)
        if player is None:
            return
        if Seat.objects.get(pk=int(player)).computer:
            _computer_turn(table)
            continue
        verbs = [action.verb for action in legal if action.verb != "see"]
        verb = next((v for v in ("chaal", "check", "call") if v in verbs), verbs[0])
        hand_act(table_id=table.pk, seat_id=int(player), verb=verb)
    raise AssertionError("the game did not move on")


def test_two_people_and_two_computers_play_teen_patti_hands_through_the_services():
    from ledger.selectors import ledger_chip_totals

    table, seats = open_table("faras", players=2, choices={**PLAY_CHIPS, "seats": 4}, start=False)
    computer_add(table_id=table.pk, seat_id=seats[0].pk, strength="normal")
    computer_add(table_id=table.pk, seat_id=seats[0].pk, strength="hard")
    from tables.services import table_start

    table_start(table_id=table.pk, seat_id=seats[0].pk)
    _play(table, hands=6)
    computers = {seat.pk for seat in Seat.objects.filter(table=table).exclude(computer="")}
    moves = Event.objects.filter(table=table, kind="action", actor_id__in=computers)
    assert moves.exists() and all(move.payload["by"] == "computer" for move in moves)
    assert {move.actor_id for move in moves} == computers
    # Seats hold their chips as of the last hand's end: no chip created or lost.
    totals = ledger_chip_totals(table=table)
    assert sum(Seat.objects.filter(table=table).values_list("stack", flat=True)) == totals.bought - totals.cashed_out


def test_a_host_and_five_computers_play_holdem_to_the_placings():
    table, seats = open_table("holdem", players=1, choices={"game_length": 30, "blind_speed": 5}, start=False)
    computer_fill(table_id=table.pk, seat_id=seats[0].pk, strength="easy")
    from tables.services import table_start

    table_start(table_id=table.pk, seat_id=seats[0].pk)
    _play(table, hands=10_000, steps=20_000)
    table.refresh_from_db()
    ended = Event.objects.get(table=table, kind="game_ended")
    assert ended.payload["reason"] in ("one_left", "no_people", "length")
    placings = ended.payload["placings"]
    assert len(placings) == 6 and placings[0]["place"] == 1
    assert sum(placing["chips"] for placing in placings) == 6000


def test_computers_never_play_on_by_themselves():
    from tables.services import table_start

    table, seats = open_table("faras", players=1, choices=PLAY_CHIPS, start=False)
    computer_fill(table_id=table.pk, seat_id=seats[0].pk, strength="easy")
    seats[0].refresh_from_db()
    from tables.services import seat_leave

    seat_leave(table_id=table.pk, seat_id=seats[0].pk)
    _refused("no_people", lambda: table_start(table_id=table.pk, seat_id=seats[0].pk), table)


def test_a_computer_is_given_only_the_events_its_seat_may_see(monkeypatch):
    from engine.bots import History

    fed: list[dict] = []
    observe = History.observe

    def recording(self, event):
        fed.append(dict(event))
        return observe(self, event)

    monkeypatch.setattr(History, "observe", recording)
    table, seats = open_table("holdem", players=2, start=False)
    computer_fill(table_id=table.pk, seat_id=seats[0].pk, strength="hard")
    from tables.services import table_start

    table_start(table_id=table.pk, seat_id=seats[0].pk)
    _play(table, hands=3)
    computers = {str(seat.pk) for seat in Seat.objects.filter(table=table).exclude(computer="")}
    people = {str(seat.pk) for seat in seats}
    hole_cards_seen = {event["player"] for event in fed if event["kind"] == "hole_cards"}
    assert hole_cards_seen and hole_cards_seen <= computers
    assert not hole_cards_seen & people


def test_a_computers_move_is_a_due_time_on_the_table_clock_done_once():
    from datetime import timedelta

    from django.utils import timezone

    from tables.services import hand_act, table_pause, table_resume, table_start
    from tables.services.clock_run import table_clock_run
    from tests.tables.conftest import current_turn

    table, seats = open_table("holdem", players=1, start=False)
    computer_fill(table_id=table.pk, seat_id=seats[0].pk, strength="normal")
    table_start(table_id=table.pk, seat_id=seats[0].pk)
    hand = selectors.hand_live(table=table)
    while not Seat.objects.get(pk=int(hand.to_act)).computer:  # the person acts until a computer is on turn
        _player, legal = current_turn(table)
        verbs = [action.verb for action in legal]
        hand_act(table_id=table.pk, seat_id=seats[0].pk, verb="call" if "call" in verbs else "check")
        hand = selectors.hand_live(table=table)
    computer = int(hand.to_act)
    assert hand.turn_deadline is None and hand.turn_alarm_at is not None  # its move, after the pause
    size = _log_size(table)
    table_clock_run(table_id=table.pk, now=hand.turn_alarm_at - timedelta(seconds=0.5))  # too early
    assert _log_size(table) == size
    table_pause(table_id=table.pk, seat_id=seats[0].pk)
    size = _log_size(table)
    table_clock_run(table_id=table.pk, now=timezone.now() + timedelta(seconds=60))  # paused: nothing
    assert _log_size(table) == size
    table_resume(table_id=table.pk, seat_id=seats[0].pk)
    hand.refresh_from_db()
    assert hand.turn_alarm_at is not None and hand.turn_deadline is None  # its turn starts again
    later = timezone.now() + timedelta(seconds=60)
    table_clock_run(table_id=table.pk, now=later)
    moves = Event.objects.filter(table=table, kind="action", actor_id=computer)
    assert moves.count() >= 1 and all(move.payload["by"] == "computer" for move in moves)
    done = moves.count()
    hand.refresh_from_db()
    if hand.to_act and hand.to_act == str(seats[0].pk):
        table_clock_run(table_id=table.pk, now=later)  # again: it is the person's turn, not the computer's
        assert Event.objects.filter(table=table, kind="action", actor_id=computer).count() == done


def test_the_host_cannot_act_for_a_computer_kept_waiting_by_a_pause():
    """A computer's turn waits while the game is paused; however long the pause, its turn is
    never "away": the host is not offered to act for it (that would sit it out for good, as
    nobody can bring a computer back) and is refused when trying."""
    from datetime import timedelta

    from django.utils import timezone

    from tables.models import Hand
    from tables.services import hand_act, hand_act_for_away, table_pause
    from tables.what_viewers_see import turn_public
    from tests.tables.conftest import current_turn

    table, seats = open_table("holdem", players=1, start=False)
    computer_fill(table_id=table.pk, seat_id=seats[0].pk, strength="normal")
    from tables.services import table_start

    table_start(table_id=table.pk, seat_id=seats[0].pk)
    hand = selectors.hand_live(table=table)
    while not Seat.objects.get(pk=int(hand.to_act)).computer:
        _player, legal = current_turn(table)
        verbs = [action.verb for action in legal]
        hand_act(table_id=table.pk, seat_id=seats[0].pk, verb="call" if "call" in verbs else "check")
        hand = selectors.hand_live(table=table)
    computer = int(hand.to_act)
    table_pause(table_id=table.pk, seat_id=seats[0].pk)
    Hand.objects.filter(pk=hand.pk).update(turn_started_at=timezone.now() - timedelta(minutes=10))
    hand.refresh_from_db()
    assert hand.away_act_from is None
    game = get_game(table.game)
    state, _seq = selectors.hand_state(table=table, hand=hand)
    assert turn_public(game=game, state=state, player=str(computer), hand=hand)["away_from"] is None
    _refused(
        "computer_turn",
        lambda: hand_act_for_away(table_id=table.pk, seat_id=seats[0].pk, player_seat_id=computer),
        table,
    )
    assert Seat.objects.get(pk=computer).status == Seat.Status.PLAYING


def test_the_settlement_page_says_computers_play_only_for_play_chips():
    from django.urls import reverse

    table, seats = open_table("faras", players=2, choices=PLAY_CHIPS, start=False)
    client = Client()
    client.force_login(seats[0].user)
    url = reverse("ledger:table_report", kwargs={"code": table.code})
    assert "computers-note" not in client.get(url).content.decode()
    computer_add(table_id=table.pk, seat_id=seats[0].pk, strength="easy")
    assert "computers-note" in client.get(url).content.decode()


@pytest.mark.parametrize("game", ["faras", "holdem"])
def test_a_computers_illegal_choice_is_replaced_by_the_least_move(monkeypatch, game):
    """A strategy's mistake never leaves a table waiting: the move the rules refuse appends
    nothing, and the computer plays the least move (the away rule's) through the same path
    as everyone's move (tables.services.acting.move_play)."""
    from engine.api import Action
    from tables.services import computers, table_start

    def raises_by_ten_billion(*, player, **_kwargs):
        return Action(player, "raise", 10**10)

    monkeypatch.setattr(computers, "choose_action", raises_by_ten_billion)
    table, seats = open_table(game, players=1, choices=PLAY_CHIPS if game == "faras" else {}, start=False)
    computer_fill(table_id=table.pk, seat_id=seats[0].pk, strength="easy")
    table_start(table_id=table.pk, seat_id=seats[0].pk)
    _play(table, hands=2)
    moves = Event.objects.filter(table=table, kind="action", payload__by="computer")
    assert moves.exists()
    assert {move.payload["verb"] for move in moves} <= {"check", "refuse", "pack", "fold"}
    assert not Event.objects.filter(table=table, kind="action", payload__verb="raise").exists()
