"""Hands: dealing, acting, looking at one's cards, ending, and dealing the next one.

Every service here is one transaction that locks the table row first
(``select_for_update``; the only lock order is table, then its seats and hands), takes
the live hand's state from the cache or rebuilds it from the log
(``tables.selectors.live_hand_and_state``), asks the engine to check and
apply, appends the events with the next seq numbers, and broadcasts after the commit.

Each deal uses ``engine.fairness.hand_deck(secret_seed, table code, hand number,
player seeds)``; the ``hand_started`` event records everything a verifier needs:
the table code, the hand number, the seed commitment, the player seeds, the dealer,
the players and stacks dealt in, and the hand's settings.
"""

from __future__ import annotations

import logging
from dataclasses import asdict, replace
from datetime import timedelta
from typing import Any

from django.conf import settings as django_settings
from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from engine.api import Action, RuleError, TablePosition
from engine.fairness import hand_deck
from engine.games import get_game
from tables import selectors
from tables.models import Event, Hand, Seat, Table
from tables.services.errors import ServiceError
from tables.services.ledger_link import ledger_cash_out, ledger_check
from tables.services.log import TableLog, remember_loaded_values

logger = logging.getLogger(__name__)

MAX_VERB_LENGTH = 20
MAX_AMOUNT = 10**9
MAX_CLIENT_ACTION_ID = 64
# Hands dealt one after another in one transaction when the pause between hands is 0
# (tests); a bound so that a run of hands that end at the deal cannot loop for ever.
MAX_INLINE_HANDS = 3


def next_hand_delay() -> float:
    return float(getattr(django_settings, "DASHAIN_NEXT_HAND_DELAY", 3))


def lock_table(table_id: int) -> Table:
    """The table row, locked until the transaction ends."""
    try:
        table = Table.objects.select_for_update().get(pk=table_id)
    except (Table.DoesNotExist, ValueError, TypeError):
        raise ServiceError("no_table", _("There is no such table.")) from None
    remember_loaded_values(table)
    return table


def seat_at(table: Table, seat_id: int) -> Seat:
    try:
        return Seat.objects.get(pk=seat_id, table=table)
    except (Seat.DoesNotExist, ValueError, TypeError):
        raise ServiceError("no_seat", _("You have not joined this table.")) from None


def players_of(hand: Hand) -> list[str]:
    return [str(name) for name, _stack in hand.plan["players"]]


def require_open(table: Table) -> None:
    """Refuse (``ended``) once the game is over."""
    if table.status == Table.Status.ENDED:
        raise ServiceError("ended", _("This game is over."))


def buy_backs_left(table: Table, seat: Seat) -> bool:
    """Whether the seat may still buy in again within the table's limit (``None``: no limit)."""
    limit = table.settings.get("buy_backs")
    return limit is None or seat.buy_backs_used < limit


def in_live_hand(table: Table, seat: Seat) -> bool:
    """Whether ``seat`` is dealt in the hand being played."""
    hand = selectors.hand_live(table=table)
    return hand is not None and seat.engine_name in players_of(hand)


# --- dealing -----------------------------------------------------------------------


def deal_next_hand(log: TableLog, *, depth: int = 0) -> Hand | None:
    """Deal a hand if the table is playing and no hand is live; returns it, or ``None``.

    Hold'em ends the game when too few players have chips or its length is reached;
    Teen Patti waits for players to buy in again.
    """
    table = log.table
    if table.status != Table.Status.PLAYING or selectors.hand_live(table=table) is not None:
        return None
    game = get_game(table.game)
    game_length = table.settings.get("game_length")
    if table.game == "holdem" and game_length and table.hands_played >= game_length:
        game_end(log, reason="length")
        return None
    seats = list(Seat.objects.filter(table=table, status=Seat.Status.PLAYING, number__isnull=False).order_by("number"))
    position = position_for_seats(table, seats)
    plan = game.plan_hand(
        settings=table.settings["engine"], seats=[(seat.engine_name, seat.stack) for seat in seats], previous=position
    )
    if plan is None:
        if table.game == "holdem":
            game_end(log, reason="one_left")
        else:
            log.append("waiting", {"reason": "too_few_players"})
        return None

    number = table.hands_played + 1
    seeds = [
        str(event.payload["seed"])
        for event in Event.objects.filter(table=table, kind="player_seed", payload__for_hand=number).order_by("seq")
    ]
    players = [[str(name), int(stack)] for name, stack in plan.players]
    by_name = {seat.engine_name: seat for seat in seats}
    dealer_seat = by_name.get(players[plan.dealer][0])
    hand = Hand.objects.create(
        table=table,
        number=number,
        dealer=dealer_seat,
        plan={
            "players": players,
            "dealer": plan.dealer,
            "dealer_seat_number": dealer_seat.number if dealer_seat is not None else None,
            "settings": dict(plan.settings),
            "position_before": dict(table.position),
        },
        player_seeds=seeds,
    )
    table.hands_played = number
    table.position = asdict(plan.position)
    deck = hand_deck(bytes(table.secret_seed), table.code, number, seeds)
    state, events = game.start_hand(
        settings=plan.settings, players=[(n, s) for n, s in players], dealer=plan.dealer, deck=deck
    )
    log.append(
        "hand_started",
        {
            "number": number,
            "table": table.code,
            "seed_commitment": table.seed_commitment,
            "player_seeds": seeds,
            "dealer": players[plan.dealer][0],
            "dealer_index": plan.dealer,
            "players": players,
            "settings": dict(plan.settings),
        },
        hand=hand,
    )
    for event in events:
        log.append(event.kind, dict(event.data), hand=hand, visible_to=event.visible_to)
    after_state_change(log, hand=hand, state=state, actor_name=None, verb=None, depth=depth)
    return hand


