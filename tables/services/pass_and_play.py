"""Pass and play (issue 15, book 001: "To share one phone, choose Pass and play: the cards
stay hidden while the phone is passed"): several people at one table on the host's phone.

- The host adds a *local player* by name (:func:`local_player_add`): a
  :class:`~tables.models.Seat` with ``local`` set, no user and no session token, seated at
  once with a buy-in like anyone (the ledger records it). Names are unique at the table as
  for everyone. Hold'em seats, local ones too, are taken before the game starts.
- The host's sockets are *the phone*: the host's own seat and every local seat are the
  phone's seats (``tables.selectors.phone_seat_ids``). Which of them *holds* the phone is the socket's own
  state (``tables.live.session``): a tap on "I am <name>" sends ``{"type": "hold", "seat": id}``,
  and :func:`phone_hold_check` allows it only for a seat of this phone whose turn it is in
  the live hand. While one holds, the socket receives that seat's view; the moment the turn
  leaves it, the socket receives the public view (every hidden card hidden) until the next
  player taps. Nobody holding, the phone sees what a watcher sees.
- Actions and looking at one's cards (Teen Patti ``see``) go out for the seat holding the
  phone only, and only on its turn (``hand_act(..., only_on_turn=True)``): so on a shared
  phone a player looks at their cards when it is their turn.

The hold is kept per socket, in memory, and not in the database: it describes one
screen in one person's hands. A reload or a reconnect starts with nobody holding (every
card hidden), so the worst a lost hold costs is one more tap; a hold kept in the database
would show a player's cards on any of the host's screens that opens next.
"""

from __future__ import annotations

from decimal import Decimal

from django.utils.translation import gettext_lazy as _

from engine.games import get_game
from tables import selectors
from tables.events import EventKind
from tables.models import Seat, Table
from tables.services.between_hands import deal_when_ready
from tables.services.errors import ServiceError
from tables.services.hosting import _clean_name, _require_free_name, require_host
from tables.services.log import TableLog
from tables.services.seats import seat_number_check, seat_number_choose, seat_taken_record
from tables.services.write import require_dealt, require_open, table_write


def local_player_add(*, table_id: int, seat_id: int, name: str, number: int | None = None) -> Seat:
    """The host adds a person who plays on the host's phone, seated in seat ``number`` (the
    lowest free one if ``None``) with a buy-in of the table's chips at its price.

    Refused, changing nothing: ``not_host``, ``ended``, ``bad_name``, ``name_taken``,
    ``already_started`` (hold'em), ``bad_seat``, ``seat_taken``, ``table_full``.
    """
    display_name = _clean_name(name)
    seat_number_check(number)
    with table_write(table_id) as (table, log):
        require_host(table, seat_id)
        require_dealt(table)  # a kitchen night adds people through its own page, with its rules
        return local_player_seat(table, log, display_name, number)


def local_player_seat(table: Table, log: TableLog, name: object, number: int | None = None) -> Seat:
    """:func:`local_player_add` inside the caller's ``table_write``, the host checked: for a
    kitchen night, whose own rules come first (``kitchen.services.kitchen_add``)."""
    display_name = _clean_name(name)
    seat_number_check(number)
    if not get_game(table.game).table_rules.seating_after_start and table.status != Table.Status.WAITING:
        raise ServiceError("already_started", _("Hold'em seats are taken before the game starts."))
    _require_free_name(table, display_name)
    seat = Seat.objects.create(
        table=table,
        display_name=display_name,
        local=True,
        number=seat_number_choose(table, number),
        status=Seat.Status.PLAYING,
        stack=table.buy_in_chips,
        buy_ins=1,
    )
    log.append(EventKind.SEAT_JOINED, {"seat": seat.pk, "name": seat.display_name, "guest": False, "local": True})
    seat_taken_record(
        log, seat, chips=table.buy_in_chips, price=Decimal(table.buy_in_price), buy_back=False, local=True
    )
    deal_when_ready(log)
    return seat


def _phone_seat(table: Table, seat_id: int | None, local_seat_id: object) -> tuple[Seat, list[int]]:
    """The seat ``local_seat_id`` of this table, if the socket of ``seat_id`` is its phone,
    and the phone's seats."""
    if isinstance(local_seat_id, bool) or not isinstance(local_seat_id, int):
        raise ServiceError("bad_seat", _("Choose a player by their seat."))
    owner = Seat.objects.filter(pk=seat_id, table=table).first() if isinstance(seat_id, int) else None
    if owner is None or owner.user_id is None or owner.user_id != table.host_id:
        raise ServiceError("not_your_phone", _("Only the host's phone passes between players."))
    phone = selectors.phone_seat_ids(table=table)
    if phone is None:
        raise ServiceError("not_pass_and_play", _("Nobody plays on this phone: the host adds players first."))
    if local_seat_id not in phone:
        raise ServiceError("not_on_this_phone", _("That player does not play on this phone."))
    return Seat.objects.get(pk=local_seat_id), phone


def phone_hold_check(*, table_id: int, seat_id: int, hold_seat_id: object) -> tuple[Seat, list[int]]:
    """Whether the phone of ``seat_id`` (the host's socket) may be held by ``hold_seat_id``
    now: a seat of this phone whose turn it is in the live hand. Returns that seat and the
    phone's seats.

    Refused: ``no_table``, ``ended``, ``bad_seat``, ``not_pass_and_play``, ``not_your_phone``,
    ``not_on_this_phone``, ``paused``, ``not_their_turn`` (also between hands). Reads only.
    """
    table = Table.objects.filter(pk=table_id).first() if isinstance(table_id, int) else None
    if table is None:
        raise ServiceError("no_table", _("There is no such table."))
    require_open(table)
    seat, phone = _phone_seat(table, seat_id, hold_seat_id)
    if table.status == Table.Status.PAUSED:
        raise ServiceError("paused", _("The host has paused the game."))
    hand = selectors.hand_live(table=table)
    if table.status != Table.Status.PLAYING or hand is None or hand.to_act != seat.engine_name:
        raise ServiceError(
            "not_their_turn",
            _("It is not %(name)s's turn: pass the phone to the player whose turn it is.")
            % {"name": seat.display_name},
        )
    return seat, phone


def phone_seat_check(*, table_id: int, seat_id: int, local_seat_id: object) -> Seat:
    """A seat of the phone of ``seat_id`` for a between-hands seat request (buy in again, sit
    out, come back, leave): refused as :func:`phone_hold_check`, whoever's turn it is."""
    table = Table.objects.filter(pk=table_id).first() if isinstance(table_id, int) else None
    if table is None:
        raise ServiceError("no_table", _("There is no such table."))
    require_open(table)
    return _phone_seat(table, seat_id, local_seat_id)[0]
