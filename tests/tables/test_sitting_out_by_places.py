"""Sitting out at a hold'em table shared by places (docs/rules.md, "Sitting out at a table
shared by places"): the player is still dealt in, away for the whole hand, so the away rule
plays them (checks when free, else folds) and their stack keeps paying the blinds, as at any
tournament; sitting out cannot freeze a place. At a table shared by chips sitting out keeps
a player out of the deal and their stack out of the pots, as before."""

from __future__ import annotations

import io
import json
import random
from datetime import timedelta

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from engine import verify
from engine.cards import card_text
from ledger.selectors import ledger_report
from tables import selectors
from tables.models import Event, Hand, Seat, Table
from tables.services import (
    hand_act,
    seat_come_back,
    seat_sit_out,
    table_clock_run,
    table_pause,
    table_resume,
    table_start,
)
from tables.what_viewers_see import table_snapshot
from tests.tables.conftest import current_turn, open_table, repeatable_decks
from tests.tables.leaks import _cards_in, card_owners, leaks_in_events

pytestmark = pytest.mark.django_db

CHIPS = 3000  # three players of 1,000


def _money_table(prizes: str, **choices):
    sharing = {"prizes": "places", "payouts": "65/35"} if prizes == "places" else {"prizes": "chips"}
    return open_table(
        "holdem",
        players=3,
        choices={"buy_in_price": "20.00", "currency": "USD", "blind_speed": 5, **sharing, **choices},
        start=False,
    )


def _away(table: Table) -> list[str]:
    hand = selectors.hand_live(table=table)
    return [] if hand is None else list(hand.plan.get("away", ()))


def _stacks_between_hands(table: Table) -> int:
    return sum(Seat.objects.filter(table=table).values_list("stack", flat=True))


def _snapshot_leaks(table: Table, absent: Seat, viewers: list[Seat]) -> None:
    """Mid-hand, no other seat's page and no watcher sees the absent seat's hole cards."""
    hand = selectors.hand_live(table=table)
    state = selectors.hand_state(table=table, hand=hand)[0]
    theirs = {card_text(card) for card in state.hole[list(state.names).index(absent.engine_name)]}
    assert len(theirs) == 2
    for viewer in [*viewers, None]:
        snapshot = table_snapshot(table_id=table.pk, seat_id=None if viewer is None else viewer.pk)
        seen = {card.replace("10", "T") for card in _cards_in(snapshot["hand"])}
        assert not (theirs & seen), (viewer, theirs & seen)


def _play(table: Table, seats: list[Seat], absent: Seat, *, max_hands: int) -> int:
    """The players who are here go all in whenever they act; the absent player's turns are
    the clock's (the away rule). Returns how many hands the absent player was dealt in."""
    dealt_absent = 0
    counted: set[int] = set()
    here = [seat for seat in seats if seat.pk != absent.pk]
    for _ in range(2000):
        table.refresh_from_db()
        if table.status == Table.Status.ENDED or table.hands_played > max_hands:
            return dealt_absent
        hand = selectors.hand_live(table=table)
        assert hand is not None, "the table stopped dealing"
        if hand.number not in counted:
            counted.add(hand.number)
            if absent.engine_name in _away(table):
                dealt_absent += 1
                _snapshot_leaks(table, absent, here)
        player, legal = current_turn(table)
        if player in _away(table):
            # Nothing waits for a timer: the alarm is due now and the clock plays the away rule.
            assert hand.turn_deadline is None and hand.turn_alarm_at is not None
            assert table_clock_run(table_id=table.pk, now=timezone.now()) == ["turn_alarm"]
            continue
        verbs = [action.verb for action in legal]
        hand_act(table_id=table.pk, seat_id=int(player), verb="allin" if "allin" in verbs else "call")
    raise AssertionError("the game did not end")


