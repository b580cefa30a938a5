"""Table services: settings ranges, seats and buy-backs, host controls, the fairness record.

Rules pinned: rule book 000's host settings and ranges (boot 1-100, buy-backs unlimited /
none / 1, 2, 3, 5, blind turns 2-6 or none, seats 2-8, sideshow on/off, best run); the
presets' own player counts (Classic 3-7); hold'em's blind speed 5/10/20 and game length
until one / 30 / 60 with 1,000 play chips and no rebuys (book 001); buy back between hands
within the limit, with none left you watch; only the host controls the game, between hands
where the book says so; the deck of every hand is re-derivable from what the log records.
"""

from __future__ import annotations

from decimal import Decimal

import pytest

from engine.api import Action
from engine.fairness import commitment, hand_deck
from engine.games import get_game
from tables import selectors
from tables.models import Event, Hand, Seat, Table
from tables.services import (
    ServiceError,
    guest_token_new,
    hand_act,
    seat_buy_back,
    seat_come_back,
    seat_leave,
    seat_remove,
    seat_seed_submit,
    seat_sit_out,
    seat_take,
    table_create,
    table_join,
    table_pause,
    table_resume,
    table_settings_build,
    table_start,
    table_update_settings,
)
from tests.tables.conftest import current_turn, end_game, make_user, open_table

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(
    "game, choices, field",
    [
        ("faras", {"boot": 0}, "boot"),
        ("faras", {"boot": 101}, "boot"),
        ("faras", {"boot": True}, "boot"),
        ("faras", {"buy_backs": 4}, "buy_backs"),
        ("faras", {"blind_turns": 1}, "blind_turns"),
        ("faras", {"blind_turns": 7}, "blind_turns"),
        ("faras", {"seats": 9}, "seats"),
        ("faras", {"seats": 1}, "seats"),
        ("classic", {"seats": 2}, "seats"),
        ("classic", {"seats": 8}, "seats"),
        ("999", {"seats": 17}, "seats"),
        ("faras", {"buy_in_price": "-1"}, "buy_in_price"),
        ("faras", {"buy_in_price": "1.005"}, "buy_in_price"),
        ("faras", {"buy_in_price": 1.5}, "buy_in_price"),
        ("faras", {"buy_in_chips": 5}, "buy_in_chips"),
        ("faras", {"best_run": "KQJ"}, "best_run"),
        ("faras", {"sideshow": "maybe"}, "sideshow"),
        ("faras", {"turn_timer": 1}, "turn_timer"),
        ("faras", {"game_length": 30}, "game_length"),
        ("faras", {"wild_cards": True}, "wild_cards"),
        ("holdem", {"blind_speed": 7}, "blind_speed"),
        ("holdem", {"game_length": 45}, "game_length"),
        ("holdem", {"seats": 7}, "seats"),
        ("holdem", {"buy_backs": 1}, "buy_backs"),
        ("holdem", {"buy_in_price": "-5.00"}, "buy_in_price"),
        ("holdem", {"buy_in_chips": 2000}, "buy_in_chips"),
        ("holdem", {"prizes": "pot"}, "prizes"),
        ("holdem", {"prizes": "places", "payouts": "60/30"}, "payouts"),
        ("holdem", {"prizes": "places", "payouts": "120/-20"}, "payouts"),
        ("holdem", {"prizes": "places", "payouts": "50.5/49.5"}, "payouts"),
        ("holdem", {"prizes": "places", "payouts": "70/30/0"}, "payouts"),
        ("holdem", {"prizes": "places", "payouts": "30/20/20/10/10/5/5"}, "payouts"),
        ("holdem", {"prizes": "places", "payouts": "40/30/20/10", "seats": 3}, "payouts"),
        ("holdem", {"prizes": "places", "payouts": [50, 30, 20.0]}, "payouts"),
        ("holdem", {"prizes": "places", "payouts": {"1": 100}}, "payouts"),
        ("holdem", {"prizes": "places", "payouts": "fifty/fifty"}, "payouts"),
        ("holdem", {"prizes": "places", "payouts": "35/65"}, "payouts"),
        ("faras", {"prizes": "places"}, "prizes"),
        ("holdem", {"boot": 10}, "boot"),
    ],
)
def test_host_settings_outside_the_rule_books_are_refused(game, choices, field):
    with pytest.raises(ServiceError) as refused:
        table_settings_build(game=game, choices=choices)
    assert refused.value.code == "invalid_settings"
    assert refused.value.field == field


