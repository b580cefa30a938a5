"""Every page (but the live table's) on a phone and a laptop: it fits, it reads, axe agrees.

Rules pinned (issue 16, items 4, 5 and 7):

- no page is wider than the window at 390 x 844 (a phone held upright) or 1280 x 800
  (a laptop): nothing scrolls sideways, and the site's header spans the whole width;
- the error pages are the site's own with DEBUG off (the test server runs as scripts/serve
  does);
- axe-core (pinned through axe-playwright-python, which ships it: nothing is fetched)
  finds no serious or critical violation on any page;
- the Home games page is in the navigation; numbers are written one way (2,000).

One server for the module (the session's), one browser context per person and size,
every page loaded once per size. A screenshot of each page at each size goes to
test-artifacts/pages/ (git-ignored; listed in docs/ui.md).
"""

from __future__ import annotations

import re

import pytest
from axe_playwright_python.sync_playwright import Axe
from playwright.sync_api import Page

from tests.browser.conftest import PAGE_TIMEOUT_MS, ROOT
from tests.browser.driver import open_table, save_screenshot

SIZES = {"phone": {"width": 390, "height": 844}, "laptop": {"width": 1280, "height": 800}}
#: axe's impact levels that fail the test (the issue: "zero serious or critical violations").
FAILING_IMPACTS = ("serious", "critical")
ARTIFACTS = ROOT / "test-artifacts" / "pages"


@pytest.fixture(scope="module")
def played(live_site):
    """A finished Faras table (4 hands, hostuser hosting Asha, Bikash, Chandra) in a home game."""
    return live_site.scenario("played")


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


@pytest.fixture(scope="module", params=sorted(SIZES))
def browse(request, chromium, live_site):
    """``browse(username)`` -> a page at this size, signed in as ``username`` (None: a visitor)."""
    size = request.param
    contexts: dict[str | None, Page] = {}

    def page_for(username: str | None) -> Page:
        if username not in contexts:
            context = chromium.new_context(base_url=live_site.url, viewport=SIZES[size])
            context.set_default_timeout(PAGE_TIMEOUT_MS)
            if username:
                live_site.sign_in(context, username)
            contexts[username] = context.new_page()
        return contexts[username]

    page_for.size = size  # type: ignore[attr-defined]
    yield page_for
    for page in contexts.values():
        page.context.close()


def page_problems(page: Page) -> list[str]:
    """What is wrong with the page as shown: sideways scroll, a short header, axe's serious findings."""
    problems = []
    width = page.evaluate("() => ({scroll: document.documentElement.scrollWidth, window: window.innerWidth})")
    if width["scroll"] > width["window"]:
        wide = page.evaluate(
            """() => [...document.querySelectorAll('body *')]
                 .filter(n => n.getBoundingClientRect().right > window.innerWidth + 0.5)
                 .slice(0, 5).map(n => n.tagName + '.' + n.className)"""
        )
        problems.append(f"{width['scroll']} px wide in a {width['window']} px window: {wide}")
    header = page.locator(".site-header").bounding_box()
    if header is None or header["width"] < width["window"]:
        problems.append(f"the header does not span the page: {header}")
    results = Axe().run(page)
    for violation in results.response["violations"]:
        if violation["impact"] in FAILING_IMPACTS:
            targets = [", ".join(node["target"]) for node in violation["nodes"][:4]]
            problems.append(f"axe {violation['impact']} {violation['id']}: {violation['help']} at {targets}")
    return problems


def check(browse, screenshots, name: str, path: str, username: str | None = None, status: int = 200) -> Page:
    page = browse(username)
    response = page.goto(path)
    assert response is not None and response.status == status, (path, response and response.status)
    save_screenshot(page, str(screenshots / f"{name}-{browse.size}.png"), full_page=True)
    assert page_problems(page) == [], (name, browse.size)
    return page


VISITOR_PAGES = [
    ("home", "/"),
    ("login", "/accounts/login/"),
    ("signup", "/accounts/signup/"),
    ("password-reset", "/accounts/password_reset/"),
    ("lobby-visitor", "/tables/"),
]
HOST_PAGES = [
    ("lobby", "/tables/"),
    ("profile", "/accounts/profile/"),
    ("password-change", "/accounts/password_change/"),
    ("open-faras", "/tables/open/?game=faras"),
    ("open-classic", "/tables/open/?game=classic"),
    ("open-999", "/tables/open/?game=999"),
    ("open-holdem", "/tables/open/?game=holdem"),
    ("home-games", "/ledger/home-games/"),
    ("home-game-new", "/ledger/home-games/new/"),
]


