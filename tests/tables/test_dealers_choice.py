"""Dealer's choice (docs/rules.md, "Dealer's choice"): the host lets the dealer of each hand call
its variant from those allowed, before the deal; the call is logged for everyone, the hand is
dealt with it, the history says it, and the game still verifies. Abuse: only the next dealer,
only an allowed variant, only where the host allows it; a refusal changes nothing."""

from __future__ import annotations

import io

import pytest
from django.urls import reverse

from engine import verify
from tables import history, history_words
from tables.events import EventKind, event_frame
from tables.models import Event, Hand, Seat, Table
from tables.selectors import frame_for_viewer
from tables.services import (
    ServiceError,
    seat_come_back,
    seat_remove,
    seat_sit_out,
    table_join,
    table_start,
    variant_call,
)
from tables.services.computers import computer_add
from tables.services.dealing import next_dealer
from tables.services.table_settings import table_settings_build
from tests.tables.conftest import end_game, make_user, open_table
from tests.tables.test_history import client_for, play

pytestmark = pytest.mark.django_db

ALLOWED = ["none", "muflis", "ak47", "joker", "four_card"]


def dealer_seat(table: Table, seats: list[Seat]) -> Seat:
    table.refresh_from_db()
    name = next_dealer(table)
    return next(seat for seat in seats if seat.engine_name == name)


def hand_settings(hand: Hand) -> dict:
    return Event.objects.get(hand=hand, kind=EventKind.HAND_STARTED, payload__has_key="number").payload


def assert_ended_game_verifies(client, table: Table, host: Seat) -> None:
    """The host ends the game; its export, read by the game verifier, passes."""
    end_game(table, host.pk)
    client_for(client, host)
    whole = client.get(reverse("game_export", kwargs={"code": table.code})).content.decode()
    out = io.StringIO()
    assert verify.main(["-"], stdout=out, stdin=io.StringIO(whole)) == 0, out.getvalue()


def test_each_hand_is_dealt_with_the_variant_its_dealer_called(client):
    table, seats = open_table("faras", players=3, choices={"dealers_choice": ALLOWED}, start=False)
    calls = ["muflis", "ak47", "joker", "four_card"]
    # the first hand's dealer calls before the game starts; each later one during the hand before
    assert variant_call(table_id=table.pk, seat_id=dealer_seat(table, seats).pk, variant=calls[0]) == 1
    table_start(table_id=table.pk, seat_id=seats[0].pk)
    for number, variant in enumerate(calls[1:], start=2):
        assert variant_call(table_id=table.pk, seat_id=dealer_seat(table, seats).pk, variant=variant) == number
        play(table, seats, hands=number - 1, seed=number)
    play(table, seats, hands=len(calls), seed=9)
    names = history.seat_names(table=table)
    for number, variant in enumerate(calls, start=1):
        hand = Hand.objects.get(table=table, number=number)
        started = hand_settings(hand)
        assert started["settings"]["variant"] == variant and started["variant_called"] is True
        words = " ".join(history.hand_replay_steps(table=table, hand=hand, viewer=None)[0]["words"])
        assert "The dealer calls:" in words and history_words._VARIANT_NAMES[variant] in words
        call = Event.objects.filter(table=table, kind=EventKind.VARIANT_CALLED, payload__number=number).get()
        assert call.visible_to is None and frame_for_viewer(event_frame(call), None)["data"]["variant"] == variant
        assert str(call.payload["seat"]) == started["dealer"]  # the dealer of that hand called it
        sentence = history_words.describe_event(EventKind.VARIANT_CALLED, call.payload, names, None)
        assert names[str(call.payload["seat"])] in sentence
    assert_ended_game_verifies(client, table, seats[0])


def test_a_dealer_who_calls_nothing_plays_the_tables_variant():
    table, _seats = open_table("faras", players=3, choices={"variant": "muflis", "dealers_choice": ["none", "joker"]})
    started = hand_settings(Hand.objects.get(table=table, number=1))
    assert started["settings"]["variant"] == "muflis" and "variant_called" not in started


