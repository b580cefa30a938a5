"""Pages answer a visitor without access the same whether the code exists or not (issue 24,
item 10): the table page, its settings and the host's forms, the history pages and
downloads, the settlement report and its CSV, and the short join link give the same status,
the same redirect and the same words for a real table's code as for a code no table has."""

from __future__ import annotations

import re

import pytest
from django.test import Client
from django.urls import reverse

from tables.models import Table
from tests.tables.conftest import make_user, open_table
from tests.tables.test_history import played_game

pytestmark = pytest.mark.django_db

GET_PAGES = [
    ("table_detail", {}),
    ("table_settings", {}),
    ("table_join", {}),
    ("table_history", {}),
    ("hand_history", {"number": 1}),
    ("hand_link", {"number": 1}),
    ("hand_export", {"number": 1}),
    ("game_export", {}),
    ("game_phh", {}),
    ("game_pokerstars", {}),
    ("hand_phh", {"number": 1}),
    ("ledger:table_report", {}),
    ("ledger:table_report_csv", {}),
]
POST_PAGES = [
    ("table_settings", {}),
    ("table_remove", {}),
    ("table_computers", {}),
    ("table_local_players", {}),
    ("ledger:transfer_paid", {}),
    ("hand_share", {"number": 1}),
    ("hand_share_revoke", {"number": 1}),
]

_VARYING = re.compile(r'(csrfmiddlewaretoken" value|nonce)="[^"]*"')


def _answer(client: Client, method: str, name: str, kwargs: dict, code: str) -> tuple[int, str, str]:
    url = reverse(name, kwargs={"code": code, **kwargs})
    response = client.get(url) if method == "GET" else client.post(url, {"seat": "1", "name": "X"})
    body = _VARYING.sub("", response.content.decode(errors="replace"))
    location = response.get("Location", "")
    return (response.status_code, location.replace(code, "CODE"), body.replace(code, "CODE"))


def _visitors(other_table: Table) -> dict[str, Client]:
    anonymous = Client()
    stranger = Client()
    stranger.force_login(make_user("stranger"))
    guest = Client()  # a guest with a seat at another table, by their session
    link = reverse("table_invite", kwargs={"code": other_table.code, "invite_token": other_table.invite_token})
    guest.post(link, {"display_name": "Gita", "role": "watch"})
    return {"anonymous": anonymous, "stranger": stranger, "guest elsewhere": guest}


@pytest.mark.parametrize("ended", [False, True], ids=["live game", "ended game"])
def test_a_real_code_without_access_answers_as_a_code_no_table_has(ended):
    if ended:
        table, _seats = played_game("faras", hands=1)
    else:
        table, _seats = open_table("faras", players=2)
    other, _other_seats = open_table("faras", players=2, start=False)
    missing = "Q" + table.code[1:] if not table.code.startswith("Q") else "R" + table.code[1:]
    assert not Table.objects.filter(code=missing).exists()
    for who, client in _visitors(other).items():
        for method, pages in (("GET", GET_PAGES), ("POST", POST_PAGES)):
            for name, kwargs in pages:
                real = _answer(client, method, name, kwargs, table.code)
                none = _answer(client, method, name, kwargs, missing)
                assert real == none, (who, method, name, real[:2], none[:2])
                assert real[0] != 500


def test_the_people_at_the_table_still_get_its_pages():
    table, seats = open_table("faras", players=2)
    client = Client()
    client.force_login(seats[1].user)
    assert client.get(reverse("table_detail", kwargs={"code": table.code})).status_code == 200
    assert client.get(reverse("table_history", kwargs={"code": table.code})).status_code == 200
    # A player who is not the host is told so (they know the table): not a stranger's answer.
    page = client.get(reverse("table_settings", kwargs={"code": table.code}))
    assert page.status_code == 404 and "Only the host can change the settings." in page.content.decode()
    host = Client()
    host.force_login(table.host)
    assert host.get(reverse("table_settings", kwargs={"code": table.code})).status_code == 200
