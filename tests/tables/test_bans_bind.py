"""Issue 24: a ban binds the person and the link.

The attacks: after the host banned the guest "Bikash", a fresh browser session opened the same
invite link as "Bikash 2" and was seated; a banned account holder signed up again and came
back by the link; the host could not replace the link; a banned session still read the live
game's history and the live hand's page. Now a ban replaces the invite link (the people at
the table keep their places; the host's page shows the new link), the host may replace it at
any time, a banned account or guest session is refused everywhere at the table but its own
settlement report, and someone arriving by the new link is a new person (with approvals on,
the host decides whether they sit). The banned player's open socket is told, then closed.
"""

from __future__ import annotations

import json
import re
from datetime import timedelta

import pytest
from channels.db import database_sync_to_async
from django.test import Client, override_settings
from django.urls import reverse
from django.utils import timezone

from tables.models import Event, Hand, Seat, Table
from tables.services import (
    ServiceError,
    guest_token_new,
    invite_rotate,
    seat_remove,
    seat_take,
    table_clock_run,
    table_join,
    table_start,
    table_update_settings,
)
from tests.tables.conftest import make_user, open_table
from tests.tables.ws import connect

pytestmark = pytest.mark.django_db
_VARYING = re.compile(r'(csrfmiddlewaretoken" value|nonce)="[^"]*"')


def _invite(table: Table) -> str:
    table.refresh_from_db()
    return reverse("table_invite", kwargs={"code": table.code, "invite_token": table.invite_token})


def _guest_joins(client: Client, link: str, name: str):
    client.get(link)
    return client.post(link, {"display_name": name, "role": "watch"})


def _host_client(seat: Seat) -> Client:
    client = Client()
    client.force_login(seat.user)
    return client


def _guest_table():
    """A Faras table with the host, Asha (an account) and the guest Bikash, started."""
    table, seats = open_table("faras", players=2, start=False)
    bikash = Client()
    assert _guest_joins(bikash, _invite(table), "Bikash").status_code == 302
    guest = Seat.objects.get(table=table, display_name="Bikash")
    seat_take(table_id=table.pk, seat_id=guest.pk)
    table_start(table_id=table.pk, seat_id=seats[0].pk)
    table.refresh_from_db()
    return table, seats, guest, bikash


def test_a_ban_replaces_the_link_and_the_old_link_admits_no_new_session():
    table, seats, guest, _bikash = _guest_table()
    old_link = _invite(table)
    _finish_live_hand(table)  # a ban is given between hands
    seat_remove(table_id=table.pk, seat_id=seats[0].pk, remove_seat_id=guest.pk, ban=True)
    new_link = _invite(table)
    assert new_link != old_link
    kinds = list(Event.objects.filter(table=table).order_by("seq").values_list("kind", flat=True))
    assert kinds[-2:] == ["seat_banned", "invite_rotated"]
    rotated = Event.objects.filter(table=table, kind="invite_rotated").last()
    assert rotated.payload == {} and table.invite_token not in json.dumps(rotated.payload)
    # Bikash in a fresh browser, by the link he had, as "Bikash 2" or with an invisible character.
    for name in ("Bikash 2", "Bikash\u200b", "B\u0456kash"):
        fresh = Client()
        response = _guest_joins(fresh, old_link, name)
        assert response.status_code == 403 and "invite link" in response.content.decode()
        assert Seat.objects.filter(table=table).count() == 3, name
    # A banned account holder who signs up again has no link either.
    again = make_user("bikash-again")
    with pytest.raises(ServiceError) as refused:
        table_join(code=table.code, invite_token=old_link.rstrip("/").rsplit("/", 1)[1], user=again)
    assert refused.value.code == "no_invite"
    # The people at the table keep their places: their pages and the host's page open.
    assert _host_client(seats[1]).get(reverse("table_detail", kwargs={"code": table.code})).status_code == 200
    host_page = _host_client(seats[0]).get(reverse("table_detail", kwargs={"code": table.code})).content.decode()
    assert new_link in host_page and old_link not in host_page


def _finish_live_hand(table: Table) -> None:
    """Play the live hand out (everyone packs), with the next deal put off: a ban is given
    between hands."""
    from tables import selectors
    from tables.services import hand_act
    from tests.tables.conftest import current_turn

    hand = selectors.hand_live(table=table)
    with override_settings(DASHAIN_NEXT_HAND_DELAY=600):
        while hand is not None and selectors.hand_live(table=table) == hand:
            player, _legal = current_turn(table)
            hand_act(table_id=table.pk, seat_id=int(player), verb="pack")
    assert selectors.hand_live(table=table) is None


