""" "This is me" (issue 38, point 1), in real browsers, the guest on a phone.

Rules pinned: a guest who lost her browser opens the invite link on a new phone and types
her name; instead of a refusal and nothing more, the page offers "This is me" (and another
name for someone new). She presses it and the page says she waits. The host's list of
requests says that her seat and its chips go to that browser; one tap approves. The new
phone then holds her seat, with the same chips; the old page is closed; the settle-up
lists one Gita. Approved during her turn (the second group's trial), the new phone plays
that turn at once, with her cards and nobody else's, and the old phone keeps no card and no
action.
"""

from __future__ import annotations

import re

from playwright.sync_api import expect

from tests.browser.conftest import PAGE_TIMEOUT_MS
from tests.browser.driver import (
    Player,
    act,
    action_verbs,
    end_the_game,
    face_up_cards,
    join_table,
    my_cards,
    settle,
    stacks_shown,
    to_act,
)
from tests.browser.test_pages_layout import page_problems

PHONE = {"width": 390, "height": 844}


def test_a_guest_on_a_new_phone_says_this_is_me_and_the_host_gives_her_seat_back(new_page, live_site, artifacts):
    host = Player("asha-host", new_page("hostuser"))
    live_site.set_next_table_code("CLAIM8")
    host.page.goto("/tables/open/?game=faras")
    host.page.locator("form.settings-form button[type=submit]").click()
    host.page.wait_for_url(re.compile(r"/tables/[A-Z0-9]+/$"))
    host.read_seat()
    host.page.locator('#between-hands [data-command="take"]').click()
    expect(host.page.locator("#between-hands")).to_contain_text("Seat 1")
    link = host.page.locator("#join-link").input_value()

    gita = Player("gita-old", new_page(viewport=PHONE))
    gita.listen()
    join_table(gita.page, link, guest_name="Gita")
    gita.read_seat()
    expect(host.page.locator(".seat")).to_have_count(2)
    host.page.locator('#host-controls [data-command="start"]').click()
    for player in (host, gita):
        expect(player.page.locator('.seat[data-to-act="true"]')).to_have_count(1, timeout=PAGE_TIMEOUT_MS)
    settle([host, gita])
    first = host if to_act(host) == host.seat else gita
    assert "pack" in action_verbs(first)
    act(first, "pack")  # one hand: chips have moved (the next waits, as the test site has it)
    settle([host, gita])
    before = stacks_shown(host.page)
    assert "1,000" not in before[gita.seat]

    # A new phone: no cookie of the old one. She types her name: "This is me" is offered.
    phone = Player("gita-new", new_page(viewport=PHONE))
    phone.page.goto(link)
    phone.page.locator('[name="display_name"]').fill("gita")
    phone.page.locator("form.settings-form button[type=submit]").click()
    expect(phone.page.locator(".field-error")).to_contain_text("already called gita")
    expect(phone.page.locator(".claim-offer")).to_contain_text("Are you Gita, on a new phone or browser?")
    expect(phone.page.locator(".claim-offer")).to_contain_text("seat and its chips move to this browser")
    assert page_problems(phone.page) == []
    phone.page.screenshot(path=str(artifacts / "offer-phone.png"), full_page=True)
    phone.page.get_by_role("button", name="This is me").click()
    expect(phone.page.locator(".claim-waiting")).to_contain_text("Waiting for the host's answer")
    assert page_problems(phone.page) == []

    # The host's list names the seat and says where its chips go; one tap approves.
    request = host.page.locator("#host-requests li")
    expect(request).to_have_count(1)
    expect(request).to_contain_text("A new browser says it is Gita.")
    expect(request).to_contain_text(f"Gita's seat and its {before[gita.seat]} go to that browser")  # "990 chips"
    expect(host.page.locator("#hand-log")).to_contain_text("A new browser asks the host for Gita's seat.")
    # Her old page reads it too, in the table's log.
    expect(gita.page.locator("#hand-log")).to_contain_text("A new browser asks the host for Gita's seat.")
    host.page.screenshot(path=str(artifacts / "request-host.png"), full_page=True)
    host.page.locator('#host-requests [data-command="approve"]').click()
    expect(host.page.locator("#host-requests-box")).to_be_hidden()
    expect(host.page.locator("#hand-log")).to_contain_text("The host gives Gita's seat to a new browser.")

    # Her waiting page looks again and takes her to her seat.
    phone.page.wait_for_url(re.compile(r"/tables/CLAIM8/$"), timeout=PAGE_TIMEOUT_MS)
    expect(phone.page.locator("#connection")).to_have_attribute("data-state", "open")
    phone.read_seat()
    assert phone.seat == gita.seat
    expect(phone.page.locator(".messages")).to_contain_text("Welcome back, Gita: this is your seat.")
    settle([host, phone])
    assert stacks_shown(phone.page) == before
    assert stacks_shown(host.page) == before
    phone.page.screenshot(path=str(artifacts / "back-phone.png"))

    # The old page is told and stops.
    expect(gita.page.locator("#table-root")).to_have_attribute("data-phase", "gone")
    expect(gita.page.locator("#connection")).to_have_attribute("data-state", "gone")

    # The settle-up lists one Gita.
    end_the_game(host.page)
    expect(host.page.locator("#game-over")).to_be_visible()
    host.page.goto("/ledger/tables/CLAIM8/")
    names = host.page.locator("tbody tr[data-seat] th").all_inner_texts()
    assert len(names) == 2 and names.count("Gita") == 1 and not any(name.startswith("Gita ") for name in names)


