"""What the third new group met (issue 38's trial, third run), in a real browser: a host far
from UTC closes a season and reads the day it closed.

Rule pinned: the closing day of a season, on the season's page and under "Past seasons" on the
home game page, is written in the reader's time zone, as every other date of these pages is.
The host's zone is chosen so that her day differs from UTC's when the test runs (Kiritimati,
UTC+14, from 10:00 UTC; Niue, UTC-11, before), so a date written in UTC shows.
"""

from __future__ import annotations

import re
from datetime import UTC, datetime
from zoneinfo import ZoneInfo

from django.utils import formats, translation
from playwright.sync_api import expect

from tests.browser.test_newcomer_group import LAPTOP


def _far_zone() -> str:
    """A zone whose day differs from UTC's right now."""
    return "Pacific/Kiritimati" if datetime.now(UTC).hour >= 10 else "Pacific/Niue"


def _day(zone: str) -> str:
    """Today in ``zone``, as the English pages write a date."""
    with translation.override("en"):
        return str(formats.date_format(datetime.now(ZoneInfo(zone)).date(), "DATE_FORMAT"))


def test_a_seasons_closing_day_is_the_hosts_day(new_page, live_site):
    home_game = live_site.scenario("season")["home_game"]
    zone = _far_zone()
    host = new_page("hostuser", viewport=LAPTOP, timezone_id=zone)
    host.goto("/home-games/calendar-settings/")
    host.locator('[name="time_zone"]').select_option(zone)
    host.locator("main form.form button[type=submit]").click()
    expect(host.locator(".messages")).to_contain_text("Your calendar settings are saved.")

    host.goto(f"/ledger/home-games/{home_game}/")
    before = _day(zone)
    host.get_by_role("button", name="Close the season").click()
    host.get_by_role("button", name="Yes, close the season").click()
    host.wait_for_url(re.compile(rf"/ledger/home-games/{home_game}/seasons/\d+/$"))
    days = {before, _day(zone)}  # the host's day when she closed it (midnight may pass between)
    closed = host.locator("main .aside").first.inner_text()
    assert any(f"Closed on {day}" in closed for day in days), (closed, days)

    host.goto(f"/ledger/home-games/{home_game}/")
    past = host.locator("main").inner_text()
    assert any(re.search(rf"Season \d+, closed on {re.escape(day)}", past) for day in days), (past, days)