def test_by_places_a_player_sitting_out_is_blinded_away_and_placed_when_they_go_out(monkeypatch):
    repeatable_decks(monkeypatch, random.Random(31))
    table, seats = _money_table("places", game_length=60)
    absent = seats[2]
    seat_sit_out(table_id=table.pk, seat_id=absent.pk)
    table_start(table_id=table.pk, seat_id=seats[0].pk)
    dealt = _play(table, seats, absent, max_hands=200)
    table.refresh_from_db()
    assert table.status == Table.Status.ENDED
    absent.refresh_from_db()
    assert absent.status == Seat.Status.WATCHING and absent.stack == 0  # blinded out, sent out
    # Dealt in every hand from the first until the blinds took their last chip.
    hands = list(Hand.objects.filter(table=table).order_by("number"))
    in_plan = [hand.number for hand in hands if absent.engine_name in dict(hand.plan["players"])]
    # (A hand can also end at its deal, unseen by the loop: a short blind all in, nobody to act.)
    assert in_plan == list(range(1, in_plan[-1] + 1)) and len(in_plan) >= dealt >= 10
    assert all(absent.engine_name in hand.plan.get("away", ()) for hand in hands if hand.number in in_plan)
    # Played only by the away rule: never a bet, a call or a raise; never a chip won.
    mine = Event.objects.filter(table=table, kind="action", actor=absent)
    assert mine.exists() and {(e.payload["verb"], e.payload.get("by")) for e in mine} <= {
        ("fold", "away"),
        ("check", "away"),
    }
    blinds = Event.objects.filter(table=table, kind="blind", payload__player=absent.engine_name)
    assert sum(int(e.payload["amount"]) for e in blinds) == 1000  # the blinds ate every chip
    assert not Event.objects.filter(table=table, kind="seat_sat_out", payload__by="away").exists()
    # Placed by when they went out: the last out, just behind the winner; prizes paid by place.
    placings = {p["seat"]: p for p in Event.objects.get(table=table, kind="game_ended").payload["placings"]}
    assert placings[absent.pk]["place"] == 2 and placings[absent.pk]["chips"] == 0
    assert placings[absent.pk]["prize"] == "21.00"  # second at 65/35 of a pool of 60.00
    # No chip created or lost, and no hidden card of theirs reached anyone else.
    report = ledger_report(table=table)
    assert report.is_final and not report.error
    assert sum(line.chips_end for line in report.players) == CHIPS
    _chips_conserved_every_hand(table)
    # The whole game, the absent player's hands included, verifies from its download.
    client = Client()
    client.force_login(seats[0].user)
    export = client.get(reverse("game_export", kwargs={"code": table.code})).content.decode()
    out = io.StringIO()
    assert verify.main(["-"], stdout=out, stdin=io.StringIO(export)) == 0, out.getvalue()
    assert "every chip is accounted for" in out.getvalue()
    # Its prizes are money, not chips: a prize that claims chips is named.
    tampered = json.loads(export)
    prize = next(entry for entry in tampered["ledger"] if entry["kind"] == "prize")
    prize["chips"] = 5
    out = io.StringIO()
    assert verify.main(["-"], stdout=out, stdin=io.StringIO(json.dumps(tampered))) != 0
    assert "is a prize of 5 chips" in out.getvalue()
    owners = card_owners(table)
    for viewer in [*(str(seat.pk) for seat in seats if seat.pk != absent.pk), None]:
        frames = [
            {
                "type": "events",
                "events": selectors.events_after(table_id=table.pk, after=0, viewer=viewer, limit=10_000),
            }
        ]
        leaks, own = leaks_in_events(viewer or "", frames, owners)
        assert leaks == [] and (own > 0 or viewer is None)


def _chips_conserved_every_hand(table: Table) -> None:
    """At the end of every hand the stacks of those dealt in, and the chips of those who were
    not (unchanged since: they sat out, or were out), are the chips bought, exactly."""
    finished = Hand.objects.filter(table=table, ended_at__isnull=False).order_by("number")
    assert finished.exists()
    for hand in finished:
        dealt = dict(hand.plan["players"])
        others = Seat.objects.filter(table=table).exclude(pk__in=[int(name) for name in dealt])
        assert sum(hand.result["stacks"].values()) + sum(others.values_list("stack", flat=True)) == CHIPS, hand.number


def _hands_dealt_to(table: Table, seat: Seat) -> list[int]:
    return [
        hand.number
        for hand in Hand.objects.filter(table=table).order_by("number")
        if seat.engine_name in dict(hand.plan["players"])
    ]


def test_by_chips_sitting_out_still_keeps_the_stack_out_of_the_deal(monkeypatch):
    repeatable_decks(monkeypatch, random.Random(31))
    table, seats = _money_table("chips")
    table_start(table_id=table.pk, seat_id=seats[0].pk)
    absent = seats[2]
    seat_sit_out(table_id=table.pk, seat_id=absent.pk)  # from the next hand on
    while table.hands_played < 5:
        player, legal = current_turn(table)
        verbs = [action.verb for action in legal]
        hand_act(table_id=table.pk, seat_id=int(player), verb="check" if "check" in verbs else "call")
        table.refresh_from_db()
    assert _hands_dealt_to(table, absent) == [1]  # the hand they sat out in, and no other
    assert not Event.objects.filter(table=table, kind="blind", payload__player=absent.engine_name, hand__number__gt=1)
    after_hand_1 = Hand.objects.get(table=table, number=1).result["stacks"][absent.engine_name]
    assert Seat.objects.get(pk=absent.pk).stack == after_hand_1  # not a chip paid since
    assert all("away" not in hand.plan for hand in Hand.objects.filter(table=table))
    _chips_conserved_every_hand(table)


