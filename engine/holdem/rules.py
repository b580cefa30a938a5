"""``HOLDEM``: no-limit Texas hold'em behind the engine's one API (:class:`engine.api.Game`).

This module only joins the parts: the hand's state machine (:mod:`engine.holdem.hand`),
the table (:mod:`engine.holdem.table`) and the per-viewer picture of a hand.

``view(state, viewer)`` returns (JSON-ready)::

    {
      "game": "holdem",
      "street": "preflop" | "flop" | "turn" | "river" | "finished",
      "button": "Asha", "small_blind": 10, "big_blind": 20,
      "players": [                       # in seat order
        {"name": "Asha", "stack": 990,   # chips behind
         "bet": 10,                      # put in this betting round
         "in_hand": 10,                  # put in this hand so far (0 once the pots are paid)
         "folded": false, "all_in": false,
         "is_button": true,
         "cards": ["As", "Kd"] | null}   # the viewer's own, or a hand turned up for everyone
      ],
      "board": ["2c", "7h", "Td"],
      "pot": 80,                         # every chip in the middle, this round's bets included
      "pots": [{"amount": 60, "eligible": ["Asha", "Bikash"]}],  # main first; bets of this round not yet in
      "current_bet": 20,                 # what a call reaches this round
      "min_raise_to": 40,                # the least full raise, to (or the least bet when nobody has bet)
      "to_act": "Bikash" | null,
      "legal": [{"verb": "raise", "min": 40, "max": 1000, "cost": 30,  # only for the viewer on turn;
                 "per_chip": 1, "step": 20, "start": 40}, ...],  # cost: chips it puts in now (a raise:
                                         # at min); per_chip, step, start: the amount box
      "result": null | {"stacks": {...}, "pots": [{"amount", "eligible", "winners"}],
                        "payouts": {name: chips won, odd chips included},
                        "best_cards": {winner: [the five]}, "hands": {winner: {"category"}}}
    }

Mucked hands and other players' unseen cards never appear.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from engine.api import (
    Action,
    Event,
    HandPlan,
    HandResult,
    LegalAction,
    SettingsError,
    TablePosition,
    TableRules,
    legal_entry,
)
from engine.cards import card_text, deck_with
from engine.holdem import hand as holdem_hand
from engine.holdem.showdown import pots_of
from engine.holdem.state import FINISHED, STREET_NAMES, HandState, board_positions, hole_card_positions
from engine.holdem.table import holdem_settings, plan_hand
from engine.view_types import HoldemPlayer, HoldemResult, HoldemView, LegalEntry, PotView

# Rule book 001: everyone starts with 1,000 play chips; seats are taken before the game
# starts; no rebuys; the settings are fixed from the first deal; the game ends when one
# player has every chip, or after its length (30 or 60 hands) if the host chose one.
HOLDEM_STARTING_CHIPS = 1000
HOLDEM_TABLE_RULES = TableRules(
    seating_after_start=False,
    rebuys_allowed=False,
    settings_fixed_after_start=True,
    ends_when_one_left=True,
    game_length_allowed=True,
    fixed_buy_in=HOLDEM_STARTING_CHIPS,
    play_chips_only=True,
    min_stack_setting=None,
    places_players=True,
    has_blind_and_seen=False,
    hole_cards=2,
    has_board=True,
    forced_bets="blinds",
    dealer_is_button=True,
    fold_verb="fold",
    bets_per="round",
    raise_step_setting="big_blind",
    raise_from_double_stake=False,
    action_verbs=("check", "call", "bet", "raise", "allin", "fold"),
    poker_hand_histories=True,
)


class HoldemRules:
    """No-limit Texas hold'em, 2 to 6 players (rule book 001)."""

    name = "holdem"
    min_players = 2
    max_players = 6
    table_rules = HOLDEM_TABLE_RULES

    def settings(self, overrides: Mapping[str, Any] | None = None) -> Mapping[str, Any]:
        return holdem_settings(overrides)

    def plan_hand(
        self, *, settings: Mapping[str, Any], seats: Sequence[tuple[str, int]], previous: TablePosition
    ) -> HandPlan | None:
        return plan_hand(settings=settings, seats=seats, previous=previous)

    def deck_for_scenario(
        self,
        *,
        players: Sequence[str],
        dealer: int,
        hands: Mapping[str, Sequence[int]],
        board: Sequence[int] | None,
    ) -> list[int]:
        """A deck that deals ``hands`` and ``board``; cards nobody named fill the other places
        (burns included) in new-deck order. A player left out of ``hands`` gets such cards."""
        count = len(players)
        if not self.min_players <= count <= self.max_players:
            raise SettingsError("players", f"Hold'em is for 2 to 6 players, not {count}.")
        if type(dealer) is not int or not 0 <= dealer < count:
            raise SettingsError("dealer", f"The dealer must be a player's index from 0 to {count - 1}.")
        placed: dict[int, int] = {}
        positions = hole_card_positions(count, dealer)
        for name, cards in hands.items():
            if name not in players:
                raise SettingsError("hands", f"{name!r} is not one of the players.")
            if len(cards) != 2:
                raise SettingsError("hands", f"{name} must have 2 cards in hold'em, not {len(cards)}.")
            seat = list(players).index(name)
            for position, card in zip(positions[seat], cards, strict=True):
                placed[position] = card
        board_cards = list(board or [])
        if len(board_cards) > 5:
            raise SettingsError("board", f"The board has at most 5 cards, not {len(board_cards)}.")
        for position, card in zip(board_positions(count), board_cards, strict=False):
            placed[position] = card
        used = list(placed.values())
        if len(set(used)) != len(used):
            raise SettingsError("hands", "The same card appears twice in the hands and board.")
        return deck_with(placed)

    def start_hand(
        self,
        *,
        settings: Mapping[str, Any],
        players: Sequence[tuple[str, int]],
        dealer: int,
        deck: Sequence[int],
    ) -> tuple[HandState, list[Event]]:
        return holdem_hand.start_hand(
            small_blind=settings["small_blind"],
            big_blind=settings["big_blind"],
            players=players,
            button=dealer,
            deck=deck,
        )

    def legal_actions(self, state: HandState, player: str | None = None) -> list[LegalAction]:
        return holdem_hand.legal_actions(state, player)

    def check(self, state: HandState, action: Action) -> None:
        holdem_hand.check(state, action)

    def apply(self, state: HandState, action: Action) -> tuple[HandState, list[Event]]:
        return holdem_hand.apply(state, action)

    def to_act(self, state: HandState) -> str | None:
        return state.names[state.to_act] if state.to_act >= 0 else None

    def is_finished(self, state: HandState) -> bool:
        return state.street == FINISHED

    def result(self, state: HandState) -> HandResult:
        """The stacks and pots of a finished hand; before the end, the chips each player has
        behind (not counting what is in the pot) and no pots."""
        if state.result is None:
            return HandResult(stacks=dict(zip(state.names, state.stacks, strict=True)), pots=())
        return state.result

    def view(self, state: HandState, viewer: str | None) -> HoldemView:
        names = state.names
        viewer_seat = state.seat_of.get(viewer) if viewer is not None else None
        players: list[HoldemPlayer] = []
        for seat, name in enumerate(names):
            visible = seat == viewer_seat or seat in state.revealed
            players.append(
                {
                    "name": name,
                    "stack": state.stacks[seat],
                    "bet": state.bets[seat],
                    "in_hand": state.committed[seat],
                    "folded": state.folded[seat],
                    "all_in": state.stacks[seat] == 0 and not state.folded[seat],
                    "is_button": seat == state.button,
                    "cards": [card_text(c) for c in state.hole[seat]] if visible else None,
                }
            )
        collected = [put - bet for put, bet in zip(state.committed, state.bets, strict=True)]
        pots: list[PotView] = [
            {"amount": amount, "eligible": [names[seat] for seat in eligible]}
            for amount, eligible in pots_of(collected, state.folded)
            if amount
        ]
        if state.current_bet:
            min_raise_to = state.current_bet + state.min_raise
        else:
            min_raise_to = state.big_blind
        to_act = self.to_act(state)
        legal = self.legal_actions(state, viewer) if viewer is not None and viewer == to_act else []
        result: HoldemResult | None = None
        if state.result is not None:
            awards = state.awards or {"payouts": {}, "best": {}}
            result = {
                "stacks": dict(state.result.stacks),
                "pots": [pot.to_json() for pot in state.result.pots],
                "payouts": dict(awards["payouts"]),
                "best_cards": {name: list(best["cards"]) for name, best in awards["best"].items()},
                "hands": {name: {"category": best["category"]} for name, best in awards["best"].items()},
            }
            in_the_middle = sum(pot.amount for pot in state.result.pots)
        else:
            in_the_middle = sum(state.committed)
        return {
            "game": "holdem",
            "street": STREET_NAMES[state.street],
            "button": names[state.button],
            "small_blind": state.small_blind,
            "big_blind": state.big_blind,
            "players": players,
            "board": [card_text(c) for c in state.board],
            "pot": in_the_middle,
            "pots": [] if state.result is not None else pots,
            "current_bet": state.current_bet,
            "min_raise_to": min_raise_to,
            "to_act": to_act,
            "legal": [_legal_entry(action, state.big_blind) for action in legal],
            "result": result,
        }


def _legal_entry(action: LegalAction, big_blind: int) -> LegalEntry:
    """A legal action as the view gives it: with its cost now, and for a bet or raise the
    amount box's cost per chip above ``min``, step (a big blind) and starting amount."""
    entry = legal_entry(action)
    if action.verb in ("bet", "raise") and action.min is not None:
        entry["per_chip"], entry["step"], entry["start"] = 1, big_blind, action.min
    return entry


HOLDEM = HoldemRules()
