"""The home game's nights ahead: templates of table settings, nights on a calendar, the
members' answers, and tonight's table opened from the plan (see docs/home-games.md)."""

from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class HomeGamesConfig(AppConfig):
    name = "homegames"
    verbose_name = _("Home game nights")

    def ready(self) -> None:
        from django.db.models.signals import m2m_changed

        from accounts.signals import email_added, signed_up
        from homegames.models import HomeGame
        from homegames.services import (
            invitations_of_new_address,
            invitations_of_new_members,
            notices_sweep,
            zone_of_new_account,
        )
        from homegames.services_members import calendar_feeds_of_removed
        from tables.background_threads import swept

        swept.connect(notices_sweep, dispatch_uid="homegames_notices_sweep")
        # The zone a new account confirmed at sign-up is the one its nights are shown in.
        signed_up.connect(zone_of_new_account, dispatch_uid="homegames_zone_of_new_account")
        # A removed member's calendar feed is deleted, so joining again never revives its old address.
        m2m_changed.connect(
            calendar_feeds_of_removed, sender=HomeGame.members.through, dispatch_uid="homegames_feeds_removed"
        )
        # A member who gives an e-mail address gets the invitations skipped for want of one.
        email_added.connect(invitations_of_new_address, dispatch_uid="homegames_invitations_of_new_address")
        # Whoever joins after a night was scheduled is invited to it, as the members then were.
        m2m_changed.connect(
            invitations_of_new_members, sender=HomeGame.members.through, dispatch_uid="homegames_late_invitations"
        )
