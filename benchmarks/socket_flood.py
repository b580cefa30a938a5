"""One person's flood of sockets against another table's latency (issue 24), under daphne.

    .venv/bin/python -m benchmarks.socket_flood [--sockets 200] [--snapshots 20]

The attack of issue 24: one signed-up user opens ``--sockets`` sockets to their own table and
sends ``--snapshots`` snapshot requests on each (within each socket's own burst). Meanwhile a
player at another table opens a socket (its handshake and first snapshot are timed) and
makes a move (the time to its ack is timed), and the time for the flood's answers to drain is
noted. It runs twice on a fresh SQLite database under one daphne (the README's default
setup): with the site's limits per person and per address (``tables/live/socket_limits.py``), and
with them lifted (``DASHAIN_SOCKETS_PER_*`` and ``DASHAIN_READS_PER_*`` set huge), and prints
the numbers of each and their ratios. Nothing is asserted: speed is read, not tested.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from benchmarks.ports import wait_for_ports

ROOT = Path(__file__).resolve().parents[1]
LIFTED = {
    "DASHAIN_SOCKETS_PER_PERSON": "1000000",
    "DASHAIN_SOCKETS_PER_ADDRESS": "1000000",
    "DASHAIN_READS_PER_PERSON_BURST": "1000000",
    "DASHAIN_READS_PER_PERSON_RATE": "1000000",
    "DASHAIN_READS_PER_ADDRESS_BURST": "1000000",
    "DASHAIN_READS_PER_ADDRESS_RATE": "1000000",
}


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


def _prepare() -> dict[str, Any]:
    """Two tables with a hand live: the flooder's and the victim's; a session cookie for each."""
    os.environ["DJANGO_SETTINGS_MODULE"] = "config.settings"
    import django

    django.setup()
    from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY, get_user_model
    from django.contrib.sessions.backends.db import SessionStore
    from django.core.management import call_command

    from tables.models import Seat
    from tables.services import seat_take, table_create, table_join, table_start

    call_command("migrate", verbosity=0)
    users = get_user_model().objects

    def cookie(user: Any) -> str:
        session = SessionStore()
        session[SESSION_KEY] = str(user.pk)
        session[BACKEND_SESSION_KEY] = "django.contrib.auth.backends.ModelBackend"
        session[HASH_SESSION_KEY] = user.get_session_auth_hash()
        session.save()
        return str(session.session_key)

    out: dict[str, Any] = {}
    for name in ("flood", "victim"):
        host, other = users.create_user(f"{name}-host"), users.create_user(f"{name}-other")
        table = table_create(host=host, game="faras", choices={})
        seats = [
            Seat.objects.get(table=table, user=host),
            table_join(code=table.code, invite_token=table.invite_token, user=other),
        ]
        for seat in seats:
            seat_take(table_id=table.pk, seat_id=seat.pk)
        table_start(table_id=table.pk, seat_id=seats[0].pk)
        out[name] = {"code": table.code, "cookies": {str(seat.pk): cookie(seat.user) for seat in seats}}
    return out


async def _run(port: int, tables: dict[str, Any], sockets: int, snapshots: int) -> dict[str, Any]:
    import websockets

    origin = f"http://127.0.0.1:{port}"

    def url(code: str) -> str:
        return f"ws://127.0.0.1:{port}/ws/table/{code}/"

    def headers(cookie: str) -> dict[str, str]:
        return {"Cookie": f"sessionid={cookie}", "Origin": origin}

    flood_cookie = next(iter(tables["flood"]["cookies"].values()))
    counts = {"opened": 0, "refused": 0, "snapshots": 0, "too_many_reads": 0}

    async def flooder() -> None:
        try:
            async with websockets.connect(url(tables["flood"]["code"]), additional_headers=headers(flood_cookie)) as ws:
                first = json.loads(await ws.recv())
                if first.get("type") == "error":
                    counts["refused"] += 1
                    return
                counts["opened"] += 1
                for _ in range(snapshots):
                    await ws.send(json.dumps({"type": "snapshot"}))
                answered = 0
                while answered < snapshots:
                    frame = json.loads(await asyncio.wait_for(ws.recv(), 120))
                    if frame.get("type") == "snapshot":
                        counts["snapshots"] += 1
                        answered += 1
                    elif frame.get("code") == "too_many_reads":
                        counts["too_many_reads"] += 1
                        answered += 1
        except (OSError, websockets.exceptions.WebSocketException):
            counts["refused"] += 1

    started = time.monotonic()
    flood = [asyncio.create_task(flooder()) for _ in range(sockets)]
    await asyncio.sleep(0.3)  # the flood under way
    victim = tables["victim"]
    measured: dict[str, Any] = {}
    seats = {}
    try:
        before = time.monotonic()
        for seat_id, cookie in victim["cookies"].items():
            ws = await asyncio.wait_for(
                websockets.connect(url(victim["code"]), additional_headers=headers(cookie)), 120
            )
            snapshot = json.loads(await asyncio.wait_for(ws.recv(), 120))
            seats[seat_id] = (ws, snapshot)
        measured["victim_handshake_and_snapshot_s"] = round((time.monotonic() - before) / len(seats), 3)
        to_act = next(iter(seats.values()))[1]["hand"]["turn"]["player"]
        ws, _snapshot = seats[str(to_act)]
        before = time.monotonic()
        await ws.send(json.dumps({"type": "action", "id": "m1", "verb": "pack"}))
        while True:
            frame = json.loads(await asyncio.wait_for(ws.recv(), 120))
            if frame.get("id") == "m1":
                break
        measured["victim_move_ack_s"] = round(time.monotonic() - before, 3)
    except (OSError, TimeoutError, websockets.exceptions.WebSocketException) as error:
        measured["victim_failed"] = f"{type(error).__name__}: {error}"
    await asyncio.gather(*flood)
    measured["flood_drained_s"] = round(time.monotonic() - started, 3)
    for ws, _snapshot in seats.values():
        await ws.close()
    return {**measured, **counts}


def _one_run(lifted: bool, sockets: int, snapshots: int) -> dict[str, Any]:
    with tempfile.TemporaryDirectory() as workdir:
        env = dict(os.environ)
        for key in ("REDIS_URL", "DATABASE_URL"):
            env.pop(key, None)
        env.update(
            DATABASE_URL=f"sqlite:///{workdir}/flood.sqlite3",
            DEBUG="false",
            HTTPS_ONLY="false",
            LOG_LEVEL="WARNING",
            DASHAIN_INPROCESS_WORKER="true",
            PORT=str(_free_port()),
        )
        if lifted:
            env.update(LIFTED)
        prepare = subprocess.run(
            [sys.executable, "-c", "import json, benchmarks.socket_flood as f; print(json.dumps(f._prepare()))"],
            cwd=ROOT,
            env=env,
            capture_output=True,
            text=True,
            check=True,
        )
        tables = json.loads(prepare.stdout.strip().splitlines()[-1])
        port = int(env["PORT"])
        server = subprocess.Popen(
            [sys.executable, "-m", "daphne", "-b", "127.0.0.1", "-p", str(port), "config.asgi:application"],
            cwd=ROOT,
            env=env,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        try:
            wait_for_ports([port])
            return asyncio.run(_run(port, tables, sockets, snapshots))
        finally:
            server.terminate()
            server.wait(timeout=20)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--sockets", type=int, default=200)
    parser.add_argument("--snapshots", type=int, default=20)
    args = parser.parse_args()
    limited = _one_run(False, args.sockets, args.snapshots)
    lifted = _one_run(True, args.sockets, args.snapshots)
    print(json.dumps({"with_limits": limited, "limits_lifted": lifted}, indent=2))
    for key in ("victim_handshake_and_snapshot_s", "victim_move_ack_s", "flood_drained_s"):
        if limited.get(key) and lifted.get(key):
            print(f"{key}: lifted / limited = {lifted[key] / limited[key]:.1f}")


if __name__ == "__main__":
    main()
