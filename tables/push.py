"""Turn reminders that reach a pocket: Web Push with VAPID (issue 28), the sending side.

Off unless ``DASHAIN_VAPID_PRIVATE_KEY`` holds a key (README, settings): with none, or one
that does not read, :func:`push_enabled` is false, the table page offers nothing, and
nothing is queued or sent.

What is pushed is queued in the database (:class:`tables.models.PushMessage`, by
``tables.services.push.push_queue``) in the transaction that writes the event: the table
clock's turn reminder, a request to the host. :func:`push_send_pending` sends the queue:
after the commit (the Celery task ``tables.push_send``) and at every sweep of the table
clock (``tables.worker.swept``), so a lost task or a restart costs a sweep's interval. Each
message is claimed (``result = "sending"``, committed) before anything is sent, so however
many senders run, in however many processes, across restarts, none is sent twice; a
process that dies between the claim and the send loses that one push.

Not sent (and recorded why): a turn reminder whose turn is over (the player acted, the
hand ended); when a page of the seat is open and visible
(``tables.visibility.seat_visible``), when it waited longer than :data:`STALE`, and when
the push service answers 404 or 410, which also deletes the subscription (the browser
dropped it).

Where the server sends (issue 34): a subscription's endpoint is a URL anyone can write, so
the request goes only to a public address (:func:`address_is_public`: IPv6 forms that carry
an IPv4 address are judged by that address too), to the very address that was checked
(:class:`PinnedAdapter`: the name is resolved once, TLS still names and verifies the host),
and never anywhere else: a redirect is not followed (:class:`NoRedirects`) and counts as a
failure.
"""

from __future__ import annotations

import functools
import ipaddress
import json
import logging
import socket
from datetime import datetime, timedelta
from typing import Any
from urllib.parse import urlsplit

import requests
from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat
from django.conf import settings
from django.db.models import Q
from django.utils import timezone, translation
from django.utils.translation import gettext as _
from py_vapid import Vapid
from py_vapid.utils import b64urlencode
from pywebpush import WebPushException, webpush
from requests.adapters import HTTPAdapter

from tables.models import Hand, PushMessage, Table, table_group_name
from tables.visibility import seat_visible

logger = logging.getLogger(__name__)

#: A push still unsent after this long is dropped: a turn reminder is news of now.
STALE = timedelta(minutes=5)
#: How long a push service keeps a message for a phone that is offline (seconds).
TTL = 120
#: The longest wait for a push service's answer (seconds).
TIMEOUT = 10
#: Messages one call sends at most; the next sweep takes the rest.
BATCH = 100


@functools.cache
def _vapid(key: str) -> Vapid | None:
    try:
        return Vapid.from_string(private_key=key)
    except Exception:
        logger.error("DASHAIN_VAPID_PRIVATE_KEY does not read as a VAPID key: Web Push is off")
        return None


def vapid() -> Vapid | None:
    """The site's VAPID key, or None when push is off (no key, or one that does not read)."""
    key = (getattr(settings, "DASHAIN_VAPID_PRIVATE_KEY", "") or "").strip()
    return _vapid(key) if key else None


def push_enabled() -> bool:
    return vapid() is not None


def public_key() -> str:
    """The applicationServerKey a browser subscribes with (base64url, uncompressed point); "" when off."""
    key = vapid()
    if key is None:
        return ""
    raw = key.public_key.public_bytes(Encoding.X962, PublicFormat.UncompressedPoint)
    encoded: str = b64urlencode(raw)
    return encoded


#: IPv6 ranges that carry an IPv4 address in their last 32 bits: IPv4-compatible (::/96,
#: RFC 4291, deprecated), IPv4-translated (::ffff:0:0:0/96, RFC 2765) and the well-known
#: NAT64 prefix (64:ff9b::/96, RFC 6052). IPv4-mapped (::ffff:0:0/96), 6to4 (2002::/16) and
#: Teredo (2001::/32) are read by the ``ipaddress`` module itself.
_LAST_32_BITS_IPV4 = tuple(ipaddress.IPv6Network(net) for net in ("::/96", "::ffff:0:0:0/96", "64:ff9b::/96"))
#: Local-use NAT64 (RFC 8215): not globally reachable (IANA), wherever in it the IPv4 address
#: sits (that depends on the prefix length each network chooses), so never public here.
_LOCAL_NAT64 = ipaddress.IPv6Network("64:ff9b:1::/48")


