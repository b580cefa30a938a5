"""The session and user of a WebSocket, without a wrapper around every frame it sends.

Channels' ``AuthMiddlewareStack`` puts the Django session (from the cookie) and the user
into a socket's scope, and its ``SessionMiddleware`` also wraps the socket's ``send``:
on every frame sent it asks whether the session changed, to save it on
``http.response.start``, a message a WebSocket never sends. For a table's socket, which
sends a frame to each player after every action, that was work on every frame for
nothing (the session wrapper and its lazy session, measured at ~2% of the event loop at
100 tables; docs/live-play.md).

:func:`socket_auth_stack` is that stack with the session resolved the same way and
``send`` passed through as the server gave it. A socket never saved its session through
the wrapper (only an HTTP response does), so nothing else changes.
"""

from __future__ import annotations

import json
import logging
from typing import Any

from channels.auth import AuthMiddleware, get_user
from channels.sessions import CookieMiddleware, InstanceSessionWrapper, SessionMiddleware
from django.utils import translation

from accounts.language import language_for_scope
from tables.live.consumers import CLOSE_UNAVAILABLE, UNAVAILABLE, database_sync_to_async
from tables.services import DATABASE_UNAVAILABLE

logger = logging.getLogger(__name__)


class SocketSessionMiddleware(SessionMiddleware):
    """Channels' ``SessionMiddleware`` for WebSockets: the same session in the scope, the
    server's own ``send`` to the inner application."""

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> Any:
        if scope.get("type") != "websocket":
            return await super().__call__(scope, receive, send)
        wrapper = InstanceSessionWrapper(scope, send)
        await wrapper.resolve_session()
        return await self.inner(wrapper.scope, receive, send)


class SocketAuthMiddleware(AuthMiddleware):
    """Channels' ``AuthMiddleware`` for WebSockets, for a database that may be away.

    The session and the user are read before the socket's consumer exists; with the
    database stopped that read raised, and daphne answered the handshake with an HTTP 500
    the page sees only as a drop. Here the socket is accepted, told ``unavailable`` and
    closed with 4503, as the table's consumer answers a channel layer or database that is
    away, and the page comes back with its back-off. The read runs in the project's
    database call (``tables.live.consumers.database_sync_to_async``), whose connection check
    inside the call replaces a connection a database restart left broken.
    """

    async def resolve_scope(self, scope: dict[str, Any]) -> None:
        scope["user"]._wrapped = await database_sync_to_async(get_user.func)(scope)

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> Any:
        if scope.get("type") != "websocket":
            return await super().__call__(scope, receive, send)
        scope = dict(scope)
        self.populate_scope(scope)
        try:
            await self.resolve_scope(scope)
        except DATABASE_UNAVAILABLE:
            logger.warning("database unavailable; socket refused before its session was read", exc_info=True)
            await socket_refuse_unavailable({k: v for k, v in scope.items() if k != "user"}, receive, send)
            return None
        return await self.inner(scope, receive, send)


async def socket_refuse_unavailable(scope: dict[str, Any], receive: Any, send: Any) -> None:
    """Answer a WebSocket's handshake: accepted, ``{"type": "error", "code": "unavailable"}``
    in its language (from its cookie or browser), closed with 4503."""
    if (await receive()).get("type") != "websocket.connect":
        return
    with translation.override(language_for_scope(scope)):
        message = {"type": "error", "code": "unavailable", "message": str(UNAVAILABLE)}
    await send({"type": "websocket.accept"})
    await send({"type": "websocket.send", "text": json.dumps(message)})
    await send({"type": "websocket.close", "code": CLOSE_UNAVAILABLE})


def socket_auth_stack(inner: Any) -> Any:
    """``channels.auth.AuthMiddlewareStack`` with :class:`SocketSessionMiddleware` and
    :class:`SocketAuthMiddleware`."""
    return CookieMiddleware(SocketSessionMiddleware(SocketAuthMiddleware(inner)))
