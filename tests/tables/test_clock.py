"""The table clock, away players and the pause between hands.

Rules pinned:

- DESIGN.md, "Timers: the table clock": what is due later is a due time in the database;
  "do what is due" under the table's lock does each due thing once, however often and
  from wherever it runs; the sweep finds overdue tables; a paused table's clock waits.
- Book 000: the turn timer "reminds you but is not enforced" (the default): reminders at
  the deadline and once more later, never an action. Acting on time-out is the host's
  choice (``timeout_action = "act"``: Teen Patti packs, hold'em checks when free, else
  folds, and the player sits out), and so is the host acting for a player whose time ran
  out (or who has been on turn 60 s with no timer), paused or not.
- The pause between hands is the host's setting, 3-30 s (default 5).
"""

from __future__ import annotations

from datetime import timedelta

import pytest
from channels.db import database_sync_to_async
from django.utils import timezone

from tables.models import Event, Hand, Seat, Table
from tables.services import (
    ServiceError,
    hand_act,
    hand_act_for_away,
    table_clock_run,
    table_clock_sweep,
    table_pause,
    table_resume,
    table_settings_build,
)
from tests.tables.conftest import current_turn, end_game, open_table
from tests.tables.ws import connect, sync_all, users_of


@pytest.fixture
def host_pause(settings):
    """The host's pause between hands applies (the suite's override of 0 is lifted)."""
    settings.DASHAIN_NEXT_HAND_DELAY = None


def _live(table: Table) -> Hand | None:
    return Hand.objects.filter(table=table, ended_at__isnull=True).first()


def _kinds(table: Table) -> list[str]:
    return list(Event.objects.filter(table=table).order_by("seq").values_list("kind", flat=True))


def _seat_of(seats: list[Seat], name: str) -> Seat:
    return next(seat for seat in seats if seat.engine_name == name)


def _end_the_hand(table: Table, seats: list[Seat]) -> None:
    """Two players of Teen Patti: the one on turn packs, the hand ends."""
    player, _legal = current_turn(table)
    hand_act(table_id=table.pk, seat_id=_seat_of(seats, player).pk, verb="pack")


# --- the pause between hands -------------------------------------------------------


@pytest.mark.parametrize(
    ("choices", "field"),
    [
        ({"hand_pause": 2}, "hand_pause"),
        ({"hand_pause": 31}, "hand_pause"),
        ({"hand_pause": True}, "hand_pause"),
        ({"timeout_action": "fold"}, "timeout_action"),
        ({"timeout_action": 1}, "timeout_action"),
    ],
)
def test_clock_settings_outside_their_range_are_refused(choices, field):
    with pytest.raises(ServiceError) as refused:
        table_settings_build(game="faras", choices=choices)
    assert (refused.value.code, refused.value.field) == ("invalid_settings", field)


def test_clock_settings_defaults():
    built = table_settings_build(game="holdem")
    assert built["hand_pause"] == 5 and built["timeout_action"] == "remind"
    built = table_settings_build(game="faras", choices={"hand_pause": "30", "timeout_action": "act"})
    assert built["hand_pause"] == 30 and built["timeout_action"] == "act"
    blank = table_settings_build(game="faras", choices={"hand_pause": None, "timeout_action": ""})  # a blank form
    assert blank["hand_pause"] == 5 and blank["timeout_action"] == "remind"


@pytest.mark.django_db
def test_the_next_hand_is_due_after_the_hosts_pause_and_dealt_once(host_pause):
    table, seats = open_table("faras", 2, {"hand_pause": 7})
    before = timezone.now()
    _end_the_hand(table, seats)
    table.refresh_from_db()
    assert _live(table) is None
    assert timedelta(seconds=7) <= table.next_deal_at - before <= timedelta(seconds=8)
    assert table.due_at == table.next_deal_at
    due = table.next_deal_at
    assert table_clock_run(table_id=table.pk, now=due - timedelta(seconds=1)) == []
    assert _live(table) is None
    assert table_clock_run(table_id=table.pk, now=due) == ["next_deal"]
    assert table_clock_run(table_id=table.pk, now=due) == []  # done once, whoever runs it again
    assert table_clock_sweep(now=due + timedelta(seconds=5)) == {}
    table.refresh_from_db()
    assert table.hands_played == 2 and _live(table).number == 2
    assert table.next_deal_at is None and table.due_at is None  # no timer: nothing more is due
    assert _kinds(table).count("hand_started") == 4  # the table's and the engine's, for each of 2 hands


