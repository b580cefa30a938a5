"""Nobody lost (issue 28), in real browsers.

Rules pinned: a guest who loses their browser opens their seat link in another one (a new
browser context: no cookie of the old) and sits in the same seat with the same name and
chips; the old page is told at once that the seat is open elsewhere, and its socket is
closed and not reopened; the host's list of seat links holds the same link; the settle-up
has one Dipa. A new host's invite link is on the first screen, at 1280 x 800 and 390 x 844.
"""

from __future__ import annotations

import re

from playwright.sync_api import expect

from tests.browser.conftest import PAGE_TIMEOUT_MS
from tests.browser.driver import (
    Player,
    act,
    action_verbs,
    end_the_game,
    join_table,
    open_table,
    save_screenshot,
    settle,
    stacks_shown,
    to_act,
)
from tests.browser.test_pages_layout import page_problems

LAPTOP = {"width": 1280, "height": 800}
PHONE = {"width": 390, "height": 844}


def _box_in_view(page, selector: str) -> dict:
    """The element's box as the window shows it now (not scrolled), and the window's size."""
    return page.evaluate(
        """sel => { const r = document.querySelector(sel).getBoundingClientRect();
                    return {top: r.top, bottom: r.bottom, left: r.left, right: r.right,
                            width: window.innerWidth, height: window.innerHeight, scrollY: window.scrollY}; }""",
        selector,
    )


def test_a_guest_comes_back_by_their_seat_link_on_a_new_device(new_page, live_site, artifacts):
    host = Player("asha-host", new_page("hostuser"))
    live_site.set_next_table_code("SEAT28")
    host.page.goto("/tables/open/?game=faras")
    host.page.locator("form.settings-form button[type=submit]").click()
    host.page.wait_for_url(re.compile(r"/tables/[A-Z0-9]+/$"))
    host.read_seat()
    host.page.locator('#between-hands [data-command="take"]').click()
    expect(host.page.locator("#between-hands")).to_contain_text("Seat 1")
    link = host.page.locator("#join-link").input_value()

    dipa = Player("dipa-old", new_page(viewport=PHONE))
    dipa.listen()
    join_table(dipa.page, link, guest_name="Dipa")
    dipa.read_seat()
    expect(host.page.locator(".seat")).to_have_count(2)
    host.page.locator('#host-controls [data-command="start"]').click()
    for player in (host, dipa):
        # The page's bound for a change (PAGE_TIMEOUT_MS), not expect's 5 s: the deal waits
        # its turn on a busy CI machine.
        expect(player.page.locator('.seat[data-to-act="true"]')).to_have_count(1, timeout=PAGE_TIMEOUT_MS)
    settle([host, dipa])
    # One hand: whoever is to act packs; the other wins the boots. Chips have moved.
    first = host if to_act(host) == host.seat else dipa
    assert "pack" in action_verbs(first)
    act(first, "pack")
    settle([host, dipa])
    before = stacks_shown(host.page)
    assert "1,000" not in before[dipa.seat]
    seat_link = dipa.page.locator("#seat-link").input_value()
    assert f"/t/SEAT28/seat/{dipa.seat}/" in seat_link
    dipa.page.locator("#seat-link-box summary").click()
    expect(dipa.page.locator("#copy-seat-link")).to_be_visible()
    # The host can hand the same link again: their list of the guests' links has it.
    host.page.goto("/tables/SEAT28/seat-links/")
    expect(host.page.get_by_label("Dipa")).to_have_value(seat_link)
    host.page.goto("/tables/SEAT28/")
    expect(host.page.locator("#connection")).to_have_attribute("data-state", "open")

    # A new device: no cookie of the old one. Typing the name again is refused...
    stranger = new_page(viewport=PHONE)
    stranger.goto(link)
    stranger.locator('[name="display_name"]').fill("dipa")
    stranger.locator("form.settings-form button[type=submit]").click()
    expect(stranger.locator(".field-error")).to_contain_text("already called dipa")
    # ...the seat link asks first (a link preview moves nothing), then sits her down.
    back = Player("dipa-new", new_page(viewport=PHONE))
    back.page.goto(seat_link)
    expect(back.page.locator("h1")).to_have_text("Sit as Dipa on this device?")
    assert page_problems(back.page) == []
    back.page.get_by_role("button", name="Yes, I am Dipa").click()
    back.page.wait_for_url(re.compile(r"/tables/SEAT28/$"))
    expect(back.page.locator("#connection")).to_have_attribute("data-state", "open")
    back.read_seat()
    assert back.seat == dipa.seat
    expect(back.page.locator(".messages")).to_contain_text("Welcome back, Dipa: this is your seat.")
    settle([host, back])
    assert stacks_shown(back.page) == before
    assert stacks_shown(host.page) == before
    expect(back.page.locator(f'.seat[data-seat="{dipa.seat}"]')).to_contain_text("Dipa")
    save_screenshot(back.page, str(artifacts / "back-dipa-phone.png"))
    back.page.locator("#seat-link-box summary").click()
    assert page_problems(back.page) == []  # the guest's table page with the seat link open

    # The old page is told at once, and its socket stays closed.
    expect(dipa.page.locator("#table-root")).to_have_attribute("data-phase", "gone")
    expect(dipa.page.locator("#turn-status")).to_have_text(
        "Your seat is open on another device now: this page no longer plays for it."
    )
    expect(dipa.page.locator("#connection")).to_have_attribute("data-state", "gone")
    save_screenshot(dipa.page, str(artifacts / "old-dipa-phone.png"))
    assert page_problems(dipa.page) == []
    assert dipa.page.evaluate("() => window.DashainTable.state.socket.readyState") == 3  # CLOSED
    assert any(frame.get("kind") == "seat_moved" for f in dipa.frames for frame in f.get("events", []))

    # The settle-up has one Dipa, with her chips.
    end_the_game(host.page)
    expect(host.page.locator("#game-over")).to_be_visible()
    host.page.goto("/ledger/tables/SEAT28/")
    names = host.page.locator("tbody tr[data-seat] th").all_inner_texts()
    assert sorted(names) == sorted(["Dipa", host.page.locator("tbody tr[data-seat] th").first.inner_text()])
    assert names.count("Dipa") == 1 and not any(name.startswith("Dipa ") for name in names)


