"""Teen Patti variants at a live table (docs/rules.md, "Variants"): the host picks one on the open
form or between hands; hands are dealt, played, shown and settled through the services; the Joker
variant's turned card reaches everyone and the log, the history and the replayer; every hand of
every variant exports and verifies."""

from __future__ import annotations

import io
import json

import pytest
from django.urls import reverse

from engine import verify
from engine.replay import run_scenario
from tables import history, history_words, what_viewers_see
from tables.events import EventKind, event_frame
from tables.models import Event, Hand, Seat
from tables.pages.forms import OpenTableForm
from tables.selectors import frame_for_viewer
from tables.services import ServiceError, hand_act, table_update_settings
from tables.services.table_settings import table_settings_build
from tests.tables.conftest import current_turn, end_game, open_table
from tests.tables.test_history import client_for, play, replay_data

pytestmark = pytest.mark.django_db

VARIANTS = ["muflis", "ak47", "joker", "four_card"]


def played(game: str, variant: str, *, hands: int = 3, seed: int = 5):
    table, seats = open_table(game, players=3, choices={"variant": variant})
    play(table, seats, hands=hands, seed=seed)
    end_game(table, seats[0].pk)
    table.refresh_from_db()
    return table, seats


# --- the host's choice -------------------------------------------------------------------------


def test_the_open_form_offers_the_variants_for_faras_and_classic_not_999():
    for game in ("faras", "classic"):
        form = OpenTableForm(game=game)
        assert [value for value, _label in form.fields["variant"].choices] == ["none", *VARIANTS]
    assert "variant" not in OpenTableForm(game="999").fields
    assert "variant" not in OpenTableForm(game="holdem").fields


def test_the_open_form_stores_the_variant_in_the_engine_settings():
    form = OpenTableForm(data={**_defaults("classic"), "variant": "joker"}, game="classic")
    assert form.is_valid(), form.errors
    assert form.table_settings["engine"]["variant"] == "joker"


def _defaults(game: str) -> dict:
    form = OpenTableForm(game=game)
    return {name: field.initial for name, field in form.fields.items() if field.initial is not None}


def test_a_bad_variant_is_refused_naming_the_field_and_changes_nothing():
    for game, value in (("faras", "lowball"), ("999", "muflis"), ("faras", ["joker"])):
        with pytest.raises(ServiceError) as refused:
            table_settings_build(game=game, choices={"variant": value})
        assert refused.value.code == "invalid_settings" and refused.value.field == "variant"
    assert table_settings_build(game="faras", choices={"variant": "none"})["engine"].get("variant", "none") == "none"


def test_only_the_host_changes_the_variant_between_hands():
    table, seats = open_table("faras", players=3, start=False)
    with pytest.raises(ServiceError):
        table_update_settings(table_id=table.pk, seat_id=seats[1].pk, choices={"variant": "muflis"})
    table.refresh_from_db()
    assert table.settings["engine"].get("variant", "none") == "none"
    table_update_settings(table_id=table.pk, seat_id=seats[0].pk, choices={"variant": "muflis"})
    table.refresh_from_db()
    assert table.settings["engine"]["variant"] == "muflis"


# --- played through the services ----------------------------------------------------------------


@pytest.mark.parametrize("variant", VARIANTS)
def test_variant_hands_export_and_verify(client, variant):
    table, seats = played("classic" if variant == "joker" else "faras", variant)
    finished = Hand.objects.filter(table=table, result__isnull=False).exclude(result__has_key="void")
    assert finished.count() >= 2
    client_for(client, seats[0])
    for hand in finished:
        started = Event.objects.get(hand=hand, kind=EventKind.HAND_STARTED, payload__has_key="number")
        assert started.payload["settings"]["variant"] == variant
        exported = json.loads(
            client.get(reverse("hand_export", kwargs={"code": table.code, "number": hand.number})).content
        )
        assert exported["settings"]["variant"] == variant
        status, output = run_scenario(exported)
        assert status == 0 and output["finished"], output
        assert output["stacks"] == hand.result["stacks"]
        assert sum(output["stacks"].values()) == sum(stack for _name, stack in hand.plan["players"])
        # the history says the variant with the hand it was played in
        steps = history.hand_replay_steps(table=table, hand=hand, viewer=None)
        assert history_words._VARIANT_NAMES[variant] in " ".join(steps[0]["words"])
        dealt = Event.objects.get(hand=hand, kind=EventKind.DEALT)
        assert dealt.payload["cards_each"] == (4 if variant == "four_card" else 3)
    whole = json.loads(client.get(reverse("game_export", kwargs={"code": table.code})).content)
    out = io.StringIO()
    assert verify.main(["-"], stdout=out, stdin=io.StringIO(json.dumps(whole))) == 0, out.getvalue()


