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

The checks live in :mod:`engine.verify.deal` (1 to 4), :mod:`engine.verify.replayed` (5) and
:mod:`engine.verify.chips` (6); what they find is a :class:`~engine.verify.finding.Finding`.

A single exported hand (no ``format`` field) is never reported as a verified game: its
actions are replayed against its result and log, but its deal can only be checked from the
whole game's export, which holds the seed, and one hand says nothing of the chips around it.
The answer says so and exits with 3 (``EXIT_ONE_HAND``), never 0.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Mapping, Sequence
from typing import Any, TextIO

from engine.export import ExportError, GameRecord, HandRecord, parse_game, parse_hand
from engine.verify.chips import check_chips
from engine.verify.deal import check_commitment, check_deal, check_log, check_order
from engine.verify.finding import Finding
from engine.verify.replayed import check_replay

USAGE = "usage: python -m engine verify [--no-replay] FILE   (FILE may be - for standard input)"
#: Exit statuses: verified; a mismatch or something that cannot be checked; not an export;
#: a single hand's file (a replay at most: never a verified game).
EXIT_VERIFIED, EXIT_MISMATCH, EXIT_NOT_EXPORT, EXIT_ONE_HAND = 0, 1, 2, 3


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
