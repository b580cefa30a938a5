"""One scripted player of ``benchmarks/live_load.py``: its socket, the frames its page
sends (:mod:`benchmarks.page_clients`), its moves, and the counters all players share."""

from __future__ import annotations

import asyncio
import json
import random
import time
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, TypedDict

from benchmarks.page_clients import Frame, PullingPage, PushedPage

if TYPE_CHECKING:
    from websockets.asyncio.client import ClientConnection


class Table(TypedDict):
    """A table opened for the run: its id, its code (in the socket's URL), a session cookie a player."""

    id: int
    code: str
    cookies: list[str]


#: An action's key: (table id, the seq its ack gave it).
ActionKey = tuple[int, int]


@dataclass
class Counters:
    """What every player of a run shares: the counters they add to and the run's switches."""

    expected: int  # sockets to connect before play starts
    think: float  # mean seconds a player waits before acting (0: none)
    stop: asyncio.Event  # set when the measuring window closes
    # A few handshakes at a time, as people arrive.
    connecting: asyncio.Semaphore = field(default_factory=lambda: asyncio.Semaphore(8))
    connected: int = 0
    sent: dict[ActionKey, float] = field(default_factory=dict)  # when each acknowledged action was sent
    heard: dict[ActionKey, list[float]] = field(default_factory=dict)  # when each screen showed it
    actions: int = 0  # acknowledged
    offered: int = 0  # sent
    errors: int = 0  # refused
    bytes: int = 0  # received, all sockets together


