"""A seat belongs to a person, not a cookie (issue 28): a guest's seat link.

Rules pinned: a guest who lost their browser opens their own seat link in another one and
sits in the same seat, with the same name and chips (no second "Dipa"); the browser that
held it no longer does, and its open sockets close (4409); typing the same name is still
refused. The link is an HMAC of the table, the seat and its moves (issue 34:
tests/tables/test_seat_link_once.py): no other seat's, table's or
made-up key works, nor a computer's, a pass-and-play player's or an account's seat; a GET
(a chat app's preview) moves nothing; a banned guest cannot use it; only the host sees the
guests' links. Every refusal says why and writes nothing.
"""

from __future__ import annotations

import random
import re

import pytest
from channels.db import database_sync_to_async
from django.test import Client
from django.urls import reverse

from config.limits import join_attempts_forget
from tables.models import Event, Seat, Table
from tables.services import (
    ServiceError,
    guest_token_new,
    local_player_add,
    seat_link_key,
    seat_link_use,
    seat_remove,
    seat_take,
    table_join,
)
from tests.tables.conftest import make_user, open_table
from tests.tables.ws import connect

pytestmark = pytest.mark.django_db


def _log(table: Table) -> list[tuple[int, str]]:
    return list(Event.objects.filter(table=table).order_by("seq").values_list("seq", "kind"))


def _guest(table: Table, name: str = "Dipa", *, seated: bool = True) -> tuple[Seat, str]:
    token = guest_token_new()
    seat = table_join(code=table.code, invite_token=table.invite_token, guest_name=name, guest_token=token)
    if seated:
        seat_take(table_id=table.pk, seat_id=seat.pk)
    seat.refresh_from_db()
    return seat, token


def _link(seat: Seat) -> str:
    return reverse("table_seat_link", kwargs={"code": seat.table.code, "seat_id": seat.pk, "key": seat_link_key(seat)})


@pytest.fixture
def address():
    where = f"10.{random.randint(0, 255)}.{random.randint(0, 255)}.7"
    join_attempts_forget(where)
    yield where
    join_attempts_forget(where)


def test_a_guest_takes_their_seat_back_in_a_new_browser_with_the_same_chips():
    table, _seats = open_table("faras", 2, start=False)
    dipa, old_token = _guest(table)
    new_token = guest_token_new()
    moved = seat_link_use(code=table.code, seat_id=dipa.pk, key=seat_link_key(dipa), guest_token=new_token)
    assert moved.pk == dipa.pk
    moved.refresh_from_db()
    assert (moved.display_name, moved.stack, moved.number, moved.guest_token) == (
        dipa.display_name,
        dipa.stack,
        dipa.number,
        new_token,
    )
    assert not Seat.objects.filter(table=table, guest_token=old_token).exists()
    last = Event.objects.filter(table=table).order_by("-seq").first()
    assert last.kind == "seat_moved" and last.payload["seat"] == dipa.pk
    # The same browser again: nothing to do, nothing written.
    before = _log(table)
    seat_link_use(code=table.code, seat_id=dipa.pk, key=seat_link_key(dipa), guest_token=new_token)
    assert _log(table) == before
    # Typing the same name is still refused: only the link gives the seat back.
    with pytest.raises(ServiceError) as refused:
        table_join(code=table.code, invite_token=table.invite_token, guest_name="dipa", guest_token=guest_token_new())
    assert refused.value.code == "name_taken"


