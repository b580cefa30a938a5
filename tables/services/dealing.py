"""Dealing a hand: who is dealt in, the dealer, the verifiable deck and the ``hand_started`` event.

Each deal uses ``engine.fairness.hand_deck(secret_seed, table code, hand number,
player seeds)``; the ``hand_started`` event records everything a verifier needs:
the table code, the hand number, the seed commitment, the player seeds, the dealer,
the players and stacks dealt in, and the hand's settings.
"""

from __future__ import annotations

from dataclasses import asdict, replace

from engine.api import HandPlan, TablePosition
from engine.bots import choose_variant, decision_stream
from engine.fairness import hand_deck
from engine.games import get_game
from tables.events import EventKind
from tables.models import Event, Hand, Seat, Table
from tables.services.hand_end import game_end
from tables.services.log import TableLog
from tables.services.seat_state import AWAY_KEY, sitting_out_dealt_in
from tables.services.turns import after_state_change
from tables.sql.read import player_seeds, rows_where
from tables.sql.write import row_insert


def deal_next_hand(log: TableLog) -> Hand | None:
    """Deal a hand if the table is playing and no hand is live; returns it, or ``None``.

    The hand returned may already be over (everyone all in at the deal): its
    ``ended_at`` is set, and the caller runs the between-hands flow.
    Hold'em ends the game when too few players have chips or its length is reached;
    Teen Patti waits for players to buy in again.
    """
    table = log.table
    if table.status != Table.Status.PLAYING or _hand_live(log):
        return None
    game = get_game(table.game)
    rules = game.table_rules
    if table.ending:  # the host ended the game during the last hand
        game_end(log, reason="host")
        return None
    game_length = table.settings.get("game_length")
    if rules.game_length_allowed and game_length and table.hands_played >= game_length:
        game_end(log, reason="length")
        return None
    seats = seats_to_deal(table)
    position = position_for_seats(table, seats)
    plan = game.plan_hand(
        settings=table.settings["engine"], seats=[(seat.engine_name, seat.stack) for seat in seats], previous=position
    )
    # Players sitting out dealt in (a table shared by places) are away for the whole hand.
    away = sorted(seat.engine_name for seat in seats if seat.status == Seat.Status.SITTING_OUT)
    people = {seat.engine_name for seat in seats if not seat.computer}
    if plan is not None and away and not (people - set(away)).intersection(name for name, _stack in plan.players):
        # Every person dealt in is away: the table waits for one to come back rather than
        # play a hand of absent players (or end the game while they are away).
        log.append(EventKind.WAITING, {"reason": "everyone_away"})
        return None
    if plan is not None and not people.intersection(name for name, _stack in plan.players):
        # Computers never play on by themselves. Book 001: "If every person at the table runs
        # out of chips, the game ends there and the biggest stack left takes first place."
        if rules.ends_when_one_left and not _sitting_out_with_chips(table):
            game_end(log, reason="no_people")
        else:
            log.append(EventKind.WAITING, {"reason": "no_people"})
        return None
    if plan is None:
        if rules.ends_when_one_left and not _sitting_out_with_chips(table):
            game_end(log, reason="one_left")
        else:
            log.append(EventKind.WAITING, {"reason": "too_few_players"})
        return None

    number = table.hands_played + 1
    plan, called = _with_called_variant(log, plan, number, seats)
    table.next_deal_at = None
    seeds = player_seeds(table_id=table.pk, number=number)
    pairs = [(str(name), int(stack)) for name, stack in plan.players]
    players = [[name, stack] for name, stack in pairs]  # as the plan keeps them (JSON lists)
    by_name = {seat.engine_name: seat for seat in seats}
    dealer_seat = by_name.get(pairs[plan.dealer][0])
    hand = Hand(
        table=table,
        number=number,
        dealer=dealer_seat,
        plan={
            "players": players,
            "dealer": plan.dealer,
            "dealer_seat_number": dealer_seat.number if dealer_seat is not None else None,
            "settings": dict(plan.settings),
            "position_before": dict(table.position),
            # Who of those dealt in is a computer (seated and removed only between hands), so
            # each turn knows without a query whether its alarm is a computer's move.
            "computers": sorted(seat.engine_name for seat in seats if seat.computer),
            **({AWAY_KEY: [name for name, _stack in pairs if name in away]} if away else {}),
        },
        player_seeds=seeds,
    )
    row_insert(hand)
    table.hands_played = number
    table.position = asdict(plan.position)
    deck = hand_deck(bytes(table.secret_seed), table.code, number, seeds)
    state, events = game.start_hand(settings=plan.settings, players=pairs, dealer=plan.dealer, deck=deck)
    log.append(
        EventKind.HAND_STARTED,
        {
            "number": number,
            "table": table.code,
            "seed_commitment": table.seed_commitment,
            "player_seeds": seeds,
            "dealer": players[plan.dealer][0],
            "dealer_index": plan.dealer,
            "players": players,
            "settings": dict(plan.settings),
            **({"variant_called": True} if called else {}),
        },
        hand=hand,
    )
    for event in events:
        log.append(EventKind(event.kind), dict(event.data), hand=hand, visible_to=event.visible_to)
    after_state_change(log, hand=hand, state=state, actor_name=None, verb=None)
    return hand


