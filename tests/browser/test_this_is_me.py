""" "This is me" (issue 38, point 1), in real browsers, the guest on a phone.

Rules pinned: a guest who lost her browser opens the invite link on a new phone and types
her name; instead of a refusal and nothing more, the page offers "This is me" (and another
name for someone new). She presses it and the page says she waits. The host's list of
requests says that her seat and its chips go to that browser; one tap approves. The new
phone then holds her seat, with the same chips; the old page is closed; the settle-up
lists one Gita. Approved during her turn (the second group's trial), her hand is packed
for her at once and nothing waits; the new phone shows none of her cards of that hand and
plays from the next one, not sitting out; the old phone keeps no card and no action.
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
    save_screenshot,
    settle,
    stacks_shown,
    to_act,
)
from tests.browser.test_pages_layout import page_problems
from tests.tables.test_this_is_me import _cards_of_hand

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
    save_screenshot(phone.page, str(artifacts / "offer-phone.png"), full_page=True)
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
    save_screenshot(host.page, str(artifacts / "request-host.png"), full_page=True)
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
    save_screenshot(phone.page, str(artifacts / "back-phone.png"))

    # The old page is told and stops.
    expect(gita.page.locator("#table-root")).to_have_attribute("data-phase", "gone")
    expect(gita.page.locator("#connection")).to_have_attribute("data-state", "gone")

    # The settle-up lists one Gita.
    end_the_game(host.page)
    expect(host.page.locator("#game-over")).to_be_visible()
    host.page.goto("/ledger/tables/CLAIM8/")
    names = host.page.locator("tbody tr[data-seat] th").all_inner_texts()
    assert len(names) == 2 and names.count("Gita") == 1 and not any(name.startswith("Gita ") for name in names)


def test_approved_during_her_turn_that_hand_is_played_out_and_she_plays_the_next_on_the_new_phone(
    new_page, live_site, artifacts
):
    """The second group's trial: the host says yes while it is Gita's turn. Nothing waits
    for her lost phone: her hand is packed for her at once and the next player is to act.
    Her new phone is her seat, not sitting out, but shows none of her cards of that hand
    (they were the old phone's) and offers no move in it; it says why. She is dealt the next
    hand there, with her cards. Her old phone shows no cards and no actions."""
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
    bikash = Player("bikash", new_page(viewport=PHONE))
    join_table(bikash.page, link, guest_name="Bikash")
    bikash.read_seat()
    players = [host, gita, bikash]
    by_seat = {player.seat: player for player in players}
    expect(host.page.locator(".seat")).to_have_count(3)
    host.page.locator('#host-controls [data-command="start"]').click()
    for player in players:
        expect(player.page.locator('.seat[data-to-act="true"]')).to_have_count(1, timeout=PAGE_TIMEOUT_MS)
    settle(players)
    while to_act(host) != gita.seat:
        act(by_seat[to_act(host)], "chaal")  # the others play on; then it is Gita's turn
        settle(players)
    act(gita, "see")  # she looked at her cards on the old phone
    settle(players)
    hers = set(my_cards(gita.page))
    assert len(hers) == 3 and to_act(gita) == gita.seat  # looking is not a move: still her turn

    # Her old phone is lost from here on. A new phone says "This is me".
    phone = Player("gita-new", new_page(viewport=PHONE))
    phone.listen()
    phone.page.goto(link)
    phone.page.locator('[name="display_name"]').fill("Gita")
    phone.page.locator("form.settings-form button[type=submit]").click()
    phone.page.get_by_role("button", name="This is me").click()
    expect(phone.page.locator(".claim-waiting")).to_contain_text("Waiting for the host's answer")

    # The host approves during her turn: her hand is packed for her at once, the next is to act.
    expect(host.page.locator("#host-requests li")).to_contain_text("A new browser says it is Gita.")
    assert to_act(host) == gita.seat
    host.page.locator('#host-requests [data-command="approve"]').click()
    expect(host.page.locator("#hand-log")).to_contain_text("Gita packs.")
    expect(host.page.locator('.seat[data-to-act="true"]')).not_to_have_attribute("data-seat", gita.seat)
    following = to_act(host)
    assert following in (host.seat, bikash.seat)

    # The new phone is her seat: not sitting out, none of her cards of that hand, no move
    # in it, and a word of why.
    phone.page.wait_for_url(re.compile(r"/tables/CLAIM9/$"), timeout=PAGE_TIMEOUT_MS)
    expect(phone.page.locator("#connection")).to_have_attribute("data-state", "open")
    phone.read_seat()
    assert phone.seat == gita.seat
    expect(phone.page.locator(".messages")).to_contain_text("Welcome back, Gita: this is your seat.")
    expect(phone.page.locator(".messages")).to_contain_text("that hand is played out for you")
    settle([host, bikash, phone])
    assert to_act(phone) == following
    expect(phone.page.locator("#my-cards svg.card-face")).to_have_count(0)
    assert all(face_up_cards(phone.page, seat) == [] for seat in by_seat)
    expect(phone.page.locator("#action-bar button:visible")).to_have_count(0)
    expect(phone.page.locator("#see-button")).to_be_hidden()
    expect(phone.page.locator('#between-hands [data-command="come_back"]')).to_have_count(0)
    assert page_problems(phone.page) == []
    save_screenshot(phone.page, str(artifacts / "played-out-new-phone.png"), full_page=True)

    # The old phone lost the seat: no cards, no actions.
    expect(gita.page.locator("#table-root")).to_have_attribute("data-phase", "gone")
    expect(gita.page.locator("#connection")).to_have_attribute("data-state", "gone")
    expect(gita.page.locator("#my-cards svg.card-face")).to_have_count(0)
    expect(gita.page.locator("#action-bar button:visible")).to_have_count(0)
    expect(gita.page.locator("body")).to_contain_text("Your seat is open on another device now")
    save_screenshot(gita.page, str(artifacts / "old-phone.png"), full_page=True)

    # The others finish the hand; the next is dealt, with her in it on the new phone.
    players = [host, bikash, phone]
    live_site.set_next_hand_delay(0)
    act(by_seat[following], "pack")
    live_site.set_next_hand_delay(3600)
    for player in players:
        player.page.wait_for_function("() => (window.DashainTable.state.hand || {}).number === 2")
    settle(players)
    expect(phone.page.locator(f'.seat[data-seat="{gita.seat}"]')).not_to_contain_text("Sitting out")
    expect(phone.page.locator('#between-hands [data-command="come_back"]')).to_have_count(0)
    expect(phone.page.locator("#my-cards svg.card-back")).to_have_count(3)  # dealt in, face down
    phone.page.locator("#see-button").click()
    expect(phone.page.locator("#my-cards svg.card-face")).to_have_count(3)
    assert face_up_cards(host.page, gita.seat) == [] and face_up_cards(phone.page, host.seat) == []
    settle(players)
    # Every frame the new phone received: her cards of the second hand, none of the first's.
    assert set(my_cards(phone.page)) <= _cards_of_hand(phone.frames, 2)
    assert _cards_of_hand(phone.frames, 1) & hers == set()
    save_screenshot(phone.page, str(artifacts / "next-hand-new-phone.png"), full_page=True)
