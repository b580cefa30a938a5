"""A kitchen night over the online table's socket (``/ws/table/<code>/``), as the people who
would misuse it: nothing is dealt there, so every write frame (a seat, a move, a host's
control, a seed) is refused with a clear error and writes nothing; the night's own page, with
its rules (the tournament's re-buy period, who is out), is the only way to record anything.
The host confirming a friend's re-buy after the period over the socket, a player buying back
or sitting down, a guest asking for a buy-in that the night's page would refuse: each refused,
the ledger, the log and the seats as before."""

from __future__ import annotations

from typing import Any

import pytest
from channels.db import database_sync_to_async

from kitchen.models import Elimination, TournamentClock
from kitchen.services import kitchen_ask, kitchen_buy_in
from kitchen.tournament import kitchen_clock_start, kitchen_eliminate
from ledger.models import LedgerEntry
from tables.models import Event, Seat, Table
from tables.selectors import requests_pending
from tables.services import guest_token_new, table_join
from tests.kitchen.conftest import add_by_name, host_seat, join_as, make_user, open_night
from tests.kitchen.test_tournament import at, open_tournament
from tests.tables.ws import Client, connect

pytestmark = pytest.mark.django_db(transaction=True)


def _written(table_id: int) -> tuple[object, ...]:
    table = Table.objects.get(pk=table_id)
    return (
        LedgerEntry.objects.filter(table_id=table_id).count(),
        list(Event.objects.filter(table_id=table_id).values_list("seq", "kind")),
        list(
            Seat.objects.filter(table_id=table_id)
            .order_by("pk")
            .values_list("number", "stack", "buy_ins", "status", "banned")
        ),
        (table.status, table.settings, table.buy_in_chips, str(table.buy_in_price), table.last_seq),
        list(TournamentClock.objects.values_list("started", "elapsed_ms", "running_since")),
        Elimination.objects.count(),
    )


def _tournament_after_the_period() -> dict[str, object]:
    """A tournament with re-buys through level 1 (10 minutes), its clock started long ago:
    Bikash and Chet bought in, Bikash asked for a re-buy in the period, Chet is out;
    Dipa, a guest, joined by the link and never bought in."""
    host = make_user("asha")
    table = open_tournament(host, rebuy_levels=1)
    hostseat = host_seat(table)
    bikash_user, chet_user = make_user("bikash"), make_user("chet")
    bikash, chet = join_as(table, bikash_user), join_as(table, chet_user)
    for seat in (hostseat, bikash, chet):
        kitchen_buy_in(table_id=table.pk, seat_id=hostseat.pk, player_seat_id=seat.pk)
    token = guest_token_new()
    dipa = table_join(code=table.code, invite_token=table.invite_token, guest_name="Dipa", guest_token=token)
    with at(0):
        kitchen_clock_start(table_id=table.pk, seat_id=hostseat.pk)
    with at(100):
        request = kitchen_ask(table_id=table.pk, seat_id=bikash.pk)
        kitchen_eliminate(table_id=table.pk, seat_id=hostseat.pk, player_seat_ids=[chet.pk])
    return {
        "table": table,
        "host": host,
        "bikash": bikash_user,
        "chet": chet_user,
        "dipa": token,
        "request": request,
        "seats": {"host": hostseat.pk, "bikash": bikash.pk, "chet": chet.pk, "dipa": dipa.pk},
    }


def _cash_night() -> dict[str, object]:
    host = make_user("asha")
    table = open_night(host)
    hostseat = host_seat(table)
    bikash_user = make_user("bikash")
    bikash = join_as(table, bikash_user)
    kitchen_buy_in(table_id=table.pk, seat_id=hostseat.pk, player_seat_id=bikash.pk)
    bina = add_by_name(table, "Bina")
    token = guest_token_new()
    dipa = table_join(code=table.code, invite_token=table.invite_token, guest_name="Dipa", guest_token=token)
    request = kitchen_ask(table_id=table.pk, seat_id=bikash.pk)
    return {
        "table": table,
        "host": host,
        "bikash": bikash_user,
        "dipa": token,
        "request": request,
        "seats": {"host": hostseat.pk, "bikash": bikash.pk, "bina": bina.pk, "dipa": dipa.pk},
    }


async def _open(night: dict[str, Any]) -> dict[str, Client]:
    table = night["table"]
    clients = {}
    for who in ("host", "bikash", "dipa"):
        if who == "dipa":
            ok, client, _code = await connect(table.code, guest_token=night["dipa"])
        else:
            ok, client, _code = await connect(table.code, user=night[who])
        assert ok, who
        clients[who] = client
    return clients


