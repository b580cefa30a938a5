"""The payload of every kind of event in a table's log, as ``TypedDict``s.

:data:`PAYLOADS` maps each :class:`tables.events.EventKind` to the shape(s) its payload may
take (the stored JSON, private keys included: ``_hand``, ``who``). A payload has all the
required keys of one of its shapes and no key outside it. ``tests/tables/test_payloads.py``
checks every event written in random games of the four games and in the host's and
players' requests against these shapes, key by key and value by value, so a payload that
changes shape without its type here fails the suite.

Most kinds keep one shape; ``hand_started`` has two (the table's record of the deal, and
the engine's own first event of a hand), and a Teen Patti ``show`` has the show asked for
and the show the rules force.
"""

from __future__ import annotations

from typing import Any, NotRequired, TypedDict

from engine.view_types import HandLabel
from tables.events import EventKind
from tables.messages import TurnPublic

# --- written by the table's services ---------------------------------------------------------


class TableCreated(TypedDict):
    code: str
    game: str
    seed_commitment: str
    settings: dict[str, Any]


class SeatJoined(TypedDict):
    seat: int
    name: str
    guest: bool


class SeatTaken(TypedDict):
    seat: int
    name: str
    number: int  # the seat's place at the table
    chips: int
    price: str  # a decimal, as text
    stack: int
    buy_back: bool


class SeatCashedOut(TypedDict):
    """Left, removed by the host, or out of chips: cashed out."""

    seat: int
    cashed_out: int


class SeatOnly(TypedDict):
    seat: int
    by: NotRequired[str]  # sat out by the away rule: "timer" or "host"


class SeatBanned(TypedDict):
    """Banned by the host, or (``seat_moved``) a guest's seat taken to another browser by its link."""

    seat: int
    name: str


class SeatBoughtBack(TypedDict):
    seat: int
    chips: int
    price: str
    stack: int


class RequestMade(TypedDict):
    seat: int | None  # None: someone with only the code asks to be let in
    name: NotRequired[str]
    what: str  # "seat", "buy_back", "join" or "claim"
    number: int | None
    chips: NotRequired[int]
    price: NotRequired[str]
    buy_ins: NotRequired[int]
    who: NotRequired[str]  # private: who asks to be let in (or for a seat, "claim")
    claim: NotRequired[int]  # "This is me": the guest's seat asked for (seat: None)


class RequestEnded(TypedDict):
    """Approved, denied or cancelled (``request``: the seq of the request)."""

    request: int
    seat: int | None
    what: str
    name: NotRequired[str]
    who: NotRequired[str]
    claim: NotRequired[int]  # "This is me": the guest's seat asked for
    by: NotRequired[str]  # cancelled: "player", "asker" (to join or for a seat), or the host's end of the game


class PlayerSeed(TypedDict):
    seat: int
    seed: str
    for_hand: int


class GameStarted(TypedDict):
    seed_commitment: str


class Nothing(TypedDict):
    pass


class GameEnding(TypedDict):
    """The host ended the game during hand ``number``: it ends when that hand ends."""

    number: int


class GameEnded(TypedDict):
    reason: str
    hands_played: int
    final_stacks: dict[str, int]
    seed_commitment: str
    secret_seed: str
    placings: NotRequired[list[dict[str, Any]]]


class SettingsChanged(TypedDict):
    settings: dict[str, Any]
    by: NotRequired[str]  # "admin": changed from the admin


class TableHandStarted(TypedDict):
    """The table's record of a deal: what re-derives its deck (docs/fairness.md)."""

    _hand: int
    number: int
    table: str
    seed_commitment: str
    player_seeds: list[str]
    dealer: str
    dealer_index: int
    players: list[list[Any]]  # [name, stack] pairs
    settings: dict[str, Any]
    variant_called: NotRequired[bool]  # dealer's choice: the variant in settings is the dealer's call


class HandEnded(TypedDict):
    _hand: int
    number: int
    stacks: dict[str, int]
    pots: list[dict[str, Any]]


class HandVoid(TypedDict):
    _hand: int
    number: int


class Turn(TurnPublic):
    """The turn as every page gets it (``TurnPublic``), in the hand, and whether it is a new one."""

    _hand: int
    new: bool


class Reminder(TypedDict):
    _hand: int
    player: str
    deadline: str
    count: int


