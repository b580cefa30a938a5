"""``python -m engine replay FILE``: play one written-down hand back through the engine.

The format and the output are fixed by ``shared/spec/hand-scenario.md``; this module only
reads the file, drives a game's rules through the :class:`engine.api.Game` protocol (found
by :func:`engine.games.get_game`, so every game works the same way) and writes one JSON
object to standard output:

- a replay that ran: ``{"ok": true, "finished", "stacks", "pots", "to_act", "legal", "events"}``,
  exit status 0 (``events`` is each :class:`engine.api.Event`'s ``to_json()``, in order);
- a refused action: ``{"ok": false, "error": {"index", "code", "message"}, "stacks", "to_act",
  "legal", "events"}`` as things stood before it, exit status 1;
- a file that is not a valid scenario: ``{"ok": false, "error": {"code": "invalid_scenario",
  "field", "message"}}`` (the field as a path such as ``players[1].stack`` or
  ``hands.Asha[2]``), also written to standard error, exit status 2.

Fields other than the spec's are ignored, so a scenario may carry notes or expectations.
One optional field is the project's own (the spec allows optional fields): ``joker``, the
card a Teen Patti Joker-variant hand turns face up after the deal, for files that give
``hands``; without it the turned card is the next card of the deck built from the hands.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TextIO

from engine.api import Action, Event, FieldError, Game, RuleError, SettingsError, State, is_whole_number
from engine.cards import DECK_SIZE, CardError, parse_card
from engine.games import GAME_NAMES, get_game

USAGE = "usage: python -m engine replay FILE   (FILE may be - for standard input)"

EXIT_RAN, EXIT_REFUSED, EXIT_INVALID = 0, 1, 2


class ScenarioError(FieldError):
    """A scenario file that does not follow the format; ``field`` says where."""


@dataclass(frozen=True, slots=True)
class Scenario:
    """A scenario, read and checked: everything the engine needs to deal and play."""

    game: Game[Any]
    settings: Mapping[str, Any]
    players: tuple[tuple[str, int], ...]
    dealer: int
    deck: tuple[int, ...]
    actions: tuple[Action, ...]


def _card(value: object, field: str) -> int:
    try:
        return parse_card(value)
    except CardError as error:
        raise ScenarioError(field, str(error)) from None


def _cards(value: object, field: str) -> list[int]:
    if not isinstance(value, list):
        raise ScenarioError(field, 'must be a list of cards such as ["As", "Kd", "2c"].')
    return [_card(card, f"{field}[{position}]") for position, card in enumerate(value)]


def _read_players(data: Mapping[str, object]) -> tuple[tuple[str, int], ...]:
    raw = data.get("players")
    if not isinstance(raw, list) or not raw:
        raise ScenarioError("players", 'must be a list of {"name": ..., "stack": ...} in seat order.')
    players: list[tuple[str, int]] = []
    for position, entry in enumerate(raw):
        where = f"players[{position}]"
        if not isinstance(entry, dict):
            raise ScenarioError(where, "must be an object with a name and a stack.")
        name, stack = entry.get("name"), entry.get("stack")
        if not isinstance(name, str) or not name.strip():
            raise ScenarioError(f"{where}.name", "must be a non-empty text.")
        if any(name == other for other, _ in players):
            raise ScenarioError(f"{where}.name", f"{name!r} appears twice; names must be unique.")
        if not is_whole_number(stack) or stack < 0:
            raise ScenarioError(f"{where}.stack", f"must be a whole number of chips, 0 or more, not {stack!r}.")
        players.append((name, stack))
    return tuple(players)


def _read_actions(data: Mapping[str, object]) -> tuple[Action, ...]:
    raw = data.get("actions", [])
    if not isinstance(raw, list):
        raise ScenarioError("actions", "must be a list of [player, verb] or [player, verb, amount].")
    actions = []
    for position, entry in enumerate(raw):
        where = f"actions[{position}]"
        if not isinstance(entry, list) or len(entry) not in (2, 3):
            raise ScenarioError(where, "must be [player, verb] or [player, verb, amount].")
        if not isinstance(entry[0], str):
            raise ScenarioError(f"{where}[0]", "the player must be a name (text).")
        if not isinstance(entry[1], str):
            raise ScenarioError(f"{where}[1]", 'the verb must be text, such as "chaal".')
        amount = entry[2] if len(entry) == 3 else None
        if amount is not None and not is_whole_number(amount):
            raise ScenarioError(f"{where}[2]", f"the amount must be a whole number of chips, not {amount!r}.")
        actions.append(Action(entry[0], entry[1], amount))
    return tuple(actions)


def parse_scenario(data: object) -> Scenario:
    """Check a scenario's shape and deal its deck; :class:`ScenarioError` names the bad field."""
    if not isinstance(data, dict):
        raise ScenarioError("file", "must hold one JSON object, the scenario.")
    name = data.get("game")
    if name not in GAME_NAMES:
        raise ScenarioError("game", f"must be one of {', '.join(GAME_NAMES)}, not {name!r}.")
    try:
        game = get_game(name)
    except ImportError:
        raise ScenarioError("game", f"the rules of {name} are not installed in this copy.") from None
    overrides = data.get("settings", {})
    if overrides is None:
        overrides = {}
    if not isinstance(overrides, dict):
        raise ScenarioError("settings", "must be an object of setting names and values.")
    try:
        settings = game.settings(overrides)
    except SettingsError as error:
        raise ScenarioError(f"settings.{error.field}", error.message) from None
    players = _read_players(data)
    if not game.min_players <= len(players) <= game.max_players:
        raise ScenarioError(
            "players", f"{name} is played by {game.min_players} to {game.max_players} players, not {len(players)}."
        )
    dealer = data.get("dealer")
    if not is_whole_number(dealer) or not 0 <= dealer < len(players):
        raise ScenarioError("dealer", f"must be a player's index, 0 to {len(players) - 1}, not {dealer!r}.")
    has_hands, has_deck = data.get("hands") is not None, data.get("deck") is not None
    if has_hands == has_deck:
        raise ScenarioError("hands", 'give either each player\'s cards in "hands" or a 52-card "deck", not both.')
    if has_deck:
        deck = _cards(data["deck"], "deck")
        if len(deck) != DECK_SIZE or len(set(deck)) != DECK_SIZE:
            raise ScenarioError("deck", "must hold each of the 52 cards exactly once, top first.")
    else:
        raw_hands = data["hands"]
        if not isinstance(raw_hands, dict):
            raise ScenarioError("hands", "must be an object from each player's name to their cards.")
        hands = {str(player): _cards(cards, f"hands.{player}") for player, cards in raw_hands.items()}
        board = None if data.get("board") is None else _cards(data["board"], "board")
        try:
            deck = game.deck_for_scenario(
                players=[player for player, _stack in players], dealer=dealer, hands=hands, board=board
            )
        except SettingsError as error:
            raise ScenarioError(error.field, error.message) from None
        each = game.table_rules.hole_cards_for(settings)
        for player, cards in hands.items():
            if len(cards) != each:
                raise ScenarioError(f"hands.{player}", f"must be {each} cards with these settings, not {len(cards)}.")
        if data.get("joker") is not None:
            deck = _turn_up(deck, _card(data["joker"], "joker"), each * len(players))
    if data.get("joker") is not None and not game.table_rules.turns_a_card(settings):
        raise ScenarioError("joker", "only a Joker-variant hand turns a card face up (settings.variant: joker).")
    if data.get("joker") is not None and has_deck:
        raise ScenarioError(
            "joker", "with a deck the turned card is the deck's next card after the deal; leave joker out."
        )
    return Scenario(game, settings, players, dealer, tuple(deck), _read_actions(data))


