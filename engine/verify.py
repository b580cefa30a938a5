"""``python -m engine verify FILE``: check that every deal of an exported game came from
the seed committed before it began.

The checks, in order (the construction is in :mod:`engine.fairness` and ``docs/fairness.md``):

1. **commitment**: ``sha256(secret_seed)`` equals the game's commitment, and every hand,
   and every hand's ``hand_started`` event, carries that same commitment;
2. **order**: the file holds every hand the game dealt, numbered 1 to ``hands_played``,
   each once, in order, from this table and game;
3. **seed** and **log**: each hand agrees with what its own event log recorded at the deal
   (the ``hand_started`` event): player seeds, hand number, table, players, stacks, dealer;
4. **deal**: each hand's recorded deck equals
   ``hand_deck(secret_seed, table, hand_number, player_seeds)``; with the seeds agreeing with
   the log, a difference means the deck itself was changed;
5. **result** and **log** (unless ``--no-replay``): each hand, played back through the engine
   from its deck and actions, ends with the recorded stacks and pots; its actions are the ones
   its own event log recorded, the replay's events are the engine's events in that log one for
   one, and the result is the one the log's ``hand_ended`` recorded when the hand was paid;
6. **chips** and **ledger**: the hands are one game. Following the table's log (its events
   between the hands are in the file, ``table_events``), each hand deals every player the
   chips they ended the hand before with, plus their buy-ins and less their cash-outs since;
   the game's end cashes out what the last hands left; and the file's ledger records exactly
   those buy-ins and cash-outs, player by player, in order.

A file without what a check needs (no secret seed yet, no ``hands_played``, a hand without
its ``hand_started`` event, no table events or ledger) is refused as **unverifiable**:
nothing is passed unchecked.

It prints one line per hand, saying plainly which hand does not match and why.
Exit status: 0 when everything matches, 1 when something does not or cannot be checked
(for one, a game not ended: its secret seed is not revealed yet), 2 for a file that is not
an export, 3 for a single hand's file.

A single exported hand (no ``format`` field) is never reported as a verified game: its
actions are replayed against its result and log, but its deal can only be checked from the
whole game's export, which holds the seed, and one hand says nothing of the chips around it.
The answer says so and exits with 3 (``EXIT_ONE_HAND``), never 0.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, TextIO

from engine.cards import card_text
from engine.export import ExportError, GameRecord, HandRecord, parse_game, parse_hand
from engine.fairness import commitment, hand_deck

USAGE = "usage: python -m engine verify [--no-replay] FILE   (FILE may be - for standard input)"
#: Exit statuses: verified; a mismatch or something that cannot be checked; not an export;
#: a single hand's file (a replay at most: never a verified game).
EXIT_VERIFIED, EXIT_MISMATCH, EXIT_NOT_EXPORT, EXIT_ONE_HAND = 0, 1, 2, 3


@dataclass(frozen=True, slots=True)
class Finding:
    """One check that failed. ``hand_number`` is ``None`` for the game as a whole; ``check``
    is ``commitment``, ``seed``, ``log``, ``deal``, ``result``, ``order`` or ``unverifiable``
    (the file lacks what a check needs: it is refused, never passed)."""

    hand_number: int | None
    check: str
    message: str

    def line(self) -> str:
        where = "game" if self.hand_number is None else f"hand {self.hand_number}"
        if self.check == "unverifiable":
            return f"{where}: CANNOT VERIFY: {self.message}"
        return f"{where}: MISMATCH ({self.check}): {self.message}"


# --- the checks ----------------------------------------------------------------------------


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


def _event_data(event: Mapping[str, Any]) -> Mapping[str, Any]:
    data = event.get("data")
    return data if isinstance(data, Mapping) else {}


def hand_started(hand: HandRecord) -> Mapping[str, Any] | Finding:
    """The data of the hand's deal record (the site's ``hand_started`` event), or a finding
    saying why the hand cannot be checked against it."""
    started = [
        _event_data(event)
        for event in hand.events
        if event.get("kind") == "hand_started" and any(name in _event_data(event) for name in DEAL_RECORD_ONLY)
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


def check_result(hand: HandRecord) -> Finding | None:
    """Replaying the hand exactly as ``python -m engine replay`` does gives the recorded stacks
    and pots (the first finding of :func:`check_replay`, for callers that want one)."""
    findings = check_replay(hand)
    return findings[0] if findings else None


def check_replay(hand: HandRecord) -> list[Finding]:
    """Replay the hand through the engine from its deck and recorded actions, and hold what it
    gives against everything the file says of the hand:

    - the actions are the ones the hand's own event log recorded (``action`` events with a
      player and a verb, the table's record of each request), in order;
    - the replay's events are, one for one, the engine's events in the hand's log (the
      cards dealt, every bet, the pots awarded): a hand whose actions were rewritten in both
      places still shows the engine's record of what was really played;
    - the replay ends the hand with the recorded ``result`` (stacks and pots), and that result
      is what the log's ``hand_ended`` event recorded when the table paid it out.

    A hand called off when the game ended (``"void": true``: every bet went back) is not
    replayed; its result must give every player their stack at the deal."""
    number = hand.hand_number
    findings: list[Finding] = []
    void = bool(hand.scenario.get("result", {}).get("void"))
    if void:
        start = {str(p.get("name")): p.get("stack") for p in hand.scenario.get("players", [])}
        if dict(hand.stacks) != start or hand.pots:
            findings.append(
                Finding(number, "result", "a hand called off must give every player their stack at the deal.")
            )
        kinds = [event.get("kind") for event in hand.events]
        if "hand_void" not in kinds or "hand_ended" in kinds:
            findings.append(Finding(number, "log", "the hand is marked called off, but its event log does not say so."))
    logged_actions = [
        [data.get("player"), data.get("verb")] + ([data["amount"]] if data.get("amount") is not None else [])
        for data in (_event_data(event) for event in hand.events if _is_recorded_action(event))
    ]
    actions = [list(action) for action in hand.scenario.get("actions", [])]
    if hand.events and actions != logged_actions:
        position = next(
            (i for i, (a, b) in enumerate(zip(actions, logged_actions, strict=False)) if a != b),
            min(len(actions), len(logged_actions)),
        )
        findings.append(
            Finding(
                number,
                "log",
                f"the hand lists {len(actions)} action(s), its event log recorded {len(logged_actions)}: "
                f"they differ from action {position + 1} on.",
            )
        )
    from engine.replay import run_scenario  # the games are imported only when a replay is asked for

    status, output = run_scenario(hand.scenario)
    error = output.get("error") or {}
    if status == 2:
        return [*findings, Finding(number, "result", f"cannot replay: {error.get('message', 'not a scenario')}")]
    if status == 1:
        return [
            *findings,
            Finding(
                number, "result", f"the engine refuses recorded action {error.get('index')}: {error.get('message', '')}"
            ),
        ]
    if void and output.get("finished"):
        findings.append(
            Finding(
                number,
                "result",
                "the recorded actions play the hand to its end, so it cannot have been called off.",
            )
        )
    elif not void and not output.get("finished"):
        return [*findings, Finding(number, "result", "the recorded actions leave the hand unfinished.")]
    if hand.events:
        replayed = [
            _comparable(
                {
                    "kind": event.get("kind"),
                    "data": {k: v for k, v in event.items() if k not in ("kind", "visible_to")},
                    "visible_to": event.get("visible_to"),
                }
            )
            for event in output.get("events", [])
        ]
        # The engine's kinds: the known ones and any the replay itself gave (a variant's own).
        engine_kinds = ENGINE_KINDS | {str(event.get("kind")) for event in output.get("events", [])}
        logged = [_comparable(event) for event in hand.events if _is_engine_event(event, engine_kinds)]
        if replayed != logged:
            position = next(
                (i for i, (a, b) in enumerate(zip(replayed, logged, strict=False)) if a != b),
                min(len(replayed), len(logged)),
            )
            what = logged[position][0] if position < len(logged) else "(none)"
            findings.append(
                Finding(
                    number,
                    "log",
                    f"replaying the deck and actions does not give the engine's events the hand's log "
                    f"recorded: they differ at event {position + 1} (the log has {what}).",
                )
            )
    if void:
        return findings  # nothing was paid: its stacks are the deal's (checked above)
    stacks = dict(output["stacks"])
    recorded_stacks = dict(hand.stacks)
    if stacks != recorded_stacks:
        differences = ", ".join(
            f"{name} recorded {recorded_stacks.get(name)} replayed {stacks.get(name)}"
            for name in sorted(set(stacks) | set(recorded_stacks))
            if stacks.get(name) != recorded_stacks.get(name)
        )
        findings.append(Finding(number, "result", f"replaying the hand gives other stacks: {differences}."))
    elif [_pot_key(pot) for pot in output["pots"]] != [_pot_key(pot) for pot in hand.pots]:
        findings.append(Finding(number, "result", "replaying the hand gives other pots than recorded."))
    if hand.events:
        ended = [_event_data(event) for event in hand.events if event.get("kind") == "hand_ended"]
        if len(ended) != 1:
            findings.append(Finding(number, "log", "the hand's event log does not record its end (hand_ended) once."))
        elif ended[0].get("stacks") != recorded_stacks or [_pot_key(p) for p in ended[0].get("pots", [])] != [
            _pot_key(p) for p in hand.pots
        ]:
            findings.append(
                Finding(number, "result", "the hand's result is not the one its event log recorded when it was paid.")
            )
    return findings


def _is_recorded_action(event: Mapping[str, Any]) -> bool:
    """The table's record of a player's request (``action`` with player and verb). Hold'em's
    engine also reports each move as an ``action`` event: that one carries the round total."""
    data = _event_data(event)
    return event.get("kind") == "action" and "total" not in data and "verb" in data


#: The kinds of event the engine writes into a hand (the table writes the others: the deal's
#: record, turns, reminders, the requests, the hand's end, sitting out).
ENGINE_KINDS = frozenset(
    {
        "boot", "blind", "dealt", "hole_cards", "cards", "see", "chaal", "raise", "pack", "sideshow",
        "sideshow_accepted", "sideshow_refused", "sideshow_result", "show", "showdown", "board",
        "uncalled", "muck", "pot_awarded", "hand_finished",
    }
)  # fmt: skip


def _is_engine_event(event: Mapping[str, Any], engine_kinds: frozenset[str] | set[str] = ENGINE_KINDS) -> bool:
    kind = event.get("kind")
    if kind == "hand_started":  # the engine's own opening event, not the deal's record
        return not any(name in _event_data(event) for name in DEAL_RECORD_ONLY)
    if kind == "action":
        return not _is_recorded_action(event)
    return kind in engine_kinds


def _comparable(event: Mapping[str, Any]) -> tuple[Any, str, Any]:
    """An event as JSON text would carry it (tuples become lists), without its seq."""
    return (
        event.get("kind"),
        json.dumps(event.get("data"), sort_keys=True),
        json.dumps(event.get("visible_to"), sort_keys=True),
    )


def _pot_key(pot: Mapping[str, Any]) -> tuple[int, tuple[str, ...], tuple[str, ...]]:
    return int(pot["amount"]), tuple(sorted(pot["eligible"])), tuple(sorted(pot["winners"]))


#: The table's events between hands that move chips to or from the seats.
BUY_KINDS = ("seat_taken", "seat_bought_back")
CASH_OUT_KINDS = ("seat_left", "seat_removed", "seat_out")


def _deal_seq(hand: HandRecord) -> int | None:
    seqs = [int(event["seq"]) for event in hand.events if isinstance(event.get("seq"), int)]
    return min(seqs) if seqs else None


def check_chips(record: GameRecord) -> list[Finding]:
    """The hands are one game: every chip is accounted for from the first buy-in to the last
    cash-out, and the ledger in the file says the same.

    Walking the table's log in order (its own events between the hands, and the hands at the
    place they were dealt), each player's chips at the table are followed: a buy-in or
    buy-back adds what it bought, a cash-out takes them all away (and must be exactly what the
    player had), a hand ends with its recorded stacks. So each hand must deal every player
    exactly the chips they ended the previous hand with, plus what they bought and less what
    they cashed out between (**chips**); the game's end must cash out exactly what the last
    hands left (**chips**); and every buy-in, buy-back and cash-out the log records must be
    in the file's ledger, the same chips for the same player in the same order, and nothing
    else (**ledger**). A file without the table's events or the ledger is refused."""
    findings: list[Finding] = []
    if record.table_events is None or record.ledger is None:
        absent = " and ".join(
            name for name, value in (("table_events", record.table_events), ("ledger", record.ledger)) if value is None
        )
        return [
            Finding(
                None,
                "unverifiable",
                f"the file holds no {absent}, so the chips between the hands cannot be followed "
                "and the hands cannot be shown to be one game.",
            )
        ]
    timeline: list[tuple[int, int, Any]] = []
    for event in record.table_events:
        timeline.append((int(event["seq"]), 0, event))
    for hand in record.hands:
        seq = _deal_seq(hand)
        if seq is None:
            findings.append(Finding(hand.hand_number, "unverifiable", "the hand's events carry no seq numbers."))
            continue
        timeline.append((seq, 1, hand))
    timeline.sort(key=lambda item: (item[0], item[1]))
    chips: dict[str, int] = {}
    moves: dict[str, list[tuple[str, int]]] = {}
    ended: Mapping[str, Any] | None = None
    for seq, _order, item in timeline:
        if isinstance(item, HandRecord):
            hand = item
            number = hand.hand_number
            wrong = [
                f"{player.get('name')} {player.get('stack')} (had {chips.get(str(player.get('name')), 0)})"
                for player in hand.scenario.get("players", [])
                if player.get("stack") != chips.get(str(player.get("name")), 0)
            ]
            if wrong:
                findings.append(
                    Finding(
                        number,
                        "chips",
                        "the hand deals other stacks than the players had after the hand before it and "
                        f"the buy-ins and cash-outs since: {', '.join(wrong)}.",
                    )
                )
            start_total = sum(int(player.get("stack", 0)) for player in hand.scenario.get("players", []))
            if sum(int(chips_) for chips_ in hand.stacks.values()) != start_total:
                findings.append(Finding(number, "chips", "the hand ends with more or fewer chips than it was dealt."))
            for name, stack in hand.stacks.items():
                chips[str(name)] = int(stack)
            continue
        event = item
        kind, data = event["kind"], _event_data(event)
        if ended is not None:
            findings.append(Finding(None, "chips", f"the table's log goes on after the game ended ({kind})."))
            continue
        player = str(data.get("seat"))
        if kind in BUY_KINDS:
            bought = data.get("chips")
            if not isinstance(bought, int) or isinstance(bought, bool) or bought <= 0:
                findings.append(Finding(None, "chips", f"event {seq} ({kind}) buys no whole number of chips."))
                continue
            chips[player] = chips.get(player, 0) + bought
            moves.setdefault(player, []).append(("buy", bought))
            if "stack" in data and data["stack"] != chips[player]:
                findings.append(
                    Finding(
                        None,
                        "chips",
                        f"event {seq} ({kind}) gives seat {player} a stack of {data['stack']}, "
                        f"but they had {chips[player] - bought} and bought {bought}.",
                    )
                )
        elif kind in CASH_OUT_KINDS:
            cashed = data.get("cashed_out")
            if cashed != chips.get(player, 0):
                findings.append(
                    Finding(
                        None,
                        "chips",
                        f"event {seq} ({kind}) cashes out {cashed!r} chips for seat {player}, "
                        f"who had {chips.get(player, 0)}.",
                    )
                )
            if isinstance(cashed, int) and cashed:
                moves.setdefault(player, []).append(("cash_out", cashed))
            chips[player] = 0
        elif kind == "game_ended":
            ended = data
            final = data.get("final_stacks")
            if not isinstance(final, Mapping):
                findings.append(Finding(None, "unverifiable", "the game's end does not record the final stacks."))
                continue
            had = {name: stack for name, stack in chips.items() if stack}
            kept = {str(name): stack for name, stack in final.items() if stack}
            if had != kept:
                findings.append(
                    Finding(
                        None,
                        "chips",
                        f"the game ended cashing out {kept}, but the hands left the players {had}.",
                    )
                )
            for name, stack in kept.items():
                if isinstance(stack, int):
                    moves.setdefault(name, []).append(("cash_out", stack))
            if data.get("hands_played") != record.hands_played:
                findings.append(
                    Finding(
                        None,
                        "order",
                        f"the game's end recorded {data.get('hands_played')!r} hand(s) played, "
                        f"the file {record.hands_played!r}.",
                    )
                )
    if ended is None:
        findings.append(Finding(None, "unverifiable", "the table's events in the file do not include the game's end."))
    findings += _check_ledger(record.ledger, moves)
    return findings


