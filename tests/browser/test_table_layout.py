"""The table page on a laptop (1280 x 800) and a phone (390 x 844): everything a player needs
on one screen, in every state, and axe-core finds nothing serious.

Rules pinned (issue 16, items 1, 2 and 7): whoever's turn it is sees the turn banner and
the whole action bar inside the window without scrolling, on either size; no page is
wider than its window; every state of play is said in words on the status line
(#turn-status, #table-root[data-phase]): waiting for players, someone else's turn, paused
(actions disabled), connection lost (actions disabled), between hands (the result stays,
the next deal counted down), dealing (the next deal's time has come), game over; a
sideshow asked of you shows its question and answers inside the window; the Sideshow
button names the partner; used-up blind turns are explained; "Buy in again" is offered
below one buy-in only and asks first, in the page and by keyboard; axe finds no serious or critical violation in any
of these states. A screenshot of each state at each size is written to
test-artifacts/table/ (git-ignored; listed in docs/ui.md).

One table, three people: Asha hosts on a laptop, Bikash plays on a phone, Chandra on a
laptop (a 999 table adds more seats at the end).
"""

from __future__ import annotations

import re
from datetime import datetime, timedelta

import pytest
from playwright.sync_api import Page, expect

from tests.browser.conftest import PAGE_TIMEOUT_MS, ROOT
from tests.browser.driver import (
    Offline,
    Player,
    act,
    action_verbs,
    browser_dialogs,
    end_the_game,
    fits_the_screen,
    join_table,
    open_table,
    save_screenshot,
    settle,
    to_act,
)
from tests.browser.test_pages_layout import SIZES, page_problems

ARTIFACTS = ROOT / "test-artifacts" / "table"


@pytest.fixture(scope="module", autouse=True)
def english(live_site):
    """The words these tests read are English: no account keeps another test's language."""
    live_site.scenario("english")


@pytest.fixture(scope="module")
def screenshots():
    # Not emptied first: each pytest-xdist worker sets this fixture up, and one emptying the
    # folder while another makes it (or writes into it) failed a run. Each file is rewritten.
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    return ARTIFACTS


def person(chromium, live_site, username: str, size: str, label: str) -> Player:
    context = chromium.new_context(base_url=live_site.url, viewport=SIZES[size])
    context.set_default_timeout(PAGE_TIMEOUT_MS)
    live_site.sign_in(context, username)
    player = Player(label, context.new_page())
    player.size = size  # type: ignore[attr-defined]
    return player


def inside_window(page: Page, selector: str) -> bool:
    """The element is shown and wholly inside the window as the page opens (no scrolling)."""
    return page.evaluate(
        """selector => { window.scrollTo(0, 0); const node = document.querySelector(selector);
             if (!node || node.hidden || !node.getClientRects().length) return false;
             const box = node.getBoundingClientRect();
             return box.top >= 0 && box.left >= 0
               && box.bottom <= window.innerHeight && box.right <= window.innerWidth; }""",
        selector,
    )


def says(player: Player, phase: str, words: str | None = None) -> None:
    """The page is in ``phase`` (#table-root[data-phase]) and its status line says ``words``."""
    expect(player.page.locator("#table-root")).to_have_attribute("data-phase", phase)
    if words is not None:
        expect(player.page.locator("#turn-status")).to_have_text(words)
        assert inside_window(player.page, "#turn-status"), (player.label, player.size, phase)


def name_of(player: Player) -> str:
    return player.page.locator('.seat[data-me="true"] .seat-name').inner_text()


def sideshow_asked(asker: Player, partner: Player, screenshots) -> None:
    """``asker`` (seen) asks the sideshow the button names; ``partner`` sees the question and
    answers inside the window; it is snapped and refused."""
    expect(asker.page.locator('#action-bar button[data-verb="sideshow"]')).to_contain_text(
        f"Sideshow with {name_of(partner)}"
    )
    act(asker, "sideshow")
    says(partner, "sideshow-asked")
    expect(partner.page.locator("#sideshow-text")).to_have_text(f"{name_of(asker)} asks you for a sideshow.")
    for selector in ("#sideshow-request", "#sideshow-accept", "#sideshow-refuse"):
        assert inside_window(partner.page, selector), (partner.label, partner.size, selector)
    snap(screenshots, "sideshow-asked", [partner])
    act(partner, "refuse")


