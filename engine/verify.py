"""``python -m engine verify FILE``: check that every deal of an exported game came from
the seed committed before it began.

The checks, in order (the construction is in :mod:`engine.fairness` and ``docs/fairness.md``):

1. **commitment**: ``sha256(secret_seed)`` equals the game's commitment, and every hand
   carries that same commitment;
2. **seed**: each hand's ``player_seeds`` are those its own event log recorded at the deal
   (the ``hand_started`` event, when the export carries the events);
   **deal**: each hand's recorded deck equals
   ``hand_deck(secret_seed, table, hand_number, player_seeds)``; a difference means the
   deck, or the player seeds / table / hand number it was derived from, were changed;
3. **result** (unless ``--no-replay``): each hand, played back through the engine from its
   deck and actions, ends with the recorded stacks and pots.

It prints one line per hand, saying plainly which hand does not match and why.
Exit status: 0 when everything matches, 1 when something does not (or the game has not
ended, so its secret seed is not revealed yet), 2 for a file that is not an export.

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
    is ``commitment``, ``seed``, ``deal``, ``result``, ``order`` or ``unverifiable``."""

    hand_number: int | None
    check: str
    message: str

    def line(self) -> str:
        where = "game" if self.hand_number is None else f"hand {self.hand_number}"
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
    """Each hand belongs to this table and game, and no hand number appears twice."""
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
    return findings


def logged_player_seeds(hand: HandRecord) -> tuple[str, ...] | None:
    """The player seeds the hand's own event log recorded when it was dealt (the site's
    ``hand_started`` event), or ``None`` when the export carries no such event."""
    for event in hand.events:
        data = event.get("data", event) if isinstance(event, Mapping) else {}
        if isinstance(event, Mapping) and event.get("kind") == "hand_started" and "player_seeds" in data:
            seeds = data["player_seeds"]
            if isinstance(seeds, list):
                return tuple(str(seed) for seed in seeds)
    return None


def check_seeds(hand: HandRecord) -> Finding | None:
    """The hand's ``player_seeds`` are those its event log recorded at the deal."""
    logged = logged_player_seeds(hand)
    if logged is None or logged == hand.player_seeds:
        return None
    return Finding(
        hand.hand_number,
        "seed",
        f"the hand lists player seeds {list(hand.player_seeds)}, but its event log recorded {list(logged)} "
        "when it was dealt.",
    )


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
        seed_finding = check_seeds(hand)
        if seed_finding is not None:
            findings.append(seed_finding)
        if record.secret_seed is not None:
            seeds_checked = seed_finding is None and logged_player_seeds(hand) is not None
            finding = check_deal(record.secret_seed, hand, seeds_checked=seeds_checked)
            if finding is not None and seed_finding is None:
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