def test_no_other_key_or_seat_opens_a_seat_and_refusals_write_nothing():
    table, seats = open_table("faras", 2, {"buy_in_price": "0.00"}, start=False)
    host = seats[0]
    dipa, dipa_token = _guest(table)
    esha, _ = _guest(table, "Esha")
    other_table, _ = open_table("faras", 2, start=False)
    stranger, _ = _guest(other_table, "Dipa")
    bina = local_player_add(table_id=table.pk, seat_id=host.pk, name="Bina")
    cases = [
        (dipa.pk, seat_link_key(esha)),  # another seat's key
        (esha.pk, seat_link_key(dipa)),
        (dipa.pk, seat_link_key(stranger)),  # a seat of another table
        (stranger.pk, seat_link_key(stranger)),  # that seat, at this table's code
        (dipa.pk, "0" * 32),
        (dipa.pk, seat_link_key(dipa)[:-1]),
        (dipa.pk, ""),
        (dipa.pk, "é" * 32),
        (host.pk, seat_link_key(host)),  # an account's seat: known on any device already
        (bina.pk, seat_link_key(bina)),  # a pass-and-play player on the host's phone
        (999_999, seat_link_key(dipa)),
        ("1", seat_link_key(dipa)),
        (True, seat_link_key(dipa)),
        (dipa.pk, None),
    ]
    before = _log(table)
    for seat_id, key in cases:
        with pytest.raises(ServiceError) as refused:
            seat_link_use(code=table.code, seat_id=seat_id, key=key, guest_token=guest_token_new())
        assert refused.value.code == "bad_link", (seat_id, key)
    # A browser that already has another seat here (Esha's) cannot take Dipa's too.
    with pytest.raises(ServiceError) as refused:
        seat_link_use(code=table.code, seat_id=dipa.pk, key=seat_link_key(dipa), guest_token=esha.guest_token)
    assert refused.value.code == "other_seat"
    with pytest.raises(ServiceError) as refused:
        seat_link_use(code=table.code, seat_id=dipa.pk, key=seat_link_key(dipa), guest_token="short")
    assert refused.value.code == "no_session"
    assert _log(table) == before
    dipa.refresh_from_db()
    assert dipa.guest_token == dipa_token


def test_a_banned_guests_link_is_refused():
    table, seats = open_table("faras", 2, start=False)
    dipa, _ = _guest(table)
    seat_remove(table_id=table.pk, seat_id=seats[0].pk, remove_seat_id=dipa.pk, ban=True)
    before = _log(table)
    with pytest.raises(ServiceError) as refused:
        seat_link_use(code=table.code, seat_id=dipa.pk, key=seat_link_key(dipa), guest_token=guest_token_new())
    assert refused.value.code == "banned"
    assert _log(table) == before


def test_the_seat_link_page_asks_first_and_a_post_moves_the_seat(address):
    table, _seats = open_table("faras", 2, start=False)
    dipa, old_token = _guest(table)
    new_browser = Client(REMOTE_ADDR=address)
    page = new_browser.get(_link(dipa))
    assert page.status_code == 200 and "Sit as Dipa on this device?" in page.content.decode()
    dipa.refresh_from_db()
    assert dipa.guest_token == old_token  # a look (a chat app's preview) moves nothing
    answer = new_browser.post(_link(dipa))
    assert answer.status_code == 302 and answer["Location"] == reverse("table_detail", kwargs={"code": table.code})
    dipa.refresh_from_db()
    assert dipa.guest_token == new_browser.session["dashain_guest_token"]
    table_page = new_browser.get(answer["Location"])
    assert table_page.status_code == 200
    assert table_page.context["seat"].pk == dipa.pk
    assert table_page.context["seat_url"].endswith(_link(dipa))
    # The old browser is at the table no more: its page sends it to the join page.
    old_browser = Client()
    session = old_browser.session
    session["dashain_guest_token"] = old_token
    session.save()
    assert old_browser.get(reverse("table_detail", kwargs={"code": table.code})).status_code == 302


def test_a_wrong_seat_link_page_is_a_404_and_counts_as_a_guess(address):
    table, _seats = open_table("faras", 2, start=False)
    dipa, old_token = _guest(table)
    guesser = Client(REMOTE_ADDR=address)
    wrong = reverse("table_seat_link", kwargs={"code": table.code, "seat_id": dipa.pk, "key": "0" * 32})
    for _ in range(3):
        assert guesser.post(wrong).status_code == 404
    from django.core.cache import cache

    from config.limits import _key

    class _Request:
        META = {"REMOTE_ADDR": address}

    assert cache.get(_key(_Request())) == 3
    dipa.refresh_from_db()
    assert dipa.guest_token == old_token


def test_a_signed_in_visitor_cannot_take_a_guests_seat_by_its_link(address):
    table, _seats = open_table("faras", 2, start=False)
    dipa, old_token = _guest(table)
    visitor = Client(REMOTE_ADDR=address)
    visitor.force_login(make_user("eve"))
    page = visitor.post(_link(dipa))
    assert page.status_code == 200 and "You are signed in" in page.content.decode()
    dipa.refresh_from_db()
    assert dipa.guest_token == old_token


