"""Asking the host: seats and buy-backs at a table where the host approves them.

With the table setting ``approve_seats`` on (``tables.services.settings``), a player (a
user or a guest; never the host, never a computer) does not sit down or buy in again at
once: they ask, and the host approves or denies in the host's panel of the table page.

The log is the truth. A request is the event ``request_made`` (``seat``, ``name``,
``what``: ``"seat"`` or ``"buy_back"``, ``number``: the seat asked for or null); its
seq is its id. It ends with exactly one of ``request_approved``, ``request_denied`` or
``request_cancelled`` naming it (``request``: that seq). Pending requests are the ones
not ended, of players not banned since (``tables.selectors.requests_pending``). Approving re-does every check of
sitting down or buying in (the seat still free, buy-backs left, not banned, the chip
value; the game not over, by ``table_write``) and then does it, in the same transaction
and through the same code as a player's own ``seat_take`` / ``seat_buy_back``.

Against spam: one pending request per player; at most ``REQUESTS_PER_WINDOW`` requests
per player in ``REQUEST_WINDOW``; after a denial the player waits ``AFTER_DENIAL``
before asking again. Both counts are read from the log.
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from tables import selectors
from tables.events import EventKind
from tables.models import Event, Seat, Table
from tables.services.errors import ServiceError
from tables.services.log import TableLog
from tables.services.seats import (
    approval_needed,
    seat_buy_back_check,
    seat_buy_back_now,
    seat_number_check,
    seat_take_check,
    seat_take_now,
)
from tables.services.tables import _require_host
from tables.services.write import seat_at, table_write

WHAT = ("seat", "buy_back")
REQUESTS_PER_WINDOW = 5
REQUEST_WINDOW = timedelta(minutes=10)
AFTER_DENIAL = timedelta(seconds=60)


def seat_ask(*, table_id: int, seat_id: int, what: object, number: object = None) -> int:
    """Ask the host for a seat (``what="seat"``, in ``number`` or any free one) or to buy in
    again (``what="buy_back"``). Returns the request's id (its seq in the log).

    Refused (and nothing written) when the table needs no approval, when the player could
    not have it now anyway (banned, seated already, no buy-backs left, the seat taken...),
    when they already wait for an answer, or when they ask too often.
    """
    if what not in WHAT:
        raise ServiceError("bad_request", _("Ask for a seat or to buy in again."))
    seat_number_check(number)
    with table_write(table_id) as (table, log):
        seat = seat_at(table, seat_id)
        if what == "seat":
            seat_take_check(table, seat, number)  # type: ignore[arg-type]  # checked above
        else:
            seat_buy_back_check(table, seat, asking=True)
        if not approval_needed(table, seat):
            raise ServiceError("no_approval_needed", _("This table needs no approval: go ahead."))
        _require_may_ask(table, seat)
        event = log.append(
            EventKind.REQUEST_MADE,
            {"seat": seat.pk, "name": seat.display_name, "what": what, "number": number},
            actor=seat,
        )
    return event.seq


def _require_may_ask(table: Table, seat: Seat) -> None:
    if any(request["seat"] == seat.pk for request in selectors.requests_pending(table=table)):
        raise ServiceError("request_pending", _("You have already asked the host; wait for the answer."))
    now = timezone.now()
    recent = Event.objects.filter(
        table=table, kind=EventKind.REQUEST_MADE, actor=seat, created_at__gte=now - REQUEST_WINDOW
    ).count()
    if recent >= REQUESTS_PER_WINDOW:
        raise ServiceError("too_many_requests", _("You have asked too often; try again in a few minutes."))
    denied = Event.objects.filter(
        table=table, kind=EventKind.REQUEST_DENIED, payload__seat=seat.pk, created_at__gte=now - AFTER_DENIAL
    ).exists()
    if denied:
        raise ServiceError("too_many_requests", _("The host has just said no; wait a minute before asking again."))


def _pending(table: Table, request: object) -> dict[str, Any]:
    if isinstance(request, bool) or not isinstance(request, int):
        raise ServiceError("bad_request", _("Say which request (its number)."))
    for pending in selectors.requests_pending(table=table):
        if pending["request"] == request:
            return pending
    raise ServiceError("no_request", _("That request is not waiting for an answer any more."))


# What the host reads when an approval cannot be carried out now (the player's own
# message speaks to the player: "You have no buy-backs left").
_NOT_NOW = {
    "banned": _("%(name)s is banned from this game."),
    "already_seated": _("%(name)s already has a seat."),
    "not_seated": _("%(name)s has no seat any more."),
    "seat_taken": _("The seat %(name)s asked for is taken now: deny the request, and they can ask again."),
    "table_full": _("Every seat is taken now."),
    "no_buy_backs_left": _("%(name)s has no buy-backs left."),
    "hand_in_progress": _("%(name)s is in this hand: approve when it is over."),
    "already_started": _("Hold'em seats are taken before the game starts."),
}


def request_approve(*, table_id: int, seat_id: int, request: object) -> int:
    """The host approves a pending request: the seat is taken or the stack bought, with
    every check done again now. Returns the seq of the approval."""
    with table_write(table_id) as (table, log):
        _require_host(table, seat_id)
        pending = _pending(table, request)
        player = seat_at(table, pending["seat"])
        approval = log.append(
            EventKind.REQUEST_APPROVED,
            {"request": pending["request"], "seat": player.pk, "what": pending["what"]},
        )
        try:
            if pending["what"] == "seat":
                seat_take_now(log, player, pending["number"])
            else:
                seat_buy_back_now(log, player)
        except ServiceError as error:
            if error.code in _NOT_NOW:
                raise ServiceError(error.code, _NOT_NOW[error.code] % {"name": player.display_name}) from None
            raise
    return approval.seq


def request_deny(*, table_id: int, seat_id: int, request: object) -> int:
    """The host says no to a pending request; the player is told. Returns its seq."""
    with table_write(table_id) as (table, log):
        _require_host(table, seat_id)
        pending = _pending(table, request)
        event = log.append(
            EventKind.REQUEST_DENIED,
            {"request": pending["request"], "seat": pending["seat"], "what": pending["what"], "name": pending["name"]},
        )
    return event.seq


def request_cancel(*, table_id: int, seat_id: int) -> int:
    """A player withdraws their own pending request. Returns the seq of the withdrawal."""
    with table_write(table_id) as (table, log):
        seat = seat_at(table, seat_id)
        mine = [request for request in selectors.requests_pending(table=table) if request["seat"] == seat.pk]
        if not mine:
            raise ServiceError("no_request", _("You have not asked the host for anything."))
        event = _cancel(log, mine[0], by="player")
    return event.seq


def _cancel(log: TableLog, pending: dict[str, Any], *, by: str) -> Event:
    return log.append(
        EventKind.REQUEST_CANCELLED,
        {"request": pending["request"], "seat": pending["seat"], "what": pending["what"], "by": by},
    )
