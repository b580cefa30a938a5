"""The way in from a home game's invite link (issue 38, points 3 and 4): someone not signed
in sees the home game named, with "Sign up to join" and "log in", both keeping ``next``, and
the log-in and sign-up pages name the game too (a wrong token names nothing and counts as a
failed guess, as on the join page); sign-up comes back to the link. Someone joining without
an e-mail address is asked for one, told what it is for; the host sees who has none."""

from __future__ import annotations

from urllib.parse import quote

import pytest
from django.core.cache import cache
from django.urls import reverse

from accounts.models import User
from config.limits import GUESSES, client_address
from homegames.models import HomeGame
from homegames.services_members import home_game_create, home_game_join
from tests.ledger.conftest import make_user


@pytest.fixture
def home_game(host) -> HomeGame:
    host.display_name = "Asha"
    host.save()
    return home_game_create(name="Friday Faras", host=host)


def join_url(home_game: HomeGame) -> str:
    return reverse("ledger:home_game_join", kwargs={"token": home_game.invite_token})


def test_not_signed_in_the_link_names_the_game_and_keeps_next_through_sign_up(client, home_game):
    link = join_url(home_game)
    page = client.get(link).content.decode()
    assert "Join Friday Faras" in page and "Asha invites you" in page
    assert f"{reverse('signup')}?next={quote(link, safe='')}" in page
    assert f"{reverse('login')}?next={quote(link, safe='')}" in page
    login = client.get(f"{reverse('login')}?next={quote(link, safe='')}").content.decode()
    assert "Asha invites you to the home game Friday Faras" in login
    assert f"{reverse('signup')}?next={quote(link, safe='')}" in login  # the header's and the page's
    signup = client.get(f"{reverse('signup')}?next={quote(link, safe='')}").content.decode()
    assert "Asha invites you to the home game Friday Faras" in signup
    response = client.post(
        reverse("signup"),
        {
            "username": "gita",
            "display_name": "Gita",
            "email": "",
            "password1": "a long enough passphrase 42",
            "password2": "a long enough passphrase 42",
            "next": link,
        },
    )
    assert response.status_code == 302 and response["Location"] == link
    page = client.get(link).content.decode()
    assert "Join the home game" in page and 'name="email"' in page and "invitations, reminders" in page
    response = client.post(link, {"email": "not an address"})
    assert response.status_code == 200 and not home_game.members.filter(username="gita").exists()
    client.post(link, {"email": "gita@example.org"})
    gita = User.objects.get(username="gita")
    assert home_game.members.filter(pk=gita.pk).exists() and gita.email == "gita@example.org"


def test_a_wrong_token_in_next_names_nothing_and_counts_as_a_guess(client, rf, home_game):
    address = client_address(rf.get("/"))
    GUESSES.forget(address)
    wrong = reverse("ledger:home_game_join", kwargs={"token": "x" * 43})
    login = client.get(f"{reverse('login')}?next={quote(wrong, safe='')}").content.decode()
    assert "invites you" not in login
    assert cache.get(GUESSES.key(address)) == 1
    GUESSES.forget(address)


def test_the_host_sees_who_has_no_email_address(client, host, home_game):
    with_mail, without = make_user("bikash"), make_user("chandra")
    with_mail.email = "bikash@example.org"
    with_mail.save()
    for user in (with_mail, without):
        home_game_join(home_game=home_game, token=home_game.invite_token, user=user)
    client.force_login(host)
    page = client.get(reverse("ledger:home_game_detail", kwargs={"home_game_id": home_game.pk})).content.decode()
    flagged = [line for line in page.splitlines() if "no e-mail address" in line]
    assert len(flagged) == 2  # chandra, and the host herself (make_user gives no address)
    client.force_login(with_mail)
    page = client.get(reverse("ledger:home_game_detail", kwargs={"home_game_id": home_game.pk})).content.decode()
    assert "no e-mail address" not in page  # only the host is told
