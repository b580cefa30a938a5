"""Helpers that drive the table page the way a player does, and read what it shows.

Waiting is done with Playwright's own waits for something to appear on the page
(bounded by the context's default timeout), never by sleeping for a fixed time.
"""

from __future__ import annotations

import json
import os
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from playwright.sync_api import Locator, Page, WebSocketRoute, expect
from playwright.sync_api import TimeoutError as PlaywrightTimeoutError


@dataclass
class Player:
    """One browser context at the table: its page, its seat id, and every frame its socket
    received and sent (from ``listen()`` on)."""

    label: str
    page: Page
    seat: str = ""
    frames: list[dict[str, Any]] = field(default_factory=list)
    sent: list[dict[str, Any]] = field(default_factory=list)

    def listen(self) -> None:
        def on_socket(socket):
            socket.on("framereceived", lambda payload: self.frames.append(json.loads(payload)))
            socket.on("framesent", lambda payload: self.sent.append(json.loads(payload)))

        self.page.on("websocket", on_socket)

    def read_seat(self) -> None:
        config = json.loads(self.page.locator("#table-config").text_content())
        self.seat = config["seat"]


class Offline:
    """One page's network cut, WebSockets included: the browser's offline mode does not reach
    WebSockets (Playwright's ``set_offline`` leaves them be, so a socket the page closed could
    be opened again within half a second, before a busy machine's check saw the page say it
    was lost). While cut, a new table socket of the page is refused."""

    def __init__(self, page: Page) -> None:
        self.page = page
        self.cut = False

    def _route(self, route: WebSocketRoute) -> None:
        if self.cut:
            route.close(code=1001, reason="offline")
        else:
            route.connect_to_server()

    def lose(self) -> None:
        """Offline, and the page's table socket closed."""
        self.cut = True
        self.page.route_web_socket(re.compile(r".*/ws/table/.*"), self._route)
        self.page.context.set_offline(True)
        self.page.evaluate("() => window.DashainTable.state.socket.close()")

    def back(self) -> None:
        self.cut = False
        self.page.context.set_offline(False)


def open_table(page: Page, game: str, **settings: Any) -> str:
    """Open a table of ``game`` from the open-a-table form (defaults, plus ``settings``); returns its code."""
    page.goto(f"/tables/open/?game={game}")
    for name, value in settings.items():
        page.locator(f'[name="{name}"]').fill(str(value))
    page.locator("form.settings-form button[type=submit]").click()
    page.wait_for_url(re.compile(r"/tables/[A-Z0-9]+/$"))
    return page.url.rstrip("/").rsplit("/", 1)[1]


def join_table(page: Page, link: str, *, guest_name: str | None = None, watch: bool = False) -> None:
    page.goto(link)
    if guest_name is not None:
        page.locator('[name="display_name"]').fill(guest_name)
    page.locator(f'input[name="role"][value="{"watch" if watch else "seat"}"]').check()
    page.locator("form.settings-form button[type=submit]").click()
    page.wait_for_url(re.compile(r"/tables/[A-Z0-9]+/$"))
    expect(page.locator("#connection")).to_have_attribute("data-state", "open")


def page_seq(page: Page) -> int:
    return int(page.locator("#table-root").get_attribute("data-seq") or 0)


PAGE_STATE = """() => {
    const root = document.querySelector('#table-root');
    const state = window.DashainTable && window.DashainTable.state;
    const text = (selector) => (document.querySelector(selector) || {}).textContent || null;
    return {
        seq: root ? root.dataset.seq : null,
        phase: root ? root.dataset.phase : null,
        snapshotWanted: state ? state.snapshotWanted : null,
        connection: (document.querySelector('#connection') || {dataset: {}}).dataset.state || null,
        notice: text('#notice'),
    };
}"""


def page_states(players: list[Player]) -> dict[str, Any]:
    """What each page shows of its news (for a failure's message): seq, connection, notice."""
    found: dict[str, Any] = {}
    for player in players:
        try:
            found[player.label] = player.page.evaluate(PAGE_STATE)
        except Exception as error:  # a closed page says so rather than hiding the first failure
            found[player.label] = repr(error)
    return found


