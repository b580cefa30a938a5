"""Error pages with DEBUG off are the site's own: its header, a sentence a player can read,
links on, and nothing technical (no URL patterns, no traceback, no Django page title).

Rule pinned (issue 16): "a mistyped invite or an early download" must not show Django's
technical 404 page, and a host's friends never see a technical page.
"""

from __future__ import annotations

import html

import pytest
from django.contrib.auth import get_user_model
from django.test import AsyncClient, Client, override_settings

from tests.tables.conftest import make_user, open_table

pytestmark = pytest.mark.django_db

TECHNICAL = ("URLconf", "Traceback", "Using the URLconf", "DEBUG = True", "Django tried", "CSRF verification failed")


def assert_site_page(response, status: int, *sentences: str) -> str:
    assert response.status_code == status
    page = html.unescape(response.content.decode())
    assert 'class="site-header"' in page
    assert 'href="/static/css/site.css"' in page
    for word in TECHNICAL:
        assert word not in page, word
    for sentence in sentences:
        assert sentence in page, sentence
    return page


@override_settings(DEBUG=False)
def test_a_mistyped_invite_gets_the_sites_page_with_the_reason(client):
    # Issue 14: the same answer as a real code without its invite token (403), so a code
    # tells a stranger nothing.
    page = assert_site_page(client.get("/t/ZZZZZZ/"), 403, "ask the host for the invite link")
    assert 'href="/tables/"' in page  # a way on


@override_settings(DEBUG=False)
def test_an_unknown_address_gets_the_not_found_page_without_djangos_words(client):
    page = assert_site_page(client.get("/no/such/page/"), 404, "There is nothing here")
    assert "Resolver404" not in page
    assert "matches the given query" not in page


@override_settings(DEBUG=False)
def test_a_missing_object_does_not_name_the_model(client):
    client.force_login(make_user("h"))
    page = assert_site_page(client.get("/ledger/home-games/999999/"), 404)
    assert "HomeGame" not in page


@override_settings(DEBUG=False)
def test_forbidden_gets_the_sites_page_with_the_reason(client):
    table, seats = open_table("faras", players=3, start=False)
    client.force_login(seats[1].user)  # at the table, not its host (a stranger gets a 404: issue 24)
    transfer = {"payer": seats[0].pk, "payee": seats[2].pk, "amount": "1.00", "paid": "1"}  # not his
    response = client.post(f"/ledger/tables/{table.code}/paid/", transfer)
    assert_site_page(
        response, 403, "Only the payer, the payee or the host can mark a transfer paid.", "This page is not open to you"
    )


@override_settings(DEBUG=False)
def test_an_early_download_gets_the_not_found_page_with_the_reason(client):
    table, seats = open_table("faras", players=2, start=False)
    client.force_login(seats[0].user)
    assert_site_page(client.get(f"/tables/{table.code}/history/game.json"), 404, "Downloads open when the game ends.")


@override_settings(DEBUG=False)
def test_an_expired_form_gets_the_sites_page_and_changes_nothing():
    client = Client(enforce_csrf_checks=True)
    response = client.post("/accounts/signup/", {"username": "x", "password1": "a", "password2": "a"})
    assert_site_page(response, 403, "That form had expired", "Nothing was changed")
    assert not get_user_model().objects.filter(username="x").exists()


@override_settings(DEBUG=False, ROOT_URLCONF="tests.config.urls_that_fail")
def test_a_server_error_gets_the_sites_page():
    client = Client(raise_request_exception=False)
    page = assert_site_page(client.get("/broken/"), 500, "Something went wrong")
    assert "a bug in a view" not in page


@override_settings(DEBUG=False, ROOT_URLCONF="tests.config.urls_that_fail")
def test_a_database_out_of_reach_gets_503_with_retry_after_not_a_bugs_500():
    client = Client(raise_request_exception=False)
    for url in ("/database-gone/", "/during-database-gone/", "/server-shutting-down/", "/sqlite-locked/"):
        response = client.get(url)
        page = assert_site_page(response, 503, "The site cannot reach its records right now")
        assert response["Retry-After"] == "30"
        assert "Every move played so far is kept" in page
        assert "Connection refused" not in page and "server closed" not in page
    # A bug, and a database error that waiting will not mend, are still a 500 with no Retry-After.
    for url in ("/broken/", "/migration-not-run/", "/statement-timeout/", "/deadlock/", "/bug-from-none/"):
        response = client.get(url)
        assert_site_page(response, 500, "Something went wrong")
        assert not response.has_header("Retry-After"), url


@override_settings(DEBUG=False, ROOT_URLCONF="tests.config.urls_that_fail")
async def test_the_asgi_handler_tells_the_database_out_of_reach_from_a_bug_too():
    """daphne runs the site through Django's ASGI handler, which handles a view's error in
    another thread: the server-error handler must still see what it was."""
    client = AsyncClient(raise_request_exception=False)
    gone = await client.get("/database-gone/")
    assert (gone.status_code, gone["Retry-After"]) == (503, "30")
    broken = await client.get("/broken/")
    assert broken.status_code == 500 and not broken.has_header("Retry-After")


@override_settings(DEBUG=False)
def test_static_files_are_served_with_debug_off(client):
    """scripts/serve runs with DEBUG off: the page's CSS and scripts must still load (WhiteNoise)."""
    for path in ("/static/css/site.css", "/static/js/cards.js", "/static/img/favicon.svg"):
        response = client.get(path)
        assert response.status_code == 200, path
        assert b"".join(response.streaming_content)
