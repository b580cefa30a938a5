"""The home page and the base layout every page extends."""

import html
import re

import pytest
from django.contrib.staticfiles import finders
from django.urls import reverse

pytestmark = pytest.mark.django_db


def test_the_home_page_says_what_the_site_is(client):
    page = html.unescape(client.get(reverse("home")).text)

    for game in ("Faras", "Classic Teen Patti", "999", "No-limit hold'em"):
        assert game in page
    assert "who owes whom" in page.lower()
    assert "never holds, sends or receives money" in page


@pytest.mark.urls("tests.config.urls_without_lobby")
def test_pages_render_while_there_is_no_lobby_yet(client):
    for name in ("home", "signup", "login"):
        response = client.get(reverse(name))
        assert response.status_code == 200
        assert "/lobby/" not in response.text


@pytest.mark.urls("tests.config.urls_with_lobby")
def test_pages_link_to_the_lobby_once_it_exists(client):
    page = client.get(reverse("home")).text

    assert page.count('href="/somewhere/lobby/"') == 2  # the header and the home page's call to action


@pytest.mark.parametrize("name", ["home", "signup", "login", "password_reset"])
def test_pages_load_no_external_assets(client, name):
    page = client.get(reverse(name)).text

    assert re.findall(r'(?:src|href)="(?:https?:)?//', page) == []
    assert 'href="/static/css/site.css"' in page


def test_the_stylesheet_and_icon_are_static_files():
    assert finders.find("css/site.css")
    assert finders.find("img/favicon.svg")


def test_the_layout_has_the_blocks_later_pages_fill(client):
    from django.template.loader import get_template

    source = get_template("base.html").template.source
    for block in ("title", "extra_head", "content", "scripts", "main_class"):
        assert re.search(r"{%\s*block " + block + r"\s*%}", source), block
    assert '<meta name="viewport"' in source
