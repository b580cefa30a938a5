"""Asking the host: seats and buy-backs at a table where the host approves them.

With the table setting ``approve_seats`` on (``tables.services.table_settings``), a player (a
user or a guest; never the host, never a computer) does not sit down or buy in again at
once: they ask, and the host approves or denies in the host's panel of the table page.

The log is the truth. A request is the event ``request_made`` (``seat``, ``name``,
``what``: ``"seat"`` or ``"buy_back"``, ``number``: the seat asked for or null, ``chips``
and ``price``: the buy-in then, ``buy_ins``: the player's buy-ins so far); its
seq is its id. It ends with exactly one of ``request_approved``, ``request_denied`` or
``request_cancelled`` naming it (``request``: that seq). Pending requests are the ones
not ended, of players not banned since (``tables.selectors.requests_pending``). Approving re-does every check of
sitting down or buying in (the seat still free, buy-backs left, not banned, the chip
value; the game not over, by ``table_write``), holds to the buy-in the player asked to pay
(``chips``, ``price``: the host may not approve at another) and to no buy-in of theirs since
(``buy_ins``), and then does it, in the same transaction
and through the same code as a player's own ``seat_take`` / ``seat_buy_back``.

Someone not at the table who has only its code (the lobby's code box) may ask the host to
let them in: ``join_ask`` records ``request_made`` with ``what: "join"``, no seat, and
``who`` (``user:<id>``, or ``guest:`` and a digest of the guest's session token, never the
token itself). Approving records the answer; the seat row (a watcher's) is made when the
asker's page next looks (``join_approved_take``), as their session is needed for it. Until
the host answers, the asker may withdraw (``join_withdraw``; nobody else can). To
a stranger, asking at a table that does not exist looks the same as asking at one that
does (nothing is told but "asked"); the view counts each ask against the address's
rate limit of failed joins (``config.limits``).

Against spam: one pending request per player; at most ``REQUESTS_PER_WINDOW`` requests
per player in ``REQUEST_WINDOW``; after a denial the player waits ``AFTER_DENIAL``
before asking again. Both counts are read from the log. The same holds for each asker to
join (by ``who``), and at most ``MAX_JOINS_WAITING`` requests to join wait at a table (a
guest session is a new asker each time, and addresses are many); beyond, an ask records
nothing and looks the same.
"""

from __future__ import annotations

import hashlib
from datetime import timedelta
from decimal import Decimal
from typing import TYPE_CHECKING

from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from accounts.names import name_key
from tables import selectors
from tables.events import EventKind, NewEvent
from tables.messages import RequestPublic
from tables.models import Event, Seat, Table
from tables.services.errors import ServiceError
from tables.services.hosting import _clean_name, require_host
from tables.services.log import TableLog
from tables.services.push import push_queue
from tables.services.seats import (
    approval_needed,
    seat_buy_back_check,
    seat_buy_back_now,
    seat_number_check,
    seat_take_check,
    seat_take_now,
)
from tables.services.write import require_dealt, seat_at, table_write

if TYPE_CHECKING:
    from django.contrib.auth.models import AnonymousUser

    from accounts.models import User

WHAT = ("seat", "buy_back")
JOIN = "join"
CLAIM = "claim"  # a guest's "This is me" (tables.services.claims)
REQUESTS_PER_WINDOW = 5
REQUEST_WINDOW = timedelta(minutes=10)
AFTER_DENIAL = timedelta(seconds=60)
# Requests to join (someone with only the code) waiting at one table at most.
MAX_JOINS_WAITING = 10


def seat_ask(*, table_id: int, seat_id: int, what: object, number: object = None) -> int:
    """Ask the host for a seat (``what="seat"``, in ``number`` or any free one) or to buy in
    again (``what="buy_back"``). Returns the request's id (its seq in the log).

    Refused (and nothing written) when the table needs no approval, when the player could
    not have it now anyway (banned, seated already, no buy-backs left, the seat taken...),
    when they already wait for an answer, or when they ask too often.
    """
    with table_write(table_id) as (table, log):
        require_dealt(table)  # a kitchen night's people ask on its page, under its rules
        return seat_ask_record(table, log, seat_id, what, number)


