"""Computer players at a table (issue 15): the host seats them; the table clock moves them.

- A computer is a :class:`~tables.models.Seat` whose ``computer`` is its strength
  (``easy``, ``normal``, ``hard``: :mod:`engine.bots`), with no user and no session. It
  buys in like anyone (the ledger records it), at the table's price.
- Computers sit only at tables whose chip value is 0 (play chips; hold'em always is, by
  its book): nobody may owe money to, or win it from, a program. A host trying at a money
  table is told why not (``money_table``).
- The host adds one to an empty seat (:func:`computer_add`), or fills every empty seat
  (:func:`computer_fill`), and removes one between hands with the ordinary
  ``seat_remove``. Hold'em seats are taken before the game starts, computers' too.
- A computer acts through the same path as people: the engine checks and applies its
  action, which is recorded as an ``action`` with its seat as the actor (and
  ``"by": "computer"``). It acts after the host's ``computer_pause``: when its turn
  starts, the turn's alarm on the table clock is set to then (``turns.computer_turn_clock``)
  and the clock's turn alarm, for a computer, is :func:`computer_move`. The due time is in
  the database, so a restart or a lost task never leaves a computer's turn waiting for
  ever, and the table's lock makes each move happen once. A strategy's illegal choice is
  logged and replaced by the least move (check, refuse, pack or fold).
- It decides from what its seat may see, nothing more: the seat's own view
  (``game.view(state, seat)``) and the events of this game its seat may see (the page's
  own stream), folded into an :class:`engine.bots.History`. Its random choices are seeded
  from the table's secret seed, the hand and the turn, so they are fixed by the log but
  cannot be foreseen by the players.
"""

from __future__ import annotations

import logging
from decimal import Decimal
from typing import Any

from django.utils.translation import gettext_lazy as _

from engine.api import Action
from engine.bots import STRENGTHS, DecisionStream, History, choose_action, decision_stream, wants_to_act
from engine.games import get_game
from tables import selectors
from tables.events import EventKind
from tables.models import Event, Hand, Seat, Table
from tables.services.acting import least_move, move_play
from tables.services.between_hands import deal_when_ready
from tables.services.errors import ServiceError
from tables.services.hosting import require_host
from tables.services.log import TableLog
from tables.services.seats import seat_number_check, seat_number_choose, seat_numbers_free, seat_taken_record
from tables.services.write import require_dealt, table_write

logger = logging.getLogger(__name__)

#: How many of the latest hands a hard computer's opponent model reads.
MODEL_HANDS = 60
#: A Teen Patti computer may look at its cards and then act: at most this many steps a turn.
MOVES_PER_TURN = 3


def _require_play_chips(table: Table) -> None:
    if Decimal(table.buy_in_price) != 0:
        raise ServiceError(
            "money_table",
            _(
                "Computers play only for play chips: set the chip value to 0 (a buy-in price of 0.00) "
                "to add them. Nobody may owe money to a computer or win it from one."
            ),
        )


def _require_strength(strength: Any) -> str:
    if strength not in STRENGTHS:
        raise ServiceError("bad_strength", _("Choose an easy, normal or hard computer."))
    return str(strength)


def _computer_seat(log: TableLog, *, number: int, strength: str) -> Seat:
    table = log.table
    # The first "Computer N" no seat at the table is called (a removed computer's name
    # stays in the log and the history, so it is never given to another).
    taken = {
        " ".join(name.split()).casefold()
        for name in Seat.objects.filter(table=table).values_list("display_name", flat=True)
    }
    count = 1
    while " ".join(str(_("Computer %(number)s") % {"number": count}).split()).casefold() in taken:
        count += 1
    seat = Seat.objects.create(
        table=table,
        display_name=str(_("Computer %(number)s") % {"number": count}),
        computer=strength,
        number=number,
        status=Seat.Status.PLAYING,
        stack=table.buy_in_chips,
        buy_ins=1,
    )
    seat_taken_record(
        log, seat, chips=table.buy_in_chips, price=Decimal(table.buy_in_price), buy_back=False, computer=strength
    )
    return seat


def _check_may_seat(table: Table, seat_id: int) -> None:
    require_host(table, seat_id)
    require_dealt(table)  # a kitchen night: nobody is dealt, no computer plays
    _require_play_chips(table)
    if not get_game(table.game).table_rules.seating_after_start and table.status != Table.Status.WAITING:
        raise ServiceError("already_started", _("Hold'em seats are taken before the game starts."))