def test_only_the_next_dealer_calls_only_an_allowed_variant_and_a_refusal_changes_nothing():
    table, seats = open_table("faras", players=3, choices={"dealers_choice": ["none", "muflis"]}, start=False)
    dealer = dealer_seat(table, seats)
    others = [seat for seat in seats if seat.pk != dealer.pk]
    watcher = table_join(code=table.code, invite_token=table.invite_token, user=make_user("watcher"))
    elsewhere, elsewhere_seats = open_table("faras", players=2, start=False)
    before = Table.objects.get(pk=table.pk).last_seq
    refusals = [
        (others[0].pk, "muflis", "not_the_dealer"),  # a player who does not deal next
        (watcher.pk, "muflis", "not_the_dealer"),  # a watcher with no seat at the felt
        (elsewhere_seats[0].pk, "muflis", "no_seat"),  # a stranger from another table
        (None, "muflis", "no_seat"),  # nobody
        (dealer.pk, "joker", "variant_not_allowed"),  # a variant the host did not allow
        (dealer.pk, ["muflis"], "variant_not_allowed"),  # not a variant's name
    ]
    for seat_id, variant, code in refusals:
        with pytest.raises(ServiceError) as refused:
            variant_call(table_id=table.pk, seat_id=seat_id, variant=variant)
        assert refused.value.code == code, (seat_id, variant)
    assert Table.objects.get(pk=table.pk).last_seq == before
    # a banned friend cannot call
    banned = next(seat for seat in others if seat.pk != seats[0].pk)
    seat_remove(table_id=table.pk, seat_id=seats[0].pk, remove_seat_id=banned.pk, ban=True)
    with pytest.raises(ServiceError) as refused:
        variant_call(table_id=table.pk, seat_id=banned.pk, variant="muflis")
    assert refused.value.code == "not_the_dealer"
    # at a table where the host allows no dealer's choice nobody calls
    with pytest.raises(ServiceError) as refused:
        variant_call(table_id=elsewhere.pk, seat_id=elsewhere_seats[0].pk, variant="muflis")
    assert refused.value.code == "no_dealers_choice"


def test_a_dealer_calls_once_a_hand_and_a_second_call_writes_nothing():
    table, seats = open_table("faras", players=3, choices={"dealers_choice": ALLOWED}, start=False)
    dealer = dealer_seat(table, seats)
    assert variant_call(table_id=table.pk, seat_id=dealer.pk, variant="muflis") == 1
    after_call = Table.objects.get(pk=table.pk).last_seq
    # The same call again (a second tap, another of their pages): done already, nothing written.
    assert variant_call(table_id=table.pk, seat_id=dealer.pk, variant="muflis") == 1
    # Another variant: refused with a sentence, nothing written; the first call stands.
    for variant in ("ak47", "none", "joker"):
        with pytest.raises(ServiceError) as refused:
            variant_call(table_id=table.pk, seat_id=dealer.pk, variant=variant)
        assert refused.value.code == "already_called"
        assert refused.value.message == "You have already called the next hand; a dealer's call stands once made."
    assert Table.objects.get(pk=table.pk).last_seq == after_call
    assert Event.objects.filter(table=table, kind=EventKind.VARIANT_CALLED).count() == 1
    table_start(table_id=table.pk, seat_id=seats[0].pk)
    assert hand_settings(Hand.objects.get(table=table, number=1))["settings"]["variant"] == "muflis"
    # The next hand is another hand: its dealer calls it afresh.
    assert variant_call(table_id=table.pk, seat_id=dealer_seat(table, seats).pk, variant="ak47") == 2


def test_a_new_next_dealer_calls_for_themselves_and_the_old_call_stands_if_its_dealer_deals_again():
    table, seats = open_table("faras", players=3, choices={"dealers_choice": ALLOWED}, start=False)
    first = dealer_seat(table, seats)
    variant_call(table_id=table.pk, seat_id=first.pk, variant="muflis")
    seat_sit_out(table_id=table.pk, seat_id=first.pk)  # someone else deals the first hand now
    second = dealer_seat(table, seats)
    assert second.pk != first.pk
    assert variant_call(table_id=table.pk, seat_id=second.pk, variant="joker") == 1
    seat_come_back(table_id=table.pk, seat_id=first.pk)
    assert dealer_seat(table, seats).pk == first.pk
    with pytest.raises(ServiceError) as refused:  # their call for this hand was made
        variant_call(table_id=table.pk, seat_id=first.pk, variant="ak47")
    assert refused.value.code == "already_called"
    table_start(table_id=table.pk, seat_id=seats[0].pk)
    started = hand_settings(Hand.objects.get(table=table, number=1))
    assert started["dealer"] == first.engine_name and started["settings"]["variant"] == "muflis"


