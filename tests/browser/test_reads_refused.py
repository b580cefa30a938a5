"""A page whose read is refused beyond its limits tries again, as it says it will.

The server answers a snapshot or resync past the person's or the address's read limits with
``{"type": "error", "code": "too_many_reads"}`` ("the page tries again shortly",
``tables.live.socket_limits``). The host's page here loses one frame of news on the way
(dropped by a route on its WebSocket), finds the gap at the next news and asks for a
snapshot; that first request is answered with the refusal instead of reaching the server.
The page must ask again by itself, once, after its pause (not at once on the next news),
and catch up: a page that waited for the refused snapshot would stay behind the table for
good.
"""

from __future__ import annotations

import json
import re
import time
from typing import Any

from playwright.sync_api import WebSocketRoute, expect

from tests.browser.driver import Player, join_table, open_table, settle

REFUSAL = {
    "type": "error",
    "code": "too_many_reads",
    "message": "Too many requests from you; the page tries again shortly.",
}


class LossyRoute:
    """The host page's socket, passed through, except: once ``drop_news`` is set, the next
    events frame from the server is dropped; the first snapshot request after that is
    answered with the refusal instead of being sent on."""

    def __init__(self) -> None:
        self.drop_news = False
        self.dropped: list[dict[str, Any]] = []
        self.refused_at: float | None = None  # when the first snapshot request was refused
        self.asked_again_at: list[float] = []  # when each later one was sent on

    def __call__(self, route: WebSocketRoute) -> None:
        server = route.connect_to_server()

        def from_page(message: str | bytes) -> None:
            frame = json.loads(message)
            if frame.get("type") == "snapshot" and self.dropped:
                if self.refused_at is None:
                    self.refused_at = time.monotonic()
                    route.send(json.dumps(REFUSAL))
                    return
                self.asked_again_at.append(time.monotonic())
            server.send(message)

        def from_server(message: str | bytes) -> None:
            frame = json.loads(message)
            if self.drop_news and frame.get("type") == "events" and frame.get("id") is None:
                self.drop_news = False
                self.dropped.append(frame)
                return
            route.send(message)

        route.on_message(from_page)
        server.on_message(from_server)


def test_a_refused_snapshot_is_asked_again_and_the_page_catches_up(new_page, live_site):
    live_site.set_next_table_code("READS1")
    host = Player("host", new_page("hostuser"))
    lossy = LossyRoute()
    host.page.route_web_socket(re.compile(r".*/ws/table/.*"), lossy)
    open_table(host.page, "faras")
    expect(host.page.locator("#connection")).to_have_attribute("data-state", "open")
    host.read_seat()

    lossy.drop_news = True  # the news of the host's own seat is lost on the way
    host.page.locator('#between-hands [data-command="take"]').click()

    # A friend sits down: the host's page sees a gap, asks for a snapshot, is refused...
    friend = Player("bikash", new_page("bikash"))
    join_table(friend.page, host.page.locator("#join-link").input_value())
    expect(host.page.locator("#notice")).to_have_text(REFUSAL["message"])
    assert [event["kind"] for event in lossy.dropped[0]["events"]][:1] == ["seat_taken"], lossy.dropped
    # ...and asks again by itself, is answered, and shows the table as it stands.
    expect(host.page.locator(".seat")).to_have_count(2)
    settle([host, friend])
    # Asked again once, by its own timer: not at once on the next news (its gap waits for it).
    assert lossy.refused_at is not None and len(lossy.asked_again_at) == 1, lossy.asked_again_at
    assert lossy.asked_again_at[0] - lossy.refused_at >= 0.9, lossy.asked_again_at[0] - lossy.refused_at
