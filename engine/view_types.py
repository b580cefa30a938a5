"""The shapes of what ``Game.view`` returns: a hand as one viewer may see it.

Plain ``TypedDict``s (JSON as it goes to the page, unchanged), so a reader of a view and
mypy know every key. A Teen Patti game (Faras, Classic, 999) gives a
:class:`TeenPattiView`, hold'em a :class:`HoldemView`; ``game`` tells them apart.
"""

from __future__ import annotations

from typing import Any, Literal, NotRequired, TypedDict


class LegalEntry(TypedDict):
    """A legal action as a view gives it (``LegalAction.to_json`` and what the page needs
    to show its cost without knowing the rules)."""

    verb: str
    min: NotRequired[int]
    max: NotRequired[int]
    cost: int | None
    per_chip: NotRequired[int]  # a raise or bet: what each chip above ``min`` costs
    step: NotRequired[int]  # ... the amount box's step
    start: NotRequired[int]  # ... and the amount it starts at
    partner: NotRequired[str]  # a sideshow: whom it would ask


class PotView(TypedDict):
    amount: int
    eligible: list[str]


class PotResultView(TypedDict):
    amount: int
    eligible: list[str]
    winners: list[str]


class HandLabel(TypedDict):
    """What a revealed Teen Patti hand is: ``{"category": "pair"}``; in 999 the number too."""

    category: str
    value: NotRequired[int]
    cards: NotRequired[list[str]]  # under a variant: the three cards the hand plays as
    jokers: NotRequired[int]  # ... and how many jokers made it


class TeenPattiPlayer(TypedDict):
    name: str
    stack: int
    bet: int
    seen: bool
    packed: bool
    blind_turns_used: int
    blind_turns_left: int | None
    dealer: bool
    to_act: bool
    cards: list[str] | None  # ``None``: not the viewer's to see
    hand: HandLabel | None


class TeenPattiResult(TypedDict):
    reason: str
    winners: list[str]
    payouts: dict[str, int]
    pots: list[PotResultView]
    stacks: dict[str, int]


class SideshowView(TypedDict):
    asker: str
    partner: str


class TeenPattiView(TypedDict):
    game: str  # faras, classic or 999
    settings: dict[str, Any]
    viewer: str | None
    dealer: str
    to_act: str | None
    pot: int
    stake: int
    boot: int
    variant: str  # "none", "muflis", "ak47", "joker" or "four_card"
    cards_each: int
    joker: str | None  # the Joker variant's card turned up for all
    joker_ranks: list[str]  # the ranks that are jokers in this hand
    players: list[TeenPattiPlayer]
    your_cards: list[str] | None
    legal: list[LegalEntry]
    must_see: bool
    sideshow: SideshowView | None
    finished: bool
    result: TeenPattiResult | None


class HoldemPlayer(TypedDict):
    name: str
    stack: int
    bet: int
    in_hand: int
    folded: bool
    all_in: bool
    is_button: bool
    cards: list[str] | None  # ``None``: not the viewer's to see


class HoldemHandCategory(TypedDict):
    category: str


class HoldemResult(TypedDict):
    stacks: dict[str, int]
    pots: list[PotResultView]
    payouts: dict[str, int]
    best_cards: dict[str, list[str]]
    hands: dict[str, HoldemHandCategory]


class HoldemView(TypedDict):
    game: Literal["holdem"]
    street: str
    button: str
    small_blind: int
    big_blind: int
    players: list[HoldemPlayer]
    board: list[str]
    pot: int
    pots: list[PotView]
    current_bet: int
    min_raise_to: int
    to_act: str | None
    legal: list[LegalEntry]
    result: HoldemResult | None


#: What any game's ``view`` returns.
HandView = TeenPattiView | HoldemView
