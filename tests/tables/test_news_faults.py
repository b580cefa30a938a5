"""The news path under faults (issue 37): real sockets (the consumer through Channels'
communicator) on the real channel layer on Redis, while a table plays.

- A share of the layer's messages is lost on the way to each socket, at random (seeded).
- A group's subscription reaches Redis late, while another process writes the table's
  news (it comes through Redis, not from this process's own sends).

The bound is the protocol's own, counted in steps the test takes, never in seconds: a socket
that lost news is at the table's last seq

- after the next news of its table that reaches it (a gap is filled from the log), or
- after one sweep of its process's quiet watcher (``tables.live.quiet_tables``) once the
  table has been quiet for ``quiet_seconds``, or
- after one ``ping`` of its page;

and every socket ends at the table's last seq, each event heard once and in order (the test
client asserts no gap and no repeat). The watcher never looks by itself here (its
``quiet_seconds`` is an hour): the test sweeps, as of the moment the table has been quiet
that long. In seconds, in production, that is ``TableConsumer.quiet_seconds`` and the
watcher's period, or the page's ping period (docs/live-play.md). Both Redis layers
(DASHAIN_CHANNEL_LAYER) are put through it.
"""

from __future__ import annotations

import asyncio
import random

import pytest
import redis.asyncio
from channels.db import database_sync_to_async
from django.conf import settings as site_settings
from django.db import connections

from tables.live.consumers import TableConsumer
from tables.services import hand_act
from tests.tables.conftest import current_turn, open_table
from tests.tables.ws import TIMEOUT, Client, connect, last_seq, pick_action, users_of

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.redis]

ACTIONS = 16
#: How long a wait for something already under way may take before the test calls it a
#: hang (as the test client's reads): a guard, not the bound, which is counted in steps.
HANG = TIMEOUT


@pytest.fixture(params=["here-first", "channels-redis"])
def redis_layer(request, settings):
    if not site_settings.REDIS_URL:
        pytest.skip("needs Redis (REDIS_URL)")
    layers = dict(settings.CHANNEL_LAYERS)
    layers["default"] = {**layers["default"], "BACKEND": settings.CHANNEL_LAYER_BACKENDS[request.param]}
    settings.CHANNEL_LAYERS = layers  # Channels makes its layer again on this change
    return request.param


@pytest.fixture
def consumers(monkeypatch) -> list[TableConsumer]:
    """Every socket's consumer once it has connected. The quiet watcher is left to the test."""
    monkeypatch.setattr(TableConsumer, "quiet_seconds", 3600.0)
    made: list[TableConsumer] = []
    real = TableConsumer.connect

    async def connect_recorded(self):
        await real(self)
        made.append(self)

    monkeypatch.setattr(TableConsumer, "connect", connect_recorded)
    return made


class Dropping:
    """Loses ``share`` of the table news the layer hands each socket, at random; knows, per
    socket, the last seq of the news it was handed (delivered or lost)."""

    def __init__(self, monkeypatch, share: float, rng: random.Random) -> None:
        self.lost_seqs: dict[str, list[int]] = {}
        self.handed: dict[str, int] = {}
        self.changed = asyncio.Condition()
        real = TableConsumer.dispatch
        dropping = self

        async def dispatch(consumer, message):
            if message.get("type") != "table.events":
                await real(consumer, message)
                return
            seq = message["events"][-1]["seq"]
            if rng.random() < share:
                dropping.lost_seqs.setdefault(consumer.channel_name, []).append(seq)
            else:
                await real(consumer, message)
            async with dropping.changed:
                dropping.handed[consumer.channel_name] = seq
                dropping.changed.notify_all()

        monkeypatch.setattr(TableConsumer, "dispatch", dispatch)

    async def handed_all(self, consumers: list[TableConsumer], seq: int) -> None:
        """Until every socket was handed the news that ends at ``seq`` (and applied it or lost it)."""
        async with self.changed:
            ready = self.changed.wait_for(lambda: all(self.handed.get(c.channel_name, 0) >= seq for c in consumers))
            await asyncio.wait_for(ready, HANG)

    def lost(self, channel: str, seq: int) -> bool:
        """Whether the news that ends at ``seq`` was lost on its way to the socket of ``channel``."""
        return seq in self.lost_seqs.get(channel, [])


async def _sockets(table, seats) -> list[Client]:
    clients = []
    for user in await users_of(seats):
        connected, client, _ = await connect(table.code, user=user)
        assert connected
        clients.append(client)
    return clients


async def _read_sent(client: Client) -> None:
    """Take every frame the socket has sent so far (the test client checks their order)."""
    while not client.communicator.output_queue.empty():
        await client.read_one()


async def _sweep(consumers: list[TableConsumer], table_id: int) -> None:
    """One sweep of the process's quiet watcher, as of the moment the table has been quiet
    for ``quiet_seconds``, and the catch-ups it started, done."""
    watch = consumers[0].session.watch
    assert watch is not None and all(c.session.watch is watch for c in consumers)  # one watcher a process
    # A second past the quiet spell: ``news_at + quiet_seconds`` itself may round below it in
    # floating point (for about a quarter of the monotonic clock's values in some ranges, e.g.
    # 62,000-65,536 s of uptime), and the sweep then finds no quiet table and reads nothing.
    reads = watch.reads
    await watch.sweep(watch.news_at[table_id] + watch.quiet_seconds() + 1.0)
    assert watch.reads == reads + 1, "the sweep found the table quiet and read the log once"
    catching_up = [c.session.catching_up for c in consumers if c.session.catching_up is not None]
    await asyncio.wait_for(asyncio.gather(*catching_up), HANG)


