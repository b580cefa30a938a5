"""Pass and play: a ``resync`` from the phone never lets the hold outlive the holder's turn.

The page asks for the log in words (``resync``) after every snapshot, a tap's too. The
answer reads the log as it is, which may be ahead of the news still on its way (the news
of the holder's own move, say); news that the answer already covered is then old news,
and the consumer drops it, with it the word that the turn has left the holder.
"""

from __future__ import annotations

from typing import Any

import pytest
from channels.db import database_sync_to_async

from tests.tables.test_pass_and_play_sockets import (  # noqa: F401 (fixtures)
    _computers_at_once,
    _hold,
    _phone_and_stranger,
    _phone_of,
    _repeatable_decks,
    _until_a_phone_seat_is_to_act,
)
from tests.tables.ws import connect, sync_all, users_of

pytestmark = pytest.mark.django_db(transaction=True)


def _act_news_late(table_id: int, seat_id: int, verb: str) -> list[tuple[Any, ...]]:
    """The holder's move is made; its news is kept back (returned, to be sent later)."""
    import tables.services.log as log_module
    from tables.services import hand_act

    kept: list[tuple[Any, ...]] = []
    real = log_module.broadcast
    log_module.broadcast = lambda *args: kept.append(args)
    try:
        hand_act(table_id=table_id, seat_id=seat_id, verb=verb)
    finally:
        log_module.broadcast = real
    return kept


def _send_late(kept: list[tuple[Any, ...]]) -> None:
    import tables.services.log as log_module

    for args in kept:
        log_module.broadcast(*args)


async def test_a_resync_ahead_of_the_news_does_not_keep_the_holders_eyes():
    table, _seats, local, phone, stranger = await _phone_and_stranger()
    player = await _until_a_phone_seat_is_to_act(table, phone, stranger, local["computer"].pk)
    await _hold(phone, player)
    verbs = [entry["verb"] for entry in phone.turn["legal"]]
    verb = next(v for v in ("check", "call") if v in verbs)
    kept = await database_sync_to_async(_act_news_late)(table.pk, player, verb)
    # The page asks for the log (as it does after each snapshot) before the news comes.
    await phone.send({"type": "resync", "after": phone.last_seq, "id": "hand-log"})
    frames = []
    while True:
        frame = await phone.communicator.receive_json_from(timeout=10)
        frames.append(frame)
        if frame.get("id") == "hand-log":
            break
    await database_sync_to_async(_send_late)(kept)  # the news of the move, late
    told = [frame["phone"] for frame in frames if "phone" in frame]
    assert told and told[-1]["holding"] is None, told  # the turn left the holder: nobody holds
    for frame in frames:
        view = (frame.get("screen") or frame).get("hand", {}) or {}
        players = (view.get("view") or {}).get("players", [])
        assert all(not p.get("cards") for p in players), frame
    # The phone moves nobody: nobody holds it.
    reply = await phone.request({"type": "action", "verb": "fold"})
    assert (reply["type"], reply["code"]) == ("error", "not_holding"), reply
    await phone.close()
    await stranger.close()


async def test_news_whose_screen_could_not_be_built_still_ends_the_hold(monkeypatch):
    """The writer could not build the hand's screens (the news goes out without them): the
    turn event in the news itself says the turn left the holder, and the hold ends."""
    import tables.services.log as log_module

    table, _seats, local, phone, stranger = await _phone_and_stranger()
    player = await _until_a_phone_seat_is_to_act(table, phone, stranger, local["computer"].pk)
    await _hold(phone, player)

    def broken(*args: Any, **kwargs: Any) -> None:
        raise RuntimeError("the screens could not be built")

    monkeypatch.setattr(log_module, "news_screen_add_hand", broken)
    count = len(phone.frames)
    verbs = [entry["verb"] for entry in phone.turn["legal"]]
    verb = next(v for v in ("check", "call") if v in verbs)
    reply = await phone.request({"type": "action", "verb": verb})
    assert reply["type"] == "ack", reply
    await sync_all(table.pk, [phone])
    after = [frame for frame in phone.frames[count:] if "phone" in frame]
    assert after and after[-1]["phone"]["holding"] is None, [frame["phone"] for frame in after]
    for frame in phone.frames[count:]:
        for event in frame.get("events", []):
            assert event.get("kind") != "hole_cards", event
    await phone.close()
    await stranger.close()


async def test_nobody_holds_the_phone_past_the_end_of_a_hand():
    """Between hands nobody holds, even when the next hand is dealt in the same write as the
    end of the last (tests deal at once) and the holder is the first to act in it: the
    holder's own new cards show only after a new tap."""
    from tests.tables.test_pass_and_play_sockets import _computer_moves, _pass_and_play_table

    table, seats, local = await database_sync_to_async(_pass_and_play_table)("faras", remote=False)
    (host_user,) = await users_of(seats[:1])
    connected, phone, _code = await connect(table.code, user=host_user)
    assert connected
    ended = 0
    for _ in range(300):
        await sync_all(table.pk, [phone])
        turn = phone.turn
        if turn is None or ended >= 8:
            break
        player = int(turn["player"])
        if player == local["computer"].pk:
            await database_sync_to_async(_computer_moves)(table.pk)
            continue
        if _phone_of(phone)["holding"] != player:
            await _hold(phone, player)
        verbs = [entry["verb"] for entry in phone.turn["legal"]]
        reply = await phone.request({"type": "action", "verb": "pack" if "pack" in verbs else verbs[0]})
        assert reply["type"] == "ack", reply
        await sync_all(table.pk, [phone])
        for frame in phone.frames:
            if any(event.get("kind") == "hand_ended" for event in frame.get("events", [])):
                assert frame["phone"]["holding"] is None, (frame["phone"], frame["events"][-3:])
        ended = sum(
            1 for frame in phone.frames for event in frame.get("events", []) if event.get("kind") == "hand_ended"
        )
    assert ended >= 3
    await phone.close()
