"""Every event's payload has the shape tables.payloads declares for its kind.

Rules pinned: every kind has a declared shape; every event written in random games of the
four games (seats coming and going, pauses, settings, the end) and in the requests to the
host, a join by code, a removal, a ban, a buy-back, a dealer's call of the Joker variant
and a Four-card table has all the required keys of one of
its kind's shapes, no other key, and values of the declared types (bool is not taken for
int, nor int for bool).
"""

from __future__ import annotations

import random
import types
import typing
from typing import Any, NotRequired, TypedDict, get_args, get_origin

import pytest

from tables.events import EventKind
from tables.models import Event
from tables.payloads import PAYLOADS
from tables.services import (
    guest_token_new,
    hand_act,
    join_ask,
    request_approve,
    request_cancel,
    request_deny,
    seat_ask,
    seat_buy_back,
    seat_claim_ask,
    seat_claim_take,
    seat_claim_withdraw,
    seat_link_key,
    seat_link_use,
    seat_remove,
    seat_take,
    table_join,
    table_start,
    table_update_settings,
    variant_call,
)
from tests.tables.conftest import current_turn, end_game, make_user, open_table, random_action
from tests.tables.test_dealers_choice import dealer_seat
from tests.tables.test_event_kinds import GAMES, _play


def _is_typeddict(hint: object) -> bool:
    return isinstance(hint, type) and typing.is_typeddict(hint)


def mismatches(value: object, hint: object, where: str) -> list[str]:
    """Where ``value`` is not of type ``hint`` (the subset of types the payloads use)."""
    if hint is Any:
        return []
    origin = get_origin(hint)
    if origin is NotRequired:
        return mismatches(value, get_args(hint)[0], where)
    if origin in (typing.Union, types.UnionType):
        options = [mismatches(value, option, where) for option in get_args(hint)]
        return [] if any(not found for found in options) else [f"{where}: {value!r} is not {hint}"]
    if hint is type(None):
        return [] if value is None else [f"{where}: {value!r} is not None"]
    if hint is bool:
        return [] if isinstance(value, bool) else [f"{where}: {value!r} is not a bool"]
    if hint is int:
        return [] if isinstance(value, int) and not isinstance(value, bool) else [f"{where}: {value!r} is not an int"]
    if hint is str:
        return [] if isinstance(value, str) else [f"{where}: {value!r} is not a str"]
    if origin is list:
        if not isinstance(value, list):
            return [f"{where}: {value!r} is not a list"]
        (item,) = get_args(hint)
        return [
            problem for index, entry in enumerate(value) for problem in mismatches(entry, item, f"{where}[{index}]")
        ]
    if origin is dict:
        if not isinstance(value, dict):
            return [f"{where}: {value!r} is not an object"]
        key_hint, item = get_args(hint)
        return [
            problem
            for key, entry in value.items()
            for problem in [*mismatches(key, key_hint, f"{where} key"), *mismatches(entry, item, f"{where}[{key!r}]")]
        ]
    if _is_typeddict(hint):
        return shape_problems(value, hint, where)  # type: ignore[arg-type]
    raise AssertionError(f"the checker does not know {hint}")


def shape_problems(value: object, shape: type, where: str) -> list[str]:
    if not isinstance(value, dict):
        return [f"{where}: {value!r} is not an object"]
    hints = typing.get_type_hints(shape, include_extras=True)
    # From the hints, not __required_keys__: Python 3.11 counts a postponed NotRequired as required.
    required = {key for key, hint in hints.items() if get_origin(hint) is not NotRequired}
    problems = [f"{where}: no {key!r}" for key in sorted(required - value.keys())]
    problems += [f"{where}: {key!r} is not in {shape.__name__}" for key in sorted(value.keys() - hints.keys())]
    for key in sorted(value.keys() & hints.keys()):
        problems += mismatches(value[key], hints[key], f"{where}.{key}")
    return problems


def payload_problems(kind: str, payload: dict[str, Any]) -> list[str]:
    """Empty when ``payload`` fits one of ``kind``'s shapes; else each shape's problems."""
    shapes = PAYLOADS[EventKind(kind)]
    found = [shape_problems(payload, shape, f"{kind}<{shape.__name__}>") for shape in shapes]
    return [] if any(not problems for problems in found) else [problem for problems in found for problem in problems]


def test_every_kind_has_a_shape():
    assert set(PAYLOADS) == set(EventKind)


class _Sample(TypedDict):
    seat: int
    name: NotRequired[str]
    cards: list[str] | None


