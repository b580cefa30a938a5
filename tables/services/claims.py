""" "This is me": a guest on a new browser asks the host for her own seat back (issue 38).

A guest who lost her browser (a new phone, cookies cleared) opens the table's invite link
and types her name; it is taken, by her own seat. Instead of a second seat (and a second
buy-in) she may ask the host to give her that seat on this browser. The host's tap is the
guard: anyone with the invite link could type her name, so the request names the seat, and
the host's screen says that the seat and its chips go to the browser that asks.

The log is the truth, as for every request to the host (``tables.services.requests``):
``request_made`` with ``what: "claim"``, ``seat: null`` (the asker has no seat), ``claim``:
the seat asked for, ``name``: its name, and ``who``: the asker's key (a digest of her
session's token, never sent). It ends with exactly one of ``request_approved``,
``request_denied`` or ``request_cancelled``. Once the host approved, the asker's page takes
the seat (:func:`seat_claim_take`, which needs her session's token) as a seat link moves it
(``hand_end.seat_move``: one more move, the old browser's pages closed by ``seat_moved``,
the hands dealt before, the live one included, a watcher's), and at once, during a hand she
is dealt into too, so that nothing waits for the lost browser. That hand is played out for
her: nobody is shown her cards of it any more, and if she still has decisions in it the
away rule makes them at once, without sitting her out (:func:`_hand_played_out`); she plays
from the next hand on the new browser. (A seat link moves a seat dealt into the live hand
only when that hand ends: ``seat_move_when_free``.)

Only a guest's seat may be claimed (an account's seat comes back by signing in; a computer's
or a local player's has no browser), never a banned one. Against misuse: one claim waiting
per seat and per asker; an asker has a player's limits (``REQUESTS_PER_WINDOW`` asks in
``REQUEST_WINDOW``, none in ``AFTER_DENIAL`` after a no), and nobody may claim a seat in the
``AFTER_DENIAL`` after a claim of it was denied (a stranger with a fresh session each time is
a new asker).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from accounts.names import name_key
from engine.games import get_game
from tables import selectors
from tables.events import EventKind
from tables.models import Event, Seat, Table
from tables.services.acting import least_move, move_play
from tables.services.errors import ServiceError
from tables.services.hand_end import seat_move
from tables.services.hosting import _clean_name, invite_token_matches
from tables.services.log import TableLog
from tables.services.push import push_queue
from tables.services.requests import AFTER_DENIAL, CLAIM, REQUEST_WINDOW, REQUESTS_PER_WINDOW, requester_key
from tables.services.seat_state import away_for_hand_mark, decisions_left, moved_in_hand_mark, players_of
from tables.services.write import table_write

_KINDS = (
    EventKind.REQUEST_MADE,
    EventKind.REQUEST_APPROVED,
    EventKind.REQUEST_DENIED,
    EventKind.REQUEST_CANCELLED,
)
_STATES: dict[str, str] = {
    EventKind.REQUEST_MADE: "waiting",
    EventKind.REQUEST_APPROVED: "approved",
    EventKind.REQUEST_DENIED: "denied",
    EventKind.REQUEST_CANCELLED: "withdrawn",
}


def _token(guest_token: object) -> str:
    if not isinstance(guest_token, str) or not 20 <= len(guest_token) <= 64:
        raise ServiceError("no_session", _("Your session has expired; open the link again."))
    return guest_token


def seat_named(table: Table, name: object) -> Seat | None:
    """The seat at ``table`` whose name is ``name`` as people read it (``name_key``), if any."""
    if not isinstance(name, str) or not name.strip():
        return None
    wanted = name_key(name)
    return next((seat for seat in Seat.objects.filter(table=table) if name_key(seat.display_name) == wanted), None)


def seat_claimable(table: Table, name: object) -> Seat | None:
    """The seat a browser could ask for as "This is me" under ``name``: a guest's, not banned.
    ``None`` for an account's, a computer's or a local player's seat, a banned one, or no seat."""
    seat = seat_named(table, name)
    return seat if seat is not None and seat.is_guest and not seat.banned else None


