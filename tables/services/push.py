"""Web Push subscriptions and the pushes' outbox (issue 28; sending is ``tables.push``).

- :func:`push_subscribe`: a seat's browser asks for turn reminders (the table page's one
  tap). The subscription JSON the browser made is checked whole before anything is stored;
  the endpoint must pass ``tables.push.endpoint_refusal`` (https, public addresses).
- :func:`push_queue`: inside a ``table_write`` block, right after the event it is about is
  appended, queue one push of it to every subscription of the given seats, sent after the
  commit. With push off (no VAPID key) it does nothing and reads nothing.
"""

from __future__ import annotations

import base64
import binascii
from collections.abc import Iterable
from typing import Any

from django.db import transaction
from django.utils.translation import gettext as _

from tables.models import PushMessage, PushSubscription, Seat
from tables.push import endpoint_refusal, push_enabled, push_send_soon
from tables.push import public_key as push_public_key
from tables.services.errors import ServiceError
from tables.services.log import TableLog

__all__ = ["push_public_key", "push_queue", "push_subscribe", "push_unsubscribe", "subscription_parse"]

#: Subscriptions one seat may keep (a phone, a laptop, a tablet...): the oldest goes first.
MAX_PER_SEAT = 5


def _b64url(value: object, *, length: int, field: str) -> str:
    if not isinstance(value, str) or not value or len(value) > 200:
        raise ServiceError("bad_subscription", _("That push subscription is not valid."), field=field)
    try:
        raw = base64.urlsafe_b64decode(value + "=" * (-len(value) % 4))
    except (binascii.Error, ValueError):
        raise ServiceError("bad_subscription", _("That push subscription is not valid."), field=field) from None
    if len(raw) != length:
        raise ServiceError("bad_subscription", _("That push subscription is not valid."), field=field)
    return value


def subscription_parse(data: Any) -> tuple[str, str, str]:
    """(endpoint, p256dh, auth) of a browser's ``PushSubscription.toJSON()``, or ``bad_subscription``."""
    if not isinstance(data, dict):
        raise ServiceError("bad_subscription", _("That push subscription is not valid."))
    endpoint = data.get("endpoint")
    keys = data.get("keys")
    if not isinstance(endpoint, str) or not endpoint or len(endpoint) > 1000 or not isinstance(keys, dict):
        raise ServiceError("bad_subscription", _("That push subscription is not valid."))
    p256dh = _b64url(keys.get("p256dh"), length=65, field="p256dh")
    auth = _b64url(keys.get("auth"), length=16, field="auth")
    if endpoint_refusal(endpoint) is not None:
        raise ServiceError("bad_push_service", _("Turn reminders can only be sent to a public https push service."))
    return endpoint, p256dh, auth


def push_subscribe(*, seat: Seat, data: Any, language: str = "") -> PushSubscription:
    """Store a browser's subscription for ``seat`` (the caller's own seat: the view finds
    it from the session, never from the request). The same endpoint again updates its keys."""
    if not push_enabled():
        raise ServiceError("push_off", _("Turn reminders by push are not set up on this site."))
    if seat.banned or not (seat.user_id or seat.guest_token):
        raise ServiceError("not_seated", _("Only a player at this table can ask for its reminders."))
    endpoint, p256dh, auth = subscription_parse(data)
    with transaction.atomic():
        # The same browser twice at once: update_or_create retries the read on the unique key.
        subscription, _created = PushSubscription.objects.update_or_create(
            seat=seat, endpoint=endpoint, defaults={"p256dh": p256dh, "auth": auth, "language": language[:10]}
        )
        extra = PushSubscription.objects.filter(seat=seat).order_by("-created_at", "-pk").values_list("pk", flat=True)
        PushSubscription.objects.filter(pk__in=list(extra[MAX_PER_SEAT:])).delete()
    return subscription


def push_unsubscribe(*, seat: Seat, endpoint: Any) -> int:
    """Forget this seat's subscription with ``endpoint`` (or all of them, with None)."""
    found = PushSubscription.objects.filter(seat=seat)
    if endpoint is not None:
        if not isinstance(endpoint, str):
            raise ServiceError("bad_subscription", _("That push subscription is not valid."))
        found = found.filter(endpoint=endpoint)
    deleted, _kinds = found.delete()
    return deleted


def push_queue(log: TableLog, *, about: str, seat_ids: Iterable[int] = (), host: bool = False) -> int:
    """Queue a push of the event just appended (``log.last_seq``) to every subscription of
    ``seat_ids`` (or, with ``host``, of the host's seat); sent after the commit. Returns how
    many were queued. ``about``: what the push says, "turn" or "approval". With push off:
    nothing, and no query."""
    if not push_enabled():
        return 0
    table, seq = log.table, log.last_seq
    found = PushSubscription.objects.filter(seat__table=table)
    found = found.filter(seat__user_id=table.host_id) if host else found.filter(seat_id__in=list(seat_ids))
    subscriptions = list(found.values_list("pk", flat=True))
    if not subscriptions:
        return 0
    PushMessage.objects.bulk_create(
        [PushMessage(subscription_id=pk, table=table, seq=seq, kind=about) for pk in subscriptions],
        ignore_conflicts=True,
    )
    log.on_commit(push_send_soon)
    return len(subscriptions)
