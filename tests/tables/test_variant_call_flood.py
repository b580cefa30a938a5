"""Issue 34, item 8: one player flooded a table's log. The next dealer sent ``call_variant``
from 12 sockets: 939 events in 11 s, and moves at another table slowed threefold.

Now a dealer calls once per hand (docs/rules.md, "Dealer's choice": the same call again is
answered as done, another is refused with ``already_called``; neither writes), and a person's
commands over all their sockets come from one bucket (``tables.live.socket_limits``: 30, then
2 a second): one beyond it is answered ``too_many_commands`` and reaches no service. Both
through the real consumer, 12 sockets of the dealer at once.
"""

from __future__ import annotations

import asyncio
from collections import Counter
from typing import Any

import pytest
from channels.db import database_sync_to_async
from django.test import override_settings

from tables.events import EventKind
from tables.live.socket_limits import LIMITS
from tables.models import Event, Seat, Table
from tables.services.dealing import next_dealer
from tests.tables.conftest import open_table
from tests.tables.ws import Client, connect, last_seq, users_of

pytestmark = pytest.mark.django_db(transaction=True)

ALLOWED = ["none", "muflis", "ak47", "joker"]
SOCKETS = 12
CALLS_EACH = 10


def _dealing_next(table: Table, seats: list[Seat]) -> tuple[Seat, list[Seat]]:
    table.refresh_from_db()
    name = next_dealer(table)
    dealer = next(seat for seat in seats if seat.engine_name == name)
    return dealer, [seat for seat in seats if seat.pk != dealer.pk]


def _calls_for(table: Table, number: int) -> list[dict[str, Any]]:
    return list(
        Event.objects.filter(table=table, kind=EventKind.VARIANT_CALLED, payload__number=number).values_list(
            "payload", flat=True
        )
    )


async def _flood(clients: list[Client]) -> list[dict[str, Any]]:
    """Every socket sends its calls at once (each a different variant from the one before),
    then reads the answer to each: all the answers."""
    for index, client in enumerate(clients):
        for call in range(CALLS_EACH):
            variant = ALLOWED[1 + (index + call) % 3]
            await client.send({"type": "seat", "verb": "call_variant", "variant": variant, "id": f"c{index}-{call}"})
    answers = []
    for index, client in enumerate(clients):
        for call in range(CALLS_EACH):
            answers.append(await client.reply_to(f"c{index}-{call}"))
    return answers


async def _setup() -> tuple[Table, Seat, Any, Any]:
    table, seats = await database_sync_to_async(open_table)("faras", 3, {"dealers_choice": ALLOWED})
    dealer, others = await database_sync_to_async(_dealing_next)(table, seats)
    [dealer_user, other_user] = await users_of([dealer, others[0]])
    return table, dealer, dealer_user, other_user


async def test_the_next_dealer_on_twelve_sockets_writes_one_call_for_the_hand():
    """The commands' limit lifted (tests/tables/conftest.py): the once-a-hand rule alone."""
    table, _dealer, dealer_user, _other = await _setup()
    clients = []
    for _socket in range(SOCKETS):
        connected, client, _code = await connect(table.code, user=dealer_user)
        assert connected
        clients.append(client)
    before = await last_seq(table.pk)
    answers = await _flood(clients)
    calls = await database_sync_to_async(_calls_for)(table, 2)  # hand 1 is live: the calls are for hand 2
    assert len(calls) == 1
    assert await last_seq(table.pk) == before + 1  # that one event, nothing else
    called = calls[0]["variant"]
    for answer in answers:
        if answer["type"] == "ack":
            continue
        assert answer["type"] == "error" and answer["code"] == "already_called", answer
        assert answer["message"] == "You have already called the next hand; a dealer's call stands once made."
    # Each socket sent every variant; only the one that stands is acknowledged (the first, then its repeats).
    assert Counter(answer["type"] for answer in answers)["ack"] >= 1
    assert {ALLOWED[1 + (index + call) % 3] for index in range(SOCKETS) for call in range(CALLS_EACH)} > {called}
    for client in clients:
        await client.close()


async def test_a_persons_commands_over_all_their_sockets_are_limited_and_the_rest_write_nothing():
    """With the bucket's refill set to nothing the count is exact: 30 of the 120 commands reach
    the service; the 90 others are answered ``too_many_commands``. Another person's commands
    still reach the service."""
    table, _dealer, dealer_user, other_user = await _setup()
    LIMITS.__init__()  # type: ignore[misc]
    with override_settings(DASHAIN_COMMANDS_PER_PERSON_BURST=30, DASHAIN_COMMANDS_PER_PERSON_RATE=0.0):
        clients = []
        for _socket in range(SOCKETS):
            connected, client, _code = await connect(table.code, user=dealer_user)
            assert connected
            clients.append(client)
        before = await last_seq(table.pk)
        answers = await _flood(clients)
        codes = Counter(answer.get("code", answer["type"]) for answer in answers)
        assert codes["too_many_commands"] == SOCKETS * CALLS_EACH - 30
        assert codes["ack"] + codes["already_called"] == 30
        assert all(
            answer["message"] == "Too many commands from you at once; wait a moment and try again."
            for answer in answers
            if answer.get("code") == "too_many_commands"
        )
        assert len(await database_sync_to_async(_calls_for)(table, 2)) == 1
        assert await last_seq(table.pk) == before + 1
        # Reads are not commands: the dealer's pages still catch up.
        assert (await clients[0].request({"type": "ping"}))["type"] == "pong"
        # Another person at the table: their command reaches the service (which answers for itself).
        connected, other, _code = await connect(table.code, user=other_user)
        assert connected
        answer = await other.request({"type": "seat", "verb": "call_variant", "variant": "muflis"})
        assert answer["code"] == "not_the_dealer"
        await asyncio.gather(*(client.close() for client in [*clients, other]))
    LIMITS.__init__()  # type: ignore[misc]
