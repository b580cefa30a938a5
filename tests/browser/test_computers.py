"""Computer players at the table, in real browsers (issue 15).

Rules pinned: book 001, "any empty seat is played by the computer": the host fills every
empty hold'em seat from the page and plays to the end; the game-over screen and the
history place everyone as the book says ("players who leave the table are placed in the
order they went out"; two out in one hand: "the one who started that hand with fewer
chips finishes lower"; "players who finish level share first place"), worked out here
again from the game's download; the seat list, the log and the history mark computers as
computers. Teen Patti with two people and two computers plays hand after hand through
the pages, and no chip is made or lost. Computers sit only at play-chips tables: a host
at a money table is told why on the page.

The browser server runs computers after a 0.2 s pause (tests/browser/server.py), through
the table clock as always.
"""

from __future__ import annotations

import re

from playwright.sync_api import expect

from tests.browser.driver import (
    Player,
    act,
    action_verbs,
    end_the_game,
    join_table,
    open_table,
    page_seq,
    screenshot,
    settle,
    to_act,
)

#: Bounds on the play loops, so a game that does not move on fails instead of hanging.
MAX_HOST_TURNS = 300
GAME_OVER_OR_MY_TURN = """() => {
  const s = window.DashainTable.state;
  if (s.table && s.table.status === "ended") return true;
  return document.querySelectorAll('#action-bar button[data-verb]').length > 0 && !s.snapshotWanted;
}"""


def digits(text: str) -> int:
    return int(re.sub(r"\D", "", text))


def table_ended(player: Player) -> bool:
    return player.page.evaluate(
        "() => !!(window.DashainTable.state.table && window.DashainTable.state.table.status === 'ended')"
    )


def seats_on_page(page) -> dict[str, dict]:
    """The page's seats: id -> {name, stack, computer}."""
    return page.evaluate(
        "() => Object.fromEntries(Object.values(window.DashainTable.state.seats)"
        ".map(s => [String(s.id), {name: s.name, stack: s.stack, computer: s.computer || null}]))"
    )


def expected_placings(game: dict) -> list[tuple[int, str, int]]:
    """Book 001's placings, worked out from the game's download (not from the site's own code):
    players left at the end by chips, then those who went out, the last out first; out in
    the same hand: more chips at that hand's start places higher; level players share."""
    out_order: list[tuple[int, int, str]] = []  # (hand, chips at its start, name), for each player out
    final: dict[str, int] = {}
    for hand in game["hands"]:
        if hand["result"].get("void"):
            continue
        start = {player["name"]: player["stack"] for player in hand["players"]}
        for name, chips in hand["result"]["stacks"].items():
            final[name] = chips
            if chips == 0:
                out_order.append((hand["hand_number"] if "hand_number" in hand else hand["hand"], start[name], name))
    ranked = [((1, chips, 0), name, chips) for name, chips in final.items() if chips > 0]
    ranked += [((0, number, started), name, 0) for number, started, name in out_order]
    ranked.sort(key=lambda row: row[0], reverse=True)
    placings: list[tuple[int, str, int]] = []
    for index, (key, name, chips) in enumerate(ranked):
        place = placings[-1][0] if index and key == ranked[index - 1][0] else index + 1
        placings.append((place, name, chips))
    return placings


