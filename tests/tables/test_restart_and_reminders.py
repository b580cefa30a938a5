"""Restart rebuilds the same state from the log; reminders fire for a waiting turn only.

Rules pinned (DESIGN.md): the event log is the truth, state for a hand is a replay of
its events and any cache may be thrown away; a reminder checks that the same turn is
still waiting (by seq) and otherwise does nothing; it never acts.
"""

from __future__ import annotations

import random
import time
from datetime import timedelta

import pytest
from channels.db import database_sync_to_async

from engine.games import get_game
from tables import selectors
from tables.celery_tasks import clock_run
from tables.models import Event, Hand
from tables.services import hand_act, table_clock_run
from tables.state_cache import state_cache_clear, state_cache_get, state_cache_put
from tests.tables.conftest import current_turn, open_table, random_action, repeatable_decks
from tests.tables.ws import connect, play_random_hands, sync_all, users_of


def _value(state) -> tuple:
    """An engine state as a comparable value (the states are slotted classes)."""
    return tuple(getattr(state, name) for name in type(state).__slots__)


def _views(game, state, hand) -> dict:
    names = [str(p[0]) for p in hand.plan["players"]]
    return {name: game.view(state, name) for name in [*names, None]}


def _restart_at_every_commit(game_name: str, rng: random.Random, capture) -> tuple[int, int]:
    """One random game; returns (commits checked, hands played)."""
    with capture(execute=True):
        table, seats = open_table(game_name, players=4)
    game = get_game(game_name)
    by_name = {seat.engine_name: seat for seat in seats}
    checked, hands = 0, set()
    for _step in range(90):
        table.refresh_from_db()
        live = selectors.hand_live(table=table)
        if live is None:
            break
        cached = state_cache_get(table)
        # The live server's cache holds this hand exactly as the log ends now.
        assert cached is not None, "the after-commit callbacks did not fill the cache"
        assert cached.table_seq == table.last_seq and cached.hand.pk == live.pk
        state_cache_clear()  # a restart: nothing in memory
        hand, rebuilt, action_seq = selectors.live_hand_and_state(table=table)
        assert hand is not None and hand.pk == cached.hand.pk
        assert (hand.to_act, hand.turn_seq, hand.number) == (cached.hand.to_act, cached.hand.turn_seq, live.number)
        assert action_seq == cached.action_seq
        assert _value(rebuilt) == _value(cached.state)
        assert _views(game, rebuilt, hand) == _views(game, cached.state, cached.hand)
        checked += 1
        hands.add(hand.number)
        if rng.random() < 0.5:  # the live server goes on with its warm cache
            state_cache_put(
                table=table,
                table_seq=cached.table_seq,
                hand=cached.hand,
                action_seq=cached.action_seq,
                state=cached.state,
            )
        player = game.to_act(rebuilt)
        verb, amount = random_action(rng, game.legal_actions(rebuilt, player))
        with capture(execute=True):
            hand_act(table_id=table.pk, seat_id=by_name[player].pk, verb=verb, amount=amount)
    return checked, len(hands)


@pytest.mark.django_db
@pytest.mark.parametrize("game_name, seed", [("faras", 7), ("classic", 8), ("999", 9), ("holdem", 10)])
def test_after_a_restart_the_state_rebuilt_from_the_log_is_the_live_servers_at_every_commit(
    game_name, seed, django_capture_on_commit_callbacks, monkeypatch
):
    """A live server fills its cache after each commit (the callbacks run here as they do
    there). After every action, the process is restarted (the cache dropped) and the hand is
    rebuilt from the log alone: hand row, last action and state must equal what the live
    server held, for every player's view and a spectator's. Then play goes on, half the time
    from the live server's warm cache and half the time from the rebuilt (cold) one. Games
    are played (at most four) until 60 commits have been checked."""
    rng = random.Random(seed)
    repeatable_decks(monkeypatch, rng)
    checked, hands = 0, 0
    for _game in range(4):
        more_checked, more_hands = _restart_at_every_commit(game_name, rng, django_capture_on_commit_callbacks)
        checked, hands = checked + more_checked, hands + more_hands
        if checked >= 60:
            break
    assert checked >= 60 and hands >= 3, (checked, hands)


