"""The checks of a game's deals (1 to 4 in :mod:`engine.verify`): the commitment, the
order of the hands, each hand against its own log's record of the deal, and each deck
against the one the construction derives (:mod:`engine.fairness`)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from engine.cards import card_text
from engine.export import GameRecord, HandRecord
from engine.fairness import commitment, hand_deck
from engine.verify.finding import Finding, event_data


def check_commitment(record: GameRecord) -> list[Finding]:
    """The secret seed hashes to the commitment, and every hand shows the same commitment."""
    findings: list[Finding] = []
    if record.secret_seed is None:
        findings.append(
            Finding(None, "unverifiable", "the secret seed is not in the file: it is revealed when the game ends.")
        )
    else:
        digest = commitment(record.secret_seed)
        if digest != record.commitment:
            findings.append(
                Finding(
                    None,
                    "commitment",
                    f"sha256(secret_seed) is {digest}, but the game committed to {record.commitment}.",
                )
            )
    for hand in record.hands:
        if hand.commitment != record.commitment:
            findings.append(
                Finding(
                    hand.hand_number,
                    "commitment",
                    f"the hand shows commitment {hand.commitment}, the game {record.commitment}.",
                )
            )
    return findings


def check_order(record: GameRecord) -> list[Finding]:
    """The file holds every hand the game dealt, 1 to ``hands_played``, each once and in order,
    each from this table and game. A file that does not say how many hands were dealt is
    refused: a hand left out could not be noticed."""
    findings: list[Finding] = []
    seen: set[int] = set()
    for hand in record.hands:
        if hand.hand_number in seen:
            findings.append(Finding(hand.hand_number, "order", "this hand number appears more than once."))
        seen.add(hand.hand_number)
        if hand.table != record.table:
            findings.append(
                Finding(hand.hand_number, "order", f"the hand is from table {hand.table!r}, the game {record.table!r}.")
            )
        if hand.game != record.game:
            findings.append(
                Finding(hand.hand_number, "order", f"the hand is a {hand.game!r} hand in a {record.game!r} game.")
            )
    dealt = record.hands_played
    if dealt is None:
        findings.append(
            Finding(
                None,
                "unverifiable",
                "the file does not say how many hands the game dealt (hands_played), "
                "so a hand left out could not be noticed.",
            )
        )
        return findings
    missing = [number for number in range(1, dealt + 1) if number not in seen]
    if missing:
        findings.append(
            Finding(
                None,
                "order",
                f"the game dealt {dealt} hand(s), but the file leaves out hand(s) {_numbers(missing)}.",
            )
        )
    for number in sorted(number for number in seen if number > dealt):
        findings.append(Finding(number, "order", f"the game dealt only {dealt} hand(s), so there is no hand {number}."))
    numbers = [hand.hand_number for hand in record.hands]
    if numbers != sorted(numbers):
        findings.append(Finding(None, "order", "the hands are not in the order they were dealt."))
    return findings


def _numbers(numbers: Sequence[int]) -> str:
    return ", ".join(str(number) for number in numbers)


# What the site's record of a deal (its ``hand_started`` event) must hold for the checks against
# the hand's own log. The engine's own ``hand_started`` (the players and the deal for the page)
# follows it and holds none of the fields that only the deal record has.
HAND_STARTED_FIELDS = ("number", "table", "seed_commitment", "player_seeds", "dealer_index", "players")
DEAL_RECORD_ONLY = ("number", "table", "seed_commitment", "player_seeds", "dealer_index")


def hand_started(hand: HandRecord) -> Mapping[str, Any] | Finding:
    """The data of the hand's deal record (the site's ``hand_started`` event), or a finding
    saying why the hand cannot be checked against it."""
    started = [
        event_data(event)
        for event in hand.events
        if event.get("kind") == "hand_started" and any(name in event_data(event) for name in DEAL_RECORD_ONLY)
    ]
    if not started:
        return Finding(
            hand.hand_number,
            "unverifiable",
            "the hand carries no hand_started event recording its deal in its event log, so its player "
            "seeds cannot be checked against those recorded at the deal.",
        )
    if len(started) > 1:
        return Finding(hand.hand_number, "log", "the hand's event log records its deal more than once.")
    data = started[0]
    absent = [name for name in HAND_STARTED_FIELDS if name not in data]
    if absent:
        return Finding(
            hand.hand_number,
            "unverifiable",
            f"the hand's hand_started event does not record {', '.join(absent)}.",
        )
    return data


def check_log(record: GameRecord, hand: HandRecord) -> list[Finding]:
    """The hand agrees with what its own event log recorded when it was dealt: the same hand
    number and table, the game's commitment, the same player seeds, players, stacks and dealer."""
    data = hand_started(hand)
    if isinstance(data, Finding):
        return [data]
    number = hand.hand_number
    findings: list[Finding] = []
    if data["seed_commitment"] != record.commitment:
        findings.append(
            Finding(
                number,
                "commitment",
                f"the hand's event log recorded commitment {data['seed_commitment']} at the deal, "
                f"the game shows {record.commitment}.",
            )
        )
    if data["number"] != number or data["table"] != hand.table:
        findings.append(
            Finding(
                number,
                "log",
                f"the hand's event log recorded the deal of hand {data['number']!r} at table {data['table']!r}.",
            )
        )
    logged_seeds = data["player_seeds"]
    if not isinstance(logged_seeds, list) or tuple(logged_seeds) != hand.player_seeds:
        findings.append(
            Finding(
                number,
                "seed",
                f"the hand lists player seeds {list(hand.player_seeds)}, but its event log recorded "
                f"{logged_seeds!r} when it was dealt.",
            )
        )
    players = [[player.get("name"), player.get("stack")] for player in hand.scenario.get("players", [])]
    logged_players = data["players"]
    if not isinstance(logged_players, list) or [list(player) for player in logged_players] != players:
        findings.append(
            Finding(
                number,
                "log",
                f"the hand lists players and stacks {players}, but its event log dealt {logged_players!r}.",
            )
        )
    if data["dealer_index"] != hand.scenario.get("dealer"):
        findings.append(
            Finding(
                number,
                "log",
                f"the hand names dealer {hand.scenario.get('dealer')!r}, but its event log recorded "
                f"{data['dealer_index']!r}.",
            )
        )
    return findings


def check_deal(secret_seed: bytes, hand: HandRecord, *, seeds_checked: bool = False) -> Finding | None:
    """The recorded deck is the one the construction derives for this hand. ``seeds_checked``:
    the player seeds agree with the hand's event log, so a difference is the deck's."""
    derived = hand_deck(secret_seed, hand.table, hand.hand_number, hand.player_seeds)
    if list(hand.deck) == derived:
        return None
    position = next(index for index, (a, b) in enumerate(zip(derived, hand.deck, strict=True)) if a != b)
    if seeds_checked:
        cause = "The player seeds agree with the hand's event log, so the deal itself was changed."
    else:
        cause = "Either the deal or a player seed was changed."
    return Finding(
        hand.hand_number,
        "deal",
        (
            f"the recorded deck is not the one derived from the secret seed, table {hand.table!r}, "
            f"hand number {hand.hand_number} and its {len(hand.player_seeds)} player seed(s): "
            f"first difference at position {position + 1} from the top "
            f"(recorded {card_text(hand.deck[position])}, derived {card_text(derived[position])}). {cause}"
        ),
    )