def position_for_seats(table: Table, seats: list[Seat]) -> TablePosition:
    """The table's position, with the last dealer placed among ``seats``.

    The engines move the deal on from the last dealer's place in the seats they are
    given. When that player has since left or sat out, the deal must still move one
    seat on from where they sat (book 000: "the dealer moves on one seat each hand"),
    so the seated player just before the empty dealer's seat stands in for them.
    """
    position = TablePosition(**table.position) if table.position else TablePosition()
    if position.dealer is None or not seats or any(seat.engine_name == position.dealer for seat in seats):
        return position
    last_hand = Hand.objects.filter(table=table).order_by("-number").only("plan").first()
    dealer_number = last_hand.plan.get("dealer_seat_number") if last_hand is not None else None
    if dealer_number is None:
        return position
    before = [seat for seat in seats if seat.number < dealer_number] or seats
    return replace(position, dealer=before[-1].engine_name)


def schedule_next_hand(log: TableLog, *, depth: int = 0) -> None:
    """Deal the next hand now (pause 0) or after the pause, through a Celery task queued on commit."""
    table = log.table
    if table.status != Table.Status.PLAYING:
        return
    delay = next_hand_delay()
    if delay <= 0:
        if depth < MAX_INLINE_HANDS:
            deal_next_hand(log, depth=depth + 1)
        return
    from tables.tasks import start_next_hand

    table_id, after = table.pk, table.hands_played
    log.on_commit(lambda: start_next_hand.apply_async(args=(table_id, after), countdown=delay))


def after_state_change(
    log: TableLog,
    *,
    hand: Hand,
    state: Any,
    actor_name: str | None,
    verb: str | None,
    action_seq: int = 0,
    depth: int = 0,
) -> None:
    """Record whose turn it is now (with a reminder) or finish the hand."""
    table = log.table
    game = get_game(table.game)
    if game.is_finished(state):
        hand_finish(log, hand=hand, state=state, depth=depth)
        return
    to_act = game.to_act(state) or ""
    new_turn = verb is None or to_act != hand.to_act or (actor_name == hand.to_act and verb != "see")
    timer = table.settings.get("turn_timer")
    if new_turn:
        hand.to_act = to_act
        hand.turn_deadline = timezone.now() + timedelta(seconds=timer) if timer else None
    # A turn event after every change: what the player to act may do can change without
    # the turn passing (a blind player who sees pays double from then on).
    log.append(
        "turn", {**selectors.turn_public(game=game, state=state, player=to_act, hand=hand), "new": new_turn}, hand=hand
    )
    log.hand_now(hand, state, action_seq)
    if not new_turn:
        return  # only the legal actions changed: the hand row stays as it is
    hand.turn_seq = log.last_seq
    hand.save(update_fields=["to_act", "turn_seq", "turn_deadline"])
    if timer and table.status == Table.Status.PLAYING:
        queue_reminder(log, hand=hand, countdown=timer)


def queue_reminder(log: TableLog, *, hand: Hand, countdown: float) -> None:
    from tables.tasks import remind_turn

    args = (log.table.pk, hand.pk, hand.turn_seq)
    log.on_commit(lambda: remind_turn.apply_async(args=args, countdown=countdown))


