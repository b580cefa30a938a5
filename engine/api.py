"""The one small API every game's rules share.

A game is a module-like object found by :func:`engine.games.get_game`. Its state is
a value: ``apply`` never changes the state it is given, it returns a new one with
the events the action caused. Everything a caller needs is here:

- :class:`Action`: what a player asks to do (``verb`` from the spec's verb tables).
- :class:`LegalAction`: a verb allowed now, with the least and most amount it takes.
- :class:`Event`: what happened, with ``visible_to`` saying who may see it.
- :class:`RuleError`: every refusal, with a stable ``code`` and a readable message.
- :class:`TableRules`: what differs between the games at a table (seating, buy-backs,
  how the game ends, what the page shows), as data on the game: no caller branches on
  the game's name.
- :class:`Game`: the protocol each game implements, generic in its hand's state.
- :func:`is_whole_number`: the one check that a number from JSON is an ``int`` and not ``true``.

Players are named by strings (seat names) that are unique within a hand.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol, TypeGuard, TypeVar

from engine.view_types import HandView, LegalEntry, PotResultView


def is_whole_number(value: object) -> TypeGuard[int]:
    """An ``int`` that is not a ``bool``: JSON's ``true`` is not a number of chips or a seat."""
    return isinstance(value, int) and not isinstance(value, bool)


class RuleError(ValueError):
    """An action the rules do not allow. ``code`` is stable; ``message`` is for people."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message

    def to_json(self) -> dict[str, str]:
        return {"code": self.code, "message": self.message}


class FieldError(ValueError):
    """Something given that is wrong in one place: ``field`` says where, ``message`` what."""

    def __init__(self, field: str, message: str) -> None:
        super().__init__(f"{field}: {message}")
        self.field = field
        self.message = message


class SettingsError(FieldError):
    """A game setting outside what the rule books allow. ``field`` names the setting."""


@dataclass(frozen=True, slots=True)
class Action:
    """A player's request: ``Action("Asha", "raise", 20)``."""

    player: str
    verb: str
    amount: int | None = None


@dataclass(frozen=True, slots=True)
class LegalAction:
    """A verb the player may use now. ``min``/``max`` bound its amount where it takes one;
    ``cost`` is what it would put in the pot now (for a raise: at ``min``)."""

    verb: str
    min: int | None = None
    max: int | None = None
    cost: int | None = None

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"verb": self.verb}
        if self.min is not None:
            out["min"] = self.min
        if self.max is not None:
            out["max"] = self.max
        return out


def legal_entry(action: LegalAction) -> LegalEntry:
    """``action`` as a view lists it: its verb, bounds and cost now (each game adds what its
    page needs: the raise box's step, a sideshow's partner)."""
    entry: LegalEntry = {"verb": action.verb, "cost": action.cost}
    if action.min is not None:
        entry["min"] = action.min
    if action.max is not None:
        entry["max"] = action.max
    return entry


@dataclass(frozen=True, slots=True)
class Event:
    """Something that happened in a hand.

    ``visible_to`` is ``None`` when everyone at the table (players and spectators)
    may see it, else the set of player names that may. A viewer who may not see an
    event still learns that it happened (its sequence number), never its data.
    """

    kind: str
    data: Mapping[str, Any] = field(default_factory=dict)
    visible_to: frozenset[str] | None = None

    def visible(self, viewer: str | None) -> bool:
        return self.visible_to is None or (viewer is not None and viewer in self.visible_to)

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"kind": self.kind, **self.data}
        if self.visible_to is not None:
            out["visible_to"] = sorted(self.visible_to)
        return out


@dataclass(frozen=True, slots=True)
class PotResult:
    amount: int
    eligible: tuple[str, ...]
    winners: tuple[str, ...]

    def to_json(self) -> PotResultView:
        return {"amount": self.amount, "eligible": list(self.eligible), "winners": list(self.winners)}


@dataclass(frozen=True, slots=True)
class HandResult:
    """Every player's chips after the pots are paid, and the pots."""

    stacks: Mapping[str, int]
    pots: tuple[PotResult, ...]


