"""The process's one watcher of quiet tables (``tables.live.quiet_tables``).

Rule pinned: the latest seq of every quiet table is read in one query per tick, whatever
the number of sockets; only the sockets that are behind are told; news keeps a table
off the list; the watcher stops when its last socket leaves.
"""

from __future__ import annotations

import asyncio

from tables.live.quiet_tables import TableWatch


class FakeSocket:
    def __init__(self, last_seq: int) -> None:
        self.last_seq = last_seq
        self.told: list[int] = []

    def behind(self, latest: int) -> None:
        self.told.append(latest)


async def test_many_sockets_of_many_quiet_tables_cost_one_read_per_tick():
    reads: list[list[int]] = []

    async def latest_seqs(table_ids: list[int]) -> dict[int, int]:
        reads.append(sorted(table_ids))
        return {1: 10, 2: 7}

    watch = TableWatch(latest_seqs=latest_seqs, quiet_seconds=lambda: 0.2)
    up_to_date = [FakeSocket(10) for _ in range(200)]
    behind = [FakeSocket(9) for _ in range(3)]
    other = [FakeSocket(7) for _ in range(200)]
    for socket in up_to_date + behind:
        watch.join(1, socket)
    for socket in other:
        watch.join(2, socket)
    await asyncio.sleep(0.45)
    assert reads and reads[0] == [1, 2]  # both tables in one read, not one per socket
    assert len(reads) <= 3
    assert all(socket.told == [] for socket in up_to_date + other)
    assert all(socket.told and socket.told[0] == 10 for socket in behind)
    for socket in up_to_date + behind:
        watch.leave(1, socket)
    for socket in other:
        watch.leave(2, socket)
    await asyncio.sleep(0.3)
    assert watch.task is not None and watch.task.done()  # no socket left: the watcher stopped


async def test_a_table_with_news_is_not_read():
    reads: list[list[int]] = []

    async def latest_seqs(table_ids: list[int]) -> dict[int, int]:
        reads.append(sorted(table_ids))
        return dict.fromkeys(table_ids, 0)

    watch = TableWatch(latest_seqs=latest_seqs, quiet_seconds=lambda: 0.3)
    chatty, quiet = FakeSocket(0), FakeSocket(0)
    watch.join(1, chatty)
    watch.join(2, quiet)
    for _ in range(8):
        watch.heard(1)
        await asyncio.sleep(0.1)
    assert reads and all(ids == [2] for ids in reads)
    watch.leave(1, chatty)
    watch.leave(2, quiet)
    await asyncio.sleep(0.3)


async def test_a_failed_read_is_tried_again_later():
    attempts = 0

    async def latest_seqs(table_ids: list[int]) -> dict[int, int]:
        nonlocal attempts
        attempts += 1
        if attempts == 1:
            raise ConnectionError("the database is away")
        return {1: 5}

    watch = TableWatch(latest_seqs=latest_seqs, quiet_seconds=lambda: 0.1)
    socket = FakeSocket(4)
    watch.join(1, socket)
    await asyncio.sleep(0.5)
    assert attempts >= 2 and socket.told and socket.told[0] == 5
    watch.leave(1, socket)
    await asyncio.sleep(0.2)


async def test_pings_of_one_moment_share_one_read():
    """400 sockets' pings at once (pages that opened together) cost two reads, not 400: the
    first ask starts a read, every ask made before that read begins shares it, and the asks
    made while it runs share the next one."""
    reads: list[list[int]] = []
    gate = asyncio.Event()

    async def latest_seqs(table_ids: list[int]) -> dict[int, int]:
        reads.append(sorted(table_ids))
        await gate.wait()
        return {table_id: 100 + table_id for table_id in table_ids}

    watch = TableWatch(latest_seqs=latest_seqs, quiet_seconds=lambda: 60.0)
    first = [asyncio.ensure_future(watch.latest(table_id % 100)) for table_id in range(400)]
    await asyncio.sleep(0)  # the read has begun
    later = [asyncio.ensure_future(watch.latest(7)), asyncio.ensure_future(watch.latest(500))]
    await asyncio.sleep(0)
    assert reads == [list(range(100))]
    gate.set()
    answers = await asyncio.gather(*first, *later)
    assert answers == [100 + table_id % 100 for table_id in range(400)] + [107, 600]
    assert reads == [list(range(100)), [7, 500]]  # the later asks were read after they were made


async def test_a_failed_ping_read_is_each_askers_error_and_a_closed_socket_cancels_only_its_own():
    attempts = 0

    async def latest_seqs(table_ids: list[int]) -> dict[int, int]:
        nonlocal attempts
        attempts += 1
        await asyncio.sleep(0)
        if attempts == 1:
            raise ConnectionError("the database is away")
        return dict.fromkeys(table_ids, 9)

    watch = TableWatch(latest_seqs=latest_seqs, quiet_seconds=lambda: 60.0)
    asks = [asyncio.ensure_future(watch.latest(1)) for _ in range(3)]
    results = await asyncio.gather(*asks, return_exceptions=True)
    assert all(isinstance(result, ConnectionError) for result in results)
    leaving, staying = asyncio.ensure_future(watch.latest(1)), asyncio.ensure_future(watch.latest(1))
    await asyncio.sleep(0)
    leaving.cancel()
    assert await staying == 9
    assert leaving.cancelled()