def hand_finish(log: TableLog, *, hand: Hand, state: Any, depth: int = 0) -> None:
    """Pay the pots into the seats, check the chips, send out the broke, deal on."""
    table = log.table
    game = get_game(table.game)
    result = game.result(state)
    seats = {seat.engine_name: seat for seat in Seat.objects.filter(table=table)}
    for name, stack in result.stacks.items():
        seat = seats[str(name)]
        seat.stack = int(stack)
        seat.save(update_fields=["stack"])
    _close_hand(
        log,
        hand=hand,
        result={
            "stacks": {str(k): int(v) for k, v in result.stacks.items()},
            "pots": [p.to_json() for p in result.pots],
        },
    )
    log.append("hand_ended", {"number": hand.number, **hand.result}, hand=hand)
    ledger_check(table=table, chips_at_table=sum(seat.stack for seat in seats.values()))
    _send_out_the_broke(log, seats=list(seats.values()))
    schedule_next_hand(log, depth=depth)


def _close_hand(log: TableLog, *, hand: Hand, result: dict[str, Any]) -> None:
    """End ``hand`` with ``result`` (no one to act, no timer) and note that no hand is live."""
    hand.result = result
    hand.ended_at = timezone.now()
    hand.to_act = ""
    hand.turn_deadline = None
    hand.save(update_fields=["result", "ended_at", "to_act", "turn_deadline"])
    log.hand_over()


def _send_out_the_broke(log: TableLog, *, seats: list[Seat]) -> None:
    """Rule book 000: with fewer chips than the boot and no buy-backs left, you watch.
    Rule book 001: a player with no chips left after a hand leaves the table."""
    table = log.table
    boot = int(table.settings["engine"].get("boot", 1)) if table.game != "holdem" else 1
    for seat in seats:
        if seat.number is None or seat.status == Seat.Status.WATCHING or seat.stack >= boot:
            continue
        if buy_backs_left(table, seat):
            continue  # may buy back between hands
        seat_cash_out_and_unseat(log, seat=seat, kind="seat_out")


def seat_cash_out_and_unseat(log: TableLog, *, seat: Seat, kind: str) -> int:
    """Cash out the seat's chips to the ledger, free its place (it watches now), and record
    ``kind`` (``seat_left``, ``seat_removed``, ``seat_out``) with what was cashed out."""
    chips = seat.stack
    if chips:
        ledger_cash_out(table=log.table, seat=seat, chips=chips)
    seat.stack = 0
    seat.number = None
    seat.status = Seat.Status.WATCHING
    seat.save(update_fields=["stack", "number", "status"])
    log.append(kind, {"seat": seat.pk, "cashed_out": chips})
    return chips


def game_end(log: TableLog, *, reason: str) -> None:
    """End the game: a live hand is called off (its chips go back), every stack is cashed
    out, and the secret seed is revealed so anyone can re-derive every deck."""
    table = log.table
    hand = selectors.hand_live(table=table)
    if hand is not None:
        _close_hand(log, hand=hand, result={"void": True})
        log.append("hand_void", {"number": hand.number}, hand=hand)
    final = {}
    for seat in Seat.objects.filter(table=table).order_by("pk"):
        final[str(seat.pk)] = seat.stack
        if seat.stack:
            ledger_cash_out(table=table, seat=seat, chips=seat.stack)
        seat.stack = 0
        seat.save(update_fields=["stack"])
    table.status = Table.Status.ENDED
    table.ended_at = timezone.now()
    log.append(
        "game_ended",
        {
            "reason": reason,
            "final_stacks": final,
            "secret_seed": bytes(table.secret_seed).hex(),
            "seed_commitment": table.seed_commitment,
            "hands_played": table.hands_played,
        },
    )


# --- acting ------------------------------------------------------------------------


def _check_request(verb: Any, amount: Any, client_action_id: Any) -> None:
    if not isinstance(verb, str) or not verb or len(verb) > MAX_VERB_LENGTH:
        raise ServiceError("bad_verb", _("That is not an action."))
    if amount is not None and (
        isinstance(amount, bool) or not isinstance(amount, int) or not 0 <= amount <= MAX_AMOUNT
    ):
        raise ServiceError("bad_amount", _("The amount must be a whole number of chips."))
    if client_action_id is not None and (
        not isinstance(client_action_id, str) or not client_action_id or len(client_action_id) > MAX_CLIENT_ACTION_ID
    ):
        raise ServiceError("bad_id", _("An action's id must be a short text."))


