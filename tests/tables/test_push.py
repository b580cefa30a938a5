"""Turn reminders that reach a pocket (issue 28): Web Push with VAPID, sent by the table clock.

Rules pinned, against a push service this test runs (an HTTP server on 127.0.0.1) and a
subscription whose keys the test made: what arrives is decrypted here with ``http_ece``, so
the encryption is real; nothing of the project is mocked.

- A due turn reminder sends one push to the player to act when no page of theirs is open;
  none while their page is open and visible (the page says so over its socket); never the
  same push twice, whatever runs again (the clock, its sweep, the sender, a cold process).
- A request to the host pushes to the host.
- The subscription: only for the visitor's own seat; malformed JSON is refused with a clear
  error and stores nothing; endpoints that are not https, or whose host is a loopback or
  private address, are refused unless ``DASHAIN_PUSH_ALLOW_LOCAL``; a push service's 404 or
  410 deletes the subscription.
- No VAPID key: the page offers nothing, and nothing is queued.
"""

from __future__ import annotations

import base64
import ipaddress
import json
import os
import socket
import ssl
import subprocess
import sys
import threading
import time
from datetime import timedelta
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import http_ece
import pytest
from channels.db import database_sync_to_async
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat
from django.conf import settings
from django.db import connection
from django.test import Client
from django.urls import reverse
from django.utils import timezone
from py_vapid import Vapid

from tables.background_threads import swept
from tables.models import Hand, PushMessage, PushSubscription, Seat, Table
from tables.push import address_is_public, embedded_ipv4, endpoint_refusal, push_send_pending
from tables.services import (
    guest_token_new,
    hand_act,
    seat_ask,
    table_clock_run,
    table_clock_sweep,
    table_join,
    table_update_settings,
)
from tables.state_cache import state_cache_clear
from tests.tables.conftest import make_user, open_table
from tests.tables.ws import connect, users_of

ROOT = Path(__file__).resolve().parents[2]


def _b64(raw: bytes) -> str:
    return base64.urlsafe_b64encode(raw).decode().rstrip("=")


class PushService:
    """A push service on 127.0.0.1: keeps what each endpoint received (and any GET); answers
    ``status[path]`` (201), or ``redirect[path]``: (a 3xx status, the ``Location``)."""

    def __init__(self) -> None:
        self.received: list[tuple[str, Any, bytes]] = []
        self.gets: list[str] = []
        self.status: dict[str, int] = {}
        self.redirect: dict[str, tuple[int, str]] = {}
        service = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                body = self.rfile.read(int(self.headers.get("Content-Length") or 0))
                service.received.append((self.path, self.headers, body))
                self._answer()

            def do_GET(self) -> None:
                service.gets.append(self.path)
                self._answer()

            def _answer(self) -> None:
                status, location = service.redirect.get(self.path, (service.status.get(self.path, 201), ""))
                self.send_response(status)
                if location:
                    self.send_header("Location", location)
                self.send_header("Content-Length", "0")
                self.end_headers()

            def log_message(self, *args: object) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        # shutdown() waits for serve_forever to look at its flag, once a poll_interval (0.5 s
        # by default: half a second of every test's teardown).
        self.thread = threading.Thread(target=self.server.serve_forever, kwargs={"poll_interval": 0.02}, daemon=True)
        self.thread.start()

    def url(self, path: str) -> str:
        return f"http://127.0.0.1:{self.server.server_address[1]}{path}"

    def to(self, path: str) -> list[tuple[Any, bytes]]:
        return [(headers, body) for (p, headers, body) in self.received if p == path]

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()


class Phone:
    """A browser's push subscription: its own P-256 key pair and auth secret, as a browser makes them."""

    def __init__(self, endpoint: str) -> None:
        self.key = ec.generate_private_key(ec.SECP256R1())
        self.auth = os.urandom(16)
        self.endpoint = endpoint

    def subscription(self) -> dict:
        public = self.key.public_key().public_bytes(Encoding.X962, PublicFormat.UncompressedPoint)
        return {
            "endpoint": self.endpoint,
            "expirationTime": None,
            "keys": {"p256dh": _b64(public), "auth": _b64(self.auth)},
        }

    def read(self, body: bytes) -> dict:
        """Decrypt a push as the browser does (RFC 8291, aes128gcm)."""
        return json.loads(http_ece.decrypt(body, private_key=self.key, auth_secret=self.auth, version="aes128gcm"))