@pytest.mark.django_db
def test_the_sweep_runs_only_the_overdue_tables(host_pause):
    due_table, due_seats = open_table("faras", 2, {"hand_pause": 3})
    later_table, later_seats = open_table("faras", 2, {"hand_pause": 30})
    _end_the_hand(due_table, due_seats)
    _end_the_hand(later_table, later_seats)
    due_table.refresh_from_db()
    now = due_table.next_deal_at + timedelta(seconds=1)
    assert table_clock_sweep(now=now) == {due_table.pk: ["next_deal"]}
    assert _live(due_table) is not None and _live(later_table) is None


@pytest.mark.django_db
def test_a_paused_table_waits_and_resuming_deals(host_pause):
    table, seats = open_table("faras", 2, {"hand_pause": 3})
    _end_the_hand(table, seats)
    table_pause(table_id=table.pk, seat_id=seats[0].pk)
    table.refresh_from_db()
    assert table_clock_run(table_id=table.pk, now=table.next_deal_at + timedelta(seconds=60)) == []
    assert _live(table) is None
    table.refresh_from_db()
    assert table.due_at is None  # nothing is due while paused
    table_resume(table_id=table.pk, seat_id=seats[0].pk)
    assert _live(table) is not None


@pytest.mark.django_db
def test_an_ended_table_has_nothing_due(host_pause):
    table, seats = open_table("faras", 2, {"hand_pause": 3, "turn_timer": 10})
    end_game(table, seats[0].pk)
    table.refresh_from_db()
    assert table.due_at is None and table.next_deal_at is None
    assert table_clock_sweep(now=timezone.now() + timedelta(hours=1)) == {}


# --- the turn timer: reminders (book 000) ------------------------------------------


@pytest.mark.django_db
def test_reminders_come_at_the_deadline_and_once_more_and_never_act():
    table, _seats = open_table("faras", 3, {"turn_timer": 30})
    hand = _live(table)
    deadline = hand.turn_deadline
    table.refresh_from_db()
    assert hand.turn_alarm_at == deadline and table.due_at == deadline
    assert table_clock_run(table_id=table.pk, now=deadline - timedelta(seconds=1)) == []
    assert table_clock_run(table_id=table.pk, now=deadline) == ["turn_alarm"]
    hand.refresh_from_db()
    assert hand.turn_alarm_at == deadline + timedelta(seconds=30) and hand.turn_alarms == 1
    assert table_clock_run(table_id=table.pk, now=deadline + timedelta(seconds=10)) == []
    assert table_clock_run(table_id=table.pk, now=hand.turn_alarm_at) == ["turn_alarm"]
    assert table_clock_run(table_id=table.pk, now=deadline + timedelta(hours=1)) == []
    reminders = list(Event.objects.filter(table=table, kind="reminder").order_by("seq"))
    assert [event.payload["count"] for event in reminders] == [1, 2]
    assert all(event.payload["player"] == hand.to_act and event.visible_to is None for event in reminders)
    assert not Event.objects.filter(table=table, kind="action").exists()  # nobody acted
    table.refresh_from_db()
    assert table.due_at is None and _live(table).to_act == hand.to_act


@pytest.mark.django_db
def test_a_long_timer_repeats_its_reminder_after_a_minute():
    table, _seats = open_table("faras", 2, {"turn_timer": 300})
    hand = _live(table)
    table_clock_run(table_id=table.pk, now=hand.turn_deadline)
    hand.refresh_from_db()
    assert hand.turn_alarm_at - hand.turn_deadline == timedelta(seconds=60)


@pytest.mark.django_db
def test_a_paused_turn_is_not_reminded_and_resuming_restarts_its_clock():
    table, seats = open_table("faras", 2, {"turn_timer": 10})
    old_deadline = _live(table).turn_deadline
    table_pause(table_id=table.pk, seat_id=seats[0].pk)
    assert table_clock_run(table_id=table.pk, now=old_deadline + timedelta(seconds=5)) == []
    table_resume(table_id=table.pk, seat_id=seats[0].pk)
    hand = _live(table)
    assert hand.turn_deadline > old_deadline and hand.turn_alarms == 0
    assert table_clock_run(table_id=table.pk, now=hand.turn_deadline) == ["turn_alarm"]
    assert Event.objects.filter(table=table, kind="reminder").count() == 1


