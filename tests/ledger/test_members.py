"""Members of a home game: the invite link (unguessable, replaceable), co-hosts, removing
members, and guest seats of past nights claimed by a member and confirmed by the host.
With the abuse: strangers, removed members, co-hosts trying host-only actions, guessed
and old tokens, forged ids."""

from __future__ import annotations

from decimal import Decimal

import pytest
from django.urls import reverse

from homegames.models import HomeGame, SeatClaim
from homegames.selectors_seasons import season_open
from homegames.services_members import (
    home_game_add_table,
    home_game_create,
    home_game_join,
    home_game_remove_member,
    home_game_set_co_host,
    seat_claim_answer,
    seat_claim_make,
)
from homegames.services_seasons import season_close
from ledger.services import LedgerError
from tests.ledger.conftest import make_user
from tests.ledger.test_views import play_night


@pytest.fixture
def home_game(host) -> HomeGame:
    return home_game_create(name="Friday Faras", host=host)


def join_url(token: str) -> str:
    return reverse("ledger:home_game_join", kwargs={"token": token})


def detail(home_game: HomeGame) -> str:
    return reverse("ledger:home_game_detail", kwargs={"home_game_id": home_game.pk})


def test_a_friend_joins_with_the_invite_link(client, host, home_game):
    assert len(home_game.invite_token) >= 43  # secrets.token_urlsafe(32)
    client.force_login(host)
    page = client.get(detail(home_game)).content.decode()
    assert join_url(home_game.invite_token) in page  # the host sees the link to share
    bikash = make_user("bikash")
    client.force_login(bikash)
    assert client.get(detail(home_game)).status_code == 404  # not a member yet
    assert client.get(join_url(home_game.invite_token)).status_code == 200
    response = client.post(join_url(home_game.invite_token))
    assert response.status_code == 302 and response["Location"] == detail(home_game)
    assert home_game.members.filter(pk=bikash.pk).exists()
    page = client.get(detail(home_game)).content.decode()
    assert join_url(home_game.invite_token) not in page  # a member does not see the link


def test_the_invite_link_needs_an_account(client, home_game):
    response = client.get(join_url(home_game.invite_token))  # names the game, asks to sign up or log in
    assert response.status_code == 200 and "Join the home game" not in response.content.decode()
    response = client.post(join_url(home_game.invite_token))
    assert response.status_code == 302 and "/login" in response["Location"]
    assert home_game.members.count() == 1


def test_a_guessed_or_old_link_joins_no_one(client, host, home_game):
    stranger = make_user("stranger")
    client.force_login(stranger)
    old = home_game.invite_token
    for guess in ["x", "", "a" * 43, old[:-1] + ("A" if old[-1] != "A" else "B")]:
        if guess:
            assert client.get(join_url(guess)).status_code == 404
            assert client.post(join_url(guess)).status_code == 404
    client.force_login(host)
    client.post(reverse("ledger:home_game_invite_replace", kwargs={"home_game_id": home_game.pk}), {"confirm": "1"})
    home_game.refresh_from_db()
    assert home_game.invite_token != old
    client.force_login(stranger)
    assert client.post(join_url(old)).status_code == 404
    assert not home_game.members.filter(pk=stranger.pk).exists()
    with pytest.raises(LedgerError) as refused:
        home_game_join(home_game=home_game, token=old, user=stranger)
    assert refused.value.code == "bad_invite"
    assert client.post(join_url(home_game.invite_token)).status_code == 302  # the new one works


def test_the_host_removes_a_member_who_then_sees_nothing_and_cannot_rejoin_with_the_old_link(client, host, home_game):
    bikash = make_user("bikash")
    home_game_join(home_game=home_game, token=home_game.invite_token, user=bikash)
    old = home_game.invite_token
    client.force_login(host)
    url = reverse("ledger:member_remove", kwargs={"home_game_id": home_game.pk, "user_id": bikash.pk})
    assert client.post(url, {"confirm": "1"}).status_code == 302
    home_game.refresh_from_db()
    assert not home_game.members.filter(pk=bikash.pk).exists() and home_game.invite_token != old
    client.force_login(bikash)
    assert client.get(detail(home_game)).status_code == 404
    assert client.get(reverse("ledger:home_game_csv", kwargs={"home_game_id": home_game.pk})).status_code == 404
    assert client.post(join_url(old)).status_code == 404
    assert not home_game.members.filter(pk=bikash.pk).exists()


