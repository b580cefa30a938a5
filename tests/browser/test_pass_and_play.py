"""Pass and play in a real browser: one phone, several people, computers in the other seats.

Rules pinned (issue 15, book 001: "To share one phone, choose Pass and play: the cards stay
hidden while the phone is passed"): between turns the page says "Pass to <name>" and shows
no card of anyone; a player's own cards show only after they tap "I am <name>"; when the
turn passes, nothing of their hand stays on the page. A check reads every WebSocket frame
the page received and the rendered page at every state and finds no card of a player
other than the one holding the phone (cards turned up at a show excepted). The owners of
the cards are worked out here from the deal itself (the fixed seed, the table's code and
the hand's public record of the deal), not from what the server chose to send.
"""

from __future__ import annotations

import re
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from engine.fairness import hand_deck
from engine.games import get_game
from tests.browser.driver import (
    Player,
    ask_and_say_no,
    browser_dialogs,
    commands_sent,
    open_table,
    page_seq,
    screenshot,
)
from tests.browser.server import FIXED_SEED
from tests.tables.leaks import PUBLIC_REVEALS, _cards_in, phone_leaks

PHONE = {"width": 390, "height": 844}
NAMES = ("Bina", "Kiran")


def add_local_player(page: Page, name: str) -> None:
    page.locator('.host-local-players input[name="name"]').fill(name)
    page.locator(".host-local-players button[type=submit]").click()
    expect(page.locator(".seat .seat-name", has_text=name)).to_be_visible()


def add_computer(page: Page) -> None:
    before = page.locator(".seat").count()
    page.locator('.host-computers button[value="add"]').click()
    expect(page.locator(".seat")).to_have_count(before + 1)


def deal_owners(frames: list[dict[str, Any]], game: str) -> dict[int, dict[str, str]]:
    """hand number -> {card: owner seat id}, from each hand's public record of the deal."""
    rules = get_game(game)
    owners: dict[int, dict[str, str]] = {}
    for frame in frames:
        for event in frame.get("events", []) if frame.get("type") == "events" else []:
            data = event.get("data") or {}
            if event.get("kind") != "hand_started" or "number" not in data or data["number"] in owners:
                continue
            deck = hand_deck(FIXED_SEED, data["table"], data["number"], data["player_seeds"])
            players = [(str(name), int(stack)) for name, stack in data["players"]]
            state, _events = rules.start_hand(
                settings=data["settings"], players=players, dealer=data["dealer_index"], deck=deck
            )
            hidden = state.hole if hasattr(state, "hole") else state.cards
            owners[data["number"]] = {
                _cards_in([text])[0]: str(name)
                for name, cards in zip(state.names, hidden, strict=True)
                for text in (_card_text(card) for card in cards)
            }
    return owners


def _card_text(card: int) -> str:
    from engine.cards import card_text

    return card_text(card)


def frame_reveals(frames: list[dict[str, Any]], game: str) -> list[tuple[int, int, str, dict[str, Any]]]:
    """Who was shown which hidden cards, as ``tests.tables.leaks.cards_revealed`` lists them from
    the log, worked out from the deal and the public events (not from what the phone was sent):
    in hold'em each player's own two at the deal; in Teen Patti a player's own three once the
    public ``see`` says they looked; cards turned up at a show, to everyone."""
    owners = deal_owners(frames, game)
    reveals = []
    for frame in frames:
        for event in frame.get("events", []) if frame.get("type") == "events" else []:
            kind, number, data = event.get("kind"), event.get("hand"), event.get("data") or {}
            if number is None or number not in owners:
                continue
            own = {}
            for card, owner in owners[number].items():
                own.setdefault(owner, []).append(card)
            if kind == "hand_started" and "number" in data and game == "holdem":
                reveals += [(event["seq"], number, "hole_cards", {"player": p, "cards": c}) for p, c in own.items()]
            elif kind == "see":
                player = str(data.get("player"))
                reveals.append((event["seq"], number, "cards", {"player": player, "cards": own.get(player, [])}))
            elif kind in PUBLIC_REVEALS:
                reveals.append((event["seq"], number, kind, data))
    return reveals


