"""A WebSocket's session and user come from its cookie as with Channels' AuthMiddlewareStack,
and the frames it sends go straight to the server (config.socket_sessions)."""

from __future__ import annotations

from typing import Any

import pytest
from channels.db import database_sync_to_async
from channels.testing import ApplicationCommunicator

from config.socket_sessions import socket_auth_stack
from tests.tables.conftest import make_user
from tests.tables.ws import _session_cookie

pytestmark = pytest.mark.django_db(transaction=True)


async def _seen_by_the_app(scope_type: str, cookie: str | None) -> dict[str, Any]:
    """What the inner application was given: its scope's session and user, and its send."""
    seen: dict[str, Any] = {}

    async def inner(scope, receive, send):
        seen["session"] = await database_sync_to_async(dict)(scope["session"])
        seen["user"] = await database_sync_to_async(lambda: scope["user"].username)()
        seen["send"] = send
        await send({"type": "app.done"})

    headers = [(b"cookie", f"sessionid={cookie}".encode())] if cookie else []
    scope = {"type": scope_type, "path": "/ws/x/", "headers": headers}
    communicator = ApplicationCommunicator(socket_auth_stack(inner), scope)
    await communicator.send_input({"type": f"{scope_type}.connect"})
    assert (await communicator.receive_output(timeout=10))["type"] == "app.done"
    seen["server_send"] = communicator.output_queue.put
    return seen


async def test_a_socket_gets_its_session_and_user_and_the_server_s_own_send():
    user = await database_sync_to_async(make_user)("socket-sessions")
    cookie = await database_sync_to_async(_session_cookie)(user, "guest-token-1")
    seen = await _seen_by_the_app("websocket", cookie)
    assert seen["user"] == "socket-sessions"
    assert seen["session"]["dashain_guest_token"] == "guest-token-1"
    # No wrapper in between: what the consumer sends is what the server was given.
    assert seen["send"] == seen["server_send"]


async def test_without_a_cookie_a_socket_has_an_empty_session_and_nobody_signed_in():
    seen = await _seen_by_the_app("websocket", None)
    assert seen["session"] == {}
    assert seen["user"] == ""


async def test_anything_else_keeps_channels_session_wrapper():
    seen = await _seen_by_the_app("http", None)
    assert seen["send"] != seen["server_send"]
