"""The replay check (5 in :mod:`engine.verify`): each hand played back through the engine
from its deck and actions, held against its result and its own event log."""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from engine.export import HandRecord
from engine.verify.deal import DEAL_RECORD_ONLY
from engine.verify.finding import Finding, event_data


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
        for data in (event_data(event) for event in hand.events if _is_recorded_action(event))
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
        ended = [event_data(event) for event in hand.events if event.get("kind") == "hand_ended"]
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
    data = event_data(event)
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
        return not any(name in event_data(event) for name in DEAL_RECORD_ONLY)
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
