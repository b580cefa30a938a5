"""The turn's clock on the page, and the host acting for a player whose time ran out.

Rules pinned (issue 12; rule book 000: the timer "reminds you but is not enforced"): every
page shows the time left of the player to act; once it has run out the host's page offers
"Act for <name>", which plays for them as the table's time-out would (Teen Patti: pack);
before that no such button shows, and no other player's page ever has it.
"""

from __future__ import annotations

from playwright.sync_api import expect

from tests.browser.driver import Player, act, join_table, open_table, settle, to_act


def test_everyone_sees_the_clock_and_the_host_acts_for_a_player_whose_time_ran_out(new_page, live_site, artifacts):
    host = Player("asha-host", new_page("hostuser"))
    live_site.set_next_table_code("CLOCK1")
    open_table(host.page, "faras", turn_timer=5)
    host.read_seat()
    host.page.locator('#between-hands [data-command="take"]').click()
    link = host.page.locator("#join-link").input_value()
    deepa = Player("deepa", new_page("deepa"))
    deepa.listen()
    join_table(deepa.page, link)
    deepa.read_seat()
    players = [host, deepa]
    expect(host.page.locator(".seat")).to_have_count(2)
    host.page.locator('#host-controls [data-command="start"]').click()
    host.page.wait_for_selector('.seat[data-to-act="true"]')
    settle(players)
    if to_act(host) == host.seat:
        act(host, "chaal")
        settle(players)
    assert to_act(host) == deepa.seat
    # Everyone sees Deepa's clock running; the host may not act for her yet.
    for player in players:
        expect(player.page.locator("#turn-clock")).to_contain_text("left")
    expect(host.page.locator("#turn-clock")).to_contain_text("Deepa to act")
    expect(deepa.page.locator("#turn-clock")).to_contain_text("Your turn:")  # her own page says it to her
    expect(host.page.locator('#act-for [data-verb="act_for"]')).to_have_count(0)
    # Her time runs out: everyone reads it; only the host's page offers to act for her.
    for player in players:
        expect(player.page.locator("#turn-clock")).to_contain_text("time is up", timeout=15_000)
    button = host.page.locator('#act-for [data-verb="act_for"]')
    expect(button).to_have_text("Act for Deepa", timeout=15_000)
    expect(deepa.page.locator('#act-for [data-verb="act_for"]')).to_have_count(0)
    host.page.screenshot(path=str(artifacts / "act-for-host.png"), full_page=True)
    button.click()
    # Deepa packs, as the table's time-out would have her do; the hand is the host's.
    expect(host.page.locator("#hand-log")).to_contain_text("Deepa packs", timeout=15_000)
    expect(deepa.page.locator("#hand-log")).to_contain_text("Deepa packs")
