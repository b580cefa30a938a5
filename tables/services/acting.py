"""Acting in a hand: a player's action checked and applied by the engine, and looking at one's cards.

The live hand's state comes from the state cache or is rebuilt from the log
(``tables.selectors.live_hand_and_state``); the engine checks and applies the action;
its events are appended after the ``action`` event; then the turn moves on or the hand
ends and the next is dealt (``tables.services.between_hands``).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from django.db import IntegrityError
from django.utils.translation import gettext_lazy as _

from engine.api import Action, Game, RuleError
from engine.api import Event as EngineEvent
from engine.games import get_game
from tables import selectors
from tables.events import EventKind
from tables.models import MOVED_KEY, Event, Hand, Seat, Table
from tables.services.between_hands import next_hand_schedule
from tables.services.errors import ServiceError
from tables.services.log import TableLog
from tables.services.refusals import rule_refusal
from tables.services.seat_state import AWAY_KEY, away_for_hand_mark, players_of
from tables.services.turns import after_state_change
from tables.services.write import seat_at, table_write

#: What an absent player does, in order of preference: the first one the rules allow
#: (the away rule, and a computer whose strategy chose what the rules refuse).
AWAY_VERBS = ("check", "refuse", "pack", "fold")
if TYPE_CHECKING:
    from engine.games import AnyHandState

MAX_VERB_LENGTH = 20
MAX_AMOUNT = 10**9
MAX_CLIENT_ACTION_ID = 64


def action_record(
    log: TableLog,
    *,
    hand: Hand,
    action: Action,
    events: Iterable[EngineEvent],
    actor_id: int,
    by: str | None = None,
    by_seat: int | None = None,
    client_action_id: str | None = None,
) -> int:
    """Record an applied action in the log and return its seq: the ``action`` event (the
    request, with the seat as actor, and ``by``: ``"timer"``, ``"host"`` or ``"computer"``
    when the player did not act themselves; ``by_seat``: the seat of the host who acted for
    them), then the engine's events, each with who may
    see it. Every way of acting records a move this way, so a hand replays from its log.
    The caller then moves the turn on (``after_state_change``)."""
    payload: dict[str, object] = {"player": action.player, "verb": action.verb, "amount": action.amount}
    if by is not None:
        payload["by"] = by
    if by_seat is not None:
        payload["by_seat"] = by_seat
    recorded = log.append(EventKind.ACTION, payload, hand=hand, actor_id=actor_id, client_action_id=client_action_id)
    for event in events:
        log.append(EventKind(event.kind), dict(event.data), hand=hand, visible_to=event.visible_to)
    return recorded.seq


def least_move(game: Game[Any], state: AnyHandState, name: str) -> Action | None:
    """The least ``name`` can do now (the first of ``AWAY_VERBS`` the rules allow): Teen
    Patti refuses a sideshow asked of them, else packs; hold'em checks when free, else
    folds. ``None`` when none of them is allowed."""
    legal = {entry.verb for entry in game.legal_actions(state, name)}
    verb = next((verb for verb in AWAY_VERBS if verb in legal), None)
    return None if verb is None else Action(name, verb, None)


@dataclass(frozen=True)
class Played:
    """A move played by :func:`move_play`: its ``action`` event's seq, the hand's state after
    it, and whether it ended the hand (the next deal is then scheduled)."""

    seq: int
    state: AnyHandState
    hand_over: bool


def move_play(
    log: TableLog,
    *,
    hand: Hand,
    state: AnyHandState,
    action: Action,
    actor_id: int,
    by: str | None = None,
    by_seat: int | None = None,
    client_action_id: str | None = None,
    sit_out: bool = False,
    away_for_hand: bool = False,
    refuse: Callable[[Sequence[EngineEvent]], ServiceError | None] | None = None,
) -> Played:
    """Play ``action`` in the live ``hand`` (whose state is ``state``), the one way every
    move is played: a person's (:func:`hand_act`), the away rule's (``away.away_act``), the
    host's for an away player (``away.hand_act_for_away``, ``by_seat``) and a computer's
    (``computers.computer_move``). The engine checks and applies it (its ``apply`` checks: a
    refusal raises :class:`ServiceError` with the engine's code and appends nothing), the
    move is recorded (:func:`action_record`), ``sit_out`` (the away rule) sits the player out
    (``seat_sat_out``, before the turn moves on, so they are not dealt in again) and marks them
    away for the rest of the hand; ``away_for_hand`` marks them away for the rest of the hand
    without sitting them out (a seat moved to another browser during the hand: they are dealt
    in again from the next one, ``claims.seat_claim_take``); the turn moves on, and when the
    hand is over the next deal is scheduled. ``refuse`` sees the
    move's events before anything is recorded and may refuse it (the host's move for an away
    player that would turn up a card: ``away.hand_act_for_away``). The
    table must be locked (``log``)."""
    try:
        new_state, events = get_game(log.table.game).apply(state, action)
    except RuleError as error:
        raise rule_refusal(error) from None
    refusal = None if refuse is None else refuse(events)
    if refusal is not None:
        raise refusal
    seq = action_record(
        log,
        hand=hand,
        action=action,
        events=events,
        actor_id=actor_id,
        by=by,
        by_seat=by_seat,
        client_action_id=client_action_id,
    )
    if sit_out:
        seat = Seat.objects.get(pk=actor_id, table=log.table)
        if seat.status == Seat.Status.PLAYING:
            seat.status = Seat.Status.SITTING_OUT
            seat.save(update_fields=["status"])
            log.append(EventKind.SEAT_SAT_OUT, {"seat": seat.pk, "by": by})
    if sit_out or away_for_hand:
        away_for_hand_mark(hand, action.player)
    hand_over = after_state_change(
        log, hand=hand, state=new_state, actor_name=action.player, verb=action.verb, action_seq=seq
    )
    if hand_over:
        next_hand_schedule(log)
        return Played(seq=seq, state=new_state, hand_over=True)
    # Away for the hand: an away player's every later decision in it is made at once by
    # the away rule (docs/rules.md, "Away players"), never waiting for a timer or the host.
    away_move = _away_move(log.table, hand, new_state)
    if away_move is not None:
        then = move_play(log, hand=hand, state=new_state, action=away_move, actor_id=int(away_move.player), by="away")
        return Played(seq=seq, state=then.state, hand_over=then.hand_over)
    return Played(seq=seq, state=new_state, hand_over=False)


def _away_move(table: Table, hand: Hand, state: AnyHandState) -> Action | None:
    """The away rule's move when the player to act now is away for this hand (no query)."""
    if not hand.to_act or hand.to_act not in hand.plan.get(AWAY_KEY, ()):
        return None
    return least_move(get_game(table.game), state, hand.to_act)