def wait_all_at_seq(players: list[Player], seq: int) -> None:
    """Every page has applied the log up to ``seq`` at least (and asked for its fresh view).
    On a timeout the failure names what each page was showing."""
    for player in players:
        try:
            player.page.wait_for_function(
                "seq => Number(document.querySelector('#table-root').dataset.seq) >= seq"
                " && !window.DashainTable.state.snapshotWanted",
                arg=seq,
            )
        except PlaywrightTimeoutError as error:
            raise AssertionError(f"{player.label} not at seq {seq}: {page_states(players)}") from error


def settle(players: list[Player]) -> int:
    """Wait until every page shows the same, newest seq; returns it."""
    newest = max(page_seq(player.page) for player in players)
    wait_all_at_seq(players, newest)
    return newest


def to_act(player: Player) -> str | None:
    """The seat id the page marks as to act, if any."""
    # One read in the page: counting the seats and then reading one would race a page that
    # applies the news in between (the seat gone, the read then waits for it until it times out).
    return player.page.evaluate(
        """() => {
            const seat = document.querySelector('.seat[data-to-act="true"]');
            return seat ? seat.dataset.seat : null;
        }"""
    )


def action_verbs(player: Player) -> list[str]:
    return player.page.locator("#action-bar button[data-verb]").evaluate_all("nodes => nodes.map(n => n.dataset.verb)")


def act(player: Player, verb: str, amount: int | None = None) -> None:
    """Click the action's button (a raise: set the amount first) and wait for the page to move on."""
    before = page_seq(player.page)
    if amount is not None:
        player.page.locator("#raise-amount").fill(str(amount))
    if verb == "see":
        player.page.locator("#see-button").click()
    elif verb in ("accept", "refuse"):
        player.page.locator(f"#sideshow-{verb}").click()
    else:
        player.page.locator(f'#action-bar button[data-verb="{verb}"]').click()
    # moved on, and holds the fresh view that the news asked for
    player.page.wait_for_function(
        "seq => Number(document.querySelector('#table-root').dataset.seq) > seq"
        " && !window.DashainTable.state.snapshotWanted",
        arg=before,
    )


def act_by_key(player: Player, key: str) -> None:
    """Press a keyboard shortcut on the page (focus on the page body) and wait for it to move on."""
    before = page_seq(player.page)
    player.page.locator("body").press(key)
    player.page.wait_for_function(
        "seq => Number(document.querySelector('#table-root').dataset.seq) > seq"
        " && !window.DashainTable.state.snapshotWanted",
        arg=before,
    )


#: The frames a page sends to do something (docs/live-play.md); pings and catch-up requests are not.
COMMANDS = ("action", "see", "hold", "seat", "host", "seed")


def commands_sent(player: Player) -> list[dict[str, Any]]:
    """The commands the page sent (from ``player.listen()`` on), in order."""
    return [frame for frame in player.sent if frame.get("type") in COMMANDS]


def browser_dialogs(page: Page) -> list[str]:
    """Every browser dialog (alert, confirm, prompt) the page opens from now on, dismissed. The
    table page asks its own questions (static/js/table/controls.js): the list must stay empty."""
    opened: list[str] = []
    page.on("dialog", lambda dialog: (opened.append(f"{dialog.type}: {dialog.message}"), dialog.dismiss()))
    return opened


def ask_and_say_no(player: Player, button: Locator, question: str, yes: str) -> Locator:
    """The page's own question before a step (static/js/table/controls.js), said no to twice:

    - a click on ``button`` opens a group named ``question``, with ``yes`` focused and "Cancel";
    - Escape says no: the question goes and the keyboard is back on ``button``;
    - Enter opens it again from there, and "Cancel" says no;

    and neither no sends anything that does something (``player`` listens; that nothing
    changed on the table is the caller's to check). Opens it a third time and returns the
    ``yes`` button, focused, for the caller to press.
    """
    page = player.page
    sent_before = len(commands_sent(player))
    button.click()
    group = page.get_by_role("group", name=question)
    expect(group).to_be_visible()
    expect(group.get_by_role("button", name=yes)).to_be_focused()
    expect(group.get_by_role("button", name="Cancel")).to_be_visible()
    page.keyboard.press("Escape")
    expect(group).to_have_count(0)
    expect(button).to_be_focused()
    page.keyboard.press("Enter")
    expect(group.get_by_role("button", name=yes)).to_be_focused()
    group.get_by_role("button", name="Cancel").click()
    expect(group).to_have_count(0)
    expect(button).to_be_focused()
    assert commands_sent(player)[sent_before:] == []
    button.click()
    answer = group.get_by_role("button", name=yes)
    expect(answer).to_be_focused()
    return answer


