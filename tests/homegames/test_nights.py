"""Nights on a calendar: templates, scheduling in the host's zone (stored in UTC, shown in
each member's), answers with a waiting list that moves up, moving and cancelling; and
tonight's table opened from the plan, where members who said yes sit without the link.
With the abuse: strangers, removed members, members planning, forged fields."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from zoneinfo import ZoneInfo

import pytest
from django.urls import reverse
from django.utils import timezone
from django.utils.formats import time_format

from homegames.models import Answer, Night
from homegames.selectors import night_answers, tonights_tables_for
from homegames.services import (
    NightError,
    member_prefs_save,
    night_answer,
    night_cancel,
    night_schedule,
    night_template_save,
    night_update,
)
from homegames.services_members import home_game_create, home_game_join, home_game_remove_member, home_game_set_co_host
from homegames.services_tonight import night_open_table, night_take_seat
from tables.models import Seat
from tests.ledger.conftest import make_user

FARAS = {"seats": 6, "boot": 10, "buy_in_chips": 1000, "buy_in_price": "10.00", "currency": "NPR"}


@pytest.fixture
def group(db):
    host = make_user("asha")
    home_game = home_game_create(name="Friday Faras", host=host)
    members = {}
    for name in ("bikash", "chandra", "dipa"):
        members[name] = make_user(name)
        home_game_join(home_game=home_game, token=home_game.invite_token, user=members[name])
    template = night_template_save(home_game=home_game, name="Our Faras", game="faras", choices=FARAS, by=host)
    return home_game, host, members, template


def tomorrow() -> datetime:
    return (timezone.now() + timedelta(days=1)).replace(microsecond=0)


def tonight() -> datetime:
    """A start its table may be opened for already (from 12 hours before)."""
    return (timezone.now() + timedelta(hours=3)).replace(microsecond=0)


def schedule(group, *, seat_limit=2, starts_at=None):
    home_game, host, _members, template = group
    return night_schedule(
        home_game=home_game,
        template=template,
        starts_at=starts_at or tonight(),
        time_zone="Asia/Kathmandu",
        place="Asha's flat",
        seat_limit=seat_limit,
        by=host,
    )


def url(name, night, **extra):
    return reverse(f"homegames:{name}", kwargs={"home_game_id": night.home_game_id, "night_id": night.pk, **extra})


def test_the_host_schedules_in_their_zone_stored_in_utc_shown_in_each_members(client, group):
    home_game, host, members, template = group
    member_prefs_save(user=host, time_zone="Asia/Kathmandu")
    member_prefs_save(user=members["bikash"], time_zone="Europe/Berlin")
    client.force_login(host)
    day = (timezone.now() + timedelta(days=30)).date()
    response = client.post(
        reverse("homegames:night_new", kwargs={"home_game_id": home_game.pk}),
        {"date": day.isoformat(), "time": "19:30", "place": "Asha's flat", "template": template.pk, "seat_limit": 4},
    )
    night = Night.objects.get()
    assert response.status_code == 302
    # 19:30 in Kathmandu (UTC+5:45) is 13:45 UTC.
    assert night.starts_at == datetime(day.year, day.month, day.day, 13, 45, tzinfo=UTC)
    assert night.time_zone == "Asia/Kathmandu" and night.place == "Asha's flat" and night.seat_limit == 4
    kathmandu = time_format(timezone.localtime(night.starts_at, ZoneInfo("Asia/Kathmandu")), "TIME_FORMAT")
    berlin = time_format(timezone.localtime(night.starts_at, ZoneInfo("Europe/Berlin")), "TIME_FORMAT")
    assert kathmandu == "7:30 p.m." and berlin != kathmandu
    assert kathmandu in client.get(url("night_detail", night)).content.decode()
    client.force_login(members["bikash"])
    page = client.get(url("night_detail", night)).content.decode()
    assert berlin in page and kathmandu not in page and "Europe/Berlin" in page


def test_bad_nights_are_refused_and_change_nothing(group):
    home_game, host, members, template = group
    base = {"home_game": home_game, "template": template, "time_zone": "UTC", "place": "Here", "by": host}
    cases = [
        ({"starts_at": timezone.now() - timedelta(minutes=1), "seat_limit": 4}, "in_past"),
        ({"starts_at": tomorrow(), "seat_limit": 7}, "bad_seat_limit"),  # the template's table has 6 seats
        ({"starts_at": tomorrow(), "seat_limit": 1}, "bad_seat_limit"),
        ({"starts_at": tomorrow(), "seat_limit": 4, "place": "  "}, "bad_place"),
        ({"starts_at": tomorrow(), "seat_limit": 4, "by": members["bikash"]}, "not_co_host"),
    ]
    for extra, code in cases:
        with pytest.raises(NightError) as refused:
            night_schedule(**{**base, **extra})
        assert refused.value.code == code
    other = home_game_create(name="Other", host=members["dipa"])
    with pytest.raises(NightError) as refused:
        night_schedule(**{**base, "home_game": other, "by": members["dipa"], "starts_at": tomorrow(), "seat_limit": 4})
    assert refused.value.code == "wrong_template"
    with pytest.raises(NightError) as refused:
        night_template_save(home_game=home_game, name="Bad", game="faras", choices={"boot": 0}, by=host)
    assert refused.value.code == "bad_settings"
    assert not Night.objects.exists()


def test_answers_and_a_waiting_list_that_moves_up_when_someone_says_no(client, group):
    _home_game, host, members, _template = group
    night = schedule(group, seat_limit=2)
    night_answer(night=night, user=host, reply="yes")
    night_answer(night=night, user=members["bikash"], reply="yes")
    client.force_login(members["chandra"])
    client.post(url("night_answer", night), {"reply": "yes"})
    answers = night_answers(night=night)
    assert [a.user.username for a in answers.coming] == ["asha", "bikash"]
    assert [a.user.username for a in answers.waiting] == ["chandra"]
    assert "waiting list" in client.get(url("night_detail", night)).content.decode()
    # Bikash says no: Chandra moves up by herself.
    client.force_login(members["bikash"])
    client.post(url("night_answer", night), {"reply": "no"})
    answers = night_answers(night=night)
    assert [a.user.username for a in answers.coming] == ["asha", "chandra"]
    assert answers.waiting == [] and [a.user.username for a in answers.no] == ["bikash"]
    # Saying yes again puts Bikash at the end of the line, not back in his old place.
    night_answer(night=night, user=members["bikash"], reply="yes")
    assert night_answers(night=night).place_of(members["bikash"].pk) == "waiting"
    # Saying yes twice keeps one's place.
    night_answer(night=night, user=host, reply="yes")
    assert night_answers(night=night).place_of(host.pk) == "coming"


def test_a_member_answers_only_for_themselves_and_only_before_the_night(client, group):
    _home_game, _host, members, _template = group
    night = schedule(group)
    client.force_login(members["bikash"])
    # A forged field naming another member changes nothing but Bikash's own answer.
    client.post(url("night_answer", night), {"reply": "no", "user": members["chandra"].pk})
    assert Answer.objects.get().user == members["bikash"]
    assert client.post(url("night_answer", night), {"reply": "definitely"}).status_code == 302
    assert Answer.objects.get().reply == "no"
    Night.objects.filter(pk=night.pk).update(starts_at=timezone.now() - timedelta(minutes=1))
    with pytest.raises(NightError) as refused:
        night_answer(night=night, user=members["bikash"], reply="yes")
    assert refused.value.code == "started"
    assert Answer.objects.get().reply == "no"


def test_strangers_and_removed_members_see_nothing_and_cannot_answer(client, group):
    home_game, host, members, _template = group
    night = schedule(group)
    stranger = make_user("stranger")
    home_game_remove_member(home_game=home_game, member=members["dipa"], by=host)
    for user in (stranger, members["dipa"]):
        client.force_login(user)
        for name in ("night_detail",):
            assert client.get(url(name, night)).status_code == 404
        assert client.get(reverse("homegames:night_list", kwargs={"home_game_id": home_game.pk})).status_code == 404
        for name in ("night_answer", "night_cancel", "night_open", "night_sit"):
            assert client.post(url(name, night), {"reply": "yes"}).status_code == 404
        with pytest.raises(NightError) as refused:
            night_answer(night=night, user=user, reply="yes")
        assert refused.value.code == "not_member"
    assert not Answer.objects.exists()
    night.refresh_from_db()
    assert night.table is None and not night.is_cancelled


def test_planning_is_for_the_host_and_co_hosts(client, group):
    home_game, host, members, template = group
    night = schedule(group)
    client.force_login(members["bikash"])
    assert client.get(reverse("homegames:night_new", kwargs={"home_game_id": home_game.pk})).status_code == 403
    assert client.get(reverse("homegames:template_new", kwargs={"home_game_id": home_game.pk})).status_code == 403
    assert client.get(url("night_edit", night)).status_code == 403
    for name in ("night_cancel", "night_open"):
        assert client.post(url(name, night)).status_code == 403
    night.refresh_from_db()
    assert not night.is_cancelled and night.table is None
    home_game_set_co_host(home_game=home_game, member=members["bikash"], is_co_host=True, by=host)
    second = night_schedule(
        home_game=home_game,
        template=template,
        starts_at=tomorrow() + timedelta(days=7),
        time_zone="UTC",
        place="Bikash's",
        seat_limit=3,
        by=members["bikash"],
    )
    assert second.created_by == members["bikash"]
    client.post(url("night_cancel", second), {"confirm": "1"})
    second.refresh_from_db()
    assert second.is_cancelled


def test_moving_a_night_and_its_seat_limit(group):
    _home_game, host, members, _template = group
    night = schedule(group, seat_limit=3)
    for user in (host, members["bikash"], members["chandra"]):
        night_answer(night=night, user=user, reply="yes")
    later = night.starts_at + timedelta(days=1)
    with pytest.raises(NightError) as refused:
        night_update(night=night, starts_at=later, place="Elsewhere", seat_limit=2, by=host)
    assert refused.value.code == "below_coming"
    night.refresh_from_db()
    assert night.place == "Asha's flat" and night.seat_limit == 3
    with pytest.raises(NightError) as refused:
        night_update(night=night, starts_at=timezone.now() - timedelta(hours=1), place="X", seat_limit=3, by=host)
    assert refused.value.code == "in_past"
    night, moved = night_update(night=night, starts_at=later, place="Elsewhere", seat_limit=4, by=host)
    assert moved and night.starts_at == later and night.seat_limit == 4
    night_cancel(night=night, by=host)
    with pytest.raises(NightError) as refused:
        night_answer(night=night, user=members["dipa"], reply="yes")
    assert refused.value.code == "cancelled"
    with pytest.raises(NightError):
        night_update(night=night, starts_at=later, place="Elsewhere", seat_limit=4, by=host)


# --- Tonight's table ----------------------------------------------------------------


def test_tonights_table_from_the_template_and_members_sit_without_the_link(client, group):
    home_game, host, members, _template = group
    night = schedule(group, seat_limit=2)
    night_answer(night=night, user=members["bikash"], reply="yes")
    night_answer(night=night, user=members["chandra"], reply="yes")
    night_answer(night=night, user=members["dipa"], reply="yes")  # waits: the limit is 2
    client.force_login(host)
    response = client.post(url("night_open", night))
    night.refresh_from_db()
    table = night.table
    assert table is not None and response["Location"] == reverse("table_detail", kwargs={"code": table.code})
    assert table.game == "faras" and table.buy_in_chips == 1000 and str(table.buy_in_price) == "10.00"
    assert table.settings["seats"] == 6 and table.settings["host"]["currency"] == "NPR"
    assert Night.objects.get(table=table).home_game == home_game  # counts as a night
    assert night_open_table(night=night, by=host) == table  # opened once
    # Bikash finds it and sits down from the night's page: no invite link.
    assert [n.pk for n in tonights_tables_for(user=members["bikash"])] == [night.pk]
    client.force_login(members["bikash"])
    assert "Take your seat" in client.get(url("night_detail", night)).content.decode()
    response = client.post(url("night_sit", night))
    assert response["Location"] == reverse("table_detail", kwargs={"code": table.code})
    seat = Seat.objects.get(table=table, user=members["bikash"])
    assert seat.status == Seat.Status.PLAYING and seat.stack == 1000
    assert client.get(reverse("table_detail", kwargs={"code": table.code})).status_code == 200
    # Dipa waits, so she cannot sit from here; a stranger cannot either.
    assert tonights_tables_for(user=members["dipa"]) == []
    with pytest.raises(NightError) as refused:
        night_take_seat(night=night, user=members["dipa"])
    assert refused.value.code == "not_coming"
    stranger = make_user("stranger")
    with pytest.raises(NightError) as refused:
        night_take_seat(night=night, user=stranger)
    assert refused.value.code == "not_member"
    assert not Seat.objects.filter(table=table, user__in=[members["dipa"], stranger]).exists()


def test_a_night_with_no_table_has_no_seat_and_a_cancelled_one_opens_none(group):
    _home_game, host, members, _template = group
    night = schedule(group)
    night_answer(night=night, user=members["bikash"], reply="yes")
    with pytest.raises(NightError) as refused:
        night_take_seat(night=night, user=members["bikash"])
    assert refused.value.code == "not_open"
    night_cancel(night=night, by=host)
    with pytest.raises(NightError) as refused:
        night_open_table(night=night, by=host)
    assert refused.value.code == "cancelled"
    night.refresh_from_db()
    assert night.table is None


def test_a_cancelled_nights_page_asks_nobody_whether_they_are_coming(client, group):
    """Found by the second group's trial: the cancelled night's page still asked "Are you
    coming?" and listed everyone under "Not answered yet"."""
    _home_game, host, members, _template = group
    night = schedule(group)
    night_answer(night=night, user=members["bikash"], reply="yes")
    client.force_login(members["chandra"])
    page = client.get(url("night_detail", night)).content.decode()
    assert "Are you coming?" in page and "Not answered yet" in page
    assert "Who is coming" in page and "Who said they would come" not in page
    night_cancel(night=night, by=host)
    page = client.get(url("night_detail", night)).content.decode()
    assert "This night has been cancelled." in page
    assert "Are you coming?" not in page and "You have not answered yet." not in page
    assert "Not answered yet" not in page and 'name="reply"' not in page
    assert members["bikash"].table_name in page  # who had said yes stays on the record
    # ... under a heading in the past: nobody is coming to a cancelled night.
    assert "Who is coming" not in page and "Who said they would come" in page