def test_a_host_fills_a_holdem_table_with_computers_and_plays_to_the_placings(new_page, live_site, artifacts):
    host = Player("asha-host", new_page("hostuser"))
    host.listen()
    live_site.set_next_table_code("BOTSHE")
    code = open_table(host.page, "holdem", seats=4)
    host.read_seat()
    host.page.locator('#between-hands [data-command="take"]').click()
    expect(host.page.locator(".seat")).to_have_count(1)

    # The host fills every empty seat from the page: three computers, marked as computers.
    host.page.locator('#host-computers select[name="strength"]').select_option("normal")
    host.page.locator('#host-computers button[value="fill"]').click()
    expect(host.page.locator(".seat")).to_have_count(4)
    expect(host.page.locator(".seat .badge-computer")).to_have_count(3)
    expect(host.page.locator("#host-computers")).to_be_hidden()  # every seat is taken
    seats = seats_on_page(host.page)
    computers = {seat_id for seat_id, seat in seats.items() if seat["computer"]}
    assert len(computers) == 3 and host.seat not in computers
    assert all(seats[seat_id]["computer"] == "normal" for seat_id in computers)
    for seat_id in computers:
        label = host.page.locator(f'.seat[data-seat="{seat_id}"]').get_attribute("aria-label")
        assert "Computer, normal" in label, label
    assert "Computer" not in host.page.locator(f'.seat[data-seat="{host.seat}"]').get_attribute("aria-label")
    screenshot(artifacts, 1, "filled", [host])

    # The host starts and plays by the page's buttons whenever it is their turn (all in
    # when offered, so the game ends soon); the computers play their own turns.
    live_site.set_next_hand_delay(0)
    host.page.locator('#host-controls [data-command="start"]').click()
    logged_computer_moves = set()
    for _turn in range(MAX_HOST_TURNS):
        host.page.wait_for_function(GAME_OVER_OR_MY_TURN, timeout=60_000)
        if table_ended(host):
            break
        for line in host.page.locator("#hand-log li").all_inner_texts():
            logged_computer_moves |= {seat_id for seat_id in computers if line.startswith(seats[seat_id]["name"] + " ")}
        verbs = action_verbs(host)
        verb = next(verb for verb in ("allin", "call", "check", "fold") if verb in verbs)
        act(host, verb)
    else:
        raise AssertionError("the game did not end")
    live_site.set_next_hand_delay(3600)
    expect(host.page.locator("#game-over")).to_be_visible()
    screenshot(artifacts, 2, "game-over", [host])
    # The log in words named the computers as they moved.
    assert logged_computer_moves, "no computer's move was seen in the log"
    # The game is over: the page no longer offers computers.
    expect(host.page.locator("#host-computers")).to_be_hidden()

    # The placings as book 001 gives them, worked out again from the game's download.
    download = host.page.request.get(f"/tables/{code}/history/game.json")
    assert download.ok
    game = download.json()
    names = game["names"]
    expected = [(place, names[name], chips) for place, name, chips in expected_placings(game)]
    assert len(expected) == 4
    assert sum(chips for _place, _name, chips in expected) == 4000
    shown = host.page.locator("#game-over-stacks").inner_text()
    parts = shown.split(": ", 1)[1].split(" · ")
    assert [
        (int(match.group(1)), match.group(2), digits(match.group(3)))
        for match in (re.fullmatch(r"(\d+)\. (.+), ([\d,]+) chips", part) for part in parts)
        if match
    ] == expected, shown

    # The history keeps the placings, and names every computer in the hands they were dealt.
    host.page.goto(f"/tables/{code}/history/")
    rows = host.page.locator(".placings li")
    expect(rows).to_have_count(4)
    kept = [
        (int(row.get_attribute("data-place")), *re.fullmatch(r"\d+\. (.+): ([\d,]+) chips", row.inner_text()).groups())
        for row in rows.all()
    ]
    assert [(place, name, digits(chips)) for place, name, chips in kept] == expected
    dealt_in = host.page.locator(".hand-list tbody tr").first.locator("td").nth(1).inner_text()
    for seat_id in computers:
        assert seats[seat_id]["name"] in dealt_in
    screenshot(artifacts, 3, "history", [host])