@dataclass(frozen=True, slots=True)
class TablePosition:
    """What the hands before leave for the next one's plan (kept by the table)."""

    dealer: str | None = None  # the dealer (hold'em: the button) of the last hand
    big_blind: str | None = None  # hold'em: who posted the big blind in the last hand
    hands_played: int = 0

    def next_dealer(self, names: Sequence[str], dealt_in: Sequence[int]) -> int:
        """Who deals the next hand, as an index into ``dealt_in``: the seats (indices into
        ``names``, every seat at the table in order) of the players dealt in, in seat order.
        The deal moves to the first of them after this position's dealer, going round the
        table; the first of them deals when there was no dealer or the dealer has left."""
        if self.dealer is None or self.dealer not in names:
            return 0
        last = names.index(self.dealer)
        count = len(names)
        for step in range(1, count + 1):
            seat = (last + step) % count
            if seat in dealt_in:
                return dealt_in.index(seat)
        return 0


@dataclass(frozen=True, slots=True)
class HandPlan:
    """Who is dealt in, who deals, and the settings of the next hand (hold'em: its blind level)."""

    players: tuple[tuple[str, int], ...]
    dealer: int
    settings: Mapping[str, Any]
    position: TablePosition  # what to keep for the hand after this one


@dataclass(frozen=True, slots=True)
class TableRules:
    """What differs between the games around the hands: who may sit when, buy-backs, how a
    game ends, and the words and parts the page shows. Each game has one (``Game.table_rules``);
    services and the page read these instead of asking which game it is.

    Rule book 000 (Teen Patti): players come and go between hands and buy back within the
    host's limit; one may play blind and look later (a seen player pays double); a game
    waits for players rather than ending. Rule book 001 (hold'em): everyone starts with the
    same stack of play chips, seats are taken before the game starts, there are no rebuys,
    the settings are fixed from the first deal, and the game ends when one player has every
    chip or its length (if any) is reached.
    """

    # --- at the table (services) ---
    seating_after_start: bool  # seats may be taken once the game has started
    rebuys_allowed: bool  # a seated player may buy another stack between hands
    settings_fixed_after_start: bool  # the host may change settings only before the first deal
    ends_when_one_left: bool  # too few players with chips ends the game (else it waits)
    game_length_allowed: bool  # the host may end the game after a number of hands
    fixed_buy_in: int | None  # every stack starts at this many chips (None: the host sets it)
    play_chips_only: bool  # chips have no price
    min_stack_setting: str | None  # the engine setting naming the fewest chips to be dealt in (None: 1)
    places_players: bool  # the game ends with every player placed (book 001: by chips, then the order out)
    # --- in a hand (the page) ---
    has_blind_and_seen: bool  # players play blind or seen and look with ``see``; seen pays double
    hole_cards: int  # cards dealt to each player
    has_board: bool  # community cards are dealt face up
    forced_bets: str  # "boot" (everyone antes) or "blinds" (small and big blind)
    dealer_is_button: bool  # the dealer is called the button
    fold_verb: str  # the verb that gives up the hand: "pack" or "fold"
    bets_per: str  # a player's bet shown is for the whole "hand", or for the betting "round"
    raise_step_setting: str  # the view's field whose value is one step of a raise ("boot", "big_blind")
    raise_from_double_stake: bool  # a raise box starts at twice the stake (Teen Patti's usual raise)
    action_verbs: tuple[str, ...]  # every verb of the game, in the order the page lays out its buttons
    # --- variants (Teen Patti's Muflis, AK47, Joker, Four-card: docs/rules.md) ---
    variant_setting: str | None = None  # the engine setting naming the variant, if the game has variants
    variant_hole_cards: Mapping[str, int] = field(default_factory=dict)  # variants dealing another count
    variants_turning_a_card: tuple[str, ...] = ()  # variants that turn a card face up for all after the deal
    # --- downloads ---
    poker_hand_histories: bool = False  # hands are written as PHH and PokerStars-style text too

    def variant(self, engine_settings: Mapping[str, Any]) -> str | None:
        """The variant these settings play (``None``: the game has no variants or plays none)."""
        if self.variant_setting is None:
            return None
        value = engine_settings.get(self.variant_setting)
        return None if value in (None, "none") else str(value)

    def hole_cards_for(self, engine_settings: Mapping[str, Any]) -> int:
        """The cards each player is dealt with these settings (Four-card: four)."""
        variant = self.variant(engine_settings)
        return self.variant_hole_cards.get(variant, self.hole_cards) if variant else self.hole_cards

    def turns_a_card(self, engine_settings: Mapping[str, Any]) -> bool:
        """Whether a card is turned face up for everyone after the deal (the Joker variant)."""
        return self.variant(engine_settings) in self.variants_turning_a_card

    def min_stack_to_play(self, engine_settings: Mapping[str, Any]) -> int:
        """The fewest chips a player needs to be dealt in (Teen Patti: the boot; hold'em: 1)."""
        if self.min_stack_setting is None:
            return 1
        return int(engine_settings.get(self.min_stack_setting, 1))

    def to_json(self, engine_settings: Mapping[str, Any]) -> dict[str, Any]:
        """The rules as the page reads them (``table.rules`` in a snapshot), with the
        minimum stack worked out for the table's settings."""
        return {
            "seating_after_start": self.seating_after_start,
            "rebuys_allowed": self.rebuys_allowed,
            "settings_fixed_after_start": self.settings_fixed_after_start,
            "ends_when_one_left": self.ends_when_one_left,
            "game_length_allowed": self.game_length_allowed,
            "fixed_buy_in": self.fixed_buy_in,
            "play_chips_only": self.play_chips_only,
            "min_stack_to_play": self.min_stack_to_play(engine_settings),
            "places_players": self.places_players,
            "has_blind_and_seen": self.has_blind_and_seen,
            "hole_cards": self.hole_cards_for(engine_settings),
            "variant": self.variant(engine_settings),
            "turns_a_card": self.turns_a_card(engine_settings),
            "has_board": self.has_board,
            "forced_bets": self.forced_bets,
            "dealer_is_button": self.dealer_is_button,
            "fold_verb": self.fold_verb,
            "bets_per": self.bets_per,
            "raise_step_setting": self.raise_step_setting,
            "raise_from_double_stake": self.raise_from_double_stake,
            "action_verbs": list(self.action_verbs),
        }


