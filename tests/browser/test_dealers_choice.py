"""Dealer's choice in real browsers (docs/rules.md, "Dealer's choice"): the host allows every
variant; before each hand its dealer calls one from the table page, and the hand is dealt with
it: one hand of Muflis, AK47, Joker and Four-card in turn, each named on both players' pages
and in their logs."""

from __future__ import annotations

import re

from playwright.sync_api import expect

from tests.browser.driver import Player, act, join_table, save_screenshot, settle, to_act

WORDS = {
    "muflis": "Muflis: the lowest hand wins",
    "ak47": "AK47: every ace, king, four and seven is a joker",
    "joker": "Joker: a card turned up after the deal makes its rank jokers",
    "four_card": "Four-card: four cards each, the best three play",
}


def call(player: Player, variant: str, others: list[Player]) -> None:
    player.page.locator("#variant-choice").select_option(variant)
    player.page.locator('#between-hands [data-command="call_variant"]').click()
    for page in [player.page, *(other.page for other in others)]:
        expect(page.locator("#hand-log")).to_contain_text(f"calls the next hand: {WORDS[variant]}")


def dealer_of(host: Player, players: list[Player]) -> Player:
    seat = host.page.locator(".seat:has(.badge-dealer)").first.get_attribute("data-seat")
    return next(player for player in players if player.seat == seat)


def test_each_hand_is_played_with_the_variant_its_dealer_calls(new_page, live_site, artifacts):
    host = Player("asha-host", new_page("hostuser"))
    live_site.set_next_table_code("DCHOICE")
    host.page.goto("/tables/open/?game=faras")
    for variant in ("none", *WORDS):
        host.page.locator(f'input[name="dealers_choice"][value="{variant}"]').check()
    host.page.locator("form.settings-form button[type=submit]").click()
    host.page.wait_for_url(re.compile(r"/tables/[A-Z0-9]+/$"))
    host.read_seat()
    host.page.locator('#between-hands [data-command="take"]').click()
    link = host.page.locator("#join-link").input_value()
    friend = Player("bikash", new_page("bikash"))
    join_table(friend.page, link)
    friend.read_seat()
    players = [host, friend]
    expect(host.page.locator(".seat")).to_have_count(2)
    settle(players)

    # The host sits first, so deals the first hand: they call it before the game starts.
    call(host, "muflis", [friend])
    live_site.set_next_hand_delay(1)
    host.page.locator('#host-controls [data-command="start"]').click()
    host.page.wait_for_selector('.seat[data-to-act="true"]')
    settle(players)
    order = list(WORDS)
    for number, variant in enumerate(order, start=1):
        for player in players:
            expect(player.page.locator("#stake")).to_contain_text(WORDS[variant])
            expect(player.page.locator("#hand-log")).to_contain_text(f"The dealer calls: {WORDS[variant]}")
        if variant == "four_card":
            expect(host.page.locator("#my-cards .card-back")).to_have_count(4)
        if variant == "joker":
            expect(host.page.locator("#board [data-card]")).to_have_count(1)
        if number < len(order):
            # With two players the deal moves to the other one: they call the next hand now.
            dealer = dealer_of(host, players)
            following = next(player for player in players if player is not dealer)
            call(following, order[number], [dealer])
        by_seat = {player.seat: player for player in players}
        act(by_seat[to_act(host)], "pack")
        settle(players)
        if number < len(order):
            expect(host.page.locator("#stake")).to_contain_text(WORDS[order[number]], timeout=15_000)
            host.page.wait_for_selector('.seat[data-to-act="true"]')
            settle(players)
    save_screenshot(host.page, str(artifacts / "dealers-choice-host.png"), full_page=True)
