"""The replayer in a real browser (static/js/replayer.js): it steps forward and back, draws the
table, and the page never shows a player a card they could not see at the time."""

from __future__ import annotations

import random
import re

import pytest
from django.test import Client
from django.urls import reverse

from tables.events import event_frame
from tables.models import Event, Hand
from tables.selectors import frame_for_viewer
from tables.services import hand_act
from tests.tables.conftest import current_turn, open_table

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

CARD = re.compile(r"^(?:10|[2-9TJQKA])[shdc]$")


def card_tokens(text: str) -> set[str]:
    return {token for token in re.split(r"[\s,.;:()]+", text) if CARD.match(token)}


def allowed_cards(hand: Hand, viewer: str) -> set[str]:
    allowed: set[str] = set()
    for event in Event.objects.filter(hand=hand).order_by("seq"):
        frame = frame_for_viewer(event_frame(event), viewer)
        if "data" in frame:
            allowed |= card_tokens(repr(frame["data"]).replace("'", " "))
    return allowed


def play_first_hand(table, seats, seed: int) -> Hand:
    rng = random.Random(seed)
    by_name = {seat.engine_name: seat for seat in seats}
    for _step in range(300):
        hand = Hand.objects.get(table=table, number=1)
        if hand.ended_at is not None:
            return hand
        player, legal = current_turn(table)
        choice = rng.choice(legal)
        hand_act(table_id=table.pk, seat_id=by_name[player].pk, verb=choice.verb, amount=choice.min)
    raise AssertionError("the first hand did not finish")


def test_the_replayer_steps_forward_and_back_and_shows_only_what_the_player_saw(live_server, chromium_path):
    from playwright.sync_api import sync_playwright

    table, seats = open_table("faras", players=3)
    looker = Hand.objects.get(table=table, number=1).plan["players"][0][0]
    hand_act(table_id=table.pk, seat_id=int(looker), verb="see")  # someone else's secret for the others
    hand = play_first_hand(table, seats, seed=9)
    url = live_server.url + reverse("hand_history", kwargs={"code": table.code, "number": hand.number})

    # Everything from the database first: Playwright's sync API runs an event loop, and the ORM
    # refuses to be called from a thread with one running.
    viewers = []
    for seat in seats:
        client = Client()
        client.force_login(seat.user)
        viewers.append((seat, client.cookies["sessionid"].value, allowed_cards(hand, seat.engine_name)))

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=chromium_path, args=["--no-sandbox", "--disable-gpu"])
        try:
            for seat, session_key, allowed in viewers:
                context = browser.new_context()
                context.add_cookies([{"name": "sessionid", "value": session_key, "url": live_server.url}])
                page = context.new_page()
                page.goto(url)
                replayer = page.locator("#replayer")
                assert replayer.get_attribute("data-step") == "0"
                total = int(re.search(r"of (\d+)", page.locator(".replayer__position").inner_text()).group(1))
                assert total >= 2
                words_seen = []
                for step in range(total):
                    if step:
                        page.click("[data-step=forward]")
                    assert replayer.get_attribute("data-step") == str(step)
                    text = replayer.inner_text() + " " + " ".join(page.locator("svg text").all_text_contents())
                    shown = card_tokens(text)
                    assert shown <= allowed, f"{seat.display_name} at step {step} sees {sorted(shown - allowed)}"
                    words_seen.append(page.locator(".replayer__words li").count())
                    seat_rows = page.locator(".replayer__seat-row").count()
                    assert seat_rows == 3
                assert words_seen == sorted(words_seen) and words_seen[-1] > words_seen[0]
                page.click("[data-step=back]")
                assert replayer.get_attribute("data-step") == str(total - 2)
                assert page.locator(".replayer__words li").count() == words_seen[-2]
                page.click("[data-step=first]")
                assert replayer.get_attribute("data-step") == "0"
                page.keyboard.press("End")
                assert replayer.get_attribute("data-step") == str(total - 1)
                if seat.engine_name == looker:
                    # the one who looked sees their own three cards drawn face up
                    row = page.locator(f".replayer__seat-row[data-player='{looker}'] .playing-card:not(.card-back)")
                    assert row.count() == 3
                context.close()
        finally:
            browser.close()