def snap(screenshots, state: str, players: list[Player]) -> None:
    for player in players:
        player.page.evaluate("() => window.scrollTo(0, 0)")
        save_screenshot(player.page, str(screenshots / f"table-{state}-{player.label}-{player.size}.png"))
        assert page_problems(player.page) == [], (state, player.label)


def test_the_table_fits_each_screen_in_every_state(chromium, live_site, screenshots):
    live_site.set_next_hand_delay(3600)
    asha = person(chromium, live_site, "hostuser", "laptop", "asha")
    bikash = person(chromium, live_site, "bikash", "phone", "bikash")
    chandra = person(chromium, live_site, "chandra", "laptop", "chandra")
    players = [asha, bikash, chandra]
    try:
        live_site.set_next_table_code("FITTED")
        open_table(asha.page, "faras")
        asha.read_seat()
        asha.page.locator('#between-hands [data-command="take"]').click()
        link = asha.page.locator("#join-link").input_value()
        for friend in (bikash, chandra):
            join_table(friend.page, link)
            friend.read_seat()
        expect(asha.page.locator(".seat")).to_have_count(3)
        for player in players:
            says(player, "waiting", "Waiting for players: the host starts the game once everyone has sat down.")
        snap(screenshots, "waiting", players)

        asha.page.locator('#host-controls [data-command="start"]').click()
        asha.page.wait_for_selector('.seat[data-to-act="true"]')
        settle(players)
        by_seat = {player.seat: player for player in players}
        turns_seen: set[str] = set()
        for _turn in range(3):
            mover = by_seat[to_act(asha)]
            assert inside_window(mover.page, "#action-bar"), (mover.label, mover.size)
            assert inside_window(mover.page, "#turn-reminder"), (mover.label, mover.size)
            snap(screenshots, "your-turn", [mover])
            snap(screenshots, "their-turn", [player for player in players if player is not mover])
            turns_seen.add(mover.size)
            act(mover, "chaal")
            settle(players)
        assert turns_seen == {"laptop", "phone"}
        mover = by_seat[to_act(asha)]
        says(mover, "your-turn")
        for player in players:
            if player is not mover:
                says(player, "their-turn", f"{name_of(mover)} to act.")

        # Connection lost, at either size: said on the status line, and nothing can be pressed
        # (the mover's own turn included) until the page is back.
        lost = [mover, next(player for player in players if player.size == "laptop" and player is not mover)]
        offline = [Offline(player.page) for player in lost]
        for player, cut in zip(lost, offline, strict=True):
            cut.lose()
            says(player, "lost", "Connection lost: reconnecting…")
        buttons = mover.page.locator("#action-bar button")
        for index in range(buttons.count()):
            expect(buttons.nth(index)).to_be_disabled()
        snap(screenshots, "connection-lost", lost)
        for player, cut in zip(lost, offline, strict=True):
            cut.back()
            expect(player.page.locator("#connection")).to_have_attribute("data-state", "open")
        says(mover, "your-turn")
        expect(mover.page.locator('#action-bar button[data-verb="pack"]')).to_be_enabled()

        # Paused: an overlay on the felt, and no action button may be pressed, at either size.
        asha.page.locator('#host-controls [data-command="pause"]').click()
        for player in players:
            expect(player.page.locator("#paused-overlay")).to_be_visible()
            says(player, "paused", "Paused by the host: nobody can act until the game resumes.")
        buttons = mover.page.locator("#action-bar button")
        assert buttons.count() > 0
        for index in range(buttons.count()):
            expect(buttons.nth(index)).to_be_disabled()
        snap(screenshots, "paused", players)
        asha.page.locator('#host-controls [data-command="resume"]').click()
        expect(mover.page.locator("#paused-overlay")).to_be_hidden()
        expect(mover.page.locator('#action-bar button[data-verb="pack"]')).to_be_enabled()

        # The turn alert is off until the player turns it on (no permission asked before).
        toggle = bikash.page.locator("#turn-alert-toggle")
        expect(toggle).to_have_attribute("aria-pressed", "false")
        toggle.click()
        expect(toggle).to_have_attribute("aria-pressed", "true")

        # Sideshows, each asked of the player who bet just before (book 000), at both sizes:
        # Bikash (phone) is asked by Chandra, then Chandra (laptop) by Asha; both refuse.
        # Asha's page is read for who is next only once it has every page's news (the refusal
        # reaches the refuser's page first: read before, Asha's could still show the sideshow).
        settle(players)
        assert to_act(asha) == bikash.seat
        act(bikash, "see")
        act(bikash, "chaal")
        settle(players)
        assert to_act(asha) == chandra.seat
        act(chandra, "see")
        sideshow_asked(chandra, bikash, screenshots)
        settle(players)
        assert to_act(asha) == asha.seat
        act(asha, "see")
        sideshow_asked(asha, chandra, screenshots)
        settle(players)

        # Everyone packs but one: the result is on screen, and stays (the next deal is an hour away).
        while True:
            settle(players)  # Asha's page has the packer's news before it is asked who is next
            seat = to_act(asha)
            if seat is None:
                break
            act(by_seat[seat], "pack")
        settle(players)
        for player in players:
            expect(player.page.locator("#result")).to_be_visible()
            assert inside_window(player.page, "#result"), (player.label, player.size)
            says(player, "between-hands")
            expect(player.page.locator("#turn-status")).to_have_text(re.compile(r"^Next hand in (59|60):\d\d\.$"))
        snap(screenshots, "result", players)
        bikash.page.reload()
        expect(bikash.page.locator("#result")).to_be_visible()  # a reload between hands keeps it

        # "Buy in again" only below one buy-in (1,000 chips), and it asks first: chips and price.
        stacks = {
            player.label: int(re.sub(r"\D", "", player.page.locator('.seat[data-me="true"] .seat-stack').inner_text()))
            for player in players
        }
        for player in players:
            expect(player.page.locator('#between-hands [data-command="buy_back"]')).to_have_count(
                1 if stacks[player.label] < 1000 else 0
            )
        short = min(players, key=lambda player: stacks[player.label])
        short_stack = stacks[short.label]
        assert short_stack < 1000
        # The question is the page's own (no browser dialog), in a labelled group, used by
        # keyboard: "Yes" takes the focus, Escape says no and gives the focus back.
        dialogs = browser_dialogs(short.page)
        before = short.page.locator("#table-root").get_attribute("data-seq")
        short.page.locator('#between-hands [data-command="buy_back"]').focus()
        short.page.keyboard.press("Enter")
        question = short.page.get_by_role("group", name="Buy in again: 1,000 chips for 10.00?")
        expect(question).to_be_visible()
        expect(short.page.locator("#buy-back-question")).to_have_text("Buy in again: 1,000 chips for 10.00?")
        expect(question.get_by_role("button", name="Yes, buy in again")).to_be_focused()
        expect(question.get_by_role("button", name="Cancel")).to_be_visible()
        assert fits_the_screen(short.page), short.size
        question.scroll_into_view_if_needed()  # a phone shows "Your seat" below the table
        save_screenshot(short.page, str(screenshots / f"table-buy-again-question-{short.label}-{short.size}.png"))
        assert page_problems(short.page) == [], short.size
        short.page.keyboard.press("Escape")
        expect(short.page.locator("#buy-back-question")).to_have_count(0)
        expect(short.page.locator('#between-hands [data-command="buy_back"]')).to_be_focused()
        # Said no: nothing was sent, nothing changed; "Cancel" says no too.
        short.page.keyboard.press("Enter")
        question.get_by_role("button", name="Cancel").click()
        expect(short.page.locator("#buy-back-question")).to_have_count(0)
        expect(short.page.locator('.seat[data-me="true"] .seat-stack')).to_have_attribute(
            "title", f"{short_stack:,} chips"
        )
        assert short.page.locator("#table-root").get_attribute("data-seq") == before
        # Yes: the question opens with "Yes" focused, and Enter buys.
        short.page.locator('#between-hands [data-command="buy_back"]').click()
        expect(question.get_by_role("button", name="Yes, buy in again")).to_be_focused()
        short.page.keyboard.press("Enter")
        for player in players:
            expect(player.page.locator(f'.seat[data-seat="{short.seat}"] .seat-stack')).to_have_attribute(
                "title", f"{short_stack + 1000:,} chips"
            )
        settle(players)
        expect(short.page.locator("#hand-log li", has_text="buys in again")).to_have_count(1)
        expect(short.page.locator('#between-hands [data-command="buy_back"]')).to_have_count(0)
        assert dialogs == []
        # The log writes every number one way (1,000, never 1000).
        for player in players:
            log = player.page.locator("#hand-log").inner_text()
            assert re.findall(r"(?<![\w.,:/-])\d{4,}(?!\w)", log) == [], (player.label, log)
            assert "1,000" in log, log

        # Dealing: once the next deal's time has come (the pages' clocks moved past the server's
        # next_deal_at; the server itself waits its hour), the status line says so; the result stays.
        due = asha.page.evaluate("() => window.DashainTable.state.table.next_deal_at")
        assert due
        later = datetime.fromisoformat(due) + timedelta(seconds=2)
        dealing = [bikash, chandra]
        for player in dealing:
            player.page.clock.set_fixed_time(later)
            says(player, "dealing", "Dealing the next hand…")
            expect(player.page.locator("#result")).to_be_visible()
        snap(screenshots, "dealing", dealing)

        # Ending the game asks in the page too: the question fits the screen, axe finds nothing.
        host_dialogs = browser_dialogs(asha.page)
        asha.page.locator('#host-controls [data-command="end"]').click()
        question = asha.page.get_by_role("group", name="End the game for everyone?")
        expect(question.get_by_role("button", name="Yes, end the game")).to_be_focused()
        assert fits_the_screen(asha.page), asha.size
        question.scroll_into_view_if_needed()
        save_screenshot(asha.page, str(screenshots / f"table-end-question-{asha.label}-{asha.size}.png"))
        assert page_problems(asha.page) == [], asha.size
        asha.page.keyboard.press("Escape")
        end_the_game(asha.page)
        assert host_dialogs == []
        for player in players:
            expect(player.page.locator("#game-over")).to_be_visible()
            assert inside_window(player.page, "#game-over"), (player.label, player.size)
            says(player, "ended", "The game is over.")
        snap(screenshots, "game-over", players)
    finally:
        for player in players:
            player.page.context.close()