async def _ping(client: Client) -> int:
    """One ``ping``: what the socket had missed, then its ``pong``; returns the pong's seq."""
    pong = await client.request({"type": "ping"})
    assert pong["type"] == "pong", pong
    return pong["seq"]


async def _all_at(clients: list[Client], latest: int, after: str) -> None:
    for client in clients:
        await _read_sent(client)
    behind = {client.name: client.last_seq for client in clients if client.last_seq != latest}
    assert not behind, f"behind the table's last seq {latest} after {after}: {behind}"


async def _net(step: str, clients: list[Client], consumers: list[TableConsumer], table_id: int) -> int:
    """The net under news lost on the way: one sweep of the watcher, or one ping of every
    page. Returns how many sockets were behind before it (all are at the last seq after it)."""
    latest = await last_seq(table_id)
    for client in clients:
        await _read_sent(client)
    behind = sum(1 for client in clients if client.last_seq < latest)
    if step == "sweep":
        await _sweep(consumers, table_id)
    else:
        for client in clients:
            assert await _ping(client) == latest
    await _all_at(clients, latest, f"one {step}")
    return behind


async def test_sockets_that_lose_news_at_random_catch_up_by_the_next_news_a_sweep_or_a_ping(
    monkeypatch, redis_layer, consumers
):
    rng = random.Random(37)
    dropping = Dropping(monkeypatch, 0.3, rng)
    table, seats = await database_sync_to_async(open_table)("faras", 3)
    clients = await _sockets(table, seats)
    by_channel = dict(zip([c.channel_name for c in consumers], clients, strict=True))
    players = {client.name: client for client in clients}
    caught = {"news": 0, "sweep": 0, "ping": 0}  # sockets behind that each net brought to the last seq
    played = 0
    for _ in range(ACTIONS):
        before = await last_seq(table.pk)
        behind_before = {client.name for client in clients if client.last_seq < before}
        if len(behind_before) == len(clients):  # the turn is read from a socket at the last seq
            caught["sweep"] += await _net("sweep", clients, consumers, table.pk)
            behind_before = set()
        turn = next(client for client in clients if client.last_seq == before).turn
        if turn is None or not turn.get("legal"):
            break
        verb, amount = pick_action(rng, turn["legal"])
        reply = await players[turn["player"]].request({"type": "action", "verb": verb, "amount": amount})
        assert reply["type"] == "ack", reply
        played += 1
        latest = await last_seq(table.pk)
        await dropping.handed_all(consumers, latest)
        # The next news that reaches a socket brings it to the last seq, whatever it missed before.
        reached = [client for channel, client in by_channel.items() if not dropping.lost(channel, latest)]
        await _all_at(reached, latest, "the next news")
        caught["news"] += len({client.name for client in reached} & behind_before)
        if len(reached) < len(clients):  # this news was lost to some: left to the next news, or a net now
            step = rng.choice(["news", "sweep", "ping"])
            if step != "news":
                caught[step] += await _net(step, clients, consumers, table.pk)
    caught["sweep"] += await _net("sweep", clients, consumers, table.pk)
    assert played >= 8 and sum(map(len, dropping.lost_seqs.values())) >= 3  # news was lost, and play went on
    assert all(caught.values()), caught  # each way of catching up was put to work
    for client in clients:
        await client.close()


def _late_group_subscriptions(monkeypatch, seconds: float) -> list[asyncio.Task]:
    """Every SUBSCRIBE to a group reaches Redis ``seconds`` late (redis-py's call returns at once)."""
    real = redis.asyncio.client.PubSub.subscribe
    late: list[asyncio.Task] = []

    async def subscribe(self, *names, **handlers):
        if any("__group__" in str(name) for name in names):
            late.append(asyncio.ensure_future(_after(seconds, real(self, *names, **handlers))))
            return None
        return await real(self, *names, **handlers)

    monkeypatch.setattr(redis.asyncio.client.PubSub, "subscribe", subscribe)
    return late


async def _after(seconds: float, work) -> None:
    await asyncio.sleep(seconds)
    await work


def _act_elsewhere(table, seats, rng: random.Random) -> bool:
    """The player to act plays, from a thread with no event loop of this process's sockets
    (as a Celery worker process does): its news goes through Redis. False: nobody to act."""
    try:
        player, legal = current_turn(table)
        if player is None:
            return False
        verbs = [entry.verb for entry in legal]
        verb = "chaal" if "chaal" in verbs and rng.random() < 0.8 else ("pack" if "pack" in verbs else verbs[0])
        by_name = {seat.engine_name: seat for seat in seats}
        hand_act(table_id=table.pk, seat_id=by_name[player].pk, verb=verb)
        return True
    finally:
        connections.close_all()  # this thread's connection, not left open to the test database


async def test_a_socket_whose_group_subscription_is_late_catches_up_by_a_sweep_or_a_ping(
    monkeypatch, redis_layer, consumers
):
    rng = random.Random(3737)
    late = _late_group_subscriptions(monkeypatch, 0.5)
    table, seats = await database_sync_to_async(open_table)("faras", 3, {"blind_turns": None})
    clients: list[Client] = []
    try:
        for user in await users_of(seats):
            connected, client, _ = await connect(table.code, user=user)
            assert connected
            clients.append(client)
            # News right after the socket read its snapshot, from another process: lost to
            # it while its subscription has not reached Redis (channels-redis' layer).
            assert await asyncio.to_thread(_act_elsewhere, table, seats, rng)
            await _net("ping" if len(clients) % 2 else "sweep", clients, consumers, table.pk)
        for step in ["sweep", "ping"] * 3:
            if not await asyncio.to_thread(_act_elsewhere, table, seats, rng):
                break
            await _net(step, clients, consumers, table.pk)
        await _net("sweep", clients, consumers, table.pk)
    finally:
        await asyncio.gather(*late)
        for client in clients:
            await client.close()
