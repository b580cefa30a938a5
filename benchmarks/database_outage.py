"""What players see when PostgreSQL stops for a few seconds, and how soon the table is back.

Runs the site as deployed (``DEBUG=false``: daphne, a Celery worker sweeping every second,
Redis, PostgreSQL with its connection pool) on servers of its own (the fault tests'
harness, ``tests/tables/faults.py`` and ``tests/tables/private_postgres.py``), and for each
run, on a fresh two-player table:

1. stops PostgreSQL (``pg_ctl stop -m fast``) during a turn; the player to act chaals, and
   a new socket connects: the seconds until each is answered (``unavailable``; 4503);
2. after ``--outage`` seconds starts it again; the seconds from its being back (``pg_ctl
   start`` returned) until the same move, resent with its id, is acknowledged, and until a
   new socket has its snapshot;
3. the hand ends, PostgreSQL stops for ``--outage`` seconds while the pause runs out; the
   seconds from its being back until the next hand is dealt (the log's time).

    python -m benchmarks.database_outage --runs 4 --outage 5

Prints one line per run and the median and worst of each number. docs/operations.md ("The
database stopped") quotes a run of it.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import shutil
import statistics
import tempfile
import time
from pathlib import Path

from tests.tables.faults import Player, Site, players_at, wait_until
from tests.tables.private_postgres import PrivatePostgres
from tests.tables.test_clock_faults import _act, _events, _heard_by_all, _start, on_turn


async def one_run(site: Site, database: PrivatePostgres, outage: float, run: int) -> dict[str, float]:
    table = site.open_table("faras", 2, {"turn_timer": 60, "hand_pause": 3})
    players = await players_at(site, table)
    out: dict[str, float] = {}
    try:
        await _start(site, players)
        for _ in range(4):
            await asyncio.gather(*(player.request({"type": "ping"}) for player in players))
        actor = on_turn(players)
        database.stop("fast")
        stopped = time.monotonic()
        started = time.monotonic()
        reply = await _act(actor, "chaal", f"c{run}")
        assert reply is not None and reply.get("code") == "unavailable", reply
        out["move_told_s"] = time.monotonic() - started
        late = Player(site, table["code"], site.sessions()["host"], table["seats"][0])
        started = time.monotonic()
        task = asyncio.ensure_future(late._run())
        assert await wait_until(lambda: 4503 in late.closes, 10) is not None, late.closes
        out["connect_told_s"] = time.monotonic() - started
        task.cancel()
        await asyncio.sleep(max(0.0, outage - (time.monotonic() - stopped)))
        database.start()
        back = time.monotonic()
        reply = await _act(actor, "chaal", f"c{run}")
        assert reply is not None and reply["type"] == "ack", reply
        out["move_played_after_s"] = time.monotonic() - back
        fresh = Player(site, table["code"], site.sessions()["bina"], table["seats"][1])
        await fresh.start()
        out["connect_after_s"] = time.monotonic() - back
        await fresh.stop()
        packer = on_turn(players)
        reply = await _act(packer, "pack", f"p{run}")
        assert reply is not None and reply["type"] == "ack", reply
        assert await _heard_by_all(players, "hand_ended", number=1, timeout=5)
        database.stop("fast")
        await asyncio.sleep(outage)
        database.start()
        back_at = time.time()
        assert await _heard_by_all(players, "hand_started", number=2, timeout=30)
        dealt = next(e for e in _events(site.check(table["code"]), "hand_started") if e["data"].get("number") == 2)
        out["deal_after_s"] = dealt["at"] - back_at
        out["deal_heard_after_s"] = max(max(p.heard_at.values()) for p in players) - back_at
        assert all(1011 not in player.closes and not player.statuses for player in [*players, late, fresh])
        return out
    finally:
        for player in players:
            await player.stop()


async def main(runs: int, outage: float) -> None:
    database = PrivatePostgres()
    workdir = Path(tempfile.mkdtemp(prefix="dashain-outage-bench-"))
    site = Site(workdir, database_url="", with_redis=True)
    try:
        database.start()
        database.create_database("dashain_outage")
        site.env.update(
            DATABASE_URL=database.url("dashain_outage"),
            DEBUG="false",
            DASHAIN_REDIS_WITHOUT_PASSWORD="true",
        )
        site.start_redis()
        site.run("prepare", str(workdir))
        site.web_env["DASHAIN_CLOCK_SWEEP_SECONDS"] = "0"
        site.start_worker()
        site.start_web()
        rows = []
        for run in range(1, runs + 1):
            row = await one_run(site, database, outage, run)
            rows.append(row)
            print(json.dumps({"run": run, **{k: round(v, 2) for k, v in row.items()}}))
        for key in rows[0]:
            values = [row[key] for row in rows]
            print(f"{key:22} median {statistics.median(values):5.2f} s   worst {max(values):5.2f} s")
    finally:
        site.stop_all()
        database.destroy()
        shutil.rmtree(workdir, ignore_errors=True)


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=4)
    parser.add_argument("--outage", type=float, default=5.0, help="seconds PostgreSQL stays stopped")
    arguments = parser.parse_args()
    asyncio.run(main(arguments.runs, arguments.outage))