def seat_ask_record(table: Table, log: TableLog, seat_id: int, what: object, number: object = None) -> int:
    """:func:`seat_ask` inside the caller's ``table_write``: for a kitchen night, whose own
    rules come first (``kitchen.services.kitchen_ask``)."""
    if what not in WHAT:
        raise ServiceError("bad_request", _("Ask for a seat or to buy in again."))
    seat_number_check(number)
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
        {
            "seat": seat.pk,
            "name": seat.display_name,
            "what": what,
            "number": number,
            # What the player asks to pay, and has bought so far: approving holds to both.
            "chips": table.buy_in_chips,
            "price": str(Decimal(table.buy_in_price)),
            "buy_ins": seat.buy_ins,
        },
        actor=seat,
    )
    push_queue(log, about="approval", host=True)  # the host's phone hears it (issue 28)
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


def _pending(table: Table, request: object) -> RequestPublic:
    if isinstance(request, bool) or not isinstance(request, int):
        raise ServiceError("bad_request", _("Say which request (its number)."))
    for pending in selectors.requests_pending(table=table, private=True):
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
        require_host(table, seat_id)
        pending = _pending(table, request)
        if pending["what"] == JOIN:
            _require_free_name_for(table, pending["name"])
            approval = log.append(
                EventKind.REQUEST_APPROVED,
                {
                    "request": pending["request"],
                    "seat": None,
                    "what": JOIN,
                    "who": pending["who"],
                    "name": pending["name"],
                },
            )
            return approval.seq
        if pending["what"] == CLAIM:
            return _claim_approve(table, log, pending)
        player = seat_at(table, pending["seat"])
        _require_as_asked(table, player, pending)
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


def _claim_approve(table: Table, log: TableLog, pending: RequestPublic) -> int:
    """The host gives a guest's seat to the browser that said "This is me"
    (``tables.services.claims``): recorded here; that browser's page takes the seat. Refused
    when the seat has moved to another browser since the request (its seat link was used,
    most likely by its owner): the request is about a browser that is not there any more."""
    seat = seat_at(table, pending["claim"])
    moved = Event.objects.filter(
        table=table, kind=EventKind.SEAT_MOVED, payload__seat=seat.pk, seq__gt=pending["request"]
    ).exists()
    if moved:
        raise ServiceError(
            "request_stale",
            _("%(name)s's seat has moved to another browser since this request: deny it.")
            % {"name": seat.display_name},
        )
    approval = log.append(
        EventKind.REQUEST_APPROVED,
        {
            "request": pending["request"],
            "seat": None,
            "claim": seat.pk,
            "what": CLAIM,
            "name": seat.display_name,
            "who": pending["who"],
        },
    )
    return approval.seq


def _require_as_asked(table: Table, player: Seat, pending: RequestPublic) -> None:
    """The request still says what the player wants: the buy-in they asked to pay (the host
    may have changed it since, at the same chip value: 1,000 chips for 10.00 is not 100,000
    for 1,000.00), and no buy-in of theirs since (the host turned approval off and they sat
    or bought in at once: approving would buy them a stack they never asked for). A request
    from before these were recorded has neither."""
    name = {"name": player.display_name}
    if pending.get("buy_ins") is not None and player.buy_ins != pending["buy_ins"]:
        raise ServiceError(
            "request_stale", _("%(name)s has bought in since asking: deny the request, and they can ask again.") % name
        )
    if pending.get("chips") is not None and (
        table.buy_in_chips != pending["chips"] or Decimal(table.buy_in_price) != Decimal(str(pending["price"]))
    ):
        raise ServiceError(
            "buy_in_changed",
            _("The buy-in has changed since %(name)s asked: deny the request, and they can ask again at the new one.")
            % name,
        )


def request_deny(*, table_id: int, seat_id: int, request: object) -> int:
    """The host says no to a pending request; the player is told. Returns its seq."""
    with table_write(table_id) as (table, log):
        require_host(table, seat_id)
        pending = _pending(table, request)
        payload = {
            "request": pending["request"],
            "seat": pending["seat"],
            "what": pending["what"],
            "name": pending["name"],
        }
        if pending["what"] in (JOIN, CLAIM):
            payload["who"] = pending["who"]
        if pending["what"] == CLAIM:
            payload["claim"] = pending["claim"]
        event = log.append(EventKind.REQUEST_DENIED, payload)
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


