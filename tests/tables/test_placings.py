"""Hold'em placings at the game's end (rule book 001, "Leaving the table and winning"):
players still at the table by chips; those who went out in the order they went out, two
out in one hand placed by the chips they started it with; players level share a place.
The ``game_ended`` event keeps them, and the table's history page shows them."""

from __future__ import annotations

import pytest
from django.test import Client
from django.utils import timezone

from tables import selectors
from tables.models import Event, Hand, Table
from tables.services import hand_act
from tests.tables.conftest import current_turn, open_table

pytestmark = pytest.mark.django_db


def _hand(table, number, players, stacks):
    Hand.objects.create(
        table=table,
        number=number,
        plan={"players": [[str(seat.pk), chips] for seat, chips in players]},
        result={"stacks": {str(seat.pk): chips for seat, chips in stacks}},
        ended_at=timezone.now(),
    )


def test_two_out_in_one_hand_are_placed_by_the_chips_they_started_it_with():
    table, (asha, bikash, chandra, dawa) = open_table("holdem", players=4, start=False)
    _hand(table, 1, [(asha, 1000), (bikash, 1000), (chandra, 1000), (dawa, 1000)],
          [(asha, 1500), (bikash, 700), (chandra, 800), (dawa, 0)])  # fmt: skip
    _hand(table, 2, [(asha, 1500), (bikash, 700), (chandra, 800)], [(asha, 3000), (bikash, 0), (chandra, 0)])
    asha.stack, bikash.stack, chandra.stack, dawa.stack = 4000, 0, 0, 0
    for seat in (asha, bikash, chandra, dawa):
        seat.save(update_fields=["stack"])
    placings = selectors.holdem_placings(table=table)
    assert [(p["seat"], p["place"], p["chips"]) for p in placings] == [
        (asha.pk, 1, 4000),
        (chandra.pk, 2, 0),  # out in hand 2 with 800 at its start
        (bikash.pk, 3, 0),  # out in hand 2 with 700
        (dawa.pk, 4, 0),  # out first
    ]
    assert placings[0]["name"] == asha.display_name


def test_players_level_share_a_place_and_the_next_place_skips():
    table, (asha, bikash, chandra) = open_table("holdem", players=3, start=False)
    _hand(table, 1, [(asha, 1000), (bikash, 1000), (chandra, 1000)], [(asha, 1500), (bikash, 1500), (chandra, 0)])
    asha.stack, bikash.stack, chandra.stack = 1500, 1500, 0
    for seat in (asha, bikash, chandra):
        seat.save(update_fields=["stack"])
    places = {p["seat"]: p["place"] for p in selectors.holdem_placings(table=table)}
    assert places == {asha.pk: 1, bikash.pk: 1, chandra.pk: 3}


def test_a_game_played_to_the_end_keeps_its_placings_and_the_history_shows_them():
    table, seats = open_table("holdem", players=3)
    out_in_hand: dict[str, int] = {}
    for _ in range(3000):
        table.refresh_from_db()
        if table.status == Table.Status.ENDED:
            break
        player, legal = current_turn(table)
        verbs = [action.verb for action in legal]
        hand_act(table_id=table.pk, seat_id=int(player), verb="allin" if "allin" in verbs else "call")
    assert table.status == Table.Status.ENDED
    for hand in Hand.objects.filter(table=table).order_by("number"):
        for name, stack in (hand.result or {}).get("stacks", {}).items():
            if stack == 0:
                out_in_hand.setdefault(name, hand.number)
    ended = Event.objects.get(table=table, kind="game_ended")
    placings = ended.payload["placings"]
    assert placings[0]["place"] == 1 and placings[0]["chips"] == 3000
    assert sum(p["chips"] for p in placings) == 3000
    out = [p for p in placings if p["chips"] == 0]
    assert len(out) == 2
    # The later out places higher.
    assert out_in_hand[str(out[0]["seat"])] >= out_in_hand[str(out[1]["seat"])]
    client = Client()
    client.force_login(seats[0].user)
    page = client.get(f"/tables/{table.code}/history/").content.decode()
    for placing in placings:
        assert placing["name"] in page
    assert 'data-place="1"' in page
