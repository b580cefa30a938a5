"""Channels, typed: the one module that names Channels' classes and functions.

Channels ships no type information, so a class built on its untyped bases (the table's
consumer, the socket session and user middleware of ``config.socket_sessions``) would be
checked by mypy against ``Any``. Here each base is declared with the types the project uses
of it, for the checker only: at run time the names are Channels' own classes, so nothing
runs between a consumer and Channels (a socket sends a frame to each player after every
action: a wrapper there would be work on every frame).

:func:`database_sync_to_async` is Channels' function of that name with the project's
connection handling, typed by the function it runs: a call through it is checked as a
call of the service itself.
"""

from __future__ import annotations

import functools
from collections.abc import Awaitable, Callable, Mapping
from typing import TYPE_CHECKING, Any, ParamSpec, Protocol, TypeVar

from channels.auth import AuthMiddleware as _AuthMiddleware
from channels.auth import get_user
from channels.consumer import get_handler_name
from channels.db import database_sync_to_async as _database_sync_to_async
from channels.generic.websocket import AsyncJsonWebsocketConsumer as _AsyncJsonWebsocketConsumer
from channels.sessions import CookieMiddleware as _CookieMiddleware
from channels.sessions import InstanceSessionWrapper as _InstanceSessionWrapper
from channels.sessions import SessionMiddleware as _SessionMiddleware
from django.db import close_old_connections

if TYPE_CHECKING:
    from django.contrib.auth.base_user import AbstractBaseUser
    from django.contrib.auth.models import AnonymousUser

__all__ = [
    "ASGIApp",
    "AuthMiddleware",
    "ChannelLayer",
    "CookieMiddleware",
    "Headers",
    "InstanceSessionWrapper",
    "JsonWebsocketConsumer",
    "Message",
    "Receive",
    "Scope",
    "Send",
    "SessionMiddleware",
    "database_sync_to_async",
    "handler_name",
    "user_of_scope",
]

Params = ParamSpec("Params")
Result = TypeVar("Result")

#: An ASGI scope and message, as the project reads and writes them (JSON-like dicts whose
#: values depend on their ``type``).
Scope = dict[str, Any]
Message = dict[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]
#: A handshake's extra headers.
Headers = list[tuple[bytes, bytes]]


class ChannelLayer(Protocol):
    """What a consumer uses of its channel layer."""

    async def group_add(self, group: str, channel: str) -> None: ...

    async def group_discard(self, group: str, channel: str) -> None: ...

    async def group_send(self, group: str, message: Message) -> None: ...


if TYPE_CHECKING:

    class JsonWebsocketConsumer:
        """``channels.generic.websocket.AsyncJsonWebsocketConsumer``, as the project uses it."""

        scope: Scope
        channel_name: str
        channel_layer: ChannelLayer
        base_send: Send

        async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None: ...

        async def dispatch(self, message: Message) -> None: ...

        async def websocket_connect(self, message: Message) -> None: ...

        async def accept(
            self, subprotocol: str | None = None, headers: list[tuple[bytes, bytes]] | None = None
        ) -> None: ...

        async def send(
            self, text_data: str | None = None, bytes_data: bytes | None = None, close: bool = False
        ) -> None: ...

        async def send_json(self, content: Mapping[str, object], close: bool = False) -> None: ...

        async def close(self, code: int | None = None, reason: str | None = None) -> None: ...

        @classmethod
        def as_asgi(cls, **initkwargs: object) -> ASGIApp: ...

    class SessionMiddleware:
        """``channels.sessions.SessionMiddleware``."""

        inner: ASGIApp

        def __init__(self, inner: ASGIApp) -> None: ...

        async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None: ...

    class AuthMiddleware:
        """``channels.auth.AuthMiddleware``."""

        inner: ASGIApp

        def __init__(self, inner: ASGIApp) -> None: ...

        def populate_scope(self, scope: Scope) -> None: ...

        async def resolve_scope(self, scope: Scope) -> None: ...

        async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None: ...

    class CookieMiddleware:
        """``channels.sessions.CookieMiddleware``."""

        def __init__(self, inner: ASGIApp) -> None: ...

        async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None: ...

    class InstanceSessionWrapper:
        """``channels.sessions.InstanceSessionWrapper``: the session of one connection."""

        scope: Scope

        def __init__(self, scope: Scope, send: Send) -> None: ...

        async def resolve_session(self) -> None: ...

else:
    JsonWebsocketConsumer = _AsyncJsonWebsocketConsumer
    SessionMiddleware = _SessionMiddleware
    AuthMiddleware = _AuthMiddleware
    CookieMiddleware = _CookieMiddleware
    InstanceSessionWrapper = _InstanceSessionWrapper


def handler_name(message: Message) -> str:
    """The consumer method Channels dispatches ``message`` to (``table.events``: ``table_events``)."""
    name: str = get_handler_name(message)
    return name


def user_of_scope(scope: Scope) -> AbstractBaseUser | AnonymousUser:
    """The user of a connection's session (Channels' ``get_user``, run in the caller's thread)."""
    user: AbstractBaseUser | AnonymousUser = get_user.func(scope)
    return user


def database_sync_to_async(function: Callable[Params, Result]) -> Callable[Params, Awaitable[Result]]:
    """Run a service off the event loop. On PostgreSQL, calls for different tables run in
    parallel threads (each service locks its table row, so one table's actions stay one at a
    time); SQLite keeps Channels' default of one thread, as concurrent writers stall it."""
    wrapped: Callable[Params, Awaitable[Result]] = _database_sync_to_async(
        _closing_old_connections(function), thread_sensitive=not _parallel_database()
    )
    return wrapped


def _closing_old_connections(function: Callable[Params, Result]) -> Callable[Params, Result]:
    """``function`` with Django's end-of-request connection check before and after it.

    Channels runs that check around the call, but outside the context the call runs in;
    Django keeps a connection in a context-aware local, so the connection the call opened
    was never seen there, never closed (with ``CONN_MAX_AGE`` 0) and left idle in
    PostgreSQL after its thread had gone. Checked inside, it is closed or kept by the
    setting, as for a request.
    """

    @functools.wraps(function)
    def call(*args: Params.args, **kwargs: Params.kwargs) -> Result:
        close_old_connections()
        try:
            return function(*args, **kwargs)
        finally:
            close_old_connections()

    return call


def _parallel_database() -> bool:
    from django.conf import settings

    engine: str = settings.DATABASES["default"]["ENGINE"]
    return engine == "django.db.backends.postgresql"