def _cancel(log: TableLog, pending: RequestPublic, *, by: str) -> NewEvent:
    return log.append(
        EventKind.REQUEST_CANCELLED,
        {"request": pending["request"], "seat": pending["seat"], "what": pending["what"], "by": by},
    )


# --- someone with only the code asks to be let in ------------------------------------------------


def requester_key(*, user: User | AnonymousUser | None, guest_token: str | None) -> str:
    """Who asks to join, as the log names them: an account's id, or a digest of a guest's
    session token (the token itself lets its holder act as the guest: it is never logged)."""
    if user is not None and user.is_authenticated:
        return f"user:{user.pk}"
    return "guest:" + hashlib.sha256(str(guest_token).encode()).hexdigest()[:40]


def _asker(
    user: User | AnonymousUser | None, guest_name: object, guest_token: object
) -> tuple[User | None, str, str | None]:
    """(account or None, display name, guest token or None) of someone asking to join."""
    account = user if user is not None and user.is_authenticated else None
    if account is not None:
        return account, " ".join(account.table_name.split()), None
    if not isinstance(guest_token, str) or not 20 <= len(guest_token) <= 64:
        raise ServiceError("no_session", _("Your session has expired; open the link again."))
    return None, _clean_name(guest_name), guest_token


def join_ask(
    *,
    code: object,
    user: User | AnonymousUser | None = None,
    guest_name: object = None,
    guest_token: object = None,
) -> int | None:
    """Ask the host of the table with ``code`` to let this person in (to watch; they sit
    down later like anyone at the table). Returns the request's id, or ``None`` when
    nothing was recorded: no such table, the game over, a night played with real cards (its
    people are let in on its own page, under its rules), a ban, or a request of theirs
    already waiting. The caller answers the same whatever happened, so asking tells a
    stranger nothing about the code. A bad name or an expired session is refused."""
    account, name, token = _asker(user, guest_name, guest_token)
    table = selectors.table_by_code(code=code) if isinstance(code, str) else None
    if table is None or table.status == Table.Status.ENDED or table.settings.get("not_dealt"):
        return None
    who = requester_key(user=account, guest_token=token)
    with table_write(table.pk) as (table, log):
        if selectors.seat_for_viewer(table=table, user=account, guest_token=token) is not None:
            return None  # at the table already (the view takes them there), or banned
        if not _may_ask_join(table, who):
            return None
        event = log.append(
            EventKind.REQUEST_MADE, {"seat": None, "name": name, "what": JOIN, "number": None, "who": who}
        )
        push_queue(log, about="approval", host=True)
    return event.seq


def _may_ask_join(table: Table, who: str) -> bool:
    """Whether ``who`` may ask to be let in now: nothing of theirs waiting, fewer than
    ``MAX_JOINS_WAITING`` requests to join waiting at the table (each guest session is a new
    asker, and addresses are many: the host's list stays short), and the same limits as a
    player's (``REQUESTS_PER_WINDOW``, none in ``AFTER_DENIAL`` after a no)."""
    waiting = [request for request in selectors.requests_pending(table=table, private=True) if request["what"] == JOIN]
    if len(waiting) >= MAX_JOINS_WAITING or any(request.get("who") == who for request in waiting):
        return False
    now = timezone.now()
    mine = Event.objects.filter(table=table, payload__who=who)
    if mine.filter(kind=EventKind.REQUEST_MADE, created_at__gte=now - REQUEST_WINDOW).count() >= REQUESTS_PER_WINDOW:
        return False
    return not mine.filter(kind=EventKind.REQUEST_DENIED, created_at__gte=now - AFTER_DENIAL).exists()


