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
5. **result** (unless ``--no-replay``): each hand, played back through the engine from its
   deck and actions, ends with the recorded stacks and pots.

A file without what a check needs (no secret seed yet, no ``hands_played``, a hand without
its ``hand_started`` event) is refused as **unverifiable**: nothing is passed unchecked.

It prints one line per hand, saying plainly which hand does not match and why.
Exit status: 0 when everything matches, 1 when something does not or cannot be checked
(for one, a game not ended: its secret seed is not revealed yet), 2 for a file that is not
an export.

A single exported hand (no ``format`` field) can be given too: its result is replayed,
but its deal can only be checked from the whole game's export, which holds the seed.
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
    and pots. A hand called off when the game ended (``"void": true`` in its result) gave
    every bet back: its deal is checked, its result is not replayed."""
    if hand.scenario.get("result", {}).get("void"):
        return None
    from engine.replay import run_scenario  # the games are imported only when a replay is asked for

    status, output = run_scenario(hand.scenario)
    error = output.get("error") or {}
    if status == 2:
        return Finding(hand.hand_number, "result", f"cannot replay: {error.get('message', 'not a scenario')}")
    if status == 1:
        return Finding(
            hand.hand_number,
            "result",
            f"the engine refuses recorded action {error.get('index')}: {error.get('message', '')}",
        )
    if not output.get("finished"):
        return Finding(hand.hand_number, "result", "the recorded actions leave the hand unfinished.")
    stacks = dict(output["stacks"])
    recorded_stacks = dict(hand.stacks)
    if stacks != recorded_stacks:
        differences = ", ".join(
            f"{name} recorded {recorded_stacks.get(name)} replayed {stacks.get(name)}"
            for name in sorted(set(stacks) | set(recorded_stacks))
            if stacks.get(name) != recorded_stacks.get(name)
        )
        return Finding(hand.hand_number, "result", f"replaying the hand gives other stacks: {differences}.")
    if [_pot_key(pot) for pot in output["pots"]] != [_pot_key(pot) for pot in hand.pots]:
        return Finding(hand.hand_number, "result", "replaying the hand gives other pots than recorded.")
    return None


def _pot_key(pot: Mapping[str, Any]) -> tuple[int, tuple[str, ...], tuple[str, ...]]:
    return int(pot["amount"]), tuple(sorted(pot["eligible"])), tuple(sorted(pot["winners"]))


def verify_game(record: GameRecord, *, replay: bool = True) -> list[Finding]:
    """Every finding for a whole game; an empty list means every deal and result checks out."""
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
            finding = check_result(hand)
            if finding is not None:
                findings.append(finding)
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
        return 1
    print(f"VERIFIED: all {len(record.hands)} deal(s) come from the committed seed.", file=out)
    return 0


def _verify_one_hand(hand: HandRecord, *, replay: bool, out: TextIO) -> int:
    print(
        f"One hand (hand {hand.hand_number} at table {hand.table!r}): its deal can be checked only "
        "from the whole game's export, which holds the secret seed.",
        file=out,
    )
    if not replay:
        return 0
    finding = check_result(hand)
    if finding is not None:
        print(finding.line(), file=out)
        return 1
    print(f"hand {hand.hand_number}: OK (result)", file=out)
    return 0


if __name__ == "__main__":  # pragma: no cover - `python -m engine verify` is the usual way in
    raise SystemExit(main(sys.argv[1:]))
