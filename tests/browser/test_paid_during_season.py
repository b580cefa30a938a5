"""Paying during an open season, in real browsers (issue 38, payments): a friend on a phone
marks a transfer of the open season he pays or is paid; the payment is listed under "Paid
during the season" with who marked it, the season lists it no more, and the host (who may mark
any transfer) sees it too. Each page fits 390 px and 1200 px with no serious axe finding."""

from __future__ import annotations

import re

from playwright.sync_api import expect

from tests.browser.test_home_game_nights import PHONE, _amount, fits


def _rows(page):
    """(from, to, cents) of each transfer the open season lists on the page."""
    rows = page.locator(".season .season-transfers tbody tr")
    found = []
    for index in range(rows.count()):
        cells = rows.nth(index).locator("td")
        found.append((cells.nth(0).inner_text(), cells.nth(1).inner_text(), _amount(cells.nth(2).inner_text())))
    return found


def test_a_friend_marks_a_payment_during_the_season_from_a_phone(new_page, live_site, artifacts):
    home_game = live_site.scenario("season")["home_game"]
    url = f"/ledger/home-games/{home_game}/"
    host = new_page("hostuser")
    host.goto(url)
    before = _rows(host)
    assert len(before) >= 2, before
    # The host may mark every transfer of the open season.
    expect(host.locator(".season .season-transfers").get_by_role("button", name="Mark paid")).to_have_count(len(before))
    # A friend sees a button on each transfer he pays or is paid, and on no other: the first
    # friend at one end of some transfers but not all (whoever the night's cards made pay) marks his.
    for username in ("bikash", "chandra", "deepa"):
        own = [transfer for transfer in before if username.capitalize() in transfer[:2]]
        if 0 < len(own) < len(before):
            break
    else:
        raise AssertionError(f"no friend is at one end of some transfers but not all: {before}")
    phone = new_page(username, viewport=PHONE)
    phone.goto(url)
    buttons = phone.locator(".season .season-transfers").get_by_role("button", name="Mark paid")
    expect(buttons).to_have_count(len(own))  # his own transfers only
    row = buttons.first.locator("xpath=ancestor::tr[1]")
    cells = row.locator("td")
    paid = (cells.nth(0).inner_text(), cells.nth(1).inner_text(), _amount(cells.nth(2).inner_text()))
    buttons.first.click()
    phone.wait_for_url(re.compile(re.escape(url) + "$"))
    payments = phone.locator(".season-payments tbody tr")
    expect(payments).to_have_count(1)
    expect(payments.first).to_contain_text(re.compile(r"Paid \(marked by .+, the (payer|payee)\)"))
    expect(payments.first.get_by_role("button", name="Undo")).to_be_visible()  # his own mark
    after = _rows(phone)
    assert paid not in after and len(after) < len(before), (paid, before, after)  # not listed again
    fits(phone, artifacts, "season-paid-during-phone")
    host.reload()
    expect(host.locator(".season-payments tbody tr")).to_have_count(1)
    expect(host.locator(".season-payments").get_by_role("button", name="Undo")).to_be_visible()  # the host: any
    assert _rows(host) == after
    fits(host, artifacts, "season-paid-during-host")