def join_withdraw(*, code: object, user: User | AnonymousUser | None = None, guest_token: object = None) -> int | None:
    """Someone who asked to be let in at ``code`` withdraws their request before the host
    answers: ``request_cancelled`` (``by: "asker"``) ends it, and it leaves the host's list.
    Only the asker can: the request is found by their own key (``requester_key``: their
    account, or the digest of their session's token), never by a number a page could send.
    Returns the seq of the withdrawal, or ``None`` when nothing was recorded because there
    is no such table or the game is over (the caller answers as for a withdrawal: to a
    stranger, a code no table has looks the same).

    Refused, changing nothing: ``request_answered`` (the host let them in or said no
    already), ``no_request`` (nothing of theirs waits here: never asked, withdrawn already,
    or an ask that recorded nothing)."""
    account = user if user is not None and user.is_authenticated else None
    token = guest_token if account is None and isinstance(guest_token, str) and guest_token else None
    if account is None and token is None:
        raise ServiceError("no_session", _("Your session has expired; open the link again."))
    table = selectors.table_by_code(code=code) if isinstance(code, str) else None
    if table is None or table.status == Table.Status.ENDED:
        return None
    who = requester_key(user=account, guest_token=token)
    with table_write(table.pk) as (table, log):
        state = selectors.join_request_state(table=table, who=who)
        if state == "approved":
            raise ServiceError("request_answered", _("The host has already let you in."))
        if state == "denied":
            raise ServiceError("request_answered", _("The host has already said no."))
        mine = [
            request
            for request in selectors.requests_pending(table=table, private=True)
            if request.get("who") == who and request["what"] == JOIN
        ]
        if not mine:
            raise ServiceError("no_request", _("You have no request waiting at this table."))
        event = log.append(
            EventKind.REQUEST_CANCELLED,
            {
                "request": mine[0]["request"],
                "seat": None,
                "what": JOIN,
                "name": mine[0]["name"],
                "who": who,
                "by": "asker",
            },
        )
    return event.seq


def join_answer(*, table: Table, user: User | AnonymousUser | None, guest_token: str | None) -> str | None:
    """The host's answer to this person's latest request to join: ``"approved"``,
    ``"denied"``, ``"waiting"``, ``"withdrawn"`` (they withdrew it), or ``None`` (they
    never asked here)."""
    who = requester_key(user=user, guest_token=guest_token)
    return selectors.join_request_state(table=table, who=who)


def join_approved_take(*, table_id: int, user: User | AnonymousUser | None, guest_token: str | None) -> Seat:
    """Someone the host let in (their latest request to join approved) takes their place
    at the table as a watcher, under the name they asked with. Joining again returns the
    same seat; without an approval it is refused (``no_invite``)."""
    account = user if user is not None and user.is_authenticated else None
    token = None if account is not None else guest_token
    with table_write(table_id) as (table, log):
        existing = selectors.seat_for_viewer(table=table, user=account, guest_token=token)
        if existing is not None and existing.banned:
            raise ServiceError("banned", _("The host has removed you from this game."))
        if existing is not None:
            return existing
        who = requester_key(user=account, guest_token=token)
        if selectors.join_request_state(table=table, who=who) != "approved":
            raise ServiceError("no_invite", _("Joining needs the table's invite link; ask the host for it."))
        name = selectors.join_request_name(table=table, who=who)
        _require_free_name_for(table, name, asker=True)
        if account is not None:
            seat = Seat.objects.create(table=table, user=account, display_name=name)
        else:
            seat = Seat.objects.create(table=table, guest_token=token or "", display_name=name)
        log.append(EventKind.SEAT_JOINED, {"seat": seat.pk, "name": seat.display_name, "guest": seat.is_guest})
    return seat


def _require_free_name_for(table: Table, name: str, *, asker: bool = False) -> None:
    """The name asked with is still free at the table (names are unique there)."""
    wanted = name_key(name)
    taken = Seat.objects.filter(table=table).values_list("display_name", flat=True)
    if any(name_key(other) == wanted for other in taken):
        if asker:
            message = _("Someone at this table is already called %(name)s; ask again with another name.")
        else:
            message = _("Someone at this table is already called %(name)s: deny, and they can ask with another name.")
        raise ServiceError("name_taken", message % {"name": name}, field="display_name")
