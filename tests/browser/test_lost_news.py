"""A page that lost news on the way, with no later news to show the gap, catches up by its heartbeat.

A page learns that it missed news from the next news (a gap in the seqs). When the table then
stays still (nobody's turn comes, a watcher waits for the players), no next news comes. The
server's quiet watcher does not help either when the socket itself sent the news and only the
page lost it. The page's heartbeat does: every 5 s while the page is on screen it sends
``beat``, the ``pong`` carries the last seq the socket sent, and a page behind it asks for a
snapshot (static/js/table/connection.js, store.js). Here a route on the watcher's WebSocket
drops the news of a friend sitting down, and nothing happens at the table after it: the
watcher's page must show the friend within one beat and a margin (10 s), not at the next
news or the 25 s heartbeat of before (it stayed behind for the browser tests' 15 s then).
"""

from __future__ import annotations

import json
import re
import time
from typing import Any

from playwright.sync_api import WebSocketRoute, expect

from tests.browser.driver import Player, join_table, open_table, page_seq

CATCH_UP_MS = 10_000


class DropNews:
    """The watcher's socket, passed through, except that while ``dropping`` is set every
    frame of news from the server is dropped (recorded in ``dropped``)."""

    def __init__(self) -> None:
        self.dropping = False
        self.dropped: list[dict[str, Any]] = []
        self.pings: list[float] = []

    def __call__(self, route: WebSocketRoute) -> None:
        server = route.connect_to_server()

        def from_page(message: str | bytes) -> None:
            if json.loads(message).get("type") in ("beat", "ping"):
                self.pings.append(time.monotonic())
            server.send(message)

        def from_server(message: str | bytes) -> None:
            frame = json.loads(message)
            if self.dropping and frame.get("type") == "events" and frame.get("id") is None:
                self.dropped.append(frame)
                return
            route.send(message)

        route.on_message(from_page)
        server.on_message(from_server)


def test_a_watcher_that_lost_news_catches_up_by_its_heartbeat(new_page, live_site):
    live_site.set_next_table_code("LOSTNW")
    host = Player("host", new_page("hostuser"))
    open_table(host.page, "faras")
    host.read_seat()
    host.page.locator('#between-hands [data-command="take"]').click()
    expect(host.page.locator(".seat")).to_have_count(1)
    link = host.page.locator("#join-link").input_value()

    watcher = Player("chandra-watching", new_page("chandra"))
    drop = DropNews()
    watcher.page.route_web_socket(re.compile(r".*/ws/table/.*"), drop)
    join_table(watcher.page, link, watch=True)
    expect(watcher.page.locator("#connection")).to_have_attribute("data-state", "open")
    expect(watcher.page.locator(".seat")).to_have_count(1)

    drop.dropping = True
    friend = Player("bikash", new_page("bikash"))
    join_table(friend.page, link)
    expect(host.page.locator(".seat")).to_have_count(2)
    expect(friend.page.locator(".seat")).to_have_count(2)
    table_seq = page_seq(host.page)
    # The news of the friend sitting down reached the watcher's socket and was lost on the way.
    deadline = time.monotonic() + 10
    while not drop.dropped and time.monotonic() < deadline:
        watcher.page.wait_for_timeout(100)
    drop.dropping = False
    assert drop.dropped, "the friend's news never reached the watcher's socket"
    assert page_seq(watcher.page) < table_seq

    # Nothing more happens at the table; the watcher's heartbeat brings the page up to date.
    expect(watcher.page.locator(".seat")).to_have_count(2, timeout=CATCH_UP_MS)
    watcher.page.wait_for_function(
        "seq => Number(document.querySelector('#table-root').dataset.seq) >= seq", arg=table_seq, timeout=CATCH_UP_MS
    )
    assert page_seq(host.page) == table_seq  # the table stood still: the catch-up came from the heartbeat
    assert drop.pings, "the page sent no heartbeat"