def _with_called_variant(log: TableLog, plan: HandPlan, number: int, seats: list[Seat]) -> tuple[HandPlan, bool]:
    """Dealer's choice: the plan with the variant this hand's dealer called for it, if they did
    (the latest call by the seat that deals it, among the variants the host allows), and
    whether they did. A computer that deals calls at the deal (people call from the page
    before it): its call is logged as anyone's, before the hand starts."""
    table = log.table
    allowed = table.settings.get("dealers_choice") or []
    if not allowed:
        return plan, False
    dealer = plan.players[plan.dealer][0]
    called = (
        Event.objects.filter(table=table, kind=EventKind.VARIANT_CALLED, payload__number=number)
        .order_by("-seq")
        .values_list("payload", flat=True)
    )
    for payload in called:
        if str(payload.get("seat")) == dealer and payload.get("variant") in allowed:
            return replace(plan, settings={**plan.settings, "variant": payload["variant"]}), True
    seat = next((seat for seat in seats if seat.engine_name == dealer), None)
    if seat is None or not seat.computer:
        return plan, False
    variant = _computer_variant(table, seat, number, allowed)
    log.append(EventKind.VARIANT_CALLED, {"seat": seat.pk, "variant": variant, "number": number, "by": "computer"})
    return replace(plan, settings={**plan.settings, "variant": variant}), True


def variant_called_by(table: Table, *, number: int, seat_id: int) -> str | None:
    """The variant seat ``seat_id`` called for hand ``number``, if it called one (a dealer calls
    once per hand: ``tables.services.hosting.variant_call``)."""
    called = Event.objects.filter(table=table, kind=EventKind.VARIANT_CALLED, payload__number=number)
    for payload in called.values_list("payload", flat=True):
        if str(payload.get("seat")) == str(seat_id):
            return str(payload.get("variant"))
    return None


def _computer_variant(table: Table, seat: Seat, number: int, allowed: list[str]) -> str:
    # Drawn from the table's secret by HMAC, as a computer's moves are (tables.services.computers):
    # the players cannot foresee it, and the same hand after a restart gets the same call.
    return choose_variant(
        allowed=allowed, rng=decision_stream(bytes(table.secret_seed), f"computer-variant|{number}|{seat.pk}")
    )


def _sitting_out_with_chips(table: Table) -> bool:
    """Whether a player sitting out (not dealt in: a table shared by chips) still has chips.
    Book 001's game ends when one player has every chip, or when every person has run out:
    a player who only sat out has neither won nor lost theirs, so the table waits for them
    (or for the host to end the game) instead of ending it while they are away."""
    return Seat.objects.filter(table=table, status=Seat.Status.SITTING_OUT, number__isnull=False, stack__gt=0).exists()


def seats_to_deal(table: Table) -> list[Seat]:
    """The seats dealt in the next hand (with chips, by the game's plan), in seat order: those
    playing, and at a table shared by places those sitting out too (``sitting_out_dealt_in``)."""
    if sitting_out_dealt_in(table):
        seated = rows_where(Seat, equal={"table_id": table.pk}, null={"number": False}, order_by=["number"])
        return [seat for seat in seated if seat.status in (Seat.Status.PLAYING, Seat.Status.SITTING_OUT)]
    return rows_where(
        Seat, equal={"table_id": table.pk, "status": Seat.Status.PLAYING}, null={"number": False}, order_by=["number"]
    )


def next_dealer(table: Table) -> str | None:
    """The engine name of the player who would deal the next hand with the seats as they are
    now (``None``: too few players to deal)."""
    seats = seats_to_deal(table)
    plan = get_game(table.game).plan_hand(
        settings=table.settings["engine"],
        seats=[(seat.engine_name, seat.stack) for seat in seats],
        previous=position_for_seats(table, seats),
    )
    return None if plan is None else plan.players[plan.dealer][0]


def _hand_live(log: TableLog) -> bool:
    """Whether the table has a live hand. Not asked of the database when this transaction
    ended the live hand and dealt none since (``TableLog.live_hand`` is ``None``): the table's
    row is locked, and a hand is only dealt here, when none is live, so none is."""
    if log.live_hand is None:
        return False
    return bool(rows_where(Hand, equal={"table_id": log.table.pk}, null={"ended_at": True}))


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