def test_a_holdem_game_ended_during_a_hand_places_everyone_by_chips(new_page, live_site, artifacts):
    """Book 001: the players are placed by chips, and "players who finish level share" a place.
    The host ends the game during the first hand: the hand is played out (issue 24: never
    called off; the clock folds or checks for the host), then all four are placed."""
    host = Player("asha-host", new_page("hostuser"))
    live_site.set_next_table_code("BOTSLV")
    open_table(host.page, "holdem", seats=4)
    host.read_seat()
    host.page.locator('#between-hands [data-command="take"]').click()
    expect(host.page.locator(".seat")).to_have_count(1)
    host.page.locator('#host-computers button[value="fill"]').click()
    expect(host.page.locator(".seat .badge-computer")).to_have_count(3)
    host.page.locator('#host-controls [data-command="start"]').click()
    host.page.wait_for_selector('.seat[data-to-act="true"]')
    # Hold'em seats are taken before the start: the page no longer offers computers.
    expect(host.page.locator("#host-computers")).to_be_hidden()
    end_the_game(host.page)
    expect(host.page.locator("#game-over")).to_be_visible()
    shown = host.page.locator("#game-over-stacks").inner_text()
    parts = shown.split(": ", 1)[1].split(" · ")
    assert len(parts) == 4, shown
    placed = []
    for part in parts:
        match = re.fullmatch(r"(\d+)\. (.+), ([\d,]+) chips?", part)
        assert match, shown
        placed.append((int(match[1]), digits(match[3])))
    assert sum(chips for _place, chips in placed) == 4000, shown  # the hand's pot was paid, not lost
    for place, chips in placed:
        assert place == 1 + sum(1 for _other, more in placed if more > chips), shown
    expect(host.page.locator("#host-computers")).to_be_hidden()
    screenshot(artifacts, 1, "placed", [host])


PERSON_TO_ACT_OR_NEWS = """([people, seq]) => {
  const seat = document.querySelector('.seat[data-to-act="true"]');
  if (seat && people.includes(seat.dataset.seat)) return true;
  return Number(document.querySelector('#table-root').dataset.seq) > seq;
}"""
MY_TURN = """(me) => !!document.querySelector(`.seat[data-seat="${me}"][data-to-act="true"]`)
  && document.querySelectorAll('#action-bar button[data-verb]').length > 0
  && !window.DashainTable.state.snapshotWanted"""


def final_chips_and_buy_ins(page) -> tuple[int, int]:
    """The game-over screen's chips at the end, summed, and the seats' buy-ins, summed."""
    return page.evaluate(
        "() => [Object.values(window.DashainTable.state.finalStacks).reduce((a, b) => a + b, 0),"
        " Object.values(window.DashainTable.state.seats).reduce((a, s) => a + (s.buy_ins || 0), 0)]"
    )