def hand_act(
    *,
    table_id: int,
    seat_id: int,
    verb: str,
    amount: int | None = None,
    client_action_id: str | None = None,
) -> int:
    """Play ``verb`` (and ``amount``) for the seat; returns the seq of the action's event.

    A ``client_action_id`` already in the log is not applied again: the seq of the
    first time is returned. Raises :class:`ServiceError` (the engine's refusals keep
    the engine's code, e.g. ``not_your_turn``) and changes nothing when it does.
    """
    _check_request(verb, amount, client_action_id)
    try:
        return _hand_act(table_id, seat_id, verb, amount, client_action_id)
    except (IntegrityError, ServiceError):
        # IntegrityError: a concurrent request with the same id committed first (the id is
        # unique per table). ServiceError: a resend of an action already applied is refused
        # by the rules now (the turn moved on). Either way, answer it as the first time.
        # Looked up only on refusal, to keep actions lean.
        earlier = _earlier_action(table_id, seat_id, client_action_id)
        if earlier is None:
            raise
        return earlier


def _earlier_action(table_id: int, seat_id: int, client_action_id: str | None) -> int | None:
    if client_action_id is None:
        return None
    earlier = Event.objects.filter(table_id=table_id, client_action_id=client_action_id).first()
    if earlier is None:
        return None
    if earlier.actor_id != seat_id:
        raise ServiceError("bad_id", _("That action id is already used."))
    return earlier.seq


def _hand_act(table_id: int, seat_id: int, verb: str, amount: int | None, client_action_id: str | None) -> int:
    with transaction.atomic():
        table = lock_table(table_id)
        if table.status == Table.Status.PAUSED:
            raise ServiceError("paused", _("The host has paused the game."))
        if table.status != Table.Status.PLAYING:
            raise ServiceError("not_playing", _("The game is not being played."))
        # The live hand and its state: from the cache, with no query, when nothing was
        # written to the table since it was stored.
        hand, state, _seq = selectors.live_hand_and_state(table=table)
        if hand is None:
            raise ServiceError("no_hand", _("No hand is being played right now."))
        # The plan names the seats dealt in, so a seat found there is this table's.
        name = str(seat_id)
        if name not in players_of(hand):
            seat_at(table, seat_id)  # no_seat for a stranger
            raise ServiceError("not_in_hand", _("You are not dealt in this hand."))
        game = get_game(table.game)
        action = Action(name, verb, amount)
        try:
            game.check(state, action)
            new_state, events = game.apply(state, action)
        except RuleError as error:
            raise ServiceError(error.code, error.message) from None
        log = TableLog(table)
        recorded = log.append(
            "action",
            {"player": name, "verb": verb, "amount": amount},
            hand=hand,
            actor_id=seat_id,
            client_action_id=client_action_id,
        )
        for event in events:
            log.append(event.kind, dict(event.data), hand=hand, visible_to=event.visible_to)
        action_seq = recorded.seq
        after_state_change(log, hand=hand, state=new_state, actor_name=name, verb=verb, action_seq=action_seq)
        log.flush()
    return action_seq


def hand_see(*, table_id: int, seat_id: int, client_action_id: str | None = None) -> int:
    """Look at one's own cards (Teen Patti), in turn or out of it."""
    game_name = (
        Table.objects.filter(pk=table_id).values_list("game", flat=True).first() if isinstance(table_id, int) else None
    )
    if game_name is None:
        raise ServiceError("no_table", _("There is no such table."))
    if game_name == "holdem":
        raise ServiceError("not_supported", _("In hold'em your cards are face up to you from the deal."))
    return hand_act(table_id=table_id, seat_id=seat_id, verb="see", client_action_id=client_action_id)


def hand_start_next(*, table_id: int, after_number: int) -> Hand | None:
    """Deal the hand after ``after_number`` if it is still due (the Celery task's service)."""
    with transaction.atomic():
        table = lock_table(table_id)
        if table.hands_played != after_number:
            return None
        log = TableLog(table)
        hand = deal_next_hand(log)
        log.flush()
    return hand


def hand_remind(*, table_id: int, hand_id: int, turn_seq: int) -> bool:
    """Remind the player (and the table) whose turn started at ``turn_seq`` if it still waits.

    Never acts for anyone. Returns whether a reminder was sent.
    """
    with transaction.atomic():
        table = lock_table(table_id)
        hand = Hand.objects.filter(pk=hand_id, table=table).first()
        if (
            hand is None
            or hand.ended_at is not None
            or hand.turn_seq != turn_seq
            or not hand.to_act
            or table.status != Table.Status.PLAYING
        ):
            return False
        log = TableLog(table)
        log.append(
            "reminder",
            {"player": hand.to_act, "deadline": hand.turn_deadline.isoformat() if hand.turn_deadline else None},
            hand=hand,
        )
        log.flush()
    return True