@pytest.mark.parametrize(("game", "count"), [("faras", 8), ("999", 8), ("999", 16), ("holdem", 6)])
def test_a_full_table_fits_each_screen(chromium, live_site, screenshots, game, count):
    """Every seat taken (8 for Faras, 999's 8 and 16, its most by book 002; 6 for hold'em) and the host to act: at
    both sizes the seats all show, the page is no wider than the window, the turn banner
    and the whole action bar are inside it, and axe finds nothing serious."""
    code = live_site.scenario(f"full:{game}:{count}")["code"]
    for size in sorted(SIZES):
        host = person(chromium, live_site, "hostuser", size, f"host-{game}")
        try:
            host.page.goto(f"/tables/{code}/")
            expect(host.page.locator("#connection")).to_have_attribute("data-state", "open")
            expect(host.page.locator(".seat")).to_have_count(count)
            expect(host.page.locator('.seat[data-me="true"][data-to-act="true"]')).to_have_count(1)
            expect(host.page.locator("#action-bar button[data-verb]").first).to_be_visible()
            assert inside_window(host.page, "#action-bar"), size
            assert inside_window(host.page, "#turn-reminder"), size
            snap(screenshots, f"full-{game}-{count}", [host])
        finally:
            host.page.context.close()


def test_long_names_round_the_8_seat_oval_end_in_an_ellipsis_and_are_read_whole(chromium, live_site, screenshots):
    """Eight seats whose guests gave names of 40 characters (the most a name may have): at
    both sizes each name stays inside its seat, cut with an ellipsis (on a phone after as
    much of it as the seat's width holds, the chips under it), the chips shown whole; the
    full name is the name's title and begins the seat's accessible name."""
    code = live_site.scenario("full:faras:8:long")["code"]
    for size in sorted(SIZES):
        host = person(chromium, live_site, "hostuser", size, "host-long-names")
        try:
            host.page.goto(f"/tables/{code}/")
            expect(host.page.locator("#connection")).to_have_attribute("data-state", "open")
            expect(host.page.locator(".seat")).to_have_count(8)
            seats = host.page.evaluate(
                """() => [...document.querySelectorAll(".seat")].map(seat => {
                     const name = seat.querySelector(".seat-name"), stack = seat.querySelector(".seat-stack");
                     const box = seat.getBoundingClientRect(), nameBox = name.getBoundingClientRect(),
                           stackBox = stack.getBoundingClientRect();
                     return {
                       full: window.DashainTable.state.seats[seat.dataset.seat].name,
                       title: name.title, label: seat.getAttribute("aria-label"),
                       ellipsis: getComputedStyle(name).textOverflow === "ellipsis",
                       cut: name.scrollWidth > name.clientWidth,
                       nameInside: nameBox.left >= box.left - 0.5 && nameBox.right <= box.right + 0.5,
                       stackWhole: stack.scrollWidth <= stack.clientWidth + 0.5 && stackBox.right <= box.right + 0.5
                         && (stackBox.left >= nameBox.right - 0.5 || stackBox.top >= nameBox.bottom - 0.5),
                       shown: name.clientWidth, room: seat.clientWidth,
                     }; })"""
            )
            longs = [seat for seat in seats if seat["full"].startswith("Guest")]
            assert len(longs) == 7 and all(len(seat["full"]) == 40 for seat in longs), seats
            for seat in seats:
                assert seat["title"] == seat["full"], (size, seat)
                assert seat["label"].startswith(seat["full"] + ", "), (size, seat)
                assert seat["ellipsis"] and seat["nameInside"] and seat["stackWhole"], (size, seat)
            # 40 characters never fit: cut, with the ellipsis. On a phone the seats make a grid
            # with height to spare: the chips go under a long name, which gets the seat's width.
            assert all(seat["cut"] for seat in longs), (size, seats)
            if size == "phone":
                assert all(seat["shown"] > 0.8 * seat["room"] for seat in longs), seats
            assert fits_the_screen(host.page), size
            assert inside_window(host.page, "#action-bar"), size
            snap(screenshots, "full-8-long-names", [host])
        finally:
            host.page.context.close()


