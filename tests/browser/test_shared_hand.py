"""A shared hand in Chromium (issue 40): a player makes the link on the hand's replayer page,
a fresh browser with no account opens it and steps through the hand as a watcher saw it,
with nothing to download (the page fits a laptop and a phone, axe clean); revoked, the same
link shows the 404 page."""

from __future__ import annotations

import json
import re

import pytest

from tests.browser.test_pages_layout import page_problems

pytestmark = pytest.mark.browser


def test_a_players_link_opens_in_a_fresh_browser_and_revoking_it_makes_it_404(live_site, new_page):
    live_site.scenario("english")
    code = live_site.scenario("played")["code"]
    bikash = new_page("bikash")
    bikash.goto(f"/tables/{code}/history/1/")
    bikash.get_by_role("button", name="Make a link").click()
    link = bikash.locator(".share__link").input_value()
    assert "/h/" in link

    stranger = new_page()  # a fresh context: no account, no session, no seat
    response = stranger.goto(link)
    assert response is not None and response.status == 200
    data = json.loads(stranger.locator("#replay-data").text_content() or "{}")
    assert data["viewer"] is None  # the watcher's view, not Bikash's own
    assert stranger.locator("a[download]").count() == 0
    assert code not in stranger.content()
    position = stranger.locator(".replayer__position")
    total = int(re.findall(r"\d+", position.inner_text())[-1])
    assert total == len(data["steps"]) > 1
    stranger.get_by_role("button", name="End").click()
    assert re.findall(r"\d+", position.inner_text())[0] == str(total)
    assert stranger.locator(".replayer__words li").count() > 0
    assert stranger.locator(".replayer__table").count() == 1
    assert not page_problems(stranger)  # fits the window; axe finds nothing serious
    phone = new_page(viewport={"width": 390, "height": 844})
    phone.goto(link)
    assert not page_problems(phone)

    bikash.get_by_role("button", name="Revoke the link").click()
    bikash.get_by_role("button", name="Make a link").wait_for()
    gone = stranger.goto(link)
    assert gone is not None and gone.status == 404
    assert "No such shared hand" in stranger.locator("h1").inner_text()
