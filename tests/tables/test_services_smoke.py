"""Services: a whole game of Faras played through the services alone."""

from __future__ import annotations

import random

import pytest

from tables.models import Event
from tables.services import hand_act
from tests.tables.conftest import current_turn, open_table, random_action


@pytest.mark.django_db
def test_random_faras_hands_keep_every_chip_and_number_events_without_gaps():
    rng = random.Random(5)
    table, seats = open_table("faras", players=4)
    by_name = {seat.engine_name: seat for seat in seats}
    for _step in range(300):
        player, legal = current_turn(table)
        if player is None:
            break
        verb, amount = random_action(rng, legal)
        hand_act(table_id=table.pk, seat_id=by_name[player].pk, verb=verb, amount=amount)
    table.refresh_from_db()
    assert table.hands_played > 3
    seqs = list(Event.objects.filter(table=table).values_list("seq", flat=True))
    assert seqs == list(range(1, len(seqs) + 1))
