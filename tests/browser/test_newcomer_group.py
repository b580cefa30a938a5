"""A new group's first evening, in real browsers (issue 38): the host on a laptop
(1280 x 800), a friend on a phone (390 x 844).

Rules pinned: someone not signed in who opens the invite link sees the game named, and the
sign-up page it leads to names it too and keeps the way back; after creating the home game
the host is told to share the invite link and schedule a night (not "add a table"); the
invite link and its Copy button are above the fold at 1280 x 800, and Copy says it copied;
the friend joins from the phone, is proposed her browser's time zone and confirms it; on the
night's page the friend's answer is the pressed button, with the comment she gave, and the
members who have not answered are listed; cancelling the night asks first. Every page has
no sideways scroll and no serious axe finding.
"""

from __future__ import annotations

import re
from datetime import date, timedelta

from playwright.sync_api import expect

from tests.browser.test_home_game_nights import PHONE, fits

LAPTOP = {"width": 1280, "height": 800}


def test_a_new_group_from_the_invite_link_to_an_answer(new_page, artifacts):
    host = new_page("hostuser", viewport=LAPTOP)
    host.goto("/ledger/home-games/new/")
    host.locator('[name="name"]').fill("Newcomer Faras")
    host.locator("form.form button[type=submit]").click()
    host.wait_for_url(re.compile(r"/ledger/home-games/\d+/$"))
    expect(host.locator(".messages")).to_contain_text("schedule your first night")
    copy = host.get_by_role("button", name="Copy link")
    for element in (host.locator("#invite-link"), copy):
        box = element.bounding_box()
        assert box is not None and box["y"] + box["height"] <= LAPTOP["height"], box  # above the fold
    copy.click()
    expect(host.locator(".share-link [role=status]")).not_to_have_text("")
    fits(host, artifacts, "newcomer-home-game")
    invite = host.locator("#invite-link").input_value()

    # Not signed in, the link names the game; signing up or logging in keeps the way back.
    visitor = new_page(None, viewport=PHONE, timezone_id="Asia/Kathmandu")
    visitor.goto(invite)
    expect(visitor.locator("h1")).to_have_text("Join Newcomer Faras")
    fits(visitor, artifacts, "newcomer-join-visitor")
    visitor.get_by_role("link", name="Sign up to join").click()
    expect(visitor.locator(".invite-named")).to_contain_text("Newcomer Faras")
    fits(visitor, artifacts, "newcomer-signup-named")
    assert "next=" in visitor.get_by_role("link", name="Sign up").first.get_attribute("href")
    # Sign-up proposes the browser's time zone (the Intl API); signing up with it keeps it, and
    # no page asks again.
    zone = visitor.evaluate("() => Intl.DateTimeFormat().resolvedOptions().timeZone")
    assert zone in ("Asia/Kathmandu", "Asia/Katmandu"), zone  # Chromium's ICU names it by the older link
    expect(visitor.locator('[name="time_zone"]')).to_have_value(zone)
    visitor.locator('[name="username"]').fill("gita")
    visitor.locator('[name="display_name"]').fill("Gita")
    for field in ("password1", "password2"):
        visitor.locator(f'[name="{field}"]').fill("evening-in-patan-42")
    visitor.get_by_role("button", name="Create my account").click()
    expect(visitor.locator("h1")).to_have_text("Join Newcomer Faras")
    visitor.get_by_role("button", name="Join the home game").click()
    expect(visitor.locator("h1")).to_have_text("Newcomer Faras")
    expect(visitor.locator("[data-zone-prompt]")).to_have_count(0)

    friend = new_page("bikash", viewport=PHONE)
    friend.goto(invite)
    friend.get_by_role("button", name="Join the home game").click()
    expect(friend.locator("h1")).to_have_text("Newcomer Faras")
    # The browser's time zone (the Intl API) is proposed; she confirms it with one tap.
    prompt = friend.locator("[data-zone-prompt]")
    expect(prompt).to_be_visible()
    zone = friend.evaluate("() => Intl.DateTimeFormat().resolvedOptions().timeZone")
    expect(prompt.locator("[data-zone-name]")).to_have_text(zone.replace("_", " "))
    fits(friend, artifacts, "newcomer-zone-prompt")
    friend.get_by_role("button", name="Yes, use this time zone").click()
    expect(friend.locator("h1")).to_have_text("Newcomer Faras")
    expect(friend.locator("[data-zone-prompt]")).to_have_count(0)

    # Each page is awaited by its heading before the next click (a click does not wait for
    # the page it leads to; a failure then names the page that did not come).
    host.get_by_role("link", name="Nights ahead").click()
    expect(host.locator("h1")).to_have_text("Newcomer Faras: nights ahead")
    host.get_by_role("link", name="New template").click()
    expect(host.locator("h1")).to_have_text("A template for your nights")
    host.locator('[name="name"]').fill("Our Faras")
    host.locator("form.settings-form button[type=submit]").click()
    expect(host.locator(".messages")).to_contain_text("The template is saved")
    host.get_by_role("link", name="Schedule a night").click()
    expect(host.locator("h1")).to_have_text("Schedule a night")
    host.locator('[name="date"]').fill((date.today() + timedelta(days=3)).isoformat())
    host.locator('[name="time"]').fill("19:30")
    host.locator('[name="place"]').fill("Asha's flat")
    host.locator('[name="template"]').select_option(label="Our Faras")
    host.locator('[name="seat_limit"]').fill("4")
    host.locator("form.form button[type=submit]").click()
    host.wait_for_url(re.compile(r"/home-games/\d+/nights/\d+/$"))
    night_url = host.url

    friend.goto(night_url)
    friend.locator('[name="comment"]').fill("30 min late")
    friend.get_by_role("button", name="Maybe").click()
    expect(friend.locator(".my-answer")).to_have_text("You said maybe.")
    expect(friend.get_by_role("button", name="Maybe")).to_have_attribute("aria-pressed", "true")
    expect(friend.get_by_role("button", name="Yes")).to_have_attribute("aria-pressed", "false")
    expect(friend.locator(".answers--maybe")).to_contain_text("30 min late")
    expect(friend.locator(".answers--none")).to_contain_text("Asha")
    fits(friend, artifacts, "newcomer-night-phone")

    host.reload()
    host.get_by_role("button", name="Cancel the night").click()
    expect(host.get_by_role("heading", name="Cancel the night?")).to_be_visible()
    fits(host, artifacts, "newcomer-cancel-confirm")
    host.get_by_role("button", name="Yes, cancel the night").click()
    expect(host.locator(".message--warning")).to_contain_text("This night has been cancelled.")
