"""A Faras hand in Nepali and a Classic hand in German, in real browsers.

Pinned: the browser's language is chosen on the first visit (Accept-Language), the
switcher changes it and the cookie keeps it; the action buttons, the hand's log, the
result and the settlement page read in that language, with no English left on those
pages (checked against every English message of the catalogue, and for Nepali against
any Latin word at all); Nepali numbers use the digits 0-9 (docs/glossary-ne.md); the
pages fit a phone's width with Devanagari and with German's longer words.
Screenshots go to test-artifacts/<test name>/.
"""

from __future__ import annotations

import re
from functools import cache
from pathlib import Path

import polib
import pytest
from playwright.sync_api import Page, expect

from tests.browser.driver import Player, act, end_the_game, join_table, open_table, save_screenshot, settle, to_act

ROOT = Path(__file__).resolve().parents[2]
PHONE = {"width": 390, "height": 844}
PLACEHOLDER = re.compile(r"%(?:\(\w+\))?[sd]|<[^>]+>|\{\w*\}")
PLAYER_NAMES = {"Asha", "Bikash", "Chandra", "Deepa"}  # the test users' display names


@cache
def english_tells(language: str) -> tuple[re.Pattern[str], ...]:
    """Pieces of English messages that the translation does not also use: seeing one on a
    page means a message was shown untranslated."""
    tells = set()
    for entry in polib.pofile(str(ROOT / "locale" / language / "LC_MESSAGES" / "django.po")):
        translated = entry.msgstr or " ".join(entry.msgstr_plural.values())
        for english in filter(None, (entry.msgid, entry.msgid_plural)):
            for piece in PLACEHOLDER.split(english):
                piece = piece.strip(" .,:;·()!?'\"“”…-")
                if re.search(r"[A-Za-z]{3,}", piece) and piece not in translated:
                    tells.add(piece)
    return tuple(re.compile(rf"(?<![A-Za-z]){re.escape(tell)}(?![A-Za-z])") for tell in sorted(tells))


def page_text(page: Page) -> str:
    """What a person reads: the rendered text and the labels, less the language switcher
    (which names each language in its own words, English included)."""
    return page.evaluate(
        """() => {
            const switchers = [...document.querySelectorAll('.language-switcher')];
            switchers.forEach(node => { node.dataset.display = node.style.display; node.style.display = 'none'; });
            const labels = [...document.querySelectorAll('[aria-label],[title],[placeholder],[alt]')]
                .filter(node => !node.closest('.language-switcher') && node.getClientRects().length)
                .map(node => ['aria-label', 'title', 'placeholder', 'alt']
                    .map(name => node.getAttribute(name) || '').join(' '));
            const text = document.title + '\\n' + document.body.innerText + '\\n' + labels.join('\\n');
            switchers.forEach(node => { node.style.display = node.dataset.display; });
            return text;
        }"""
    )


def english_left(page: Page, language: str, allowed: set[str]) -> list[str]:
    text = page_text(page)
    for word in allowed:
        text = text.replace(word, " ")
    found = [tell.pattern for tell in english_tells(language) if tell.search(text)]
    if language in ("ne", "hi"):
        found += sorted(set(re.findall(r"[A-Za-z]{3,}", text)))
    return found


def fits_the_screen(page: Page) -> bool:
    return page.evaluate("() => document.documentElement.scrollWidth <= window.innerWidth")


def end_the_game_and_open_the_settlement(host: Player, players: list[Player]) -> None:
    end_the_game(host.page)
    for player in players:
        expect(player.page.locator("#game-over")).to_be_visible()
    host.page.locator("#game-over a[href*='/ledger/']").first.click()
    host.page.wait_for_url(re.compile(r"/ledger/"))


@pytest.fixture(autouse=True)
def back_to_english(live_site):
    """These tests choose a language on the test users' accounts, which keep it: after each,
    every test user goes back to the browser's language, so no later test (in this worker's
    server) reads German or Nepali where it expects English."""
    yield
    live_site.scenario("english")