class ActionRecorded(TypedDict):
    _hand: int
    player: str
    verb: str
    amount: int | None
    by: NotRequired[str]  # who acted for the player (the away rule, the host; "claim": her seat moved mid-hand)
    by_seat: NotRequired[int]  # the host's seat, when the host acted for the player
    total: NotRequired[int]  # hold'em: the bet's total
    all_in: NotRequired[bool]


class Waiting(TypedDict):
    reason: str


class VariantCalled(TypedDict):
    """Dealer's choice: the next hand's dealer called its variant."""

    seat: int
    variant: str
    number: int  # the hand it is for
    by: NotRequired[str]  # "computer": a computer dealing called it, at the deal


# --- the engine's events ------------------------------------------------------------------------


class EnginePlayer(TypedDict):
    name: str
    stack: int


class TeenPattiHandStarted(TypedDict):
    _hand: int
    game: str
    dealer: str
    players: list[EnginePlayer]
    settings: dict[str, Any]


class HoldemHandStarted(TypedDict):
    _hand: int
    players: list[EnginePlayer]
    button: str
    small_blind: int
    big_blind: int
    small_blind_player: str
    big_blind_player: str


class Boot(TypedDict):
    _hand: int
    amount: int
    pot: int
    players: list[str]


class Blind(TypedDict):
    _hand: int
    player: str
    blind: str  # "small" or "big"
    amount: int
    all_in: bool


class Dealt(TypedDict):
    _hand: int
    order: list[str]
    cards_each: int


class HoleCards(TypedDict):
    _hand: int
    player: str
    cards: list[str]


class CardsSeen(TypedDict):
    _hand: int
    player: str
    cards: list[str]
    hand: HandLabel


class PlayerOnly(TypedDict):
    _hand: int
    player: str


class Bet(TypedDict):
    """A Teen Patti chaal or raise."""

    _hand: int
    player: str
    amount: int
    blind: bool
    stake: int
    pot: int
    stack: int


class Pack(TypedDict):
    _hand: int
    player: str
    reason: str


class Sideshow(TypedDict):
    _hand: int
    player: str
    partner: str
    amount: int
    stake: int
    pot: int
    stack: int


class SideshowAnswer(TypedDict):
    _hand: int
    player: str
    asker: str


class SideshowResult(TypedDict):
    _hand: int
    asker: str
    partner: str
    cards: dict[str, list[str]]
    hands: dict[str, HandLabel]
    loser: str


class Show(TypedDict):
    """A show asked for (with its cost) or forced by the rules (``reason``)."""

    _hand: int
    player: str
    against: NotRequired[str]
    amount: NotRequired[int]
    blind: NotRequired[bool]
    stake: NotRequired[int]
    pot: NotRequired[int]
    stack: NotRequired[int]
    cards: NotRequired[list[str]]
    reason: NotRequired[str]


class Showdown(TypedDict):
    _hand: int
    reason: str
    cards: dict[str, list[str]]
    hands: dict[str, Any]
    winners: list[str]


class Board(TypedDict):
    _hand: int
    street: str
    cards: list[str]
    board: list[str]


class Uncalled(TypedDict):
    _hand: int
    player: str
    amount: int


class PotAwarded(TypedDict):
    _hand: int
    pot: int
    amount: int
    eligible: list[str]
    winners: list[str]
    shares: dict[str, int]
    hands: dict[str, Any]


class Joker(TypedDict):
    """The Joker variant's card, turned face up for everyone."""

    _hand: int
    card: str
    rank: str


class HandFinished(TypedDict):
    _hand: int
    stacks: dict[str, int]
    reason: NotRequired[str]
    winners: NotRequired[list[str]]
    payouts: NotRequired[dict[str, int]]
    pots: NotRequired[list[dict[str, Any]]]


# --- a kitchen-table night (kitchen/) ------------------------------------------------------


class KitchenCost(TypedDict):
    what: str
    amount: str  # a decimal, as text
    paid_by: int  # a seat
    payer: str
    shares: dict[str, int]  # seat id -> whole shares
    by: str  # the host's name


class KitchenRecount(TypedDict):
    seat: int
    name: str
    chips: int
    before: int
    reason: str
    by: str


class KitchenSpread(TypedDict):
    how: str  # "stacks" or "even"
    chips: int
    shares: dict[str, int]  # seat id -> chips added to its cash-out
    reason: str
    by: str


class KitchenClock(TypedDict):
    action: str  # "start", "pause", "resume" or "back"
    level: int  # the level (1 = the first of the structure) after the action
    by: str


