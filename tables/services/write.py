"""The one way to write to a table: lock its row, append to its log, flush, tell after the commit.

Every service that changes a table does so inside :func:`table_write`::

    with table_write(table_id) as (table, log):
        seat = seat_at(table, seat_id)           # refusals raise ServiceError: nothing is written
        ...
        log.append(EventKind.SEAT_SAT_OUT, {"seat": seat.pk})

It opens one transaction, locks the table row (``select_for_update``; the only lock
order is the table, then its seats and hands), refuses an ended table (code ``ended``:
a game's log ends with ``game_ended``), and hands over the :class:`TableLog` numbering
new events from the table's ``last_seq``. When the block ends without an exception it
flushes the log (the events, and the table's changed fields only) and the broadcast and
the state cache's update run after the commit. An exception rolls everything back and
tells no one.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass

from django.db import transaction
from django.utils.translation import gettext_lazy as _

from tables import selectors
from tables.models import Seat, Table
from tables.services.errors import ServiceError
from tables.services.log import TableLog, remember_loaded_values
from tables.sql.read import seat_holder_query
from tables.sql.write import row_by_pk_then


def lock_table(table_id: int, *, holder: SeatHolder | None = None) -> Table:
    """The table row, locked until the transaction ends (``no_table`` when there is none).
    With ``holder``: then, under the lock, refuse (``seat_moved``, ``banned``) unless the
    holder still holds its seat, read in the same round trip as the lock on PostgreSQL."""
    then = None if holder is None else seat_holder_query(holder.seat_id)
    try:
        table, seat_rows = row_by_pk_then(Table, table_id, for_update=True, then=then)
    except (ValueError, TypeError):
        table, seat_rows = None, []
    if table is None:
        raise ServiceError("no_table", _("There is no such table."))
    if holder is not None:
        holder_refuse(selectors.seat_gone_from(seat_rows[0] if seat_rows else None, guest_token=holder.guest_token))
    remember_loaded_values(table)
    return table


def require_open(table: Table) -> None:
    """Refuse (``ended``) once the game is over."""
    if table.status == Table.Status.ENDED:
        raise ServiceError("ended", _("This game is over."))


def require_dealt(table: Table) -> None:
    """Refuse (``not_dealt``) a table that is not dealt (a kitchen night: its own page
    records it, with its rules), for a write of the online table's."""
    if table.settings.get("not_dealt"):
        raise ServiceError("not_dealt", _("This night is played with real cards: record it on the night's page."))


@dataclass(frozen=True)
class SeatHolder:
    """Whom a table's socket writes for (issue 34): its seat, and the guest token of the
    session it was opened with (``None`` for an account's seat, which never moves)."""

    seat_id: int
    guest_token: str | None


_holder: ContextVar[SeatHolder | None] = ContextVar("dashain_seat_holder", default=None)
_socket: ContextVar[bool] = ContextVar("dashain_socket_write", default=False)


@contextmanager
def writes_for(holder: SeatHolder | None) -> Iterator[None]:
    """Every :func:`table_write` in the block is a socket's, for ``holder``'s seat: before
    anything else, under the table's lock, it refuses (``seat_moved``, ``banned``) unless
    the seat is still the holder's. A seat link can move a guest's seat at any moment
    between the socket's last news and its next action; the lock makes the check and the
    write one step, so no ordering lets an old page act for a seat it lost. A table not dealt
    (the setting ``not_dealt``: a kitchen night, whose own page keeps its rules) takes no
    write from a socket: refused (``not_dealt``), writing nothing."""
    token, socket = _holder.set(holder), _socket.set(True)
    try:
        yield
    finally:
        _socket.reset(socket)
        _holder.reset(token)


def holder_refuse(gone: str | None) -> None:
    """Refuse (``seat_moved``, ``banned``) as ``selectors.seat_gone`` found the seat."""
    if gone == "seat_moved":
        raise ServiceError(
            "seat_moved", _("Your seat is open on another device now: this page no longer plays for it.")
        )
    if gone == "banned":
        raise ServiceError("banned", _("The host has removed you from this game."))


@contextmanager
def table_write(table_id: int) -> Iterator[tuple[Table, TableLog]]:
    """Lock the table, refuse it if ended, give its log; flush on success (see the module).
    Inside :func:`writes_for`, the socket's seat is checked first (under the lock), and a
    table not dealt is refused."""
    with transaction.atomic():
        table = lock_table(table_id, holder=_holder.get())
        require_open(table)
        if _socket.get():
            require_dealt(table)
        log = TableLog(table)
        yield table, log
        log.flush()


@contextmanager
def table_write_new(create: Callable[[], Table]) -> Iterator[tuple[Table, TableLog]]:
    """The same for a table being opened: ``create`` inserts its row inside the transaction
    (no other writer can know it yet, so there is nothing to lock)."""
    with transaction.atomic():
        table = create()
        remember_loaded_values(table)
        log = TableLog(table)
        yield table, log
        log.flush()


def seat_at(table: Table, seat_id: int | None) -> Seat:
    """The seat ``seat_id`` of ``table`` (``no_seat`` when it is not this table's)."""
    if seat_id is None:
        raise ServiceError("no_seat", _("You have not joined this table."))
    try:
        return Seat.objects.get(pk=seat_id, table=table)
    except (Seat.DoesNotExist, ValueError, TypeError):
        raise ServiceError("no_seat", _("You have not joined this table.")) from None