def embedded_ipv4(ip: ipaddress.IPv6Address) -> list[ipaddress.IPv4Address]:
    """The IPv4 addresses an IPv6 address carries, which a packet to it reaches in the end
    (through a translator, a relay or the host's own stack): none for a plain IPv6 address."""
    found: list[ipaddress.IPv4Address] = []
    if ip.ipv4_mapped is not None:
        found.append(ip.ipv4_mapped)
    if ip.sixtofour is not None:
        found.append(ip.sixtofour)
    if ip.teredo is not None:
        found.extend(ip.teredo)  # the Teredo server and the client behind its NAT
    if any(ip in network for network in _LAST_32_BITS_IPV4):
        found.append(ipaddress.IPv4Address(int(ip) & 0xFFFFFFFF))
    return found


def address_is_public(address: str) -> bool:
    """Whether the server may send to ``address``: a globally reachable unicast address; an
    IPv6 address that carries an IPv4 one only when that IPv4 address is too."""
    ip = ipaddress.ip_address(address.split("%")[0])
    if not ip.is_global or ip.is_multicast:
        return False
    if isinstance(ip, ipaddress.IPv6Address):
        if ip in _LOCAL_NAT64:
            return False
        return all(address_is_public(str(carried)) for carried in embedded_ipv4(ip))
    return True


class EndpointRefused(Exception):
    """The site will not send to this endpoint; ``code`` says why (``not_https``,
    ``unknown_host``, ``private_address``)."""

    def __init__(self, code: str) -> None:
        super().__init__(code)
        self.code = code


def endpoint_address(endpoint: str) -> str:
    """The one address the server sends ``endpoint``'s pushes to, resolved now and checked,
    or :class:`EndpointRefused`.

    A subscription's endpoint is where this server makes a request: it must be https to a
    host whose every address is public, or anyone could point the server at a service on
    its own network. ``DASHAIN_PUSH_ALLOW_LOCAL`` (DEBUG, tests) lifts both rules, not the
    resolving once nor the refusal to follow a redirect.
    """
    parts = urlsplit(endpoint)
    if parts.scheme not in ("https", "http") or not parts.hostname:
        raise EndpointRefused("not_https")
    allow_local = settings.DASHAIN_PUSH_ALLOW_LOCAL
    if parts.scheme != "https" and not allow_local:
        raise EndpointRefused("not_https")
    try:
        port = parts.port or (443 if parts.scheme == "https" else 80)
        found = socket.getaddrinfo(parts.hostname, port, type=socket.SOCK_STREAM)
    except (OSError, ValueError, UnicodeError):
        raise EndpointRefused("unknown_host") from None
    addresses = [str(info[4][0]) for info in found]
    if not addresses:
        raise EndpointRefused("unknown_host")
    if not allow_local and not all(address_is_public(address) for address in addresses):
        raise EndpointRefused("private_address")
    return addresses[0]  # in the order the resolver prefers (RFC 6724)


def endpoint_refusal(endpoint: str) -> str | None:
    """Why the site will not send to ``endpoint`` (None: it may); see :func:`endpoint_address`."""
    try:
        endpoint_address(endpoint)
    except EndpointRefused as refused:
        return refused.code
    return None


class PinnedAdapter(HTTPAdapter):
    """Connects to ``address`` (the one :func:`endpoint_address` checked) whatever the name
    would resolve to by the time the request leaves: no second lookup for a DNS answer to
    change between the check and the connection. The request still names its host: the
    ``Host`` header (given with the request) and, over TLS, the server name (SNI) and the
    name the certificate is verified for are the endpoint's."""

    def __init__(self, *, address: str, hostname: str) -> None:
        self.address = address
        self.hostname = hostname
        super().__init__(max_retries=0)

    def build_connection_pool_key_attributes(
        self, request: requests.PreparedRequest, verify: Any, cert: Any = None
    ) -> tuple[dict[str, Any], dict[str, Any]]:
        host_params, pool_kwargs = super().build_connection_pool_key_attributes(request, verify, cert)
        host_params = {**host_params, "host": self.address}
        if host_params.get("scheme") == "https":
            pool_kwargs = {**pool_kwargs, "server_hostname": self.hostname, "assert_hostname": self.hostname}
        return host_params, pool_kwargs


class NoRedirects(requests.Session):
    """A session that never follows a redirect: a 3xx answer is the answer (a failure)."""

    def send(self, request: requests.PreparedRequest, **kwargs: Any) -> requests.Response:
        kwargs["allow_redirects"] = False
        return super().send(request, **kwargs)


def push_session(endpoint: str, address: str) -> requests.Session:
    """The session one push is sent with: to ``address`` only, no redirect followed."""
    session = NoRedirects()
    adapter = PinnedAdapter(address=address, hostname=urlsplit(endpoint).hostname or "")
    session.mount("https://", adapter)
    session.mount("http://", adapter)
    return session


