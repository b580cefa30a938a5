"""The turn's clock on the page, and the host acting for a player whose time ran out.

Rules pinned (issue 12; rule book 000: the timer "reminds you but is not enforced"): every
page shows the time left of the player to act; once it has run out the host's page offers
"Act for <name>": "Away for the hand" plays for them as the table's time-out would (Teen
Patti: pack) and sits them out; or one of their own moves (issue 38: the call a friend asked
for), which keeps them in, and the log says who acted for whom. Before that no such control
shows, and no other player's page ever has it.
"""

from __future__ import annotations

from playwright.sync_api import expect

from tests.browser.driver import Player, act, action_verbs, join_table, open_table, save_screenshot, settle, to_act
from tests.browser.test_pages_layout import page_problems


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
    expect(host.page.locator("#act-for h3")).to_have_text("Act for Deepa", timeout=15_000)
    button = host.page.locator('#act-for [data-move="away"]')
    expect(button).to_have_text("Away for the hand")
    expect(host.page.locator("#act-for")).to_contain_text("Deepa sits out until they come back")
    # Deepa is blind: a chaal may be played for her, never a look at her cards.
    expect(host.page.locator('#act-for [data-move="chaal"]')).to_have_count(1)
    expect(host.page.locator('#act-for [data-move="see"]')).to_have_count(0)
    expect(deepa.page.locator('#act-for [data-verb="act_for"]')).to_have_count(0)
    save_screenshot(host.page, str(artifacts / "act-for-host.png"), full_page=True)
    button.click()
    # Deepa packs, as the table's time-out would have her do; the hand is the host's.
    expect(host.page.locator("#hand-log")).to_contain_text("acted for Deepa: Deepa packs", timeout=15_000)
    expect(deepa.page.locator("#hand-log")).to_contain_text("Deepa packs")


def test_the_host_calls_for_an_away_friend_who_stays_in_and_the_log_says_so(new_page, live_site, artifacts):
    host = Player("asha-host", new_page("hostuser"))
    host.listen()
    live_site.set_next_table_code("CLOCK2")
    open_table(host.page, "holdem", seats=2, turn_timer=5)
    host.read_seat()
    host.page.locator('#between-hands [data-command="take"]').click()
    link = host.page.locator("#join-link").input_value()
    deepa = Player("deepa", new_page("deepa", viewport={"width": 390, "height": 844}))  # a friend on a phone
    join_table(deepa.page, link)
    deepa.read_seat()
    players = [host, deepa]
    expect(host.page.locator(".seat")).to_have_count(2)
    host.page.locator('#host-controls [data-command="start"]').click()
    host.page.wait_for_selector('.seat[data-to-act="true"]')
    settle(players)
    if to_act(host) == host.seat:
        # The host raises from their own bar, so that Deepa has a bet to call.
        act(host, "raise", int(host.page.locator("#raise-amount").get_attribute("min") or 0))
        settle(players)
    assert to_act(host) == deepa.seat
    expect(host.page.locator("#turn-clock")).to_contain_text("time is up", timeout=15_000)
    call = host.page.locator('#act-for [data-move="call"]')
    expect(call).to_contain_text("Call", timeout=15_000)
    expect(host.page.locator("#act-for")).to_contain_text("they stay in the game")
    save_screenshot(host.page.locator("#act-for"), str(artifacts / "act-for-call-host.png"))
    assert page_problems(host.page) == []  # axe finds nothing in the host's choices
    call.click()
    expect(host.page.locator("#hand-log")).to_contain_text("Asha acted for Deepa: Deepa calls", timeout=15_000)
    expect(deepa.page.locator("#hand-log")).to_contain_text("Asha acted for Deepa: Deepa calls")
    # Her own page tells her what was done for her; she is still in, not sitting out.
    expect(deepa.page.locator("#acted-for-you")).to_contain_text("Asha acted for you: Deepa calls")
    sent = [frame for frame in host.sent if frame.get("type") == "host" and frame.get("verb") == "act_for"]
    assert [(frame["seat"], frame["move"]) for frame in sent] == [(int(deepa.seat), "call")]
    status = deepa.page.evaluate("seat => window.DashainTable.state.seats[seat].status", deepa.seat)
    assert status == "playing"
    save_screenshot(deepa.page, str(artifacts / "acted-for-deepa.png"), full_page=True)


def test_a_sideshow_the_host_asked_of_an_away_friend_may_be_refused_for_them_never_accepted(
    new_page, live_site, artifacts
):
    """Issue 38: the host is the other party of the sideshow; comparing would show the host
    the friend's cards, so "Act for" offers only refusing it (and away for the hand)."""
    host = Player("asha-host", new_page("hostuser"))
    live_site.set_next_table_code("CLOCK3")
    open_table(host.page, "faras", turn_timer=5)
    host.read_seat()
    host.page.locator('#between-hands [data-command="take"]').click()
    link = host.page.locator("#join-link").input_value()
    friends = [Player(name, new_page(name)) for name in ("bikash", "deepa")]
    for friend in friends:
        join_table(friend.page, link)
        friend.read_seat()
    players = [host, *friends]
    by_seat = {player.seat: player for player in players}
    expect(host.page.locator(".seat")).to_have_count(3)
    host.page.locator('#host-controls [data-command="start"]').click()
    host.page.wait_for_selector('.seat[data-to-act="true"]')
    settle(players)
    for player in players:  # everyone looks: a sideshow is between seen players
        act(player, "see")
    settle(players)
    # Chaal round until the host may ask the player before them for a sideshow.
    for _step in range(6):
        mover = by_seat[to_act(host)]
        if mover is host and "sideshow" in action_verbs(host):
            break
        act(mover, "chaal")
        settle(players)
    act(host, "sideshow")
    settle(players)
    partner = by_seat[to_act(host)]
    assert partner is not host
    name = partner.label.capitalize()
    refuse = host.page.locator('#act-for [data-move="refuse"]')
    expect(refuse).to_have_text("Refuse the sideshow", timeout=15_000)
    expect(host.page.locator('#act-for [data-move="accept"]')).to_have_count(0)
    expect(host.page.locator("#act-for")).to_contain_text("you cannot look, show or ask for a sideshow for them")
    refuse.click()
    expect(host.page.locator("#hand-log")).to_contain_text(
        f"Asha acted for {name}: {name} refuses the sideshow.", timeout=15_000
    )
    expect(partner.page.locator("#acted-for-you")).to_contain_text("Asha acted for you:")