@pytest.fixture
def vapid_key(settings):
    key = Vapid()
    key.generate_keys()
    raw = key.private_key.private_numbers().private_value.to_bytes(32, "big")
    settings.DASHAIN_VAPID_PRIVATE_KEY = _b64(raw)
    settings.DASHAIN_VAPID_SUBJECT = "mailto:host@example.org"
    settings.DASHAIN_PUSH_ALLOW_LOCAL = True  # the test's own push service is on 127.0.0.1
    return key


@pytest.fixture
def push_service():
    service = PushService()
    yield service
    service.close()


def _subscribe(user, table: Table, phone: Phone) -> tuple[int, dict]:
    client = Client()
    client.force_login(user)
    response = client.post(
        reverse("table_push", kwargs={"code": table.code}), {"subscription": json.dumps(phone.subscription())}
    )
    return response.status_code, response.json() if response.headers.get("Content-Type") == "application/json" else {}


def _live(table: Table) -> Hand:
    return Hand.objects.get(table=table, ended_at__isnull=True)


def _wait_for(service: PushService, path: str, count: int) -> None:
    deadline = time.monotonic() + 5
    while len(service.to(path)) < count and time.monotonic() < deadline:
        time.sleep(0.02)


# --- the reminder, sent by the clock ----------------------------------------------------------


@pytest.mark.django_db(transaction=True)
async def test_a_due_reminder_pushes_once_to_a_closed_page_and_never_to_a_page_in_view(vapid_key, push_service):
    table, seats = await database_sync_to_async(open_table)("faras", 3, {"turn_timer": 30})
    users = await users_of(seats)
    hand = await database_sync_to_async(_live)(table)
    to_act = next(index for index, seat in enumerate(seats) if str(seat.pk) == hand.to_act)
    waiting = (to_act + 1) % 3
    phone, other = Phone(push_service.url("/p/to-act")), Phone(push_service.url("/p/waiting"))
    assert (await database_sync_to_async(_subscribe)(users[to_act], table, phone))[0] == 200
    assert (await database_sync_to_async(_subscribe)(users[waiting], table, other))[0] == 200

    # The deadline passes with no page of theirs open: the clock's reminder is pushed to them.
    assert await database_sync_to_async(table_clock_run)(table_id=table.pk, now=hand.turn_deadline) == ["turn_alarm"]
    assert await database_sync_to_async(push_send_pending)() == {"sent": 1}
    _wait_for(push_service, "/p/to-act", 1)
    [(headers, body)] = push_service.to("/p/to-act")
    assert headers["Content-Encoding"] == "aes128gcm" and headers["Authorization"].startswith("vapid t=")
    # Signed with the site's VAPID key (the push service checks it against the browser's subscription).
    assert Vapid.verify(headers["Authorization"])
    site_key = _b64(vapid_key.public_key.public_bytes(Encoding.X962, PublicFormat.UncompressedPoint))
    assert f"k={site_key}" in headers["Authorization"]
    push = phone.read(body)
    assert push["url"] == f"/t/{table.code}/" and push["title"] == "Your turn" and table.code in push["body"]
    assert push_service.to("/p/waiting") == []  # not their turn

    # Nothing sends it again: the sender, the clock, its sweep and its receivers, a cold process.
    state_cache_clear()
    assert await database_sync_to_async(push_send_pending)() == {}
    assert await database_sync_to_async(table_clock_sweep)(now=hand.turn_deadline + timedelta(seconds=5)) == {}
    await database_sync_to_async(swept.send_robust)(sender=None)
    assert len(push_service.to("/p/to-act")) == 1

    # Their page is open and on screen: the second reminder is not pushed (and the record says why).
    connected, page, _ = await connect(table.code, user=users[to_act])
    assert connected
    await page.send({"type": "visibility", "visible": True})
    await page.request({"type": "ping"})  # frames are handled in order: the visibility is counted
    assert await database_sync_to_async(table_clock_run)(
        table_id=table.pk, now=hand.turn_deadline + timedelta(seconds=30)
    ) == ["turn_alarm"]
    assert await database_sync_to_async(push_send_pending)() == {"visible": 1}
    await page.close()
    assert len(push_service.to("/p/to-act")) == 1
    results = await database_sync_to_async(
        lambda: sorted(PushMessage.objects.filter(table=table).values_list("kind", "result"))
    )()
    assert results == [("turn", "sent"), ("turn", "visible")]