def _check_request(verb: object, amount: object, client_action_id: object) -> None:
    if not isinstance(verb, str) or not verb or len(verb) > MAX_VERB_LENGTH:
        raise ServiceError("bad_verb", _("That is not an action."))
    if amount is not None and (
        isinstance(amount, bool) or not isinstance(amount, int) or not 0 <= amount <= MAX_AMOUNT
    ):
        raise ServiceError("bad_amount", _("The amount must be a whole number of chips."))
    if client_action_id is not None and (
        not isinstance(client_action_id, str) or not client_action_id or len(client_action_id) > MAX_CLIENT_ACTION_ID
    ):
        raise ServiceError("bad_id", _("An action's id must be a short text."))


def hand_act(
    *,
    table_id: int,
    seat_id: int,
    verb: str,
    amount: int | None = None,
    client_action_id: str | None = None,
    only_on_turn: bool = False,
) -> int:
    """Play ``verb`` (and ``amount``) for the seat; returns the seq of the action's event.

    A ``client_action_id`` already in the log is not applied again: the seq of the
    first time is returned. Raises :class:`ServiceError` (the engine's refusals keep
    the engine's code, e.g. ``not_your_turn``) and changes nothing when it does.
    ``only_on_turn``: refuse (``not_your_turn``) even what the rules allow out of turn
    (Teen Patti's ``see``): pass and play, where a player looks on their turn.
    """
    _check_request(verb, amount, client_action_id)
    try:
        return _hand_act(table_id, seat_id, verb, amount, client_action_id, only_on_turn)
    except (IntegrityError, ServiceError):
        # IntegrityError: a concurrent request with the same id committed first (the id is
        # unique per table). ServiceError: a resend of an action already applied is refused
        # by the rules now (the turn moved on). Either way, answer it as the first time.
        # Looked up only on refusal, to keep actions lean.
        earlier = _earlier_action(table_id, seat_id, client_action_id)
        if earlier is None:
            raise
        return earlier


def _earlier_action(table_id: int, seat_id: int, client_action_id: str | None) -> int | None:
    if client_action_id is None:
        return None
    earlier = Event.objects.filter(table_id=table_id, client_action_id=client_action_id).first()
    if earlier is None:
        return None
    if earlier.actor_id != seat_id:
        raise ServiceError("bad_id", _("That action id is already used."))
    return earlier.seq


def _hand_act(
    table_id: int, seat_id: int, verb: str, amount: int | None, client_action_id: str | None, only_on_turn: bool
) -> int:
    with table_write(table_id) as (table, log):
        if table.status == Table.Status.PAUSED:
            raise ServiceError("paused", _("The host has paused the game."))
        if table.status != Table.Status.PLAYING:
            raise ServiceError("not_playing", _("The game is not being played."))
        # The live hand and its state: from the cache, with no query, when nothing was
        # written to the table since it was stored.
        hand, state, _seq = selectors.live_hand_and_state(table=table)
        if hand is None or state is None:
            raise ServiceError("no_hand", _("No hand is being played right now."))
        # The plan names the seats dealt in, so a seat found there is this table's.
        name = str(seat_id)
        if name not in players_of(hand):
            seat_at(table, seat_id)  # no_seat for a stranger
            raise ServiceError("not_in_hand", _("You are not dealt in this hand."))
        if name in hand.plan.get(MOVED_KEY, ()):
            # Her seat moved to this browser during the hand: it is played out for her.
            raise ServiceError(
                "moved_in_hand",
                _("Your seat moved here during this hand: it is played out for you. You play from the next one."),
            )
        game = get_game(table.game)
        if only_on_turn and game.to_act(state) != name:
            raise ServiceError("not_your_turn", _("It is not your turn."))
        played = move_play(
            log,
            hand=hand,
            state=state,
            action=Action(name, verb, amount),
            actor_id=seat_id,
            client_action_id=client_action_id,
        )
    return played.seq


def hand_see(*, table_id: int, seat_id: int, client_action_id: str | None = None, only_on_turn: bool = False) -> int:
    """Look at one's own cards (Teen Patti), in turn or out of it (``only_on_turn``: in turn only)."""
    game_name = (
        Table.objects.filter(pk=table_id).values_list("game", flat=True).first() if isinstance(table_id, int) else None
    )
    if game_name is None:
        raise ServiceError("no_table", _("There is no such table."))
    if not get_game(game_name).table_rules.has_blind_and_seen:
        raise ServiceError("not_supported", _("In hold'em your cards are face up to you from the deal."))
    return hand_act(
        table_id=table_id, seat_id=seat_id, verb="see", client_action_id=client_action_id, only_on_turn=only_on_turn
    )