State = TypeVar("State")


class Game(Protocol[State]):
    """What every game's rules provide (Teen Patti presets and hold'em alike).

    ``State`` is the type of the game's hand (``engine.teenpatti.HandState``,
    ``engine.holdem.state.HandState``): only the game that made a state reads it. Code that
    finds the game by name at run time (:func:`engine.games.get_game`) holds a
    ``Game[Any]``, since which state comes back is decided by the name.
    """

    name: str
    min_players: int
    max_players: int
    table_rules: TableRules

    def settings(self, overrides: Mapping[str, Any] | None = None) -> Mapping[str, Any]:
        """The preset's defaults with ``overrides`` applied; raises :class:`SettingsError`."""

    def plan_hand(
        self, *, settings: Mapping[str, Any], seats: Sequence[tuple[str, int]], previous: TablePosition
    ) -> HandPlan | None:
        """The next hand at a table: ``seats`` are the players taking part, in seat order, with
        their stacks. Players who cannot be dealt in (Teen Patti: fewer chips than the boot;
        hold'em: no chips) are left out; ``None`` when too few remain to play."""

    def deck_for_scenario(
        self,
        *,
        players: Sequence[str],
        dealer: int,
        hands: Mapping[str, Sequence[int]],
        board: Sequence[int] | None,
    ) -> list[int]:
        """A 52-card deck (top first) that deals exactly these ``hands`` (and hold'em ``board``),
        dealing as the rule book says; for the replay format's ``hands`` field."""

    def start_hand(
        self,
        *,
        settings: Mapping[str, Any],
        players: Sequence[tuple[str, int]],
        dealer: int,
        deck: Sequence[int],
    ) -> tuple[State, list[Event]]:
        """Deal a hand: ``players`` in seat order with their stacks, ``dealer`` an index
        into it, ``deck`` 52 cards top first. Returns the state and the opening events
        (boot or blinds, the deal). A player's cards reach that player only, and only
        when the rules let them look: hold'em hole cards at the deal; Teen Patti cards
        when the player sees (a ``cards`` event), so a look is always recorded."""

    def legal_actions(self, state: State, player: str | None = None) -> list[LegalAction]:
        """The verbs ``player`` (default: the one to act) may use now."""

    def check(self, state: State, action: Action) -> None:
        """Raise :class:`RuleError` if the rules do not allow ``action`` now."""

    def apply(self, state: State, action: Action) -> tuple[State, list[Event]]:
        """Check, then return the new state and the events. The old state is unchanged."""

    def to_act(self, state: State) -> str | None:
        """Whose turn it is, or ``None`` when the hand is over."""

    def is_finished(self, state: State) -> bool: ...

    def result(self, state: State) -> HandResult:
        """Stacks and pots of a finished hand."""

    def view(self, state: State, viewer: str | None) -> HandView:
        """A JSON-ready picture of the hand as ``viewer`` may see it (``None``: a spectator)."""
