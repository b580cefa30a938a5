"""The table page on a laptop (1280 x 800) and a phone (390 x 844): everything a player needs
on one screen, in every state, and axe-core finds nothing serious.

Rules pinned (issue 16, items 1, 2 and 7): whoever's turn it is sees the turn banner and
the whole action bar inside the window without scrolling, on either size; no page is
wider than its window; the hand's result is on screen, and stays until the next deal;
the game-over state shows the final chips and the links on; axe finds no serious or
critical violation in any of these states. A screenshot of each state at each size is
written to test-artifacts/table/ (git-ignored; listed in docs/ui.md).

One table, three people: Asha hosts on a laptop, Bikash plays on a phone, Chandra on a
laptop (a 999 table adds more seats at the end).
"""

from __future__ import annotations

import shutil

import pytest
from playwright.sync_api import Page, expect

from tests.browser.conftest import PAGE_TIMEOUT_MS, ROOT
from tests.browser.driver import Player, act, join_table, open_table, settle, to_act
from tests.browser.test_pages_layout import SIZES, page_problems

ARTIFACTS = ROOT / "test-artifacts" / "table"


@pytest.fixture(scope="module", autouse=True)
def english(live_site):
    """The words these tests read are English: no account keeps another test's language."""
    live_site.scenario("english")


@pytest.fixture(scope="module")
def screenshots():
    shutil.rmtree(ARTIFACTS, ignore_errors=True)
    ARTIFACTS.mkdir(parents=True)
    return ARTIFACTS


def person(chromium, live_site, username: str, size: str, label: str) -> Player:
    context = chromium.new_context(base_url=live_site.url, viewport=SIZES[size])
    context.set_default_timeout(PAGE_TIMEOUT_MS)
    live_site.sign_in(context, username)
    player = Player(label, context.new_page())
    player.size = size  # type: ignore[attr-defined]
    return player


def inside_window(page: Page, selector: str) -> bool:
    """The element is shown and wholly inside the window as the page opens (no scrolling)."""
    return page.evaluate(
        """selector => { window.scrollTo(0, 0); const node = document.querySelector(selector);
             if (!node || node.hidden || !node.getClientRects().length) return false;
             const box = node.getBoundingClientRect();
             return box.top >= 0 && box.left >= 0
               && box.bottom <= window.innerHeight && box.right <= window.innerWidth; }""",
        selector,
    )


def snap(screenshots, state: str, players: list[Player]) -> None:
    for player in players:
        player.page.evaluate("() => window.scrollTo(0, 0)")
        player.page.screenshot(path=str(screenshots / f"table-{state}-{player.label}-{player.size}.png"))
        assert page_problems(player.page) == [], (state, player.label)


def test_the_table_fits_each_screen_in_every_state(chromium, live_site, screenshots):
    live_site.set_next_hand_delay(3600)
    asha = person(chromium, live_site, "hostuser", "laptop", "asha")
    bikash = person(chromium, live_site, "bikash", "phone", "bikash")
    chandra = person(chromium, live_site, "chandra", "laptop", "chandra")
    players = [asha, bikash, chandra]
    try:
        live_site.set_next_table_code("FITTED")
        open_table(asha.page, "faras")
        asha.read_seat()
        asha.page.locator('#between-hands [data-command="take"]').click()
        link = asha.page.locator("#join-link").input_value()
        for friend in (bikash, chandra):
            join_table(friend.page, link)
            friend.read_seat()
        expect(asha.page.locator(".seat")).to_have_count(3)
        snap(screenshots, "waiting", players)

        asha.page.locator('#host-controls [data-command="start"]').click()
        asha.page.wait_for_selector('.seat[data-to-act="true"]')
        settle(players)
        by_seat = {player.seat: player for player in players}
        turns_seen: set[str] = set()
        for _turn in range(3):
            mover = by_seat[to_act(asha)]
            assert inside_window(mover.page, "#action-bar"), (mover.label, mover.size)
            assert inside_window(mover.page, "#turn-reminder"), (mover.label, mover.size)
            snap(screenshots, "your-turn", [mover])
            snap(screenshots, "their-turn", [player for player in players if player is not mover])
            turns_seen.add(mover.size)
            act(mover, "chaal")
            settle(players)
        assert turns_seen == {"laptop", "phone"}
        mover = by_seat[to_act(asha)]
        for player in players:
            if player is not mover:
                expect(player.page.locator("#turn-status")).to_have_text(
                    mover.page.locator('.seat[data-me="true"] .seat-name').inner_text() + " to act."
                )

        # Paused: an overlay on the felt, and no action button may be pressed, at either size.
        asha.page.locator('#host-controls [data-command="pause"]').click()
        for player in players:
            expect(player.page.locator("#paused-overlay")).to_be_visible()
            expect(player.page.locator("#turn-status")).to_contain_text("Paused by the host")
        buttons = mover.page.locator("#action-bar button")
        assert buttons.count() > 0
        for index in range(buttons.count()):
            expect(buttons.nth(index)).to_be_disabled()
        snap(screenshots, "paused", players)
        asha.page.locator('#host-controls [data-command="resume"]').click()
        expect(mover.page.locator("#paused-overlay")).to_be_hidden()
        expect(mover.page.locator('#action-bar button[data-verb="pack"]')).to_be_enabled()

        # The turn alert is off until the player turns it on (no permission asked before).
        toggle = bikash.page.locator("#turn-alert-toggle")
        expect(toggle).to_have_attribute("aria-pressed", "false")
        toggle.click()
        expect(toggle).to_have_attribute("aria-pressed", "true")

        # Everyone packs but one: the result is on screen, and stays (the next deal is an hour away).
        while True:
            seat = to_act(asha)
            if seat is None:
                break
            act(by_seat[seat], "pack")
        settle(players)
        for player in players:
            expect(player.page.locator("#result")).to_be_visible()
            assert inside_window(player.page, "#result"), (player.label, player.size)
        snap(screenshots, "result", players)
        bikash.page.reload()
        expect(bikash.page.locator("#result")).to_be_visible()  # a reload between hands keeps it

        asha.page.once("dialog", lambda dialog: dialog.accept())
        asha.page.locator('#host-controls [data-command="end"]').click()
        for player in players:
            expect(player.page.locator("#game-over")).to_be_visible()
            assert inside_window(player.page, "#game-over"), (player.label, player.size)
        snap(screenshots, "game-over", players)
    finally:
        for player in players:
            player.page.context.close()


@pytest.mark.parametrize(("game", "count"), [("faras", 8), ("999", 8), ("holdem", 6)])
def test_a_full_table_fits_each_screen(chromium, live_site, screenshots, game, count):
    """Every seat taken (8 for Faras and 999, the site's most; 6 for hold'em) and the host to act: at
    both sizes the seats all show, the page is no wider than the window, the turn banner
    and the whole action bar are inside it, and axe finds nothing serious."""
    code = live_site.scenario(f"full:{game}:{count}")["code"]
    for size in sorted(SIZES):
        host = person(chromium, live_site, "hostuser", size, f"host-{game}")
        try:
            host.page.goto(f"/tables/{code}/")
            expect(host.page.locator("#connection")).to_have_attribute("data-state", "open")
            expect(host.page.locator(".seat")).to_have_count(count)
            expect(host.page.locator('.seat[data-me="true"][data-to-act="true"]')).to_have_count(1)
            expect(host.page.locator("#action-bar button[data-verb]").first).to_be_visible()
            assert inside_window(host.page, "#action-bar"), size
            assert inside_window(host.page, "#turn-reminder"), size
            snap(screenshots, f"full-{count}", [host])
        finally:
            host.page.context.close()