def test_host_settings_defaults_and_choices():
    faras = table_settings_build(game="faras")
    assert faras["engine"]["boot"] == 10 and faras["engine"]["blind_turns"] == 4
    assert faras["buy_in_chips"] == 1000 and faras["buy_in_price"] == "10.00" and faras["buy_backs"] is None
    off = table_settings_build(game="faras", choices={"sideshow": False, "blind_turns": None, "buy_backs": 2})
    assert off["engine"]["sideshow"] == "off" and off["engine"]["blind_turns"] is None and off["buy_backs"] == 2
    assert table_settings_build(game="999")["engine"]["ranking"] == "digits"
    holdem = table_settings_build(game="holdem", choices={"blind_speed": 5, "game_length": 60})
    assert holdem["engine"]["blinds_every"] == 5 and holdem["engine"]["game_length"] == 60
    assert holdem["buy_in_chips"] == 1000 and holdem["buy_in_price"] == "0.00" and holdem["buy_backs"] == 0
    assert holdem["prizes"] == "chips" and holdem["payouts"] is None
    # Issue 25: hold'em for money, shared by chips or by places.
    money = table_settings_build(
        game="holdem", choices={"buy_in_price": "20", "currency": "USD", "prizes": "places", "payouts": "50 / 30 / 20%"}
    )
    assert money["buy_in_price"] == "20.00" and money["host"]["currency"] == "USD"
    assert money["prizes"] == "places" and money["payouts"] == [50, 30, 20] and money["host"]["payouts"] == "50/30/20"
    assert table_settings_build(game="holdem", choices={"prizes": "places", "payouts": [65, 35]})["payouts"] == [65, 35]
    assert table_settings_build(game="holdem", choices={"prizes": "places"})["payouts"] == [100]
    # By chips, the payout field (always on the form) is not read.
    assert table_settings_build(game="holdem", choices={"prizes": "chips", "payouts": "oops"})["payouts"] is None


def test_999_seats_sixteen_and_deals_to_all_of_them():
    # Book 002: 999 is for 2 to 16 players.
    assert table_settings_build(game="999", choices={"seats": 16})["seats"] == 16
    table, seats = open_table("999", players=16, choices={"seats": 16})
    assert sorted(seat.number for seat in seats) == list(range(1, 17))
    hand = selectors.hand_live(table=table)
    assert len(hand.plan["players"]) == 16


def test_a_table_commits_to_its_seed_and_joins_by_code():
    host = make_user("host")
    table = table_create(host=host, game="faras", choices={"buy_in_price": "2.50"})
    assert table.seed_commitment == commitment(bytes(table.secret_seed))
    assert table.buy_in_price == Decimal("2.50")
    first = Event.objects.get(table=table, seq=1)
    assert first.kind == "table_created" and first.payload["seed_commitment"] == table.seed_commitment
    assert "secret" not in str(first.payload)
    token = guest_token_new()
    guest = table_join(
        code=table.code.lower(), invite_token=table.invite_token, guest_name="  Maya  ", guest_token=token
    )
    assert guest.display_name == "Maya" and guest.is_guest and guest.status == Seat.Status.WATCHING
    assert (
        table_join(code=table.code, invite_token=table.invite_token, guest_name="Maya", guest_token=token).pk
        == guest.pk
    )
    for bad in ("", "x" * 41, "<script>"):
        with pytest.raises(ServiceError):
            table_join(code=table.code, invite_token=table.invite_token, guest_name=bad, guest_token=guest_token_new())
    with pytest.raises(ServiceError) as refused:
        table_join(code="NOPE99", invite_token=None, user=host)
    assert refused.value.code == "no_table"
    with pytest.raises(ServiceError):
        table_create(host=None, game="faras")


def test_every_deal_can_be_re_derived_from_the_log():
    table, seats = open_table("faras", players=3)
    seat_seed_submit(table_id=table.pk, seat_id=seats[1].pk, seed="from-the-browser")
    with pytest.raises(ServiceError):
        seat_seed_submit(table_id=table.pk, seat_id=seats[1].pk, seed="again")
    # Play the first hand out by packing, so the second is dealt with the seed.
    while Hand.objects.filter(table=table).count() < 2:
        player, _legal = current_turn(table)
        hand_act(table_id=table.pk, seat_id=int(player), verb="pack")
    table.refresh_from_db()
    for started in Event.objects.filter(table=table, kind="hand_started", payload__has_key="player_seeds"):
        data = started.payload
        assert data["table"] == table.code and data["seed_commitment"] == table.seed_commitment
        deck = hand_deck(bytes(table.secret_seed), data["table"], data["number"], data["player_seeds"])
        game = get_game(table.game)
        state, _ = game.start_hand(
            settings=data["settings"],
            players=[tuple(p) for p in data["players"]],
            dealer=data["dealer_index"],
            deck=deck,
        )
        hand = Hand.objects.get(table=table, number=data["number"])
        assert game.view(state, None) == game.view(selectors.hand_start_state(table=table, hand=hand), None)
    assert Event.objects.get(
        table=table, kind="hand_started", payload__number=2, payload__has_key="player_seeds"
    ).payload["player_seeds"] == ["from-the-browser"]
    end_game(table, seats[0].pk)
    ended = Event.objects.get(table=table, kind="game_ended")
    assert bytes.fromhex(ended.payload["secret_seed"]) == bytes(table.secret_seed)


