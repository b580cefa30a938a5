"""What a second new group met in real browsers (issue 38's "done when").

- A member whose time zone is Asia/Kathmandu (chosen at sign-up) reads the table's settle-up ("Every entry, as
  recorded") in her zone, with the weekday and the date, in the language's own Django
  formats, as the nights' pages write times. It was in UTC, with the time of day alone.
- A guest (no account, so no zone of her own) reads the same entries in UTC, and the page
  says so.
- A friend who reads the site in German through her browser's language (her account's
  language left to the browser) gets the night's invitation in German. It came in English.
- A friend who joined without an e-mail address, and so was skipped, gets the invitation of
  the night ahead once she adds her address on her profile. It never came.
"""

from __future__ import annotations

import re
from datetime import UTC, date, datetime, timedelta
from urllib.parse import urlsplit
from zoneinfo import ZoneInfo

from django.utils import formats, translation
from playwright.sync_api import expect

from tests.browser.driver import join_table, open_table

PHONE = {"width": 390, "height": 844}
LAPTOP = {"width": 1280, "height": 800}


def _written(moment: datetime) -> str:
    """``moment`` as the pages write a time in English: weekday, DATE_FORMAT, TIME_FORMAT."""
    with translation.override("en"):
        return ", ".join(
            (
                formats.date_format(moment, "l"),
                formats.date_format(moment, "DATE_FORMAT"),
                formats.time_format(moment, "TIME_FORMAT"),
            )
        )