@pytest.mark.django_db(transaction=True)
async def test_a_page_open_but_hidden_still_gets_the_push(vapid_key, push_service):
    table, seats = await database_sync_to_async(open_table)("faras", 2, {"turn_timer": 30})
    users = await users_of(seats)
    hand = await database_sync_to_async(_live)(table)
    to_act = next(index for index, seat in enumerate(seats) if str(seat.pk) == hand.to_act)
    phone = Phone(push_service.url("/p/pocket"))
    await database_sync_to_async(_subscribe)(users[to_act], table, phone)
    connected, page, _ = await connect(table.code, user=users[to_act])
    assert connected
    await page.send({"type": "visibility", "visible": True})
    await page.send({"type": "visibility", "visible": False})  # the phone locked
    await page.request({"type": "ping"})
    await database_sync_to_async(table_clock_run)(table_id=table.pk, now=hand.turn_deadline)
    assert await database_sync_to_async(push_send_pending)() == {"sent": 1}
    await page.close()
    _wait_for(push_service, "/p/pocket", 1)
    assert phone.read(push_service.to("/p/pocket")[0][1])["title"] == "Your turn"


@pytest.mark.django_db
def test_a_push_claimed_by_a_process_that_died_is_never_sent_again(vapid_key, push_service):
    table, seats = open_table("faras", 2, {"turn_timer": 30})
    hand = _live(table)
    user = next(seat.user for seat in seats if str(seat.pk) == hand.to_act)
    _subscribe(user, table, Phone(push_service.url("/p/a")))
    table_clock_run(table_id=table.pk, now=hand.turn_deadline)
    # A sender claimed it, then its process died before the push left.
    assert PushMessage.objects.filter(table=table, result="").update(result="sending") == 1
    assert push_send_pending() == {}
    table_clock_sweep(now=hand.turn_deadline + timedelta(seconds=1))
    swept.send_robust(sender=None)
    assert push_service.received == []


@pytest.mark.django_db
def test_a_request_to_the_host_pushes_to_the_host_once(vapid_key, push_service):
    table, seats = open_table("faras", 2, start=False)
    table_update_settings(table_id=table.pk, seat_id=seats[0].pk, choices={"approve_seats": True})
    phone, players = Phone(push_service.url("/p/host")), Phone(push_service.url("/p/player"))
    assert _subscribe(seats[0].user, table, phone)[0] == 200
    assert _subscribe(seats[1].user, table, players)[0] == 200
    dipa = table_join(
        code=table.code, invite_token=table.invite_token, guest_name="Dipa", guest_token=guest_token_new()
    )
    seat_ask(table_id=table.pk, seat_id=dipa.pk, what="seat")
    assert push_send_pending() == {"sent": 1}
    push = phone.read(push_service.to("/p/host")[0][1])
    assert push["title"] == "Someone is waiting for your answer" and push["url"] == f"/t/{table.code}/"
    assert push_service.to("/p/player") == []
    assert push_send_pending() == {}
    assert len(push_service.received) == 1


# --- the subscription and its abuse -----------------------------------------------------------


@pytest.mark.django_db
def test_a_subscription_is_for_the_visitors_own_seat_only(vapid_key, push_service):
    table, seats = open_table("faras", 2)
    phone = Phone(push_service.url("/p/x"))
    client = Client()
    client.force_login(seats[1].user)
    # Naming another seat changes nothing: the seat comes from the session.
    response = client.post(
        reverse("table_push", kwargs={"code": table.code}),
        {"subscription": json.dumps(phone.subscription()), "seat": seats[0].pk, "seat_id": seats[0].pk},
    )
    assert response.status_code == 200
    assert list(PushSubscription.objects.values_list("seat_id", flat=True)) == [seats[1].pk]
    # A stranger, signed in or not, gets the table's 404 and stores nothing.
    stranger = Client()
    stranger.force_login(make_user("stranger"))
    for visitor in (stranger, Client()):
        answer = visitor.post(
            reverse("table_push", kwargs={"code": table.code}), {"subscription": json.dumps(phone.subscription())}
        )
        assert answer.status_code == 404
    assert PushSubscription.objects.count() == 1
    # A banned player may not subscribe.
    Seat.objects.filter(pk=seats[1].pk).update(banned=True)
    assert (
        client.post(
            reverse("table_push", kwargs={"code": table.code}), {"subscription": json.dumps(phone.subscription())}
        ).status_code
        == 404
    )