def test_co_hosts_and_what_only_the_host_may_do(client, host, home_game):
    bikash, chandra = make_user("bikash"), make_user("chandra")
    for user in (bikash, chandra):
        home_game_join(home_game=home_game, token=home_game.invite_token, user=user)
    client.force_login(host)
    client.post(
        reverse("ledger:member_co_host", kwargs={"home_game_id": home_game.pk, "user_id": bikash.pk}),
        {"co_host": "1"},
    )
    assert list(home_game.co_hosts.all()) == [bikash]
    token = home_game.invite_token
    client.force_login(bikash)  # the co-host
    host_only = [
        reverse("ledger:member_remove", kwargs={"home_game_id": home_game.pk, "user_id": chandra.pk}),
        reverse("ledger:member_remove", kwargs={"home_game_id": home_game.pk, "user_id": host.pk}),
        reverse("ledger:member_co_host", kwargs={"home_game_id": home_game.pk, "user_id": chandra.pk}),
        reverse("ledger:home_game_invite_replace", kwargs={"home_game_id": home_game.pk}),
        reverse("ledger:season_close", kwargs={"home_game_id": home_game.pk}),
    ]
    for url in host_only:
        assert client.post(url, {"co_host": "1"}).status_code == 403, url
    home_game.refresh_from_db()
    assert home_game.members.count() == 3 and list(home_game.co_hosts.all()) == [bikash]
    assert home_game.invite_token == token
    with pytest.raises(LedgerError) as refused:
        home_game_remove_member(home_game=home_game, member=host, by=bikash)
    assert refused.value.code == "not_host"
    with pytest.raises(LedgerError) as refused:
        home_game_remove_member(home_game=home_game, member=host, by=host)
    assert refused.value.code == "remove_host"
    # Removing a co-host takes the role too.
    home_game_remove_member(home_game=home_game, member=bikash, by=host)
    assert not home_game.co_hosts.exists()


def test_only_members_become_co_hosts(host, home_game):
    with pytest.raises(LedgerError) as refused:
        home_game_set_co_host(home_game=home_game, member=make_user("stranger"), is_co_host=True, by=host)
    assert refused.value.code == "not_member" and not home_game.co_hosts.exists()


def test_a_claimed_guest_seat_counts_as_the_member_once_the_host_confirms(client, host, home_game):
    """Dipa played as a guest on the first night, then joined; her seat is hers once confirmed."""
    dipa = make_user("dipa")
    table1, seats1 = play_night(host, results={"Asha": 1500, "Dipa": 500})
    table2, _seats2 = play_night(host, results={"Asha": 800, "Dipa": 1200}, others={"Dipa": dipa})
    for table in (table1, table2):
        home_game_add_table(home_game=home_game, table=table, by=host)
    names = {person.key: person.net_money for person in season_open(home_game=home_game).people}
    assert names[f"user:{dipa.pk}"] == Decimal("2.00") and names["guest:dipa"] == Decimal("-5.00")
    client.force_login(dipa)
    page = client.get(detail(home_game)).content.decode()
    assert "This was me" in page
    guest_seat = seats1["Dipa"]
    client.post(reverse("ledger:seat_claim", kwargs={"home_game_id": home_game.pk, "seat_id": guest_seat.pk}))
    claim = SeatClaim.objects.get(seat=guest_seat)
    assert claim.user == dipa and claim.confirmed_at is None
    # Not counted before the host confirms; the claimant cannot confirm their own claim.
    answer = reverse("ledger:seat_claim_answer", kwargs={"home_game_id": home_game.pk, "claim_id": claim.pk})
    assert client.post(answer, {"confirm": "1"}).status_code == 403
    assert "guest:dipa" in {person.key for person in season_open(home_game=home_game).people}
    client.force_login(host)
    client.post(answer, {"confirm": "1"})
    people = {person.key: person for person in season_open(home_game=home_game).people}
    assert "guest:dipa" not in people
    assert people[f"user:{dipa.pk}"].net_money == Decimal("-3.00") and people[f"user:{dipa.pk}"].nights == 2


