"""What the tests of moves played away from the socket's process check (tests/tables/
test_move_workers.py): a table's state a refusal must leave as it was, chips kept, the log
whole, the events of one client action id, and the refusals every path must give alike."""

from __future__ import annotations

import asyncio
from typing import Any

from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator

from config.asgi import application
from tables import selectors
from tables.models import Event, Seat, Table
from tests.tables.ws import Client, _session_cookie, sync_all

WAIT = 60  # seconds any one step may take on a busy machine before the test fails


def _not_here(**kwargs: Any) -> int:
    raise AssertionError(f"hand_act ran in the web process, not in a worker: {kwargs}")


def table_state(table_id: int) -> dict[str, Any]:
    """What a refused action must leave as it was."""
    table = Table.objects.get(pk=table_id)
    return {
        "last_seq": table.last_seq,
        "events": Event.objects.filter(table=table).count(),
        "stacks": dict(Seat.objects.filter(table=table).values_list("pk", "stack")),
    }


def chips_kept(table_id: int) -> tuple[int, int]:
    """(chips bought, chips in seats and the live hand): equal when no chip was created or lost."""
    table = Table.objects.get(pk=table_id)
    seats = list(Seat.objects.filter(table=table))
    bought = sum(seat.buy_ins for seat in seats) * table.buy_in_chips
    hand = selectors.hand_live(table=table)
    if hand is None:
        return bought, sum(seat.stack for seat in seats)
    state, _seq = selectors.hand_state(table=table, hand=hand)
    dealt = {str(name) for name, _stack in hand.plan["players"]}
    outside = sum(seat.stack for seat in seats if seat.engine_name not in dealt)
    return bought, outside + sum(state.stacks) + state.pot  # a Teen Patti hand: stacks and pot


def events_with_id(table_id: int, client_action_id: str) -> list[int]:
    return list(
        Event.objects.filter(table_id=table_id, client_action_id=client_action_id).values_list("seq", flat=True)
    )


def whole_log(table_id: int) -> bool:
    table = Table.objects.get(pk=table_id)
    seqs = list(Event.objects.filter(table=table).order_by("seq").values_list("seq", flat=True))
    return seqs == list(range(1, table.last_seq + 1))


async def turn_now(table_id: int, clients: list[Client]) -> dict[str, Any]:
    await sync_all(table_id, clients)
    turn = clients[0].turn
    assert turn and turn.get("legal"), turn
    return turn


async def connect_in_nepali(code: str, user: Any) -> Client:
    """Another socket of ``user``, whose browser asks for Nepali."""
    session_key = await database_sync_to_async(_session_cookie)(user, None)
    headers = [
        (b"origin", b"http://localhost"),
        (b"cookie", f"sessionid={session_key}".encode()),
        (b"host", b"localhost"),
        (b"accept-language", b"ne"),
    ]
    communicator = WebsocketCommunicator(application, f"/ws/table/{code}/", headers=headers)
    connected, _code = await communicator.connect(timeout=WAIT)
    assert connected
    client = Client(communicator, "ne")
    await client.read_one()  # the snapshot
    return client


async def refusals(
    clients: dict[str, Client], watchers: list[Client], nepali: Client, turn: dict[str, Any], tag: str
) -> list:
    """Refused actions of every kind, the frames that came back (their ids left out)."""
    actor = clients[turn["player"]]
    other = next(client for name, client in clients.items() if name != turn["player"])
    verb = next(entry["verb"] for entry in turn["legal"] if entry["verb"] != "see")  # "see" is allowed out of turn
    sent = [
        (other, {"verb": verb}),  # out of turn
        (actor, {"verb": verb, "amount": "ten"}),  # an amount that is no number
        (actor, {"verb": verb, "amount": -5}),  # a negative amount
        (actor, {"verb": "chaal", "amount": 10**8}),  # more chips than anyone has
        (actor, {"verb": "steal"}),  # no such action
        (nepali, {"verb": verb, "amount": -5}),  # the refusal in the player's language
        (watchers[0], {"verb": verb}),  # a guest watching: no seat in the hand
        (watchers[1], {"verb": verb}),  # a member watching
    ]
    frames = []
    for index, (client, message) in enumerate(sent):
        reply = await asyncio.wait_for(
            client.request({"type": "action", "id": f"{tag}-{index}", **message}), timeout=WAIT
        )
        assert reply["type"] == "error", reply
        frames.append({key: value for key, value in reply.items() if key != "id"})
    return frames