def test_used_up_blind_turns_are_explained_at_both_sizes(chromium, live_site, screenshots):
    """Book 000: after four blind bets a player must see before betting again. With only See
    and Pack left, the page says why (the server's must_see), inside the window at both sizes."""
    table = live_site.scenario("blind-limit")
    for size in sorted(SIZES):
        player = person(chromium, live_site, table["username"], size, table["username"])
        try:
            player.page.goto(f"/tables/{table['code']}/")
            expect(player.page.locator("#connection")).to_have_attribute("data-state", "open")
            says(player, "your-turn")
            expect(player.page.locator("#action-hint")).to_have_text(
                "Your blind turns are used up: see your cards or pack."
            )
            assert action_verbs(player) == ["pack"]
            expect(player.page.locator("#see-button")).to_be_visible()
            for selector in ("#action-hint", "#action-bar", "#turn-reminder"):
                assert inside_window(player.page, selector), (size, selector)
            snap(screenshots, "blind-turns-used", [player])
            act(player, "see")
            expect(player.page.locator("#action-hint")).to_be_hidden()
            assert "chaal" in action_verbs(player)
        finally:
            player.page.context.close()
        if size == sorted(SIZES)[0]:
            table = live_site.scenario("blind-limit")  # the second size gets a table of its own


def test_a_16_seat_999_table_of_computers_plays_hands_on_a_phone_and_a_laptop(chromium, live_site, screenshots):
    """Book 002: 999 seats 2 to 16. The host opens a play-chips table of 16, fills the other
    15 seats with computers from the page, and plays a few hands, on a phone and a laptop at
    once (the host's page open at both sizes): at each of the host's turns, neither page is
    wider than its window and the whole action bar and the turn banner are inside it."""
    phone = person(chromium, live_site, "hostuser", "phone", "host16")
    laptop = person(chromium, live_site, "hostuser", "laptop", "host16")
    pages = [phone, laptop]
    try:
        live_site.set_next_table_code("FULL16")
        open_table(laptop.page, "999", seats=16, buy_in_price="0.00")
        laptop.read_seat()
        laptop.page.locator('#between-hands [data-command="take"]').click()
        expect(laptop.page.locator(".seat")).to_have_count(1)
        laptop.page.locator('#host-computers button[value="fill"]').click()
        expect(laptop.page.locator(".seat .badge-computer")).to_have_count(15)
        phone.page.goto(laptop.page.url)
        phone.read_seat()
        expect(phone.page.locator(".seat")).to_have_count(16)
        live_site.set_next_hand_delay(0)
        laptop.page.locator('#host-controls [data-command="start"]').click()
        my_turn = (
            'me => !!document.querySelector(`.seat[data-seat="${me}"][data-to-act="true"]`)'
            " && document.querySelectorAll('#action-bar button[data-verb]').length > 0"
            " && !window.DashainTable.state.snapshotWanted"
        )
        turns = 0
        while turns < 4:
            for player in pages:
                player.page.wait_for_function(my_turn, arg=player.seat, timeout=60_000)
            for player in pages:
                assert fits_the_screen(player.page), player.size
                assert inside_window(player.page, "#action-bar"), player.size
                assert inside_window(player.page, "#turn-reminder"), player.size
            if turns == 0:
                snap(screenshots, "full-999-16-computers", pages)
            turns += 1
            # Chaal on the laptop, pack on the phone: hands end, and the next is dealt at once.
            mover = laptop if turns % 2 else phone
            act(mover, "pack" if turns % 2 == 0 or "chaal" not in action_verbs(mover) else "chaal")
        hands = laptop.page.evaluate("() => window.DashainTable.state.hand.number")
        assert hands >= 2
    finally:
        live_site.set_next_hand_delay(3600)
        for player in pages:
            player.page.context.close()