# --- the turn timer acting for the player (the host's choice) ----------------------


@pytest.mark.django_db
def test_time_out_in_teen_patti_packs_for_the_player_and_sits_them_out():
    table, seats = open_table("faras", 3, {"turn_timer": 10, "timeout_action": "act"})
    hand = _live(table)
    away = _seat_of(seats, hand.to_act)
    assert table_clock_run(table_id=table.pk, now=hand.turn_deadline) == ["turn_alarm"]
    action = Event.objects.get(table=table, kind="action", actor__isnull=False)
    assert action.actor_id == away.pk
    assert action.payload == {"player": away.engine_name, "verb": "pack", "amount": None, "by": "timer", "_hand": 1}
    away.refresh_from_db()
    assert away.status == Seat.Status.SITTING_OUT
    assert Event.objects.filter(table=table, kind="seat_sat_out", payload__seat=away.pk).exists()
    assert not Event.objects.filter(table=table, kind="reminder").exists()
    # The turn moved on to another player, with a timer of its own.
    hand.refresh_from_db()
    assert hand.to_act and hand.to_act != away.engine_name and hand.turn_alarms == 0
    assert table_clock_run(table_id=table.pk, now=hand.turn_deadline - timedelta(seconds=1)) == []


@pytest.mark.django_db
def test_time_out_in_holdem_folds_facing_a_bet():
    table, _seats = open_table("holdem", 3, {"turn_timer": 10, "timeout_action": "act"})
    hand = _live(table)
    table_clock_run(table_id=table.pk, now=hand.turn_deadline)
    action = Event.objects.get(table=table, kind="action", actor__isnull=False)
    assert action.payload["verb"] == "fold" and action.payload["by"] == "timer"


@pytest.mark.django_db
def test_time_out_in_holdem_checks_when_it_is_free():
    table, seats = open_table("holdem", 3, {"turn_timer": 10, "timeout_action": "act"})
    for _ in range(2):  # the button and the small blind call; the big blind may check
        player, legal = current_turn(table)
        assert "call" in {entry.verb for entry in legal}
        hand_act(table_id=table.pk, seat_id=_seat_of(seats, player).pk, verb="call")
    hand = _live(table)
    big_blind = _seat_of(seats, hand.to_act)
    table_clock_run(table_id=table.pk, now=hand.turn_deadline)
    timed_out = Event.objects.filter(table=table, kind="action", actor=big_blind).get()
    assert timed_out.payload["verb"] == "check"
    big_blind.refresh_from_db()
    assert big_blind.status == Seat.Status.SITTING_OUT


# --- the host acting for an away player -----------------------------------------------


def _log_size(table: Table) -> int:
    return Event.objects.filter(table=table).count()


def _refused(code: str, **kwargs) -> None:
    with pytest.raises(ServiceError) as refused:
        hand_act_for_away(**kwargs)
    assert refused.value.code == code


@pytest.mark.django_db
def test_the_host_acts_for_a_player_whose_timer_ran_out_and_refusals_change_nothing():
    table, seats = open_table("faras", 3, {"turn_timer": 20})
    host = seats[0]
    hand = _live(table)
    away = _seat_of(seats, hand.to_act)
    other = next(seat for seat in seats if seat.pk not in (away.pk, host.pk))
    waiting = next(seat for seat in seats if seat.pk != away.pk)
    size = _log_size(table)
    _refused("too_soon", table_id=table.pk, seat_id=host.pk, player_seat_id=away.pk)
    Hand.objects.filter(pk=hand.pk).update(turn_deadline=timezone.now() - timedelta(seconds=1))
    _refused("not_host", table_id=table.pk, seat_id=other.pk, player_seat_id=away.pk)
    _refused("not_to_act", table_id=table.pk, seat_id=host.pk, player_seat_id=waiting.pk)
    _refused("not_to_act", table_id=table.pk, seat_id=host.pk, player_seat_id=999_999)
    _refused("no_seat", table_id=table.pk, seat_id=host.pk, player_seat_id="away")
    _stranger_table, stranger_seats = open_table("faras", 2)
    _refused("no_seat", table_id=table.pk, seat_id=stranger_seats[0].pk, player_seat_id=away.pk)
    assert _log_size(table) == size
    away.refresh_from_db()
    assert away.status == Seat.Status.PLAYING
    seq = hand_act_for_away(table_id=table.pk, seat_id=host.pk, player_seat_id=away.pk)
    action = Event.objects.get(table=table, seq=seq)
    assert action.kind == "action" and action.actor_id == away.pk
    assert action.payload["verb"] == "pack" and action.payload["by"] == "host"
    away.refresh_from_db()
    assert away.status == Seat.Status.SITTING_OUT
    # Once acted for, the turn has moved on: acting again for the same player is refused.
    _refused("not_to_act", table_id=table.pk, seat_id=host.pk, player_seat_id=away.pk)


