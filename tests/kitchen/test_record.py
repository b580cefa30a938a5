"""The night's record in the table's event log: costs, recounts and spreads (with reason and
who), the clock's actions, the levels as played and who went out, each a typed payload
written through the tables' write path, and shown on the night's page."""

from __future__ import annotations

from datetime import UTC
from zoneinfo import ZoneInfo

import pytest
from django.urls import reverse

from kitchen.services import kitchen_cash_out, kitchen_cost_add, kitchen_recount, kitchen_settle, kitchen_spread
from kitchen.tournament import (
    kitchen_clock_back,
    kitchen_clock_pause,
    kitchen_clock_resume,
    kitchen_clock_start,
    kitchen_eliminate,
)
from tables.models import Event
from tables.services import ServiceError
from tests.kitchen.conftest import add_by_name, host_seat
from tests.kitchen.test_tournament import T0, at, open_tournament
from tests.tables.test_payloads import payload_problems


def _log(table):
    return list(Event.objects.filter(table=table).order_by("seq").values_list("kind", "payload"))


def _kitchen(table):
    return [(kind, payload) for kind, payload in _log(table) if kind.startswith("kitchen_")]


def test_a_cash_nights_costs_recounts_and_spreads_are_in_its_log(night):
    host = host_seat(night)
    bikash, chandra = add_by_name(night, "Bikash"), add_by_name(night, "Chandra")
    kitchen_cost_add(
        table_id=night.pk,
        seat_id=host.pk,
        paid_by=bikash.pk,
        amount="12.00",
        what="Pizza",
        shares={bikash.pk: 1, chandra.pk: 2},
    )
    kitchen_cash_out(table_id=night.pk, seat_id=host.pk, player_seat_id=bikash.pk, chips=1200)
    kitchen_cash_out(table_id=night.pk, seat_id=host.pk, player_seat_id=chandra.pk, chips=500)
    kitchen_recount(table_id=night.pk, seat_id=host.pk, player_seat_id=chandra.pk, chips=600, reason="a stack missed")
    kitchen_spread(table_id=night.pk, seat_id=host.pk, how="even", reason="lost under the table")
    kitchen_settle(table_id=night.pk, seat_id=host.pk)
    assert _kitchen(night) == [
        (
            "kitchen_cost",
            {
                "what": "Pizza",
                "amount": "12.00",
                "paid_by": bikash.pk,
                "payer": "Bikash",
                "shares": {str(bikash.pk): 1, str(chandra.pk): 2},
                "by": "Asha",
            },
        ),
        (
            "kitchen_recount",
            {
                "seat": chandra.pk,
                "name": "Chandra",
                "chips": 600,
                "before": 500,
                "reason": "a stack missed",
                "by": "Asha",
            },
        ),
        (
            "kitchen_spread",
            {
                "how": "even",
                "chips": 200,
                "shares": {str(bikash.pk): 100, str(chandra.pk): 100},
                "reason": "lost under the table",
                "by": "Asha",
            },
        ),
    ]
    assert [problem for kind, payload in _kitchen(night) for problem in payload_problems(kind, payload)] == []
    assert _log(night)[-1][0] == "game_ended"  # the record comes before the end, as every event
    with pytest.raises(ServiceError) as refused:  # a settled night's costs no longer change
        kitchen_cost_add(
            table_id=night.pk, seat_id=host.pk, paid_by=bikash.pk, amount="1.00", what="Tea", shares={bikash.pk: 1}
        )
    assert refused.value.code == "ended"