@pytest.mark.parametrize(("name", "path"), VISITOR_PAGES)
def test_a_visitors_pages_fit_and_pass_axe(browse, screenshots, name, path):
    check(browse, screenshots, name, path)


@pytest.mark.parametrize(("name", "path"), HOST_PAGES)
def test_a_hosts_pages_fit_and_pass_axe(browse, screenshots, name, path):
    check(browse, screenshots, name, path, "hostuser")


def test_the_pages_of_a_finished_game_fit_and_pass_axe(browse, screenshots, played):
    code, home_game = played["code"], played["home_game"]
    settlement = check(browse, screenshots, "settlement", f"/ledger/tables/{code}/", "hostuser")
    mark_paid = settlement.get_by_role("button", name="Mark paid")
    if mark_paid.count():
        # visible: its text is not the colour of what is behind it (axe checks the contrast itself)
        colours = mark_paid.first.evaluate("n => [getComputedStyle(n).color, getComputedStyle(n).backgroundColor]")
        assert colours[0] != colours[1]
    check(browse, screenshots, "history", f"/tables/{code}/history/", "hostuser")
    check(browse, screenshots, "replayer", f"/tables/{code}/history/1/", "bikash")
    check(browse, screenshots, "hand-link", f"/tables/{code}/history/1/link/", "bikash")  # shares' page
    check(browse, screenshots, "home-game", f"/ledger/home-games/{home_game}/", "hostuser")
    check(browse, screenshots, "home-game-add-table", f"/ledger/home-games/{home_game}/add-table/", "hostuser")
    check(browse, screenshots, "join-link", f"/t/{code}/{played['invite']}/", None)
    # The code alone: asked for the invite link, or to ask the host (one counted try a size).
    page = check(browse, screenshots, "join-ask", f"/tables/join/?code={code}", None, status=403)
    assert page.locator(".join-ask button[type=submit]").count() == 1
    check(browse, screenshots, "lobby-after-a-game", "/tables/", "bikash")
    # Issue 28: the host's list of guests' seat links, and a seat link that does not work.
    check(browse, screenshots, "seat-links", f"/tables/{code}/seat-links/", "hostuser")
    check(browse, screenshots, "seat-link-refused", f"/t/{code}/seat/1/{'0' * 32}/", None, status=404)


def test_error_pages_are_the_sites_own_and_pass_axe(browse, screenshots, played):
    # (the join paths count tries per address, and this run makes many: a table page instead)
    page = check(browse, screenshots, "error-404", "/tables/ZZZZZZ/settings/", "hostuser", status=404)
    assert "There is no table with that code." in page.locator("main").inner_text()
    page = check(browse, screenshots, "error-404-address", "/no/such/page/", None, status=404)
    assert "URLconf" not in page.content()
    # A stranger at a real table's history is answered as for a code no table has (issue 24).
    page = check(browse, screenshots, "error-404-stranger", f"/tables/{played['code']}/history/", "deepa", status=404)
    assert "There is no table with that code." in page.locator("main").inner_text()


def test_an_expired_form_gets_the_sites_own_page(browse, screenshots):
    page = browse("chandra")
    page.goto("/accounts/profile/")
    page.context.clear_cookies(name="csrftoken")
    page.locator("form.form button[type=submit], main form button[type=submit]").first.click()
    page.wait_for_load_state()
    assert "That form had expired" in page.locator("main").inner_text()
    save_screenshot(page, str(screenshots / f"error-csrf-{browse.size}.png"), full_page=True)
    assert page_problems(page) == []


def test_the_table_settings_page_fits_and_passes_axe(browse, screenshots):
    page = browse("hostuser")
    code = open_table(page, "faras")
    check(browse, screenshots, "table-settings", f"/tables/{code}/settings/", "hostuser")


def test_home_games_are_in_the_navigation(browse):
    page = browse("hostuser")
    page.goto("/")
    page.locator(".site-nav").get_by_role("link", name="Home games").click()
    page.wait_for_url(re.compile(r"/ledger/home-games/$"))


