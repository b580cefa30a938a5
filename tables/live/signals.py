"""Signal receivers of live play: signing out closes the sockets that session opened.

A socket carries the session it was opened with; without this, a page left open after
its user signed out (in another tab, or on a shared computer) could still act for them.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from django.contrib.auth.signals import user_logged_out
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
