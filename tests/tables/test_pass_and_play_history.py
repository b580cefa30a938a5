"""Pass and play and the hand histories: the history pages opened on the host's phone.

Every socket of the host is the phone (tables.services.pass_and_play) and sees with
nobody's eyes unless a player has tapped on their turn. A page has no tap: the replayer
read with the host's session is the phone too, so it shows the hand as a watcher saw it,
never the host's own hidden cards (live or mucked) to whoever holds the phone.
"""

from __future__ import annotations

import pytest
from django.urls import reverse

from tables.models import Hand
from tables.services import local_player_add, table_start
from tests.tables.conftest import open_table
from tests.tables.leaks import card_owners
from tests.tables.test_history import card_tokens, replay_data

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("game", ["holdem", "faras"])
def test_the_replayer_on_the_phone_shows_no_hidden_card_of_the_host(client, game):
    choices = {"buy_in_price": "0.00", **({} if game == "holdem" else {"buy_in_chips": 300})}
    table, seats = open_table(game, players=1, choices=choices, start=False)
    host = seats[0]
    local_player_add(table_id=table.pk, seat_id=host.pk, name="Asha")
    local_player_add(table_id=table.pk, seat_id=host.pk, name="Bikash")
    table_start(table_id=table.pk, seat_id=host.pk)
    if game != "holdem":  # Teen Patti: the host looks at their cards (their own view holds them)
        from tables.services import hand_see

        hand_see(table_id=table.pk, seat_id=host.pk)
    hand = Hand.objects.get(table=table, number=1)
    assert hand.ended_at is None, "the hand is live"
    client.force_login(table.host)
    page = client.get(reverse("hand_history", kwargs={"code": table.code, "number": 1}))
    assert page.status_code == 200
    shown = card_tokens(replay_data(page.content.decode()))
    hidden = {card for card, owner in card_owners(table)[1].items() if owner == host.engine_name}
    assert hidden and not shown & hidden, f"the phone's history page shows the host's cards {sorted(shown & hidden)}"
