"""Teen Patti: Faras (rule book 000), Classic (004) and 999 (002) as presets of one engine.

The variants are data, not branches: each preset is a :class:`TeenPattiGame` holding its
name, its player counts and its default settings (:mod:`engine.teenpatti.settings`).
The game implements :class:`engine.api.Game`:

- ranking of three-card hands: :mod:`engine.teenpatti.ranking`
- one hand as a state machine, its verbs, refusals and event kinds: :mod:`engine.teenpatti.hand`
  (its state: :mod:`engine.teenpatti.state`; its end, the show and the pot paid: :mod:`engine.teenpatti.showdown`)
- the per-player view: :mod:`engine.teenpatti.view`
- the table around the hands (dealer, who is dealt in) and scenario decks: :mod:`engine.teenpatti.table`
- :func:`actions_from_events`: the actions behind a hand's event log, to rebuild its state

>>> from engine.api import Action
>>> from engine.fairness import seeded_deck
>>> game = preset_game("faras")
>>> state, events = game.start_hand(settings=game.settings(), players=[("Asha", 1000), ("Bikash", 1000)],
...                                 dealer=0, deck=seeded_deck(1))
>>> game.to_act(state)
'Bikash'
>>> state, events = game.apply(state, Action("Bikash", "chaal"))
>>> [event.kind for event in events], game.to_act(state)
(['chaal'], 'Asha')
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from engine.api import Action, Event, HandPlan, HandResult, LegalAction, TablePosition, TableRules
from engine.teenpatti import hand, table
from engine.teenpatti.hand import actions_from_events
from engine.teenpatti.settings import PLAYER_COUNTS, PRESETS, merge_settings, parse_settings
from engine.teenpatti.state import HandState
from engine.teenpatti.view import hand_view
from engine.view_types import TeenPattiView

__all__ = ["PRESET_NAMES", "TEEN_PATTI_TABLE_RULES", "HandState", "TeenPattiGame", "actions_from_events", "preset_game"]

PRESET_NAMES = ("faras", "classic", "999")

# Rule book 000: players come and go between hands and buy back within the host's limit;
# with fewer chips than the boot a player is not dealt in; blind or seen play; the game
# waits for players rather than ending. The same for every preset.
TEEN_PATTI_TABLE_RULES = TableRules(
    seating_after_start=True,
    rebuys_allowed=True,
    settings_fixed_after_start=False,
    ends_when_one_left=False,
    game_length_allowed=False,
    fixed_buy_in=None,
    play_chips_only=False,
    min_stack_setting="boot",
    places_players=False,
    has_blind_and_seen=True,
    hole_cards=3,
    has_board=False,
    forced_bets="boot",
    dealer_is_button=False,
    fold_verb="pack",
    bets_per="hand",
    raise_step_setting="boot",
    raise_from_double_stake=True,
    action_verbs=("see", "chaal", "raise", "show", "sideshow", "accept", "refuse", "pack"),
    variant_setting="variant",
    variant_hole_cards={"four_card": 4},
    variants_turning_a_card=("joker",),
)


class TeenPattiGame:
    """One preset of Teen Patti; stateless, so one instance per preset serves every table."""

    table_rules = TEEN_PATTI_TABLE_RULES

    def __init__(self, name: str) -> None:
        self.name = name
        self.min_players, self.max_players = PLAYER_COUNTS[name]
        self.defaults: Mapping[str, Any] = dict(PRESETS[name])

    def __repr__(self) -> str:
        return f"<TeenPattiGame {self.name}>"

    def settings(self, overrides: Mapping[str, Any] | None = None) -> dict[str, Any]:
        return merge_settings(self.name, overrides)

    def plan_hand(
        self, *, settings: Mapping[str, Any], seats: Sequence[tuple[str, int]], previous: TablePosition
    ) -> HandPlan | None:
        return table.plan_hand(
            settings=settings, seats=seats, previous=previous, player_counts=(self.min_players, self.max_players)
        )

    def deck_for_scenario(
        self,
        *,
        players: Sequence[str],
        dealer: int,
        hands: Mapping[str, Sequence[int]],
        board: Sequence[int] | None = None,
    ) -> list[int]:
        return table.deck_for_scenario(players=players, dealer=dealer, hands=hands, board=board)

    def start_hand(
        self,
        *,
        settings: Mapping[str, Any],
        players: Sequence[tuple[str, int]],
        dealer: int,
        deck: Sequence[int],
    ) -> tuple[HandState, list[Event]]:
        return hand.start_hand(
            game=self.name,
            settings=parse_settings(settings),
            players=players,
            dealer=dealer,
            deck=deck,
            player_counts=(self.min_players, self.max_players),
        )

    def legal_actions(self, state: HandState, player: str | None = None) -> list[LegalAction]:
        """What ``player`` (default: the one to act) may do now; ``[]`` for an unknown name."""
        if player is None:
            if state.turn < 0:
                return []
            return hand.legal_actions(state, state.turn)
        seat = state.index.get(player, -1)
        return [] if seat < 0 else hand.legal_actions(state, seat)

    def check(self, state: HandState, action: Action) -> None:
        hand.validate(state, action)

    def apply(self, state: HandState, action: Action) -> tuple[HandState, list[Event]]:
        return hand.apply(state, action)

    def to_act(self, state: HandState) -> str | None:
        return state.to_act

    def is_finished(self, state: HandState) -> bool:
        return state.turn < 0

    def result(self, state: HandState) -> HandResult:
        """Stacks and pots; on a hand still in play, the stacks now and no pots."""
        stacks = dict(zip(state.names, state.stacks, strict=True))
        pots = () if state.outcome is None else state.outcome.pots
        return HandResult(stacks=stacks, pots=pots)

    def view(self, state: HandState, viewer: str | None) -> TeenPattiView:
        return hand_view(state, viewer)


_GAMES = {name: TeenPattiGame(name) for name in PRESET_NAMES}


def preset_game(name: str) -> TeenPattiGame:
    """The rules of ``faras``, ``classic`` or ``999``; ``KeyError`` for any other name."""
    return _GAMES[name]
