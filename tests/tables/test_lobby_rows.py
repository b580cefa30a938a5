"""The lobby's row for a table whose game is over: no "Playing · 0 chips", a link to who owes whom.

Issue 16: after the game ended the lobby listed the table as "Playing · 0 chips".
"""

from __future__ import annotations

import pytest
from django.urls import reverse

from tests.tables.conftest import end_game, open_table

pytestmark = pytest.mark.django_db


def lobby_row(client, code: str) -> str:
    page = client.get(reverse("lobby")).content.decode()
    start = page.index(f'data-code="{code}"')
    return page[start : page.index("</tr>", start)]


def test_an_ended_game_is_listed_as_played_with_a_link_to_the_settlement(client):
    table, seats = open_table("faras", players=2)
    client.force_login(seats[1].user)
    row = lobby_row(client, table.code)
    assert "chips" in row and "/ledger/" not in row  # still playing: the stack shows

    end_game(table, seats[0].pk)
    row = lobby_row(client, table.code)
    assert "Ended" in row and "Played" in row
    assert "chips" not in row
    assert reverse("ledger:table_report", kwargs={"code": table.code}) in row
