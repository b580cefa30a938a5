"""The host decides who is at the table (issue 14).

Rules pinned: a newcomer needs the invite link's unguessable token (the 6-character code
alone admits no one, by page, by service or by socket); guesses are rate-limited per
address; the host may remove a player with a ban for the rest of the game (no joining,
sitting, watching again, and their open sockets close); display names are unique at a
table ignoring case and spaces. Every refusal says why and writes nothing.
"""

from __future__ import annotations

import random

import pytest
from channels.db import database_sync_to_async
from django.test import Client
from django.urls import reverse

from config.limits import MAX_FAILED_JOINS, join_attempts_forget
from tables.models import Event, Seat, Table
from tables.services import ServiceError, guest_token_new, seat_remove, seat_take, table_join
from tests.tables.conftest import make_user, open_table
from tests.tables.ws import connect

pytestmark = pytest.mark.django_db


def _log(table: Table) -> list[tuple[int, str]]:
    return list(Event.objects.filter(table=table).order_by("seq").values_list("seq", "kind"))


def invite_url(table: Table) -> str:
    return reverse("table_invite", kwargs={"code": table.code, "invite_token": table.invite_token})


# --- the invite token ---------------------------------------------------------------------------


def test_every_table_has_an_unguessable_invite_token():
    table, _seats = open_table("faras", players=2, start=False)
    other, _ = open_table("faras", players=2, start=False)
    assert len(table.invite_token) >= 22 and table.invite_token != other.invite_token
    assert table.code not in table.invite_token


@pytest.mark.parametrize("token", [None, "", "x" * 22, "wrong"])
def test_the_service_admits_no_newcomer_without_the_token(token):
    table, _seats = open_table("faras", players=2, start=False)
    before = _log(table)
    with pytest.raises(ServiceError) as refused:
        table_join(code=table.code, invite_token=token, user=make_user("eve"))
    assert refused.value.code == "no_invite" and "invite link" in str(refused.value.message)
    with pytest.raises(ServiceError):
        table_join(code=table.code, invite_token=token, guest_name="Eve", guest_token=guest_token_new())
    assert _log(table) == before and Seat.objects.filter(table=table).count() == 2


def test_the_join_pages_admit_with_the_link_and_not_with_the_code():
    table, _seats = open_table("faras", players=2, start=False)
    stranger = Client()
    stranger.force_login(make_user("eve"))
    for url in (
        reverse("table_join", kwargs={"code": table.code}),
        f"{reverse('table_join_by_code')}?code={table.code}",
    ):
        page = stranger.get(url)
        assert page.status_code == 403 and "ask the host for the invite link" in page.content.decode()
        assert stranger.post(url, {"role": "watch"}).status_code in (403, 405)
    wrong = reverse("table_invite", kwargs={"code": table.code, "invite_token": "not-the-token"})
    assert stranger.post(wrong, {"role": "watch"}).status_code == 403
    assert not Seat.objects.filter(table=table, user__username="eve").exists()
    response = stranger.post(invite_url(table), {"role": "watch"})
    assert response["Location"] == reverse("table_detail", kwargs={"code": table.code})
    assert Seat.objects.filter(table=table, user__username="eve").exists()


def test_only_the_host_sees_the_invite_link_on_the_table_page():
    table, seats = open_table("faras", players=2, start=False)
    host, player = Client(), Client()
    host.force_login(seats[0].user)
    player.force_login(seats[1].user)
    assert table.invite_token in host.get(reverse("table_detail", kwargs={"code": table.code})).content.decode()
    assert table.invite_token not in player.get(reverse("table_detail", kwargs={"code": table.code})).content.decode()


@pytest.mark.django_db(transaction=True)
async def test_a_stranger_with_an_account_and_the_code_cannot_watch_by_socket():
    """Issue 14: 'eve joins the table' by opening the socket with the code alone."""
    table, _seats = await database_sync_to_async(open_table)("faras", 2, None, False)
    eve = await database_sync_to_async(make_user)("eve")
    before = await database_sync_to_async(_log)(table)
    connected, _client, close_code = await connect(table.code, user=eve)
    assert not connected and close_code == 4403
    assert await database_sync_to_async(_log)(table) == before
    assert not await database_sync_to_async(Seat.objects.filter(table=table, user=eve).exists)()


