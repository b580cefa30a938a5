"""A table socket speaks its viewer's language, chosen as for a page (accounts.language):
the account's choice, else the language cookie, else the browser's Accept-Language.
Engine refusals reach the player translated, with the engine's stable code."""

from __future__ import annotations

import json

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator

from config.asgi import application
from tests.tables.conftest import open_table
from tests.tables.ws import _session_cookie, users_of

pytestmark = pytest.mark.django_db(transaction=True)


async def _socket(code: str, user, extra_headers: list[tuple[bytes, bytes]]):
    session_key = await database_sync_to_async(_session_cookie)(user, None)
    cookies = [f"sessionid={session_key}"] + [value.decode() for name, value in extra_headers if name == b"cookie"]
    headers = [(b"origin", b"http://localhost"), (b"host", b"localhost"), (b"cookie", "; ".join(cookies).encode())]
    headers += [(name, value) for name, value in extra_headers if name != b"cookie"]
    communicator = WebsocketCommunicator(application, f"/ws/table/{code}/", headers=headers)
    connected, _ = await communicator.connect(timeout=10)
    assert connected
    snapshot = await communicator.receive_json_from(timeout=10)
    assert snapshot["type"] == "snapshot"
    communicator.snapshot = snapshot
    return communicator


async def _error_for(communicator, text: str) -> dict:
    await communicator.send_to(text_data=text)
    while True:
        frame = await communicator.receive_json_from(timeout=10)
        if frame.get("type") == "error":
            return frame


@pytest.mark.parametrize(
    ("account_language", "headers", "expected"),
    [
        ("", [], "That message is not JSON."),
        ("", [(b"cookie", b"django_language=de")], "Diese Nachricht ist kein JSON."),
        ("", [(b"accept-language", b"hi-IN,hi;q=0.9")], "यह संदेश JSON नहीं है।"),
        ("ne", [(b"cookie", b"django_language=de"), (b"accept-language", b"hi")], "त्यो सन्देश JSON होइन।"),
    ],
)
async def test_the_socket_speaks_the_viewers_language(account_language, headers, expected):
    table, seats = await database_sync_to_async(open_table)("faras", 3)
    users = await users_of(seats)
    user = users[0]
    user.language = account_language
    await database_sync_to_async(user.save)()
    communicator = await _socket(table.code, user, headers)

    frame = await _error_for(communicator, "not json")

    assert frame["code"] == "bad_json"
    assert frame["message"] == expected
    await communicator.disconnect()


async def test_an_engine_refusal_arrives_translated_with_its_code():
    table, seats = await database_sync_to_async(open_table)("faras", 3)
    users = await users_of(seats)
    communicator = await _socket(table.code, users[0], [(b"cookie", b"django_language=de")])
    if str(communicator.snapshot["hand"]["turn"]["player"]) == str(seats[0].pk):
        await communicator.disconnect()  # seat 0 is to act: ask as the next seat instead
        communicator = await _socket(table.code, users[1], [(b"cookie", b"django_language=de")])

    frame = await _error_for(communicator, json.dumps({"type": "action", "id": "x1", "verb": "chaal"}))

    assert frame["code"] == "not_your_turn"
    assert frame["message"] == "Du bist nicht dran."
    await communicator.disconnect()
