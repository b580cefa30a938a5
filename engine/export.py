"""The export format of hand histories: build it and read it back (pure, no I/O).

One hand is a replay scenario exactly as ``shared/spec/hand-scenario.md`` describes
(``game``, ``settings``, ``players``, ``dealer``, ``deck`` 52 cards top first,
``actions``), so ``python -m engine replay`` plays it back, plus these fields:

- ``table``: the table's identifier, as it enters the deck derivation;
- ``hand_number``: the hand's number at that table (1 for the first hand);
- ``player_seeds``: the seeds players' browsers added, in the order the event log
  recorded them (they enter the deck derivation of this hand);
- ``commitment``: the SHA-256 (hex) of the game's secret seed, shown before the first deal;
- ``result``: ``{"stacks": {name: chips}, "pots": [{"amount", "eligible", "winners"}]}``
  as the live table recorded it;
- ``events``: the hand's events from the table's log, oldest first;
- optionally ``names``: the players' display names by their name in the hand (the site names
  players by seat id), ``seats``: the number of the seat each player sat in when the hand
  was dealt, and ``result.void``: true for a hand called off when the game ended
  (every bet went back; its deal is still checked, its result is not replayed).

A whole game is::

    {"format": "dashain-game-v1", "table": ..., "game": ..., "commitment": ...,
     "hands_played": N,
     "secret_seed": "<64 hex digits, present once the game has ended>",
     "table_events": [{"seq", "kind", "data"}, ...],   # chips moved between the hands
     "ledger": [{"player", "kind", "chips", "price", "reverses"}, ...],
     "hands": [hand 1, hand 2, ..., hand N]}

``hands_played`` is how many hands the table dealt: the file must hold every one of them,
numbered 1 to N, so that a hand left out is noticed.

:func:`hand_export` and :func:`game_export` build these dictionaries;
:func:`parse_hand` and :func:`parse_game` read them back into typed records and raise
:class:`ExportError` naming the field for anything that is not in the format.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, TypeVar

from engine.api import FieldError, is_whole_number
from engine.cards import DECK_SIZE, Card, CardError, cards_text, parse_cards

GAME_FORMAT = "dashain-game-v1"
SECRET_SEED_BYTES = 32


class ExportError(FieldError):
    """A file that is not in the export format. ``field`` names where it went wrong."""


@dataclass(frozen=True, slots=True)
class HandRecord:
    """One exported hand, read back. ``scenario`` is the replay scenario part, as given."""

    table: str
    hand_number: int
    game: str
    deck: tuple[Card, ...]
    player_seeds: tuple[str, ...]
    commitment: str
    stacks: Mapping[str, int]
    pots: tuple[Mapping[str, Any], ...]
    scenario: Mapping[str, Any]
    events: tuple[Mapping[str, Any], ...] = ()


@dataclass(frozen=True, slots=True)
class GameRecord:
    """One exported game, read back. ``secret_seed`` is ``None`` while the game runs;
    ``hands_played`` is ``None`` for a file that does not say (the verifier refuses it)."""

    table: str
    game: str
    commitment: str
    secret_seed: bytes | None
    hands: tuple[HandRecord, ...] = field(default_factory=tuple)
    hands_played: int | None = None
    # The table's own log between the hands (buy-ins, buy-backs, cash-outs, the game's end),
    # and the ledger: ``None`` for a file without them (the verifier cannot chain the hands).
    table_events: tuple[Mapping[str, Any], ...] | None = None
    ledger: tuple[Mapping[str, Any], ...] | None = None


def hand_export(
    *,
    game: str,
    settings: Mapping[str, Any],
    players: Sequence[tuple[str, int]],
    dealer: int,
    deck: Sequence[Card],
    actions: Sequence[Sequence[Any]],
    table: str,
    hand_number: int,
    player_seeds: Sequence[str],
    commitment: str,
    stacks: Mapping[str, int],
    pots: Sequence[Mapping[str, Any]],
    events: Sequence[Mapping[str, Any]] = (),
) -> dict[str, Any]:
    """One hand in the export format. ``deck`` holds card numbers (engine.cards)."""
    return {
        "game": game,
        "settings": dict(settings),
        "players": [{"name": name, "stack": int(stack)} for name, stack in players],
        "dealer": int(dealer),
        "deck": cards_text(list(deck)),
        "actions": [list(action) for action in actions],
        "table": str(table),
        "hand_number": int(hand_number),
        "player_seeds": [str(seed) for seed in player_seeds],
        "commitment": commitment,
        "result": {
            "stacks": {name: int(chips) for name, chips in stacks.items()},
            "pots": [
                {
                    "amount": int(pot["amount"]),
                    "eligible": list(pot["eligible"]),
                    "winners": list(pot["winners"]),
                }
                for pot in pots
            ],
        },
        "events": [dict(event) for event in events],
    }


def game_export(
    *,
    table: str,
    game: str,
    commitment: str,
    secret_seed: bytes | None,
    hands_played: int,
    hands: Sequence[Mapping[str, Any]],
    table_events: Sequence[Mapping[str, Any]] | None = None,
    ledger: Sequence[Mapping[str, Any]] | None = None,
) -> dict[str, Any]:
    """A whole game. Pass ``secret_seed=None`` until the game has ended: it is then left out.
    ``hands_played`` is the number of hands the table dealt (``hands`` should be all of them).
    ``table_events``: the table's log outside the hands that moves chips (``seat_taken``,
    ``seat_bought_back``, ``seat_left``, ``seat_removed``, ``seat_out``, ``game_ended``), each
    ``{"seq", "kind", "data"}``; ``ledger``: its entries in the order written, each
    ``{"player", "kind", "chips", "price", "reverses"}`` (``reverses``: the index of the entry
    a reversal cancels, else null)."""
    out: dict[str, Any] = {
        "format": GAME_FORMAT,
        "table": str(table),
        "game": game,
        "commitment": commitment,
        "hands_played": int(hands_played),
    }
    if secret_seed is not None:
        out["secret_seed"] = secret_seed.hex()
    if table_events is not None:
        out["table_events"] = [dict(event) for event in table_events]
    if ledger is not None:
        out["ledger"] = [dict(entry) for entry in ledger]
    out["hands"] = [dict(hand) for hand in hands]
    return out


def to_text(export: Mapping[str, Any]) -> str:
    """The export as the text of a downloaded file (UTF-8 JSON, indented, ends with a newline)."""
    return json.dumps(export, indent=2, ensure_ascii=False) + "\n"


# --- reading -------------------------------------------------------------------------------


Value = TypeVar("Value")


def _require(data: Mapping[str, object], key: str, kind: type[Value], where: str) -> Value:
    name = f"{where}{key}"
    if key not in data:
        raise ExportError(name, "missing.")
    value = data[key]
    # bool is an int in Python; a hand number of `true` is still not a number.
    if isinstance(value, bool) and kind is not bool:
        raise ExportError(name, f"expected {_kind_name(kind)}, found {value!r}.")
    if not isinstance(value, kind):
        raise ExportError(name, f"expected {_kind_name(kind)}, found {type(value).__name__}.")
    return value


def _kind_name(kind: type) -> str:
    names: dict[type, str] = {str: "text", int: "a whole number", list: "a list", dict: "an object", bool: "true/false"}
    return names.get(kind, kind.__name__)


def _check_hex_digest(value: str, name: str) -> str:
    text = value.strip().lower()
    if len(text) != 64 or any(ch not in "0123456789abcdef" for ch in text):
        raise ExportError(name, "expected 64 hexadecimal digits (a SHA-256).")
    return text


def parse_hand(data: object, *, where: str = "") -> HandRecord:
    """Read one exported hand; ``where`` prefixes field names in errors (e.g. ``hands[2].``)."""
    if not isinstance(data, Mapping):
        raise ExportError(where.rstrip(".") or "hand", "expected an object.")
    game = _require(data, "game", str, where)
    table = _require(data, "table", str, where)
    hand_number = _require(data, "hand_number", int, where)
    if hand_number < 1:
        raise ExportError(f"{where}hand_number", "must be 1 or more.")
    players = _require(data, "players", list, where)
    for index, player in enumerate(players):
        if not isinstance(player, Mapping) or not isinstance(player.get("name"), str):
            raise ExportError(f"{where}players[{index}]", 'expected {"name": ..., "stack": ...}.')
    _require(data, "dealer", int, where)
    _require(data, "actions", list, where)
    deck_text = _require(data, "deck", list, where)
    if len(deck_text) != DECK_SIZE:
        raise ExportError(f"{where}deck", f"expected {DECK_SIZE} cards, found {len(deck_text)}.")
    try:
        deck = parse_cards(deck_text)
    except CardError as error:
        raise ExportError(f"{where}deck", str(error)) from error
    seeds = _require(data, "player_seeds", list, where)
    for index, seed in enumerate(seeds):
        if not isinstance(seed, str):
            raise ExportError(f"{where}player_seeds[{index}]", "expected text.")
    commitment = _check_hex_digest(_require(data, "commitment", str, where), f"{where}commitment")
    result = _require(data, "result", dict, where)
    stacks = _require(result, "stacks", dict, f"{where}result.")
    for name, chips in stacks.items():
        if not is_whole_number(chips):
            raise ExportError(f"{where}result.stacks.{name}", "expected a whole number of chips.")
    pots = _require(result, "pots", list, f"{where}result.")
    for index, pot in enumerate(pots):
        if not isinstance(pot, Mapping) or not {"amount", "eligible", "winners"} <= set(pot):
            raise ExportError(f"{where}result.pots[{index}]", "expected amount, eligible and winners.")
    events = data.get("events", [])
    if not isinstance(events, list):
        raise ExportError(f"{where}events", "expected a list.")
    for index, event in enumerate(events):
        if not isinstance(event, Mapping):
            raise ExportError(f"{where}events[{index}]", "expected an object.")
    return HandRecord(
        table=table,
        hand_number=hand_number,
        game=game,
        deck=tuple(deck),
        player_seeds=tuple(seeds),
        commitment=commitment,
        stacks=dict(stacks),
        pots=tuple(dict(pot) for pot in pots),
        scenario=dict(data),
        events=tuple(events),
    )


def parse_game(data: object) -> GameRecord:
    """Read one exported game; raises :class:`ExportError` naming the field."""
    if not isinstance(data, Mapping):
        raise ExportError("game file", "expected a JSON object.")
    if data.get("format") != GAME_FORMAT:
        raise ExportError("format", f"expected {GAME_FORMAT!r}, found {data.get('format')!r}.")
    table = _require(data, "table", str, "")
    game = _require(data, "game", str, "")
    commitment = _check_hex_digest(_require(data, "commitment", str, ""), "commitment")
    secret_seed: bytes | None = None
    if data.get("secret_seed") is not None:
        text = _require(data, "secret_seed", str, "").strip()
        try:
            secret_seed = bytes.fromhex(text)
        except ValueError as error:
            raise ExportError("secret_seed", "expected hexadecimal digits.") from error
        if len(secret_seed) != SECRET_SEED_BYTES:
            raise ExportError(
                "secret_seed", f"expected {SECRET_SEED_BYTES} bytes ({2 * SECRET_SEED_BYTES} hex digits)."
            )
    hands_played: int | None = None
    if data.get("hands_played") is not None:
        hands_played = _require(data, "hands_played", int, "")
        if hands_played < 0:
            raise ExportError("hands_played", "must be 0 or more.")
    hands_data = _require(data, "hands", list, "")
    hands = tuple(parse_hand(hand, where=f"hands[{index}].") for index, hand in enumerate(hands_data))
    return GameRecord(
        table=table,
        game=game,
        commitment=commitment,
        secret_seed=secret_seed,
        hands=hands,
        hands_played=hands_played,
        table_events=_parse_table_events(data),
        ledger=_parse_ledger(data),
    )


def _objects(data: Mapping[str, object], key: str) -> list[tuple[str, Mapping[str, Any]]] | None:
    """The list of objects under ``key``, each with its place (``key[3].``) for the errors;
    ``None`` when the file leaves it out."""
    if data.get(key) is None:
        return None
    found = []
    for index, item in enumerate(_require(data, key, list, "")):
        where = f"{key}[{index}]."
        if not isinstance(item, Mapping):
            raise ExportError(where.rstrip("."), "expected an object.")
        found.append((where, item))
    return found


def _parse_table_events(data: Mapping[str, object]) -> tuple[Mapping[str, Any], ...] | None:
    events = _objects(data, "table_events")
    if events is None:
        return None
    for where, event in events:
        _require(event, "seq", int, where)
        _require(event, "kind", str, where)
        _require(event, "data", dict, where)
    return tuple(event for _, event in events)


#: A ``prize`` is money won at a hold'em table shared by places: it moves no chip (0 chips).
LEDGER_KINDS = ("buy_in", "buy_back", "cash_out", "reversal", "prize")


def _parse_ledger(data: Mapping[str, object]) -> tuple[Mapping[str, Any], ...] | None:
    entries = _objects(data, "ledger")
    if entries is None:
        return None
    for where, entry in entries:
        _require(entry, "player", str, where)
        if _require(entry, "kind", str, where) not in LEDGER_KINDS:
            raise ExportError(f"{where}kind", f"expected one of {', '.join(LEDGER_KINDS)}.")
        if _require(entry, "chips", int, where) < 0:
            raise ExportError(f"{where}chips", "must be 0 or more.")
        reverses = entry.get("reverses")
        if reverses is not None and (isinstance(reverses, bool) or not isinstance(reverses, int)):
            raise ExportError(f"{where}reverses", "expected the index of an earlier entry, or null.")
    return tuple(entry for _, entry in entries)
