"""Each socket's news frame is assembled from parts encoded once (tables.live.news_frames).

Rules pinned: the text a socket is sent is exactly the JSON (``tables.messages.json_text``) of
the reply it was sent before, built whole (the events as its viewer may see them, the screen with its own view only),
byte for byte, for every seat, every watcher and a stranger, over random hands of every
game; parts kept for one viewer never reach another (whichever asks first); a socket
that already had some of the events gets only the rest; a screen not exact at the news'
last event is left out.
"""

from __future__ import annotations

import asyncio
import gc
import json
import random
from typing import Any

import pytest

from engine.games import GAME_NAMES
from tables import selectors
from tables.live import news_frames as news_frames_module
from tables.live.news_frames import news_text, text_with
from tables.messages import json_text
from tables.services import hand_act
from tests.tables.conftest import current_turn, news_captured, open_table, random_action, repeatable_decks


@pytest.fixture(autouse=True)
def _repeatable_decks(monkeypatch):
    repeatable_decks(monkeypatch, random.Random(2713))


def reply_before(message: dict[str, Any], after: int, viewer: str | None) -> dict[str, Any]:
    """The reply a socket built before (each its own dictionaries, its own view chosen)."""
    frames = message["events"]
    reply: dict[str, Any] = {
        "type": "events",
        "events": [selectors.frame_for_viewer(frame, viewer) for frame in frames if frame["seq"] > after],
    }
    screen = message.get("screen")
    if screen is not None and screen["seq"] == frames[-1]["seq"]:
        out = {key: value for key, value in screen.items() if key != "hand"}
        if "hand" in screen:
            hand = screen["hand"]
            if hand is None:
                out["hand"] = None
            else:
                views = hand["views"]
                view = views[viewer] if viewer is not None and viewer in views else hand["public"]
                out["hand"] = {
                    "number": hand["number"],
                    "dealer": hand["dealer"],
                    "finished": hand["finished"],
                    "view": json.loads(view),
                    "turn": hand["turn"],
                }
        reply["screen"] = out
    return reply


def _news_of_random_hands(monkeypatch, django_capture_on_commit_callbacks, game: str, actions: int):
    """(every message the writers broadcast, the seat ids) over random play at one table."""
    sent = news_captured(monkeypatch)
    rng = random.Random(game)
    with django_capture_on_commit_callbacks(execute=True):
        table, seats = open_table(game, 3)
    for _ in range(actions):
        player, legal = current_turn(table)
        if player is None:
            break
        seat = next(seat for seat in seats if seat.engine_name == player)
        verb, amount = random_action(rng, legal)
        with django_capture_on_commit_callbacks(execute=True):
            hand_act(table_id=table.pk, seat_id=seat.pk, verb=verb, amount=amount)
    return sent, [str(seat.pk) for seat in seats]


@pytest.mark.django_db
@pytest.mark.parametrize("game", GAME_NAMES)
def test_every_viewer_gets_byte_for_byte_the_json_of_the_reply_it_got_before(
    monkeypatch, django_capture_on_commit_callbacks, game
):
    sent, seats = _news_of_random_hands(monkeypatch, django_capture_on_commit_callbacks, game, actions=40)
    viewers: list[str | None] = [*seats, None, "999999"]  # the players, a watcher, someone never dealt in
    rng = random.Random(7)
    hidden = with_hand = 0
    for message in sent:
        frames = message["events"]
        hidden += any(frame.get("visible_to") is not None for frame in frames)
        with_hand += bool((message.get("screen") or {}).get("hand"))
        # Each viewer in a different order each time: what one was sent is never kept for another.
        for viewer in rng.sample(viewers, len(viewers)):
            for after in {0, frames[0]["seq"] - 1, frames[-1]["seq"] - 1}:
                assert news_text(message, after=after, viewer=viewer) == json_text(
                    reply_before(message, after, viewer)
                ), (viewer, after)
    assert hidden and with_hand  # the play dealt private cards and pushed hands


