"""A ten-player tournament at the kitchen table (issue 39, "Done when"): the clock on a
1920 x 1080 "TV", the host's eliminations from a phone, a short structure (a first level of
12 seconds).

The host buys in and adds nine people; the clock starts; a re-buy in the first level (the
re-buy period) goes into the pool on the TV, and once the TV has moved to level 2 by
itself another is refused. A second TV page whose browser clock is 90 seconds wrong shows
the same time as the first and as the server (the pages count from the server's time). The
clock pauses and resumes; six go out one by one, two together with four left share third,
and the last one out is second. Prizes of the 110.00 pool at 50/30/20: 55.00, 33.00, and
11.00 each for the two sharing third, the same on the night's page and in its CSV. axe finds
nothing serious on the TV page or the host's page.
"""

from __future__ import annotations

import csv
import io
import re
from decimal import Decimal

from playwright.sync_api import expect

from tests.browser.test_kitchen_tournament import TV, open_on_a_phone, serious
from tests.browser.test_pages_layout import page_problems

NAMES = ("Bina", "Chet", "Dipa", "Ekta", "Firoz", "Gita", "Hari", "Indra", "Jaya")
#: The second TV's browser clock, 90 s behind the server's.
SKEW_SCRIPT = """
(() => {
  const realNow = Date.now.bind(Date);
  Date.now = () => realNow() - 90000;
})();
"""


def seconds(text):
    minutes, secs = text.split(":")
    return int(minutes) * 60 + int(secs)


def clocks_agree(tv, skewed, host, state_url):
    """The two TVs and the server's time left, read one after the other (a few tries: the
    reads are not at one instant, and a second may tick between them)."""
    readings = []
    for _ in range(5):
        first = seconds(tv.locator("#tv-time").inner_text())
        second = seconds(skewed.locator("#tv-time").inner_text())
        server = host.request.get(state_url).json()["left_ms"] / 1000
        readings.append((first, second, server))
        if abs(first - second) <= 1 and abs(first - server) <= 2:
            return readings
    raise AssertionError(f"the TVs and the server disagree: {readings}")


def test_ten_players_a_tie_for_third_and_prizes_to_the_cent(new_page):
    host = open_on_a_phone(new_page, "10 20 0 12s\n20 40 5 600s\n40 80 10 600s")
    night_url = host.url
    host.get_by_role("row", name=re.compile("^Asha")).get_by_role("button", name="Buy-in").click()
    for name in NAMES:
        host.locator("#add-name").fill(name)
        host.get_by_role("button", name="Add", exact=True).click()
    tv_link = host.get_by_role("link", name="The table TV page").get_attribute("href")
    state_url = tv_link + "state/"

    tv = new_page(viewport=TV)
    tv.goto(tv_link)
    skewed = new_page(viewport=TV)
    skewed.context.add_init_script(SKEW_SCRIPT)
    skewed.goto(tv_link)
    for page in (tv, skewed):
        expect(page.locator("#tv-players")).to_have_text("10")
        expect(page.locator("#tv-pool")).to_have_text("100.00")

    host.get_by_role("button", name="Start the clock").click()
    expect(tv.locator("#tv-title")).to_have_text("Level 1")
    host.get_by_role("row", name=re.compile("^Bina")).get_by_role("button", name="Re-buy").click()
    expect(host.get_by_text("Done.")).to_be_visible()  # within the first level: the re-buy period
    expect(tv.locator("#tv-pool")).to_have_text("110.00")
    expect(tv.locator("#tv-payouts li")).to_have_text(["1: 55.00", "2: 33.00", "3: 22.00"])
    # Twelve seconds later both TVs are on level 2 by themselves; the re-buy period is over.
    for page in (tv, skewed):
        expect(page.locator("#tv-title")).to_have_text("Level 2", timeout=30_000)
    host.reload()
    host.get_by_role("row", name=re.compile("^Chet")).get_by_role("button", name="Re-buy").click()
    expect(host.get_by_text("The re-buy period is over.")).to_be_visible()
    expect(host.get_by_text("Players left: 10. Prize pool: 110.00.")).to_be_visible()
    # A browser clock 90 s wrong changes nothing: both count from the server's time.
    assert 60_000 < tv.evaluate("Date.now()") - skewed.evaluate("Date.now()") < 120_000
    clocks_agree(tv, skewed, host, state_url)
    assert serious(tv) == []

    host.get_by_role("button", name="Pause").click()
    for page in (tv, skewed):
        expect(page.locator("#tv-paused")).to_be_visible()
    left = -(-host.request.get(state_url).json()["left_ms"] // 1000)  # whole seconds, rounded up
    for page in (tv, skewed):  # a paused clock shows the server's time left, standing
        expect(page.locator("#tv-time")).to_have_text(f"{left // 60:02d}:{left % 60:02d}")
    host.get_by_role("button", name="Resume").click()
    for page in (tv, skewed):
        expect(page.locator("#tv-paused")).to_be_hidden()

    out = host.get_by_role("group", name=re.compile("^Who goes out"))
    for left_after, name in enumerate(reversed(NAMES[3:]), start=0):  # Jaya (10th) to Ekta (5th)
        out.get_by_label(name).check()
        host.get_by_role("button", name="Record who went out").click()
        expect(tv.locator("#tv-players")).to_have_text(str(9 - left_after))
    out.get_by_label("Chet").check()
    out.get_by_label("Dipa").check()
    host.get_by_role("button", name="Record who went out").click()  # together, with four left
    expect(tv.locator("#tv-players")).to_have_text("2")
    out.get_by_label("Bina").check()
    host.get_by_role("button", name="Record who went out").click()
    for page in (tv, skewed):
        expect(page.locator("#tv-ended")).to_be_visible()

    host.goto(night_url)
    places = host.locator(".kitchen-places tbody tr")
    expect(places).to_have_count(10)
    shown = [[cell.strip() for cell in row.locator("th, td").all_inner_texts()] for row in places.all()]
    assert shown[:4] == [
        ["1", "Asha", "55.00", "10.00", "45.00"],
        ["2", "Bina", "33.00", "20.00", "13.00"],
        ["3", "Chet", "11.00", "10.00", "1.00"],
        ["3", "Dipa", "11.00", "10.00", "1.00"],
    ]
    assert [row[0] for row in shown[4:]] == ["5", "6", "7", "8", "9", "10"]
    assert all(row[2:] == ["0.00", "10.00", "-10.00"] for row in shown[4:])
    assert sum(Decimal(row[2]) for row in shown) == Decimal("110.00")
    # The tournament's CSV says the same, to the cent.
    download = host.request.get(night_url + "tournament.csv")
    rows = list(csv.reader(io.StringIO(download.text())))
    start = next(i for i, row in enumerate(rows) if row and row[0] == "Place")
    assert [row[:5] for row in rows[start + 1 : start + 11]] == shown
    # Nets +45.00, +13.00, +1.00, +1.00 and six of -10.00: the payments add up to 60.00.
    transfers = host.locator(".kitchen-transfers li").all_inner_texts()
    assert sum(Decimal(re.search(r"([0-9.]+)$", line).group(1)) for line in transfers) == Decimal("60.00")
    assert page_problems(host) == []
    assert serious(host) == []
