"""Hold'em for money (issue 25), in three real browsers: a table for 20.00 each shared by
places at 50/30/20, played to the end (the table's code fixes every deck), shows what is at
stake before the start, each player's place and prize on the game-over screen, and the
settle-up with the fewest transfers."""

from __future__ import annotations

from decimal import Decimal

from playwright.sync_api import expect

from tests.browser.driver import (
    Player,
    act,
    action_verbs,
    end_the_game,
    join_table,
    screenshot,
    settle,
    to_act,
)

PRIZES = {1: Decimal("30.00"), 2: Decimal("18.00"), 3: Decimal("12.00")}


def _open_money_table(host: Player, *, code: str, seats: int, payouts: str, price: str = "20.00") -> None:
    host.page.goto("/tables/open/?game=holdem")
    host.page.locator('[name="seats"]').fill(str(seats))
    host.page.locator('[name="buy_in_price"]').fill(price)
    host.page.locator('[name="currency"]').select_option("USD")
    host.page.locator('[name="prizes"]').select_option("places")
    host.page.locator('[name="payouts"]').fill(payouts)
    host.page.locator("form.settings-form button[type=submit]").click()
    host.page.wait_for_url(f"**/tables/{code}/")
    host.read_seat()


def test_a_holdem_table_for_money_shared_by_places_to_the_settle_up(new_page, live_site, artifacts):
    host = Player("asha-host", new_page("hostuser"))
    host.listen()
    live_site.set_next_table_code("MONEY2")
    _open_money_table(host, code="MONEY2", seats=3, payouts="50/30/20")
    expect(host.page.locator("#stake-line")).to_contain_text("1st: 50%, 2nd: 30%, 3rd: 20%")
    host.page.locator('#between-hands [data-command="take"]').click()
    link = host.page.locator("#join-link").input_value()
    bikash = Player("bikash", new_page("bikash"))
    chandra = Player("chandra", new_page("chandra"))
    for friend in (bikash, chandra):
        friend.listen()
        join_table(friend.page, link)
        friend.read_seat()
    players = [host, bikash, chandra]
    by_seat = {player.seat: player for player in players}
    expect(host.page.locator(".seat")).to_have_count(3)
    # What is at stake, before the start, on every page: the pool of three buy-ins.
    for player in players:
        expect(player.page.locator("#stake-pool")).to_contain_text("USD\u00a060.00 from 3 buy-ins")
    screenshot(artifacts, 1, "stake-before-the-start", players)

    live_site.set_next_hand_delay(0)
    host.page.locator('#host-controls [data-command="start"]').click()
    host.page.wait_for_selector('.seat[data-to-act="true"]')
    # Once the cards are out the stake line gives its height to the felt.
    for player in players:
        expect(player.page.locator("#stake-line")).to_be_hidden()
    for _ in range(400):
        settle(players)
        if host.page.locator("#game-over").is_visible():
            break
        seat = to_act(host)
        if seat is None:
            host.page.wait_for_timeout(50)
            continue
        player = by_seat[seat]
        verbs = action_verbs(player)
        act(player, "allin" if "allin" in verbs else "call")
    for player in players:
        expect(player.page.locator("#game-over")).to_be_visible()
    settle(players)
    screenshot(artifacts, 2, "game-over", players)

    placings = host.page.evaluate("() => window.DashainTable.state.placings")
    assert sum(Decimal(p["prize"]) for p in placings) == Decimal("60.00")
    places = sorted(p["place"] for p in placings)
    if places == [1, 2, 3]:
        expected = {p["seat"]: PRIZES[p["place"]] for p in placings}
    else:  # the two others went out in one hand with the same chips: they share 30 + 20
        assert places == [1, 2, 2]
        expected = {p["seat"]: Decimal("30.00") if p["place"] == 1 else Decimal("15.00") for p in placings}
    for player in players:
        text = player.page.locator("#game-over-stacks").inner_text()
        for placing in placings:
            assert f"{placing['place']}." in text
            assert f"wins USD\u00a0{expected[placing['seat']]}" in text
        assert not player.page.locator("#game-over-by-host").is_visible()

    # The settle-up: prize - paid for each, the fewest transfers (the two others pay the winner).
    host.page.locator("#game-over a", has_text="Who owes whom").click()
    host.page.wait_for_url("**/ledger/tables/MONEY2/")
    rows = host.page.locator("table.transfers tbody tr")
    expect(rows).to_have_count(2)
    winner = next(p for p in placings if p["place"] == 1)
    winner_name = host.page.locator(f'table.settlement tr[data-seat="{winner["seat"]}"] th').inner_text()
    paid = Decimal(0)
    for index in range(2):
        cells = rows.nth(index).locator("td")
        assert cells.nth(1).inner_text() == winner_name
        paid += Decimal(cells.nth(2).inner_text().replace("USD", "").strip())
    assert paid == Decimal("10.00")  # the winner's prize, 30.00, less the 20.00 they paid
    expect(host.page.locator("p.aside", has_text="payments settle everyone")).to_be_visible()
    for placing in placings:
        row = host.page.locator(f'table.settlement tr[data-seat="{placing["seat"]}"]')
        expect(row.locator("td.place")).to_have_text(str(placing["place"]))
        expect(row.locator("td.prize")).to_have_text(f"USD\u00a0{expected[placing['seat']]}")
    screenshot(artifacts, 3, "settle-up", [host])


def test_everyone_sees_the_host_ended_a_money_game_and_the_prizes_of_that_moment(new_page, live_site, artifacts):
    host = Player("asha-host", new_page("hostuser"))
    live_site.set_next_table_code("MONEY3")
    _open_money_table(host, code="MONEY3", seats=2, payouts="65/35", price="10.00")
    host.page.locator('#between-hands [data-command="take"]').click()
    link = host.page.locator("#join-link").input_value()
    bikash = Player("bikash", new_page("bikash"))
    join_table(bikash.page, link)
    bikash.read_seat()
    players = [host, bikash]
    by_seat = {player.seat: player for player in players}
    expect(host.page.locator(".seat")).to_have_count(2)
    live_site.set_next_hand_delay(3600)
    host.page.locator('#host-controls [data-command="start"]').click()
    host.page.wait_for_selector('.seat[data-to-act="true"]')
    settle(players)
    act(by_seat[to_act(host)], "fold")  # the big blind takes the blinds: the stacks differ
    settle(players)
    # Shared by places, sitting out is no shelter from the blinds: the page says so.
    bikash.page.locator('#between-hands [data-command="sit_out"]').click()
    expect(bikash.page.locator("#between-hands .sitting-out-dealt-in")).to_contain_text("your blinds are paid")
    bikash.page.locator('#between-hands [data-command="come_back"]').click()
    expect(bikash.page.locator("#between-hands .sitting-out-dealt-in")).to_have_count(0)
    end_the_game(host.page)
    for player in players:
        expect(player.page.locator("#game-over-by-host")).to_be_visible()
        text = player.page.locator("#game-over-stacks").inner_text()
        assert "wins USD\u00a013.00" in text and "wins USD\u00a07.00" in text  # 65% and 35% of 2 x 10.00
        expect(player.page.locator("#hand-log")).to_contain_text("The host ended the game.")
    screenshot(artifacts, 1, "ended-by-the-host", players)