def page_state(page: Page) -> dict[str, Any]:
    """What the page shows now: who holds the phone, whom to pass to, and every face-up card by where it is."""
    return page.evaluate(
        """() => {
          const s = window.DashainTable.state;
          const hold = document.querySelector("#phone-hold");
          const faces = (selector) => Array.from(document.querySelectorAll(selector + " svg.card-face"))
            .map((n) => n.dataset.card);
          return {
            seq: s.lastSeq, phone: s.phone, hand: s.hand ? s.hand.number : null,
            finished: !!(s.hand && (s.hand.finished || s.hand.result)),
            to_act: s.turn ? String(s.turn.player) : null,
            seats: faces("#seats"), mine: faces("#my-cards"), result: faces("#result"),
            pass_text: document.querySelector("#phone-pass-text").textContent,
            button: hold.hidden ? "" : hold.textContent,
          };
        }"""
    )


def check_page(player: Player, game: str, names: dict[str, str], checked: list[dict[str, Any]]) -> dict[str, Any]:
    """The rendered page now shows no card of anyone but the holder (a card turned up at a show excepted)."""
    shown = page_state(player.page)
    owners = deal_owners(player.frames, game).get(shown["hand"], {})
    reveals = frame_reveals(player.frames, game)
    public = {
        card
        for seq, number, kind, data in reveals
        if number == shown["hand"] and kind in PUBLIC_REVEALS
        for card in _cards_in(data)
    }
    holder = "" if shown["phone"]["holding"] is None else str(shown["phone"]["holding"])
    for card in shown["seats"] + shown["mine"] + shown["result"]:
        owner = owners.get(card)
        assert owner is None or owner == holder or card in public, (
            f"{card} of {names.get(owner, owner)} on the page while {names.get(holder, 'nobody')} holds the phone"
        )
    if not holder:
        assert shown["mine"] == [], "own cards on the page while nobody holds the phone"
    checked.append(shown)
    return shown


def wait_settled(page: Page) -> None:
    page.wait_for_function("() => window.DashainTable.state.connected && !window.DashainTable.state.snapshotWanted")


HELD_CARDS_PLACED = """() => {
  window.scrollTo(0, 0);
  const hand = document.querySelector('#my-hand'), bar = document.querySelector('#action-bar');
  const h = hand.getBoundingClientRect(), b = bar.getBoundingClientRect();
  return {shown: !hand.hidden && h.height > 0, above_bar: h.bottom <= b.top + 0.5,
          in_window: h.top >= 0 && h.bottom <= window.innerHeight, hand: [h.top, h.bottom], bar: [b.top, b.bottom]};
}"""


def play_the_phone(player: Player, game: str, names: dict[str, str], *, hands: int, artifacts, choose) -> list:
    """Pass the phone round until ``hands`` hands have ended: at every state the page is checked;
    a seat of the phone to act is passed the phone ("Pass to <name>"), taps, and plays ``choose``."""
    page = player.page
    checked: list[dict[str, Any]] = []
    step = 0
    passing_order: list[str] = []
    for _ in range(300):
        wait_settled(page)
        shown = check_page(player, game, names, checked)
        ended = [
            event
            for frame in player.frames
            if frame.get("type") == "events"
            for event in frame["events"]
            if event.get("kind") == "hand_ended"
        ]
        if len(ended) >= hands:
            return checked
        phone = shown["phone"]
        if phone["pass_to"] is not None:
            name = names[str(phone["pass_to"])]
            assert shown["pass_text"] == f"Pass to {name}" and shown["button"] == f"I am {name}", shown
            assert shown["mine"] == [] and shown["seats"] == [], shown
            step += 1
            screenshot(artifacts, step, f"pass-to-{name.lower()}", [player])
            passing_order = page.locator(".seat").evaluate_all("nodes => nodes.map(n => n.dataset.seat)")
            page.locator("#phone-hold").click()
            page.wait_for_function(
                "seat => (window.DashainTable.state.phone || {}).holding === seat", arg=phone["pass_to"]
            )
            continue
        if phone["holding"] is not None:
            # Issue 28: the seats keep their order while the phone is passed and held, and the
            # holder's cards are on screen above the sticky action bar.
            if passing_order:
                assert page.locator(".seat").evaluate_all("ns => ns.map(n => n.dataset.seat)") == passing_order
            if page.viewport_size and page.viewport_size["width"] <= 700:
                placed = page.evaluate(HELD_CARDS_PLACED)
                assert placed["shown"] and placed["above_bar"] and placed["in_window"], placed
            step += 1
            screenshot(artifacts, step, f"held-by-{names[str(phone['holding'])].lower()}", [player])
            before = page_seq(page)
            verb = choose(page)
            if verb == "see":
                page.locator("#see-button").click()
            elif verb in ("accept", "refuse"):
                page.locator(f"#sideshow-{verb}").click()
            else:
                page.locator(f'#action-bar button[data-verb="{verb}"]').click()
            page.wait_for_function(
                "seq => window.DashainTable.state.lastSeq > seq && !window.DashainTable.state.snapshotWanted",
                arg=before,
            )
            continue
        # A computer's turn, or between hands: the server moves on by itself.
        before = shown["seq"]
        page.wait_for_function("seq => window.DashainTable.state.lastSeq > seq", arg=before, timeout=30_000)
    raise AssertionError("the hands did not end")


