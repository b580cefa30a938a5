"""Turns: after every change to a hand, whose turn it is now (with its deadline and its place
on the table clock), or the hand's end. Called inside a service's ``table_write`` block by
dealing and acting."""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import TYPE_CHECKING

from django.conf import settings
from django.utils import timezone

from engine.games import get_game
from tables.events import EventKind
from tables.models import HOST_ACT_AFTER, Hand, Table
from tables.services.clock_schedule import clock_due
from tables.services.hand_end import hand_finish
from tables.services.log import TableLog
from tables.services.seat_state import AWAY_KEY
from tables.services.table_settings import DEFAULT_COMPUTER_PAUSE, table_seconds
from tables.sql.write import row_save
from tables.what_viewers_see import turn_public

if TYPE_CHECKING:
    from engine.games import AnyHandState


def after_state_change(
    log: TableLog,
    *,
    hand: Hand,
    state: AnyHandState,
    actor_name: str | None,
    verb: str | None,
    action_seq: int = 0,
) -> bool:
    """Record whose turn it is now (with a reminder), or finish the hand.

    Returns whether the hand is over; the caller then runs the between-hands flow
    (``tables.services.between_hands.next_hand_schedule``).
    """
    table = log.table
    game = get_game(table.game)
    if game.is_finished(state):
        hand_finish(log, hand=hand, state=state)
        return True
    to_act = game.to_act(state) or ""
    new_turn = verb is None or to_act != hand.to_act or (actor_name == hand.to_act and verb != "see")
    if new_turn:
        hand.to_act = to_act
        turn_clock_start(hand, timer=turn_timer(table))
        computer_turn_clock(table, hand)
        if verb is None:  # the deal: no move comes before this turn to play it if away
            away_turn_clock(hand)
    # A turn event after every change: what the player to act may do can change without
    # the turn passing (a blind player who sees pays double from then on).
    log.append(
        EventKind.TURN,
        {**turn_public(game=game, state=state, player=to_act, hand=hand), "new": new_turn},
        hand=hand,
    )
    log.hand_now(hand, state, action_seq)
    if not new_turn:
        return False  # only the legal actions changed: the hand row stays as it is
    hand.turn_seq = log.last_seq
    row_save(hand, ["to_act", "turn_seq", *TURN_CLOCK_FIELDS])
    turn_clock_due(log, hand)
    return False


TURN_CLOCK_FIELDS = ("turn_started_at", "turn_deadline", "turn_alarm_at", "turn_alarms")


def turn_timer(table: Table) -> float | None:
    """Seconds a turn lasts: the host's ``turn_timer`` (None: no limit). While the game is
    ending (the host ended it during a hand) every turn is limited, to the timer or to
    ``HOST_ACT_AFTER`` without one, and the clock then acts for the player (``turn_acts``)."""
    timer = table.settings.get("turn_timer") or None
    if table.ending:
        # DASHAIN_ENDING_TURN_SECONDS, when set, shortens it for every table (browser tests).
        limit = getattr(settings, "DASHAIN_ENDING_TURN_SECONDS", None)
        if limit:
            return min(float(timer), float(limit)) if timer else float(limit)
        return int(timer or HOST_ACT_AFTER.total_seconds())
    return timer


def ending_turn_deadline(table: Table) -> datetime:
    """The latest a turn under way may last once the host has ended the game: from now."""
    return timezone.now() + timedelta(seconds=turn_timer(table) or 0)


def turn_acts(table: Table) -> bool:
    """Whether the clock acts for a player whose time has run out (the away rules) rather
    than reminding them: the host's ``timeout_action = "act"``, or while the game is ending."""
    return table.ending or table.settings.get("timeout_action", "remind") == "act"


def turn_clock_start(hand: Hand, *, timer: float | None) -> None:
    """A turn starts now: its deadline (with a timer) and the clock's first alarm at it.
    The caller saves ``TURN_CLOCK_FIELDS`` and calls :func:`turn_clock_due`."""
    now = timezone.now()
    hand.turn_started_at = now
    hand.turn_deadline = now + timedelta(seconds=timer) if timer else None
    hand.turn_alarm_at = hand.turn_deadline
    hand.turn_alarms = 0


def computer_turn_clock(table: Table, hand: Hand) -> None:
    """When the player to act is a computer: no deadline, and the clock's alarm after the
    table's pause is its move (``tables.services.computers``). Call after :func:`turn_clock_start`."""
    if hand.to_act and seat_is_computer(hand, hand.to_act):
        hand.turn_deadline = None
        hand.turn_alarm_at = computer_move_at(table)


def away_turn_clock(hand: Hand) -> None:
    """When the player to act is away for the hand (``Hand.plan["away"]``): no deadline, and
    the clock's alarm, now, is the away rule's move (``tables.services.clock_run``). For a turn no
    move comes before: the first of a hand, where a player sitting out at a table shared by
    places is dealt in away (``seat_state.sitting_out_dealt_in``), or one the host resumes.
    An away turn that follows a move is played at once by that move (``acting.move_play``).
    Call after :func:`turn_clock_start`."""
    if hand.to_act and hand.to_act in hand.plan.get(AWAY_KEY, ()):
        hand.turn_deadline = None
        hand.turn_alarm_at = timezone.now()


def turn_clock_due(log: TableLog, hand: Hand) -> None:
    """Put the turn's alarm on the table clock (while the table is playing)."""
    if hand.turn_alarm_at is not None and log.table.status == Table.Status.PLAYING:
        clock_due(log, hand.turn_alarm_at)


def computer_pause(table: Table) -> float:
    """Seconds a computer waits before it acts: the host's ``computer_pause``, unless
    ``DASHAIN_COMPUTER_PAUSE`` overrides it for every table (tests use 0)."""
    return table_seconds(table, "computer_pause", DEFAULT_COMPUTER_PAUSE, "DASHAIN_COMPUTER_PAUSE")


def seat_is_computer(hand: Hand, engine_name: str) -> bool:
    """Whether the player called ``engine_name`` (a seat id) in ``hand`` is a computer: the
    hand's plan lists the computers dealt in (no query)."""
    return engine_name in hand.plan.get("computers", ())


def computer_move_at(table: Table) -> datetime:
    """When a computer whose turn starts now acts."""
    return timezone.now() + timedelta(seconds=computer_pause(table))