def _check_ledger(ledger: Sequence[Mapping[str, Any]], moves: Mapping[str, list[tuple[str, int]]]) -> list[Finding]:
    """Every chip the log moved is in the ledger, for the same player in the same order,
    and the ledger holds nothing else; a reversal (a correction made after play) is named."""
    findings: list[Finding] = []
    written: dict[str, list[tuple[str, int]]] = {}
    for index, entry in enumerate(ledger):
        kind = entry["kind"]
        if kind == "reversal":
            reversed_index = entry.get("reverses")
            findings.append(
                Finding(
                    None,
                    "ledger",
                    f"ledger entry {index + 1} reverses entry "
                    f"{reversed_index + 1 if isinstance(reversed_index, int) else '?'}: "
                    "the ledger was corrected after play, so it no longer says what the table recorded.",
                )
            )
            continue
        if kind == "prize":
            # Money won at a table shared by places, written at the game's end: no chip moves.
            if entry["chips"]:
                chips = entry["chips"]
                findings.append(Finding(None, "ledger", f"ledger entry {index + 1} is a prize of {chips} chips."))
            continue
        side = "buy" if kind in ("buy_in", "buy_back") else "cash_out"
        if entry["chips"] or side == "buy":
            written.setdefault(str(entry["player"]), []).append((side, int(entry["chips"])))
    for player in sorted(set(moves) | set(written)):
        if moves.get(player, []) != written.get(player, []):
            findings.append(
                Finding(
                    None,
                    "ledger",
                    f"seat {player}: the table's log moved chips {_moves(moves.get(player, []))}, "
                    f"the ledger records {_moves(written.get(player, []))}.",
                )
            )
    return findings