def computer_add(*, table_id: int, seat_id: int, strength: str, number: int | None = None) -> Seat:
    """The host seats a computer of ``strength`` in seat ``number`` (the lowest free one if ``None``).

    Refused, changing nothing: ``not_host``, ``ended``, ``money_table``, ``bad_strength``,
    ``already_started`` (hold'em), ``bad_seat``, ``seat_taken``, ``table_full``.
    """
    strength = _require_strength(strength)
    seat_number_check(number)
    with table_write(table_id) as (table, log):
        _check_may_seat(table, seat_id)
        seat = _computer_seat(log, number=seat_number_choose(table, number), strength=strength)
        deal_when_ready(log)
    return seat


def computer_fill(*, table_id: int, seat_id: int, strength: str) -> list[Seat]:
    """The host fills every empty seat with computers of ``strength`` (book 001: "any empty
    seat is played by the computer"). Refused like :func:`computer_add`."""
    strength = _require_strength(strength)
    with table_write(table_id) as (table, log):
        _check_may_seat(table, seat_id)
        free = seat_numbers_free(table)
        if not free:
            raise ServiceError("table_full", _("Every seat is taken."))
        seats = [_computer_seat(log, number=number, strength=strength) for number in free]
        deal_when_ready(log)
    return seats


# --- moving ------------------------------------------------------------------------------------


def computer_history(table: Table, seat: Seat, *, whole_game: bool) -> History:
    """What the seat has watched: the engine's events it may see, in order, of the game's
    latest ``MODEL_HANDS`` hands (``whole_game``: a hard computer's opponent model) or of the
    live hand only (the site's own records of a request and of a deal are skipped: they
    repeat the engine's)."""
    history = History()
    viewer = seat.engine_name
    rows = Event.objects.filter(table=table, hand__isnull=False)
    live = selectors.hand_live(table=table)
    if not whole_game:
        rows = rows.filter(hand=live)
    elif live is not None:
        # The model reads the last MODEL_HANDS hands: enough to know a player, and a move's
        # work (under the table's lock) stays bounded however long the game runs.
        rows = rows.filter(hand__number__gt=live.number - MODEL_HANDS)
    columns = rows.order_by("seq").values_list("kind", "payload", "visible_to", "actor_id")
    for kind, payload, visible_to, actor_id in columns:
        if visible_to is not None and viewer not in visible_to:
            continue
        if kind == EventKind.ACTION and actor_id is not None:
            continue  # the request as recorded; hold'em's engine reports the action itself
        if kind == EventKind.HAND_STARTED and "seed_commitment" in payload:
            continue  # the site's record of the deal; the engine's own follows it
        history = history.observe({"kind": kind, **payload})
    return history


def _rng(table: Table, hand: Hand, seat: Seat, step: int) -> DecisionStream:
    # Derived from the table's secret (engine.bots.decision_stream): players cannot predict its choices,
    # and a restart makes the same ones. The seed itself never leaves this function.
    return decision_stream(bytes(table.secret_seed), f"computer|{hand.number}|{hand.turn_seq}|{seat.pk}|{step}")


def computer_move(log: TableLog, *, hand: Hand) -> int | None:
    """The computer on turn in ``hand`` acts (the table must be locked: the clock's work).

    Returns the seq of its (last) action, or ``None`` when the player to act is not a
    computer or has nothing to decide. Its ``see`` (Teen Patti) does not use the turn: it
    then decides again on what it now sees.
    """
    table = log.table
    game = get_game(table.game)
    live, state, _seq = selectors.live_hand_and_state(table=table)
    if live is None or live.pk != hand.pk or state is None:
        return None
    seq = None
    for step in range(MOVES_PER_TURN):
        name = game.to_act(state)
        if name is None:
            return seq
        seat = Seat.objects.filter(pk=int(name), table=table).exclude(computer="").first()
        if seat is None:
            return seq
        view = game.view(state, name)
        if not wants_to_act(view, name):
            return seq
        history = computer_history(table, seat, whole_game=seat.computer == "hard")
        action: Action = choose_action(
            game=table.game,
            view=view,
            player=name,
            strength=seat.computer,
            rng=_rng(table, hand, seat, step),
            history=history,
        )
        before = log.last_seq
        try:
            played = move_play(log, hand=hand, state=state, action=action, actor_id=seat.pk, by="computer")
        except ServiceError:
            if log.last_seq != before:
                raise  # not the rules' refusal of the move: something after it failed
            # A strategy's mistake must never leave a table waiting for ever: the least move
            # (the refused move appended nothing).
            logger.exception("computer %s chose %r, which the rules refuse", name, action)
            least = least_move(game, state, name)
            if least is None:
                return seq
            action = least
            played = move_play(log, hand=hand, state=state, action=action, actor_id=seat.pk, by="computer")
        seq, state = played.seq, played.state
        if played.hand_over or action.verb != "see":
            return seq
    return seq