def test_your_turn_with_a_timer_shows_the_time_left_at_both_sizes(chromium, live_site, screenshots):
    """Issue 16: "your turn (with the countdown when there is a timer)". With the host's turn
    timer, the player to act reads "Your turn: 9:59 left" inside the window, on a phone and a
    laptop; everyone else reads the same clock under that player's name."""
    asha = person(chromium, live_site, "hostuser", "laptop", "asha")
    bikash = person(chromium, live_site, "bikash", "phone", "bikash")
    players = [asha, bikash]
    try:
        open_table(asha.page, "faras", turn_timer=600)  # ten minutes: no reminder during the test
        asha.read_seat()
        asha.page.locator('#between-hands [data-command="take"]').click()
        join_table(bikash.page, asha.page.locator("#join-link").input_value())
        bikash.read_seat()
        expect(asha.page.locator(".seat")).to_have_count(2)
        asha.page.locator('#host-controls [data-command="start"]').click()
        asha.page.wait_for_selector('.seat[data-to-act="true"]')
        settle(players)
        by_seat = {player.seat: player for player in players}
        sizes = set()
        for _turn in range(2):
            mover = by_seat[to_act(asha)]
            other = next(player for player in players if player is not mover)
            says(mover, "your-turn")
            expect(mover.page.locator("#turn-clock")).to_have_text(re.compile(r"^Your turn: (9:[0-5]\d|10:00) left$"))
            expect(other.page.locator("#turn-clock")).to_have_text(
                re.compile(rf"^{name_of(mover)} to act: (9:[0-5]\d|10:00) left$")
            )
            for selector in ("#turn-clock", "#turn-reminder", "#action-bar"):
                assert inside_window(mover.page, selector), (mover.size, selector)
            snap(screenshots, "your-turn-clock", [mover])
            sizes.add(mover.size)
            act(mover, "chaal")
            settle(players)
        assert sizes == {"laptop", "phone"}
    finally:
        for player in players:
            player.page.context.close()


