"""Content-Security-Policy (issue 14): every page of the site carries a policy that allows no
inline script, no foreign origin, no plugin and no framing, and the templates keep to it (no
inline script bodies, no inline event handlers, no inline styles; data reaches scripts in
json_script tags).

Every page: tests/config/pages.py walks the project's URL patterns and fails on a URL
parameter it has no value for, so a new page is covered the day it is added.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from django.test import Client
from django.urls import reverse

from tests.config.pages import ADMIN_PAGES, page_urls

ROOT = Path(__file__).resolve().parents[2]

EXPECTED_POLICY = {
    "default-src": "'self'",
    "script-src": "'self'",
    "style-src": "'self'",
    "img-src": "'self'",
    "font-src": "'self'",
    "connect-src": "'self'",
    "object-src": "'none'",
    "base-uri": "'none'",
    "form-action": "'self'",
    "frame-ancestors": "'none'",
}


def policy_of(response) -> dict[str, str]:
    header = response.headers.get("Content-Security-Policy", "")
    directives = {}
    for part in header.split(";"):
        name, _, value = part.strip().partition(" ")
        if name:
            directives[name] = value.strip()
    return directives


def test_every_page_carries_the_policy(site, django_user_model):
    host_client = Client()
    host_client.force_login(site["host"])
    admin = django_user_model.objects.create_superuser(username="operator", password="x-Admin-pass-1")
    admin_client = Client()
    admin_client.force_login(admin)
    urls = page_urls(site)
    assert len(urls) >= 30  # the walk found the site's pages
    for url in urls:
        for client in (host_client, Client(), admin_client):
            response = client.get(url)
            assert response.status_code < 500, url
            assert policy_of(response) == EXPECTED_POLICY, (url, response.headers.get("Content-Security-Policy"))


def test_the_policy_forbids_inline_script_and_foreign_origins(client):
    directives = policy_of(client.get(reverse("home")))
    for name in ("script-src", "style-src", "default-src", "connect-src", "img-src"):
        assert "'unsafe-inline'" not in directives[name] and "'unsafe-eval'" not in directives[name]
        assert "*" not in directives[name] and "http" not in directives[name] and "data:" not in directives[name]


# --- the templates keep to it ---------------------------------------------------------------

SCRIPT = re.compile(r"<script\b([^>]*)>(.*?)</script\s*>", re.S | re.I)
HANDLER = re.compile(r"""<[^>]*\son[a-z]+\s*=""", re.I)
INLINE_STYLE = re.compile(r"""<style\b|<[^>]*\sstyle\s*=""", re.I)


def template_files() -> list[Path]:
    files = sorted((ROOT / "templates").rglob("*.html"))
    for app in ("accounts", "tables", "ledger"):
        files += sorted((ROOT / app / "templates").rglob("*.html"))
    assert len(files) >= 20
    return files


@pytest.mark.parametrize("path", template_files(), ids=lambda path: str(path.relative_to(ROOT)))
def test_no_template_holds_inline_script_a_handler_or_a_style(path: Path):
    text = path.read_text(encoding="utf-8")
    for attributes, body in SCRIPT.findall(text):
        assert "src=" in attributes and not body.strip(), f"inline script in {path}"
    assert not HANDLER.search(text), f"inline event handler in {path}"
    assert not INLINE_STYLE.search(text), f"inline style in {path}"
    assert "javascript:" not in text.lower(), f"javascript: URL in {path}"


def test_the_scanner_would_catch_each_kind():
    assert SCRIPT.search("<script>alert(1)</script>").group(2)
    assert HANDLER.search('<button onclick="go()">')
    assert INLINE_STYLE.search("<style>p{}</style>") and INLINE_STYLE.search('<p style="x">')


def test_rendered_pages_hold_no_inline_script_but_json_data(site):
    """json_script tags are data (type application/json), not script: they are allowed."""
    host_client = Client()
    host_client.force_login(site["host"])
    for url in page_urls(site)[:-ADMIN_PAGES]:
        response = host_client.get(url)
        if "text/html" not in response.get("Content-Type", ""):
            continue
        for attributes, body in SCRIPT.findall(response.content.decode()):
            if body.strip():
                assert 'type="application/json"' in attributes, (url, attributes)
        assert not HANDLER.search(response.content.decode()), url
