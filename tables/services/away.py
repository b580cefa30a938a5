"""Away players: acting for a player whose time has run out, by the clock or by the host.

Rule book 000 says the turn timer "reminds you but is not enforced", and that stays the
default (``timeout_action = "remind"``). A host may choose ``"act"``: when the timer
runs out the clock acts for the player and sits them out. In every mode, once a player's
timer has run out (or after ``models.HOST_ACT_AFTER`` on turn when there is no timer)
the host may act for them, paused or not (:func:`hand_act_for_away`), in one of two ways:

- *away for the hand* (the clock's way): the least an absent player can do
  (``acting.least_move``: the first of ``acting.AWAY_VERBS`` the rules allow). Teen Patti: a
  sideshow asked of them is refused, otherwise they pack; hold'em: check when free, else
  fold. It is followed by ``seat_sat_out`` (the player is not dealt in again until they
  come back), and they are then away for the hand: each of their later turns in it is
  played at once by the same rule (``"by": "away"``, ``acting.move_play``) until they come
  back (``seat_come_back``);
- *a move the host picks* among the player's legal ones (what the player asked for, say
  "call"), which does not sit them out: their next turn waits for them as any turn does.
  A move that would turn up a hidden card is the player's alone (:data:`PLAYER_ONLY_VERBS`
  and :func:`_reveals_cards`): the host never looks, shows or compares for anyone.

Either way the move is recorded like the player's own (``action`` with the player's seat as
actor, so the hand replays from it) with ``"by": "timer"`` or ``"host"``; the host's also
names the host's seat (``"by_seat"``), so the log says who acted for whom.
"""

from __future__ import annotations

from collections.abc import Iterable

from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from engine.api import Action
from engine.api import Event as EngineEvent
from engine.games import get_game
from tables import selectors
from tables.models import Hand, Table
from tables.services.acting import MAX_AMOUNT, MAX_VERB_LENGTH, least_move, move_play
from tables.services.errors import ServiceError
from tables.services.hosting import require_host
from tables.services.log import TableLog
from tables.services.turns import seat_is_computer
from tables.services.write import table_write

#: The moves the host never makes for another player, because each shows a hidden card to
#: someone or starts a comparison of hands: Teen Patti's ``see`` (the player's own look,
#: which also makes their bets cost double), ``show`` (both hands face up), ``sideshow``
#: (asking to compare) and ``accept`` (comparing with the asker, who may be the host).
#: The page does not offer them; the service refuses them (``player_only``).
PLAYER_ONLY_VERBS = frozenset({"see", "show", "sideshow", "accept"})

#: The ``move`` that asks for the clock's way: the least move, then away for the hand.
AWAY_MOVE = "away"


def away_act(log: TableLog, *, hand: Hand, by: str, by_seat: int | None = None) -> int:
    """Play the away action for the player to act in ``hand`` and sit them out; returns the action's seq.

    The table must be locked (``log``). ``by`` is ``"timer"`` or ``"host"`` (then ``by_seat``
    is the host's seat).
    """
    table = log.table
    game = get_game(table.game)
    _hand, state, _seq = selectors.live_hand_and_state(table=table)
    if state is None:
        raise ServiceError("no_hand", _("No hand is being played right now."))
    name = game.to_act(state)
    if name is None or str(name) != hand.to_act:
        raise ServiceError("not_to_act", _("That player is not the one to act."))
    action = least_move(game, state, str(name))
    if action is None:
        raise ServiceError("no_away_action", _("There is nothing to do for that player now."))
    played = move_play(
        log, hand=hand, state=state, action=action, actor_id=int(name), by=by, by_seat=by_seat, sit_out=True
    )
    return played.seq


def _reveals_cards(events: Iterable[EngineEvent]) -> bool:
    """Whether a move's events would turn up a hidden card: an event only some may see (a
    player's own cards, a sideshow's two hands) or one showing cards to all (a show, a
    showdown: Teen Patti's pot limit, hold'em's last call or an all-in run-out)."""
    return any(event.visible_to is not None or "cards" in event.data for event in events if event.kind != "board")