class Player:
    """One scripted player's socket, sending the frames its page would send.

    ``client`` is ``page`` (:class:`PushedPage`, what the page sends now), ``pull``
    (:class:`PullingPage`, what it sent before views were pushed) or ``bare`` (acts on the
    ``turn`` event and asks for nothing: the old benchmark). A player's screen is up to date
    with an action when the frame that brings it arrives: the events frame with the screen
    (``page``), the snapshot at or after its seq (``pull``), the events frame (``bare``).
    """

    def __init__(self, table: Table, index: int, url: str, stats: Counters, rng: random.Random, client: str) -> None:
        self.table, self.index, self.url, self.stats, self.rng = table, index, url, stats, rng
        self.client = client
        self.page: PushedPage | PullingPage | None = (
            PushedPage() if client == "page" else PullingPage() if client == "pull" else None
        )
        self.me: str | None = None
        self.next_id = 0
        # A player acts once per turn: not while an action of theirs is on its way, and then
        # only on a screen newer than its ack (a person does not click the same turn twice).
        self.busy = False
        self.acted_seq = 0
        self.pending: dict[str, float] = {}  # request id -> send time, until its ack gives the seq
        self.moves: set[asyncio.Future[None]] = set()  # moves waiting out their think time

    async def run(self, connected: asyncio.Event, go: asyncio.Event, stop: asyncio.Event) -> None:
        import websockets

        # The page's own origin, scheme, host and port (config/origin.py checks all three).
        origin = "http://" + self.url.split("://", 1)[1].split("/", 1)[0]
        headers = {"Cookie": f"sessionid={self.table['cookies'][self.index]}", "Origin": origin}
        async with self.stats.connecting:  # a few handshakes at a time, as people arrive
            # No WebSocket pings of its own (the websockets package sends one every 20 s by
            # default): a browser never sends them, it only answers the server's (daphne
            # pings each socket every 20 s, and those pongs are part of the load).
            socket = await websockets.connect(self.url, additional_headers=headers, max_size=2**22, ping_interval=None)
            snapshot = json.loads(await socket.recv())
        async with socket:
            self.me = str(snapshot["you"])
            # What the page sends when it opens (the log in words) is sent and answered while
            # the players connect, before the measuring window: the window holds play only.
            first = None if self.page is None else self.page.on_frame(snapshot)
            early: list[str | bytes] = []
            if first is not None:
                for message in first[0]:
                    await socket.send(json.dumps(message))
                while first[0]:
                    raw = await socket.recv()
                    if json.loads(raw).get("id") == "hand-log":
                        break
                    early.append(raw)
                first = ([], first[1], first[2])
            self.stats.connected += 1
            if self.stats.connected == self.stats.expected:
                connected.set()
            await go.wait()
            heartbeat = (
                asyncio.ensure_future(self.heartbeat(socket, self.page, stop))
                if isinstance(self.page, PushedPage)
                else None
            )
            await self.on_frame(socket, snapshot, time.perf_counter(), 0, first)
            for raw in early:
                await self.on_frame(socket, json.loads(raw), time.perf_counter(), len(raw))
            while not stop.is_set():
                try:
                    raw = await asyncio.wait_for(socket.recv(), timeout=1)
                except TimeoutError:
                    continue
                now = time.perf_counter()
                await self.on_frame(socket, json.loads(raw), now, len(raw))
            if heartbeat is not None:
                heartbeat.cancel()

    async def heartbeat(self, socket: ClientConnection, page: PushedPage, stop: asyncio.Event) -> None:
        beats = 0
        while not stop.is_set():
            await asyncio.sleep(PushedPage.HEARTBEAT_SECONDS)
            if not stop.is_set():
                # As connection.js: a full ping every 25 s from the socket's opening, a beat in between.
                beats += 1
                kind = "ping" if beats % PushedPage.BEATS_PER_PING == 0 else "beat"
                await socket.send(json.dumps(page.ping(kind)))

    async def on_frame(
        self,
        socket: ClientConnection,
        frame: Frame,
        now: float,
        size: int,
        read: tuple[list[Frame], list[int], bool] | None = None,
    ) -> None:
        """Handle one frame; ``read`` is what the page already made of it (the first snapshot)."""
        stats = self.stats
        stats.bytes += size
        kind = frame.get("type")
        if kind == "ack":
            stats.sent[(self.table["id"], frame["seq"])] = self.pending.pop(frame["id"])
            stats.actions += 1
            self.busy, self.acted_seq = False, max(self.acted_seq, frame["seq"])
            return
        if kind == "error":
            stats.errors += 1
            if self.pending.pop(str(frame.get("id")), None) is not None:
                self.busy = False
            return
        shown: list[int] = []
        legal: list[Frame] | None = None
        turn_seq = 0
        if self.page is not None:
            out, shown, may_act = read if read is not None else self.page.on_frame(frame)
            for message in out:
                await socket.send(json.dumps(message))
            if may_act:
                legal, turn_seq = self.page.legal, self.page.view_seq
        elif kind == "events":
            for event in frame["events"]:
                shown.append(event["seq"])
                if event.get("kind") == "turn" and event["data"]["player"] == self.me:
                    legal, turn_seq = event["data"]["legal"], event["seq"]
                elif event.get("kind") == "turn":
                    legal = None
        elif kind == "snapshot":
            turn = (frame.get("hand") or {}).get("turn")
            if turn and turn["player"] == self.me:
                legal, turn_seq = turn["legal"], frame["seq"]
        for seq in shown:
            # When each player's screen showed it; matched with the action's send time at the
            # end (the news may reach a player before the actor's ack does).
            stats.heard.setdefault((self.table["id"], seq), []).append(now)
        if legal and not self.busy and turn_seq > self.acted_seq and not stats.stop.is_set():
            self.busy = True
            if stats.think:
                # The first move waits its think time too: without it every table acts at the
                # same instant and the start's burst, not the steady load, makes the tail.
                asyncio.get_running_loop().call_later(
                    self.rng.uniform(0, 2 * stats.think), self._act_soon, socket, legal
                )
            else:
                await self.act(socket, legal)

    def _act_soon(self, socket: ClientConnection, legal: list[Frame]) -> None:
        move = asyncio.ensure_future(self.act(socket, legal))
        self.moves.add(move)  # held until done: the loop keeps only a weak reference to a task
        move.add_done_callback(self.moves.discard)

    async def act(self, socket: ClientConnection, legal: list[Frame]) -> None:
        if self.stats.stop.is_set():
            self.busy = False
            return
        verbs = [entry["verb"] for entry in legal]
        roll = self.rng.random()
        if "pack" in verbs and roll < 0.12:
            verb = "pack"
        elif "show" in verbs and roll < 0.3:
            verb = "show"
        elif "chaal" in verbs:
            verb = "chaal"
        else:
            verb = self.rng.choice([v for v in verbs if v not in ("raise", "see")] or verbs)
        self.next_id += 1
        request_id = f"{self.index}-{self.next_id}"
        amount = next(entry["min"] for entry in legal if entry["verb"] == "raise") if verb == "raise" else None
        frame = PushedPage.action(verb, amount, request_id)
        self.pending[request_id] = time.perf_counter()
        try:
            await socket.send(json.dumps(frame))
            self.stats.offered += 1
        except Exception:  # the run ended and the socket closed while this player was thinking
            self.pending.pop(request_id, None)
            self.busy = False
