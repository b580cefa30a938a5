"""A member with no e-mail address is skipped (``no_email``); once she gives one, on her
profile or on the join page, she is sent the invitations of the nights ahead that were
skipped, through the same durable notices and the same rule as a member who joins late
(``_invite_late``): once per night, never one already sent to her old address, none for a
past or cancelled night, or one whose table is already open."""

from __future__ import annotations

from datetime import timedelta

from django.core import mail
from django.urls import reverse
from django.utils import timezone

from homegames.models import HomeGame, Notice
from homegames.services import night_cancel, notices_send_due
from tables.services import table_create
from tests.homegames.test_late_invitations import invited_to
from tests.homegames.test_notices import group, schedule  # noqa: F401 (fixture)
from tests.ledger.conftest import make_user


def profile(client, user, email):
    client.force_login(user)
    response = client.post(reverse("profile"), {"display_name": user.display_name, "email": email, "language": ""})
    assert response.status_code == 302, response.context["form"].errors
    user.refresh_from_db()


def test_a_member_who_adds_her_address_is_sent_the_invitations_of_the_nights_ahead_once(client, group):  # noqa: F811
    _home_game, host, members, _template = group
    dipa = members["dipa"]
    dipa.email = ""
    dipa.save()
    ahead = [schedule(group, days=3), schedule(group, days=5)]
    cancelled = night_cancel(night=schedule(group, days=4), by=host)
    past, opened = schedule(group, days=2), schedule(group, days=6)
    notices_send_due()
    assert set(Notice.objects.filter(user=dipa).values_list("skipped", flat=True)) == {"no_email"}
    nights = type(past).objects
    nights.filter(pk=past.pk).update(starts_at=timezone.now() - timedelta(hours=1))
    nights.filter(pk=opened.pk).update(table=table_create(host=host, game="faras", choices={}))
    mail.outbox.clear()

    profile(client, dipa, "dipa@example.org")
    assert mail.outbox == []  # due again in the profile's transaction, sent by the sweep
    assert notices_send_due() == 2
    assert [m.to for m in mail.outbox] == [["dipa@example.org"]] * 2
    assert invited_to("dipa@example.org") == sorted(f"{night.pk}/" for night in ahead)
    skipped = Notice.objects.filter(user=dipa, night__in=[cancelled, past, opened]).values_list("skipped", flat=True)
    assert list(skipped) == ["no_email"] * 3  # a cancelled or past night, or one already open, invites no one

    # A new address later, or the same one saved again: nothing sent twice.
    profile(client, dipa, "dipa@example.net")
    profile(client, dipa, "dipa@example.net")
    assert notices_send_due() == 0
    assert Notice.objects.filter(user=dipa, kind="invitation").count() == 5  # one a night, as ever


def test_one_who_gives_her_address_on_the_join_page_after_the_sweep_skipped_her_is_invited(client, group):  # noqa: F811
    """Joining writes her invitations; should the sweep pass before the address the page
    asked for is saved, they are skipped, and the address makes them due again."""
    home_game, _host, _members, _template = group
    night = schedule(group, days=3)
    esha = make_user("esha")
    client.force_login(esha)
    link = reverse("ledger:home_game_join", kwargs={"token": HomeGame.objects.get(pk=home_game.pk).invite_token})
    notices_send_due()
    mail.outbox.clear()

    def sweep_first(**kwargs):
        """The sweep comes between joining and saving the address (``m2m_changed`` runs in
        the join, after the invitations are written)."""
        if kwargs["action"] == "post_add":
            notices_send_due()

    from django.db.models.signals import m2m_changed

    m2m_changed.connect(sweep_first, sender=HomeGame.members.through, dispatch_uid="test_sweep_first")
    try:
        response = client.post(link, {"email": "esha@example.org"})
    finally:
        m2m_changed.disconnect(dispatch_uid="test_sweep_first", sender=HomeGame.members.through)
    assert response.status_code == 302
    assert mail.outbox == []
    assert notices_send_due() == 1
    assert invited_to("esha@example.org") == [f"{night.pk}/"]


def test_an_address_cleared_or_a_member_with_her_invitations_sent_gets_nothing_new(client, group):  # noqa: F811
    _home_game, _host, members, _template = group
    schedule(group, days=3)
    notices_send_due()
    mail.outbox.clear()
    profile(client, members["bikash"], "")
    profile(client, members["chandra"], "chandra@example.net")
    assert notices_send_due() == 0
    assert mail.outbox == []


def test_an_address_an_admin_gives_her_sends_the_invitations_she_missed(client, group):  # noqa: F811
    """The site's admin, not only her profile: the player admin tells the new address as the
    profile does (found in the trial: an admin's change sent nothing)."""
    _home_game, _host, members, _template = group
    dipa = members["dipa"]
    dipa.email = ""
    dipa.save()
    ahead = schedule(group, days=3)
    notices_send_due()
    assert list(Notice.objects.filter(user=dipa).values_list("skipped", flat=True)) == ["no_email"]
    mail.outbox.clear()
    admin = make_user("root")
    admin.is_staff = admin.is_superuser = True
    admin.save()
    client.force_login(admin)
    change = reverse("admin:accounts_user_change", args=[dipa.pk])
    joined = timezone.localtime(dipa.date_joined)
    fields = {
        "username": dipa.username,
        "display_name": dipa.display_name,
        "first_name": "",
        "last_name": "",
        "is_active": "on",
        "date_joined_0": joined.strftime("%Y-%m-%d"),
        "date_joined_1": joined.strftime("%H:%M:%S"),
    }

    response = client.post(change, {**fields, "email": "dipa@example.org"})
    assert response.status_code == 302, response.context["adminform"].form.errors
    assert notices_send_due() == 1
    assert [m.to for m in mail.outbox] == [["dipa@example.org"]]
    assert invited_to("dipa@example.org") == [f"{ahead.pk}/"]

    # Saved again unchanged, or with another field changed: nothing is told, nothing sent.
    assert client.post(change, {**fields, "email": "dipa@example.org", "first_name": "D"}).status_code == 302
    assert notices_send_due() == 0
