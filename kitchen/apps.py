"""The kitchen-table night: real cards and chips on the table, Dashain as the bank
(see docs/kitchen-table.md)."""

from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class KitchenConfig(AppConfig):
    name = "kitchen"
    verbose_name = _("Kitchen-table nights")

    def ready(self) -> None:
        from homegames.night_costs import night_costs_wanted
        from kitchen.selectors import season_costs

        # The nights' shared costs count in their home game's season; the home game asks
        # through its signal, since it never imports the kitchen (docs/architecture.md).
        night_costs_wanted.connect(season_costs, dispatch_uid="kitchen_season_costs")