@pytest.mark.django_db(transaction=True)
async def test_clients_carry_on_after_a_restart():
    rng = random.Random(8)
    table, seats = await database_sync_to_async(open_table)("classic", 3)
    users = await users_of(seats)
    clients = {}
    for user in users:
        _ok, client, _ = await connect(table.code, user=user)
        clients[client.name] = client
    await play_random_hands(table.pk, clients, [], rng, max_actions=7, see_out_of_turn=False)
    before = {name: client.last_seq for name, client in clients.items()}
    for client in clients.values():
        await client.close()
    state_cache_clear()  # the process stops; a new one starts with nothing in memory
    again = {}
    for user in users:
        _ok, client, _ = await connect(table.code, user=user)
        again[client.name] = client
    for name, client in again.items():
        assert client.last_seq == before[name]  # the snapshot is exact at the log's last seq
        # A client that kept its seq asks for what it missed (nothing) and goes on.
        reply = await client.request({"type": "resync", "after": before[name]})
        assert reply["events"] == []
    played = await play_random_hands(table.pk, again, [], rng, max_actions=30, see_out_of_turn=False)
    assert played >= 20
    await sync_all(table.pk, list(again.values()))
    for client in again.values():
        await client.close()


@pytest.mark.django_db
def test_a_reminder_fires_for_a_waiting_turn_and_not_for_a_played_one():
    table, seats = open_table("faras", players=3, choices={"turn_timer": 30})
    by_name = {seat.engine_name: seat for seat in seats}
    hand = Hand.objects.get(table=table, ended_at__isnull=True)
    assert hand.turn_deadline is not None
    assert table_clock_run(table_id=table.pk, now=hand.turn_deadline - timedelta(seconds=1)) == []
    assert table_clock_run(table_id=table.pk, now=hand.turn_deadline) == ["turn_alarm"]
    reminder = Event.objects.filter(table=table, kind="reminder").get()
    assert reminder.payload["player"] == hand.to_act and reminder.visible_to is None
    # The turn is played: the old turn's alarm is gone, and nothing acted for anyone.
    player, _legal = current_turn(table)
    hand_act(table_id=table.pk, seat_id=by_name[player].pk, verb="chaal")
    actions = Event.objects.filter(table=table, kind="action", actor__isnull=False).count()
    new_turn = Hand.objects.get(pk=hand.pk)
    assert new_turn.turn_alarms == 0 and new_turn.turn_deadline > hand.turn_deadline
    assert table_clock_run(table_id=table.pk, now=new_turn.turn_deadline - timedelta(seconds=1)) == []
    assert clock_run.run(table.pk) == []
    assert Event.objects.filter(table=table, kind="reminder").count() == 1
    assert Event.objects.filter(table=table, kind="action", actor__isnull=False).count() == actions


@pytest.mark.django_db
def test_a_table_without_a_timer_has_no_deadline():
    table, _seats = open_table("faras", players=2)
    hand = Hand.objects.get(table=table, ended_at__isnull=True)
    assert hand.turn_deadline is None


@pytest.mark.django_db(transaction=True)
async def test_the_in_process_worker_delivers_a_reminder_to_the_sockets(settings):
    """The default setup without Redis: Celery's memory transport, a worker thread in this
    process, the reminder reaching the players' sockets through the in-memory layer."""
    from tables.background_threads import inprocess_worker_start

    if settings.CELERY_BROKER_URL != "memory://":
        pytest.skip("covers the default setup's in-memory broker; test_reminders_redis covers the other")
    from config.celery import app

    # Tasks other tests queued on the in-memory broker (no worker ran for them) would run
    # now, beside this test's writes: drop them first.
    app.control.purge()
    inprocess_worker_start()
    table, seats = await database_sync_to_async(open_table)("faras", 2, {"turn_timer": 5}, False)
    users = await users_of(seats)
    _ok, client, _ = await connect(table.code, user=users[0])
    from tables.services import table_start

    await database_sync_to_async(table_start)(table_id=table.pk, seat_id=seats[0].pk)
    started = time.monotonic()
    reminder = None
    while reminder is None and time.monotonic() - started < 30:
        frame = await client.read_one() if client.replies == [] else None
        for event in (frame or {}).get("events", []):
            if event.get("kind") == "reminder":
                reminder = event
    assert reminder is not None, "no reminder reached the socket"
    assert reminder["data"]["player"] in {str(s.pk) for s in seats}
    actions = await database_sync_to_async(
        lambda: Event.objects.filter(table=table, kind="action", actor__isnull=False).count()
    )()
    assert actions == 0  # it reminded; it did not act
    await client.close()
