"""The browser's time zone proposed and confirmed (issue 38, point 2): someone who has not
chosen a time zone is offered the browser's (the form is filled by static/js/zone_prompt.js
from the Intl API) on the home games' pages; one button saves it, keeping their reminders,
and goes back to the page. Calendar settings, opened from a page, go back to it once saved."""

from __future__ import annotations

from django.urls import reverse

from homegames.models import MemberPrefs
from homegames.services import member_prefs_save
from tests.homegames.test_nights import group, schedule, url  # noqa: F401 (the fixture)


def test_the_browsers_zone_is_proposed_until_one_is_chosen(client, group):  # noqa: F811
    home_game, _host, members, _template = group
    night = schedule(group)
    bikash = members["bikash"]
    client.force_login(bikash)
    home = reverse("ledger:home_game_detail", kwargs={"home_game_id": home_game.pk})
    page = client.get(home).content.decode()
    assert "data-zone-prompt" in page and "js/zone_prompt.js" in page
    confirm = reverse("homegames:zone_confirm")
    assert client.get(confirm).status_code == 405
    response = client.post(confirm, {"time_zone": "Mars/Olympus", "next": home})
    assert response["Location"] == home and not MemberPrefs.objects.filter(user=bikash).exists()
    response = client.post(confirm, {"time_zone": "Asia/Kathmandu", "next": url("night_detail", night)})
    assert response["Location"] == url("night_detail", night)
    prefs = MemberPrefs.objects.get(user=bikash)
    assert prefs.time_zone == "Asia/Kathmandu" and prefs.reminders
    assert "data-zone-prompt" not in client.get(home).content.decode()
    # A next that leaves the site is not followed.
    response = client.post(confirm, {"time_zone": "Europe/Berlin", "next": "https://example.com/"})
    assert response["Location"] == reverse("homegames:prefs")


def test_calendar_settings_go_back_to_the_page_they_were_opened_from(client, group):  # noqa: F811
    home_game, _host, members, _template = group
    chandra = members["chandra"]
    member_prefs_save(user=chandra, time_zone="UTC", reminders=False)
    client.force_login(chandra)
    nights = reverse("homegames:night_list", kwargs={"home_game_id": home_game.pk})
    page = client.get(nights).content.decode()
    prefs_link = f"{reverse('homegames:prefs')}?next={nights.replace('/', '%2F')}"
    assert prefs_link in page
    form = client.get(prefs_link).content.decode()
    assert f'name="next" value="{nights}"' in form and "Back without saving" in form
    response = client.post(reverse("homegames:prefs"), {"time_zone": "Europe/Berlin", "next": nights})
    assert response["Location"] == nights
    assert MemberPrefs.objects.get(user=chandra).time_zone == "Europe/Berlin"
