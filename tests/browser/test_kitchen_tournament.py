"""A hold'em tournament at the kitchen table with levels of seconds (issue 39): the clock on
a 1920 x 1080 "TV" reached by the table's link, run from the host's phone.

The TV moves to the next level on time and counts down from the server's time, says when
the clock is paused (its time standing still) and resumes, goes back a level when the host
asks; two players going out together share second place; the last one standing ends the
tournament, and the TV says so. Its type is read back at 1920 x 1080 (the sizes
docs/kitchen-table.md states); axe finds nothing serious on the TV page or the host's pages.
"""

from __future__ import annotations

import re

from axe_playwright_python.sync_playwright import Axe
from playwright.sync_api import expect

from tests.browser.test_pages_layout import FAILING_IMPACTS, page_problems

PHONE = {"width": 390, "height": 844}
TV = {"width": 1920, "height": 1080}


def serious(page):
    return [v["id"] for v in Axe().run(page).response["violations"] if v["impact"] in FAILING_IMPACTS]


def font_px(page, selector):
    return page.eval_on_selector(selector, "node => parseFloat(getComputedStyle(node).fontSize)")


def open_on_a_phone(new_page, levels):
    """The host opens a tournament of 1,000 chips, these levels, re-buys through level 1 and
    prizes 50/30/20 on their phone; the page checked before it is sent."""
    host = new_page("hostuser", viewport=PHONE)
    host.goto("/kitchen/new/tournament/")
    host.locator("#id_starting_chips").fill("1000")
    host.locator("#id_structure_custom").check()
    host.locator("#id_levels").fill(levels)
    host.locator("#id_rebuy_levels").fill("1")
    host.locator("#id_payouts").select_option("50/30/20")
    assert page_problems(host) == []
    host.get_by_role("button", name="Open the tournament").click()
    host.wait_for_url(re.compile(r"/kitchen/[A-Z0-9]+/$"))
    return host


def test_a_tournament_with_levels_of_seconds(new_page, artifacts):
    host = open_on_a_phone(new_page, "10 20 0 3s\n20 40 5 60s\n40 80 10 60s")
    host.get_by_role("row", name=re.compile("^Asha")).get_by_role("button", name="Buy-in").click()
    for name in ("Bina", "Chet", "Dipa"):
        host.locator("#add-name").fill(name)
        host.get_by_role("button", name="Add", exact=True).click()
    tv_link = host.get_by_role("link", name="The table TV page").get_attribute("href")

    tv = new_page(viewport=TV)
    tv.goto(tv_link)
    expect(tv.locator("#tv-waiting")).to_be_visible()
    expect(tv.locator("#tv-players")).to_have_text("4")
    expect(tv.locator("#tv-pool")).to_have_text("40.00")
    assert serious(tv) == []

    host.get_by_role("button", name="Start the clock").click()
    expect(tv.locator("#tv-title")).to_have_text("Level 1")
    expect(tv.locator("#tv-blinds")).to_have_text("10 / 20")
    # Three seconds later the TV is on level 2 by itself, with a tone.
    expect(tv.locator("#tv-title")).to_have_text("Level 2", timeout=10_000)
    expect(tv.locator("#tv-blinds")).to_have_text("20 / 40, ante 5")
    expect(tv.locator("#tv-next")).to_have_text("40 / 80, ante 10")
    assert int(tv.locator("#tv").get_attribute("data-level-changes")) >= 1
    tv.screenshot(path=str(artifacts / "tv.png"))
    assert font_px(tv, "#tv-time") >= 230
    assert font_px(tv, "#tv-title") >= 95 and font_px(tv, "#tv-blinds") >= 95
    assert font_px(tv, ".tv-facts") >= 50 and font_px(tv, "#tv-payouts") >= 50

    host.reload()
    host.get_by_role("button", name="Pause").click()
    expect(tv.locator("#tv-paused")).to_be_visible()
    tv.wait_for_timeout(500)  # the next tick draws the paused time
    stood = tv.locator("#tv-time").inner_text()
    tv.wait_for_timeout(2500)  # two polls: a paused clock's time stands still
    assert tv.locator("#tv-time").inner_text() == stood
    host.get_by_role("button", name="Resume").click()
    expect(tv.locator("#tv-paused")).to_be_hidden()
    host.get_by_role("button", name="Level back").click()  # to the start of level 2
    expect(tv.locator("#tv-time")).to_have_text(re.compile(r"^0[01]:[0-9]{2}$"))

    # Dipa goes out (4th); Bina and Chet together share second: the tournament is over.
    out = host.get_by_role("group", name=re.compile("^Who goes out"))
    out.get_by_label("Dipa").check()
    host.get_by_role("button", name="Record who went out").click()
    expect(tv.locator("#tv-players")).to_have_text("3")
    out.get_by_label("Bina").check()
    out.get_by_label("Chet").check()
    host.get_by_role("button", name="Record who went out").click()
    expect(tv.locator("#tv-ended")).to_be_visible()
    assert page_problems(host) == []
    # 40.00 at 50/30/20: Asha 20.00; Bina and Chet share 30% + 20%: 10.00 each; Dipa nothing.
    # Less the 10.00 each paid: the one payment is Dipa's to Asha.
    expect(host.locator(".kitchen-transfers li")).to_have_text(["Dipa pays Asha 10.00"])