@pytest.mark.django_db
@pytest.mark.parametrize(
    "raw",
    [
        "",
        "not json",
        "[]",
        "{}",
        '{"endpoint": "https://push.example.org/x"}',
        '{"endpoint": "https://push.example.org/x", "keys": {"p256dh": "abc", "auth": "abc"}}',
        '{"endpoint": 5, "keys": {}}',
        "[" * 5000,
    ],
)
def test_malformed_subscriptions_are_refused_clearly_and_store_nothing(vapid_key, raw):
    table, seats = open_table("faras", 2)
    client = Client()
    client.force_login(seats[1].user)
    response = client.post(reverse("table_push", kwargs={"code": table.code}), {"subscription": raw})
    assert response.status_code == 400
    assert response.json()["code"] == "bad_subscription" and response.json()["message"]
    assert not PushSubscription.objects.exists()


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("endpoint", "code"),
    [
        ("http://push.example.org/x", "not_https"),
        ("ftp://push.example.org/x", "not_https"),
        ("https://127.0.0.1/x", "private_address"),
        ("https://localhost:8443/x", "private_address"),
        ("https://10.0.0.5/x", "private_address"),
        ("https://192.168.1.1/x", "private_address"),
        ("https://169.254.169.254/latest/meta-data", "private_address"),
        ("https://[::1]/x", "private_address"),
        ("https://0.0.0.0/x", "private_address"),
        # IPv6 forms that carry a loopback IPv4 address (issue 34): judged as that address.
        ("https://[::127.0.0.1]/x", "private_address"),
        ("https://[64:ff9b::7f00:1]/x", "private_address"),
        ("https://[2002:7f00:1::]/x", "private_address"),
        ("https://[::ffff:0:7f00:1]/x", "private_address"),
        ("https://[::ffff:169.254.169.254]/latest/meta-data", "private_address"),
    ],
)
def test_in_production_endpoints_that_are_not_public_https_are_refused(vapid_key, settings, endpoint, code):
    settings.DASHAIN_PUSH_ALLOW_LOCAL = False
    assert endpoint_refusal(endpoint) == code
    table, seats = open_table("faras", 2)
    client = Client()
    client.force_login(seats[1].user)
    phone = Phone(endpoint)
    response = client.post(
        reverse("table_push", kwargs={"code": table.code}), {"subscription": json.dumps(phone.subscription())}
    )
    assert response.status_code == 400 and response.json()["code"] == "bad_push_service"
    assert not PushSubscription.objects.exists()


def test_a_public_https_endpoint_passes(settings):
    settings.DASHAIN_PUSH_ALLOW_LOCAL = False
    assert endpoint_refusal("https://8.8.8.8/push/abc") is None


# --- where the request goes: the checked address, never a redirect (issue 34, item 5) -------

#: How each IPv6 form carries an IPv4 address (as an integer): each is judged as what it carries.
CARRIERS = {
    "IPv4-mapped ::ffff:0:0/96": lambda ipv4: 0xFFFF << 32 | ipv4,
    "IPv4-compatible ::/96": lambda ipv4: ipv4,
    "NAT64 64:ff9b::/96": lambda ipv4: 0x64FF9B << 96 | ipv4,
    "6to4 2002::/16": lambda ipv4: 0x2002 << 112 | ipv4 << 80,
    "IPv4-translated ::ffff:0:0:0/96": lambda ipv4: 0xFFFF << 48 | ipv4,
}

#: IPv4 addresses that are not public: loopback, private, the cloud's metadata service, shared, "this network".
NOT_PUBLIC_IPV4 = ["127.0.0.1", "10.0.0.1", "172.16.0.1", "192.168.1.1", "169.254.169.254", "100.64.0.1", "0.0.0.0"]


@pytest.mark.parametrize("form", CARRIERS)
def test_an_ipv6_form_carrying_ipv4_is_judged_as_the_ipv4_it_carries(form):
    for ipv4 in [*NOT_PUBLIC_IPV4, "8.8.8.8"]:
        carrying = ipaddress.IPv6Address(CARRIERS[form](int(ipaddress.IPv4Address(ipv4))))
        assert [str(ip) for ip in embedded_ipv4(carrying)] == [ipv4], (form, str(carrying))
        assert address_is_public(str(carrying)) == (ipv4 == "8.8.8.8"), (form, str(carrying))


