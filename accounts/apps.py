"""The accounts app: players' accounts on Django's auth."""

from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class AccountsConfig(AppConfig):
    name = "accounts"
    verbose_name = _("Accounts")

    def ready(self) -> None:
        # The login signal's receiver: the account's language is applied at login.
        from accounts import language  # noqa: F401
