"""A socket's eyes (tables.live.viewer.Viewer), without sockets: the pass-and-play rules the
consumer follows, each as a plain call. The same rules through real sockets are in
test_pass_and_play_sockets.py and the browser's test_pass_and_play.py."""

import pytest

from tables.live.viewer import Viewer, turn_leaves, turn_player
from tables.services import ServiceError

HOST, DIPA, ESHA = 10, 11, 12


def seats(*local: int) -> list[dict]:
    return [{"id": HOST, "local": False}, *({"id": seat, "local": True} for seat in local)]


def hand(turn: int | None, *, finished: bool = False) -> dict:
    return {"finished": finished, "turn": {"player": str(turn)} if turn is not None else None}


def test_a_player_sees_with_their_own_seat_and_never_passes():
    viewer = Viewer(seat_id=DIPA, is_host=False, phone=None)
    assert (viewer.seat, viewer.name, viewer.passing) == (DIPA, str(DIPA), False)
    assert viewer.acting_seat() == DIPA
    assert viewer.heard_read({"seats": seats(ESHA), "hand": hand(ESHA)}) is False
    assert viewer.heard_news([{"kind": "turn", "data": {"player": str(ESHA)}}], None) is False
    assert viewer.with_phone({"type": "snapshot"}) == {"type": "snapshot"}


def test_the_host_phone_sees_nothing_between_holders_and_cannot_act():
    viewer = Viewer(seat_id=HOST, is_host=True, phone=[HOST, DIPA])
    assert viewer.seat is None and viewer.name is None
    with pytest.raises(ServiceError) as refused:
        viewer.acting_seat()
    assert refused.value.code == "not_holding"


def test_the_holder_sees_with_their_eyes_until_the_turn_leaves_them():
    viewer = Viewer(seat_id=HOST, is_host=True, phone=[HOST, DIPA])
    viewer.hold(seat_id=DIPA, phone=[HOST, DIPA])
    assert (viewer.seat, viewer.acting_seat()) == (DIPA, DIPA)
    assert viewer.heard_turn(hand(DIPA)) is False and viewer.seat == DIPA
    assert viewer.heard_turn(hand(ESHA)) is True
    assert viewer.seat is None and viewer.holding is None


def test_news_that_passes_the_turn_hides_the_holder_even_without_a_screen():
    viewer = Viewer(seat_id=HOST, is_host=True, phone=[HOST, DIPA])
    viewer.hold(seat_id=DIPA, phone=[HOST, DIPA])
    no_hand = {"seq": 5, "seats": seats(DIPA)}  # the writer could not build the hand
    assert viewer.heard_news([{"kind": "bet", "data": {}}], no_hand) is False
    assert viewer.seat == DIPA
    assert viewer.heard_news([{"kind": "turn", "data": {"player": str(ESHA)}}], no_hand) is True
    assert viewer.seat is None
    viewer.hold(seat_id=DIPA, phone=[HOST, DIPA])
    assert viewer.heard_news([{"kind": "turn", "data": {"player": str(DIPA)}}], None) is True  # unknown: hide
    viewer.hold(seat_id=DIPA, phone=[HOST, DIPA])
    screen = {"seq": 6, "seats": seats(DIPA), "hand": hand(DIPA)}
    assert viewer.heard_news([{"kind": "turn", "data": {"player": str(DIPA)}}], screen) is False
    assert viewer.seat == DIPA


def test_the_phone_starts_and_stops_passing_with_its_local_seats():
    viewer = Viewer(seat_id=HOST, is_host=True, phone=None)
    assert viewer.seat == HOST
    assert viewer.heard_seats(seats(DIPA)) is True  # a local player added: nobody holds it yet
    assert (viewer.phone, viewer.seat) == ([HOST, DIPA], None)
    viewer.hold(seat_id=DIPA, phone=[HOST, DIPA])
    assert viewer.heard_seats(seats(DIPA, ESHA)) is False  # still Dipa's eyes
    assert viewer.heard_seats(seats(ESHA)) is True  # Dipa left the phone: she lets go
    assert viewer.holding is None
    assert viewer.heard_seats(seats()) is True  # all gone: the host sees with their own eyes again
    assert (viewer.phone, viewer.seat) == (None, HOST)


def test_the_phone_says_whom_to_pass_to_only_while_nobody_holds_it():
    viewer = Viewer(seat_id=HOST, is_host=True, phone=[HOST, DIPA])
    viewer.heard_turn(hand(DIPA))
    assert viewer.phone_public() == {"seats": [HOST, DIPA], "holding": None, "pass_to": DIPA}
    viewer.heard_turn(hand(99))  # a player of another phone
    assert viewer.phone_public() == {"seats": [HOST, DIPA], "holding": None, "pass_to": None}
    viewer.heard_turn(hand(DIPA))
    viewer.hold(seat_id=DIPA, phone=[HOST, DIPA])
    assert viewer.with_phone({"type": "ack"}) == {
        "type": "ack",
        "phone": {"seats": [HOST, DIPA], "holding": DIPA, "pass_to": None},
    }


def test_turns_as_screens_and_news_carry_them():
    assert turn_player(None) is None
    assert turn_player(hand(DIPA, finished=True)) is None
    assert turn_player({"turn": {"player": ""}}) is None
    assert turn_player(hand(DIPA)) == str(DIPA)
    assert turn_leaves([{"kind": "hand_ended"}], str(DIPA)) is True
    assert turn_leaves([{"kind": "turn", "data": {"player": str(DIPA)}}], str(DIPA)) is False
    assert turn_leaves([{"kind": "bet"}, {"kind": "turn", "data": {"player": str(ESHA)}}], str(DIPA)) is True