def _chosen_move(log: TableLog, *, hand: Hand, host_seat: int, verb: str, amount: int | None) -> int:
    """Play ``verb`` (``amount``) for the player to act, as the host chose it; returns its seq."""
    game = get_game(log.table.game)
    _hand, state, _seq = selectors.live_hand_and_state(table=log.table)
    if state is None:
        raise ServiceError("no_hand", _("No hand is being played right now."))
    name = hand.to_act
    if verb in PLAYER_ONLY_VERBS:
        raise ServiceError(
            "player_only", _("Only the player may do that: it would show or compare their cards. Choose another move.")
        )
    if verb not in {entry.verb for entry in game.legal_actions(state, name)}:
        raise ServiceError("not_legal", _("That move is not open to that player now."))
    action = Action(name, verb, amount)
    played = move_play(
        log,
        hand=hand,
        state=state,
        action=action,
        actor_id=int(name),
        by="host",
        by_seat=host_seat,
        refuse=_reveals_cards_refusal,
    )
    return played.seq


def _reveals_cards_refusal(events: Iterable[EngineEvent]) -> ServiceError | None:
    """The refusal of a move the host chose whose events would turn up a hidden card."""
    if not _reveals_cards(events):
        return None
    return ServiceError(
        "reveals_cards",
        _("That move would turn up cards, so only the player may make it. Choose another move or away."),
    )


def _check_move(move: object, amount: object) -> None:
    if move is not None and (not isinstance(move, str) or not move or len(move) > MAX_VERB_LENGTH):
        raise ServiceError("bad_move", _("Choose a move, or away for the hand."))
    if amount is not None and (
        isinstance(amount, bool) or not isinstance(amount, int) or not 0 <= amount <= MAX_AMOUNT
    ):
        raise ServiceError("bad_amount", _("The amount must be a whole number of chips."))
    if move in (None, AWAY_MOVE) and amount is not None:
        raise ServiceError("amount_not_allowed", _("That move takes no amount."))


def hand_act_for_away(
    *, table_id: int, seat_id: int, player_seat_id: int, move: str | None = None, amount: int | None = None
) -> int:
    """The host acts for the player on turn whose time has run out; returns the action's seq.

    ``move`` ``None`` or ``"away"``: away for the hand (the least move, and the player sits
    out). Any other ``move`` (with ``amount`` where it takes one) is played as the player's
    own, and they stay in.

    Refused, changing nothing: ``no_seat``, ``bad_move``, ``bad_amount``,
    ``amount_not_allowed`` (the request's shape), ``not_host``, ``ended``, ``not_playing``
    (not started), ``no_hand``, ``not_to_act`` (that player is not the one to act),
    ``own_turn`` (the host's own turn), ``computer_turn`` (a computer: it plays its own
    turns, even after a long pause), ``too_soon`` (their time has not run out),
    ``player_only`` (:data:`PLAYER_ONLY_VERBS`), ``not_legal`` (not among their moves now),
    the engine's own refusal (an amount out of range, e.g. ``raise_too_small``) and
    ``reveals_cards`` (the move would turn up a hidden card).
    """
    if isinstance(player_seat_id, bool) or not isinstance(player_seat_id, int):
        raise ServiceError("no_seat", _("Choose a player at this table."))
    _check_move(move, amount)
    with table_write(table_id) as (table, log):
        host = require_host(table, seat_id)
        if table.status not in (Table.Status.PLAYING, Table.Status.PAUSED):
            raise ServiceError("not_playing", _("The game is not being played."))
        hand = selectors.hand_live(table=table)
        if hand is None:
            raise ServiceError("no_hand", _("No hand is being played right now."))
        if not hand.to_act or hand.to_act != str(player_seat_id):
            raise ServiceError("not_to_act", _("That player is not the one to act."))
        if hand.to_act == str(host.pk):
            raise ServiceError("own_turn", _("It is your own turn: play it from your action bar."))
        if seat_is_computer(hand, hand.to_act):
            raise ServiceError("computer_turn", _("A computer plays its own turn."))
        may_act_at = hand.away_act_from
        if may_act_at is None or timezone.now() < may_act_at:
            raise ServiceError("too_soon", _("Their time has not run out yet."))
        if move is None or move == AWAY_MOVE:
            return away_act(log, hand=hand, by="host", by_seat=host.pk)
        return _chosen_move(log, hand=hand, host_seat=host.pk, verb=move, amount=amount)