@pytest.mark.parametrize("address", ["::127.0.0.1", "64:ff9b::7f00:1", "2002:7f00:1::", "::ffff:0:7f00:1"])
def test_the_four_forms_that_passed_the_check_carry_loopback_and_are_refused(address):
    assert [str(ip) for ip in embedded_ipv4(ipaddress.IPv6Address(address))] == ["127.0.0.1"]
    assert not address_is_public(address)


@pytest.mark.parametrize(
    "address",
    [
        "2001:0:4136:e378:8000:63bf:3fff:fdd2",  # Teredo (2001::/32): its server and its client both carried
        "2001:0:808:808::f7f7:f7f7",  # Teredo to 8.8.8.8: 2001::/23 is not global at all
        "64:ff9b:1::808:808",  # local-use NAT64 (RFC 8215): not globally reachable, whatever it carries
        "64:ff9b:1:7f00:1::",
        "ff02::1",  # multicast
        "fe80::1",
        "fc00::1",
    ],
)
def test_teredo_local_nat64_and_local_ipv6_are_never_public(address):
    assert not address_is_public(address)


def test_teredo_carries_its_server_and_its_client():
    carried = embedded_ipv4(ipaddress.IPv6Address("2001:0:4136:e378:8000:63bf:3fff:fdd2"))
    assert [str(ip) for ip in carried] == ["65.54.227.120", "192.0.2.45"]


def test_public_ipv6_endpoints_still_pass(settings):
    settings.DASHAIN_PUSH_ALLOW_LOCAL = False
    assert address_is_public("2001:4860:4860::8888")
    assert endpoint_refusal("https://[2001:4860:4860::8888]/push") is None
    assert endpoint_refusal("https://[64:ff9b::808:808]/push") is None


def _reminder_queued(table: Table, user: Any, phone: Phone) -> None:
    """``user`` subscribes ``phone`` and their turn's reminder is due: one push queued."""
    assert _subscribe(user, table, phone)[0] == 200
    table_clock_run(table_id=table.pk, now=_live(table).turn_deadline)


def _turn_table() -> tuple[Table, Any]:
    table, seats = open_table("faras", 2, {"turn_timer": 30})
    hand = _live(table)
    return table, next(seat.user for seat in seats if str(seat.pk) == hand.to_act)


@pytest.mark.django_db
@pytest.mark.parametrize("status", [301, 302, 303, 307, 308])
def test_a_push_service_that_redirects_is_not_followed_and_the_push_counts_as_failed(vapid_key, push_service, status):
    """A public endpoint that answers 3xx to the server's own network gets nothing delivered
    there: the first hop is local only because the test's push service is (as
    DASHAIN_PUSH_ALLOW_LOCAL permits); the redirect's target never sees a request."""
    inside = PushService()  # a service on the server's own network
    try:
        push_service.redirect["/p/bounce"] = (status, inside.url("/admin/secret"))
        table, user = _turn_table()
        _reminder_queued(table, user, Phone(push_service.url("/p/bounce")))
        assert push_send_pending() == {"failed": 1}
        assert len(push_service.to("/p/bounce")) == 1  # the one POST, answered with the redirect
        assert inside.received == [] and inside.gets == []
        assert list(PushMessage.objects.values_list("result", flat=True)) == ["failed"]
        assert PushSubscription.objects.count() == 1  # only 404/410 mean gone
    finally:
        inside.close()


class Listener:
    """A TCP port on 127.0.0.1 that counts the connections made to it (a service inside)."""

    def __init__(self) -> None:
        self.connections = 0
        self.socket = socket.create_server(("127.0.0.1", 0))
        self.socket.settimeout(0.2)
        self.port = self.socket.getsockname()[1]
        self.running = True
        self.thread = threading.Thread(target=self._accept, daemon=True)
        self.thread.start()

    def _accept(self) -> None:
        while self.running:
            try:
                connection, _address = self.socket.accept()
            except OSError:
                continue
            self.connections += 1
            connection.close()

    def close(self) -> None:
        self.running = False
        self.thread.join()
        self.socket.close()


