"""WebSocket clients for tests: the real ASGI app through Channels' communicator.

A :class:`Client` keeps every frame it received, the seq it is at, the latest
``turn`` event, its acks and errors. :func:`play_random_hands` drives scripted
players from what their sockets tell them (never from the database).
"""

from __future__ import annotations

import random
import re
from typing import Any

from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY
from django.contrib.sessions.backends.db import SessionStore

from config.asgi import application
from tables.guests import GUEST_TOKEN_SESSION_KEY
from tables.models import Table

CARD = re.compile(r"^(?:[2-9TJQKA]|10)[shdc]$")
TIMEOUT = 10


def _session_cookie(user: Any = None, guest_token: str | None = None) -> str:
    session = SessionStore()
    if user is not None:
        session[SESSION_KEY] = str(user.pk)
        session[BACKEND_SESSION_KEY] = "django.contrib.auth.backends.ModelBackend"
        session[HASH_SESSION_KEY] = user.get_session_auth_hash()
    if guest_token is not None:
        session[GUEST_TOKEN_SESSION_KEY] = guest_token
    session.save()
    return session.session_key


class Client:
    def __init__(self, communicator: WebsocketCommunicator, name: str) -> None:
        self.communicator = communicator
        self.name = name  # the seat id as a string, or a label for tests
        self.frames: list[dict[str, Any]] = []
        self.snapshots: list[dict[str, Any]] = []
        self.screens: list[dict[str, Any]] = []  # the screens pushed with events frames, in order
        self.replies: list[dict[str, Any]] = []
        self.last_seq = 0
        self.turn: dict[str, Any] | None = None
        self.seat_id: int | None = None
        self.next_id = 0
        self.session_key: str | None = None

    async def read_one(self, timeout: float = TIMEOUT) -> dict[str, Any]:
        # A read that times out ends the application (asgiref cancels it): wait long enough.
        frame = await self.communicator.receive_json_from(timeout=timeout)
        self.frames.append(frame)
        kind = frame.get("type")
        if kind == "snapshot":
            self.snapshots.append(frame)
            self.last_seq = frame["seq"]
            self.seat_id = frame["you"]
            hand = frame.get("hand")
            self.turn = hand["turn"] if hand else None
        elif kind == "events":
            for event in frame["events"]:
                assert event["seq"] == self.last_seq + 1, f"gap or repeat: {event['seq']} after {self.last_seq}"
                self.last_seq = event["seq"]
                if event.get("kind") == "turn":
                    self.turn = event["data"]
                elif event.get("kind") in ("hand_ended", "hand_void", "game_ended"):
                    self.turn = None
            if "screen" in frame:
                assert frame["screen"]["seq"] == self.last_seq, "a screen is exact at its frame's last seq"
                self.screens.append(frame["screen"])
        if kind not in ("snapshot", "events") or "id" in frame:
            self.replies.append(frame)
        return frame

    async def catch_up(self, seq: int) -> None:
        while self.last_seq < seq:
            await self.read_one()

    async def snapshot_now(self) -> dict[str, Any]:
        """Ask for a fresh snapshot (as the page does after a long gap) and read until it comes."""
        count = len(self.snapshots)
        await self.send({"type": "snapshot"})
        while len(self.snapshots) == count:
            await self.read_one()
        return self.snapshots[-1]

    async def send(self, message: dict[str, Any]) -> None:
        await self.communicator.send_json_to(message)

    async def request(self, message: dict[str, Any]) -> dict[str, Any]:
        """Send with a fresh id and read until its ack or error."""
        self.next_id += 1
        message = {**message, "id": message.get("id", f"r{self.next_id}")}
        await self.send(message)
        return await self.reply_to(message["id"])

    async def reply_to(self, request_id: Any) -> dict[str, Any]:
        for reply in self.replies:
            if reply.get("id") == request_id:
                self.replies.remove(reply)
                return reply
        while True:
            frame = await self.read_one()
            if frame.get("id") == request_id:
                self.replies.remove(frame)
                return frame

    async def close(self) -> None:
        await self.communicator.disconnect()


async def connect(
    code: str, *, user: Any = None, guest_token: str | None = None, origin: bytes = b"http://localhost"
) -> tuple[bool, Client, Any]:
    """Open a socket as ``user`` or a guest; returns (accepted, client, close code)."""
    session_key = await database_sync_to_async(_session_cookie)(user, guest_token)
    headers = [(b"origin", origin), (b"cookie", f"sessionid={session_key}".encode()), (b"host", b"localhost")]
    communicator = WebsocketCommunicator(application, f"/ws/table/{code}/", headers=headers)
    connected, close_code = await communicator.connect(timeout=TIMEOUT)
    client = Client(communicator, "?")
    client.session_key = session_key
    if connected:
        await client.read_one()  # the snapshot
        client.name = str(client.seat_id)
    return connected, client, close_code


async def last_seq(table_id: int) -> int:
    return await database_sync_to_async(lambda: Table.objects.get(pk=table_id).last_seq)()


async def sync_all(table_id: int, clients: list[Client]) -> int:
    seq = await last_seq(table_id)
    for client in clients:
        await client.catch_up(seq)
    return seq


def pick_action(rng: random.Random, legal: list[dict[str, Any]]) -> tuple[str, int | None]:
    verbs = [entry["verb"] for entry in legal]
    if "accept" in verbs and rng.random() < 0.8:
        return "accept", None  # sideshows mostly accepted, so their results get checked too
    if "sideshow" in verbs and rng.random() < 0.3:
        return "sideshow", None
    choice = rng.choice(legal)
    amount = None
    if "min" in choice and "max" in choice:
        amount = rng.choice([choice["min"], choice["max"]])
    elif "min" in choice:
        amount = choice["min"]
    return choice["verb"], amount


async def play_random_hands(
    table_id: int,
    players: dict[str, Client],
    watchers: list[Client],
    rng: random.Random,
    *,
    max_actions: int,
    see_out_of_turn: bool = True,
    on_idle: Any = None,
    on_action: Any = None,
) -> int:
    """Scripted players act from their sockets' turn events; returns actions played.

    ``on_idle`` is awaited when no one is to act (it returns whether play can go on);
    ``on_action`` after each action, once every socket has caught up."""
    everyone = list(players.values()) + watchers
    played = 0
    for _ in range(max_actions):
        await sync_all(table_id, everyone)
        turn = watchers[0].turn if watchers else next(iter(players.values())).turn
        if turn is None or not turn.get("legal"):
            if on_idle is not None and await on_idle():
                continue
            break
        if see_out_of_turn and rng.random() < 0.15:
            other = rng.choice(list(players.values()))
            if other.name != turn["player"]:
                await other.request({"type": "see"})  # may be refused (already seen / not in hand)
                continue
        actor = players[turn["player"]]
        legal = [entry for entry in turn["legal"] if entry["verb"] != "see" or rng.random() < 0.5] or turn["legal"]
        verb, amount = pick_action(rng, legal)
        reply = await actor.request({"type": "action", "verb": verb, "amount": amount})
        assert reply["type"] == "ack", reply
        played += 1
        if on_action is not None:
            await sync_all(table_id, everyone)
            await on_action()
    await sync_all(table_id, everyone)
    return played


async def users_of(seats: list[Any]) -> list[Any]:
    """The user of each seat, loaded outside the event loop."""
    from tables.models import Seat

    return await database_sync_to_async(
        lambda: [Seat.objects.select_related("user").get(pk=s.pk).user for s in seats]
    )()
