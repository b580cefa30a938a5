"""Big actions ask first (issue 38, point 8): cancelling a night, closing a season,
replacing the invite link and removing a member each answer a first POST with a page that
says what will happen and a form to confirm it; only the confirming POST acts. A GET does
nothing either (405)."""

from __future__ import annotations

import re

from django.urls import reverse

from homegames.models import Season
from tests.homegames.test_nights import group, schedule, url  # noqa: F401 (the fixture)
from tests.ledger.conftest import make_user
from tests.ledger.test_seasons import three_nights


def confirm_form(response) -> tuple[str, dict[str, str]]:
    """The confirming form of a confirmation page: its action and hidden fields."""
    body = response.content.decode()
    form = re.search(r'<form method="post" action="([^"]+)" class="confirm-form">(.*?)</form>', body, re.S)
    assert form is not None, body
    fields = dict(re.findall(r'<input type="hidden" name="([^"]+)" value="([^"]*)">', form.group(2)))
    return form.group(1), fields


def test_cancelling_a_night_asks_first(client, group):  # noqa: F811
    _home_game, host, _members, _template = group
    night = schedule(group)
    client.force_login(host)
    assert client.get(url("night_cancel", night)).status_code == 405
    first = client.post(url("night_cancel", night))
    assert first.status_code == 200
    assert "Cancel the night?" in first.content.decode()
    night.refresh_from_db()
    assert not night.is_cancelled and not night.notices.filter(kind="cancelled").exists()
    action, fields = confirm_form(first)
    assert action == url("night_cancel", night) and fields["confirm"] == "1"
    assert client.post(action, fields).status_code == 302
    night.refresh_from_db()
    assert night.is_cancelled


def test_removing_a_member_and_replacing_the_link_ask_first(client, group):  # noqa: F811
    home_game, host, members, _template = group
    client.force_login(host)
    token = home_game.invite_token
    replace = reverse("ledger:home_game_invite_replace", kwargs={"home_game_id": home_game.pk})
    first = client.post(replace)
    assert first.status_code == 200 and "Replace the invite link?" in first.content.decode()
    home_game.refresh_from_db()
    assert home_game.invite_token == token
    action, fields = confirm_form(first)
    client.post(action, fields)
    home_game.refresh_from_db()
    assert home_game.invite_token != token

    remove = reverse("ledger:member_remove", kwargs={"home_game_id": home_game.pk, "user_id": members["dipa"].pk})
    first = client.post(remove)
    assert first.status_code == 200 and f"Remove {members['dipa'].table_name}?" in first.content.decode()
    assert home_game.members.filter(pk=members["dipa"].pk).exists()
    action, fields = confirm_form(first)
    assert action == remove
    client.post(action, fields)
    assert not home_game.members.filter(pk=members["dipa"].pk).exists()


def test_closing_a_season_asks_first(client, db):
    host = make_user("host")
    friends = {"Bikash": make_user("bikash"), "Chandra": make_user("chandra")}
    home_game, _tables = three_nights(host, friends)
    client.force_login(host)
    close = reverse("ledger:season_close", kwargs={"home_game_id": home_game.pk})
    first = client.post(close)
    assert first.status_code == 200 and "Close the season?" in first.content.decode()
    assert not Season.objects.exists()
    action, fields = confirm_form(first)
    assert client.post(action, fields).status_code == 302
    assert Season.objects.filter(home_game=home_game).count() == 1