def test_the_checker_sees_a_wrong_shape():
    """The checker fails on each kind of mistake (so the tests below can fail)."""
    assert shape_problems({"seat": 1, "cards": None}, _Sample, "x") == []
    assert shape_problems({"seat": 1, "name": "A", "cards": ["As"]}, _Sample, "x") == []
    assert shape_problems({"cards": None}, _Sample, "x") == ["x: no 'seat'"]
    assert shape_problems({"seat": 1, "cards": None, "extra": 1}, _Sample, "x") == ["x: 'extra' is not in _Sample"]
    assert shape_problems({"seat": True, "cards": None}, _Sample, "x")  # a bool is not an int
    assert shape_problems({"seat": 1, "cards": ["As", 3]}, _Sample, "x")
    assert payload_problems("seat_sat_out", {"seat": "1"})
    assert payload_problems("seat_sat_out", {"seat": 1}) == []


def _requests_and_bans() -> None:
    """The host's side of the log: approvals asked, granted, denied and withdrawn, a join by
    code, a buy-back, a removal and a ban, and the end of the game."""
    table, seats = open_table("faras", players=3, start=False)
    host = seats[0]
    table_update_settings(table_id=table.pk, seat_id=host.pk, choices={"approve_seats": True})
    guests = [
        table_join(code=table.code, invite_token=table.invite_token, guest_name=name, guest_token=guest_token_new())
        for name in ("Dipa", "Esha", "Gita")
    ]
    asked = seat_ask(table_id=table.pk, seat_id=guests[0].pk, what="seat")
    request_approve(table_id=table.pk, seat_id=host.pk, request=asked)
    asked = seat_ask(table_id=table.pk, seat_id=guests[1].pk, what="seat")
    request_deny(table_id=table.pk, seat_id=host.pk, request=asked)
    seat_ask(table_id=table.pk, seat_id=guests[2].pk, what="seat")
    request_cancel(table_id=table.pk, seat_id=guests[2].pk)
    asked_in = join_ask(code=table.code, user=make_user(f"eve-{random.random()}"))
    assert asked_in is not None
    request_approve(table_id=table.pk, seat_id=host.pk, request=asked_in)
    # "This is me" (issue 38): a claim denied, one withdrawn, one approved and taken.
    for name, answer in (("Dipa", request_deny), ("Gita", None), ("Esha", request_approve)):
        token = guest_token_new()
        claimed = seat_claim_ask(code=table.code, invite_token=table.invite_token, guest_name=name, guest_token=token)
        if answer is None:
            seat_claim_withdraw(table_id=table.pk, guest_token=token)
            continue
        answer(table_id=table.pk, seat_id=host.pk, request=claimed)
        if answer is request_approve:
            seat_claim_take(table_id=table.pk, guest_token=token)
    table_update_settings(table_id=table.pk, seat_id=host.pk, choices={"approve_seats": False})
    seat_buy_back(table_id=table.pk, seat_id=seats[1].pk)
    seat_remove(table_id=table.pk, seat_id=host.pk, remove_seat_id=seats[1].pk)
    seat_remove(table_id=table.pk, seat_id=host.pk, remove_seat_id=seats[2].pk, ban=True)
    seat_take(table_id=table.pk, seat_id=guests[2].pk)
    key = seat_link_key(guests[2])
    seat_link_use(code=table.code, seat_id=guests[2].pk, key=key, guest_token=guest_token_new())
    end_game(table, host.pk)


def _variants(rng: random.Random) -> None:
    """Dealer's choice (the dealer calls the Joker variant: its card turned up) and a Four-card
    table, played at random for a few hands."""
    table, seats = open_table("faras", players=3, choices={"dealers_choice": ["none", "joker"]}, start=False)
    variant_call(table_id=table.pk, seat_id=dealer_seat(table, seats).pk, variant="joker")
    table_start(table_id=table.pk, seat_id=seats[0].pk)
    four, four_seats = open_table("classic", players=3, choices={"variant": "four_card"})
    for played, played_seats in ((table, seats), (four, four_seats)):
        by_name = {seat.engine_name: seat for seat in played_seats}
        for _step in range(40):
            player, legal = current_turn(played)
            if player is None:
                break
            verb, amount = random_action(rng, legal)
            hand_act(table_id=played.pk, seat_id=by_name[player].pk, verb=verb, amount=amount)


@pytest.mark.django_db
def test_every_payload_written_has_its_kinds_shape():
    rng = random.Random(23)
    for game in GAMES:
        _play(game, rng)
    _requests_and_bans()
    _variants(rng)
    problems: list[str] = []
    kinds = set()
    for kind, payload in Event.objects.values_list("kind", "payload"):
        kinds.add(kind)
        problems += payload_problems(kind, payload)
    assert problems == []
    # The games reached most of the vocabulary, requests and bans too (not vacuous).
    assert len(kinds) >= 38, sorted({str(kind) for kind in EventKind} - kinds)
    assert {"request_made", "request_approved", "request_denied", "request_cancelled", "seat_banned"} <= kinds
    assert "seat_moved" in kinds
    assert {"variant_called", "joker"} <= kinds
