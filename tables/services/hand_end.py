"""The end of a hand and of a game: paying the pots, cashing out, the broke leaving.

Called inside a service's :func:`~tables.services.write.table_write` block with the
table locked. Nothing here deals the next hand: that is the between-hands flow's job
(``tables.services.between_hands``), which the caller runs after a hand ends.
"""

from __future__ import annotations

from decimal import Decimal
from typing import TYPE_CHECKING, Any

from django.utils import timezone

from engine.games import get_game
from tables import selectors
from tables.events import EventKind
from tables.models import Hand, PushSubscription, Seat, Table
from tables.money import bank
from tables.services.log import TableLog
from tables.services.seat_state import buy_backs_left
from tables.sql.read import rows_where
from tables.sql.write import row_save, rows_save

if TYPE_CHECKING:
    from engine.games import AnyHandState


def hand_finish(log: TableLog, *, hand: Hand, state: AnyHandState) -> None:
    """Pay the pots into the seats, check the chips, send out the broke."""
    table = log.table
    game = get_game(table.game)
    result = game.result(state)
    log.hand_finished(hand, state)
    seats = {seat.engine_name: seat for seat in rows_where(Seat, equal={"table_id": table.pk})}
    paid = []
    for name, stack in result.stacks.items():
        seat = seats[str(name)]
        seat.stack = int(stack)
        paid.append(seat)
    rows_save(paid, ["stack"])
    summary: dict[str, Any] = {
        "stacks": {str(k): int(v) for k, v in result.stacks.items()},
        "pots": [p.to_json() for p in result.pots],
    }
    hand_close(log, hand=hand, result=summary)
    log.append(EventKind.HAND_ENDED, {"number": hand.number, **summary}, hand=hand)
    bank().check_invariant(table=table, chips_at_table=sum(seat.stack for seat in seats.values()))
    _send_out_the_broke(log, seats=list(seats.values()))
    seat_link_claims_apply(log, seats=list(seats.values()))


def hand_close(log: TableLog, *, hand: Hand, result: dict[str, Any]) -> None:
    """End ``hand`` with ``result`` (no one to act, no timer) and note that no hand is live."""
    hand.result = result
    hand.ended_at = timezone.now()
    hand.to_act = ""
    hand.turn_deadline = None
    hand.turn_alarm_at = None
    row_save(hand, ["result", "ended_at", "to_act", "turn_deadline", "turn_alarm_at"])
    log.hand_over()


def seat_move(log: TableLog, *, seat: Seat, guest_token: str) -> None:
    """A guest's seat goes to the browser whose session holds ``guest_token`` (its seat
    link, issue 28; "This is me" approved, issue 38): the same seat, name and chips. One more
    move ends every link shown before (the count is in the key, issue 34); ``seat_moved``
    closes the old pages. No hidden card of a hand dealt before the move, the live one
    included, ever reaches the new browser: it sees those hands as a watcher does
    (``Seat.link_moved_hand``), and the old browser's turn reminders by Web Push stop (its
    subscriptions are dropped; the new one may opt in)."""
    seat.guest_token = guest_token
    seat.link_moves += 1
    seat.link_claim = ""
    # The hands dealt so far were the seat's old browser's: the new one sees them as a watcher.
    seat.link_moved_hand = log.table.hands_played
    seat.save(update_fields=["guest_token", "link_moves", "link_claim", "link_moved_hand"])
    # Turn reminders went to the old browser's push service: that browser has no seat here now.
    PushSubscription.objects.filter(seat=seat).delete()
    log.append(EventKind.SEAT_MOVED, {"seat": seat.pk, "name": seat.display_name})


def seat_move_when_free(log: TableLog, *, seat: Seat, guest_token: str) -> bool:
    """Move a guest's seat to the browser holding ``guest_token`` now, or, when the seat is
    dealt into the hand being played (its cards are the old browser's), keep that browser's
    claim (``link_claim``) and move it when the hand ends (:func:`seat_link_claims_apply`).
    ``False`` (nothing changed) when another browser's claim waits for this hand already.
    A seat link (issue 28) goes through here. "This is me" approved by the host (issue 38)
    moves the seat at once instead, and its hand in play is played out by the away rule
    (``claims.seat_claim_take``)."""
    if not selectors.seat_in_live_hand(table=log.table, seat=seat):
        seat_move(log, seat=seat, guest_token=guest_token)
        return True
    if seat.link_claim:
        return seat.link_claim == guest_token
    seat.link_claim = guest_token
    row_save(seat, ["link_claim"])
    return True