def test_a_night_behind_us_lists_who_said_they_would_come(client, group):
    _home_game, _host, members, _template = group
    night = schedule(group)
    night_answer(night=night, user=members["bikash"], reply="yes")
    Night.objects.filter(pk=night.pk).update(starts_at=timezone.now() - timedelta(hours=13))
    client.force_login(members["chandra"])
    page = client.get(url("night_detail", night)).content.decode()
    assert "This night is behind us." in page
    assert "Who is coming" not in page and "Who said they would come" in page
    assert members["bikash"].table_name in page


def test_a_night_behind_us_opens_no_table_online(group):
    """As at the kitchen table: a night that started more than 12 hours ago is over, and
    nobody is led to a table for it; an open table for a night stays its table."""
    _home_game, host, _members, _template = group
    past, opened = schedule(group), schedule(group)
    table = night_open_table(night=opened, by=host)
    Night.objects.filter(pk__in=[past.pk, opened.pk]).update(starts_at=timezone.now() - timedelta(hours=13))
    with pytest.raises(NightError) as refused:
        night_open_table(night=past, by=host)
    assert refused.value.code == "past"
    past.refresh_from_db()
    assert past.table is None
    assert night_open_table(night=opened, by=host) == table


def test_tonights_table_is_on_the_home_page_and_the_lobby_of_those_coming(client, group):
    _home_game, host, members, _template = group
    night = schedule(group, seat_limit=2)
    night_answer(night=night, user=members["bikash"], reply="yes")
    night_answer(night=night, user=members["chandra"], reply="maybe")
    night_open_table(night=night, by=host)
    sit = url("night_sit", night)
    client.force_login(members["bikash"])
    for page in (reverse("home"), reverse("lobby")):
        assert sit in client.get(page).content.decode()
    client.force_login(members["chandra"])
    for page in (reverse("home"), reverse("lobby")):
        assert sit not in client.get(page).content.decode()