def test_a_call_by_a_player_who_no_longer_deals_is_not_used():
    table, seats = open_table("faras", players=3, choices={"dealers_choice": ["none", "muflis"]}, start=False)
    dealer = dealer_seat(table, seats)
    variant_call(table_id=table.pk, seat_id=dealer.pk, variant="muflis")
    seat_sit_out(table_id=table.pk, seat_id=dealer.pk)  # they sit out before the deal
    table_start(table_id=table.pk, seat_id=seats[0].pk)
    started = hand_settings(Hand.objects.get(table=table, number=1))
    assert started["dealer"] != dealer.engine_name
    assert started["settings"].get("variant", "none") == "none" and "variant_called" not in started


def test_the_host_allows_at_least_two_variants_and_only_at_faras_or_classic():
    assert table_settings_build(game="classic", choices={"dealers_choice": ALLOWED})["dealers_choice"] == ALLOWED
    assert "dealers_choice" not in table_settings_build(game="faras", choices={"dealers_choice": []})
    for game, value in (("faras", ["muflis"]), ("faras", ["muflis", "lowball"]), ("999", ALLOWED), ("holdem", ALLOWED)):
        with pytest.raises(ServiceError) as refused:
            table_settings_build(game=game, choices={"dealers_choice": value})
        assert refused.value.field == "dealers_choice", (game, value)


def test_a_computer_that_deals_calls_an_allowed_variant_before_its_hand(client):
    """A computer dealing at dealer's choice calls at the deal, logged as anyone's call (with
    ``"by": "computer"``) before the hand starts; its hand is dealt with it; a person who
    calls nothing still plays the table's variant; the game verifies."""
    from tests.tables.test_computers import PLAY_CHIPS, _play
    from tests.tables.test_payloads import payload_problems

    table, seats = open_table(
        "faras", players=2, choices={**PLAY_CHIPS, "seats": 4, "dealers_choice": ALLOWED}, start=False
    )
    computer_add(table_id=table.pk, seat_id=seats[0].pk, strength="normal")
    computer_add(table_id=table.pk, seat_id=seats[0].pk, strength="easy")
    table_start(table_id=table.pk, seat_id=seats[0].pk)
    _play(table, hands=8)
    computers = {str(pk) for pk in Seat.objects.filter(table=table).exclude(computer="").values_list("pk", flat=True)}
    names = history.seat_names(table=table)
    by_computers = 0
    for hand in Hand.objects.filter(table=table).order_by("number"):
        started = hand_settings(hand)
        calls = list(Event.objects.filter(table=table, kind=EventKind.VARIANT_CALLED, payload__number=hand.number))
        if started["dealer"] not in computers:
            assert calls == [] and "variant_called" not in started, hand.number
            assert started["settings"].get("variant", "none") == "none"
            continue
        by_computers += 1
        assert len(calls) == 1, hand.number
        call = calls[0]
        assert call.payload["by"] == "computer" and str(call.payload["seat"]) == started["dealer"]
        assert payload_problems(call.kind, call.payload) == []  # the shape tables.payloads declares
        assert call.payload["variant"] in ALLOWED and call.visible_to is None
        assert call.seq < Event.objects.get(hand=hand, kind=EventKind.HAND_STARTED, payload__has_key="number").seq
        assert started["settings"]["variant"] == call.payload["variant"] and started["variant_called"] is True
        sentence = history_words.describe_event(EventKind.VARIANT_CALLED, call.payload, names, None)
        assert names[started["dealer"]] in sentence
    assert by_computers >= 2
    assert_ended_game_verifies(client, table, seats[0])


def test_a_computers_call_comes_from_the_tables_secret_alone():
    """The same table secret, hand and seat give the same call (a restart changes nothing);
    another secret gives other calls, so a player who knows everything but the secret
    cannot foresee them (the secret never leaves the server before the game ends)."""
    from tables.services.dealing import _computer_variant

    table, seats = open_table("faras", players=2, choices={"dealers_choice": ALLOWED}, start=False)
    seat = seats[1]
    table.secret_seed = bytes(range(32))
    first = [_computer_variant(table, seat, number, ALLOWED) for number in range(1, 41)]
    assert first == [_computer_variant(table, seat, number, ALLOWED) for number in range(1, 41)]
    assert set(first) == set(ALLOWED)
    table.secret_seed = bytes(range(1, 33))
    assert [_computer_variant(table, seat, number, ALLOWED) for number in range(1, 41)] != first
