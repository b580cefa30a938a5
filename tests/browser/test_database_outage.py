"""The table page through a database outage (issue 30): it says so, sends the move again
with its id, and comes back by itself.

A site of its own (``tests/tables/faults.py``: daphne as deployed, ``DEBUG=false``) on a
PostgreSQL server of its own (``tests/tables/private_postgres.py``), stopped while two
players' pages are open:

- the player to act chaals: the page says the table is catching its breath and that the
  move will be sent again; its socket stays open;
- the other page's socket drops and reconnects while the database is away: it is told
  ``unavailable`` and closed with 4503, and the page says so ("coming back") and tries
  again with its back-off;
- a page asked over HTTP meanwhile answers 503 with ``Retry-After`` and says to wait;
- the database comes back: the page sends the same move (the same id) again, it is played
  once, and the other page is connected again and shows it.
"""

from __future__ import annotations

import shutil
import tempfile
from pathlib import Path

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import PAGE_TIMEOUT_MS
from tests.browser.driver import Player, page_seq, to_act
from tests.tables.faults import Site
from tests.tables.private_postgres import PrivatePostgres, postgres_bin

pytestmark = pytest.mark.postgres


@pytest.fixture(scope="module")
def outage_site():
    if postgres_bin() is None:
        pytest.skip("needs PostgreSQL's server programs (initdb, pg_ctl) to run a server of its own")
    database = PrivatePostgres()
    workdir = Path(tempfile.mkdtemp(prefix="dashain-page-outage-"))
    site: Site | None = None
    try:
        database.start()
        database.create_database("dashain_page")
        site = Site(workdir, database_url=database.url("dashain_page"), with_redis=False)
        site.env.update(DEBUG="false")
        site.run("prepare", str(workdir))
        site.start_web()
        yield site, database
    finally:
        if site is not None:
            site.stop_all()
        database.destroy()
        shutil.rmtree(workdir, ignore_errors=True)


def test_the_page_through_a_database_outage(chromium, outage_site):
    site, database = outage_site
    table = site.open_table("faras", 2, {"turn_timer": 60, "hand_pause": 3})
    site.run("start", str(site.workdir), table["code"])
    url = f"http://127.0.0.1:{site.port}"
    players = []
    for name in ("host", "bina"):
        context = chromium.new_context(base_url=url, viewport={"width": 1200, "height": 860})
        context.set_default_timeout(PAGE_TIMEOUT_MS)
        context.add_cookies([{"name": "sessionid", "value": site.sessions()[name], "url": url}])
        player = Player(name, context.new_page())
        player.listen()
        player.page.goto(f"/tables/{table['code']}/")
        expect(player.page.locator("#connection")).to_have_attribute("data-state", "open")
        player.read_seat()
        players.append(player)
    try:
        players[0].page.wait_for_function("() => document.querySelector('.seat[data-to-act=\"true\"]')")
        actor = next(player for player in players if player.seat == to_act(player))
        other = next(player for player in players if player is not actor)
        before = page_seq(actor.page)

        database.stop("fast")
        actor.page.locator('#action-bar button[data-verb="chaal"]').click()
        expect(actor.page.locator("#notice")).to_have_text(
            "The table is catching its breath: your move will be sent again in a moment."
        )
        expect(actor.page.locator("#connection")).to_have_attribute("data-state", "open")
        # The other page's socket drops and comes back while the database is away.
        other.page.evaluate("() => window.DashainTable.state.socket.close()")
        badge = other.page.locator("#connection")
        expect(badge).to_have_attribute("data-state", "unavailable")
        expect(badge).to_have_text("The table is catching its breath: coming back in a moment…")
        expect(other.page.locator("#table-root")).to_have_attribute("data-phase", "lost")
        refusals = [f for f in other.frames if f.get("type") == "error" and f.get("code") == "unavailable"]
        assert refusals, other.frames[-5:]
        # A page asked over HTTP meanwhile (a reload) says to wait: 503 with Retry-After, not a bug's 500.
        answer = other.page.context.request.get(f"{url}/tables/{table['code']}/")
        assert (answer.status, answer.headers.get("retry-after")) == (503, "30"), answer.status
        assert "The site cannot reach its records right now" in answer.text()

        database.start()
        # The page sends the move again by itself; it is played, once.
        actor.page.wait_for_function(
            "seq => Number(document.querySelector('#table-root').dataset.seq) > seq", arg=before, timeout=30_000
        )
        chaals = [frame for frame in actor.sent if frame.get("type") == "action"]
        assert len(chaals) >= 2 and len({frame["id"] for frame in chaals}) == 1, chaals
        expect(badge).to_have_attribute("data-state", "open", timeout=30_000)
        other.page.wait_for_function(
            "seq => Number(document.querySelector('#table-root').dataset.seq) > seq", arg=before, timeout=30_000
        )
        check = site.check(table["code"])
        played = [e for e in check["events"] if e["client_action_id"] == f"{actor.seat}:{chaals[0]['id']}"]
        assert len(played) == 1, played
        assert check["chips_error"] is None
    finally:
        for player in players:
            player.page.context.close()