def _finish_hand(table: Table) -> None:
    """Pack until the hand being played is over (the next one is dealt at once in tests)."""
    hand = selectors.hand_live(table=table)
    while hand is not None and selectors.hand_live(table=table) == hand:
        player, _legal = current_turn(table)
        hand_act(table_id=table.pk, seat_id=int(player), verb="pack")


def test_sitting_out_and_coming_back_take_effect_between_hands():
    table, seats = open_table("faras", players=3)
    seat_sit_out(table_id=table.pk, seat_id=seats[2].pk)
    # Still dealt in the hand being played; left out of the next.
    assert str(seats[2].pk) in [p[0] for p in selectors.hand_live(table=table).plan["players"]]
    table_pause(table_id=table.pk, seat_id=seats[0].pk)
    with pytest.raises(ServiceError) as refused:
        hand_act(table_id=table.pk, seat_id=seats[1].pk, verb="pack")
    assert refused.value.code == "paused"
    table_resume(table_id=table.pk, seat_id=seats[0].pk)
    hand = selectors.hand_live(table=table)
    while selectors.hand_live(table=table) == hand:
        player, _legal = current_turn(table)
        hand_act(table_id=table.pk, seat_id=int(player), verb="pack")
    next_hand = selectors.hand_live(table=table)
    assert str(seats[2].pk) not in [p[0] for p in next_hand.plan["players"]]
    seat_come_back(table_id=table.pk, seat_id=seats[2].pk)
    with pytest.raises(ServiceError):
        seat_come_back(table_id=table.pk, seat_id=seats[2].pk)


def test_buy_backs_within_the_limit_and_with_none_left_you_watch():
    table, seats = open_table("faras", players=2, choices={"buy_backs": 1, "buy_in_chips": 20, "boot": 10})
    seat = seats[1]
    with pytest.raises(ServiceError) as refused:
        seat_buy_back(table_id=table.pk, seat_id=seat.pk)
    assert refused.value.code == "hand_in_progress"
    table_pause(table_id=table.pk, seat_id=seats[0].pk)
    end_game(table, seats[0].pk)  # the hand is played out (never called off), then every chip cashed out
    assert {s.stack for s in Seat.objects.filter(table=table)} == {0}
    assert not Event.objects.filter(table=table, kind="hand_void").exists()

    table, seats = open_table("faras", players=2, choices={"buy_backs": 1, "buy_in_chips": 20, "boot": 10}, start=False)
    host, _player = seats
    table_start(table_id=table.pk, seat_id=host.pk)
    # Whoever loses the first hand is left with 10 (= the boot) or less; play until someone is short.
    for _ in range(20):
        short = Seat.objects.filter(table=table, number__isnull=False, stack__lt=10).first()
        if short is not None:
            break
        player_name, legal = current_turn(table)
        if player_name is None:
            break
        verbs = [entry.verb for entry in legal]
        verb = next(v for v in ("show", "see", "chaal", "pack") if v in verbs)
        hand_act(table_id=table.pk, seat_id=int(player_name), verb=verb)
    short = Seat.objects.filter(table=table, number__isnull=False, stack__lt=10).first()
    assert short is not None
    assert Event.objects.filter(table=table, kind="waiting").exists()
    seat_buy_back(table_id=table.pk, seat_id=short.pk)
    short.refresh_from_db()
    assert short.buy_backs_used == 1 and short.buy_ins == 2
    with pytest.raises(ServiceError):
        seat_buy_back(table_id=table.pk, seat_id=short.pk)