class KitchenLevel(TypedDict):
    level: int  # its place in the structure, from 1
    at: str  # when it began, ISO 8601 (computed from the clock's stored values)
    minutes: str  # its length in minutes, as text
    brk: bool
    small: NotRequired[int]
    big: NotRequired[int]
    ante: NotRequired[int]


class KitchenOut(TypedDict):
    seats: list[int]
    names: list[str]
    place: int


class KitchenAddOn(TypedDict):
    seat: int
    name: str
    chips: int
    price: str  # a decimal, as text
    by: str


#: Each kind's payload shapes (a payload matches one of them).
PAYLOADS: dict[EventKind, tuple[type, ...]] = {
    EventKind.TABLE_CREATED: (TableCreated,),
    EventKind.SEAT_JOINED: (SeatJoined,),
    EventKind.SEAT_TAKEN: (SeatTaken,),
    EventKind.SEAT_LEFT: (SeatCashedOut,),
    EventKind.SEAT_REMOVED: (SeatCashedOut,),
    EventKind.SEAT_BANNED: (SeatBanned,),
    EventKind.INVITE_ROTATED: (Nothing,),  # never the token
    EventKind.SEAT_MOVED: (SeatBanned,),
    EventKind.SEAT_OUT: (SeatCashedOut,),
    EventKind.SEAT_SAT_OUT: (SeatOnly,),
    EventKind.SEAT_CAME_BACK: (SeatOnly,),
    EventKind.SEAT_BOUGHT_BACK: (SeatBoughtBack,),
    EventKind.REQUEST_MADE: (RequestMade,),
    EventKind.REQUEST_APPROVED: (RequestEnded,),
    EventKind.REQUEST_DENIED: (RequestEnded,),
    EventKind.REQUEST_CANCELLED: (RequestEnded,),
    EventKind.PLAYER_SEED: (PlayerSeed,),
    EventKind.GAME_STARTED: (GameStarted,),
    EventKind.GAME_PAUSED: (Nothing,),
    EventKind.GAME_RESUMED: (Nothing,),
    EventKind.GAME_ENDING: (GameEnding,),
    EventKind.GAME_ENDED: (GameEnded,),
    EventKind.SETTINGS_CHANGED: (SettingsChanged,),
    EventKind.HAND_STARTED: (TableHandStarted, TeenPattiHandStarted, HoldemHandStarted),
    EventKind.HAND_ENDED: (HandEnded,),
    EventKind.HAND_VOID: (HandVoid,),
    EventKind.TURN: (Turn,),
    EventKind.REMINDER: (Reminder,),
    EventKind.ACTION: (ActionRecorded,),
    EventKind.WAITING: (Waiting,),
    EventKind.KITCHEN_COST: (KitchenCost,),
    EventKind.KITCHEN_RECOUNT: (KitchenRecount,),
    EventKind.KITCHEN_SPREAD: (KitchenSpread,),
    EventKind.KITCHEN_CLOCK: (KitchenClock,),
    EventKind.KITCHEN_LEVEL: (KitchenLevel,),
    EventKind.KITCHEN_OUT: (KitchenOut,),
    EventKind.KITCHEN_ADDON: (KitchenAddOn,),
    EventKind.VARIANT_CALLED: (VariantCalled,),
    EventKind.JOKER: (Joker,),
    EventKind.BOOT: (Boot,),
    EventKind.BLIND: (Blind,),
    EventKind.DEALT: (Dealt,),
    EventKind.HOLE_CARDS: (HoleCards,),
    EventKind.CARDS: (CardsSeen,),
    EventKind.SEE: (PlayerOnly,),
    EventKind.CHAAL: (Bet,),
    EventKind.RAISE: (Bet,),
    EventKind.PACK: (Pack,),
    EventKind.SIDESHOW: (Sideshow,),
    EventKind.SIDESHOW_ACCEPTED: (SideshowAnswer,),
    EventKind.SIDESHOW_REFUSED: (SideshowAnswer,),
    EventKind.SIDESHOW_RESULT: (SideshowResult,),
    EventKind.SHOW: (Show,),
    EventKind.SHOWDOWN: (Showdown,),
    EventKind.BOARD: (Board,),
    EventKind.UNCALLED: (Uncalled,),
    EventKind.MUCK: (PlayerOnly,),
    EventKind.POT_AWARDED: (PotAwarded,),
    EventKind.HAND_FINISHED: (HandFinished,),
}
