"""A person can never pass for a computer player: "Computer N" names (in any of the site's
languages, any case or spacing) are kept for the computers, and a computer is never given
a name someone at the table already has."""

from __future__ import annotations

import pytest

from tables.models import Event, Seat
from tables.services import ServiceError, table_join
from tables.services.computers import computer_add
from tables.services.hosting import computer_name_taken, guest_token_new
from tables.services.pass_and_play import local_player_add
from tests.tables.conftest import make_user, open_table

pytestmark = pytest.mark.django_db

PLAY_CHIPS = {"buy_in_price": "0.00", "seats": 6}
RESERVED = ["Computer 1", "computer  12", "COMPUTER3", " Computer 4 ", "कम्प्युटर ५", "कंप्यूटर 7", "Computer ٣"]
FREE = ["Computer", "Computers 2", "Asha 2", "My computer 1", "1 Computer", "Computerwala"]


@pytest.mark.parametrize("name", RESERVED)
def test_computer_names_are_recognised_in_every_language(name):
    assert computer_name_taken(name)


@pytest.mark.parametrize("name", FREE)
def test_other_names_are_not_taken_for_computers(name):
    assert not computer_name_taken(name)


def _unchanged(table):
    return Event.objects.filter(table=table).count(), Seat.objects.filter(table=table).count()


@pytest.mark.parametrize("name", RESERVED)
def test_a_guest_cannot_join_as_a_computer(name):
    table, _seats = open_table("faras", players=2, choices=PLAY_CHIPS, start=False)
    before = _unchanged(table)
    with pytest.raises(ServiceError) as refused:
        table_join(code=table.code, invite_token=table.invite_token, guest_name=name, guest_token=guest_token_new())
    assert refused.value.code == "name_reserved" and refused.value.field == "display_name"
    assert "Computer 1" in str(refused.value.message)
    assert _unchanged(table) == before


def test_an_account_called_like_a_computer_is_told_to_change_its_name():
    table, _seats = open_table("faras", players=2, choices=PLAY_CHIPS, start=False)
    user = make_user("sneaky")
    user.display_name = "Computer 2"
    user.save()
    before = _unchanged(table)
    with pytest.raises(ServiceError) as refused:
        table_join(code=table.code, invite_token=table.invite_token, user=user)
    assert refused.value.code == "name_reserved"
    assert _unchanged(table) == before


def test_a_player_on_the_hosts_phone_cannot_be_called_like_a_computer():
    table, seats = open_table("faras", players=2, choices=PLAY_CHIPS, start=False)
    before = _unchanged(table)
    with pytest.raises(ServiceError) as refused:
        local_player_add(table_id=table.pk, seat_id=seats[0].pk, name="computer 1")
    assert refused.value.code == "name_reserved"
    assert _unchanged(table) == before


def test_a_computer_takes_the_first_computer_name_nobody_has():
    table, seats = open_table("faras", players=2, choices=PLAY_CHIPS, start=False)
    # A name given before names were kept for computers (written straight to the table).
    Seat.objects.create(table=table, display_name="computer 1", guest_token=guest_token_new())
    first = computer_add(table_id=table.pk, seat_id=seats[0].pk, strength="easy")
    second = computer_add(table_id=table.pk, seat_id=seats[0].pk, strength="hard")
    assert (first.display_name, second.display_name) == ("Computer 2", "Computer 3")
