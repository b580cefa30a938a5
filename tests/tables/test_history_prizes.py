"""The history page's placings show each prize as money in the table's currency (issue 25),
written by the settle-up page's own filter (``ledger_numbers.in_currency``), and no prize at
a table shared by chips or played for 0.00, where the settle-up page shows no prize either."""

from __future__ import annotations

import random
from decimal import Decimal

import pytest
from django.test import Client
from django.urls import reverse

from ledger.models import LedgerEntry
from tables.models import Event, Table
from tables.services import hand_act
from tests.tables.conftest import current_turn, open_table, repeatable_decks

pytestmark = pytest.mark.django_db


def _played_to_the_end(monkeypatch, **choices) -> tuple[Table, list]:
    """Three players at hold'em, every one all in every hand, until one holds every chip."""
    repeatable_decks(monkeypatch, random.Random(25))
    table, seats = open_table("holdem", players=3, choices={"currency": "USD", **choices})
    for _ in range(500):
        table.refresh_from_db()
        if table.status == Table.Status.ENDED:
            return table, seats
        player, legal = current_turn(table)
        verbs = [action.verb for action in legal]
        hand_act(table_id=table.pk, seat_id=int(player), verb="allin" if "allin" in verbs else "call")
    raise AssertionError("the game did not end")


def _placing_lines(page: str) -> dict[int, str]:
    """Each placing's line of the page (``<li data-place=...>``), in the page's order."""
    lines = {}
    section = page[page.index('<ul class="placings">') : page.index("</ul>")]
    for number, chunk in enumerate(section.split("<li")[1:]):
        lines[number] = chunk[: chunk.index("</li>")]
    return lines


def _pages(table: Table, seat, language: str = "en") -> tuple[str, str]:
    client = Client(HTTP_ACCEPT_LANGUAGE=language)
    client.force_login(seat.user)
    history = client.get(reverse("table_history", kwargs={"code": table.code})).content.decode()
    report = client.get(reverse("ledger:table_report", kwargs={"code": table.code})).content.decode()
    return history, report


def test_by_places_each_prize_shows_in_the_currency_as_the_settle_up_writes_it(monkeypatch):
    table, seats = _played_to_the_end(monkeypatch, buy_in_price="20.01", prizes="places", payouts="50/30/20")
    prizes = {
        row.player_name: row.price for row in LedgerEntry.objects.filter(table=table, kind=LedgerEntry.Kind.PRIZE)
    }
    assert sum(prizes.values()) == Decimal("60.03") and len(prizes) == 3
    placings = Event.objects.get(table=table, kind="game_ended").payload["placings"]
    for language, written in (
        ("en", lambda amount: f"USD\u00a0{amount}"),
        ("de", lambda amount: f"{str(amount).replace('.', ',')}\u00a0USD"),
    ):
        history, report = _pages(table, seats[0], language)
        lines = _placing_lines(history)
        assert len(lines) == 3
        for line, placing in zip(lines.values(), placings, strict=True):
            prize = written(prizes[placing["name"]])
            assert placing["name"] in line and '<span class="prize">' in line
            assert prize in line, (prize, line)
            assert prize in report  # the settle-up page writes the same amount the same way
        assert '<th scope="col">Prize</th>' in report or language != "en"
    # The bare number is gone: no prize without its currency.
    history, _report = _pages(table, seats[0])
    for amount in prizes.values():
        assert f"prize {amount}" not in history


def test_by_chips_for_money_no_prize_is_shown(monkeypatch):
    table, seats = _played_to_the_end(monkeypatch, buy_in_price="20.00", prizes="chips")
    history, report = _pages(table, seats[0])
    assert len(_placing_lines(history)) == 3
    assert all("prize" not in line.lower() for line in _placing_lines(history).values())
    assert '<th scope="col">Prize</th>' not in report  # the settle-up shows none either


def test_at_zero_price_by_places_the_places_show_and_no_prize(monkeypatch):
    table, seats = _played_to_the_end(monkeypatch, buy_in_price="0.00", prizes="places", payouts="50/30/20")
    assert LedgerEntry.objects.filter(table=table, kind=LedgerEntry.Kind.PRIZE, price=0).count() == 3
    # The game-over box reads the placings of the log: no prize of 0.00 there either.
    placings = Event.objects.get(table=table, kind="game_ended").payload["placings"]
    assert all("prize" not in p for p in placings)
    history, report = _pages(table, seats[0])
    lines = _placing_lines(history)
    assert len(lines) == 3 and all("chips" in line for line in lines.values())
    # Read without the players' names (made with random.random(): "p1-0.0071..." holds "0.00").
    for line, placing in zip(lines.values(), placings, strict=True):
        assert placing["name"] in line
        rest = line.replace(placing["name"], "")
        assert "prize" not in rest.lower() and "0.00" not in rest, line
    # The settle-up page: the places, and no prize column of 0.00s.
    assert '<th scope="col">Place</th>' in report
    assert '<th scope="col">Prize</th>' not in report and 'class="number prize"' not in report
