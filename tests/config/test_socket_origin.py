"""Issue 24: the WebSocket ``Origin`` is checked in full (scheme, host and port).

The attack: a page at ``http://127.0.0.1:9999``, ``http://localhost:1234`` or
``https://127.0.0.1`` opened a table socket to the site at ``http://127.0.0.1:8000`` (Channels'
``AllowedHostsOriginValidator`` compares the host only). Now only the site's own origin, as
the socket's request reached it, and ``CSRF_TRUSTED_ORIGINS`` are accepted
(``config/origin.py``).
"""

from __future__ import annotations

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.test import override_settings

from config.asgi import application
from config.origin import origin_allowed
from tests.tables.conftest import open_table
from tests.tables.ws import TIMEOUT, _session_cookie

SITE = "127.0.0.1:8000"


@pytest.mark.parametrize("origin", ["http://127.0.0.1:9999", "http://localhost:1234", "https://127.0.0.1"])
def test_the_three_origins_of_the_issue_are_refused(origin):
    assert not origin_allowed(origin, host=SITE, scheme="http")


@pytest.mark.parametrize(
    "origin, host, scheme, allowed",
    [
        ("http://127.0.0.1:8000", SITE, "http", True),
        ("http://127.0.0.1:8000/", SITE, "http", True),
        ("HTTP://127.0.0.1:8000", SITE, "http", True),
        ("http://127.0.0.1", "127.0.0.1", "http", True),
        ("http://127.0.0.1:80", "127.0.0.1", "http", True),  # the default port, written out
        ("https://127.0.0.1:8000", SITE, "http", False),  # another scheme
        ("http://127.0.0.1:8001", SITE, "http", False),  # another port
        ("http://127.0.0.1", SITE, "http", False),  # port 80, not 8000
        ("http://127.0.0.2:8000", SITE, "http", False),
        ("http://evil.example", "evil.example", "http", False),  # a host not in ALLOWED_HOSTS (rebinding)
        ("http://127.0.0.1:8000.evil.example", SITE, "http", False),
        ("http://user@127.0.0.1:8000", SITE, "http", False),
        ("null", SITE, "http", False),
        ("", SITE, "http", False),
        (None, SITE, "http", False),
        ("http://127.0.0.1:8000", None, "http", False),
        ("http://127.0.0.1:notaport", SITE, "http", False),
        ("https://[::1]:8443", "[::1]:8443", "https", True),
    ],
)
def test_scheme_host_and_port_must_all_be_the_sites(origin, host, scheme, allowed):
    with override_settings(ALLOWED_HOSTS=["127.0.0.1", "localhost", "[::1]"], CSRF_TRUSTED_ORIGINS=[]):
        assert origin_allowed(origin, host=host, scheme=scheme) is allowed


def test_csrf_trusted_origins_are_accepted_exactly_and_by_subdomain():
    trusted = ["https://cards.example.org", "https://*.friends.example", "http://192.168.1.20:8000"]
    with override_settings(ALLOWED_HOSTS=["127.0.0.1"], CSRF_TRUSTED_ORIGINS=trusted):
        assert origin_allowed("https://cards.example.org", host=SITE, scheme="http")
        assert origin_allowed("https://cards.example.org:443", host=SITE, scheme="http")
        assert not origin_allowed("http://cards.example.org", host=SITE, scheme="http")
        assert not origin_allowed("https://cards.example.org:8443", host=SITE, scheme="http")
        assert origin_allowed("https://asha.friends.example", host=SITE, scheme="http")
        assert not origin_allowed("http://asha.friends.example", host=SITE, scheme="http")
        assert not origin_allowed("https://friends.example.evil", host=SITE, scheme="http")
        assert origin_allowed("http://192.168.1.20:8000", host=SITE, scheme="http")
        assert not origin_allowed("http://192.168.1.20:9000", host=SITE, scheme="http")


async def _open(code: str, user, origin: bytes, host: bytes, scheme: str | None = None) -> tuple[bool, object]:
    session_key = await database_sync_to_async(_session_cookie)(user, None)
    headers = [(b"origin", origin), (b"cookie", f"sessionid={session_key}".encode()), (b"host", host)]
    communicator = WebsocketCommunicator(application, f"/ws/table/{code}/", headers=headers)
    if scheme is not None:
        communicator.scope["scheme"] = scheme
    connected, code_ = await communicator.connect(timeout=TIMEOUT)
    if connected:
        await communicator.disconnect()
    return connected, code_


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize(
    "origin, scheme, allowed",
    [
        (b"http://127.0.0.1:8000", None, True),
        (b"http://127.0.0.1:9999", None, False),
        (b"http://localhost:1234", None, False),
        (b"https://127.0.0.1", None, False),
        (b"https://127.0.0.1:8000", "wss", True),  # the server says the socket came over TLS
        (b"http://127.0.0.1:8000", "wss", False),
    ],
)
async def test_the_sites_socket_refuses_every_other_origin(origin, scheme, allowed):
    table, seats = await database_sync_to_async(open_table)("faras", 2, None, False)
    user = await database_sync_to_async(lambda: seats[1].user)()
    with override_settings(ALLOWED_HOSTS=["127.0.0.1", "localhost"]):
        connected, _code = await _open(table.code, user, origin, SITE.encode(), scheme)
    assert connected is allowed