def test_a_seat_someone_else_claimed_is_refused_and_a_refused_claim_is_gone(host, home_game):
    bikash, chandra = make_user("bikash"), make_user("chandra")
    for user in (bikash, chandra):
        home_game_join(home_game=home_game, token=home_game.invite_token, user=user)
    table, seats = play_night(host, results={"Asha": 1500, "Guest": 500})
    home_game_add_table(home_game=home_game, table=table, by=host)
    claim = seat_claim_make(home_game=home_game, seat=seats["Guest"], by=bikash)
    with pytest.raises(LedgerError) as refused:
        seat_claim_make(home_game=home_game, seat=seats["Guest"], by=chandra)
    assert refused.value.code == "already_claimed"
    with pytest.raises(LedgerError) as refused:
        seat_claim_make(home_game=home_game, seat=seats["Asha"], by=chandra)  # the host's own seat
    assert refused.value.code == "not_a_guest"
    with pytest.raises(LedgerError):
        seat_claim_answer(claim=claim, confirm=True, by=chandra)
    seat_claim_answer(claim=claim, confirm=False, by=host)
    assert not SeatClaim.objects.exists()
    assert seat_claim_make(home_game=home_game, seat=seats["Guest"], by=chandra).user == chandra


def test_claims_refused_to_strangers_other_home_games_and_closed_seasons(client, host, home_game):
    stranger = make_user("stranger")
    table, seats = play_night(host, results={"Asha": 1500, "Guest": 500})
    home_game_add_table(home_game=home_game, table=table, by=host)
    with pytest.raises(LedgerError) as refused:
        seat_claim_make(home_game=home_game, seat=seats["Guest"], by=stranger)
    assert refused.value.code == "not_member"
    client.force_login(stranger)
    url = reverse("ledger:seat_claim", kwargs={"home_game_id": home_game.pk, "seat_id": seats["Guest"].pk})
    assert client.post(url).status_code == 404
    # Through a home game of their own, the stranger cannot reach this home game's seat.
    own = home_game_create(name="Mine", host=stranger)
    forged = reverse("ledger:seat_claim", kwargs={"home_game_id": own.pk, "seat_id": seats["Guest"].pk})
    assert client.post(forged).status_code == 404
    with pytest.raises(LedgerError) as refused:
        seat_claim_make(home_game=own, seat=seats["Guest"], by=stranger)
    assert refused.value.code == "not_a_night"
    season_close(home_game=home_game, by=host)
    member = make_user("member")
    home_game_join(home_game=home_game, token=home_game.invite_token, user=member)
    with pytest.raises(LedgerError) as refused:
        seat_claim_make(home_game=home_game, seat=seats["Guest"], by=member)
    assert refused.value.code == "season_closed"
    assert not SeatClaim.objects.exists()


def test_a_claim_of_another_home_game_cannot_be_answered_through_ones_own(client, host, home_game):
    bikash, stranger = make_user("bikash"), make_user("stranger")
    home_game_join(home_game=home_game, token=home_game.invite_token, user=bikash)
    table, seats = play_night(host, results={"Asha": 1500, "Guest": 500})
    home_game_add_table(home_game=home_game, table=table, by=host)
    claim = seat_claim_make(home_game=home_game, seat=seats["Guest"], by=bikash)
    own = home_game_create(name="Mine", host=stranger)
    client.force_login(stranger)
    forged = reverse("ledger:seat_claim_answer", kwargs={"home_game_id": own.pk, "claim_id": claim.pk})
    assert client.post(forged, {"confirm": "1"}).status_code == 404
    claim.refresh_from_db()
    assert claim.confirmed_at is None
    # Nor can the stranger remove or promote a member of a home game that is not theirs.
    for name in ("member_remove", "member_co_host"):
        url = reverse(f"ledger:{name}", kwargs={"home_game_id": own.pk, "user_id": bikash.pk})
        assert client.post(url, {"co_host": "1"}).status_code == 404
    assert home_game.members.filter(pk=bikash.pk).exists() and not home_game.co_hosts.exists()
