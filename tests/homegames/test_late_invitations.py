"""A member who joins after nights were scheduled is invited to each night ahead, once,
through the same durable notices as the others (written in the join's transaction, sent by
the table clock's sweep); past and cancelled nights send nothing, nor does joining again."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.core import mail
from django.urls import reverse
from django.utils import timezone

from homegames.models import HomeGame, Night, Notice
from homegames.services import night_cancel, night_update, notices_send_due
from homegames.services_members import home_game_add_table, home_game_join, home_game_remove_member
from tables.background_threads import swept
from tables.services import table_create, table_join
from tests.homegames.test_notices import group, recipients, schedule  # noqa: F401 (fixture)
from tests.ledger.conftest import make_user


@pytest.fixture
def nights(group):  # noqa: F811
    """Two nights ahead, one cancelled, one past; every member's invitation already sent."""
    _home_game, host, _members, _template = group
    ahead = [schedule(group, days=3), schedule(group, days=5)]
    cancelled = night_cancel(night=schedule(group, days=4), by=host)
    past = schedule(group, days=2)
    Night.objects.filter(pk=past.pk).update(starts_at=timezone.now() - timedelta(days=1))
    notices_send_due()
    mail.outbox.clear()
    return ahead, cancelled, past


def newcomer(name="esha"):
    user = make_user(name)
    user.email = f"{name}@example.org"
    user.save()
    return user


def join(home_game, user):
    home_game = HomeGame.objects.get(pk=home_game.pk)  # the current invite link
    home_game_join(home_game=home_game, token=home_game.invite_token, user=user)


def invited_to(address):
    """The night pages the invitations to ``address`` link to."""
    return sorted(
        line.strip().rsplit("/nights/", 1)[1]
        for m in mail.outbox
        if m.to == [address]
        for line in m.body.splitlines()
        if "/nights/" in line
    )


def test_a_member_who_joins_later_is_invited_once_to_each_night_ahead(client, group, nights):  # noqa: F811
    home_game, _host, _members, _template = group
    ahead, _cancelled, _past = nights
    esha = newcomer()
    client.force_login(esha)
    response = client.post(reverse("ledger:home_game_join", kwargs={"token": home_game.invite_token}))
    assert response.status_code == 302
    assert mail.outbox == []  # written in the join's transaction, not sent in the request
    swept.send_robust(sender=None)  # the table clock's sweep sends them
    assert recipients() == ["esha@example.org", "esha@example.org"]  # no one else hears anything
    assert invited_to("esha@example.org") == sorted(f"{night.pk}/" for night in ahead)
    assert all(m.subject.startswith("A night of Friday Faras: ") for m in mail.outbox)
    # Joining again changes nothing; a second sweep sends nothing.
    join(home_game, esha)
    assert notices_send_due() == 0
    assert Notice.objects.filter(user=esha).count() == 2


def test_leaving_and_joining_again_sends_no_second_invitation(group, nights):  # noqa: F811
    home_game, host, _members, _template = group
    ahead, _cancelled, _past = nights
    esha = newcomer()
    join(home_game, esha)
    notices_send_due()
    assert len(mail.outbox) == 2
    home_game_remove_member(home_game=home_game, member=esha, by=host)
    night_update(night=ahead[0], starts_at=ahead[0].starts_at + timedelta(hours=2), place="Here", seat_limit=4, by=host)
    join(home_game, esha)  # the moved night too: one invitation per night, whatever its version
    mail.outbox.clear()
    assert notices_send_due() == 0
    assert mail.outbox == []
    assert Notice.objects.filter(user=esha, kind="invitation").count() == 2


def test_one_who_left_before_the_sweep_is_invited_when_they_join_again(group, nights):  # noqa: F811
    """An invitation never sent (they were no longer a member when the sweep came) is due
    again: still exactly one per night."""
    home_game, host, _members, _template = group
    ahead, _cancelled, _past = nights
    esha = newcomer()
    join(home_game, esha)
    home_game_remove_member(home_game=home_game, member=esha, by=host)
    notices_send_due()
    assert mail.outbox == []
    assert set(Notice.objects.filter(user=esha).values_list("skipped", flat=True)) == {"not_member"}
    join(home_game, esha)
    notices_send_due()
    assert invited_to("esha@example.org") == sorted(f"{night.pk}/" for night in ahead)
    assert notices_send_due() == 0


def test_players_of_a_table_added_as_a_night_are_invited_too(group, nights):  # noqa: F811
    """Membership also comes from sitting at a table the host adds as a night."""
    home_game, host, _members, _template = group
    ahead, _cancelled, _past = nights
    table = table_create(host=host, game="faras", choices={})
    players = [newcomer("farid"), newcomer("gita")]
    for player in players:
        table_join(code=table.code, invite_token=table.invite_token, user=player)
    home_game_add_table(home_game=home_game, table=table, by=host)
    notices_send_due()
    assert recipients() == ["farid@example.org"] * 2 + ["gita@example.org"] * 2
    assert invited_to("gita@example.org") == sorted(f"{night.pk}/" for night in ahead)
