"""The load benchmark's players send what the table page sends (issue 13, item 4).

Rule pinned: over the same scripted Faras hand (both players connect, one looks and raises,
the other looks and packs), the frames the real page sends (recorded from Chromium's
WebSocket) and the frames ``benchmarks/live_load.py``'s ``PushedPage`` sends are the same
kinds in the same order, with the same fields: the log-in-words resync at connect, then
only the player's own actions, and no snapshot after news. Frames the benchmark never
makes (taking a seat, the host's start: the benchmark opens its tables through the
services) and the timed heartbeat are left out of both.
"""

from __future__ import annotations

import asyncio
import json
import re
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import websockets
from playwright.sync_api import expect

from benchmarks.page_clients import PushedPage
from tests.browser.driver import Player, act, join_table, open_table, settle, to_act

# Not the script: the setup, and the heartbeat ("ping"; "beat" every 5 s), which a slow run
# of the hand meets and the benchmark's players here do not send.
SETUP = {"seat", "host", "seed", "ping", "beat"}
SCRIPT = ["see", "raise", "see", "pack"]  # first to act: look, raise; the other: look, pack


def shape(frame: dict[str, Any]) -> tuple:
    """What is compared: the kind, the fields, the verb, and the id of a page request."""
    request_id = frame.get("id")
    named = (
        request_id if isinstance(request_id, str) and not re.fullmatch(r"[0-9a-f-]{36}|\d+-\d+", request_id) else "*"
    )
    return (frame["type"], tuple(sorted(frame)), frame.get("verb"), named if "id" in frame else None)


def record_sent(player: Player) -> list[dict[str, Any]]:
    sent: list[dict[str, Any]] = []
    player.page.on("websocket", lambda socket: socket.on("framesent", lambda payload: sent.append(json.loads(payload))))
    return sent


def seat_two(new_page, live_site, code: str) -> tuple[Player, Player, list, list]:
    live_site.set_next_table_code(code)
    host = Player("host", new_page("hostuser"))
    host_sent = record_sent(host)
    open_table(host.page, "faras")
    host.read_seat()
    host.page.locator('#between-hands [data-command="take"]').click()
    expect(host.page.locator(f'.seat[data-seat="{host.seat}"]')).to_be_visible()
    friend = Player("bikash", new_page("bikash"))
    friend_sent = record_sent(friend)
    join_table(friend.page, host.page.locator("#join-link").input_value())
    friend.read_seat()
    expect(host.page.locator(".seat")).to_have_count(2)
    host.page.locator('#host-controls [data-command="start"]').click()
    host.page.wait_for_selector('.seat[data-to-act="true"]')
    settle([host, friend])
    return host, friend, host_sent, friend_sent


async def _benchmark_players(url: str, sessions: dict[str, str], code: str) -> dict[str, list[dict[str, Any]]]:
    """Both players as the benchmark plays them, following SCRIPT; the frames each sent."""
    sockets, pages, sent = {}, {}, {}
    for username in ("hostuser", "bikash"):
        headers = {"Cookie": f"sessionid={sessions[username]}", "Origin": url}
        sockets[username] = await websockets.connect(
            f"{url.replace('http', 'ws')}/ws/table/{code}/", additional_headers=headers
        )
        pages[username], sent[username] = PushedPage(), []
    script = list(SCRIPT)
    turn_of: dict[str, bool] = {}
    number = 0

    async def deliver(username: str) -> None:
        frame = json.loads(await asyncio.wait_for(sockets[username].recv(), 10))
        out, _shown, may_act = pages[username].on_frame(frame)
        for request in out:
            sent[username].append(request)
            await sockets[username].send(json.dumps(request))
        turn_of[username] = may_act or (
            turn_of.get(username, False) and frame.get("type") not in ("events", "snapshot")
        )

    for username in sockets:
        await deliver(username)  # the snapshot
    while script:
        for username in sockets:
            while not turn_of.get(username):
                try:
                    await asyncio.wait_for(deliver(username), 0.5)
                except TimeoutError:
                    break
        actor = next((u for u in sockets if turn_of.get(u)), None)
        assert actor is not None, "nobody was offered a move"
        verb = script.pop(0)
        number += 1
        request = PushedPage.action(verb, 20 if verb == "raise" else None, f"0-{number}")
        sent[actor].append(request)
        turn_of[actor] = False
        await sockets[actor].send(json.dumps(request))
        await asyncio.sleep(0.3)
        for username in sockets:
            try:
                while True:
                    await asyncio.wait_for(deliver(username), 0.3)
            except TimeoutError:
                pass
    for socket in sockets.values():
        await socket.close()
    return sent


def test_the_benchmark_sends_what_the_page_sends(new_page, live_site):
    host, friend, host_sent, friend_sent = seat_two(new_page, live_site, "FRAME1")
    by_seat = {host.seat: (host, host_sent), friend.seat: (friend, friend_sent)}
    first_seat = to_act(host)
    first, first_sent = by_seat[first_seat]
    second, second_sent = next(value for seat, value in by_seat.items() if seat != first_seat)
    act(first, "see")
    act(first, "raise", 20)
    settle([host, friend])
    act(second, "see")
    act(second, "pack")
    settle([host, friend])
    page_frames = {
        "first": [f for f in first_sent if f["type"] not in SETUP],
        "second": [f for f in second_sent if f["type"] not in SETUP],
    }

    # The same hand at a second table (same seed, same code pattern): seated and started by
    # the pages, then played by the benchmark's players.
    host2, friend2, _, _ = seat_two(new_page, live_site, "FRAME2")
    first_is_host = to_act(host2) == host2.seat
    for player in (host2, friend2):
        player.page.context.close()
    with ThreadPoolExecutor(1) as pool:  # Playwright's sync API holds this thread's event loop
        sent = pool.submit(asyncio.run, _benchmark_players(live_site.url, live_site.sessions, "FRAME2")).result()
    first_user, second_user = ("hostuser", "bikash") if first_is_host else ("bikash", "hostuser")
    bench_frames = {
        "first": [f for f in sent[first_user] if f["type"] not in SETUP],
        "second": [f for f in sent[second_user] if f["type"] not in SETUP],
    }

    for who in ("first", "second"):
        assert [shape(f) for f in page_frames[who]] == [shape(f) for f in bench_frames[who]], (
            who,
            page_frames[who],
            bench_frames[who],
        )
    # The page asked for no snapshot after the news: the log at connect, then its own moves.
    for who in ("first", "second"):
        assert [f["type"] for f in page_frames[who]] == ["visibility", "resync", "see", "action"], page_frames[who]