def test_approved_during_her_turn_she_plays_it_on_the_new_phone(new_page, live_site, artifacts):
    """The second group's trial: the host says yes while it is Gita's turn. Her new phone is
    then her seat in that hand, her turn and her cards (the ones her old phone showed, nobody
    else's); she plays at once and nothing waits. Her old phone shows no cards and no actions."""
    host = Player("asha-host", new_page("hostuser"))  # a laptop
    live_site.set_next_table_code("CLAIM9")
    host.page.goto("/tables/open/?game=faras")
    host.page.locator("form.settings-form button[type=submit]").click()
    host.page.wait_for_url(re.compile(r"/tables/[A-Z0-9]+/$"))
    host.read_seat()
    host.page.locator('#between-hands [data-command="take"]').click()
    expect(host.page.locator("#between-hands")).to_contain_text("Seat 1")
    link = host.page.locator("#join-link").input_value()

    gita = Player("gita-old", new_page(viewport=PHONE))
    join_table(gita.page, link, guest_name="Gita")
    gita.read_seat()
    expect(host.page.locator(".seat")).to_have_count(2)
    host.page.locator('#host-controls [data-command="start"]').click()
    for player in (host, gita):
        expect(player.page.locator('.seat[data-to-act="true"]')).to_have_count(1, timeout=PAGE_TIMEOUT_MS)
    settle([host, gita])
    if to_act(host) == host.seat:
        act(host, "chaal")  # the host plays on; now it is Gita's turn
        settle([host, gita])
    assert to_act(gita) == gita.seat
    act(gita, "see")  # she looked at her cards on the old phone
    settle([host, gita])
    hers = sorted(my_cards(gita.page))
    assert len(hers) == 3
    assert to_act(gita) == gita.seat  # looking is not a move: still her turn

    # Her old phone is lost from here on. A new phone says "This is me".
    phone = Player("gita-new", new_page(viewport=PHONE))
    phone.listen()
    phone.page.goto(link)
    phone.page.locator('[name="display_name"]').fill("Gita")
    phone.page.locator("form.settings-form button[type=submit]").click()
    phone.page.get_by_role("button", name="This is me").click()
    expect(phone.page.locator(".claim-waiting")).to_contain_text("Waiting for the host's answer")

    # The host approves during her turn.
    expect(host.page.locator("#host-requests li")).to_contain_text("A new browser says it is Gita.")
    assert to_act(host) == gita.seat
    host.page.locator('#host-requests [data-command="approve"]').click()

    # The new phone is her seat in the same hand: her turn, her cards, her actions.
    phone.page.wait_for_url(re.compile(r"/tables/CLAIM9/$"), timeout=PAGE_TIMEOUT_MS)
    expect(phone.page.locator("#connection")).to_have_attribute("data-state", "open")
    phone.read_seat()
    assert phone.seat == gita.seat
    expect(phone.page.locator('.seat[data-to-act="true"]')).to_have_attribute("data-seat", gita.seat)
    expect(phone.page.locator("#my-cards svg.card-face")).to_have_count(3)
    assert sorted(my_cards(phone.page)) == hers
    assert face_up_cards(phone.page, host.seat) == []  # hers only: nobody else's
    assert face_up_cards(host.page, gita.seat) == []  # and nobody else sees hers
    verbs = action_verbs(phone)
    assert "chaal" in verbs and "pack" in verbs
    expect(phone.page.locator('#between-hands [data-command="come_back"]')).to_have_count(0)
    assert page_problems(phone.page) == []
    phone.page.screenshot(path=str(artifacts / "her-turn-new-phone.png"), full_page=True)

    # The old phone lost the seat: no cards, no actions.
    expect(gita.page.locator("#table-root")).to_have_attribute("data-phase", "gone")
    expect(gita.page.locator("#connection")).to_have_attribute("data-state", "gone")
    expect(gita.page.locator("#my-cards svg.card-face")).to_have_count(0)
    expect(gita.page.locator("#action-bar button:visible")).to_have_count(0)
    expect(gita.page.locator("body")).to_contain_text("Your seat is open on another device now")
    gita.page.screenshot(path=str(artifacts / "old-phone.png"), full_page=True)

    # She plays her turn at once; the hand goes on to the host, and she is not sitting out.
    act(phone, "chaal")
    settle([host, phone])
    assert to_act(host) == host.seat and to_act(phone) == host.seat
    played = [frame for frame in phone.sent if frame.get("type") == "action"]
    assert [frame["verb"] for frame in played] == ["chaal"]
    expect(host.page.locator("#hand-log")).to_contain_text("Gita")
    expect(phone.page.locator('#between-hands [data-command="come_back"]')).to_have_count(0)
    expect(phone.page.locator(f'.seat[data-seat="{gita.seat}"]')).not_to_contain_text("Sitting out")