def end_the_game(page: Page) -> None:
    """The host ends the game: "End the game", then "Yes, end the game" in the page's own
    question. During a hand the game ends when that hand ends: the hand is played out (the
    browser tests' server lets each turn last a second, then the clock plays the away action),
    so this waits for the game's end."""
    page.locator('#host-controls [data-command="end"]').click()
    page.locator('#host-controls [data-command="end_yes"]').click()
    expect(page.locator("#game-over")).to_be_visible(timeout=90_000)


def fits_the_screen(page: Page) -> bool:
    """Nothing wider than the window: no sideways scrolling on a phone."""
    return page.evaluate("() => document.documentElement.scrollWidth <= window.innerWidth")


def face_up_cards(page: Page, seat: str) -> list[str]:
    return page.locator(f'.seat[data-seat="{seat}"] svg.card-face').evaluate_all(
        "nodes => nodes.map(n => n.dataset.card)"
    )


def my_cards(page: Page) -> list[str]:
    return page.locator("#my-cards svg.card-face").evaluate_all("nodes => nodes.map(n => n.dataset.card)")


def stacks_shown(page: Page) -> dict[str, str]:
    return {
        # the title: "1,000 chips" whole at every size (round the laptop's oval it reads "1,000")
        seat.get_attribute("data-seat"): seat.locator(".seat-stack").get_attribute("title") or ""
        for seat in page.locator(".seat").all()
    }


def view_signature(page: Page) -> dict[str, Any]:
    """What a person sees of the hand, to compare a page before and after a reload."""
    return {
        "seats": [seat.get_attribute("aria-label") for seat in page.locator(".seat").all()],
        "pot": page.locator("#pot").inner_text(),
        "stake": page.locator("#stake").inner_text(),
        "my_cards": my_cards(page),
        "face_down": page.locator("#my-cards svg.card-back").count(),
        "actions": page.locator("#action-bar button[data-verb]").evaluate_all(
            "nodes => nodes.map(n => n.dataset.verb)"
        ),
        "log": page.locator("#hand-log li").all_inner_texts(),
        "see_button": page.locator("#see-button").is_visible(),
    }


def card_owners(value: Any, owner: str | None = None) -> list[tuple[str | None, tuple[str, ...]]]:
    """Every list of cards inside a frame, with whose cards they are (``name``/``player`` next to them,
    or the key of a ``{name: cards}`` mapping; a view's ``your_cards`` is ``"<yours>"``)."""
    found: list[tuple[str | None, tuple[str, ...]]] = []
    if isinstance(value, dict) and value.get("kind") == "board":
        return found  # the community cards are everyone's
    if isinstance(value, dict):
        here = value.get("name", value.get("player", owner))
        for key, item in value.items():
            if (
                key in ("cards", "your_cards")
                and isinstance(item, list)
                and item
                and all(isinstance(card, str) for card in item)
            ):
                found.append(("<yours>" if key == "your_cards" else None if here is None else str(here), tuple(item)))
            elif key == "cards" and isinstance(item, dict):
                for name, cards in item.items():
                    if isinstance(cards, list) and cards:
                        found.append((str(name), tuple(cards)))
            elif key == "board":
                continue
            else:
                found.extend(card_owners(item, owner))
    elif isinstance(value, list):
        for item in value:
            found.extend(card_owners(item, owner))
    return found


def screenshots_wanted() -> bool:
    """The tests write screenshots for a person to look at (docs/ui.md) unless
    ``DASHAIN_SCREENSHOTS=off``: .ci/run sets it, since nobody reads a clean clone's
    artifacts and each full-page capture costs Chromium a tenth to a quarter of a CPU-second."""
    return os.environ.get("DASHAIN_SCREENSHOTS", "on") != "off"


def save_screenshot(target: Page | Locator, path: str, *, full_page: bool = False) -> None:
    """A page's screenshot (the window, or with ``full_page`` all of it), or one element's."""
    if not screenshots_wanted():
        return
    if isinstance(target, Locator):
        target.screenshot(path=path)
    else:
        target.screenshot(path=path, full_page=full_page)


def screenshot(folder: Path, step: int, name: str, players: list[Player]) -> None:
    for player in players:
        save_screenshot(player.page, str(folder / f"{step:02d}-{name}-{player.label}.png"), full_page=True)