def seat_claim_ask(*, code: object, invite_token: object, guest_name: object, guest_token: object) -> int:
    """A browser with the invite link and no seat at the table asks the host for the guest's
    seat called ``guest_name``. Returns the request's id (its seq).

    Refused, writing nothing: ``no_invite`` (no such table, or not its invite link: the same
    answer), ``ended``, ``not_dealt`` (a night played with real cards), ``other_seat`` (this
    browser has a seat here already), ``banned``, ``not_claimable`` (no guest's seat of that
    name, or an account's, a local player's, a banned one), ``name_reserved`` (a computer's
    name), ``request_pending`` (this browser waits for an answer already), ``claim_pending``
    (someone's claim of that seat waits already), ``too_many_requests``, ``no_session``."""
    token = _token(guest_token)
    name = _clean_name(guest_name)
    table = selectors.table_by_code(code=code) if isinstance(code, str) else None
    if table is None or not invite_token_matches(table, invite_token):
        raise ServiceError("no_invite", _("Joining needs the table's invite link; ask the host for it."))
    with table_write(table.pk) as (table, log):
        if table.status == Table.Status.ENDED:
            raise ServiceError("ended", _("This game has ended."))
        if table.settings.get("not_dealt"):  # a kitchen night: its page lists no such request
            raise ServiceError("not_dealt", _("This table is played with real cards: nobody is dealt here."))
        mine = selectors.seat_for_viewer(table=table, guest_token=token)
        if mine is not None and mine.banned:
            raise ServiceError("banned", _("The host has removed you from this game."))
        if mine is not None:
            raise ServiceError("other_seat", _("This browser already has a seat at this table."))
        seat = seat_named(table, name)
        if seat is None or not seat.is_guest or seat.banned:
            if seat is not None and seat.user_id is not None:
                message = _("%(name)s's seat belongs to an account: log in to come back to it.")
            else:
                message = _("There is no guest's seat called %(name)s to ask for.")
            raise ServiceError("not_claimable", message % {"name": name}, field="display_name")
        who = requester_key(user=None, guest_token=token)
        _require_may_claim(table, seat, who)
        event = log.append(
            EventKind.REQUEST_MADE,
            {"seat": None, "claim": seat.pk, "name": seat.display_name, "what": CLAIM, "number": None, "who": who},
        )
        push_queue(log, about="approval", host=True)
    return event.seq


def _require_may_claim(table: Table, seat: Seat, who: str) -> None:
    for pending in selectors.requests_pending(table=table, private=True):
        if pending.get("who") == who:
            raise ServiceError("request_pending", _("You have already asked the host; wait for the answer."))
        if pending.get("claim") == seat.pk:
            raise ServiceError(
                "claim_pending",
                _("Someone has already asked the host for this seat; wait until the host has answered."),
            )
    since = timezone.now()
    requests = Event.objects.filter(table=table, kind__in=_KINDS)
    if (
        requests.filter(kind=EventKind.REQUEST_MADE, payload__who=who, created_at__gte=since - REQUEST_WINDOW).count()
        >= REQUESTS_PER_WINDOW
    ):
        raise ServiceError("too_many_requests", _("You have asked too often; try again in a few minutes."))
    denied = requests.filter(kind=EventKind.REQUEST_DENIED, created_at__gte=since - AFTER_DENIAL)
    if denied.filter(payload__who=who).exists() or denied.filter(payload__claim=seat.pk).exists():
        raise ServiceError("too_many_requests", _("The host has just said no; wait a minute before asking again."))


def _latest_claim(table: Table, who: str) -> list[tuple[int, str, dict[str, Any]]]:
    """The events of ``who``'s latest claim at ``table`` (its request, then its end if any)."""
    events = list(
        Event.objects.filter(table=table, kind__in=_KINDS, payload__who=who, payload__what=CLAIM)
        .order_by("seq")
        .values_list("seq", "kind", "payload")
    )
    made = [i for i, (_seq, kind, _payload) in enumerate(events) if kind == EventKind.REQUEST_MADE]
    return events[made[-1] :] if made else []


def seat_claim_state(*, table: Table, guest_token: str | None) -> tuple[str, str] | None:
    """This browser's latest claim at ``table``: (``"waiting"``, ``"approved"``, ``"denied"``
    or ``"withdrawn"``, the name of the seat asked for), or ``None`` when it never claimed."""
    if not guest_token:
        return None
    events = _latest_claim(table, requester_key(user=None, guest_token=guest_token))
    if not events:
        return None
    return _STATES[events[-1][1]], str(events[0][2]["name"])


@dataclass(frozen=True)
class ClaimTaken:
    """What :func:`seat_claim_take` did: the ``seat`` this browser holds now, and whether
    this take moved it during a hand in which she still had decisions (``hand_played_out``:
    the away rule makes them; her page says so)."""

    seat: Seat
    hand_played_out: bool = False


