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

from typing import Any

from channels.auth import AuthMiddleware
from channels.sessions import CookieMiddleware, InstanceSessionWrapper, SessionMiddleware


class SocketSessionMiddleware(SessionMiddleware):
    """Channels' ``SessionMiddleware`` for WebSockets: the same session in the scope, the
    server's own ``send`` to the inner application."""

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> Any:
        if scope.get("type") != "websocket":
            return await super().__call__(scope, receive, send)
        wrapper = InstanceSessionWrapper(scope, send)
        await wrapper.resolve_session()
        return await self.inner(wrapper.scope, receive, send)


def socket_auth_stack(inner: Any) -> Any:
    """``channels.auth.AuthMiddlewareStack`` with :class:`SocketSessionMiddleware`."""
    return CookieMiddleware(SocketSessionMiddleware(AuthMiddleware(inner)))