def _turn_up(deck: list[int], card: int, position: int) -> list[int]:
    """The deck with ``card`` at ``position``, the place of the card turned after the deal."""
    where = deck.index(card)
    if where < position:
        raise ScenarioError("joker", "is a card dealt to a player; the turned card is dealt to nobody.")
    deck = list(deck)
    deck[where], deck[position] = deck[position], deck[where]
    return deck


def _stacks_now(game: Game[State], state: State) -> dict[str, int]:
    return {name: int(stack) for name, stack in game.result(state).stacks.items()}


def _legal_now(game: Game[State], state: State) -> list[dict[str, Any]]:
    if game.is_finished(state):
        return []
    return [action.to_json() for action in game.legal_actions(state)]


def run_scenario(data: object) -> tuple[int, dict[str, Any]]:
    """Play a scenario (already read from JSON): the exit status and the output object."""
    try:
        scenario = parse_scenario(data)
        game = scenario.game
        state, events = game.start_hand(
            settings=scenario.settings, players=scenario.players, dealer=scenario.dealer, deck=scenario.deck
        )
    except (ScenarioError, SettingsError) as error:  # both name the field they point at
        return EXIT_INVALID, _invalid(error.field, error.message)
    log: list[Event] = list(events)
    for index, action in enumerate(scenario.actions):
        try:
            state, events = game.apply(state, action)
        except RuleError as error:
            return EXIT_REFUSED, {
                "ok": False,
                "error": {"index": index, "code": error.code, "message": error.message},
                "stacks": _stacks_now(game, state),
                "to_act": game.to_act(state),
                "legal": _legal_now(game, state),
                "events": [event.to_json() for event in log],
            }
        log.extend(events)
    finished = game.is_finished(state)
    return EXIT_RAN, {
        "ok": True,
        "finished": finished,
        "stacks": _stacks_now(game, state),
        "pots": [pot.to_json() for pot in game.result(state).pots] if finished else [],
        "to_act": game.to_act(state),
        "legal": _legal_now(game, state),
        "events": [event.to_json() for event in log],
    }


def _invalid(field: str, message: str) -> dict[str, Any]:
    return {"ok": False, "error": {"code": "invalid_scenario", "field": field, "message": f"{field}: {message}"}}


def main(
    argv: Sequence[str], *, stdin: TextIO | None = None, stdout: TextIO | None = None, stderr: TextIO | None = None
) -> int:
    """The command: ``argv`` is ``[FILE]``; returns the exit status."""
    stdin = stdin or sys.stdin
    stdout = stdout or sys.stdout
    stderr = stderr or sys.stderr
    if len(argv) != 1:
        print(USAGE, file=stderr)
        return EXIT_INVALID
    path = argv[0]
    try:
        text = stdin.read() if path == "-" else Path(path).read_text(encoding="utf-8")
    except OSError as error:
        status, output = EXIT_INVALID, _invalid("file", f"cannot be read: {error.strerror or error}.")
    else:
        try:
            data = json.loads(text)
        except json.JSONDecodeError as error:
            status, output = EXIT_INVALID, _invalid("file", f"is not JSON: {error.msg} (line {error.lineno}).")
        else:
            status, output = run_scenario(data)
    if status == EXIT_INVALID:
        print(f"replay: {output['error']['message']}", file=stderr)
    stdout.write(json.dumps(output, indent=2, ensure_ascii=False) + "\n")
    return status
