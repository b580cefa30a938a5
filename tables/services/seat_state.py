"""What a seat may do now, asked by several services: is it dealt in, has it buy-backs left."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from tables import selectors
from tables.models import MOVED_KEY, Hand, Seat, Table

if TYPE_CHECKING:
    from engine.api import Game
    from engine.games import AnyHandState


def players_of(hand: Hand) -> list[str]:
    """The engine names of the players dealt in ``hand`` (from its recorded plan)."""
    return [str(name) for name, _stack in hand.plan["players"]]


def in_live_hand(table: Table, seat: Seat) -> bool:
    """Whether ``seat`` is dealt in the hand being played."""
    return selectors.seat_in_live_hand(table=table, seat=seat)


def sitting_out_dealt_in(table: Table) -> bool:
    """Whether a player sitting out is still dealt in (and played by the away rule): at a
    hold'em table shared by places, as at any tournament, an absent player's stack keeps
    paying the blinds and their hand is folded, so sitting out cannot freeze a place
    (docs/rules.md, "Sitting out at a table shared by places"). Elsewhere sitting out keeps
    a player out of the deal, and their chips out of the pots."""
    return (table.settings or {}).get("prizes") == "places"


def buy_backs_left(table: Table, seat: Seat) -> bool:
    """Whether the seat may still buy in again within the table's limit (``None``: no limit)."""
    limit = table.settings.get("buy_backs")
    return limit is None or seat.buy_backs_used < limit


#: The key of ``Hand.plan`` that lists the players away for the rest of the hand (seat
#: ids as strings): sat out by the away rule in it, and not come back since.
AWAY_KEY = "away"


def away_for_hand_mark(hand: Hand, name: str) -> None:
    """``name`` is away for the rest of ``hand`` (saved on the hand's row). The plan is
    replaced, never changed in place: the state cache shares the hand's fields."""
    away = hand.plan.get(AWAY_KEY, [])
    if name not in away:
        hand.plan = {**hand.plan, AWAY_KEY: [*away, name]}
        hand.save(update_fields=["plan"])


def away_for_hand_clear(hand: Hand, name: str) -> bool:
    """``name`` came back: their own decisions again, from their next turn. Returns
    whether they were away. A player whose seat moved to another browser during the hand
    stays away for it (:func:`moved_in_hand_mark`: they have no view of it to decide by)."""
    away = hand.plan.get(AWAY_KEY, [])
    if name not in away or name in hand.plan.get(MOVED_KEY, ()):
        return False
    hand.plan = {**hand.plan, AWAY_KEY: [other for other in away if other != name]}
    hand.save(update_fields=["plan"])
    return True


def decisions_left(game: Game[Any], state: AnyHandState, name: str) -> bool:
    """Whether ``name`` may still have a decision to make in the hand: dealt in, the hand not
    over, and neither packed (folded) nor all in."""
    if game.is_finished(state):
        return False
    players: list[Mapping[str, object]] = list(game.view(state, None)["players"])
    player = next((player for player in players if player["name"] == name), None)
    return player is not None and not any(player.get(key) for key in ("packed", "folded", "all_in"))


def moved_in_hand_mark(hand: Hand, name: str) -> None:
    """``name``'s seat moved to another browser during ``hand`` (``models.MOVED_KEY``): no one
    is shown their view of it any more, and they make no move in it (saved on the hand's row;
    the plan is replaced, as by :func:`away_for_hand_mark`)."""
    moved = hand.plan.get(MOVED_KEY, [])
    if name not in moved:
        hand.plan = {**hand.plan, MOVED_KEY: [*moved, name]}
        hand.save(update_fields=["plan"])