def check_frames(player: Player, game: str) -> dict[str, Any]:
    frames = [frame for frame in player.frames if frame.get("type") in ("snapshot", "events")]
    owners = deal_owners(player.frames, game)
    result = phone_leaks(frames, owners, frame_reveals(player.frames, game))
    assert result["leaks"] == [], result["leaks"][:5]
    # Not vacuous: the holders' own cards were in what was checked, and frames went out both ways.
    assert result["view_cards"] > 0 and result["frames_nobody_holds"] > 0 and result["frames_held"] > 0, result
    return result


def names_on(page: Page, seated: int) -> dict[str, str]:
    """Seat id -> name of the ``seated`` players, once the page has drawn them."""
    expect(page.locator(".seat")).to_have_count(seated)
    return {
        seat.get_attribute("data-seat"): seat.locator(".seat-name").inner_text() for seat in page.locator(".seat").all()
    }


def test_holdem_passed_round_one_phone_by_two_players_beside_a_computer(new_page, live_site, artifacts):
    live_site.set_next_table_code("PASSHE")
    host = Player("phone", new_page("hostuser", viewport=PHONE))
    open_table(host.page, "holdem")
    # The host only runs the phone here: Bina and Kiran play on it, a computer in the third seat.
    for name in NAMES:
        add_local_player(host.page, name)
    add_computer(host.page)
    host.listen()
    host.page.reload()
    expect(host.page.locator("#connection")).to_have_attribute("data-state", "open")
    expect(host.page.locator("#phone-pass")).to_be_visible()
    names = names_on(host.page, 3)
    live_site.set_next_hand_delay(1)
    host.page.locator('#host-controls [data-command="start"]').click()

    def choose(page: Page) -> str:
        # The holder sees exactly two face-up cards: their own.
        expect(page.locator("#my-cards svg.card-face")).to_have_count(2)
        verbs = page.locator("#action-bar button[data-verb]").evaluate_all("nodes => nodes.map(n => n.dataset.verb)")
        return next(verb for verb in ("check", "call", "fold") if verb in verbs)

    checked = play_the_phone(host, "holdem", names, hands=2, artifacts=artifacts, choose=choose)
    result = check_frames(host, "holdem")
    passes = [shown for shown in checked if shown["phone"]["pass_to"] is not None]
    assert {names[str(shown["phone"]["pass_to"])] for shown in passes} == set(NAMES)
    assert any(shown["mine"] for shown in checked) and result["view_cards"] > 0


