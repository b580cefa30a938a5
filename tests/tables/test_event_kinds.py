"""Event kinds are one enumeration (tables.events.EventKind), and the page gets the same names.

Rules pinned: every kind the engine's source can emit is in the enumeration; services
append only its members, never a bare string; the table page carries the enumeration in a
``json_script`` with the id ``event-kinds``. Every kind written in random games of all
four games (:func:`_play`: seats coming and going, paused, resumed and ended) is in it too:
tests/tables/test_payloads.py plays them and looks up each event's kind in the enumeration
to check its payload (and the log refuses any other kind when it is written).
"""

from __future__ import annotations

import json
import random
import re
from pathlib import Path

import pytest
from django.urls import reverse

from tables.events import EventKind, event_kinds_for_page
from tables.models import Event, Table
from tables.services import (
    ServiceError,
    hand_act,
    seat_buy_back,
    seat_come_back,
    seat_leave,
    seat_seed_submit,
    seat_sit_out,
    table_clock_run,
    table_pause,
    table_resume,
    table_update_settings,
)
from tests.tables.conftest import current_turn, end_game, open_table, random_action

ROOT = Path(__file__).resolve().parents[2]
GAMES = ("faras", "classic", "999", "holdem")


def _play(game: str, rng: random.Random) -> set[str]:
    """A random game: actions, and between them now and then a seat or host control."""
    table, seats = open_table(game, players=4, choices={"turn_timer": 30})
    host = seats[0]
    by_name = {seat.engine_name: seat for seat in seats}
    controls = [
        lambda seat: seat_sit_out(table_id=table.pk, seat_id=seat.pk),
        lambda seat: seat_come_back(table_id=table.pk, seat_id=seat.pk),
        lambda seat: seat_buy_back(table_id=table.pk, seat_id=seat.pk),
        lambda seat: seat_leave(table_id=table.pk, seat_id=seat.pk),
        lambda seat: seat_seed_submit(table_id=table.pk, seat_id=seat.pk, seed=f"s{rng.randrange(10**6)}"),
        lambda seat: table_pause(table_id=table.pk, seat_id=host.pk),
        lambda seat: table_resume(table_id=table.pk, seat_id=host.pk),
        lambda seat: table_update_settings(table_id=table.pk, seat_id=host.pk, choices={"turn_timer": 40}),
    ]
    for _step in range(250):
        if rng.random() < 0.15:
            try:
                rng.choice(controls)(rng.choice(seats))
            except ServiceError:
                pass  # refused: changed nothing
            continue
        table.refresh_from_db()
        if table.status == Table.Status.PAUSED:
            table_resume(table_id=table.pk, seat_id=host.pk)
        player, legal = current_turn(table)
        if player is None:
            break
        hand = table.hands.filter(ended_at__isnull=True).first()
        if hand is not None and hand.turn_alarm_at is not None and rng.random() < 0.1:
            table_clock_run(table_id=table.pk, now=hand.turn_alarm_at)  # the turn's reminder
        verb, amount = random_action(rng, legal)
        hand_act(table_id=table.pk, seat_id=by_name[player].pk, verb=verb, amount=amount)
    table.refresh_from_db()
    if table.status != Table.Status.ENDED:
        end_game(table, host.pk)
    return set(Event.objects.filter(table=table).values_list("kind", flat=True))


def test_every_kind_the_engine_can_emit_is_in_the_enumeration():
    emitted = set()
    for path in (ROOT / "engine").rglob("*.py"):
        emitted |= set(re.findall(r'\bEvent\(\s*"([a-z_]+)"', path.read_text(encoding="utf-8")))
    assert emitted, "the engine's events were not found"
    assert emitted - {kind.value for kind in EventKind} == set()


def test_services_append_members_not_bare_strings():
    offenders = []
    for path in (ROOT / "tables").rglob("*.py"):
        text = path.read_text(encoding="utf-8")
        for match in re.finditer(r'\.append\(\s*"|\bkind\s*=\s*"', text):
            offenders.append(f"{path.relative_to(ROOT)}:{text.count(chr(10), 0, match.start()) + 1}")
    assert offenders == []


@pytest.mark.django_db
def test_the_log_refuses_a_kind_outside_the_enumeration():
    from tables.services.write import table_write

    table, _seats = open_table("faras", players=2, start=False)
    with pytest.raises(ValueError):
        with table_write(table.pk) as (_locked, log):
            log.append("forged_kind", {})  # type: ignore[arg-type]
    assert not Event.objects.filter(table=table, kind="forged_kind").exists()


@pytest.mark.django_db
def test_the_table_page_carries_the_kinds(client):
    table, seats = open_table("faras", players=2, start=False)
    client.force_login(seats[0].user)
    page = client.get(reverse("table_detail", args=[table.code])).content.decode()
    found = re.search(r'<script id="event-kinds" type="application/json">(.*?)</script>', page)
    assert found is not None
    assert json.loads(found.group(1)) == event_kinds_for_page()
    assert event_kinds_for_page()["SEAT_TAKEN"] == "seat_taken"