@pytest.mark.django_db
def test_without_a_timer_the_host_may_act_after_a_minute_paused_or_not():
    table, seats = open_table("faras", 3)
    host = seats[0]
    hand = _live(table)
    away = _seat_of(seats, hand.to_act)
    assert hand.turn_deadline is None and hand.turn_started_at is not None
    Hand.objects.filter(pk=hand.pk).update(turn_started_at=timezone.now() - timedelta(seconds=50))
    _refused("too_soon", table_id=table.pk, seat_id=host.pk, player_seat_id=away.pk)
    Hand.objects.filter(pk=hand.pk).update(turn_started_at=timezone.now() - timedelta(seconds=61))
    table_pause(table_id=table.pk, seat_id=host.pk)
    hand_act_for_away(table_id=table.pk, seat_id=host.pk, player_seat_id=away.pk)
    assert Event.objects.filter(table=table, kind="action", actor=away, payload__by="host").count() == 1
    table.refresh_from_db()
    assert table.status == Table.Status.PAUSED
    end_game(table, host.pk)
    _refused("ended", table_id=table.pk, seat_id=host.pk, player_seat_id=away.pk)


@pytest.mark.django_db
def test_the_host_acting_for_the_last_opponent_ends_the_hand_and_chips_are_conserved(host_pause):
    table, seats = open_table("faras", 2, {"turn_timer": 5, "hand_pause": 3})
    hand = _live(table)
    away = _seat_of(seats, hand.to_act)
    Hand.objects.filter(pk=hand.pk).update(turn_deadline=timezone.now() - timedelta(seconds=1))
    hand_act_for_away(table_id=table.pk, seat_id=seats[0].pk, player_seat_id=away.pk)
    hand.refresh_from_db()
    table.refresh_from_db()
    assert hand.ended_at is not None  # the ledger's invariant was checked at the hand's end
    assert sum(Seat.objects.filter(table=table).values_list("stack", flat=True)) == 2 * table.buy_in_chips
    # The one left cannot be dealt a hand alone: the clock deals nothing and waits.
    assert table.next_deal_at is not None
    table_clock_run(table_id=table.pk, now=table.next_deal_at)
    assert _live(table) is None


# --- the socket's part ----------------------------------------------------------------


@pytest.mark.django_db(transaction=True)
async def test_a_socket_connecting_runs_its_tables_overdue_clock(host_pause):
    table, seats = await database_sync_to_async(open_table)("faras", 2, {"hand_pause": 3})
    await database_sync_to_async(_end_the_hand)(table, seats)
    # The deal's task was lost and no sweep ran: the deal is overdue.
    await database_sync_to_async(
        lambda: Table.objects.filter(pk=table.pk).update(
            next_deal_at=timezone.now() - timedelta(seconds=1), due_at=timezone.now() - timedelta(seconds=1)
        )
    )()
    users = await users_of(seats)
    connected, client, _ = await connect(table.code, user=users[1])
    assert connected
    assert client.snapshots[0]["hand"]["number"] == 2
    await client.close()


