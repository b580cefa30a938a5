from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class TablesConfig(AppConfig):
    name = "tables"
    verbose_name = _("Tables")

    def ready(self) -> None:
        from tables.background_threads import swept
        from tables.live import signals  # noqa: F401  (connects the receivers)
        from tables.push import push_sweep

        swept.connect(push_sweep, dispatch_uid="tables_push_sweep")