def _message(visible_to: list[str] | None, screen_seq: int = 2) -> dict[str, Any]:
    return {
        "type": "table.events",
        "events": [
            {"seq": 1, "kind": "turn", "data": {"player": "1"}, "hand": 1},
            {"seq": 2, "kind": "dealt", "data": {"cards": ["As", "Kd"]}, "hand": 1, "visible_to": visible_to},
        ],
        "screen": {
            "seq": screen_seq,
            "hand": {
                "number": 1,
                "dealer": 1,
                "finished": False,
                "turn": None,
                "views": {"1": json_text({"mine": ["As", "Kd"]}), "2": json_text({"mine": ["2c", "3c"]})},
                "public": json_text({"mine": None}),
            },
        },
    }


def test_a_private_event_and_a_player_s_view_reach_that_player_only():
    message = _message(["1"])
    for viewer in ["2", None, "1", "3"]:
        frame = json.loads(news_text(message, after=0, viewer=viewer))
        assert ("kind" in frame["events"][1]) is (viewer == "1"), viewer
        assert frame["events"][1]["seq"] == 2
        mine = frame["screen"]["hand"]["view"]["mine"]
        assert mine == {"1": ["As", "Kd"], "2": ["2c", "3c"]}.get(viewer), viewer


def test_events_already_had_are_left_out_and_a_screen_not_at_the_last_event_too():
    message = _message(None, screen_seq=1)
    frame = json.loads(news_text(message, after=1, viewer="1"))
    assert [event["seq"] for event in frame["events"]] == [2]
    assert "screen" not in frame


def test_a_message_gone_from_the_cache_is_encoded_again(monkeypatch):
    monkeypatch.setattr(news_frames_module, "KEPT", 2)
    for round_ in range(20):
        message = _message(["1"] if round_ % 2 else None)
        expected = json_text(reply_before(message, 0, "2"))
        assert news_text(message, after=0, viewer="2") == expected
        del message
        gc.collect()  # a new message may take the id of one gone


def test_a_frame_gets_one_more_key_last():
    text = news_text(_message(None), after=0, viewer="1")
    reply = json.loads(text)
    reply["phone"] = {"seats": [1, 2], "holding": None, "pass_to": 1}
    assert text_with(text, "phone", reply["phone"]) == json_text(reply)


def test_what_every_viewer_shares_is_encoded_once_per_message(monkeypatch):
    """The table, seats, the hand's number, dealer and turn: one encoding for every socket;
    only what differs (the events a viewer may see, each viewer's own view) is per viewer."""
    encoded: list[Any] = []

    def counting(value: Any) -> str:
        encoded.append(value)
        return json_text(value)

    monkeypatch.setattr(news_frames_module, "json_text", counting)
    message = _message(None)
    message["screen"]["table"] = {"status": "playing", "name": "Friday"}
    message["screen"]["seats"] = [{"id": 1, "stack": 100}, {"id": 2, "stack": 90}]
    message["screen"]["hand"]["turn"] = {"player": "1", "legal": [{"verb": "chaal"}]}
    for viewer in ["1", "2", None, "3"]:
        assert news_text(message, after=0, viewer=viewer) == json_text(reply_before(message, 0, viewer))
    screen = message["screen"]
    assert sum(value.get("seats") == screen["seats"] for value in encoded if isinstance(value, dict)) == 1
    assert encoded.count(screen["hand"]["turn"]) == 1
    assert len(encoded) == 4  # the events (hiding nothing), the rest of the screen, the hand's head, its turn


def test_the_socket_s_other_frames_are_written_by_the_same_encoder():
    """Acks, pongs, snapshots and refusals (Channels' ``send_json``) are the news' compact
    JSON too, with every language's text as it is."""
    from tables.live.consumers import TableConsumer

    frame = {"type": "error", "code": "paused", "message": "खेल रोकिएको छ।", "id": 7}
    text = asyncio.run(TableConsumer.encode_json(frame))
    assert text == '{"type":"error","code":"paused","message":"खेल रोकिएको छ।","id":7}'
    assert json.loads(text) == frame