def test_two_people_and_two_computers_play_teen_patti_hands(new_page, live_site, artifacts):
    host = Player("asha-host", new_page("hostuser"))
    host.listen()
    live_site.set_next_table_code("BOTSTP")
    open_table(host.page, "faras", seats=4, buy_in_price="0.00")
    host.read_seat()
    host.page.locator('#between-hands [data-command="take"]').click()
    link = host.page.locator("#join-link").input_value()
    bikash = Player("bikash", new_page("bikash"))
    bikash.listen()
    join_table(bikash.page, link)
    bikash.read_seat()
    people = [host, bikash]
    expect(host.page.locator(".seat")).to_have_count(2)
    # Two computers, one at a time, from the host's page.
    for strength in ("easy", "hard"):
        host.page.locator('#host-computers select[name="strength"]').select_option(strength)
        host.page.locator('#host-computers button[value="add"]').click()
    expect(host.page.locator(".seat")).to_have_count(4)
    for person in people:
        expect(person.page.locator(".seat .badge-computer")).to_have_count(2)
    assert {seat["computer"] for seat in seats_on_page(bikash.page).values()} == {None, "easy", "hard"}

    live_site.set_next_hand_delay(0)
    host.page.locator('#host-controls [data-command="start"]').click()
    # Each person: chaal twice a hand, then ask for the show when offered, else pack; the
    # computers play their own turns. Every hand dealt must end.
    chaals: dict[tuple[str, int], int] = {}
    finished: set[int] = set()
    hands_wanted = 5
    by_seat = {person.seat: person for person in people}
    for _turn in range(MAX_HOST_TURNS):
        if len(finished) >= hands_wanted:
            break
        # Wait until a person is to act, or the computers have moved the table on.
        host.page.wait_for_function(PERSON_TO_ACT_OR_NEWS, arg=[list(by_seat), page_seq(host.page)], timeout=30_000)
        mover = by_seat.get(to_act(host) or "")
        if mover is not None:
            mover.page.wait_for_function(MY_TURN, arg=mover.seat)
            number = mover.page.evaluate("() => window.DashainTable.state.hand.number")
            verbs = action_verbs(mover)
            done = chaals.get((mover.label, number), 0)
            if "show" in verbs:
                verb = "show"
            elif "chaal" in verbs and done < 2:
                verb = "chaal"
                chaals[(mover.label, number)] = done + 1
            else:
                verb = "pack"
            act(mover, verb)
        finished |= {
            event["data"].get("number")
            for frame in host.frames
            if frame.get("type") == "events"
            for event in frame.get("events", [])
            if event.get("kind") == "hand_ended" and event.get("data")
        }
    else:
        raise AssertionError(f"only hands {sorted(finished)} ended")
    live_site.set_next_hand_delay(3600)
    # Every hand dealt before the last one seen ended, and gave out the chips it started with.
    events = [
        event
        for frame in host.frames
        if frame.get("type") == "events"
        for event in frame.get("events", [])
        if event.get("data")
    ]
    started = {
        event["data"]["number"]: sum(stack for _name, stack in event["data"]["players"])
        for event in events
        if event["kind"] == "hand_started" and "number" in event["data"]
    }
    ended = {
        event["data"]["number"]: sum(event["data"]["stacks"].values())
        for event in events
        if event["kind"] == "hand_ended"
    }
    assert set(range(1, max(started))) <= set(ended), (sorted(started), sorted(ended))
    assert len(ended) >= hands_wanted
    for number, chips in ended.items():
        assert chips == started[number], (number, started[number], chips)
    settle(people)
    screenshot(artifacts, 1, "played", people)

    # The host ends the game; chips were neither made nor lost, on the page and in the ledger.
    end_the_game(host.page)
    for person in people:
        expect(person.page.locator("#game-over")).to_be_visible()
        chips, buy_ins = final_chips_and_buy_ins(person.page)
        assert chips == 1000 * buy_ins and buy_ins >= 4, (person.label, chips, buy_ins)
    host.page.locator('a:has-text("Chips and money")').first.click()
    rows = host.page.locator("table.settlement tbody tr")
    expect(rows).to_have_count(4)
    buy_ins = sum(digits(row.locator("td").nth(0).inner_text()) for row in rows.all())
    bought = sum(digits(row.locator("td").nth(1).inner_text()) for row in rows.all())
    at_end = sum(digits(row.locator("td").nth(2).inner_text()) for row in rows.all())
    assert bought == at_end == 1000 * buy_ins, (buy_ins, bought, at_end)
    expect(host.page.locator(".computers-note")).to_be_visible()
    screenshot(artifacts, 2, "chips-and-money", [host])


def test_a_host_at_a_money_table_is_told_why_computers_cannot_sit(new_page, live_site, artifacts):
    host = Player("asha-host", new_page("hostuser"))
    live_site.set_next_table_code("BOTSMN")
    code = open_table(host.page, "faras", seats=4)  # the default price: 10.00 for 1,000 chips
    host.read_seat()
    host.page.locator('#between-hands [data-command="take"]').click()
    expect(host.page.locator(".seat")).to_have_count(1)
    # The page offers no computer, and says why.
    expect(host.page.locator("#host-computers")).to_have_count(0)
    expect(host.page.locator("#host-heading ~ p.aside")).to_contain_text("Computers play only for play chips")
    # A host who sends the form anyway (from another page, or an old one) is told why, and
    # nobody sits down.
    host.page.evaluate(
        """(action) => {
          const form = document.createElement("form");
          form.method = "post";
          form.action = action;
          const token = document.querySelector("[name=csrfmiddlewaretoken]").value;
          const fields = {strength: "easy", command: "fill", csrfmiddlewaretoken: token};
          for (const [name, value] of Object.entries(fields)) {
            const input = document.createElement("input");
            input.type = "hidden"; input.name = name; input.value = value;
            form.appendChild(input);
          }
          document.body.appendChild(form);
          form.submit();
        }""",
        f"/tables/{code}/computers/",
    )
    host.page.wait_for_load_state()
    expect(host.page.locator("ul.messages")).to_contain_text("Computers play only for play chips")
    expect(host.page.locator(".seat")).to_have_count(1)
    expect(host.page.locator(".seat .badge-computer")).to_have_count(0)
    screenshot(artifacts, 1, "money-table", [host])
