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

import logging

from tables.live.channels_typed import (
    ASGIApp,
    AuthMiddleware,
    CookieMiddleware,
    InstanceSessionWrapper,
    Receive,
    Scope,
    Send,
    SessionMiddleware,
    database_sync_to_async,
    user_of_scope,
)
from tables.live.consumers import socket_refuse_unavailable
from tables.services import DATABASE_UNAVAILABLE

logger = logging.getLogger(__name__)


class SocketSessionMiddleware(SessionMiddleware):
    """Channels' ``SessionMiddleware`` for WebSockets: the same session in the scope, the
    server's own ``send`` to the inner application."""

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope.get("type") != "websocket":
            await super().__call__(scope, receive, send)
            return
        wrapper = InstanceSessionWrapper(scope, send)
        await wrapper.resolve_session()
        await self.inner(wrapper.scope, receive, send)


class SocketAuthMiddleware(AuthMiddleware):
    """Channels' ``AuthMiddleware`` for WebSockets, for a database that may be away.

    The session and the user are read before the socket's consumer exists; with the
    database stopped that read raised, and daphne answered the handshake with an HTTP 500
    the page sees only as a drop. Here the socket is accepted, told ``unavailable`` and
    closed with 4503, as the table's consumer answers a channel layer or database that is
    away, and the page comes back with its back-off. The read runs in the project's
    database call (``tables.live.channels_typed.database_sync_to_async``), whose connection check
    inside the call replaces a connection a database restart left broken.
    """

    async def resolve_scope(self, scope: Scope) -> None:
        # The user itself, read now, in place of Channels' lazy one (filled through its
        # private ``_wrapped``): nothing reads the scope's user before this.
        scope["user"] = await database_sync_to_async(user_of_scope)(scope)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope.get("type") != "websocket":
            await super().__call__(scope, receive, send)
            return
        scope = dict(scope)
        self.populate_scope(scope)
        try:
            await self.resolve_scope(scope)
        except DATABASE_UNAVAILABLE:
            logger.warning("database unavailable; socket refused before its session was read", exc_info=True)
            await socket_refuse_unavailable({k: v for k, v in scope.items() if k != "user"}, receive, send)
            return
        await self.inner(scope, receive, send)


def socket_auth_stack(inner: ASGIApp) -> ASGIApp:
    """``channels.auth.AuthMiddlewareStack`` with :class:`SocketSessionMiddleware` and
    :class:`SocketAuthMiddleware`."""
    stack: ASGIApp = CookieMiddleware(SocketSessionMiddleware(SocketAuthMiddleware(inner)))
    return stack
