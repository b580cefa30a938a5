"""A home game's night, played through as a host and two friends would, in real browsers.

Rules pinned (issue 26): the host starts a home game and shares its invite link; two
friends join from phone-sized pages (390 x 844); the host keeps a template of the game and
schedules a night from it with a seat limit; the friends answer from their phones, one
lands on the waiting list and moves up when the other says no; the host opens tonight's
table from the night; the friend who is coming takes her seat without the table's invite
link. Every page along the way fits both sizes (no sideways scroll, axe's serious findings).
The e-mails (the invitations, the seat freed for whoever waited) arrive at a real SMTP server
the test harness starts (aiosmtpd), and the night's ``.ics`` and a member's private calendar
feed parse as iCalendar.
"""

from __future__ import annotations

import re
import urllib.parse
import urllib.request
from datetime import UTC, datetime, timedelta

from icalendar import Calendar
from playwright.sync_api import expect

from tests.browser.driver import save_screenshot
from tests.browser.test_pages_layout import page_problems

PHONE = {"width": 390, "height": 844}


def fits(page, artifacts, name):
    save_screenshot(page, str(artifacts / f"{name}.png"), full_page=True)
    assert page_problems(page) == [], name


def the_event(body: bytes):
    (event,) = Calendar.from_ical(body).walk("VEVENT")
    return event


def test_a_night_from_invitation_to_tonights_table(new_page, live_site, artifacts):
    host = new_page("hostuser")
    host.goto("/ledger/home-games/new/")
    host.locator('[name="name"]').fill("Browser Faras")
    host.locator("form.form button[type=submit]").click()
    host.wait_for_url(re.compile(r"/ledger/home-games/\d+/$"))
    home_game_url = host.url
    invite = host.locator("#invite-link").input_value()
    assert "/ledger/join/" in invite
    fits(host, artifacts, "home-game-host")

    friends = {name: new_page(name, viewport=PHONE) for name in ("bikash", "chandra")}
    for name, page in friends.items():
        page.goto(invite)
        fits(page, artifacts, f"join-{name}")
        page.get_by_role("button", name="Join the home game").click()
        expect(page.locator("h1")).to_have_text("Browser Faras")
    fits(friends["bikash"], artifacts, "home-game-phone")

    # The host keeps "our Faras" and schedules a night from it: two seats.
    host.goto(home_game_url)
    host.get_by_role("link", name="Nights ahead").click()
    host.get_by_role("link", name="New template").click()
    host.locator('[name="name"]').fill("Our Faras")
    host.locator("form.settings-form button[type=submit]").click()
    host.get_by_role("link", name="Schedule a night").click()
    # Tonight, two hours ahead (the host's zone is UTC): tonight's table may be opened.
    starts = (datetime.now(UTC) + timedelta(hours=2)).replace(second=0, microsecond=0)
    host.locator('[name="date"]').fill(starts.date().isoformat())
    host.locator('[name="time"]').fill(f"{starts:%H:%M}")
    host.locator('[name="place"]').fill("Asha's flat")
    host.locator('[name="template"]').select_option(label="Our Faras")
    host.locator('[name="seat_limit"]').fill("2")
    host.locator("form.form button[type=submit]").click()
    host.wait_for_url(re.compile(r"/home-games/\d+/nights/\d+/$"))
    night_url = host.url
    expect(host.locator(".lead")).to_contain_text("0 of 2 seats taken")
    # The invitations reach the SMTP server; the night's .ics parses (the host's zone is UTC).
    for name in ("bikash", "chandra"):
        invitation = live_site.mailbox.wait_for(f"{name}@example.test", "A night of Browser Faras")
        assert urllib.parse.urlsplit(night_url).path in invitation.get_body(preferencelist=("plain",)).get_content()
        (request,) = [part for part in invitation.walk() if part.get_content_type() == "text/calendar"]
        assert request.get_param("method") == "REQUEST"  # a calendar invitation, accepted in place
        (attached,) = invitation.iter_attachments()
        assert attached.get_filename() == "night.ics" and attached.get_content() == request.get_content().encode()
    ics = host.request.get(night_url + "night.ics")
    assert ics.ok and ics.headers["content-type"].startswith("text/calendar")
    event = the_event(ics.body())
    assert event.decoded("dtstart") == starts
    assert str(event["location"]) == "Asha's flat" and str(event["status"]) == "CONFIRMED"
    host.get_by_role("button", name="Yes", exact=True).click()
    expect(host.locator(".my-answer")).to_have_text("You are coming.")

    # Bikash says yes (the last seat), Chandra says yes (the waiting list).
    bikash, chandra = friends["bikash"], friends["chandra"]
    bikash.goto(night_url)
    bikash.get_by_role("button", name="Yes", exact=True).click()
    expect(bikash.locator(".my-answer")).to_have_text("You are coming.")
    chandra.goto(night_url)
    chandra.get_by_role("button", name="Yes", exact=True).click()
    expect(chandra.locator(".my-answer")).to_contain_text("You are on the waiting list")
    expect(chandra.locator(".answers--waiting")).to_contain_text("Chandra")
    fits(chandra, artifacts, "night-waiting-phone")

    # Bikash cannot come after all: Chandra moves up by herself.
    bikash.get_by_role("button", name="No").click()
    expect(bikash.locator(".my-answer")).to_have_text("You are not coming.")
    chandra.reload()
    expect(chandra.locator(".my-answer")).to_have_text("You are coming.")
    expect(chandra.locator(".answers--coming")).to_contain_text("Chandra")
    seat_mail = live_site.mailbox.wait_for("chandra@example.test", "You have a seat")
    assert urllib.parse.urlsplit(night_url).path in seat_mail.get_body(preferencelist=("plain",)).get_content()
    # Chandra's private feed, read as a phone calendar would: no cookie, the token is the key.
    chandra.goto(night_url.rsplit("/", 2)[0] + "/")
    feed_url = chandra.locator("#feed-link").input_value()
    fits(chandra, artifacts, "nights-feed-phone")
    with urllib.request.urlopen(feed_url, timeout=10) as response:
        assert str(the_event(response.read())["uid"]) == str(event["uid"])

    # The host opens tonight's table from the night; Chandra sits down without its link.
    host.reload()
    fits(host, artifacts, "night-host")
    host.get_by_role("button", name="Open tonight's table").click()
    host.wait_for_url(re.compile(r"/tables/[A-Z0-9]+/$"))
    table_url = host.url
    expect(host.locator(".seat")).to_have_count(1)  # she said yes: opening the table seated her
    expect(host.locator(".seat")).to_contain_text("Asha")
    chandra.goto("/tables/")
    expect(chandra.locator(".tonight")).to_contain_text("Browser Faras")
    fits(chandra, artifacts, "lobby-tonight-phone")
    chandra.get_by_role("button", name="Take your seat").click()
    chandra.wait_for_url(table_url)
    expect(chandra.locator(".seat")).to_have_count(2)
    expect(host.locator(".seat", has_text="Chandra")).to_have_count(1)
    # Bikash, who said no, finds no table to sit at.
    bikash.goto("/tables/")
    expect(bikash.locator(".tonight")).to_have_count(0)


