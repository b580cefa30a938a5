"""The host's controls and a player's seat controls, in two real browsers.

Rules pinned (rule book 000, "buy-ins and buy-backs"; the issue's host controls): the host
removes a player between hands and that player watches, then may sit down again; the host
starts, pauses (nobody may act: the move is refused with a message and changes nothing)
and resumes; the turn timer reminds the player to act and acts for nobody; a page that was
offline while another player moved catches up when it reconnects; a browser's own seed,
when the player asks for it, goes into the next hand's shuffle; the host ends the game, asked
first in the page (no browser dialog; a no by Escape or "Cancel" sends nothing); a player may
sit out and come back; the host's settings page refuses a bad value next to its field and
saves a good one between hands.
"""

from __future__ import annotations

import re

from playwright.sync_api import expect

from tests.browser.driver import (
    Offline,
    Player,
    act,
    ask_and_say_no,
    browser_dialogs,
    commands_sent,
    join_table,
    open_table,
    save_screenshot,
    settle,
    to_act,
)


def test_host_removes_starts_pauses_resumes_and_a_player_sits_out(new_page, live_site, artifacts):
    host = Player("asha-host", new_page("hostuser"))
    host.listen()
    dialogs = browser_dialogs(host.page)
    live_site.set_next_table_code("HOST22")
    code = open_table(host.page, "faras", turn_timer=5)
    host.read_seat()
    host.page.locator('#between-hands [data-command="take"]').click()
    link = host.page.locator("#join-link").input_value()
    deepa = Player("deepa", new_page("deepa"))
    deepa.listen()
    join_table(deepa.page, link)
    deepa.read_seat()
    players = [host, deepa]
    expect(host.page.locator(".seat")).to_have_count(2)

    # The host removes Deepa before the game starts: she watches, then sits down again.
    host.page.locator('#remove-players [data-command="remove"]').click()
    expect(deepa.page.locator("#between-hands")).to_contain_text("watching")
    expect(host.page.locator(".seat")).to_have_count(1)
    deepa.page.locator('#between-hands [data-command="take"]').click()
    expect(host.page.locator(".seat")).to_have_count(2)

    # The host's settings page: a bad boot is refused beside its field; a good one is saved.
    host.page.goto(f"/tables/{code}/settings/")
    expect(host.page.locator('[name="boot"]')).to_have_value("10")
    host.page.locator('[name="boot"]').fill("0")
    host.page.locator("form.settings-form button[type=submit]").click()
    expect(host.page.locator('.field[data-field="boot"] .field-error')).to_be_visible()
    host.page.locator('[name="boot"]').fill("20")
    host.page.locator("form.settings-form button[type=submit]").click()
    host.page.wait_for_url(re.compile(rf"/tables/{code}/$"))
    expect(host.page.locator("#connection")).to_have_attribute("data-state", "open")

    # Deepa mixes her browser's own seed into the shuffle (docs/fairness.md).
    deepa.page.locator("#add-seed").check()
    deepa.page.wait_for_function("() => window.DashainTable.state.seedFor === 1")

    host.page.locator('#host-controls [data-command="start"]').click()
    host.page.wait_for_selector('.seat[data-to-act="true"]')
    settle(players)
    expect(deepa.page.locator("#stake")).to_contain_text("boot 20")
    # (resync replies repeat events the page already had: one per seq)
    by_seq = {e["seq"]: e for frame in deepa.frames if frame.get("type") == "events" for e in frame["events"]}
    events = [by_seq[seq] for seq in sorted(by_seq)]
    given = [e["data"]["seed"] for e in events if e.get("kind") == "player_seed" and e["data"]["for_hand"] == 1]
    dealt = next(e for e in events if e.get("kind") == "hand_started" and e["data"].get("number") == 1)
    assert len(given) == 1 and dealt["data"]["player_seeds"] == given

    # Pause: the table says so, and a move is refused with a message.
    host.page.locator('#host-controls [data-command="pause"]').click()
    for player in players:
        expect(player.page.locator("#table-status")).to_have_text("Paused")
    by_seat = {player.seat: player for player in players}
    waiting = by_seat[to_act(host)]
    # The page offers no move while paused (issue 16): the buttons are disabled under an
    # overlay; a move sent all the same (a stale page) is refused by the server with its message.
    expect(waiting.page.locator('#action-bar button[data-verb="chaal"]')).to_be_disabled()
    expect(waiting.page.locator("#paused-overlay")).to_be_visible()
    waiting.page.evaluate("() => window.DashainTable.send({type: 'action', verb: 'chaal', id: 'paused-chaal-1'})")
    expect(waiting.page.locator("#notice")).to_contain_text("paused")
    save_screenshot(host.page, str(artifacts / "paused-host.png"), full_page=True)

    # Resume: the turn starts again with its timer, and when it runs out the player is
    # reminded (the reminder never acts for them).
    host.page.locator('#host-controls [data-command="resume"]').click()
    for player in players:
        expect(player.page.locator("#table-status")).to_have_text("Playing")
    expect(waiting.page.locator("#turn-reminder")).to_have_text("Reminder: it is your turn.", timeout=30_000)
    expect(host.page.locator("#hand-log")).to_contain_text("Reminder:")
    save_screenshot(waiting.page, str(artifacts / "reminded.png"), full_page=True)
    act(waiting, "chaal")
    settle(players)

    # A page that misses news while its connection is down catches up when it is back:
    # the view is the table's, and the log in words has the move it did not see happen.
    other = next(player for player in players if player is not waiting)
    offline = Offline(waiting.page)
    offline.lose()
    expect(waiting.page.locator("#connection")).to_have_attribute("data-state", "closed")
    act(other, "chaal")
    missed_line = other.page.locator("#hand-log li").last.inner_text()
    offline.back()
    expect(waiting.page.locator("#connection")).to_have_attribute("data-state", "open", timeout=30_000)
    settle(players)
    expect(waiting.page.locator("#hand-log")).to_contain_text(missed_line)
    assert waiting.page.locator("#pot").inner_text() == other.page.locator("#pot").inner_text()
    log_lines = "#hand-log li"
    assert waiting.page.locator(log_lines).all_inner_texts() == other.page.locator(log_lines).all_inner_texts()

    # Deepa sits out (from the next hand) and comes back.
    deepa.page.locator('#between-hands [data-command="sit_out"]').click()
    expect(deepa.page.locator('#between-hands [data-command="come_back"]')).to_be_visible()
    deepa.page.locator('#between-hands [data-command="come_back"]').click()
    expect(deepa.page.locator('#between-hands [data-command="sit_out"]')).to_be_visible()
    save_screenshot(deepa.page, str(artifacts / "came-back-deepa.png"), full_page=True)

    # The host ends the game, asked first in the page (no browser dialog): a no (Escape or
    # "Cancel") sends nothing and the game goes on; the keyboard goes into the question and back.
    end = host.page.locator('#host-controls [data-command="end"]')
    yes = ask_and_say_no(host, end, "End the game for everyone?", "Yes, end the game")
    for player in players:
        expect(player.page.locator("#table-status")).to_have_text("Playing")
        expect(player.page.locator("#game-over")).to_be_hidden()
    # Yes (Enter) during a hand: the game ends when this hand ends (issue 24: never a voided
    # pot). Every page says so; the host is told what happens now instead of the button. The
    # hand is played out (here by the clock's away action, each turn a second in these tests).
    sent = len(commands_sent(host))
    yes.press("Enter")
    expect(host.page.locator("#host-controls .host-ending")).to_contain_text("The game ends when this hand ends")
    expect(host.page.locator('#host-controls [data-command="end"]')).to_have_count(0)
    expect(host.page.locator("#hand-log")).to_contain_text("it ends when this hand ends")
    save_screenshot(host.page, str(artifacts / "game-ending-host.png"), full_page=True)
    for player in players:
        expect(player.page.locator("#game-over")).to_be_visible(timeout=90_000)
        expect(player.page.locator("#game-over-stacks")).to_contain_text("Chips at the end")
        expect(player.page.locator("#table-status")).to_have_text("Ended")
        # nothing is offered any more
        expect(player.page.locator("#between-hands button")).to_have_count(0)
        expect(player.page.locator("#action-bar button")).to_have_count(0)
    save_screenshot(host.page, str(artifacts / "game-over-host.png"), full_page=True)
    assert [(frame["type"], frame.get("verb")) for frame in commands_sent(host)[sent:]] == [("host", "end")]
    assert dialogs == []