def test_a_faras_hand_in_nepali(new_page, live_site, artifacts):
    # The host's browser asks for Nepali: the first page is Nepali with no choice made.
    host = Player("asha-host", new_page("hostuser"))
    host.page.context.set_extra_http_headers({"Accept-Language": "ne-NP,ne;q=0.9,en;q=0.5"})
    host.page.goto("/")
    expect(host.page.locator("html")).to_have_attribute("lang", "ne")
    live_site.set_next_table_code("NEPAL1")
    open_table(host.page, "faras")
    host.read_seat()
    host.page.locator('#between-hands [data-command="take"]').click()
    link = host.page.locator("#join-link").input_value()

    # A friend on a phone with an English browser picks नेपाली in the switcher.
    friend = Player("bikash-phone", new_page("bikash", viewport=PHONE))
    friend.page.goto("/")
    expect(friend.page.locator("html")).to_have_attribute("lang", "en")
    friend.page.locator("#language-switcher-select").select_option("ne")
    friend.page.locator(".language-switcher button[type=submit]").click()
    expect(friend.page.locator("html")).to_have_attribute("lang", "ne")
    join_table(friend.page, link)
    friend.read_seat()
    players = [host, friend]
    by_seat = {player.seat: player for player in players}
    expect(host.page.locator(".seat")).to_have_count(2)
    host.page.locator('#host-controls [data-command="start"]').click()
    host.page.wait_for_selector('.seat[data-to-act="true"]')
    settle(players)

    first = by_seat[to_act(host)]
    second = friend if first is host else host
    expect(first.page.locator("#see-button")).to_contain_text("मेरा कार्ड हेर्नुहोस्")
    act(first, "see")
    buttons = first.page.locator("#action-bar button[data-verb]")
    expect(first.page.locator('#action-bar button[data-verb="chaal"]')).to_contain_text("चाल")
    expect(first.page.locator('#action-bar button[data-verb="pack"]')).to_contain_text("प्याक")
    expect(first.page.locator('#action-bar button[data-verb="raise"]')).to_contain_text("रेज")
    assert all(re.search("[\u0900-\u097f]", text) for text in buttons.all_inner_texts())
    act(first, "chaal")
    settle(players)
    act(second, "see")
    expect(second.page.locator('#action-bar button[data-verb="show"]')).to_contain_text("शो")
    save_screenshot(second.page, str(artifacts / "01-before-show.png"), full_page=True)
    act(second, "show")
    settle(players)

    for player in players:
        expect(player.page.locator("#result")).to_be_visible()
        log = player.page.locator("#hand-log").inner_text()
        assert "को चाल चाले।" in log and "सँग शो मागे" in log and "जिते" in log, log
        result = player.page.locator("#result-lines").inner_text()
        assert "जिते" in result and "शोले फैसला भयो।" in result, result
        page = player.page
        save_screenshot(page, str(artifacts / f"02-result-{player.label}.png"), full_page=True)
        assert english_left(page, "ne", PLAYER_NAMES | {"NEPAL1"}) == [], player.label
        # the digits 0-9, as the glossary says, never the Devanagari ones
        assert not re.search("[\u0966-\u096f]", page_text(page))
    assert fits_the_screen(friend.page)

    end_the_game_and_open_the_settlement(host, players)
    expect(host.page.locator("h1")).to_contain_text("हिसाब")
    save_screenshot(host.page, str(artifacts / "03-settlement.png"), full_page=True)
    # CSV is the file format's name in every language
    assert english_left(host.page, "ne", PLAYER_NAMES | {"NEPAL1", "CSV"}) == []
    assert not re.search("[\u0966-\u096f]", page_text(host.page))


def test_a_classic_hand_in_german(new_page, live_site, artifacts):
    live_site.set_next_table_code("KLASSE")
    host = Player("asha-host", new_page("hostuser"))
    host.page.context.add_cookies([{"name": "django_language", "value": "de", "url": live_site.url}])
    open_table(host.page, "classic")
    expect(host.page.locator("html")).to_have_attribute("lang", "de")
    host.read_seat()
    host.page.locator('#between-hands [data-command="take"]').click()
    link = host.page.locator("#join-link").input_value()
    # Bikash picks Deutsch in the switcher (his account keeps it, over the Nepali he
    # chose before); Deepa, on a phone, has a German browser.
    bikash = Player("bikash", new_page("bikash"))
    bikash.page.goto("/")
    bikash.page.locator("#language-switcher-select").select_option("de")
    bikash.page.locator(".language-switcher button[type=submit]").click()
    expect(bikash.page.locator("html")).to_have_attribute("lang", "de")
    deepa = Player("deepa-phone", new_page("deepa", viewport=PHONE))
    deepa.page.context.set_extra_http_headers({"Accept-Language": "de-DE,de;q=0.9,en;q=0.5"})
    players = [host, bikash, deepa]
    for friend in (bikash, deepa):
        join_table(friend.page, link)
        expect(friend.page.locator("html")).to_have_attribute("lang", "de")
        friend.read_seat()
    by_seat = {player.seat: player for player in players}
    expect(host.page.locator(".seat")).to_have_count(3)
    host.page.locator('#host-controls [data-command="start"]').click()
    host.page.wait_for_selector('.seat[data-to-act="true"]')
    settle(players)

    first = by_seat[to_act(host)]
    expect(first.page.locator("#see-button")).to_contain_text("Meine Karten ansehen")
    act(first, "see")
    expect(first.page.locator('#action-bar button[data-verb="chaal"]')).to_contain_text("Chaal")
    expect(first.page.locator('#action-bar button[data-verb="pack"]')).to_contain_text("Aussteigen")
    expect(first.page.locator('#action-bar button[data-verb="raise"]')).to_contain_text("Erhöhen")
    act(first, "chaal")
    settle(players)
    second = by_seat[to_act(host)]
    act(second, "pack")
    settle(players)
    third = by_seat[to_act(host)]
    act(third, "see")
    expect(third.page.locator('#action-bar button[data-verb="show"]')).to_contain_text("Show")
    act(third, "show")
    settle(players)

    for player in players:
        expect(player.page.locator("#result")).to_be_visible()
        log = player.page.locator("#hand-log").inner_text()
        assert "spielt Chaal" in log and "steigt aus." in log and "verlangt" in log, log
        result = player.page.locator("#result-lines").inner_text()
        assert "gewinnt" in result and "Entschieden durch eine Show." in result, result
        save_screenshot(player.page, str(artifacts / f"01-result-{player.label}.png"), full_page=True)
        assert english_left(player.page, "de", PLAYER_NAMES | {"KLASSE"}) == [], player.label
    assert fits_the_screen(deepa.page)

    end_the_game_and_open_the_settlement(host, players)
    expect(host.page.locator("h1")).to_contain_text("Abrechnung")
    save_screenshot(host.page, str(artifacts / "02-settlement.png"), full_page=True)
    assert english_left(host.page, "de", PLAYER_NAMES | {"KLASSE"}) == []