def test_by_places_when_everyone_is_away_the_table_waits_and_deals_when_one_comes_back(monkeypatch):
    repeatable_decks(monkeypatch, random.Random(31))
    table, seats = _money_table("places")
    table_start(table_id=table.pk, seat_id=seats[0].pk)
    for seat in seats:
        seat_sit_out(table_id=table.pk, seat_id=seat.pk)
    while (player := current_turn(table)[0]) is not None:  # the first hand is played out by them
        hand_act(table_id=table.pk, seat_id=int(player), verb="fold")
    table.refresh_from_db()
    assert table.status == Table.Status.PLAYING and table.hands_played == 1  # not ended, not dealt
    assert Event.objects.filter(table=table, kind="waiting", payload__reason="everyone_away").exists()
    assert _stacks_between_hands(table) == CHIPS
    seat_come_back(table_id=table.pk, seat_id=seats[1].pk)
    table.refresh_from_db()
    assert table.hands_played == 2
    assert sorted(_away(table)) == sorted([seats[0].engine_name, seats[2].engine_name])


def test_a_player_who_comes_back_on_their_away_turn_at_the_deal_decides_it_themselves(monkeypatch):
    """Their first turn of the hand was on the clock as the away rule's move; coming back,
    it waits for them, with the table's timer (the timer's "act" rule counts from then)."""
    repeatable_decks(monkeypatch, random.Random(31))
    table, seats = _money_table("places", turn_timer=30, timeout_action="act")
    table_start(table_id=table.pk, seat_id=seats[0].pk)
    # Three players: the first seat deals hand 1, so the second deals hand 2 and, three
    # handed, acts first in it. They sit out during hand 1 (which they still play).
    absent = seats[1]
    seat_sit_out(table_id=table.pk, seat_id=absent.pk)
    while table.hands_played < 2:
        player, _legal = current_turn(table)
        hand_act(table_id=table.pk, seat_id=int(player), verb="fold")
        table.refresh_from_db()
    hand = selectors.hand_live(table=table)
    assert hand.to_act == absent.engine_name and absent.engine_name in hand.plan["away"]
    assert hand.turn_deadline is None and hand.turn_alarm_at <= timezone.now()
    seat_come_back(table_id=table.pk, seat_id=absent.pk)
    hand.refresh_from_db()
    assert absent.engine_name not in hand.plan["away"] and hand.to_act == absent.engine_name
    assert hand.turn_deadline > timezone.now() + timedelta(seconds=20)  # the table's 30 s, from now
    assert table_clock_run(table_id=table.pk, now=timezone.now()) == []  # nothing played for them
    assert current_turn(table)[0] == absent.engine_name
    hand_act(table_id=table.pk, seat_id=absent.pk, verb="call")
    mine = Event.objects.filter(table=table, kind="action", actor=absent, hand=hand)
    assert [(e.payload["verb"], e.payload.get("by")) for e in mine] == [("call", None)]


def test_an_away_turn_at_the_deal_is_played_after_the_host_pauses_and_resumes(monkeypatch):
    repeatable_decks(monkeypatch, random.Random(31))
    table, seats = _money_table("places")
    table_start(table_id=table.pk, seat_id=seats[0].pk)
    absent = seats[1]  # acts first in hand 2 (see above)
    seat_sit_out(table_id=table.pk, seat_id=absent.pk)
    while table.hands_played < 2:
        hand_act(table_id=table.pk, seat_id=int(current_turn(table)[0]), verb="fold")
        table.refresh_from_db()
    table_pause(table_id=table.pk, seat_id=seats[0].pk)
    assert table_clock_run(table_id=table.pk, now=timezone.now()) == []  # paused: nothing is played
    table_resume(table_id=table.pk, seat_id=seats[0].pk)
    assert table_clock_run(table_id=table.pk, now=timezone.now()) == ["turn_alarm"]
    assert current_turn(table)[0] != absent.engine_name
    mine = Event.objects.filter(table=table, kind="action", actor=absent, hand__number=2)
    assert [(e.payload["verb"], e.payload.get("by")) for e in mine] == [("fold", "away")]


def test_by_chips_the_game_waits_for_a_player_sitting_out_instead_of_ending(monkeypatch):
    """Two at hold'em by chips, one sits out: nobody holds every chip, so the game does not
    end (it did: 'one_left'); the table waits, and deals again when they come back."""
    repeatable_decks(monkeypatch, random.Random(31))
    table, seats = open_table("holdem", players=2)
    seat_sit_out(table_id=table.pk, seat_id=seats[1].pk)
    while (player := current_turn(table)[0]) is not None:
        hand_act(table_id=table.pk, seat_id=int(player), verb="fold")
    table.refresh_from_db()
    assert table.status == Table.Status.PLAYING and table.hands_played == 1
    assert Event.objects.filter(table=table, kind="waiting", payload__reason="too_few_players").exists()
    assert _stacks_between_hands(table) == 2000
    seat_come_back(table_id=table.pk, seat_id=seats[1].pk)
    table.refresh_from_db()
    assert table.hands_played == 2 and "away" not in selectors.hand_live(table=table).plan