def test_the_clock_the_levels_as_played_and_who_went_out_are_in_the_log(host):
    table = open_tournament(host)
    hostseat = host_seat(table)
    players = [add_by_name(table, name) for name in ("Bikash", "Chandra", "Dev")]
    with at(0):
        kitchen_clock_start(table_id=table.pk, seat_id=hostseat.pk)
    with at(700):  # level 2 began at 600 s
        kitchen_clock_pause(table_id=table.pk, seat_id=hostseat.pk)
    with at(800):
        kitchen_clock_resume(table_id=table.pk, seat_id=hostseat.pk)
    with at(1302):  # 700 s played + 502 s: the break began at 1,200 s played (1,300 s after T0), 2 s ago
        kitchen_clock_back(table_id=table.pk, seat_id=hostseat.pk)
    with at(1400):
        kitchen_eliminate(table_id=table.pk, seat_id=hostseat.pk, player_seat_ids=[players[0].pk, players[1].pk])
    kinds = [(kind, payload) for kind, payload in _kitchen(table)]

    def iso(seconds):
        from datetime import timedelta

        return (T0 + timedelta(seconds=seconds)).isoformat()

    assert kinds[:4] == [
        ("kitchen_clock", {"action": "start", "level": 1, "by": "Asha"}),
        (
            "kitchen_level",
            {"level": 1, "at": iso(0), "minutes": "10", "brk": False, "small": 10, "big": 20, "ante": 0},
        ),
        (
            "kitchen_level",
            {"level": 2, "at": iso(600), "minutes": "10", "brk": False, "small": 20, "big": 40, "ante": 0},
        ),
        ("kitchen_clock", {"action": "pause", "level": 2, "by": "Asha"}),
    ]
    assert kinds[4] == ("kitchen_clock", {"action": "resume", "level": 2, "by": "Asha"})
    assert kinds[5] == ("kitchen_level", {"level": 3, "at": iso(1300), "minutes": "5", "brk": True})
    # 2 s into the break: back to the level before, begun again now
    assert kinds[6] == ("kitchen_clock", {"action": "back", "level": 2, "by": "Asha"})
    assert kinds[7][0] == "kitchen_level" and kinds[7][1]["level"] == 2 and kinds[7][1]["at"] == iso(1302)
    out = {"seats": [players[0].pk, players[1].pk], "names": ["Bikash", "Chandra"], "place": 2}
    assert kinds[8] == ("kitchen_out", out)
    assert [problem for kind, payload in _kitchen(table) for problem in payload_problems(kind, payload)] == []


def test_the_nights_page_shows_its_record(client, night, host):
    hostseat = host_seat(night)
    bikash = add_by_name(night, "Bikash")
    kitchen_cost_add(
        table_id=night.pk, seat_id=hostseat.pk, paid_by=bikash.pk, amount="9.00", what="Drinks", shares={bikash.pk: 1}
    )
    kitchen_cash_out(table_id=night.pk, seat_id=hostseat.pk, player_seat_id=bikash.pk, chips=900)
    kitchen_recount(table_id=night.pk, seat_id=hostseat.pk, player_seat_id=bikash.pk, chips=1000, reason="recounted")
    client.force_login(host)
    page = client.get(reverse("kitchen:night", kwargs={"code": night.code})).content.decode()
    assert "Bikash bought in: 1,000 chips." in page
    assert "Bikash paid USD" in page and "9.00 for Drinks." in page
    assert "Bikash handed back 900 chips." in page
    assert "Asha counted Bikash's chips again: 1,000, not 900 (recounted)." in page


def test_the_record_is_in_the_hosts_zone(client, night, host):
    """The record's times are the host's (her calendar settings' zone), not UTC's."""
    from homegames.models import MemberPrefs

    add_by_name(night, "Bikash")
    bought = Event.objects.filter(table=night, kind="seat_taken").latest("seq").created_at
    MemberPrefs.objects.update_or_create(user=host, defaults={"time_zone": "Asia/Kathmandu"})
    client.force_login(host)
    page = client.get(reverse("kitchen:night", kwargs={"code": night.code})).content.decode()
    there = bought.astimezone(ZoneInfo("Asia/Kathmandu"))
    assert f">{there:%H:%M:%S}</time>" in page
    assert f">{bought.astimezone(UTC):%H:%M:%S}</time>" not in page
