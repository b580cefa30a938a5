"""A page's frame read once (tables.live.protocol.parse), without a socket.

Rules pinned: each verb becomes its own command with its fields typed; a malformed frame is
a FrameError with the code the page has always been sent, the request's id when it had a
valid one, and what it costs of the sender's limits (a command or a read) once its type is
known; the error frame a refusal is sent as has exactly the keys ``ErrorFrame`` declares.
"""

from __future__ import annotations

import json

import pytest

from tables.live import protocol
from tables.live.protocol import FrameError, error_frame, parse
from tables.messages import ErrorFrame


def _text(**frame: object) -> str:
    return json.dumps(frame)


@pytest.mark.parametrize(
    "frame, command",
    [
        ({"type": "action", "verb": "raise", "amount": 40, "id": "a1"}, protocol.Act("a1", "raise", 40)),
        ({"type": "action", "verb": "fold", "id": 7}, protocol.Act(7, "fold", None)),
        ({"type": "see"}, protocol.See(None)),
        ({"type": "hold", "seat": 12, "id": "h"}, protocol.Hold("h", 12)),
        ({"type": "hold", "seat": None}, protocol.Hold(None, None)),
        ({"type": "resync", "after": 0}, protocol.Resync(None, 0)),
        ({"type": "snapshot"}, protocol.SnapshotAsk(None)),
        ({"type": "ping", "id": "p"}, protocol.Ping("p")),
        ({"type": "beat"}, protocol.Beat(None)),
        ({"type": "visibility", "visible": False}, protocol.Visibility(None, False)),
        ({"type": "seed", "seed": "abc"}, protocol.SeedSubmit(None, "abc")),
        ({"type": "seat", "verb": "take", "number": 3}, protocol.SeatTake(None, None, 3)),
        ({"type": "seat", "verb": "take"}, protocol.SeatTake(None, None, None)),
        ({"type": "seat", "verb": "leave", "seat": 5}, protocol.SeatLeave(None, 5)),
        ({"type": "seat", "verb": "sit_out"}, protocol.SeatSitOut(None, None)),
        ({"type": "seat", "verb": "come_back"}, protocol.SeatComeBack(None, None)),
        ({"type": "seat", "verb": "buy_back"}, protocol.SeatBuyBack(None, None)),
        ({"type": "seat", "verb": "ask", "what": "seat", "number": 2}, protocol.SeatAsk(None, None, "seat", 2)),
        ({"type": "seat", "verb": "cancel"}, protocol.RequestCancel(None, None)),
        ({"type": "seat", "verb": "call_variant", "variant": "muflis"}, protocol.VariantCall(None, None, "muflis")),
        ({"type": "host", "verb": "start"}, protocol.TableStart(None)),
        ({"type": "host", "verb": "pause"}, protocol.TablePause(None)),
        ({"type": "host", "verb": "resume"}, protocol.TableResume(None)),
        ({"type": "host", "verb": "end"}, protocol.TableEnd(None)),
        ({"type": "host", "verb": "settings", "settings": {"seats": 6}}, protocol.SettingsChange(None, {"seats": 6})),
        ({"type": "host", "verb": "remove", "seat": 9}, protocol.SeatRemove(None, 9, False)),
        ({"type": "host", "verb": "remove", "seat": 9, "ban": True}, protocol.SeatRemove(None, 9, True)),
        ({"type": "host", "verb": "act_for", "seat": 4}, protocol.ActFor(None, 4)),
        ({"type": "host", "verb": "act_for", "seat": 4, "move": "call"}, protocol.ActFor(None, 4, "call")),
        (
            {"type": "host", "verb": "act_for", "seat": 4, "move": "raise", "amount": 40},
            protocol.ActFor(None, 4, "raise", 40),
        ),
        ({"type": "host", "verb": "act_for", "seat": 4, "move": "away"}, protocol.ActFor(None, 4, "away")),
        ({"type": "host", "verb": "approve", "request": 30}, protocol.RequestApprove(None, 30)),
        ({"type": "host", "verb": "deny", "request": 31}, protocol.RequestDeny(None, 31)),
    ],
)
def test_each_verb_is_read_into_its_command(frame, command):
    assert parse(json.dumps(frame)) == command


@pytest.mark.parametrize(
    "text, code, request_id, limit",
    [
        ("{", "bad_json", None, None),
        ("[" * 100_000, "bad_json", None, None),
        ("[1]", "bad_message", None, None),
        (_text(verb="fold"), "bad_message", None, None),
        (_text(type="ping", id=True), "bad_id", None, None),
        (_text(type="ping", id="x" * 41), "bad_id", None, None),
        (_text(type="ping", id=[1]), "bad_id", None, None),
        (_text(type="nothing", id="n"), "bad_type", "n", None),
        (_text(type="action", verb="fold"), "bad_id", None, "command"),
        (_text(type="action", verb=5, id="a"), "bad_verb", "a", "command"),
        (_text(type="action", verb="bet", amount="10", id="a"), "bad_amount", "a", "command"),
        (_text(type="action", verb="bet", amount=True, id="a"), "bad_amount", "a", "command"),
        (_text(type="resync", after=-1), "bad_after", None, "read"),
        (_text(type="resync", after=False, id=3), "bad_after", 3, "read"),
        (_text(type="visibility", visible="yes"), "bad_visibility", None, None),
        (_text(type="seed", seed=12), "bad_seed", None, "command"),
        (_text(type="seat", verb="dance"), "bad_verb", None, "command"),
        (_text(type="seat", verb="take", number="1"), "bad_seat", None, "command"),
        (_text(type="host", verb="dance"), "bad_verb", None, "command"),
        (_text(type="host", verb="settings", settings=[1]), "invalid_settings", None, "command"),
        (_text(type="host", verb="remove", seat=2, ban="no"), "bad_message", None, "command"),
        (_text(type="host", verb="remove", seat="2"), "no_seat", None, "command"),
        (_text(type="host", verb="act_for", seat=True), "no_seat", None, "command"),
        (_text(type="host", verb="act_for", seat=4, move=["call"]), "bad_move", None, "command"),
        (_text(type="host", verb="act_for", seat=4, move=7), "bad_move", None, "command"),
        (_text(type="host", verb="act_for", seat=4, move="raise", amount="40"), "bad_amount", None, "command"),
        (_text(type="host", verb="act_for", seat=4, move="raise", amount=4.5), "bad_amount", None, "command"),
        (_text(type="host", verb="act_for", seat=4, move="raise", amount=False), "bad_amount", None, "command"),
    ],
)
def test_a_malformed_frame_is_a_typed_error(text, code, request_id, limit):
    with pytest.raises(FrameError) as refused:
        parse(text)
    assert (refused.value.code, refused.value.request_id, refused.value.limit) == (code, request_id, limit)
    assert str(refused.value.message)


def test_an_error_frame_has_the_keys_its_type_declares():
    declared = set(ErrorFrame.__annotations__)
    assert set(error_frame("bad_type", "Unknown message type.", "r1")) <= declared
    assert error_frame("bad_type", "Unknown message type.", "r1")["id"] == "r1"
    assert "id" not in error_frame("bad_json", "That message is not JSON.")