def test_host_controls_between_hands_only():
    table, seats = open_table("faras", players=3)
    host, other, third = seats
    with pytest.raises(ServiceError) as refused:
        table_update_settings(table_id=table.pk, seat_id=host.pk, choices={"boot": 20})
    assert refused.value.code == "hand_in_progress"
    with pytest.raises(ServiceError) as refused:
        seat_remove(table_id=table.pk, seat_id=host.pk, remove_seat_id=third.pk)
    assert refused.value.code == "hand_in_progress"
    with pytest.raises(ServiceError) as refused:
        seat_leave(table_id=table.pk, seat_id=third.pk)
    assert refused.value.code == "hand_in_progress"
    with pytest.raises(ServiceError) as refused:
        table_pause(table_id=table.pk, seat_id=other.pk)
    assert refused.value.code == "not_host"
    table_pause(table_id=table.pk, seat_id=host.pk)
    _finish_paused_hand = selectors.hand_live(table=table)
    assert _finish_paused_hand is not None
    end_game(table, host.pk)
    table.refresh_from_db()
    assert table.status == Table.Status.ENDED
    with pytest.raises(ServiceError):
        table_start(table_id=table.pk, seat_id=host.pk)

    table, seats = open_table("faras", players=3, start=False)
    host, other, third = seats
    # Everyone has bought in: the chips per buy-in may change, at the same value (issue 14).
    table_update_settings(
        table_id=table.pk, seat_id=host.pk, choices={"boot": 20, "buy_in_price": "5", "buy_in_chips": 500}
    )
    table.refresh_from_db()
    assert table.settings["engine"]["boot"] == 20 and table.buy_in_price == Decimal("5.00")
    with pytest.raises(ServiceError) as refused:
        table_update_settings(table_id=table.pk, seat_id=host.pk, choices={"seats": 2})
    assert refused.value.field == "seats"
    removed = seat_remove(table_id=table.pk, seat_id=host.pk, remove_seat_id=third.pk)
    assert removed.number is None and removed.stack == 0 and removed.status == Seat.Status.WATCHING
    left = seat_leave(table_id=table.pk, seat_id=other.pk)
    assert left.stack == 0
    # Taking a seat again is a buy-back (unlimited here).
    again = seat_take(table_id=table.pk, seat_id=other.pk, number=5)
    assert again.number == 5 and again.buy_backs_used == 1
    with pytest.raises(ServiceError) as refused:
        seat_take(table_id=table.pk, seat_id=third.pk, number=5)
    assert refused.value.code == "seat_taken"
    with pytest.raises(ServiceError) as refused:
        seat_take(table_id=table.pk, seat_id=third.pk, number=99)
    assert refused.value.code == "bad_seat"


def test_holdem_ends_after_its_length_and_seats_close_once_it_starts():
    table, _seats = open_table("holdem", players=3, choices={"game_length": 30})
    late = table_join(code=table.code, invite_token=table.invite_token, user=make_user("late"))
    with pytest.raises(ServiceError) as refused:
        seat_take(table_id=table.pk, seat_id=late.pk)
    assert refused.value.code == "already_started"
    game = get_game("holdem")
    for _ in range(5000):
        table.refresh_from_db()
        if table.status == Table.Status.ENDED:
            break
        hand = selectors.hand_live(table=table)
        state, _ = selectors.hand_state(table=table, hand=hand)
        player = game.to_act(state)
        verbs = [legal.verb for legal in game.legal_actions(state, player)]
        verb = "check" if "check" in verbs else "fold"
        game.check(state, Action(player, verb))
        hand_act(table_id=table.pk, seat_id=int(player), verb=verb)
    table.refresh_from_db()
    assert table.status == Table.Status.ENDED
    ended = Event.objects.get(table=table, kind="game_ended")
    assert ended.payload["reason"] in ("length", "one_left")
    if ended.payload["reason"] == "length":
        assert table.hands_played == 30
    assert sum(ended.payload["final_stacks"].values()) == 3000


def test_the_ledger_hears_every_buy_in_and_cash_out():
    """DESIGN.md, money: chips at the table always equal chips bought less chips cashed out."""
    from ledger.selectors import ledger_chip_totals

    table, seats = open_table("faras", players=3, choices={"buy_in_chips": 100})
    _finish_hand(table)
    table_pause(table_id=table.pk, seat_id=seats[0].pk)
    _finish_hand_while_paused = selectors.hand_live(table=table)
    assert _finish_hand_while_paused is not None  # paused mid-hand: the hand waits
    end_game(table, seats[0].pk)
    totals = ledger_chip_totals(table=table)
    assert totals.bought == 300
    assert totals.cashed_out == 300  # the game's end cashed out every chip, the void hand's too
    assert sum(Seat.objects.filter(table=table).values_list("stack", flat=True)) == 0


@pytest.mark.parametrize(("game", "fold"), [("faras", "pack"), ("holdem", "fold")])
def test_the_deal_moves_on_one_seat_when_the_last_dealer_sits_out(game, fold):
    """Book 000: the dealer moves on one seat each hand, even past an empty seat."""
    table, seats = open_table(game, players=4)

    def finish_hand():
        hand = selectors.hand_live(table=table)
        while selectors.hand_live(table=table) == hand:
            player, _legal = current_turn(table)
            hand_act(table_id=table.pk, seat_id=int(player), verb=fold)

    finish_hand()
    second = selectors.hand_live(table=table)
    assert second.number == 2
    dealer = second.dealer
    assert dealer.number != min(seat.number for seat in seats)
    seat_sit_out(table_id=table.pk, seat_id=dealer.pk)
    finish_hand()
    third = selectors.hand_live(table=table)
    others = sorted(seat.number for seat in seats if seat.pk != dealer.pk)
    expected = next((number for number in others if number > dealer.number), others[0])
    assert third.dealer.number == expected