def test_the_template_page_saves_every_table_setting(client, group):
    home_game, host, _members, _template = group
    client.force_login(host)
    new = reverse("homegames:template_new", kwargs={"home_game_id": home_game.pk})
    assert client.get(new + "?game=classic").status_code == 200
    fields = {
        "game": "classic",
        "name": "Classic on Sundays",
        "seats": "5",
        "boot": "20",
        "buy_in_chips": "2000",
        "buy_in_price": "5.00",
        "currency": "",
        "buy_backs": "1",
        "blind_turns": "",
        "stake_limit": "",
        "pot_limit_boots": "",
        "sideshow": "on",
        "best_run": "AKQ",
        "turn_timer": "",
        "timeout_action": "remind",
        "hand_pause": "5",
    }
    response = client.post(new + "?game=classic", fields)
    assert response.status_code == 302, response.content.decode()[:3000]
    saved = home_game.night_templates.get(name="Classic on Sundays")
    assert saved.game == "classic" and saved.choices["boot"] == 20 and saved.choices["buy_backs"] == 1
    assert client.post(new + "?game=classic", {**fields, "boot": "0"}).status_code == 200  # refused, shown
    assert home_game.night_templates.count() == 2


def test_a_removed_members_yes_holds_no_seat(group):
    home_game, host, members, _template = group
    night = schedule(group, seat_limit=2)
    for name in ("bikash", "chandra", "dipa"):
        night_answer(night=night, user=members[name], reply="yes")
    assert night_answers(night=night).place_of(members["dipa"].pk) == "waiting"
    home_game_remove_member(home_game=home_game, member=members["bikash"], by=host)
    answers = night_answers(night=night)
    assert [a.user.username for a in answers.coming] == ["chandra", "dipa"]
    assert answers.place_of(members["bikash"].pk) == ""


