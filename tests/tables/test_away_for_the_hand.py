"""Away for the hand (issue 28): once the host acts for an absent player (or the timer's
``act`` rule does), that player is sat out and every later decision of theirs in that hand
is made at once by the away rule, until they come back (docs/rules.md, "Away players")."""

from __future__ import annotations

import random
from datetime import timedelta

import pytest
from django.utils import timezone

from tables.models import Event, Hand, Seat, Table
from tables.services import hand_act, hand_act_for_away, seat_come_back, table_clock_run
from tests.tables.conftest import current_turn, open_table, repeatable_decks


def _live(table: Table) -> Hand:
    hand = Hand.objects.filter(table=table, ended_at__isnull=True).first()
    assert hand is not None
    return hand


def _seat_of(seats: list[Seat], name: str) -> Seat:
    return next(seat for seat in seats if seat.engine_name == name)


def _to_the_big_blind(table: Table, seats: list[Seat]) -> Seat:
    """Hold'em of three: the button and the small blind call; the big blind is to act."""
    for _ in range(2):
        player, _legal = current_turn(table)
        hand_act(table_id=table.pk, seat_id=_seat_of(seats, player).pk, verb="call")
    return _seat_of(seats, _live(table).to_act)


def _host_acts_for(table: Table, host: Seat, away: Seat) -> None:
    hand = _live(table)
    Hand.objects.filter(pk=hand.pk).update(turn_started_at=timezone.now() - timedelta(seconds=61))
    hand_act_for_away(table_id=table.pk, seat_id=host.pk, player_seat_id=away.pk)


def _actions_of(table: Table, seat: Seat) -> list[tuple[str, str | None]]:
    return [
        (event.payload["verb"], event.payload.get("by"))
        for event in Event.objects.filter(table=table, kind="action", actor=seat).order_by("seq")
    ]


@pytest.mark.django_db
def test_after_the_host_acts_once_the_away_players_later_turns_are_played_at_once():
    table, seats = open_table("holdem", 3)
    away = _to_the_big_blind(table, seats)
    host = seats[0]
    _host_acts_for(table, host, away)
    assert _actions_of(table, away) == [("check", "host")]
    away.refresh_from_db()
    assert away.status == Seat.Status.SITTING_OUT
    # The flop: everyone still in checks round. The away player's check is made at once,
    # in the same step as the check before it: the table never waits for them.
    played = 0
    while True:
        player, _legal = current_turn(table)
        if player is None or player == away.engine_name:
            break
        hand_act(table_id=table.pk, seat_id=_seat_of(seats, player).pk, verb="check")
        played += 1
        if len(_actions_of(table, away)) > 1:
            break
    assert played >= 1
    assert _actions_of(table, away)[1] == ("check", "away")
    assert current_turn(table)[0] != away.engine_name
    # A bet: the away player folds at once, and the hand goes on between the others.
    player, _legal = current_turn(table)
    hand_act(table_id=table.pk, seat_id=_seat_of(seats, player).pk, verb="bet", amount=40)
    while (player := current_turn(table)[0]) is not None and player != away.engine_name:
        if ("fold", "away") in _actions_of(table, away):
            break
        hand_act(table_id=table.pk, seat_id=_seat_of(seats, player).pk, verb="call")
    assert ("fold", "away") in _actions_of(table, away)
    assert all(by in ("host", "away") for _verb, by in _actions_of(table, away))
    assert Event.objects.filter(table=table, kind="seat_sat_out", payload__seat=away.pk).count() == 1
    assert sum(Seat.objects.filter(table=table).values_list("stack", flat=True)) + _in_play(table) == 3000


def _in_play(table: Table) -> int:
    """Chips in a live hand's pot (0 between hands)."""
    hand = Hand.objects.filter(table=table, ended_at__isnull=True).first()
    if hand is None:
        return 0
    return sum(int(stack) for _name, stack in hand.plan["players"]) - sum(
        Seat.objects.filter(table=table, pk__in=[int(name) for name, _stack in hand.plan["players"]]).values_list(
            "stack", flat=True
        )
    )