#: Landscape laptop windows the oval must fit (wider than 700 px: the seats go round the felt).
LAPTOPS = {
    "1280x800": {"width": 1280, "height": 800},
    "1366x768": {"width": 1366, "height": 768},
    "1440x900": {"width": 1440, "height": 900},
    "1024x768": {"width": 1024, "height": 768},
}

#: Each seat's box as drawn (its yellow "to act" ring included), and the lines of the felt's
#: centre as drawn (the text of the pot and the stakes line, not their blocks' widths).
MEASURE_SEATS = """() => {
  const box = (rect, grow = 0) => ({left: rect.left - grow, top: rect.top - grow,
                                    right: rect.right + grow, bottom: rect.bottom + grow});
  const seats = [...document.querySelectorAll(".seat")].map(seat => {
    const style = getComputedStyle(seat);
    const ring = style.outlineStyle === "none" ? 0
      : parseFloat(style.outlineWidth) + Math.max(0, parseFloat(style.outlineOffset));
    return {pos: seat.dataset.pos, ...box(seat.getBoundingClientRect(), ring)};
  });
  const centre = [];
  for (const id of ["pot", "stake"]) {
    const node = document.getElementById(id);
    if (!node || !node.textContent.trim()) continue;
    const range = document.createRange();
    range.selectNodeContents(node);
    centre.push({line: id, ...box(range.getBoundingClientRect())});
  }
  return {seats, centre};
}"""


