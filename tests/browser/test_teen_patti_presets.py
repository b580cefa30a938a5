"""Classic Teen Patti and 999 on the same table page, in three real browsers.

Rules pinned: Classic (rule book 004) raises at most double the stake, so the raise box
starts at double and cannot go past it; 999 (rule book 002) scores a hand as a
three-digit number, shown once I look, and lets a blind player ask for a show for one
stake. The result agrees on every page.
"""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from tests.browser.driver import Player, act, action_verbs, join_table, open_table, save_screenshot, settle, to_act


def seat_three(new_page, live_site, game: str) -> list[Player]:
    host = Player("asha-host", new_page("hostuser"))
    live_site.set_next_table_code({"classic": "CLASSIC", "999": "NINE99"}[game])
    open_table(host.page, game)
    host.read_seat()
    host.page.locator('#between-hands [data-command="take"]').click()
    link = host.page.locator("#join-link").input_value()
    players = [host]
    for username in ("bikash", "chandra"):
        friend = Player(username, new_page(username))
        join_table(friend.page, link)
        friend.read_seat()
        players.append(friend)
    expect(host.page.locator(".seat")).to_have_count(3)
    host.page.locator('#host-controls [data-command="start"]').click()
    host.page.wait_for_selector('.seat[data-to-act="true"]')
    settle(players)
    return players


@pytest.mark.parametrize("game", ["classic", "999"])
def test_a_preset_hand_is_played_to_its_result(new_page, live_site, artifacts, game):
    players = seat_three(new_page, live_site, game)
    host = players[0]
    by_seat = {player.seat: player for player in players}

    first = by_seat[to_act(host)]
    act(first, "see")
    # (waited for, not read at once: the label is drawn with the view that follows the look)
    label = first.page.locator("#my-hand-label")
    if game == "999":
        expect(label).to_have_text(re.compile(r"^Number \d+$"))  # e.g. "Number 910"
    else:
        expect(label).to_have_text(re.compile(r"^(High card|Pair|Colour|Sequence|Pure sequence|Trail)$"))
    # the raise starts at double the stake (20) and, raising at most double, cannot step past it
    assert first.page.locator("#raise-amount").input_value() == "20"
    assert first.page.locator("#raise-amount").get_attribute("max") == "20"
    act(first, "chaal")
    settle(players)

    second = by_seat[to_act(host)]
    act(second, "pack")
    settle(players)
    last = by_seat[to_act(host)]
    verbs = action_verbs(last)
    if game == "999":
        # still blind, two left: a blind show for one stake
        assert "show" in verbs
        expect(last.page.locator('#action-bar button[data-verb="show"]')).to_contain_text("10")
        act(last, "show")
    else:
        act(last, "pack")
    settle(players)
    for player in players:
        expect(player.page.locator("#result")).to_be_visible()
    results = {player.label: player.page.locator("#result-lines").inner_text() for player in players}
    assert len(set(results.values())) == 1, results
    save_screenshot(host.page, str(artifacts / f"{game}-result-host.png"), full_page=True)
