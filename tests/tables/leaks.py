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
from tables.models import Event, Hand, Table
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


def cards_revealed(table: Table) -> list[tuple[int, int, str, dict[str, Any]]]:
    """(seq, hand number, kind, payload) of every event that shows hidden cards to someone:
    a player's own cards (Teen Patti ``cards`` once they look, hold'em ``hole_cards`` at the
    deal), a sideshow's result (to its two players), a show or showdown (to everyone)."""
    kinds = {"cards", "hole_cards", "sideshow_result", *PUBLIC_REVEALS}
    return [
        (event.seq, event.hand.number, event.kind, event.payload)
        for event in Event.objects.filter(table=table, kind__in=kinds, hand__isnull=False)
        .select_related("hand")
        .order_by("seq")
    ]


def cards_shown_to(viewer: str, hand_number: int, upto_seq: int, reveals: list) -> set[str]:
    """The hidden cards the rules have shown ``viewer`` in that hand by ``upto_seq``
    (decided from the deal and the log's reveals, not from the engine's ``visible_to``)."""
    shown: set[str] = set()
    for seq, number, kind, payload in reveals:
        if number != hand_number or seq > upto_seq:
            continue
        if kind in PUBLIC_REVEALS:
            shown.update(_cards_in(payload))
        elif kind == "sideshow_result" and viewer in (payload.get("asker"), payload.get("partner")):
            shown.update(_cards_in(payload))
        elif kind in ("cards", "hole_cards") and str(payload.get("player")) == viewer:
            shown.update(_cards_in(payload.get("cards")))
    return shown


def leaks_in_snapshot(
    viewer: str, snapshot: dict[str, Any], owners: dict[int, dict[str, str]], reveals: list
) -> tuple[list, int]:
    """(leaks, hidden cards checked) in one snapshot: every hidden card in the hand's view must
    be one the rules have shown this viewer by the snapshot's seq (their own included: a
    Teen Patti player who has not looked sees none of theirs)."""
    hand = snapshot.get("hand")
    if not hand:
        return [], 0
    shown = cards_shown_to(viewer, hand["number"], snapshot["seq"], reveals)
    leaks, checked = [], 0
    for card in _cards_in(hand.get("view")):
        owner = owners.get(hand["number"], {}).get(card)
        if owner is None:
            continue  # not a hidden card (a board card)
        checked += 1
        if card not in shown:
            leaks.append((viewer, "snapshot", snapshot["seq"], card, owner))
    return leaks, checked


# --- pass and play: the host's phone, held by one seat at a time ------------------------------


def _turn_in(frame: dict[str, Any]) -> tuple[bool, str | None]:
    """(whether the frame says whose turn it is, who is to act) from its screen or snapshot."""
    if frame.get("type") == "snapshot":
        hand = frame.get("hand")
    elif "hand" in frame.get("screen", {}):
        hand = frame["screen"]["hand"]
    else:
        return False, None
    if not hand or hand.get("finished") or not hand.get("turn"):
        return True, None
    return True, str(hand["turn"]["player"])


def phone_leaks(frames: list[dict[str, Any]], owners: dict, reveals: list) -> dict[str, Any]:
    """Every card in every frame, checked against who held the phone when it was sent."""
    leaks: list[tuple] = []
    revealed: set[tuple[Any, str]] = set()
    counts = {"own_cards": 0, "frames_nobody_holds": 0, "frames_held": 0, "view_cards": 0}
    for frame in frames:
        if frame.get("type") not in ("snapshot", "events"):
            assert not _cards_in(frame), frame  # an ack, error or pong names no card
            continue
        phone = frame["phone"]
        holder = "" if phone["holding"] is None else str(phone["holding"])
        counts["frames_held" if holder else "frames_nobody_holds"] += 1
        told, to_act = _turn_in(frame)
        if told and holder:
            assert holder == to_act, f"the phone held by {holder} while {to_act} is to act"
        if told and not holder and to_act is not None and int(to_act) in phone["seats"]:
            assert phone["pass_to"] == int(to_act), phone
        for event in frame.get("events", []):
            if "kind" not in event:
                assert set(event) == {"seq"}, event
                continue
            hand_owners = owners.get(event.get("hand"), {})
            data = event.get("data", {})
            for card in _cards_in(data):
                owner = hand_owners.get(card)
                if owner is None:
                    continue
                if owner == holder:
                    counts["own_cards"] += 1
                elif event["kind"] in PUBLIC_REVEALS:
                    revealed.add((event.get("hand"), card))
                elif (event.get("hand"), card) in revealed:
                    continue
                elif event["kind"] == "sideshow_result" and {holder, owner} == {data.get("asker"), data.get("partner")}:
                    continue
                else:
                    leaks.append((holder or "nobody", event["seq"], event["kind"], card, owner))
        if frame["type"] == "snapshot":
            view = {"seq": frame["seq"], "hand": frame.get("hand")}
        else:
            screen = frame.get("screen") or {}
            view = {"seq": screen.get("seq"), "hand": screen.get("hand")}
        found, checked = leaks_in_snapshot(holder or "nobody", view, owners, reveals)
        leaks += found
        counts["view_cards"] += checked
    return {"leaks": leaks, **counts}
