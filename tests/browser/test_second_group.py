"""What a second new group met in real browsers (issue 38's "done when").

- A member whose time zone is Asia/Kathmandu reads the table's settle-up ("Every entry, as
  recorded") in her zone, with the weekday and the date, in the language's own Django
  formats, as the nights' pages write times. It was in UTC, with the time of day alone.
- A guest (no account, so no zone of her own) reads the same entries in UTC, and the page
  says so.
"""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta
from zoneinfo import ZoneInfo

from django.utils import formats, translation
from playwright.sync_api import expect

from tests.browser.driver import join_table, open_table

PHONE = {"width": 390, "height": 844}


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
    host = new_page("hostuser", viewport=PHONE, timezone_id="Asia/Kathmandu")
    host.goto("/home-games/calendar-settings/")
    host.locator('[name="time_zone"]').select_option("Asia/Kathmandu")
    host.locator("main form button[type=submit]").first.click()
    expect(host.locator(".messages")).to_contain_text("Your calendar settings are saved.")

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
    shown, stamped = _entry_time(host, "Asha")
    assert before - timedelta(seconds=1) <= stamped <= after + timedelta(seconds=1), (stamped, before, after)
    assert shown in _each_minute(before, after, ZoneInfo("Asia/Kathmandu")), shown
    # The guest's buy-in too, on the member's page: every entry in her zone.
    shown, _stamped = _entry_time(host, "Gita")
    assert shown in _each_minute(guest_before, guest_after, ZoneInfo("Asia/Kathmandu")), shown

    # The guest has no zone of her own: UTC, said on the page.
    guest.goto(f"/ledger/tables/{code}/")
    expect(guest.locator(".ledger-entries")).to_contain_text("Times in UTC.")
    shown, _stamped = _entry_time(guest, "Asha")
    assert shown in _each_minute(before, after, ZoneInfo("UTC")), shown
