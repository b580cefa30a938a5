"""Teen Patti variants on the table page (docs/rules.md, "Variants"), in real browsers.

The host opens a Faras table with a variant picked on the open form; one hand is played to
its result. Every page names the variant under the pot; in the Joker variant every page
(a watcher's too) draws the card turned up after the deal and says it in the hand's log; in
Four-card a player who looks sees four cards.
"""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from tests.browser.driver import Player, act, join_table, save_screenshot, settle, to_act

VARIANT_WORDS = {
    "muflis": "Muflis: the lowest hand wins",
    "ak47": "AK47: every ace, king, four and seven is a joker",
    "joker": "Joker: a card turned up after the deal makes its rank jokers",
    "four_card": "Four-card: four cards each, the best three play",
}


@pytest.mark.parametrize("variant", list(VARIANT_WORDS))
def test_a_variant_hand_is_played_to_its_result(new_page, live_site, artifacts, variant):
    host = Player("asha-host", new_page("hostuser"))
    live_site.set_next_table_code("V" + variant.upper().replace("_", "")[:5])
    host.page.goto("/tables/open/?game=faras")
    host.page.locator('[name="variant"]').select_option(variant)
    host.page.locator("form.settings-form button[type=submit]").click()
    host.page.wait_for_url(re.compile(r"/tables/[A-Z0-9]+/$"))
    host.read_seat()
    host.page.locator('#between-hands [data-command="take"]').click()
    link = host.page.locator("#join-link").input_value()
    friend = Player("bikash", new_page("bikash"))
    join_table(friend.page, link)
    friend.read_seat()
    watcher = Player("chandra-watching", new_page("chandra"))
    join_table(watcher.page, link, watch=True)
    players = [host, friend]
    expect(host.page.locator(".seat")).to_have_count(2)
    host.page.locator('#host-controls [data-command="start"]').click()
    host.page.wait_for_selector('.seat[data-to-act="true"]')
    settle([*players, watcher])

    for page in (host.page, friend.page, watcher.page):
        expect(page.locator("#stake")).to_contain_text(VARIANT_WORDS[variant])
        expect(page.locator("#hand-log")).to_contain_text(VARIANT_WORDS[variant])  # with "Hand 1: ... deals."
    if variant == "joker":
        turned = host.page.locator("#board [data-card]")
        expect(turned).to_have_count(1)
        card = turned.get_attribute("data-card")
        for page in (friend.page, watcher.page):
            expect(page.locator("#board [data-card]")).to_have_attribute("data-card", card)
            expect(page.locator("#hand-log")).to_contain_text("The card turned up is")
    else:
        expect(host.page.locator("#board [data-card]")).to_have_count(0)

    by_seat = {player.seat: player for player in players}
    first = by_seat[to_act(host)]
    expect(first.page.locator("#my-cards .card-back")).to_have_count(4 if variant == "four_card" else 3)
    act(first, "see")
    expect(first.page.locator("#my-cards [data-card]")).to_have_count(4 if variant == "four_card" else 3)
    expect(first.page.locator("#my-hand-label")).to_have_text(
        re.compile(r"^(High card|Pair|Colour|Sequence|Pure sequence|Trail)$")
    )
    act(first, "pack")
    settle(players)
    for player in players:
        expect(player.page.locator("#result")).to_be_visible()
    save_screenshot(host.page, str(artifacts / f"variant-{variant}-host.png"), full_page=True)
