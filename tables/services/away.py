"""Away players: acting for a player whose time has run out, by the clock or by the host.

Rule book 000 says the turn timer "reminds you but is not enforced", and that stays the
default (``timeout_action = "remind"``). A host may choose ``"act"``: when the timer
runs out the clock acts for the player and sits them out. In every mode, once a player's
timer has run out (or after ``models.HOST_ACT_AFTER`` on turn when there is no timer)
the host may act for them the same way, paused or not (:func:`hand_act_for_away`).

"The same way" is the least an absent player can do (``acting.least_move``: the first of
``acting.AWAY_VERBS`` the rules allow). Teen Patti: a sideshow asked of them is refused, otherwise they pack;
hold'em: check when free, else fold. The action is recorded like the player's own
(``action`` with the player's seat as actor, so the hand replays from it) with
``"by": "timer"`` or ``"host"``, and followed by ``seat_sat_out`` (the player is not
dealt in again until they come back). They are then *away for the hand*: each of their
later turns in it is played at once by the same rule (``"by": "away"``, ``acting.move_play``)
until they come back (``seat_come_back``).
"""

from __future__ import annotations

from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from engine.games import get_game
from tables import selectors
from tables.models import Hand, Table
from tables.services.acting import least_move, move_play
from tables.services.errors import ServiceError
from tables.services.hosting import require_host
from tables.services.log import TableLog
from tables.services.turns import seat_is_computer
from tables.services.write import table_write


def away_act(log: TableLog, *, hand: Hand, by: str) -> int:
    """Play the away action for the player to act in ``hand`` and sit them out; returns the action's seq.

    The table must be locked (``log``). ``by`` is ``"timer"`` or ``"host"``.
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
    return move_play(log, hand=hand, state=state, action=action, actor_id=int(name), by=by, sit_out=True).seq


def hand_act_for_away(*, table_id: int, seat_id: int, player_seat_id: int) -> int:
    """The host acts for the player on turn whose time has run out; returns the action's seq.

    Refused, changing nothing: ``not_host``, ``ended``, ``not_playing`` (not started),
    ``no_hand``, ``not_to_act`` (that player is not the one to act), ``computer_turn`` (a
    computer: it plays its own turns, even after a long pause), ``too_soon`` (their time
    has not run out).
    """
    if isinstance(player_seat_id, bool) or not isinstance(player_seat_id, int):
        raise ServiceError("no_seat", _("Choose a player at this table."))
    with table_write(table_id) as (table, log):
        require_host(table, seat_id)
        if table.status not in (Table.Status.PLAYING, Table.Status.PAUSED):
            raise ServiceError("not_playing", _("The game is not being played."))
        hand = selectors.hand_live(table=table)
        if hand is None:
            raise ServiceError("no_hand", _("No hand is being played right now."))
        if not hand.to_act or hand.to_act != str(player_seat_id):
            raise ServiceError("not_to_act", _("That player is not the one to act."))
        if seat_is_computer(hand, hand.to_act):
            raise ServiceError("computer_turn", _("A computer plays its own turn."))
        may_act_at = hand.away_act_from
        if may_act_at is None or timezone.now() < may_act_at:
            raise ServiceError("too_soon", _("Their time has not run out yet."))
        seq = away_act(log, hand=hand, by="host")
    return seq