def _overlap(a: dict, b: dict) -> float:
    """How far two boxes overlap, in px (the lesser of the two overlaps; 0 when apart)."""
    across = min(a["right"], b["right"]) - max(a["left"], b["left"])
    down = min(a["bottom"], b["bottom"]) - max(a["top"], b["top"])
    return max(0.0, min(across, down))


@pytest.mark.parametrize("names", ["short", "long"])
@pytest.mark.parametrize("game", ["faras", "holdem"])
def test_seats_round_the_oval_never_overlap_on_a_laptop(chromium, live_site, screenshots, game, names):
    """2 to 8 seats (hold'em: 6, its most) round the oval, short names and names of 40
    characters, at 1280 x 800, 1366 x 768, 1440 x 900 and 1024 x 768, the host to act (a
    yellow ring round the seat; hold'em seats show two cards): no two seats overlap, and
    no seat covers the pot or the stakes line in the felt's centre."""
    most = 6 if game == "holdem" else 8
    context = chromium.new_context(base_url=live_site.url, viewport=LAPTOPS["1280x800"])
    context.set_default_timeout(PAGE_TIMEOUT_MS)
    live_site.sign_in(context, "hostuser")
    page = context.new_page()
    problems = []
    suffix = ":long" if names == "long" else ""
    codes = live_site.scenario(f"fulls:{game}:2:{most}{suffix}")["codes"]
    try:
        for count in range(2, most + 1):
            code = codes[str(count)]
            page.set_viewport_size(LAPTOPS["1280x800"])
            page.goto(f"/tables/{code}/")
            expect(page.locator("#connection")).to_have_attribute("data-state", "open")
            expect(page.locator(".seat")).to_have_count(count)
            expect(page.locator('.seat[data-me="true"][data-to-act="true"]')).to_have_count(1)
            expect(page.locator("#pot")).not_to_be_empty()
            for size, viewport in LAPTOPS.items():
                page.set_viewport_size(viewport)
                drawn = page.evaluate(MEASURE_SEATS)
                seats = drawn["seats"]
                assert len(seats) == count and drawn["centre"], (size, drawn)
                for i, a in enumerate(seats):
                    for b in seats[i + 1 :]:
                        if _overlap(a, b) > 0:
                            problems.append(
                                f"{game} {count} {names} {size}: seats {a['pos']} and {b['pos']} "
                                f"overlap by {_overlap(a, b):.1f} px"
                            )
                    for line in drawn["centre"]:
                        if _overlap(a, line) > 0:
                            problems.append(
                                f"{game} {count} {names} {size}: seat {a['pos']} covers the "
                                f"{line['line']} line by {_overlap(a, line):.1f} px"
                            )
                if count == most:
                    save_screenshot(page, str(screenshots / f"table-oval-{game}-{count}-{names}-{size}.png"))
                if names == "short":
                    # Issue 28: "Ash…", "Guest…" round the oval. A short name is shown whole.
                    cut = page.evaluate(
                        """() => [...document.querySelectorAll('.seat .seat-name')]
                             .filter(n => n.scrollWidth > n.clientWidth + 0.5).map(n => n.title)"""
                    )
                    if cut:
                        problems.append(f"{game} {count} {names} {size}: names cut short: {cut}")
                if not fits_the_screen(page):
                    problems.append(f"{game} {count} {names} {size}: the page is wider than the window")
                if not inside_window(page, "#action-bar"):
                    problems.append(f"{game} {count} {names} {size}: the action bar is not inside the window")
    finally:
        context.close()
    assert problems == [], "\n".join(problems)