def test_the_host_replaces_the_link_at_any_time_and_only_the_host():
    table, seats = open_table("faras", players=2)
    old_link = _invite(table)
    player = _host_client(seats[1])
    assert player.post(reverse("table_invite_rotate", kwargs={"code": table.code})).status_code == 404
    assert player.get(reverse("table_invite_link", kwargs={"code": table.code})).status_code == 404
    assert _invite(table) == old_link
    with pytest.raises(ServiceError) as refused:
        invite_rotate(table_id=table.pk, seat_id=seats[1].pk)
    assert refused.value.code == "not_host"
    host = _host_client(seats[0])
    response = host.post(reverse("table_invite_rotate", kwargs={"code": table.code}), follow=True)
    new_link = _invite(table)
    assert new_link != old_link and "The invite link is new" in response.content.decode()
    assert new_link in response.content.decode()
    # The host's page reads the current link after an invite_rotated event.
    current = host.get(reverse("table_invite_link", kwargs={"code": table.code})).json()
    assert current["url"].endswith(new_link)
    # The old link lets no one in; the new one does, and a new person is a new seat.
    assert _guest_joins(Client(), old_link, "Chandra").status_code != 302
    assert not Seat.objects.filter(table=table, display_name="Chandra").exists()
    assert _guest_joins(Client(), new_link, "Chandra").status_code == 302
    assert Seat.objects.filter(table=table, display_name="Chandra").count() == 1
    # Everyone already at the table still comes back by the code.
    assert player.get(reverse("table_detail", kwargs={"code": table.code})).status_code == 200


def test_a_banned_guest_session_is_refused_everywhere_but_its_own_settlement():
    table, seats, guest, bikash = _guest_table()
    code = table.code
    hand_page = reverse("hand_history", kwargs={"code": code, "number": 1})
    pages = [
        reverse("table_history", kwargs={"code": code}),
        hand_page,  # the live hand's page
        reverse("table_detail", kwargs={"code": code}),
    ]
    for page in pages:  # before the ban, Bikash sees them
        assert bikash.get(page).status_code == 200, page
    _finish_live_hand(table)
    seat_remove(table_id=table.pk, seat_id=seats[0].pk, remove_seat_id=guest.pk, ban=True)
    # The next hand is dealt without him: its page (a live hand's) is the host's, not his.
    table_clock_run(table_id=table.pk, now=timezone.now() + timedelta(hours=1))
    assert Hand.objects.get(table=table, number=2).ended_at is None
    live_page = reverse("hand_history", kwargs={"code": code, "number": 2})
    assert _host_client(seats[0]).get(live_page).status_code == 200
    stranger = Client()
    for page in [*pages[:2], live_page]:
        mine, theirs = bikash.get(page), stranger.get(page)
        assert mine.status_code == theirs.status_code == 404, page
        assert _VARYING.sub("", mine.content.decode()) == _VARYING.sub("", theirs.content.decode()), page
    assert bikash.get(reverse("table_detail", kwargs={"code": code})).status_code == 302
    # The settlement report stays his: he may owe or be owed.
    report = bikash.get(reverse("ledger:table_report", kwargs={"code": code}))
    assert report.status_code == 200 and "Bikash" in report.content.decode()


def test_a_banned_account_is_refused_the_history_and_the_live_hand():
    table, seats = open_table("faras", players=3)
    banned = seats[2]
    watcher = _host_client(banned)
    assert watcher.get(reverse("table_history", kwargs={"code": table.code})).status_code == 200
    _finish_live_hand(table)
    seat_remove(table_id=table.pk, seat_id=seats[0].pk, remove_seat_id=banned.pk, ban=True)
    for page in (
        reverse("table_history", kwargs={"code": table.code}),
        reverse("hand_history", kwargs={"code": table.code, "number": 1}),
    ):
        assert watcher.get(page).status_code == 404
    assert watcher.get(reverse("ledger:table_report", kwargs={"code": table.code})).status_code == 200


def test_with_approvals_on_a_newcomer_by_the_new_link_waits_for_the_host():
    table, seats = open_table("faras", players=2, start=False)
    table_update_settings(table_id=table.pk, seat_id=seats[0].pk, choices={"approve_seats": True})
    bikash = table_join(code=table.code, invite_token=table.invite_token, user=make_user("bikash-first"))
    seat_remove(table_id=table.pk, seat_id=seats[0].pk, remove_seat_id=bikash.pk, ban=True)
    table.refresh_from_db()
    # Whoever comes by the new link is a new person: a new seat row, who asks to sit.
    newcomer = table_join(
        code=table.code, invite_token=table.invite_token, guest_name="Dil", guest_token=guest_token_new()
    )
    assert newcomer.pk != bikash.pk and not newcomer.banned
    with pytest.raises(ServiceError) as refused:
        seat_take(table_id=table.pk, seat_id=newcomer.pk)
    assert refused.value.code == "ask_host"


@pytest.mark.django_db(transaction=True)
async def test_the_banned_players_socket_is_told_then_closed():
    table, seats = await database_sync_to_async(open_table)("faras", 2, None, False)
    host_user = await database_sync_to_async(lambda: seats[0].user)()
    bikash_user = await database_sync_to_async(lambda: seats[1].user)()
    _ok, host_socket, _ = await connect(table.code, user=host_user)
    connected, bikash_socket, _ = await connect(table.code, user=bikash_user)
    assert connected
    reply = await host_socket.request({"type": "host", "verb": "remove", "seat": seats[1].pk, "ban": True})
    assert reply["type"] == "ack", reply
    told = None
    while True:
        output = await bikash_socket.communicator.receive_output(timeout=10)
        if output["type"] == "websocket.close":
            break
        frame = json.loads(output["text"])
        if frame.get("type") == "error":
            told = frame
    assert output["code"] == 4403
    assert told is not None and told["code"] == "banned" and "removed you" in told["message"]
    await host_socket.communicator.disconnect()
