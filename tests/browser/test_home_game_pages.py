"""The home game's pages as a second new group met them (issue 38), in real browsers: the host
on a laptop (1280 x 800), friends on phones (390 x 844).

Rules pinned: a new host schedules a night straight away, with no template, choosing the game
(its usual settings) and leaving the seat limit to its default, every seat of the table;
"Open tonight's table" is not offered days ahead (the page says from when), and opening it
anyway is refused with that reason and opens nothing, while tonight's night offers it;
"Claim your seat" is shown to the friend who may have been the night's guest, not to the
friend who sat there with his account nor to the host. Every page has no sideways scroll and
no serious axe finding.
"""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta

from playwright.sync_api import expect

from tests.browser.test_home_game_nights import PHONE, fits
from tests.browser.test_newcomer_group import LAPTOP

CLAIM = "Were you a guest at a past night? Claim your seat"


def schedule(host, starts: datetime, place: str) -> str:
    """The host schedules a night (her zone is UTC) without touching the game or the seat limit."""
    host.get_by_role("link", name="Schedule a night").click()
    host.locator('[name="date"]').fill(starts.date().isoformat())
    host.locator('[name="time"]').fill(f"{starts:%H:%M}")
    host.locator('[name="place"]').fill(place)
    host.locator("form.form button[type=submit]").click()
    host.wait_for_url(re.compile(r"/home-games/\d+/nights/\d+/$"))
    return host.url


def test_a_new_host_schedules_straight_away_and_opens_the_table_only_on_the_night(new_page, artifacts):
    host = new_page("hostuser", viewport=LAPTOP)
    host.goto("/ledger/home-games/new/")
    host.locator('[name="name"]').fill("Straight-away Faras")
    host.locator("form.form button[type=submit]").click()
    host.wait_for_url(re.compile(r"/ledger/home-games/\d+/$"))
    host.get_by_role("link", name="Nights ahead").click()

    # No template: the form offers the games with their usual settings, Faras first, and
    # the seat limit may be left empty.
    host.get_by_role("link", name="Schedule a night").click()
    expect(host.locator(".night-usual")).to_contain_text("Choose the game")
    expect(host.locator('[name="template"]')).to_have_value("game:faras")
    expect(host.locator('[name="seat_limit"]')).to_have_value("")
    fits(host, artifacts, "schedule-no-template")
    host.go_back()
    ahead = (datetime.now(UTC) + timedelta(days=11)).replace(hour=19, minute=30, second=0, microsecond=0)
    night_url = schedule(host, ahead, "Asha's flat")
    expect(host.locator(".lead")).to_contain_text("0 of 6 seats taken")

    # Eleven days ahead: no opening offered, the page says from when; a forged POST is refused.
    expect(host.get_by_role("button", name="Open tonight's table")).to_have_count(0)
    expect(host.get_by_role("link", name="A cash game")).to_have_count(0)
    expect(host.locator(".night-opens")).to_contain_text("can be opened on the night itself")
    fits(host, artifacts, "night-days-ahead")
    token = host.locator('input[name="csrfmiddlewaretoken"]').first.input_value()
    host.evaluate(
        """([action, token]) => {
            const form = document.createElement("form");
            form.method = "post";
            form.action = action;
            const field = document.createElement("input");
            field.type = "hidden";
            field.name = "csrfmiddlewaretoken";
            field.value = token;
            form.append(field);
            document.body.append(form);
            form.submit();
        }""",
        [night_url + "open/", token],
    )
    host.wait_for_url(night_url)
    expect(host.locator(".messages")).to_contain_text("can be opened on the night itself, from 12 hours")
    expect(host.locator(".night-opens")).to_be_visible()  # still no table
    fits(host, artifacts, "night-opened-too-early")

    # Tonight's night, scheduled the same way, offers the table.
    host.get_by_role("link", name="All nights").click()
    tonight = (datetime.now(UTC) + timedelta(hours=2)).replace(second=0, microsecond=0)
    schedule(host, tonight, "Bikash's")
    expect(host.get_by_role("button", name="Open tonight's table")).to_be_visible()
    host.get_by_role("button", name="Open tonight's table").click()
    host.wait_for_url(re.compile(r"/tables/[A-Z0-9]+/$"))


def test_only_a_friend_who_may_have_been_the_guest_is_asked_to_claim_her_seat(new_page, live_site, artifacts):
    home_game = live_site.scenario("guest-night")["home_game"]
    page_url = f"/ledger/home-games/{home_game}/"
    chandra = new_page("chandra", viewport=PHONE)  # not at the night: she may have been Gita
    chandra.goto(page_url)
    claim = chandra.locator("details.claimable")
    expect(claim.locator("summary")).to_have_text(CLAIM)
    claim.locator("summary").click()
    expect(claim).to_contain_text("Gita")
    fits(chandra, artifacts, "claim-phone")
    bikash = new_page("bikash", viewport=PHONE)  # he sat there with his own account
    bikash.goto(page_url)
    expect(bikash.locator("h1")).to_have_text("Guest night")
    expect(bikash.get_by_text(CLAIM)).to_have_count(0)
    fits(bikash, artifacts, "no-claim-phone")
    host = new_page("hostuser", viewport=LAPTOP)  # she hosted it
    host.goto(page_url)
    expect(host.locator("h1")).to_have_text("Guest night")
    expect(host.get_by_text(CLAIM)).to_have_count(0)
    fits(host, artifacts, "no-claim-host")
    # Chandra says she was Gita: the claim waits for the host, and no seat is offered again.
    chandra.get_by_role("button", name="This was me").click()
    expect(chandra.locator(".claims")).to_contain_text("waiting for the host")
    expect(chandra.get_by_text(CLAIM)).to_have_count(0)