def test_joker_variant_at_the_table_turned_card_in_log_history_and_views(client):
    table, seats = played("faras", "joker", hands=2, seed=3)
    hands = list(Hand.objects.filter(table=table, result__isnull=False).exclude(result__has_key="void"))
    assert hands
    names = history.seat_names(table=table)
    for hand in hands:
        joker = Event.objects.get(hand=hand, kind=EventKind.JOKER)
        assert joker.visible_to is None  # everyone: each player and every watcher
        card = joker.payload["card"]
        watcher = frame_for_viewer(event_frame(joker), None)
        assert watcher["data"]["card"] == card
        for seat in seats:
            assert frame_for_viewer(event_frame(joker), str(seat.pk))["data"]["card"] == card
        # the hand's history in words, for a watcher and for each player, names the card
        for viewer in (None, *[str(seat.pk) for seat in seats]):
            steps = history.hand_replay_steps(table=table, hand=hand, viewer=viewer)
            words = " ".join(" ".join(step["words"]) for step in steps)
            assert f"The card turned up is {card}" in words
            assert all(step["view"]["joker"] == card for step in steps)
        sentence = history_words.describe_event(EventKind.JOKER, joker.payload, names, None, engine=True)
        assert card in sentence and "joker" in sentence
    # the live table's snapshot (what each page draws, a watcher's too) shows the turned card
    live_table, live_seats = open_table("faras", players=3, choices={"variant": "joker"})
    live = Hand.objects.get(table=live_table, ended_at__isnull=True)
    card = Event.objects.get(hand=live, kind=EventKind.JOKER).payload["card"]
    for seat_id in (None, *[seat.pk for seat in live_seats]):
        snapshot = what_viewers_see.table_snapshot(table_id=live_table.pk, seat_id=seat_id)
        assert snapshot["hand"]["view"]["joker"] == card
        assert snapshot["hand"]["view"]["variant"] == "joker"
        assert snapshot["table"]["rules"]["turns_a_card"] is True
    # the replayer page carries it for a player
    client_for(client, seats[1])
    page = client.get(reverse("hand_history", kwargs={"code": table.code, "number": hands[0].number}))
    assert page.status_code == 200
    data = replay_data(page.content.decode())
    assert "The card turned up is" in json.dumps(data)
    # the replayer draws the turned card in the middle of its table (its own words for it)
    assert "%(card)s" in data["strings"]["joker"]
    assert all(step["view"]["joker"] for step in data["steps"])


def test_four_card_a_player_who_looks_sees_four_cards_and_nobody_else_does():
    table, seats = open_table("faras", players=3, choices={"variant": "four_card"})
    hand = Hand.objects.get(table=table, ended_at__isnull=True)
    player, _legal = current_turn(table)
    seat = next(seat for seat in seats if seat.engine_name == player)
    hand_act(table_id=table.pk, seat_id=seat.pk, verb="see", amount=None)
    cards = Event.objects.get(hand=hand, kind=EventKind.CARDS)
    assert len(cards.payload["cards"]) == 4 and len(cards.payload["hand"]["cards"]) == 3
    assert cards.visible_to == [seat.engine_name]
    others = [other for other in seats if other.pk != seat.pk]
    for other in others:
        assert "data" not in frame_for_viewer(event_frame(cards), other.engine_name)
    snapshot = what_viewers_see.table_snapshot(table_id=table.pk, seat_id=others[0].pk)
    assert all(player["cards"] is None for player in snapshot["hand"]["view"]["players"])
    assert snapshot["table"]["rules"]["hole_cards"] == 4


@pytest.mark.parametrize("variant", VARIANTS)
def test_computers_play_every_variant_through_the_services(variant):
    from ledger.selectors import ledger_chip_totals
    from tables.services import table_start
    from tables.services.computers import computer_add
    from tests.tables.test_computers import PLAY_CHIPS, _play

    table, seats = open_table("faras", players=2, choices={**PLAY_CHIPS, "seats": 4, "variant": variant}, start=False)
    computer_add(table_id=table.pk, seat_id=seats[0].pk, strength="normal")
    computer_add(table_id=table.pk, seat_id=seats[0].pk, strength="hard")
    table_start(table_id=table.pk, seat_id=seats[0].pk)
    _play(table, hands=4)
    computers = {seat.pk for seat in Seat.objects.filter(table=table).exclude(computer="")}
    assert Event.objects.filter(table=table, kind="action", actor_id__in=computers).exists()
    totals = ledger_chip_totals(table=table)
    assert sum(Seat.objects.filter(table=table).values_list("stack", flat=True)) == totals.bought - totals.cashed_out
