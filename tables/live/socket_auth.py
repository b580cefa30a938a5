"""A socket's sign-in after it opened: a password change closes the sockets it signed out.

Django keeps a hash of the password in each session (``HASH_SESSION_KEY``, the user's
``get_session_auth_hash()``); once the password changes, every session holding the old hash
is signed out at its next request. A socket is not a request: it was let in once, at
connect. So a change of the password hash (``tables.signals``) is sent to every socket of
that user (the group :func:`user_group`), and each compares the hash its session held when
it connected with the user's current one: a socket of a session the change signed out
closes as at sign-out (4401). That is every socket opened before the change, the changing
session's own too: Django keeps that session signed in under a new key
(``update_session_auth_hash``), and its pages open their sockets again with it.
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth import HASH_SESSION_KEY, get_user_model
from django.utils.crypto import constant_time_compare

from tables.broadcast import layer_send


def user_group(user_id: int) -> str:
    """The channel-layer group of every socket a signed-in user has open."""
    return f"user_{int(user_id)}"


def socket_user_group(scope: dict[str, Any] | Any) -> str | None:
    """The user group of a socket's signed-in user (``None`` for a guest)."""
    user = scope.get("user")
    return user_group(user.pk) if user is not None and getattr(user, "is_authenticated", False) else None


def sockets_check_for_user(user_id: int) -> None:
    """Tell every socket of the user, in every process, to check its session's password hash."""
    layer_send(user_group(user_id), {"type": "user.password_changed"})


def session_hash_current(scope: dict[str, Any] | Any) -> bool:
    """Whether the socket's session (as it connected) still holds the user's password hash."""
    user = scope.get("user")
    session = scope.get("session")
    if user is None or not getattr(user, "is_authenticated", False) or session is None:
        return True  # a guest: no password to change
    current = get_user_model().objects.filter(pk=user.pk).values_list("password", flat=True).first()
    if current is None:
        return False  # the account is gone
    fresh = get_user_model()(pk=user.pk, password=current)
    held = session.get(HASH_SESSION_KEY) or ""
    return bool(held) and constant_time_compare(held, fresh.get_session_auth_hash())