def _each_minute(before: datetime, after: datetime, zone: ZoneInfo) -> set[str]:
    """Every minute from ``before`` to ``after`` as written in ``zone``: an entry written
    between the two readings shows one of them."""
    steps = int((after - before).total_seconds() // 60) + 2
    return {_written((before + timedelta(minutes=step)).astimezone(zone)) for step in range(steps)}


def _entry_time(page, player: str) -> tuple[str, datetime]:
    """The time on the settle-up's entry of ``player``'s buy-in: as written, and as stamped."""
    row = page.locator("tr.entry", has=page.locator("td", has_text=re.compile(f"^{player}$"))).first
    stamp = row.locator("time")
    # In a closed <details>: text_content, not inner_text.
    shown = (stamp.text_content() or "").strip()
    return shown, datetime.fromisoformat(stamp.get_attribute("datetime") or "")


def test_the_settle_up_writes_entry_times_in_the_viewers_zone(new_page):
    # A new account (the test users' zones stay as the other tests expect), Kathmandu chosen at sign-up.
    host = new_page(viewport=PHONE, timezone_id="Asia/Kathmandu")
    host.goto("/accounts/signup/")
    _sign_up(host, "asha-ktm", "", zone="Asia/Kathmandu")
    expect(host.locator(".messages")).to_contain_text("Welcome, Asha-Ktm.")

    code = open_table(host, "faras")
    before = datetime.now(UTC)
    host.locator('#between-hands [data-command="take"]').click()
    expect(host.locator("#between-hands")).to_contain_text("Seat 1")
    after = datetime.now(UTC)

    guest = new_page(viewport=PHONE, timezone_id="Asia/Kathmandu")
    link = host.locator("#join-link").input_value()
    guest_before = datetime.now(UTC)
    join_table(guest, link, guest_name="Gita")  # seated as she joins
    expect(host.locator(".seat")).to_have_count(2)
    guest_after = datetime.now(UTC)

    host.goto(f"/ledger/tables/{code}/")
    expect(host.locator(".ledger-entries")).to_contain_text("Times in your time zone, Asia/Kathmandu.")
    shown, stamped = _entry_time(host, "Asha-Ktm")
    assert before - timedelta(seconds=1) <= stamped <= after + timedelta(seconds=1), (stamped, before, after)
    assert shown in _each_minute(before, after, ZoneInfo("Asia/Kathmandu")), shown
    # The guest's buy-in too, on the member's page: every entry in her zone.
    shown, _stamped = _entry_time(host, "Gita")
    assert shown in _each_minute(guest_before, guest_after, ZoneInfo("Asia/Kathmandu")), shown

    # The guest has no zone of her own: UTC, said on the page.
    guest.goto(f"/ledger/tables/{code}/")
    expect(guest.locator(".ledger-entries")).to_contain_text("Times in UTC.")
    shown, _stamped = _entry_time(guest, "Asha-Ktm")
    assert shown in _each_minute(before, after, ZoneInfo("UTC")), shown


def _home_game(host, name: str) -> str:
    """A new home game of the host's; its invite link."""
    host.goto("/ledger/home-games/new/")
    host.locator('[name="name"]').fill(name)
    host.locator("form.form button[type=submit]").click()
    host.wait_for_url(re.compile(r"/ledger/home-games/\d+/$"))
    return host.locator("#invite-link").input_value()


def _schedule_a_night(host, template: str) -> None:
    """From the home game's page: a template, then a night nine days ahead."""
    host.get_by_role("link", name="Nights ahead").click()
    host.get_by_role("link", name="New template").click()
    host.locator('[name="name"]').fill(template)
    host.locator("form.settings-form button[type=submit]").click()
    host.get_by_role("link", name="Schedule a night").click()
    host.locator('[name="date"]').fill((date.today() + timedelta(days=9)).isoformat())
    host.locator('[name="time"]').fill("19:30")
    host.locator('[name="place"]').fill("Asha's flat")
    host.locator('[name="template"]').select_option(label=template)
    host.locator('[name="seat_limit"]').fill("6")
    host.locator("form.form button[type=submit]").click()
    host.wait_for_url(re.compile(r"/home-games/\d+/nights/\d+/$"))


def _sign_up(page, username: str, email: str, *, zone: str = "") -> None:
    """The sign-up form, filled by the fields' names (the page's words are in its language)."""
    page.locator('[name="username"]').fill(username)
    page.locator('[name="display_name"]').fill(username.title())
    page.locator('[name="email"]').fill(email)
    if zone:
        page.locator('[name="time_zone"]').select_option(zone)
    for field in ("password1", "password2"):
        page.locator(f'[name="{field}"]').fill("evening-in-patan-42")
    page.locator("main form button[type=submit]").click()


def _sign_up_and_join(page, invite: str, username: str, email: str) -> None:
    """From the invite link, not signed in: sign up, come back to the link, and join, giving
    no address there."""
    page.goto(invite)
    page.locator('main a[href*="/accounts/signup/"]').click()
    _sign_up(page, username, email)
    page.wait_for_url(re.compile(re.escape(urlsplit(invite).path) + "$"))  # back to the link
    page.locator("main form button[type=submit]").click()
    page.wait_for_url(re.compile(r"/ledger/home-games/\d+/$"))


def test_a_friend_who_reads_the_site_in_german_is_written_to_in_german(new_page, live_site):
    host = new_page("hostuser", viewport=LAPTOP)
    invite = _home_game(host, "Zweite Runde")

    greta = new_page(viewport=PHONE)
    greta.set_extra_http_headers({"Accept-Language": "de-DE,de;q=0.9,en;q=0.5"})
    _sign_up_and_join(greta, invite, "greta", "greta@example.test")
    expect(greta.locator("html")).to_have_attribute("lang", "de")  # her browser's language

    _schedule_a_night(host, "Zweites Faras")
    invitation = live_site.mailbox.wait_for("greta@example.test", "Zweite Runde")
    assert str(invitation["Subject"]).startswith("Ein Abend von Zweite Runde: "), invitation["Subject"]


def test_a_friend_who_adds_her_address_later_gets_the_invitation_she_missed(new_page, live_site):
    host = new_page("hostuser", viewport=LAPTOP)
    invite = _home_game(host, "Third group Faras")
    hema = new_page(viewport=PHONE)
    _sign_up_and_join(hema, invite, "hema", "")
    bikash = new_page("bikash", viewport=PHONE)
    bikash.goto(invite)
    bikash.get_by_role("button", name="Join the home game").click()
    expect(bikash.locator("h1")).to_have_text("Third group Faras")

    _schedule_a_night(host, "Third Faras")
    # The sweep that sent Bikash his invitation skipped hers: no address.
    live_site.mailbox.wait_for("bikash@example.test", "A night of Third group Faras")

    hema.goto("/accounts/profile/")
    hema.locator('[name="email"]').fill("hema@example.test")
    hema.locator("main form button[type=submit]").click()
    expect(hema.locator(".messages")).to_contain_text("Your profile is saved.")
    live_site.mailbox.wait_for("hema@example.test", "A night of Third group Faras")