async def _all_refused(night: dict[str, Any], frames: list[tuple[str, dict[str, Any]]]) -> None:
    """Each frame sent by its person is refused (``not_dealt``, with its message) and the
    ledger, the log, the seats, the table and the tournament are as before."""
    table = night["table"]
    clients = await _open(night)
    before = await database_sync_to_async(_written)(table.pk)
    for who, frame in frames:
        reply = await clients[who].request(frame)
        assert reply["type"] == "error", (who, frame, reply)
        if reply["code"] == "not_holding":
            # The host's phone at a night with players added by name is a pass-and-play
            # phone: a move is refused before it reaches a service (nobody holds it).
            assert (who, frame["type"]) == ("host", "action"), reply
        else:
            assert reply["code"] == "not_dealt", (who, frame, reply)
            assert reply["message"] == "This night is played with real cards: record it on the night's page."
        assert await database_sync_to_async(_written)(table.pk) == before, (who, frame)
    for client in clients.values():
        await client.close()


def _frames(seats: dict[str, int], request: int) -> list[tuple[str, dict[str, Any]]]:
    """Every write a table's socket carries, by the host, a player who bought in and a guest
    who never did."""
    return [
        ("host", {"type": "host", "verb": "approve", "request": request}),
        ("host", {"type": "host", "verb": "deny", "request": request}),
        ("host", {"type": "host", "verb": "start"}),
        ("host", {"type": "host", "verb": "pause"}),
        ("host", {"type": "host", "verb": "resume"}),
        ("host", {"type": "host", "verb": "end"}),
        ("host", {"type": "host", "verb": "settings", "settings": {"approve_seats": False}}),
        ("host", {"type": "host", "verb": "settings", "settings": {"buy_in_chips": 100000}}),
        ("host", {"type": "host", "verb": "remove", "seat": seats["bikash"]}),
        ("host", {"type": "host", "verb": "remove", "seat": seats["bikash"], "ban": True}),
        ("host", {"type": "host", "verb": "act_for", "seat": seats["bikash"]}),
        ("host", {"type": "seat", "verb": "buy_back"}),
        ("host", {"type": "seat", "verb": "leave"}),
        ("host", {"type": "seat", "verb": "sit_out"}),
        ("host", {"type": "action", "verb": "fold"}),
        ("host", {"type": "seed", "seed": "ab" * 16}),
        ("bikash", {"type": "seat", "verb": "buy_back"}),
        ("bikash", {"type": "seat", "verb": "ask", "what": "buy_back"}),
        ("bikash", {"type": "seat", "verb": "take"}),
        ("bikash", {"type": "seat", "verb": "leave"}),
        ("bikash", {"type": "seat", "verb": "sit_out"}),
        ("bikash", {"type": "seat", "verb": "come_back"}),
        ("bikash", {"type": "seat", "verb": "cancel"}),
        ("bikash", {"type": "seat", "verb": "call_variant", "variant": "classic"}),
        ("bikash", {"type": "action", "verb": "fold"}),
        ("bikash", {"type": "see"}),
        ("bikash", {"type": "seed", "seed": "ab" * 16}),
        ("bikash", {"type": "host", "verb": "approve", "request": request}),
        ("dipa", {"type": "seat", "verb": "take"}),
        ("dipa", {"type": "seat", "verb": "take", "number": 7}),
        ("dipa", {"type": "seat", "verb": "ask", "what": "seat"}),
        ("dipa", {"type": "seat", "verb": "buy_back"}),
        ("dipa", {"type": "seed", "seed": "ab" * 16}),
        ("dipa", {"type": "host", "verb": "end"}),
    ]


async def test_the_host_cannot_confirm_a_rebuy_after_the_period_over_the_socket():
    """Bikash asked for a re-buy in the period; after it, the host's socket sends the tables'
    own "approve" (which knows nothing of the period): refused, no money into the pool, and
    the request stays pending for the night's page to deny."""
    night = await database_sync_to_async(_tournament_after_the_period)()
    await _all_refused(night, [("host", {"type": "host", "verb": "approve", "request": night["request"]})])
    pending = await database_sync_to_async(requests_pending)(table=night["table"])
    assert [r["request"] for r in pending] == [night["request"]]


async def test_a_tournament_refuses_every_write_frame_of_its_socket():
    night = await database_sync_to_async(_tournament_after_the_period)()
    await _all_refused(night, _frames(night["seats"], night["request"]))


async def test_a_cash_night_refuses_every_write_frame_of_its_socket():
    """At a night played for cash too: a player leaving or the host removing one would cash
    out chips nobody counted, "end" would settle a night whose bank does not balance."""
    night = await database_sync_to_async(_cash_night)()
    await _all_refused(night, _frames(night["seats"], night["request"]))
