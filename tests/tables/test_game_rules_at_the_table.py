"""The table reads the game's differences from the engine (engine.api.TableRules), never its name.

Rules pinned: the snapshot and the table page carry the game's rules for the page; no
service branches on the game's name (``grep '== "holdem"' tables/`` finds nothing).
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from django.urls import reverse

from engine.games import get_game
from tables import what_viewers_see
from tests.tables.conftest import open_table

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.django_db
@pytest.mark.parametrize("game", ["faras", "holdem"])
def test_the_snapshot_and_the_page_carry_the_games_rules(game, client):
    table, seats = open_table(game, players=2, start=False)
    expected = get_game(game).table_rules.to_json(table.settings["engine"])
    snapshot = what_viewers_see.table_snapshot(table_id=table.pk, seat_id=seats[0].pk)
    assert snapshot["table"]["rules"] == expected
    client.force_login(seats[0].user)
    page = client.get(reverse("table_detail", args=[table.code])).content.decode()
    config = json.loads(re.search(r'<script id="table-config" type="application/json">(.*?)</script>', page).group(1))
    assert config["rules"] == expected


def test_no_code_in_tables_branches_on_the_games_name():
    offenders = [
        f"{path.relative_to(ROOT)}:{number}"
        for path in (ROOT / "tables").rglob("*.py")
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if re.search(r"""[!=]= *["'](holdem|faras|classic|999)["']|["'](holdem|faras|classic|999)["'] *[!=]=""", line)
    ]
    assert offenders == []