@pytest.mark.django_db
def test_the_push_connects_to_the_address_that_was_checked_not_to_a_second_answer(vapid_key, settings, monkeypatch):
    """DNS rebinding: the endpoint's name answers a public address when it is checked and the
    server's own loopback afterwards. The name is looked up once; the connection goes to the
    public address checked (here refused at once, so the test never leaves the machine) and
    the service inside is never reached."""
    settings.DASHAIN_PUSH_ALLOW_LOCAL = False
    inside = Listener()
    lookups: list[str] = []
    real_getaddrinfo = socket.getaddrinfo

    def rebinding(host: Any, port: Any, *args: Any, **kwargs: Any) -> Any:
        lookups.append(str(host))
        if host == "push.rebind.test":
            first = lookups.count("push.rebind.test") == 1
            address = "8.8.8.8" if first else "127.0.0.1"
            return [(socket.AF_INET, socket.SOCK_STREAM, 6, "", (address, port))]
        if host == "8.8.8.8":
            raise socket.gaierror(socket.EAI_NONAME, "the test does not leave the machine")
        return real_getaddrinfo(host, port, *args, **kwargs)

    try:
        endpoint = f"https://push.rebind.test:{inside.port}/p/rebind"
        table, user = _turn_table()
        monkeypatch.setattr(socket, "getaddrinfo", rebinding)
        _reminder_queued(table, user, Phone(endpoint))  # the subscription's check saw 8.8.8.8
        lookups.clear()  # the name answers 8.8.8.8 once more, then the server's own loopback
        assert push_send_pending() == {"failed": 1}
        assert lookups.count("push.rebind.test") == 1  # checked once, never asked again
        assert "8.8.8.8" in lookups  # the connection went for the address checked
        assert inside.connections == 0
    finally:
        inside.close()


def _certificate(directory: Path, name: str) -> tuple[Path, Path, Path]:
    """A test CA and a server certificate for ``name`` it signed: (CA file, cert file, key file)."""
    from cryptography import x509
    from cryptography.hazmat.primitives import hashes, serialization
    from cryptography.x509.oid import NameOID

    now = timezone.now()
    ca_key = ec.generate_private_key(ec.SECP256R1())
    ca_name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "Dashain test CA")])
    ca = (
        x509.CertificateBuilder()
        .subject_name(ca_name)
        .issuer_name(ca_name)
        .public_key(ca_key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(now - timedelta(days=1))
        .not_valid_after(now + timedelta(days=1))
        .add_extension(x509.BasicConstraints(ca=True, path_length=None), critical=True)
        .sign(ca_key, hashes.SHA256())
    )
    key = ec.generate_private_key(ec.SECP256R1())
    cert = (
        x509.CertificateBuilder()
        .subject_name(x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, name)]))
        .issuer_name(ca_name)
        .public_key(key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(now - timedelta(days=1))
        .not_valid_after(now + timedelta(days=1))
        .add_extension(x509.SubjectAlternativeName([x509.DNSName(name)]), critical=False)
        .sign(ca_key, hashes.SHA256())
    )
    paths = (directory / "ca.pem", directory / "cert.pem", directory / "key.pem")
    paths[0].write_bytes(ca.public_bytes(serialization.Encoding.PEM))
    paths[1].write_bytes(cert.public_bytes(serialization.Encoding.PEM))
    paths[2].write_bytes(
        key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption())
    )
    return paths


@pytest.mark.django_db
@pytest.mark.parametrize(("certified", "result"), [("push.pinned.test", "sent"), ("someone-else.test", "failed")])
def test_a_pinned_push_still_names_its_host_over_tls(vapid_key, push_service, tmp_path, monkeypatch, certified, result):
    """Connecting to the checked address keeps the endpoint's name where TLS and HTTP use it:
    the server name (SNI), the certificate's name (a certificate for another name fails) and
    the Host header."""
    ca_file, cert_file, key_file = _certificate(tmp_path, certified)
    context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    context.load_cert_chain(cert_file, key_file)
    server_names: list[str | None] = []
    context.sni_callback = lambda _socket, server_name, _context: server_names.append(server_name)
    push_service.server.socket = context.wrap_socket(push_service.server.socket, server_side=True)
    monkeypatch.setenv("REQUESTS_CA_BUNDLE", str(ca_file))
    real_getaddrinfo = socket.getaddrinfo

    def pinned_name(host: Any, port: Any, *args: Any, **kwargs: Any) -> Any:
        if host == "push.pinned.test":
            return [(socket.AF_INET, socket.SOCK_STREAM, 6, "", ("127.0.0.1", port))]
        return real_getaddrinfo(host, port, *args, **kwargs)

    monkeypatch.setattr(socket, "getaddrinfo", pinned_name)
    port = push_service.server.server_address[1]
    phone = Phone(f"https://push.pinned.test:{port}/p/tls")
    table, user = _turn_table()
    _reminder_queued(table, user, phone)
    assert push_send_pending() == {result: 1}
    assert server_names and set(server_names) == {"push.pinned.test"}
    if result == "sent":
        [(headers, body)] = push_service.to("/p/tls")
        assert headers["Host"] == f"push.pinned.test:{port}"
        assert phone.read(body)["title"] == "Your turn"
    else:
        assert push_service.to("/p/tls") == []


