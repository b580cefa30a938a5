"""The host approves seats and buy-backs, and bans from the table page, in real browsers.

Rules pinned (issue 14): with "I approve seats and buy-backs" ticked on the open form, a
guest who joins to take a seat sees that they wait for the host; the host's panel lists
the request and Approve seats the guest; a request withdrawn leaves the panel; a buy-back
asked for and denied leaves the stack as it was and tells the player, whose reloaded page
still tells it; the host's "ban for the rest of the game" (asked first in the page, no
browser dialog; a no sends nothing) removes the player and their page stops. Someone with
only the code asks from the lobby, waits (and may withdraw, and ask again), and once the
host approves, their waiting page opens the table.
"""

from __future__ import annotations

import re

from playwright.sync_api import expect

from tests.browser.driver import Player, ask_and_say_no, browser_dialogs, commands_sent, join_table, save_screenshot
from tests.browser.test_pages_layout import page_problems


def test_a_guest_waits_for_the_host_who_approves_the_seat_and_denies_a_buy_back(new_page, live_site, artifacts):
    host = Player("asha-host", new_page("hostuser"))
    host.listen()
    dialogs = browser_dialogs(host.page)
    live_site.set_next_table_code("APPR22")
    host.page.goto("/tables/open/?game=faras")
    host.page.locator('[name="approve_seats"]').check()
    host.page.locator("form.settings-form button[type=submit]").click()
    host.page.wait_for_url(re.compile(r"/tables/[A-Z0-9]+/$"))
    host.read_seat()
    host.page.locator('#between-hands [data-command="take"]').click()  # the host sits without asking
    expect(host.page.locator("#between-hands")).to_contain_text("Seat 1")
    expect(host.page.locator("#host-requests-box")).to_be_hidden()

    # The guest joins to take a seat: she is asked to wait, and watches meanwhile.
    link = host.page.locator("#join-link").input_value()
    dipa = Player("dipa", new_page())
    join_table(dipa.page, link, guest_name="Dipa")
    expect(dipa.page.locator(".messages")).to_contain_text("You asked the host for a seat")
    expect(dipa.page.locator("#between-hands")).to_contain_text("Waiting for the host to approve your seat.")
    expect(dipa.page.locator('#between-hands [data-command="take"]')).to_have_count(0)
    save_screenshot(dipa.page, str(artifacts / "waiting-dipa.png"), full_page=True)

    # The host's panel lists the request; Approve seats her.
    expect(host.page.locator("#host-requests")).to_contain_text("Dipa asks for a seat.")
    expect(host.page.locator("#requests-heading")).to_have_text("Waiting for your answer")
    expect(host.page.locator("#hand-log")).to_contain_text("Dipa asks the host for a seat.")
    save_screenshot(host.page, str(artifacts / "request-host.png"), full_page=True)
    host.page.locator('#host-requests [data-command="approve"]').click()
    expect(dipa.page.locator("#between-hands")).to_contain_text("Seat 2")
    expect(dipa.page.locator("#between-hands")).not_to_contain_text("Waiting for the host")
    # Issue 28: the banner "you watch until they answer" goes with the answer.
    expect(dipa.page.locator(".messages")).to_have_count(0)
    expect(host.page.locator("#host-requests-box")).to_be_hidden()
    expect(host.page.locator(".seat")).to_have_count(2)

    # She asks to buy in again and thinks better of it: the host's panel empties.
    dipa.page.locator('#between-hands [data-command="ask_buy_back"]').click()
    expect(host.page.locator("#host-requests")).to_contain_text("Dipa asks to buy in again.")
    dipa.page.locator('#between-hands [data-command="cancel"]').click()
    expect(host.page.locator("#host-requests-box")).to_be_hidden()
    expect(host.page.locator("#hand-log")).to_contain_text("Dipa withdraws their request.")

    # She asks again; the host says no: she is told, and her stack is as it was.
    dipa.page.locator('#between-hands [data-command="ask_buy_back"]').click()
    expect(dipa.page.locator("#between-hands")).to_contain_text("Waiting for the host to approve your buy-back.")
    expect(host.page.locator("#host-requests")).to_contain_text("Dipa asks to buy in again.")
    host.page.locator('#host-requests [data-command="deny"]').click()
    expect(dipa.page.locator("#between-hands")).to_contain_text("The host said no to your buy-back.")
    expect(dipa.page.locator("#between-hands")).to_contain_text("1,000 chips")
    expect(host.page.locator("#host-requests-box")).to_be_hidden()
    save_screenshot(dipa.page, str(artifacts / "denied-dipa.png"), full_page=True)
    # A reload reads her own denial back from the log; the host's page tells nothing of it.
    dipa.page.reload()
    expect(dipa.page.locator("#between-hands")).to_contain_text("The host said no to your buy-back.")
    expect(dipa.page.locator('#between-hands [data-command="ask_buy_back"]')).to_be_visible()
    expect(host.page.locator("#between-hands")).not_to_contain_text("The host said no")

    # The host bans her for the rest of the game, from the table page, asked first in the
    # page (no browser dialog): a no by Escape or "Cancel" sends nothing and she stays.
    ban = host.page.locator('#remove-players [data-command="ban"]')
    expect(ban).to_have_text("Remove Dipa and ban them for the rest of the game")
    dipa.read_seat()
    yes = ask_and_say_no(
        host,
        ban,
        "Ban Dipa for the rest of the game? They cannot sit, watch or join again.",
        "Yes, ban Dipa",
    )
    expect(host.page.locator(".seat")).to_have_count(2)
    expect(dipa.page.locator("#connection")).to_have_attribute("data-state", "open")
    # News that redraws the host's list (Dipa sits out) keeps the question open, the keyboard on "Yes".
    dipa.page.locator('#between-hands [data-command="sit_out"]').click()
    expect(host.page.locator("#hand-log")).to_contain_text("Dipa sits out.")
    expect(yes).to_be_focused()
    sent = len(commands_sent(host))
    yes.click()
    expect(host.page.locator(".seat")).to_have_count(1)
    expect(host.page.locator("#hand-log")).to_contain_text("The host bans Dipa for the rest of the game.")
    # Her page is told at once (issue 28): the removal in words, nothing of the game left,
    # no "reconnecting"; and her lobby no longer lists the table.
    expect(dipa.page.locator("#connection")).to_have_attribute("data-state", "gone")
    expect(dipa.page.locator("#table-root")).to_have_attribute("data-phase", "gone")
    expect(dipa.page.locator("#turn-status")).to_have_text("The host has removed you from this game.")
    expect(dipa.page.locator("#gone")).to_be_visible()
    expect(dipa.page.locator(".felt")).to_be_hidden()
    dipa.page.goto("/tables/")
    expect(dipa.page.locator("main")).not_to_contain_text("APPR22")
    dipa.page.goto("/tables/APPR22/")
    expect(dipa.page.locator("#table-root")).to_have_count(0)  # the table page is no longer hers
    banned = [frame for frame in commands_sent(host)[sent:] if frame["type"] == "host"]
    assert [(frame["verb"], frame["seat"], frame["ban"]) for frame in banned] == [("remove", int(dipa.seat), True)]
    assert dialogs == []