def test_a_new_hosts_invite_link_is_on_the_first_screen(new_page, live_site, artifacts):
    for label, viewport in (("laptop", LAPTOP), ("phone", PHONE)):
        page = new_page("hostuser", viewport=viewport)
        page.goto("/tables/open/?game=faras")
        page.locator("form.settings-form button[type=submit]").click()
        page.wait_for_url(re.compile(r"/tables/[A-Z0-9]+/$"))
        expect(page.locator("#connection")).to_have_attribute("data-state", "open")
        save_screenshot(page, str(artifacts / f"invite-{label}.png"))
        for selector in ("#share-heading", "#join-link", "#copy-link"):
            box = _box_in_view(page, selector)
            assert box["scrollY"] == 0, (label, box)
            assert 0 <= box["top"] and box["bottom"] <= box["height"], (label, selector, box)
            assert 0 <= box["left"] and box["right"] <= box["width"], (label, selector, box)


def test_an_away_player_is_played_for_the_rest_of_the_hand_and_comes_back_next_hand(new_page, live_site, artifacts):
    """Hold'em of three with a 5-second turn timer. A pause outlasts a turn's time: on resume
    every page reads the turn's new clock ("left", no "Act for"). Then a player closes their
    tab on a turn where they could check; the host acts for them once; every later turn of
    theirs in that hand is played at once (the hand ends with no second "Act for"); they
    open the table again, come back, and are dealt into the next hand."""
    host = Player("asha-host", new_page("hostuser"))
    host.listen()
    live_site.set_next_table_code("AWAY28")
    open_table(host.page, "holdem", turn_timer=5)
    host.read_seat()
    host.page.locator('#between-hands [data-command="take"]').click()
    link = host.page.locator("#join-link").input_value()
    others = []
    for name in ("bikash", "chandra"):
        player = Player(name, new_page(name))
        join_table(player.page, link)
        player.read_seat()
        others.append(player)
    players = [host, *others]
    expect(host.page.locator(".seat")).to_have_count(3)
    host.page.locator('#host-controls [data-command="start"]').click()
    host.page.wait_for_selector('.seat[data-to-act="true"]')
    settle(players)

    # A pause longer than the turn's time, then resume: every page agrees with the server.
    host.page.locator('#host-controls [data-command="pause"]').click()
    for player in players:
        expect(player.page.locator("#turn-clock")).to_contain_text("time is up", timeout=15_000)
    host.page.locator('#host-controls [data-command="resume"]').click()
    for player in players:
        expect(player.page.locator("#turn-clock")).to_contain_text("left")
    expect(host.page.locator('#act-for [data-verb="act_for"]')).to_have_count(0)

    # Play on until a guest may check; that guest closes their tab.
    by_seat = {player.seat: player for player in players}
    away = None
    while away is None:
        settle(players)
        mover = by_seat[to_act(host)]
        verbs = action_verbs(mover)
        if mover is not host and "check" in verbs:
            away = mover
            break
        act(mover, "check" if "check" in verbs else "call")
    away_name = away.label.capitalize()
    away_tile = host.page.locator(f'.seat[data-seat="{away.seat}"]')
    expect(away_tile).to_have_attribute("data-online", "true")
    expect(away_tile.locator(".badge-offline")).to_have_count(0)
    away.page.close()
    present = [player for player in players if player is not away]
    # Every page shows that the player has no page open.
    for player in present:
        tile = player.page.locator(f'.seat[data-seat="{away.seat}"]')
        expect(tile).to_have_attribute("data-online", "false")
        expect(tile.locator(".badge-offline")).to_have_text("Offline")
        assert "Offline" in (tile.get_attribute("aria-label") or "")
    assert page_problems(host.page) == []
    expect(host.page.locator("#act-for h3")).to_have_text(f"Act for {away_name}", timeout=15_000)
    button = host.page.locator('#act-for [data-move="away"]')
    acted = len([f for f in host.sent if f.get("type") == "host" and f.get("verb") == "act_for"])
    button.click()
    expect(host.page.locator("#hand-log")).to_contain_text(f"{away_name} checks", timeout=15_000)
    # The others check every street down; the away player's turns never wait.
    while host.page.locator("#result").is_hidden():
        settle(present)
        seat = to_act(host)
        if seat is None:
            continue
        assert seat != away.seat, "the table waits for the away player"
        mover = by_seat[seat]
        act(mover, "check" if "check" in action_verbs(mover) else "call")
    expect(host.page.locator("#result")).to_be_visible()
    assert len([f for f in host.sent if f.get("type") == "host" and f.get("verb") == "act_for"]) == acted + 1
    save_screenshot(host.page, str(artifacts / "away-hand-over-host.png"))

    # They come back: the table page again, "Come back", and the next deal has them in.
    back = Player(away.label, new_page(away.label))
    back.page.goto("/tables/AWAY28/")
    expect(back.page.locator("#connection")).to_have_attribute("data-state", "open")
    back.read_seat()
    expect(host.page.locator(f'.seat[data-seat="{away.seat}"]')).to_have_attribute("data-online", "true")
    back.page.locator('#between-hands [data-command="come_back"]').click()
    expect(host.page.locator("#hand-log")).to_contain_text(f"{away_name} comes back")
    host.page.locator('#host-controls [data-command="pause"]').click()
    host.page.locator('#host-controls [data-command="resume"]').click()  # deals the next hand now
    expect(back.page.locator("#hand-number")).to_contain_text("2")
    expect(back.page.locator("#my-cards .playing-card")).to_have_count(2)