def _payload(message: PushMessage, table: Table, language: str) -> str:
    with translation.override(language or settings.LANGUAGE_CODE):
        if message.kind == "approval":
            title = _("Someone is waiting for your answer")
            body = _("Table %(code)s: open it to answer.") % {"code": table.code}
        else:
            title = _("Your turn")
            body = _("Table %(code)s is waiting for you.") % {"code": table.code}
    return json.dumps(
        {"title": title, "body": body, "url": f"/t/{table.code}/", "tag": f"dashain-{table.code}"},
        ensure_ascii=False,
    )


def _turn_still_theirs(message: PushMessage, seat_id: int) -> bool:
    """Whether the turn a reminder is about is still going: the seat is still to act in the
    live hand, in the turn that started before the reminder (a reminder sent late is no news)."""
    return Hand.objects.filter(
        table_id=message.table_id, ended_at__isnull=True, to_act=str(seat_id), turn_seq__lt=message.seq
    ).exists()


def push_deliver(message: PushMessage) -> str:
    """Send one claimed message; returns its result (a ``PushMessage.Result`` value)."""
    subscription = message.subscription
    key = vapid()
    if subscription is None or key is None:
        return PushMessage.Result.FAILED
    seat = subscription.seat
    table = seat.table
    if message.kind == "turn" and not _turn_still_theirs(message, seat.pk):
        return PushMessage.Result.PAST
    if seat_visible(table_group_name(table.pk, table.code), seat.pk):
        return PushMessage.Result.VISIBLE
    try:
        address = endpoint_address(subscription.endpoint)
    except EndpointRefused:
        subscription.delete()
        return PushMessage.Result.GONE
    try:
        with push_session(subscription.endpoint, address) as session:
            webpush(
                subscription_info={
                    "endpoint": subscription.endpoint,
                    "keys": {"p256dh": subscription.p256dh, "auth": subscription.auth},
                },
                data=_payload(message, table, subscription.language),
                vapid_private_key=key,
                vapid_claims={"sub": settings.DASHAIN_VAPID_SUBJECT},
                ttl=TTL,
                timeout=TIMEOUT,
                # The connection goes to the checked address: the Host header names the endpoint's host.
                headers={"Urgency": "high", "Host": urlsplit(subscription.endpoint).netloc.rpartition("@")[2]},
                requests_session=session,
            )
    except WebPushException as error:
        status = getattr(error.response, "status_code", None)
        if status in (404, 410):
            subscription.delete()  # the browser dropped it: never again
            return PushMessage.Result.GONE
        if status is not None and 300 <= status < 400:
            logger.warning("push %s answered with a redirect (%s), not followed", message.pk, status)
        else:
            logger.warning("push %s refused by its service (%s)", message.pk, status)
        return PushMessage.Result.FAILED
    except Exception:  # unreachable, timed out, a key that does not encrypt
        logger.warning("push %s not sent", message.pk, exc_info=True)
        return PushMessage.Result.FAILED
    return PushMessage.Result.SENT


def push_send_pending(*, now: datetime | None = None) -> dict[str, int]:
    """Send every queued push once; returns how many ended with each result."""
    now = now or timezone.now()
    results: dict[str, int] = {}
    pending = PushMessage.objects.filter(result=PushMessage.Result.PENDING)
    stale = pending.filter(Q(created_at__lt=now - STALE) | Q(subscription__isnull=True))
    if dropped := stale.update(result=PushMessage.Result.FAILED, sent_at=now):
        results[str(PushMessage.Result.FAILED)] = dropped
    if not push_enabled():
        return results
    for message_id in list(pending.order_by("created_at").values_list("pk", flat=True)[:BATCH]):
        # The claim, committed on its own before anything is sent: never twice.
        if not PushMessage.objects.filter(pk=message_id, result=PushMessage.Result.PENDING).update(
            result=PushMessage.Result.SENDING, sent_at=now
        ):
            continue  # another sender has it
        message = PushMessage.objects.select_related("subscription__seat__table").get(pk=message_id)
        result = push_deliver(message)
        PushMessage.objects.filter(pk=message_id).update(result=result)
        results[str(result)] = results.get(str(result), 0) + 1
    return results


def push_sweep(**_kwargs: Any) -> None:
    """The table clock's sweep calls this (``tables.worker.swept``): whatever the fast path missed."""
    if push_enabled():
        push_send_pending()


def push_send_soon() -> None:
    """After a commit that queued pushes: send them in the Celery worker (never raises;
    a lost task costs the sweep's interval)."""
    from tables.tasks import push_send

    try:
        push_send.delay()
    except Exception:
        logger.warning("could not queue the push sender; the sweep will send", exc_info=True)