def test_numbers_are_written_one_way_on_a_page(browse, played):
    """1,000 chips and 1000 chips never both: every number of four digits or more is grouped,
    the table page's log in words, result and final chips included."""
    page = browse("hostuser")
    table_page = f"/tables/{played['code']}/"
    for path in (
        f"/ledger/tables/{played['code']}/",
        "/tables/open/?game=faras",
        f"/tables/{played['code']}/history/",
        table_page,
    ):
        page.goto(path)
        if path == table_page:
            # the table page's log in words, the result and the final chips come by the socket
            page.wait_for_selector("#hand-log li")
            page.wait_for_selector("#game-over:not([hidden])")
        # the page's words, without codes (a seed's hex digits are not a number), dates (a
        # year, "Dec. 7, 2026", is not a count to group) or the data its scripts read (a
        # detached copy's innerText includes a script's text)
        text = page.evaluate(
            """() => { const main = document.querySelector('main').cloneNode(true);
                       main.querySelectorAll('code, time, script').forEach(n => n.remove()); return main.innerText; }"""
        )
        ungrouped = [
            text[max(0, m.start() - 40) : m.end() + 20] for m in re.finditer(r"(?<![\w.,:/-])\d{4,}(?!\w)", text)
        ]
        assert ungrouped == [], path


OVERLAPS = """() => {
  const boxes = [...document.querySelectorAll('.replayer__seat rect')].map(n => n.getBoundingClientRect());
  const dealer = [...document.querySelectorAll('.replayer__dealer')].map(n => n.getBoundingClientRect());
  const meet = (a, b) => a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;
  const found = [];
  dealer.forEach(d => boxes.forEach((b, i) => { if (meet(d, b)) found.push('dealer over seat ' + i); }));
  boxes.forEach((a, i) => boxes.forEach((b, j) => {
    if (i < j && meet(a, b)) found.push('seats ' + i + ' and ' + j);
  }));
  return {found, dealers: dealer.length, seats: boxes.length};
}"""


def test_the_replayer_marks_the_dealer_clear_of_every_seat(browse, played):
    """Issue 16: the replayer's dealer "D" overlapped a seat. At every step of every hand, at
    both sizes, the dealer's disc and the seat boxes do not meet."""
    page = browse("bikash")
    for number in (1, 2, 3, 4):
        page.goto(f"/tables/{played['code']}/history/{number}/")
        steps = int(re.findall(r"\d+", page.locator(".replayer__position").inner_text())[-1])
        for step in range(steps):
            shapes = page.evaluate(OVERLAPS)
            assert shapes["dealers"] == 1 and shapes["seats"] == 3, (number, step, shapes)
            assert shapes["found"] == [], (number, step, shapes["found"])
            page.locator('[data-step="forward"]').click()
        words = page.locator(".replayer__words").inner_text()
        assert "plays chaal." not in words  # a chaal is always said with its amount


IN_VIEW = """sel => { const r = document.querySelector(sel).getBoundingClientRect();
  return {top: r.top, bottom: r.bottom, height: window.innerHeight, scrollY: window.scrollY}; }"""


def test_the_replayer_keeps_its_buttons_and_its_table_in_view_as_it_steps(browse, played):
    """Issue 28: the replayer opened scrolled down and each step scrolled its log line into
    view, so after two steps (five on a phone) "Forward" and the table were off screen. At
    both sizes, at every step of a hand, the window stays where it opened, "Forward" is
    wholly on screen and the table's top is too; the log keeps its current line in view
    inside its own box."""
    page = browse("bikash")
    page.goto(f"/tables/{played['code']}/history/1/")
    steps = int(re.findall(r"\d+", page.locator(".replayer__position").inner_text())[-1])
    assert steps >= 6
    for step in range(steps):
        forward = page.evaluate(IN_VIEW, '[data-step="forward"]')
        table = page.evaluate(IN_VIEW, ".replayer__table")
        assert forward["scrollY"] == 0, (step, forward)
        assert 0 <= forward["top"] and forward["bottom"] <= forward["height"], (step, forward)
        assert 0 <= table["top"] < table["height"] - 100, (step, table)
        current = page.evaluate(
            """() => { const box = document.querySelector('.replayer__words').getBoundingClientRect();
                       const lines = document.querySelectorAll('.replayer__words .is-current');
                       const line = lines[lines.length - 1].getBoundingClientRect();
                       return {inside: line.top >= box.top - 1 && line.bottom <= box.bottom + 1}; }"""
        )
        assert current["inside"], step
        page.locator('[data-step="forward"]').click()