def test_someone_with_only_the_code_asks_the_host_and_is_let_in(new_page, live_site, artifacts):
    host = Player("asha-host", new_page("hostuser"))
    live_site.set_next_table_code("ASKC22")
    host.page.goto("/tables/open/?game=faras")
    host.page.locator("form.settings-form button[type=submit]").click()
    host.page.wait_for_url(re.compile(r"/tables/[A-Z0-9]+/$"))
    code = host.page.url.rstrip("/").rsplit("/", 1)[1]

    # Chandra types the code in the lobby: she is asked for the invite link, or to ask the host.
    chandra = new_page("chandra")
    chandra.goto("/tables/")
    chandra.locator('form.settings-form [name="code"]').fill(code)
    chandra.locator("form.settings-form button[type=submit]").click()
    expect(chandra.locator("main")).to_contain_text("ask the host for the invite link")
    chandra.locator(".join-ask button[type=submit]").click()
    expect(chandra.locator(".join-waiting")).to_contain_text("Waiting for their answer")
    save_screenshot(chandra, str(artifacts / "asked-chandra.png"), full_page=True)

    # She thinks better of it and withdraws: the host's list empties, the log says so.
    expect(host.page.locator("#host-requests")).to_contain_text("Chandra asks to be let in, to watch.")
    chandra.get_by_role("button", name="Withdraw my request").click()
    expect(chandra.locator(".join-withdrawn")).to_contain_text("You withdrew your request")
    expect(host.page.locator("#host-requests-box")).to_be_hidden()
    expect(host.page.locator("#hand-log")).to_contain_text("Chandra withdraws their request.")
    save_screenshot(chandra, str(artifacts / "withdrawn-chandra.png"), full_page=True)
    assert page_problems(chandra) == []

    # And asks again.
    chandra.goto(f"/tables/join/?code={code}")
    chandra.locator(".join-ask button[type=submit]").click()
    expect(chandra.locator(".join-waiting")).to_contain_text("Waiting for their answer")

    # The host lets her in from the panel; her waiting page looks again and opens the table.
    expect(host.page.locator("#host-requests")).to_contain_text("Chandra asks to be let in, to watch.")
    host.page.locator('#host-requests [data-command="approve"]').click()
    chandra.wait_for_url(re.compile(rf"/tables/{code}/$"), timeout=20_000)
    expect(chandra.locator("#between-hands")).to_contain_text("You are watching.")
    expect(host.page.locator("#hand-log")).to_contain_text("Chandra joins the table.")
