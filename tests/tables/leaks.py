"""An independent check that no frame shows a player's hidden cards to anyone else.

Card ownership comes from the deal itself (the state rebuilt from the log), not from
the engine's ``visible_to``: a card of player P may reach another viewer only in a
showdown (cards turned up for everyone) or in a sideshow result both players of
which are P and the viewer (rule book 000: the rest of the table only learns who packed).
"""

from __future__ import annotations

from typing import Any

from engine.cards import card_text
from tables import selectors
from tables.models import Hand, Table
from tests.tables.ws import CARD

PUBLIC_REVEALS = {"showdown", "show"}  # Teen Patti showdown; hold'em show at the showdown


def card_owners(table: Table) -> dict[int, dict[str, str]]:
    """hand number -> {card text: owner seat id} for every player's hidden cards."""
    owners: dict[int, dict[str, str]] = {}
    for hand in Hand.objects.filter(table=table).order_by("number"):
        if not hand.plan:
            continue
        state = selectors.hand_start_state(table=table, hand=hand)
        hidden = state.hole if hasattr(state, "hole") else state.cards  # hold'em / Teen Patti
        names = state.names
        mapping = {}
        for name, cards in zip(names, hidden, strict=True):
            for card in cards:
                mapping[card_text(card)] = str(name)
        owners[hand.number] = mapping
    return owners


def _cards_in(value: Any) -> list[str]:
    found: list[str] = []
    if isinstance(value, str):
        if CARD.match(value):
            found.append(value.replace("10", "T"))
    elif isinstance(value, dict):
        for item in value.values():
            found.extend(_cards_in(item))
    elif isinstance(value, list | tuple):
        for item in value:
            found.extend(_cards_in(item))
    return found


def leaks_in_events(viewer: str, frames: list[dict[str, Any]], owners: dict[int, dict[str, str]]) -> tuple[list, int]:
    """(leaks, count of own cards seen) over every event frame a viewer received."""
    leaks, own_seen = [], 0
    revealed: set[tuple[Any, str]] = set()  # (hand, card) turned up for everyone already
    for frame in frames:
        if frame.get("type") not in ("events",):
            continue
        for event in frame["events"]:
            if "kind" not in event:
                assert set(event) == {"seq"}, event  # a hidden event is its seq and nothing else
                continue
            hand_owners = owners.get(event.get("hand"), {})
            data = event.get("data", {})
            for card in _cards_in(data):
                owner = hand_owners.get(card)
                if owner is None:
                    continue
                if owner == viewer:
                    own_seen += 1
                    continue
                if event["kind"] in PUBLIC_REVEALS:
                    revealed.add((event.get("hand"), card))
                    continue
                if (event.get("hand"), card) in revealed:
                    continue  # e.g. hold'em's pot_awarded naming the best five of a hand already shown
                if event["kind"] == "sideshow_result" and {viewer, owner} == {data.get("asker"), data.get("partner")}:
                    continue
                leaks.append((viewer, event["seq"], event["kind"], card, owner))
    return leaks, own_seen


def leaks_in_snapshot(
    viewer: str, snapshot: dict[str, Any], owners: dict[int, dict[str, str]], sideshow_partners: set[str]
) -> list:
    hand = snapshot.get("hand")
    if not hand:
        return []
    leaks = []
    for card in _cards_in(hand.get("view")):
        owner = owners.get(hand["number"], {}).get(card)
        if owner is not None and owner != viewer and owner not in sideshow_partners:
            leaks.append((viewer, "snapshot", card, owner))
    return leaks
