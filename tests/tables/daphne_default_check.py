"""Run by test_daphne_default: the README's default setup (no Redis) under a real daphne.

Prepares a SQLite database given by DATABASE_URL, starts ``daphne config.asgi:application``
on PORT (the in-process Celery worker starts with it), and over real WebSockets: the host
starts the game, the turn timer's reminder must arrive, then a pack ends the hand and the
next hand must follow after DASHAIN_NEXT_HAND_DELAY, dealt by the in-process worker.
Prints one JSON line with what it saw.
"""

from __future__ import annotations

import asyncio
import json
import os
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))


def _prepare() -> tuple[str, str, str, int]:
    os.environ["DJANGO_SETTINGS_MODULE"] = "config.settings"
    import django

    django.setup()
    from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY, get_user_model
    from django.contrib.sessions.backends.db import SessionStore
    from django.core.management import call_command

    from tables.models import Seat
    from tables.services import seat_take, table_create, table_join

    call_command("migrate", verbosity=0)
    user_model = get_user_model()
    host, guest = user_model.objects.create_user("host"), user_model.objects.create_user("other")
    table = table_create(host=host, game="faras", choices={"turn_timer": 5})
    host_seat = Seat.objects.get(table=table, user=host)
    other_seat = table_join(code=table.code, invite_token=table.invite_token, user=guest)
    seat_take(table_id=table.pk, seat_id=host_seat.pk)
    seat_take(table_id=table.pk, seat_id=other_seat.pk)

    def cookie(user) -> str:
        session = SessionStore()
        session[SESSION_KEY] = str(user.pk)
        session[BACKEND_SESSION_KEY] = "django.contrib.auth.backends.ModelBackend"
        session[HASH_SESSION_KEY] = user.get_session_auth_hash()
        session.save()
        return session.session_key

    return table.code, cookie(host), cookie(guest), host_seat.pk


async def _play(port: int, code: str, host_cookie: str, other_cookie: str, host_seat: int) -> dict:
    import websockets

    url = f"ws://127.0.0.1:{port}/ws/table/{code}/"
    seen: dict = {}

    def headers(cookie: str) -> dict:
        return {"Cookie": f"sessionid={cookie}", "Origin": f"http://127.0.0.1:{port}"}

    async with (
        websockets.connect(url, additional_headers=headers(host_cookie)) as host,
        websockets.connect(url, additional_headers=headers(other_cookie)) as other,
    ):
        await host.recv()
        await other.recv()
        await host.send(json.dumps({"type": "host", "verb": "start", "id": "start"}))
        started, turn = time.monotonic(), None
        while "reminder_after" not in seen and time.monotonic() - started < 30:
            frame = json.loads(await asyncio.wait_for(host.recv(), 30))
            for event in frame.get("events", []):
                if event.get("kind") == "turn":
                    turn = event["data"]
                if event.get("kind") == "reminder":
                    seen["reminder_after"] = time.monotonic() - started
                    seen["reminder_player"] = event["data"]["player"]
                    seen["turn_player"] = turn["player"] if turn else None
        actor = host if turn and turn["player"] == str(host_seat) else other
        packed = time.monotonic()
        await actor.send(json.dumps({"type": "action", "id": "pack", "verb": "pack"}))
        while "next_hand_after" not in seen and time.monotonic() - packed < 30:
            frame = json.loads(await asyncio.wait_for(host.recv(), 30))
            kinds = [event.get("kind") for event in frame.get("events", [])]
            if "hand_ended" in kinds:
                seen["hand_ended_after"] = time.monotonic() - packed
            if "hand_started" in kinds:
                seen["next_hand_after"] = time.monotonic() - packed
    return seen


def main() -> None:
    port = int(os.environ["PORT"])
    code, host_cookie, other_cookie, host_seat = _prepare()
    server = subprocess.Popen(
        [sys.executable, "-m", "daphne", "-b", "127.0.0.1", "-p", str(port), "config.asgi:application"],
        cwd=ROOT,
        env=dict(os.environ),
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        import socket

        deadline = time.monotonic() + 60
        while True:
            try:
                socket.create_connection(("127.0.0.1", port), timeout=1).close()
                break
            except OSError:
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.2)
        print(json.dumps(asyncio.run(_play(port, code, host_cookie, other_cookie, host_seat))))
    finally:
        server.terminate()
        server.wait(timeout=20)


if __name__ == "__main__":
    main()