def seat_link_claims_apply(log: TableLog, *, seats: list[Seat]) -> None:
    """The hand is over: a seat whose link was opened while it was dealt in (issue 34) moves
    to that browser now, before the next deal. The claim is dropped instead when the seat
    was banned meanwhile, or when that browser has come to hold another seat here."""
    for seat in seats:
        if not seat.link_claim:
            continue
        claim = seat.link_claim
        if seat.banned or Seat.objects.filter(table_id=seat.table_id, guest_token=claim).exists():
            seat.link_claim = ""
            seat.save(update_fields=["link_claim"])
            continue
        seat_move(log, seat=seat, guest_token=claim)


def _send_out_the_broke(log: TableLog, *, seats: list[Seat]) -> None:
    """Rule book 000: with fewer chips than the boot and no buy-backs left, you watch.
    Rule book 001: a player with no chips left after a hand leaves the table."""
    table = log.table
    fewest = get_game(table.game).table_rules.min_stack_to_play(table.settings["engine"])
    for seat in seats:
        if seat.number is None or seat.status == Seat.Status.WATCHING or seat.stack >= fewest:
            continue
        if buy_backs_left(table, seat):
            continue  # may buy back between hands
        seat_cash_out_and_unseat(log, seat=seat, kind=EventKind.SEAT_OUT)


def seat_cash_out_and_unseat(log: TableLog, *, seat: Seat, kind: EventKind) -> int:
    """Cash out the seat's chips to the ledger, free its place (it watches now), and record
    ``kind`` (``seat_left``, ``seat_removed``, ``seat_out``) with what was cashed out."""
    chips = seat.stack
    if chips:
        bank().record_cash_out(table=log.table, seat=seat, chips=chips)
    seat.stack = 0
    seat.number = None
    seat.status = Seat.Status.WATCHING
    row_save(seat, ["stack", "number", "status"])
    log.append(kind, {"seat": seat.pk, "cashed_out": chips})
    return chips


def game_end(log: TableLog, *, reason: str) -> None:
    """End the game: a live hand is called off (its chips go back; the host's "End the game"
    never comes here with one, ``tables.services.hosting.table_end``), every stack is cashed
    out, and the secret seed is revealed so anyone can re-derive every deck. ``game_ended``
    is the log's last event (``TableLog`` refuses any after it)."""
    table = log.table
    hand = selectors.hand_live(table=table)
    if hand is not None:
        hand_close(log, hand=hand, result={"void": True})
        log.append(EventKind.HAND_VOID, {"number": hand.number}, hand=hand)
        seat_link_claims_apply(log, seats=list(Seat.objects.filter(table=table).exclude(link_claim="")))
    # Book 001: a hold'em game ends with the players placed (before the stacks are cashed out).
    places = get_game(table.game).table_rules.places_players
    placings = selectors.holdem_placings(table=table) if places else None
    final = {}
    for seat in Seat.objects.filter(table=table).order_by("pk"):
        final[str(seat.pk)] = seat.stack
        if seat.stack:
            bank().record_cash_out(table=table, seat=seat, chips=seat.stack)
        seat.stack = 0
        seat.save(update_fields=["stack"])
    if placings is not None and table.settings.get("prizes") == "places":
        # Issue 25: the pool shared by places; the ledger records every player's prize.
        prizes = bank().record_prizes(
            table=table,
            places={placing["seat"]: placing["place"] for placing in placings},
            payouts=table.settings.get("payouts") or [100],
        )
        won = {seat_id: str(prize) for seat_id, prize in prizes.items()}
        if Decimal(table.buy_in_price) != 0:  # at 0.00 every prize is 0.00: none is shown
            for placing in placings:
                placing["prize"] = won.get(placing["seat"], "0.00")
    elif placings is not None and Decimal(table.buy_in_price) != 0:
        # By chips, for money: what each player won or lost, as the settle-up shows it.
        nets = bank().net_results(table=table) or {}
        for placing in placings:
            if placing["seat"] in nets:
                placing["net"] = str(nets[placing["seat"]])
    table.status = Table.Status.ENDED
    table.ending = False
    table.ended_at = timezone.now()
    table.next_deal_at = None
    table.due_at = None  # nothing is ever due at an ended table
    log.append(
        EventKind.GAME_ENDED,
        {
            "reason": reason,
            "final_stacks": final,
            "secret_seed": bytes(table.secret_seed).hex(),
            "seed_commitment": table.seed_commitment,
            "hands_played": table.hands_played,
            **({"placings": placings} if placings is not None else {}),
        },
    )