#: How many of my cards are not wholly inside my seat's tile, or lie over its name, badges or bet.
CARDS_CLIPPED = """() => {
  const tile = document.querySelector('.seat[data-me="true"]');
  const t = tile.getBoundingClientRect();
  const box = (node) => node.getBoundingClientRect();
  const cards = [...tile.querySelectorAll('.seat-cards .playing-card')].map(box);
  const parts = [...tile.querySelectorAll('.name, .badges, .bet')].map(box);
  const meet = (a, b) => a.left < b.right - 0.5 && b.left < a.right - 0.5
    && a.top < b.bottom - 0.5 && b.top < a.bottom - 0.5;
  const outside = (c) => c.left < t.left || c.right > t.right || c.top < t.top || c.bottom > t.bottom;
  return cards.filter(c => outside(c) || parts.some(p => meet(c, p))).length;
}"""


def test_at_16_seats_a_phone_shows_my_cards_near_the_top_and_on_my_own_tile(chromium, live_site, screenshots):
    """Issue 28: with 999's 16 seats on a phone, "Your cards" and "See my cards" sat at y =
    1112-1229, under 16 seat tiles, and my own tile showed no card. Now, at both sizes, my
    cards and "See my cards" are inside the first screen (on a phone in its top half), and
    my own tile shows my (face-down) cards while the other tiles leave theirs out."""
    code = live_site.scenario("full:999:16")["code"]
    for size in sorted(SIZES):
        host = person(chromium, live_site, "hostuser", size, "host-16-cards")
        try:
            host.page.goto(f"/tables/{code}/")
            expect(host.page.locator("#connection")).to_have_attribute("data-state", "open")
            expect(host.page.locator(".seat")).to_have_count(16)
            expect(host.page.locator("#see-button")).to_be_visible()
            for selector in ("#my-hand", "#see-button", "#action-bar", "#turn-reminder"):
                assert inside_window(host.page, selector), (size, selector)
            top = host.page.evaluate("() => document.querySelector('#my-hand').getBoundingClientRect().top")
            if size == "phone":
                assert top < 844 / 2, top
            mine = host.page.locator('.seat[data-me="true"] .seat-cards .playing-card')
            expect(mine).to_have_count(3)
            assert all(card.is_visible() for card in mine.all()), size
            # each card wholly inside my tile, none over another part of it
            clipped = host.page.evaluate(CARDS_CLIPPED)
            assert clipped == 0, size
            others = host.page.locator('.seat[data-me="false"] .seat-cards')
            assert not any(box.is_visible() for box in others.all()), size
            assert fits_the_screen(host.page), size
            snap(screenshots, "full-999-16-my-cards", [host])
        finally:
            host.page.context.close()