def _hand_played_out(log: TableLog, seat: Seat) -> bool:
    """The seat has just moved to another browser: if it is dealt into the live hand, that
    hand is played out for it. Nobody is shown its view of the hand any more
    (``models.MOVED_KEY``), and if it still has decisions in it, it is away for the rest of
    it without sitting out: its turn now, if it is its turn, is the away rule's least move
    at once (``"by": "claim"``), and each later one is too (``"by": "away"``,
    ``acting.move_play``). Its status stays as it was, so it is dealt into the next hand.
    Returns whether it had decisions left (nothing to do for one that packed or is all in)."""
    hand, state, action_seq = selectors.live_hand_and_state(table=log.table)
    name = str(seat.pk)
    if hand is None or state is None or name not in players_of(hand):
        return False
    moved_in_hand_mark(hand, name)
    game = get_game(log.table.game)
    if not decisions_left(game, state, name):
        log.hand_now(hand, state, action_seq)
        return False
    action = least_move(game, state, name) if game.to_act(state) == name else None
    if action is None:
        away_for_hand_mark(hand, name)
        log.hand_now(hand, state, action_seq)
    else:
        move_play(log, hand=hand, state=state, action=action, actor_id=seat.pk, by="claim", away_for_hand=True)
    return True


def seat_claim_take(*, table_id: int, guest_token: object) -> ClaimTaken:
    """The browser whose claim the host approved takes the seat now, as its seat link moves
    a seat between hands: the same seat, name and chips, the old browser's pages closed.
    During a hand the seat is dealt into, that hand is played out for her
    (:func:`_hand_played_out`: none of its cards reach this browser, and nothing waits for
    the lost one); she plays from the next hand. Taking again changes nothing.

    Refused, changing nothing: ``no_claim`` (no approved claim of this browser's),
    ``banned`` (the seat was banned since), ``claim_spent`` (the seat moved to another
    browser after the host's yes), ``other_seat`` (this browser came to hold, or to wait for,
    another seat), ``link_waiting`` (the seat's link was opened in another browser during
    this hand, which takes the seat when the hand ends)."""
    token = _token(guest_token)
    who = requester_key(user=None, guest_token=token)
    with table_write(table_id) as (table, log):
        events = _latest_claim(table, who)
        if not events or events[-1][1] != EventKind.REQUEST_APPROVED:
            raise ServiceError("no_claim", _("The host has not given you that seat."))
        approved_at = events[-1][0]
        seat = Seat.objects.get(table=table, pk=events[0][2]["claim"])
        if seat.guest_token == token:
            return ClaimTaken(seat)
        if seat.banned:
            raise ServiceError("banned", _("The host has removed you from this game."))
        moved = Event.objects.filter(
            table=table, kind=EventKind.SEAT_MOVED, payload__seat=seat.pk, seq__gt=approved_at
        ).exists()
        if moved:
            raise ServiceError(
                "claim_spent", _("The seat has moved to another browser since the host said yes; ask again.")
            )
        others = Seat.objects.filter(table=table).exclude(pk=seat.pk)
        if others.filter(guest_token=token).exists() or others.filter(link_claim=token).exists():
            raise ServiceError("other_seat", _("This browser already has a seat at this table."))
        if seat.link_claim and seat.link_claim != token:
            raise ServiceError(
                "link_waiting",
                _("Another browser takes this seat when the hand ends; ask the host for your seat link."),
            )
        seat_move(log, seat=seat, guest_token=token)
        played_out = _hand_played_out(log, seat)
    return ClaimTaken(seat, hand_played_out=played_out)


def seat_claim_withdraw(*, table_id: int, guest_token: object) -> int:
    """The asking browser takes its claim back before the host answers (nobody else can: the
    claim is found by its session's key). Returns the seq of ``request_cancelled``.
    Refused, changing nothing: ``no_request`` (nothing of this browser's waits)."""
    who = requester_key(user=None, guest_token=_token(guest_token))
    with table_write(table_id) as (table, log):
        mine = [r for r in selectors.requests_pending(table=table, private=True) if r.get("who") == who]
        if not mine or mine[0]["what"] != CLAIM:
            raise ServiceError("no_request", _("You have no request waiting at this table."))
        event = log.append(
            EventKind.REQUEST_CANCELLED,
            {
                "request": mine[0]["request"],
                "seat": None,
                "claim": mine[0]["claim"],
                "what": CLAIM,
                "name": mine[0]["name"],
                "who": who,
                "by": "asker",
            },
        )
    return event.seq
