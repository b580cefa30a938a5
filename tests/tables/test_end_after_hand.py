"""Issue 24: "End the game" during a hand ends the game when the hand ends; no pot is voided.

The attack: a host who has looked at a bad hand, or faces a big bet, pressed "End the game"
and the hand was called off, every chip back where it was before the deal. Now the hand is
played out (by the players, or by the away rules when their time runs out), its pot paid to
whoever wins it, and only then does the game end.
"""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from ledger.selectors import ledger_chip_totals
from tables import selectors
from tables.models import Event, Hand, Seat, Table
from tables.services import (
    ServiceError,
    hand_act,
    table_clock_run,
    table_end,
    table_pause,
)
from tests.tables.conftest import current_turn, open_table

pytestmark = pytest.mark.django_db


def _kinds(table: Table) -> list[str]:
    return list(Event.objects.filter(table=table).order_by("seq").values_list("kind", flat=True))


def test_ending_during_a_hand_plays_it_out_and_pays_the_pot_to_its_winner():
    table, seats = open_table("faras", players=3, choices={"boot": 10, "buy_in_chips": 1000})
    host = seats[0]
    hand = selectors.hand_live(table=table)
    # The hand goes on: someone raises the pot before the host ends the game.
    player, legal = current_turn(table)
    verbs = {legal_action.verb for legal_action in legal}
    hand_act(table_id=table.pk, seat_id=int(player), verb="chaal" if "chaal" in verbs else "blind")
    table_end(table_id=table.pk, seat_id=host.pk)
    table.refresh_from_db()
    assert table.status == Table.Status.PLAYING and table.ending
    assert selectors.hand_live(table=table) == hand  # not called off
    assert "game_ending" in _kinds(table) and "hand_void" not in _kinds(table)
    # Pressing it again changes nothing.
    before = _kinds(table)
    table_end(table_id=table.pk, seat_id=host.pk)
    assert _kinds(table) == before
    # The players play the hand out: everyone but one packs.
    while selectors.hand_live(table=table) == hand:
        player, _legal = current_turn(table)
        hand_act(table_id=table.pk, seat_id=int(player), verb="pack")
    table.refresh_from_db()
    assert table.status == Table.Status.ENDED
    hand.refresh_from_db()
    assert "void" not in hand.result and hand.result["pots"]
    kinds = _kinds(table)
    assert "hand_void" not in kinds
    assert kinds[-1] == "game_ended" and Hand.objects.filter(table=table).count() == 1  # no next hand dealt
    # The winner kept the pot: the cash-outs are the hand's end stacks, and every chip is counted.
    final = Event.objects.get(table=table, kind="game_ended").payload["final_stacks"]
    assert {seat: stack for seat, stack in final.items() if stack} == hand.result["stacks"]
    assert max(hand.result["stacks"].values()) > 1000
    totals = ledger_chip_totals(table=table)
    assert totals.cashed_out == totals.bought == 3000


def test_a_host_cannot_take_back_a_big_bet_by_ending_the_game():
    """Hold'em: the host faces an all-in; ending the game does not give the chips back."""
    table, seats = open_table("holdem", players=2)
    host = seats[0]
    hand = selectors.hand_live(table=table)
    player, legal = current_turn(table)
    bettor = int(player)
    raise_to = next(action for action in legal if action.verb in ("raise", "bet"))
    hand_act(table_id=table.pk, seat_id=bettor, verb=raise_to.verb, amount=raise_to.max)
    table_end(table_id=table.pk, seat_id=host.pk)
    # The host folds (or lets the clock fold for him): the pot is the bettor's.
    while selectors.hand_live(table=table) == hand:
        player, _legal = current_turn(table)
        hand_act(table_id=table.pk, seat_id=int(player), verb="fold")
    hand.refresh_from_db()
    table.refresh_from_db()
    assert table.status == Table.Status.ENDED and "void" not in hand.result
    start = dict(hand.plan["players"])
    assert hand.result["stacks"][str(bettor)] > start[str(bettor)]


def test_players_who_stop_acting_are_played_out_by_the_away_rules_on_the_clock():
    """No timer, "remind" chosen: once the game is ending each turn is limited all the same,
    and the clock acts for a player whose time has run out, so the hand ends."""
    table, seats = open_table("faras", players=3, choices={"turn_timer": None, "timeout_action": "remind"})
    host = seats[0]
    hand = selectors.hand_live(table=table)
    table_end(table_id=table.pk, seat_id=host.pk)
    hand.refresh_from_db()
    assert hand.turn_deadline is not None and hand.turn_deadline <= timezone.now() + timedelta(seconds=61)
    # Not before the time is up.
    assert table_clock_run(table_id=table.pk, now=timezone.now()) == []
    for _step in range(10):
        table.refresh_from_db()
        if table.status == Table.Status.ENDED:
            break
        table_clock_run(table_id=table.pk, now=timezone.now() + timedelta(minutes=5))
    table.refresh_from_db()
    hand.refresh_from_db()
    assert table.status == Table.Status.ENDED
    assert "void" not in hand.result
    assert Event.objects.filter(table=table, kind="action", payload__by="timer").exists()


def test_ending_a_paused_hand_resumes_it_and_the_game_cannot_be_paused_while_ending():
    table, seats = open_table("faras", players=2)
    host = seats[0]
    table_pause(table_id=table.pk, seat_id=host.pk)
    table_end(table_id=table.pk, seat_id=host.pk)
    table.refresh_from_db()
    assert table.status == Table.Status.PLAYING and table.ending
    with pytest.raises(ServiceError) as refused:
        table_pause(table_id=table.pk, seat_id=host.pk)
    assert refused.value.code == "ending"
    player, _legal = current_turn(table)
    hand_act(table_id=table.pk, seat_id=int(player), verb="pack")
    table.refresh_from_db()
    assert table.status == Table.Status.ENDED
    assert not Hand.objects.filter(table=table, result__has_key="void").exists()


def test_between_hands_the_game_ends_at_once_and_only_the_host_may_end_it():
    table, seats = open_table("faras", players=2)
    with pytest.raises(ServiceError) as refused:
        table_end(table_id=table.pk, seat_id=seats[1].pk)
    assert refused.value.code == "not_host"
    table.refresh_from_db()
    assert not table.ending
    hand = selectors.hand_live(table=table)
    table_pause(table_id=table.pk, seat_id=seats[0].pk)
    player, _legal = current_turn(table)
    # (paused: nobody acts) the host resumes by ending; the hand is played out
    table_end(table_id=table.pk, seat_id=seats[0].pk)
    hand_act(table_id=table.pk, seat_id=int(player), verb="pack")
    assert Hand.objects.filter(table=table).count() == 1 and hand is not None
    table.refresh_from_db()
    assert table.status == Table.Status.ENDED and not table.ending
    assert Seat.objects.filter(table=table, stack__gt=0).count() == 0


def test_the_table_summary_tells_every_page_the_game_is_ending():
    table, seats = open_table("faras", players=2)
    assert selectors.table_public(table)["ending"] is False
    table_end(table_id=table.pk, seat_id=seats[0].pk)
    table.refresh_from_db()
    assert selectors.table_public(table)["ending"] is True