def test_only_the_host_sees_the_guests_seat_links():
    table, seats = open_table("faras", 2, start=False)
    dipa, dipa_token = _guest(table)
    host = Client()
    host.force_login(seats[0].user)
    url = reverse("table_seat_links", kwargs={"code": table.code})
    page = host.get(url)
    assert page.status_code == 200 and _link(dipa) in page.content.decode()
    player = Client()
    player.force_login(seats[1].user)
    assert player.get(url).status_code == 404
    guest = Client()
    session = guest.session
    session["dashain_guest_token"] = dipa_token
    session.save()
    assert guest.get(url).status_code == 404
    assert Client().get(url).status_code == 404
    # A guest's own table page shows their own link, and nobody else's.
    own = guest.get(reverse("table_detail", kwargs={"code": table.code})).content.decode()
    assert _link(dipa) in own
    player_page = player.get(reverse("table_detail", kwargs={"code": table.code})).content.decode()
    assert _link(dipa) not in player_page


def test_each_guests_seat_link_has_its_copy_and_share_buttons():
    table, seats = open_table("faras", 2, start=False)
    dipa, _dipa_token = _guest(table)
    hari, _hari_token = _guest(table, name="Hari")
    host = Client()
    host.force_login(seats[0].user)
    page = host.get(reverse("table_seat_links", kwargs={"code": table.code})).content.decode()
    assert "js/share_link.js" in page
    for guest in (dipa, hari):
        box = re.search(rf'<span class="share-link" data-share-for="seat-link-{guest.pk}"[^>]*>', page)
        assert box is not None, guest
        assert f'data-title="{guest.display_name}"' in box.group(0)
        assert 'data-copied="Copied. Send it to this guest only."' in box.group(0)
        assert f'id="seat-link-{guest.pk}"' in page


def test_a_banned_guests_lobby_forgets_the_table():
    table, seats = open_table("faras", 2, start=False)
    dipa, token = _guest(table)
    guest = Client()
    session = guest.session
    session["dashain_guest_token"] = token
    session.save()
    assert table.code in guest.get(reverse("lobby")).content.decode()
    seat_remove(table_id=table.pk, seat_id=seats[0].pk, remove_seat_id=dipa.pk, ban=True)
    assert table.code not in guest.get(reverse("lobby")).content.decode()


@pytest.mark.django_db(transaction=True)
async def test_the_old_browsers_socket_closes_when_the_seat_link_is_used():
    table, _seats = await database_sync_to_async(open_table)("faras", 2, None, False)
    dipa, old_token = await database_sync_to_async(_guest)(table)
    connected, old_socket, _ = await connect(table.code, guest_token=old_token)
    assert connected and old_socket.seat_id == dipa.pk
    new_token = guest_token_new()
    await database_sync_to_async(seat_link_use)(
        code=table.code, seat_id=dipa.pk, key=await database_sync_to_async(seat_link_key)(dipa), guest_token=new_token
    )
    out = await old_socket.communicator.receive_output(timeout=10)
    seen = []
    while out.get("type") != "websocket.close":
        if out.get("type") == "websocket.send":
            seen.append(out["text"])
        out = await old_socket.communicator.receive_output(timeout=10)
    assert out["code"] == 4409
    assert any('"seat_moved"' in text for text in seen)  # the page is told why, then closed
    connected, _again, close_code = await connect(table.code, guest_token=old_token)
    assert not connected and close_code == 4403
    connected, new_socket, _ = await connect(table.code, guest_token=new_token)
    assert connected and new_socket.seat_id == dipa.pk
    await new_socket.close()


def test_the_table_page_has_one_language_switch():
    """Issue 28: the table page hides the site's footer; its side column has the switch."""
    table, seats = open_table("faras", 2, start=False)
    player = Client()
    player.force_login(seats[1].user)
    page = player.get(reverse("table_detail", kwargs={"code": table.code})).content.decode()
    assert page.count('id="language-switcher-select"') == 1
    assert reverse("set_language") in page
