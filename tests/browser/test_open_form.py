"""The open-a-table form in a real browser: illegal input is refused next to its field.

Rule pinned (rule book 000): the boot is 1 to 100 chips; Faras seats are 2 to 8. The
refusal appears beside the field, the value stays for correcting, and no table opens.
"""

from __future__ import annotations

import re

from playwright.sync_api import expect

from tests.browser.driver import save_screenshot


def test_illegal_settings_are_refused_with_a_message_next_to_the_field(new_page, artifacts):
    page = new_page("hostuser")
    page.goto("/tables/open/?game=faras")
    expect(page.locator('[name="boot"]')).to_have_value("10")
    expect(page.locator('[name="buy_in_chips"]')).to_have_value("1000")
    expect(page.locator('[name="blind_turns"]')).to_have_value("4")
    page.locator('[name="boot"]').fill("500")
    page.locator('[name="seats"]').fill("12")
    page.locator("form.settings-form button[type=submit]").click()
    save_screenshot(page, str(artifacts / "refused.png"), full_page=True)

    assert re.search(r"/tables/open/", page.url)
    boot_field = page.locator('.field[data-field="boot"]')
    expect(boot_field.locator(".field-error")).to_contain_text("100")
    expect(boot_field.locator('[name="boot"]')).to_have_value("500")
    expect(boot_field.locator('[name="boot"]')).to_have_attribute("aria-invalid", "true")
    expect(page.locator('.field[data-field="seats"] .field-error')).to_contain_text("8")
    # fields that were fine carry no message
    expect(page.locator('.field[data-field="buy_in_chips"] .field-error')).to_have_count(0)

    page.locator('[name="boot"]').fill("20")
    page.locator('[name="seats"]').fill("4")
    page.locator("form.settings-form button[type=submit]").click()
    page.wait_for_url(re.compile(r"/tables/[A-Z0-9]+/$"))
    expect(page.locator("#stake")).to_have_text("")  # no hand yet; the table page is up