@pytest.fixture
def addresses():
    """Two client addresses of this test alone, their counts forgotten before and after. The
    counts live in the cache: with Redis, one that another run on the same Redis shares when
    both use the same names (the test client's 127.0.0.1, counted and forgotten by every test
    of every run at once), which made this test fail now and then with two runs on one Redis.
    Each run has its own names now (tests/environment.py); these addresses keep it apart
    from the other tests of its own run as well."""
    pair = [f"10.{random.randint(0, 255)}.{random.randint(0, 255)}.{number}" for number in (1, 2)]
    for address in pair:
        join_attempts_forget(address)
    yield pair
    for address in pair:
        join_attempts_forget(address)


def test_guesses_are_rate_limited_per_address(addresses):
    table, _seats = open_table("faras", players=2, start=False)
    guesser, neighbour = addresses
    client = Client(REMOTE_ADDR=guesser)
    for attempt in range(MAX_FAILED_JOINS):
        code = f"NOPE{attempt:02d}"
        assert client.get(reverse("table_join", kwargs={"code": code})).status_code == 403
    # Now every further guess from this address waits, a real code with a wrong token too...
    wrong = reverse("table_invite", kwargs={"code": table.code, "invite_token": "x" * 22})
    for url in (
        wrong,
        reverse("table_join", kwargs={"code": "NOPE99"}),
        reverse("table_join", kwargs={"code": table.code}),
    ):
        blocked = client.get(url)
        assert blocked.status_code == 429 and "Too many tries" in blocked.content.decode()
    # ...but the right link is never refused (issue 24: one address is a whole house's Wi-Fi).
    assert client.get(invite_url(table)).status_code == 200
    other = Client(REMOTE_ADDR=neighbour)
    assert other.get(invite_url(table)).status_code == 200  # another address is not held back


@pytest.mark.redis
def test_the_guess_counts_carry_the_sites_prefix_in_the_cache(addresses):
    """Two sites (or two test runs) sharing one Redis database count apart: the count's key
    is stored under the site's prefix (settings.DASHAIN_REDIS_PREFIX, the cache's KEY_PREFIX)."""
    from django.conf import settings
    from django.core.cache import cache

    Client(REMOTE_ADDR=addresses[0]).get(reverse("table_join", kwargs={"code": "NOPE00"}))
    stored = cache.make_key("dashain:join-failures:" + addresses[0])
    assert stored.startswith(settings.DASHAIN_REDIS_PREFIX + ":")
    assert cache.get("dashain:join-failures:" + addresses[0]) == 1


# --- removing with a ban -------------------------------------------------------------------------


def test_a_removed_player_may_come_back_but_a_banned_one_may_not():
    table, seats = open_table("faras", players=3, start=False)
    host, bikash, chandra = seats
    seat_remove(table_id=table.pk, seat_id=host.pk, remove_seat_id=bikash.pk)
    assert seat_take(table_id=table.pk, seat_id=bikash.pk).number is not None  # no ban: back at once

    banned = seat_remove(table_id=table.pk, seat_id=host.pk, remove_seat_id=chandra.pk, ban=True)
    assert banned.banned and banned.number is None and banned.stack == 0
    assert [kind for _seq, kind in _log(table)[-2:]] == ["seat_banned", "invite_rotated"]
    before = _log(table)
    with pytest.raises(ServiceError) as refused:
        seat_take(table_id=table.pk, seat_id=chandra.pk)
    assert refused.value.code == "banned"
    with pytest.raises(ServiceError) as refused:
        table_join(code=table.code, invite_token=table.invite_token, user=chandra.user)
    assert refused.value.code == "banned" and "removed you" in str(refused.value.message)
    assert _log(table) == before
    client = Client()
    client.force_login(chandra.user)
    assert client.get(invite_url(table))["Location"] == reverse("lobby")
    assert client.get(reverse("table_detail", kwargs={"code": table.code})).status_code == 302


