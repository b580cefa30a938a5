"""The event loop's CPU per socket for delivering pushed news, in one process, no sockets.

Plays random Faras actions at one table of four through the services (PostgreSQL or
SQLite, whatever DATABASE_URL says), keeps every message the writers broadcast, packs and
unpacks each as channels-redis does (msgpack), then hands every message to four
``TableConsumer`` instances (one per seat) whose ``send`` goes nowhere, and reports the
CPU time (``time.process_time``, which other work on a busy machine hardly moves):

- the layer's pack and unpack per message, and the message's size;
- delivering one message to one socket: the consumer's dispatch, its filter and the
  frame's JSON, down to the ASGI ``send`` (daphne's and the network's share is not in it).

    DATABASE_URL=... .venv/bin/python benchmarks/news_fanout.py [--actions 300]

Run it in two checkouts to compare them: the figures are per message, so they compare.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def _play(actions: int) -> tuple[list[dict[str, Any]], list[Any], int]:
    """(the messages broadcast, the seats, the table id) over random play at a new table."""
    from django.contrib.auth import get_user_model

    from benchmarks.seated import seated_table
    from engine.games import get_game
    from tables import selectors
    from tables.messages import EventFrame, NewsScreen
    from tables.models import Table
    from tables.services import hand_act, log

    sent: list[dict[str, Any]] = []

    def keep(group: str, frames: list[EventFrame], screen: NewsScreen | None = None) -> None:
        message: dict[str, Any] = {"type": "table.events", "events": frames}
        if screen is not None:
            message["screen"] = screen
        sent.append(message)

    log.broadcast = keep  # type: ignore[attr-defined]  # the log's own name for tables.broadcast.broadcast: kept here
    user_model = get_user_model()
    stamp = f"{time.time()}-{random.randrange(10**6)}"
    users = [user_model.objects.create_user(username=f"fanout-{stamp}-{i}") for i in range(4)]
    table, seats = seated_table(users, "faras", {"buy_in_chips": 10_000_000, "boot": 10})
    sent.clear()
    rng = random.Random(1)
    game = get_game("faras")
    for _ in range(actions):
        table = Table.objects.get(pk=table.pk)
        hand = selectors.hand_live(table=table)
        if hand is None:
            break
        state, _seq = selectors.hand_state(table=table, hand=hand)
        player = game.to_act(state)
        if player is None:
            break
        legal = [entry for entry in game.legal_actions(state, player) if entry.verb in ("chaal", "pack", "show")]
        verb = rng.choice([entry.verb for entry in legal])
        seat = next(seat for seat in seats if seat.engine_name == str(player))
        hand_act(table_id=table.pk, seat_id=seat.pk, verb=verb, amount=None)
    return sent, seats, table.pk


async def _deliver(messages: list[dict[str, Any]], seats: list[Any], table_id: int, repeats: int) -> tuple[float, int]:
    """Best CPU seconds of ``repeats`` rounds of every message to every seat's consumer; frames sent."""
    from tables.live.consumers import TableConsumer
    from tables.live.session import TableSession

    frames: list[dict[str, Any]] = []

    async def send(message: dict[str, Any]) -> None:
        frames.append(message)

    consumers = []
    sessions = []
    for seat in seats:
        consumer = TableConsumer()
        consumer.scope = {"type": "websocket"}
        consumer.language = "en"
        session = TableSession(  # no quiet-table watcher here
            consumer, table_id=table_id, seat_id=seat.pk, group="", is_host=False, phone=None, holder_token=None
        )
        consumer.session = session
        consumer.base_send = send
        consumers.append(consumer)
        sessions.append(session)
    best = float("inf")
    for _ in range(repeats):
        for session in sessions:
            session.last_seq = messages[0]["events"][0]["seq"] - 1
        frames.clear()
        started = time.process_time()
        for message in messages:
            for consumer in consumers:
                await consumer.dispatch(message)
        best = min(best, time.process_time() - started)
    return best, len(frames)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--actions", type=int, default=300)
    parser.add_argument("--repeats", type=int, default=5)
    args = parser.parse_args()
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    os.environ["DASHAIN_NEXT_HAND_DELAY"] = "0"
    os.environ["DASHAIN_INPROCESS_WORKER"] = "false"
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0)
    import msgpack  # type: ignore[import-untyped]  # no type hints

    messages, seats, table_id = _play(args.actions)
    started = time.process_time()
    packed = [msgpack.packb(message) for message in messages]
    packing = time.process_time() - started
    started = time.process_time()
    decoded = [msgpack.unpackb(data) for data in packed]
    unpacking = time.process_time() - started
    count = len(messages)
    print(
        f"{count} messages: layer pack {1e6 * packing / count:.0f} us, unpack {1e6 * unpacking / count:.0f} us, "
        f"{sum(map(len, packed)) / count:.0f} bytes a message"
    )
    seconds, frames = asyncio.run(_deliver(decoded, seats, table_id, args.repeats))
    print(f"delivery: {1e6 * seconds / (count * len(seats)):.1f} us of CPU per socket per message ({frames} frames)")


if __name__ == "__main__":
    main()
