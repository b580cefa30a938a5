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

from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat
from django.conf import settings
from django.db.models import Q
from django.utils import timezone, translation
from django.utils.translation import gettext as _
from py_vapid import Vapid
from py_vapid.utils import b64urlencode
from pywebpush import WebPushException, webpush

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
    return b64urlencode(raw)


def _address_is_public(address: str) -> bool:
    ip = ipaddress.ip_address(address)
    return ip.is_global and not ip.is_multicast


def endpoint_refusal(endpoint: str) -> str | None:
    """Why the site will not send to ``endpoint`` (None: it may).

    A subscription's endpoint is where this server makes a request: it must be https to a
    host whose every address is public, or anyone could point the server at a service on
    its own network. ``DASHAIN_PUSH_ALLOW_LOCAL`` (DEBUG, tests) lifts both rules.
    """
    parts = urlsplit(endpoint)
    if parts.scheme not in ("https", "http") or not parts.hostname:
        return "not_https"
    if settings.DASHAIN_PUSH_ALLOW_LOCAL:
        return None
    if parts.scheme != "https":
        return "not_https"
    try:
        port = parts.port or 443
        addresses = {str(info[4][0]) for info in socket.getaddrinfo(parts.hostname, port, type=socket.SOCK_STREAM)}
    except (OSError, ValueError, UnicodeError):
        return "unknown_host"
    if not addresses or not all(_address_is_public(address.split("%")[0]) for address in addresses):
        return "private_address"
    return None


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
    if endpoint_refusal(subscription.endpoint) is not None:
        subscription.delete()
        return PushMessage.Result.GONE
    try:
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
            headers={"Urgency": "high"},
        )
    except WebPushException as error:
        status = getattr(error.response, "status_code", None)
        if status in (404, 410):
            subscription.delete()  # the browser dropped it: never again
            return PushMessage.Result.GONE
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