@pytest.mark.django_db
@pytest.mark.parametrize("status", [404, 410])
def test_a_push_service_that_says_gone_deletes_the_subscription(vapid_key, push_service, status):
    table, seats = open_table("faras", 2, {"turn_timer": 30})
    hand = _live(table)
    user = next(seat.user for seat in seats if str(seat.pk) == hand.to_act)
    push_service.status["/p/old"] = status
    _subscribe(user, table, Phone(push_service.url("/p/old")))
    table_clock_run(table_id=table.pk, now=hand.turn_deadline)
    assert push_send_pending() == {"gone": 1}
    assert len(push_service.to("/p/old")) == 1
    assert not PushSubscription.objects.exists()
    assert list(PushMessage.objects.values_list("result", flat=True)) == ["gone"]
    # The next reminder has nobody to go to.
    hand.refresh_from_db()
    table_clock_run(table_id=table.pk, now=hand.turn_alarm_at)
    assert push_send_pending() == {}
    assert len(push_service.to("/p/old")) == 1


@pytest.mark.django_db
def test_a_server_error_is_recorded_and_not_retried(vapid_key, push_service):
    table, seats = open_table("faras", 2, {"turn_timer": 30})
    hand = _live(table)
    user = next(seat.user for seat in seats if str(seat.pk) == hand.to_act)
    push_service.status["/p/busy"] = 500
    _subscribe(user, table, Phone(push_service.url("/p/busy")))
    table_clock_run(table_id=table.pk, now=hand.turn_deadline)
    assert push_send_pending() == {"failed": 1}
    assert push_send_pending() == {}
    assert PushSubscription.objects.count() == 1  # only 404/410 mean gone


@pytest.mark.django_db
def test_a_push_that_waited_too_long_is_dropped(vapid_key, push_service):
    table, seats = open_table("faras", 2, {"turn_timer": 30})
    hand = _live(table)
    user = next(seat.user for seat in seats if str(seat.pk) == hand.to_act)
    _subscribe(user, table, Phone(push_service.url("/p/late")))
    table_clock_run(table_id=table.pk, now=hand.turn_deadline)
    assert push_send_pending(now=timezone.now() + timedelta(minutes=6)) == {"failed": 1}
    assert push_send_pending() == {}
    assert push_service.received == []


@pytest.mark.django_db
def test_a_reminder_whose_turn_is_over_before_it_leaves_is_not_sent(vapid_key, push_service):
    table, seats = open_table("faras", 3, {"turn_timer": 30})
    hand = _live(table)
    seat = next(seat for seat in seats if str(seat.pk) == hand.to_act)
    _subscribe(seat.user, table, Phone(push_service.url("/p/acted")))
    table_clock_run(table_id=table.pk, now=hand.turn_deadline)
    hand_act(table_id=table.pk, seat_id=seat.pk, verb="pack")  # they acted before the sender ran
    assert push_send_pending() == {"past": 1}
    assert push_service.received == []


@pytest.mark.django_db
def test_the_push_speaks_the_language_of_the_page_that_subscribed(vapid_key, push_service):
    table, seats = open_table("faras", 2, {"turn_timer": 30})
    hand = _live(table)
    seat = next(seat for seat in seats if str(seat.pk) == hand.to_act)
    phone = Phone(push_service.url("/p/de"))
    client = Client(HTTP_ACCEPT_LANGUAGE="de")
    client.force_login(seat.user)
    answer = client.post(
        reverse("table_push", kwargs={"code": table.code}), {"subscription": json.dumps(phone.subscription())}
    )
    assert answer.status_code == 200
    table_clock_run(table_id=table.pk, now=hand.turn_deadline)
    assert push_send_pending() == {"sent": 1}
    push = phone.read(push_service.to("/p/de")[0][1])
    assert push["title"] == "Du bist dran" and push["body"] == f"Tisch {table.code} wartet auf dich."


