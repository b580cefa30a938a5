"""Signal receivers of live play: signing out closes the sockets that session opened, and a
changed password closes the sockets of the sessions it signed out (``tables.live.socket_auth``).

A socket carries the session it was opened with; without this, a page left open after
its user signed out (in another tab, or on a shared computer), or after the password was
changed elsewhere, could still act for them and receive their cards.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from django.conf import settings
from django.contrib.auth.signals import user_logged_out
from django.db import transaction
from django.db.models.signals import post_save, pre_save
from django.dispatch import receiver

if TYPE_CHECKING:
    from django.http import HttpRequest

    from accounts.models import User


@receiver(user_logged_out, dispatch_uid="tables_close_sockets_at_sign_out")
def _close_sockets_at_sign_out(
    sender: type[User], request: HttpRequest | None, user: User | None, **kwargs: Any
) -> None:
    from tables.live.consumers import sockets_close_for_session

    session = getattr(request, "session", None)
    sockets_close_for_session(getattr(session, "session_key", None))


@receiver(pre_save, sender=settings.AUTH_USER_MODEL, dispatch_uid="tables_password_hash_before")
def _note_password_change(sender: type[User], instance: User, update_fields: Any = None, **kwargs: Any) -> None:
    """Note whether this save changes the stored password hash (one read, only when the
    password may be among the fields saved: not for ``last_login`` or the language)."""
    if instance.pk is None or (update_fields is not None and "password" not in update_fields):
        return
    stored = sender.objects.filter(pk=instance.pk).values_list("password", flat=True).first()
    instance._dashain_password_changed = stored is not None and stored != instance.password  # type: ignore[attr-defined]


@receiver(post_save, sender=settings.AUTH_USER_MODEL, dispatch_uid="tables_password_hash_after")
def _check_sockets_after_password_change(sender: type[User], instance: User, **kwargs: Any) -> None:
    if not getattr(instance, "_dashain_password_changed", False):
        return
    instance._dashain_password_changed = False  # type: ignore[attr-defined]
    from tables.live.socket_auth import sockets_check_for_user

    user_id = instance.pk
    transaction.on_commit(lambda: sockets_check_for_user(user_id))
