"""The chips check (6 in :mod:`engine.verify`): the hands are one game, every chip followed
through the table's log from the first buy-in to the last cash-out, and the file's ledger
saying the same."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from engine.export import GameRecord, HandRecord
from engine.verify.finding import Finding, event_data

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
        kind, data = event["kind"], event_data(event)
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