def test_the_host_cannot_ban_themselves_and_a_guest_cannot_ban():
    table, seats = open_table("faras", players=2, start=False)
    with pytest.raises(ServiceError) as refused:
        seat_remove(table_id=table.pk, seat_id=seats[0].pk, remove_seat_id=seats[0].pk, ban=True)
    assert refused.value.code == "not_yourself"
    with pytest.raises(ServiceError) as refused:
        seat_remove(table_id=table.pk, seat_id=seats[1].pk, remove_seat_id=seats[0].pk, ban=True)
    assert refused.value.code == "not_host"
    assert not Seat.objects.filter(table=table, banned=True).exists()


@pytest.mark.django_db(transaction=True)
async def test_a_banned_players_socket_closes_and_cannot_open_again():
    table, seats = await database_sync_to_async(open_table)("faras", 2, None, False)
    host_user = await database_sync_to_async(lambda: seats[0].user)()
    bikash_user = await database_sync_to_async(lambda: seats[1].user)()
    _ok, host_socket, _ = await connect(table.code, user=host_user)
    connected, bikash_socket, _ = await connect(table.code, user=bikash_user)
    assert connected
    reply = await host_socket.request({"type": "host", "verb": "remove", "seat": seats[1].pk, "ban": True})
    assert reply["type"] == "ack", reply
    closed = await bikash_socket.communicator.receive_output(timeout=10)
    while closed.get("type") != "websocket.close":
        closed = await bikash_socket.communicator.receive_output(timeout=10)
    assert closed["code"] == 4403
    connected, _again, close_code = await connect(table.code, user=bikash_user)
    assert not connected and close_code == 4403
    await host_socket.communicator.disconnect()


# --- names are unique at a table -----------------------------------------------------------------


@pytest.mark.parametrize("name", ["asha", "ASHA", "  Asha  ", "Asha"])
def test_a_guest_cannot_take_a_name_already_at_the_table(name):
    host = make_user("asha-account")
    host.display_name = "Asha"
    host.save()
    from tables.services import table_create

    table = table_create(host=host, game="faras", choices={})
    before = _log(table)
    with pytest.raises(ServiceError) as refused:
        table_join(code=table.code, invite_token=table.invite_token, guest_name=name, guest_token=guest_token_new())
    assert refused.value.code == "name_taken" and refused.value.field == "display_name"
    assert _log(table) == before
    page = Client().post(invite_url(table), {"display_name": name, "role": "watch"})
    assert "already called" in page.content.decode()
    assert Seat.objects.filter(table=table).count() == 1


def test_an_account_whose_name_is_taken_is_told_to_change_it():
    table, seats = open_table("faras", players=2, start=False)
    twin = make_user("twin")
    twin.display_name = seats[1].display_name.upper()
    twin.save()
    with pytest.raises(ServiceError) as refused:
        table_join(code=table.code, invite_token=table.invite_token, user=twin)
    assert refused.value.code == "name_taken"


def test_the_host_bans_from_the_settings_page_without_script():
    table, seats = open_table("faras", players=3, start=False)
    host, player = Client(), Client()
    host.force_login(seats[0].user)
    player.force_login(seats[1].user)
    page = host.get(reverse("table_settings", kwargs={"code": table.code})).content.decode()
    assert reverse("table_remove", kwargs={"code": table.code}) in page and 'name="ban"' in page
    url = reverse("table_remove", kwargs={"code": table.code})
    before = _log(table)
    assert player.post(url, {"seat": seats[2].pk, "ban": "on"}).status_code == 404  # not the host
    assert host.post(url, {"seat": "x"}).status_code == 302
    assert _log(table) == before
    host.post(url, {"seat": seats[2].pk, "ban": "on"})
    banned = Seat.objects.get(pk=seats[2].pk)
    assert banned.banned and banned.number is None