def _moves(moves: Sequence[tuple[str, int]]) -> str:
    return "[" + ", ".join(f"{'+' if side == 'buy' else '-'}{chips}" for side, chips in moves) + "]"


def verify_game(record: GameRecord, *, replay: bool = True) -> list[Finding]:
    """Every finding for a whole game; an empty list means every deal, every result and
    every chip between the hands checks out."""
    findings = check_commitment(record) + check_order(record)
    for hand in record.hands:
        log_findings = check_log(record, hand)
        findings += log_findings
        seeds_in_doubt = any(finding.check in ("seed", "unverifiable") for finding in log_findings)
        if record.secret_seed is not None:
            finding = check_deal(record.secret_seed, hand, seeds_checked=not seeds_in_doubt)
            # A deck derived from seeds the log contradicts is the seeds' fault, already named.
            if finding is not None and not any(f.check == "seed" for f in log_findings):
                findings.append(finding)
        if replay:
            findings += check_replay(hand)
    findings += check_chips(record)
    return findings


# --- the command ---------------------------------------------------------------------------


def _read(path: str, stdin: TextIO) -> Any:
    if path == "-":
        return json.load(stdin)
    with open(path, encoding="utf-8") as handle:
        return json.load(handle)


def main(argv: Sequence[str], *, stdout: TextIO | None = None, stdin: TextIO | None = None) -> int:
    """Run the verifier on ``argv`` (the arguments after ``verify``); returns the exit status."""
    out = stdout or sys.stdout
    arguments = list(argv)
    replay = True
    if "--no-replay" in arguments:
        arguments.remove("--no-replay")
        replay = False
    if len(arguments) != 1 or arguments[0] in ("-h", "--help"):
        print(USAGE, file=out)
        return 0 if arguments in (["-h"], ["--help"]) else 2
    try:
        data = _read(arguments[0], stdin or sys.stdin)
    except OSError as error:
        print(f"error: cannot read {arguments[0]}: {error.strerror or error}", file=out)
        return 2
    except (json.JSONDecodeError, UnicodeDecodeError) as error:
        print(f"error: {arguments[0]} is not JSON: {error}", file=out)
        return 2

    try:
        if isinstance(data, Mapping) and "format" not in data and "deck" in data:
            return _verify_one_hand(parse_hand(data), replay=replay, out=out)
        record = parse_game(data)
    except ExportError as error:
        print(f"error: not a Dashain export: {error}", file=out)
        return 2

    print(f"Game at table {record.table!r} ({record.game}), {len(record.hands)} hand(s).", file=out)
    findings = verify_game(record, replay=replay)
    game_findings = [finding for finding in findings if finding.hand_number is None]
    for finding in game_findings:
        print(finding.line(), file=out)
    if not game_findings:
        print(f"commitment: OK (sha256 of the secret seed is {record.commitment})", file=out)
    for hand in record.hands:
        own = [finding for finding in findings if finding.hand_number == hand.hand_number]
        if own:
            for finding in own:
                print(finding.line(), file=out)
        else:
            checked = "deal and result" if replay else "deal"
            print(f"hand {hand.hand_number}: OK ({checked})", file=out)
    if findings:
        bad_hands = sorted({finding.hand_number for finding in findings if finding.hand_number is not None})
        named = ", ".join(str(number) for number in bad_hands) or "none"
        print(f"NOT VERIFIED: {len(findings)} problem(s); hands that do not match: {named}.", file=out)
        return EXIT_MISMATCH
    replayed = " and replay to their results" if replay else ""
    print(
        f"VERIFIED: all {len(record.hands)} deal(s) come from the committed seed{replayed}, "
        "and every chip is accounted for from the first buy-in to the last cash-out.",
        file=out,
    )
    return EXIT_VERIFIED


def _verify_one_hand(hand: HandRecord, *, replay: bool, out: TextIO) -> int:
    """A single hand's download is never a verified game: its deal needs the secret seed (in
    the game's file only), and one hand says nothing of the chips before or after it. Its
    replay is checked; the answer is ``EXIT_ONE_HAND`` (3), never 0."""
    print(
        f"One hand (hand {hand.hand_number} at table {hand.table!r}), not a game: its deal can be checked "
        "only from the whole game's export, which holds the secret seed, and one hand shows nothing of "
        "the chips before or after it.",
        file=out,
    )
    if replay:
        findings = check_replay(hand)
        if findings:
            for finding in findings:
                print(finding.line(), file=out)
            print(f"NOT VERIFIED: {len(findings)} problem(s) in hand {hand.hand_number}.", file=out)
            return EXIT_MISMATCH
        print(f"hand {hand.hand_number}: its actions replay to its result (its deal is NOT checked)", file=out)
    print("NOT A GAME: only a whole game's file can be verified.", file=out)
    return EXIT_ONE_HAND


if __name__ == "__main__":  # pragma: no cover - `python -m engine verify` is the usual way in
    raise SystemExit(main(sys.argv[1:]))