def test_a_co_host_opens_tonights_table_and_hosts_it(group):
    home_game, host, members, _template = group
    night = schedule(group)
    home_game_set_co_host(home_game=home_game, member=members["bikash"], is_co_host=True, by=host)
    table = night_open_table(night=night, by=members["bikash"])
    assert table.host == members["bikash"]
    assert Night.objects.get(table=table).home_game == home_game
    with pytest.raises(NightError) as refused:
        night_open_table(night=schedule(group), by=members["chandra"])  # a plain member
    assert refused.value.code == "not_co_host"


def test_a_seat_that_fails_leaves_no_join_behind(group):
    """Joining tonight's table and taking the seat are one transaction: when the seat is
    refused (every seat taken), the member has not joined the table either."""
    from tables import services as table_services

    home_game, host, members, _template = group
    two_seats = night_template_save(
        home_game=home_game, name="Heads up", game="faras", choices={**FARAS, "seats": 2}, by=host
    )
    night = night_schedule(
        home_game=home_game,
        template=two_seats,
        starts_at=tonight(),
        time_zone="UTC",
        place="Asha's flat",
        seat_limit=2,
        by=host,
    )
    night_answer(night=night, user=members["bikash"], reply="yes")
    table = night_open_table(night=night, by=host)
    for name in ("chandra", "dipa"):  # two others fill both seats by the table's own link
        seat = table_services.table_join(
            code=table.code, invite_token=table.invite_token, user=members[name], guest_name=None, guest_token=None
        )
        table_services.seat_take(table_id=table.pk, seat_id=seat.pk)
    with pytest.raises(NightError) as refused:
        night_take_seat(night=night, user=members["bikash"])
    assert refused.value.code == "table_full"
    assert not Seat.objects.filter(table=table, user=members["bikash"]).exists()
