"""The home game's nights ahead: templates of table settings, nights on a calendar, the
members' answers, and tonight's table opened from the plan (see docs/home-games.md)."""

from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class HomeGamesConfig(AppConfig):
    name = "homegames"
    verbose_name = _("Home game nights")

    def ready(self) -> None:
        from homegames.services import notices_sweep
        from tables.worker import swept

        swept.connect(notices_sweep, dispatch_uid="homegames_notices_sweep")