@pytest.mark.django_db(transaction=True)
async def test_the_host_acts_for_an_away_player_through_the_socket():
    table, seats = await database_sync_to_async(open_table)("faras", 3, {"turn_timer": 10})
    users = await users_of(seats)
    _ok, host, _ = await connect(table.code, user=users[0])
    _ok, guest, _ = await connect(table.code, user=users[1])
    away = host.turn["player"]
    early = await host.request({"type": "host", "verb": "act_for", "seat": int(away)})
    assert early["type"] == "error" and early["code"] == "too_soon"
    refused = await guest.request({"type": "host", "verb": "act_for", "seat": int(away)})
    assert refused["type"] == "error" and refused["code"] == "not_host"
    await database_sync_to_async(
        lambda: Hand.objects.filter(table=table, ended_at__isnull=True).update(
            turn_deadline=timezone.now() - timedelta(seconds=1)
        )
    )()
    done = await host.request({"type": "host", "verb": "act_for", "seat": int(away)})
    assert done["type"] == "ack"
    assert (
        await database_sync_to_async(
            lambda: Event.objects.filter(table=table, kind="action", payload__by="host").count()
        )()
        == 1
    )
    await host.close()
    await guest.close()


@pytest.mark.django_db(transaction=True)
async def test_after_a_pause_and_resume_every_open_page_is_sent_the_turns_new_clock():
    """Issue 28: a page keeps no clock of its own. The time ran out during a pause; on
    resume every socket's pushed screen carries the restarted deadline and "act for" time."""
    table, seats = await database_sync_to_async(open_table)("faras", 3, {"turn_timer": 10})
    users = await users_of(seats)
    _ok, host, _ = await connect(table.code, user=users[0])
    _ok, other, _ = await connect(table.code, user=users[1])
    await database_sync_to_async(
        lambda: Hand.objects.filter(table=table, ended_at__isnull=True).update(
            turn_deadline=timezone.now() - timedelta(seconds=30)
        )
    )()
    assert (await host.request({"type": "host", "verb": "pause"}))["type"] == "ack"
    assert (await host.request({"type": "host", "verb": "resume"}))["type"] == "ack"
    seq = await sync_all(table.pk, [host, other])
    hand = await database_sync_to_async(lambda: Hand.objects.get(table=table, ended_at__isnull=True))()
    assert hand.turn_deadline > timezone.now()
    for client in (host, other):
        screen = client.screens[-1]
        assert screen["seq"] == seq
        turn = screen["hand"]["turn"]
        assert turn["deadline"] == hand.turn_deadline.isoformat()
        assert turn["away_from"] == hand.turn_deadline.isoformat()
    await host.close()
    await other.close()


# --- the fast path: a task when the clock needs a new one, not a task a move ----------


@pytest.mark.django_db
def test_a_move_queues_no_task_for_a_later_deadline_and_the_clocks_run_queues_the_next(
    monkeypatch, django_capture_on_commit_callbacks, host_pause
):
    """A turn's new deadline is later than ``due_at`` (the last turn's): the task queued for
    ``due_at`` is on its way, so the move queues none; that task's run, finding nothing due,
    sets ``due_at`` to the new deadline and queues the task for it (issue 37). A time
    earlier than ``due_at`` (the next deal after the last move) is queued at once."""
    from tables.services import clock_schedule

    queued: list[tuple[int, object]] = []
    monkeypatch.setattr(
        clock_schedule, "clock_queue", lambda *, table_id, when: queued.append((table_id, when)) or True
    )
    table, seats = open_table("faras", 3, {"turn_timer": 30, "hand_pause": 3})
    first_deadline = _live(table).turn_deadline
    for _ in range(2):
        player, _legal = current_turn(table)
        with django_capture_on_commit_callbacks(execute=True):
            hand_act(table_id=table.pk, seat_id=_seat_of(seats, player).pk, verb="chaal")
    assert queued == []
    hand = _live(table)
    table.refresh_from_db()
    assert table.due_at == first_deadline < hand.turn_deadline
    # The first turn's task runs at its deadline: nothing is due, the next task is queued.
    with django_capture_on_commit_callbacks(execute=True):
        assert table_clock_run(table_id=table.pk, now=first_deadline) == []
    table.refresh_from_db()
    assert table.due_at == hand.turn_deadline and queued == [(table.pk, hand.turn_deadline)]
    # The hand's end stores the next deal, earlier than the turn's alarm: queued at once
    # (the packs before it pass the turn on to later deadlines: nothing queued).
    queued.clear()
    while _live(table) is not None:
        player, _legal = current_turn(table)
        with django_capture_on_commit_callbacks(execute=True):
            hand_act(table_id=table.pk, seat_id=_seat_of(seats, player).pk, verb="pack")
    table.refresh_from_db()
    assert queued == [(table.pk, table.next_deal_at)] and table.due_at == table.next_deal_at
