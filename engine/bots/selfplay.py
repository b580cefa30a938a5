"""Whole hands played by computers with the engine alone: for tests, benchmarks and the CLI.

:func:`play_hand` deals one hand and asks each seat's :data:`Strategy` for its actions,
giving it only that seat's view and the seat's own :class:`~engine.bots.history.History`,
which it keeps up to date with the events that seat may see. It checks every action
with the engine before applying it, so a strategy that chose an illegal action is a
:class:`~engine.api.RuleError` here, not a silent fix.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol

from engine.api import Action, Event
from engine.bots import choose_action, wants_to_act
from engine.bots.history import History
from engine.games import get_game

if TYPE_CHECKING:
    from engine.games import AnyHandState


class Strategy(Protocol):
    """How a seat decides: the same arguments :func:`engine.bots.choose_action` takes but the strength."""

    def __call__(
        self, *, game: str, view: Mapping[str, Any], player: str, rng: random.Random, history: History | None
    ) -> Action: ...


@dataclass(frozen=True, slots=True)
class Computer:
    """A :data:`Strategy` of one of the engine's strengths."""

    strength: str

    def __call__(
        self, *, game: str, view: Mapping[str, Any], player: str, rng: random.Random, history: History | None
    ) -> Action:
        return choose_action(game=game, view=view, player=player, strength=self.strength, rng=rng, history=history)


@dataclass(frozen=True, slots=True)
class PlayedHand:
    state: AnyHandState
    events: list[Event]
    histories: dict[str, History]
    decisions: int


# A hand never needs more decisions than this; more means a strategy is stuck.
MAX_DECISIONS = 10_000


def play_hand(
    *,
    game_name: str,
    settings: Mapping[str, Any],
    players: Sequence[tuple[str, int]],
    dealer: int,
    deck: Sequence[int],
    strategies: Mapping[str, Strategy],
    rngs: Mapping[str, random.Random],
    histories: Mapping[str, History] | None = None,
) -> PlayedHand:
    """Play one hand to its end; ``strategies`` and ``rngs`` by player name."""
    game = get_game(game_name)
    state, events = game.start_hand(settings=settings, players=players, dealer=dealer, deck=deck)
    names = [name for name, _ in players]
    known = {name: (histories or {}).get(name, History()) for name in names}
    known = {name: known[name].observe_engine_events(events, name) for name in names}
    all_events = list(events)
    decisions = 0
    while not game.is_finished(state):
        player = game.to_act(state)
        assert player is not None
        view = game.view(state, player)
        if not wants_to_act(view, player):
            raise RuntimeError(f"{player} is to act but has no move in the view.")
        action = strategies[player](game=game_name, view=view, player=player, rng=rngs[player], history=known[player])
        game.check(state, action)
        state, events = game.apply(state, action)
        all_events.extend(events)
        known = {name: known[name].observe_engine_events(events, name) for name in names}
        decisions += 1
        if decisions > MAX_DECISIONS:
            raise RuntimeError("The hand did not end: a strategy keeps the betting going forever.")
    return PlayedHand(state=state, events=all_events, histories=known, decisions=decisions)