@pytest.mark.parametrize(("game", "code"), [("faras", "PASSFA"), ("classic", "PASSCL"), ("999", "PASS99")])
def test_teen_patti_on_one_phone_the_host_and_a_friend_look_only_on_their_turn(
    new_page, live_site, artifacts, game, code
):
    live_site.set_next_table_code(code)
    host = Player("phone", new_page("hostuser", viewport=PHONE))
    open_table(host.page, game, buy_in_price="0.00")
    host.page.locator('#between-hands [data-command="take"]').click()
    host.read_seat()
    expect(host.page.locator(f'.seat[data-seat="{host.seat}"]')).to_be_visible()
    add_local_player(host.page, "Bina")
    add_computer(host.page)
    host.listen()
    host.page.reload()
    expect(host.page.locator("#connection")).to_have_attribute("data-state", "open")
    names = names_on(host.page, 3)
    live_site.set_next_hand_delay(1)
    host.page.locator('#host-controls [data-command="start"]').click()
    looked: dict[str, int] = {}
    turns: dict[tuple[int, str], int] = {}

    def choose(page: Page) -> str:
        holder = str(page.evaluate("() => window.DashainTable.state.phone.holding"))
        if page.locator("#sideshow-request").is_visible():
            return "refuse"  # a computer asked this player for a sideshow
        verbs = page.locator("#action-bar button[data-verb]").evaluate_all("nodes => nodes.map(n => n.dataset.verb)")
        if page.locator("#see-button").is_visible():
            # Blind: the holder's own cards are face down until they look, on their turn.
            expect(page.locator("#my-cards svg.card-back")).to_have_count(3)
            looked[holder] = looked.get(holder, 0) + 1
            return "see"
        expect(page.locator("#my-cards svg.card-face")).to_have_count(3)
        hand = page.evaluate("() => window.DashainTable.state.hand.number")
        turns[(hand, holder)] = turns.get((hand, holder), 0) + 1
        if turns[(hand, holder)] > 3 and "show" not in verbs:
            return "pack"  # a hand of chaals only would go on for long: the test ends it
        return next(verb for verb in ("show", "chaal", "pack") if verb in verbs)

    checked = play_the_phone(host, game, names, hands=1, artifacts=artifacts, choose=choose)
    check_frames(host, game)
    assert set(looked) == {host.seat, next(seat for seat, name in names.items() if name == "Bina")}
    assert any(re.fullmatch(r"Pass to (Asha|Bina)", shown["pass_text"]) for shown in checked)


def test_the_phone_offers_buy_in_again_below_one_buy_in_and_asks_first(new_page, live_site, artifacts):
    """Between hands the host's panel offers "buy in again" only to a player of the phone below
    one buy-in (as "Your seat" does, docs/ui.md), and asks in the page first, naming the
    player, the chips and the price: no browser dialog, a no sends nothing, a yes buys."""
    made = live_site.scenario("phone-between-hands")
    host = Player("phone", new_page("hostuser", viewport=PHONE))
    host.listen()
    dialogs = browser_dialogs(host.page)
    host.page.goto(f"/tables/{made['code']}/")
    expect(host.page.locator("#connection")).to_have_attribute("data-state", "open")
    rows = {name: host.page.locator("#phone-players li", has_text=name) for name in (made["short"], made["full"])}
    expect(rows[made["short"]].locator('[data-command="sit_out"]')).to_be_visible()
    # The player who won has a full stack: no buy-back offered (a click would only cost money).
    expect(rows[made["full"]].locator('[data-command="buy_back"]')).to_have_count(0)
    expect(rows[made["full"]].locator('[data-command="sit_out"]')).to_be_visible()
    short_seat = rows[made["short"]].get_attribute("data-seat")
    stack = host.page.locator(f'.seat[data-seat="{short_seat}"] .seat-stack')
    expect(stack).to_have_attribute("title", "990 chips")

    button = rows[made["short"]].locator('[data-command="buy_back"]')
    expect(button).to_have_text(f"{made['short']}: buy in again")
    question = f"{made['short']} buys in again: 1,000 chips for 10.00?"
    yes = ask_and_say_no(host, button, question, "Yes, buy in again")
    expect(stack).to_have_attribute("title", "990 chips")  # the noes changed nothing
    screenshot(artifacts, 1, "phone-buy-again-question", [host])
    sent = len(commands_sent(host))
    yes.press("Enter")
    expect(stack).to_have_attribute("title", "1,990 chips")
    expect(host.page.locator("#hand-log li", has_text=f"{made['short']} buys in again")).to_have_count(1)
    assert [(frame["type"], frame["verb"], frame["seat"]) for frame in commands_sent(host)[sent:]] == [
        ("seat", "buy_back", int(short_seat))
    ]
    # Now a full stack: no longer offered.
    expect(rows[made["short"]].locator('[data-command="buy_back"]')).to_have_count(0)
    assert dialogs == []