def _amount(text: str) -> int:
    """ "+8.50" / "-3.50" / "8.50" (any currency code around it) -> cents."""
    number = re.search(r"[-+\u2212]?\d[\d,]*\.\d\d", text.replace("\u2212", "-"))
    assert number is not None, text
    return round(float(number.group().replace(",", "")) * 100)


def test_three_nights_settle_once_for_the_season_with_one_transfer_carried(new_page, live_site, artifacts):
    from tests.ledger.test_settlement import brute_force_minimum

    home_game = live_site.scenario("season")["home_game"]
    host = new_page("hostuser")
    host.goto(f"/ledger/home-games/{home_game}/")
    rows = host.locator(".season .season-people tbody tr")
    nets = {}
    for index in range(rows.count()):
        row = rows.nth(index)
        nets[row.locator("th").inner_text().strip()] = _amount(row.locator(".net").inner_text())
    assert len(nets) == 4 and sum(nets.values()) == 0, nets
    transfers = host.locator(".season .season-transfers tbody tr")
    paid = dict(nets)
    for index in range(transfers.count()):
        cells = transfers.nth(index).locator("td")
        payer, payee, cents = cells.nth(0).inner_text(), cells.nth(1).inner_text(), _amount(cells.nth(2).inner_text())
        assert nets[payer] < 0 < nets[payee] and cents > 0
        paid[payer] += cents
        paid[payee] -= cents
    assert set(paid.values()) == {0}, paid  # the transfers settle every net, to the cent
    count = transfers.count()
    assert count == brute_force_minimum(list(nets.values())) and count >= 2, (count, nets)
    fits(host, artifacts, "season-host")

    # The host corrects a buy-in of the first night from a phone, trying the entries in order
    # (a player whose stack was played is refused); nobody's net moves.
    report = host.locator('a[href*="/ledger/tables/"]').first.get_attribute("href")
    corrector = new_page("hostuser", viewport=PHONE)
    corrector.goto(report.rstrip("/") + "/correct/")
    fits(corrector, artifacts, "correct-phone")
    for index in range(corrector.locator("form.correction-form").count()):
        form = corrector.locator("form.correction-form").nth(index)
        form.locator('[name="reason"]').fill("typed twice")
        form.get_by_role("button", name="Reverse this entry").click()
        corrector.wait_for_load_state()
        if "/correct/" not in corrector.url:
            break
        expect(corrector.locator(".message")).to_contain_text("were played")
    expect(corrector.locator(".correction")).to_contain_text("typed twice")
    expect(corrector.locator(".correction")).to_contain_text("Asha reversed")
    fits(corrector, artifacts, "corrected-report-phone")
    host.reload()
    expect(host.locator(".corrections .correction")).to_contain_text("typed twice")
    for index in range(rows.count()):
        row = rows.nth(index)
        assert _amount(row.locator(".net").inner_text()) == nets[row.locator("th").inner_text().strip()]
    phone = new_page("bikash", viewport=PHONE)
    phone.goto(f"/ledger/home-games/{home_game}/")
    expect(phone.locator(".season .season-transfers tbody tr")).to_have_count(count)
    fits(phone, artifacts, "season-phone")

    # The host closes the season and marks one transfer paid; the others are carried.
    host.get_by_role("button", name="Close the season").click()
    expect(host.get_by_role("heading", name="Close the season?")).to_be_visible()  # it asks first
    fits(host, artifacts, "season-close-confirm")
    host.get_by_role("button", name="Yes, close the season").click()
    host.wait_for_url(re.compile(r"/seasons/1/$"))
    host.locator(".season-transfers").get_by_role("button", name="Mark paid").first.click()
    host.wait_for_url(re.compile(r"/seasons/1/$"))
    expect(host.locator(".season-transfers .transfer--paid")).to_have_count(1)
    fits(host, artifacts, "season-closed")
    phone.goto(f"/ledger/home-games/{home_game}/")
    expect(phone.locator("h3", has_text="Still unpaid from earlier seasons")).to_be_visible()
    expect(phone.locator(".season-transfers tbody tr")).to_have_count(count - 1)
    expect(phone.locator(".season-people")).to_have_count(0)  # season 2 has no night yet
    fits(phone, artifacts, "season-carried-phone")