#: A process that starts: it runs the table clock's sweep and its receivers once (tables.background_threads).
FRESH_PROCESS = """
import django
django.setup()
from tables.services import table_clock_sweep
from tables.background_threads import swept
table_clock_sweep()
for _receiver, error in swept.send_robust(sender=None):
    if isinstance(error, Exception):
        raise error
"""


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_a_push_queued_by_a_process_that_died_is_sent_once_by_fresh_processes(vapid_key, push_service):
    table, seats = open_table("faras", 2, {"turn_timer": 30})
    hand = _live(table)
    user = next(seat.user for seat in seats if str(seat.pk) == hand.to_act)
    phone = Phone(push_service.url("/p/fresh"))
    _subscribe(user, table, phone)
    # The reminder is written and its push queued; then the process dies before it sends.
    table_clock_run(table_id=table.pk, now=hand.turn_deadline)
    assert list(PushMessage.objects.values_list("result", flat=True)) == [""]
    db = connection.settings_dict
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "config.settings",
        "DATABASE_URL": f"postgres://{db['USER']}:{db['PASSWORD']}@{db['HOST']}:{db['PORT']}/{db['NAME']}",
        "DASHAIN_VAPID_PRIVATE_KEY": settings.DASHAIN_VAPID_PRIVATE_KEY,
        "DASHAIN_PUSH_ALLOW_LOCAL": "true",
        "DASHAIN_REDIS_WITHOUT_PASSWORD": "true",
        "DASHAIN_INPROCESS_WORKER": "false",
    }
    for _restart in range(2):  # two restarts, one after the other
        done = subprocess.run(
            [sys.executable, "-c", FRESH_PROCESS], env=env, cwd=ROOT, capture_output=True, text=True, timeout=120
        )
        assert done.returncode == 0, done.stderr[-2000:]
    _wait_for(push_service, "/p/fresh", 1)
    [(_headers, body)] = push_service.to("/p/fresh")
    assert phone.read(body)["title"] == "Your turn"
    assert list(PushMessage.objects.values_list("result", flat=True)) == ["sent"]


# --- off without keys -------------------------------------------------------------------------


@pytest.mark.django_db
def test_without_a_vapid_key_the_feature_is_cleanly_off(settings, push_service):
    settings.DASHAIN_VAPID_PRIVATE_KEY = ""
    settings.DASHAIN_PUSH_ALLOW_LOCAL = True
    table, seats = open_table("faras", 2, {"turn_timer": 30})
    client = Client()
    client.force_login(seats[0].user)
    page = client.get(reverse("table_detail", kwargs={"code": table.code}))
    assert page.status_code == 200 and b'id="push-optin"' not in page.content
    response = client.post(
        reverse("table_push", kwargs={"code": table.code}),
        {"subscription": json.dumps(Phone(push_service.url("/p/off")).subscription())},
    )
    assert response.status_code == 400 and response.json()["code"] == "push_off"
    hand = _live(table)
    table_clock_run(table_id=table.pk, now=hand.turn_deadline)
    assert not PushMessage.objects.exists() and push_send_pending() == {}
    # A key that does not read is the same: off, no crash.
    settings.DASHAIN_VAPID_PRIVATE_KEY = "not-a-key"
    assert client.get(reverse("table_detail", kwargs={"code": table.code})).status_code == 200


@pytest.mark.django_db
def test_with_a_key_the_table_page_offers_the_one_tap_opt_in_off_by_default(vapid_key):
    table, seats = open_table("faras", 2)
    client = Client()
    client.force_login(seats[1].user)
    page = client.get(reverse("table_detail", kwargs={"code": table.code})).content.decode()
    assert 'id="push-optin"' in page and 'aria-pressed="false"' in page and "push_optin.js" in page
    manifest = client.get(reverse("web_manifest"))
    assert manifest["Content-Type"] == "application/manifest+json" and manifest.json()["display"] == "standalone"
    worker = client.get("/sw.js")
    assert worker.status_code == 200 and worker["Content-Type"].startswith("text/javascript")
    assert b'addEventListener("push"' in worker.content