@pytest.mark.django_db
def test_the_timers_act_rule_makes_a_player_away_for_the_rest_of_the_hand():
    table, seats = open_table("holdem", 3, {"turn_timer": 10, "timeout_action": "act"})
    away = _to_the_big_blind(table, seats)
    table_clock_run(table_id=table.pk, now=_live(table).turn_deadline)
    assert _actions_of(table, away) == [("check", "timer")]
    while (player := current_turn(table)[0]) is not None and len(_actions_of(table, away)) == 1:
        hand_act(table_id=table.pk, seat_id=_seat_of(seats, player).pk, verb="check")
    assert _actions_of(table, away)[1] == ("check", "away")


@pytest.mark.django_db
def test_a_player_who_comes_back_mid_hand_decides_for_themselves_again():
    table, seats = open_table("holdem", 3)
    away = _to_the_big_blind(table, seats)
    _host_acts_for(table, seats[0], away)
    seat_come_back(table_id=table.pk, seat_id=away.pk)
    assert "away" not in _live(table).plan or away.engine_name not in _live(table).plan["away"]
    while (player := current_turn(table)[0]) != away.engine_name:
        assert player is not None
        hand_act(table_id=table.pk, seat_id=_seat_of(seats, player).pk, verb="check")
    # Their turn waits for them: nothing was played in their name since the host's act.
    assert _actions_of(table, away) == [("check", "host")]
    hand_act(table_id=table.pk, seat_id=away.pk, verb="check")
    assert _actions_of(table, away)[-1] == ("check", None)


@pytest.mark.django_db
def test_a_player_who_sat_out_by_themselves_still_plays_the_hand_they_are_in():
    from tables.services import seat_sit_out

    table, seats = open_table("holdem", 3)
    bb = _to_the_big_blind(table, seats)
    seat_sit_out(table_id=table.pk, seat_id=bb.pk)  # from the next hand on
    hand_act(table_id=table.pk, seat_id=bb.pk, verb="check")
    while (player := current_turn(table)[0]) != bb.engine_name:
        assert player is not None
        hand_act(table_id=table.pk, seat_id=_seat_of(seats, player).pk, verb="check")
    assert _actions_of(table, bb) == [("check", None)]


@pytest.mark.django_db
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_the_issues_case_a_refused_sideshow_then_her_next_turn_is_packed_at_once(monkeypatch, seed):
    """Issue 28's report: "Act for Dipa" refused her sideshow and sat her out, but on her
    next turn the table waited for a second "Act for". Faras of three, sideshow on, fixed
    decks (a sideshow is asked whatever the cards: everyone sees, then chaals)."""
    repeatable_decks(monkeypatch, random.Random(seed))
    table, seats = open_table("faras", 3, {"sideshow": True})
    by_name = {seat.engine_name: seat for seat in seats}
    host = seats[0]
    partner = None
    for _ in range(60):
        player, legal = current_turn(table)
        assert player is not None, "the hand ended before a sideshow"
        verbs = {entry.verb for entry in legal}
        if "sideshow" in verbs:
            hand_act(table_id=table.pk, seat_id=by_name[player].pk, verb="sideshow")
            partner = by_name[current_turn(table)[0]]
            break
        hand_act(table_id=table.pk, seat_id=by_name[player].pk, verb="see" if "see" in verbs else "chaal")
    assert partner is not None, "no sideshow came"
    if partner.pk == host.pk:
        pytest.fail("pick seeds where the partner is not the host")
    assert {entry.verb for entry in current_turn(table)[1]} >= {"accept", "refuse"}
    _host_acts_for(table, host, partner)
    assert _actions_of(table, partner)[-1] == ("refuse", "host")
    # The others play on; when her turn comes round she packs at once, nobody waits.
    for _ in range(20):
        player, legal = current_turn(table)
        if player is None or ("pack", "away") in _actions_of(table, partner):
            break
        assert player != partner.engine_name, "the table waits for the away player"
        verbs = {entry.verb for entry in legal}
        hand_act(table_id=table.pk, seat_id=by_name[player].pk, verb="chaal" if "chaal" in verbs else legal[0].verb)
    assert _actions_of(table, partner)[-1] == ("pack", "away")
