""" "This is me": a guest on a new browser asks the host for her own seat (issue 38, point 1).

Rules pinned (``tables.services.claims``), each as the person who would misuse it: a
stranger with the invite link typing a guest's name to read her cards.

- The claim is a request to the host naming the seat (``request_made``, ``what: "claim"``,
  ``claim``: the seat); the asker's key (``who``) never travels. Nothing moves until the host
  approves; then the asking browser takes the seat at once, the old browser's pages closed by
  ``seat_moved``. Approved during a hand she is dealt into, even during her turn (the second
  group's trial), that hand is played out for her: nothing waits for the lost browser (her
  turn now is the away rule's least move, ``by: "claim"``, and so is each later one), she is
  not sat out, and no hidden card of that hand ever reaches the new browser (hers neither:
  anyone with the invite link, the host too, could be asking); she plays from the next hand
  there. The old browser's writes are refused, and the new one's in that hand. A seat link
  opened during that hand first keeps its place (it moves the seat at the hand's end, issue 34).
- Only a guest's seat, never an account's, a computer's or a banned one.
- One claim waiting per seat and per browser; a denied claim cannot be repeated at once (by
  that browser, or by a fresh one for the same seat); at most five asks in ten minutes.
- A seat that moved to another browser since the claim (its owner used her seat link) is
  not given away by a stale approval; a ban after the approval stops the move.
"""

from __future__ import annotations

import json
import random
import re

import pytest
from channels.db import database_sync_to_async
from django.test import Client
from django.urls import reverse

from engine.games import get_game
from tables import selectors, what_viewers_see
from tables.events import event_frame
from tables.guests import GUEST_TOKEN_SESSION_KEY
from tables.live.consumers import TableConsumer
from tables.models import Event, Hand, PushSubscription, Seat, Table
from tables.services import (
    SeatHolder,
    ServiceError,
    guest_token_new,
    hand_act,
    hand_see,
    local_player_add,
    request_approve,
    request_cancel,
    request_deny,
    seat_ask,
    seat_claim_ask,
    seat_claim_state,
    seat_claim_take,
    seat_claim_withdraw,
    seat_come_back,
    seat_link_key,
    seat_link_use,
    seat_remove,
    seat_sit_out,
    seat_take,
    table_join,
    table_start,
    table_update_settings,
    writes_for,
)
from tables.services import log as log_module
from tables.services.claims import ClaimTaken
from tables.services.computers import computer_add
from tables.services.seat_state import players_of
from tests.tables.conftest import current_turn, make_user, open_table
from tests.tables.leaks import (
    PUBLIC_REVEALS,
    _cards_in,
    card_owners,
    cards_revealed,
    leaks_in_events,
    leaks_in_snapshot,
)
from tests.tables.test_seat_link_once import _deal_next, _play_out_the_hand
from tests.tables.ws import TIMEOUT, connect, sync_all

pytestmark = pytest.mark.django_db


def _table_with_gita(
    game: str = "faras", *, choices: dict | None = None, start: bool = False
) -> tuple[Table, Seat, Seat, str]:
    """A table of ``game`` (Faras unless said): the host, a player with an account, and
    Gita, a guest, all seated."""
    free = {"buy_in_price": "0.00"} if game != "holdem" else {}
    table, seats = open_table(game, 2, {**free, **(choices or {})}, start=False)
    token = guest_token_new()
    gita = table_join(code=table.code, invite_token=table.invite_token, guest_name="Gita", guest_token=token)
    seat_take(table_id=table.pk, seat_id=gita.pk)
    if start:
        table_start(table_id=table.pk, seat_id=seats[0].pk)
    table.refresh_from_db()
    gita.refresh_from_db()
    return table, seats[0], gita, token


def _claim(table: Table, name: str = "Gita", token: str | None = None) -> tuple[int, str]:
    token = token or guest_token_new()
    asked = seat_claim_ask(code=table.code, invite_token=table.invite_token, guest_name=name, guest_token=token)
    return asked, token


def _refused(expected: str, call, *args, **kwargs) -> None:
    with pytest.raises(ServiceError) as caught:
        call(*args, **kwargs)
    assert caught.value.code == expected


def _log(table: Table) -> list[tuple[int, str]]:
    return list(Event.objects.filter(table=table).order_by("seq").values_list("seq", "kind"))


def test_a_claim_waits_for_the_host_then_moves_the_seat_with_its_chips():
    table, host, gita, old_token = _table_with_gita()
    stack = gita.stack
    asked, token = _claim(table, "  gita ")  # as names are compared: case and spaces
    made = Event.objects.get(table=table, seq=asked)
    assert made.payload["what"] == "claim" and made.payload["claim"] == gita.pk and made.payload["seat"] is None
    assert made.payload["name"] == "Gita" and made.payload["who"] and token not in str(made.payload)
    assert "who" not in event_frame(made)["data"]
    pending = selectors.requests_pending(table=table)
    assert [(r["what"], r.get("claim"), r["name"]) for r in pending] == [("claim", gita.pk, "Gita")]
    assert "who" not in pending[0]
    assert seat_claim_state(table=table, guest_token=token) == ("waiting", "Gita")
    # Nothing moves before the host's yes.
    _refused("no_claim", seat_claim_take, table_id=table.pk, guest_token=token)
    gita.refresh_from_db()
    assert gita.guest_token == old_token

    request_approve(table_id=table.pk, seat_id=host.pk, request=asked)
    assert seat_claim_state(table=table, guest_token=token) == ("approved", "Gita")
    taken = seat_claim_take(table_id=table.pk, guest_token=token)
    gita.refresh_from_db()
    assert taken.seat.pk == gita.pk and not taken.hand_played_out
    assert gita.guest_token == token and gita.stack == stack and gita.number is not None
    assert selectors.seat_gone(seat_id=gita.pk, guest_token=old_token) == "seat_moved"  # the old pages close
    assert _log(table)[-1][1] == "seat_moved"
    # Still one Gita: no second seat, no second buy-in.
    assert Seat.objects.filter(table=table, display_name__iexact="gita").count() == 1
    assert gita.buy_ins == 1
    # Taking again changes nothing; the used seat link no longer works.
    before = _log(table)
    assert seat_claim_take(table_id=table.pk, guest_token=token).seat.pk == gita.pk
    assert _log(table) == before


def _to_her_turn(table: Table, gita: Seat) -> None:
    """The others play calmly (no pack, no show) until it is Gita's turn in the live hand."""
    for _step in range(40):
        player, legal = current_turn(table)
        assert player is not None, "the hand ended before her turn"
        if player == str(gita.pk):
            return
        move = next(entry for entry in legal if entry.verb in ("chaal", "call", "check"))
        hand_act(table_id=table.pk, seat_id=int(player), verb=move.verb, amount=move.min)
    raise AssertionError("her turn never came")


def _hers(table: Table, number: int, gita: Seat) -> set[str]:
    return {card for card, owner in card_owners(table)[number].items() if owner == str(gita.pk)}


def _cards_of_hand(frames: list[dict], number: int) -> set[str]:
    """Every card in ``frames`` that belongs to hand ``number``: in its events, in a
    snapshot's or a pushed screen's view of it. ``frames`` as a socket receives them
    (snapshots, ``events`` frames) or as ``selectors.events_after`` gives them."""
    found: set[str] = set()
    for frame in frames:
        if "type" not in frame:  # one event, as events_after gives it
            events, hands = [frame], []
        else:
            events = frame.get("events") or []
            hands = [frame.get("hand"), (frame.get("screen") or {}).get("hand")]
        for event in events:
            if event.get("hand") == number:
                found.update(_cards_in(event.get("data")))
        for hand in hands:
            if isinstance(hand, dict) and hand.get("number") == number:
                found.update(_cards_in(hand))
    return found


def _hidden_among(table: Table, number: int, cards: set[str]) -> set[str]:
    """The hidden cards of hand ``number`` (anyone's, hers too) among ``cards``, other than
    those the rules turned up for everyone (a show, a showdown)."""
    shown = {
        card
        for _seq, hand, kind, payload in cards_revealed(table)
        if hand == number and kind in PUBLIC_REVEALS
        for card in _cards_in(payload)
    }
    return (cards & set(card_owners(table)[number])) - shown


def _hidden_cards_reaching(table: Table, frames: list[dict], number: int) -> set[str]:
    """The hidden cards of hand ``number`` found in ``frames`` (:func:`_hidden_among`)."""
    return _hidden_among(table, number, _cards_of_hand(frames, number))


def _deal_next_hand(table: Table, number: int) -> Hand:
    """The hand after ``number`` - 1, dealt now if the table waits for its clock."""
    live = selectors.hand_live(table=table)
    if live is None or live.number != number:
        _deal_next(table)
        live = selectors.hand_live(table=table)
    assert live is not None and live.number == number
    return live


def _claim_taken(table: Table, host: Seat, token: str | None = None) -> tuple[str, ClaimTaken]:
    """A new browser's claim of Gita's seat, approved by the host and taken."""
    asked, token = _claim(table, token=token)
    request_approve(table_id=table.pk, seat_id=host.pk, request=asked)
    return token, seat_claim_take(table_id=table.pk, guest_token=token)


@pytest.mark.parametrize("game", ["faras", "holdem"])
def test_approved_during_her_turn_the_away_rule_plays_it_at_once_and_she_plays_on_from_the_next_hand(game):
    """The second group's trial: the host says yes while Gita is to act. Her seat moves at
    once, and that hand is played out for her: her turn now is the away rule's least move
    (``by: "claim"``), so the next player is to act and nothing waits for the lost browser;
    she is not sat out. The new browser gets no hidden card of that hand (hers neither), may
    not act in it, and is dealt the next hand with her cards; the old browser's writes are
    refused."""
    table, host, gita, old_token = _table_with_gita(game, start=True)
    _play_out_the_hand(table, gita, random.Random(38))  # a first hand, on the old phone only
    _deal_next_hand(table, 2)
    if game == "faras":
        hand_see(table_id=table.pk, seat_id=gita.pk)  # she had looked at her cards on the old phone
    _to_her_turn(table, gita)
    verbs = {entry.verb for entry in current_turn(table)[1]}
    least = next(verb for verb in ("check", "pack", "fold") if verb in verbs)
    # The old phone had asked for turn reminders by Web Push.
    PushSubscription.objects.create(seat=gita, endpoint="https://push.example/old-phone", p256dh="k", auth="a")
    seq = table.last_seq
    asked, token = _claim(table)
    request_approve(table_id=table.pk, seat_id=host.pk, request=asked)
    before = _log(table)
    taken = seat_claim_take(table_id=table.pk, guest_token=token)
    gita.refresh_from_db()
    assert taken.seat.pk == gita.pk and taken.hand_played_out
    assert gita.guest_token == token and gita.link_claim == "" and gita.link_moves == 1  # now
    assert gita.link_moved_hand == 2  # the hand in play is a watcher's to the new browser
    assert selectors.seat_gone(seat_id=gita.pk, guest_token=old_token) == "seat_moved"
    assert not PushSubscription.objects.filter(seat=gita).exists()  # no more reminders to the old phone
    # Her turn was played at once by the away rule, the log saying why; she is not sat out.
    written = list(Event.objects.filter(table=table, seq__gt=before[-1][0]).order_by("seq"))
    assert written[0].kind == "seat_moved"
    assert "seat_sat_out" not in [event.kind for event in written]
    action = next(event for event in written if event.kind == "action" and event.actor_id == gita.pk)
    assert action.payload["by"] == "claim" and action.payload["verb"] == least
    assert gita.status == Seat.Status.PLAYING
    # Nothing waits for her: another player is to act.
    player, _legal = current_turn(table)
    live = selectors.hand_live(table=table)
    assert live is not None and live.number == 2 and player is not None and player != str(gita.pk)
    assert str(gita.pk) in live.plan["away"]

    # The new browser's first read, and a resync from the start: no hidden card of the hand
    # in play or of the one before, hers included.
    snapshot = what_viewers_see.table_snapshot(table_id=table.pk, seat_id=gita.pk)
    assert snapshot["you"] == gita.pk and snapshot["hand"]["number"] == 2
    frames = selectors.events_after(table_id=table.pk, after=0, viewer=str(gita.pk))
    for number in (1, 2):
        assert _hidden_cards_reaching(table, [snapshot, *frames], number) == set()
    assert _hers(table, 2, gita) & set(_cards_in(snapshot)) == set()

    # Neither browser may act in that hand: refused, nothing written.
    before = _log(table)
    verb = "see" if game == "faras" else least
    with writes_for(SeatHolder(gita.pk, token)):
        _refused("moved_in_hand", hand_act, table_id=table.pk, seat_id=gita.pk, verb=verb)
    with writes_for(SeatHolder(gita.pk, old_token)):
        _refused("seat_moved", hand_act, table_id=table.pk, seat_id=gita.pk, verb=verb)
    assert _log(table) == before

    # The others play the hand out; she is dealt the next one on the new browser, her cards
    # hers to see there, with no "Come back" to press.
    _play_out_the_hand(table, gita, random.Random(39))
    # No chip made or lost, and the hand replays from its log to the result it had.
    second = Hand.objects.get(table=table, number=2)
    replayed, _seq = selectors.hand_state_from_log(table=table, hand=second)
    assert get_game(game).result(replayed).stacks == second.result["stacks"]
    assert sum(second.result["stacks"].values()) == sum(stack for _name, stack in second.plan["players"])
    third = _deal_next_hand(table, 3)
    gita.refresh_from_db()
    assert gita.status == Seat.Status.PLAYING and str(gita.pk) in players_of(third)
    if game == "faras":
        with writes_for(SeatHolder(gita.pk, token)):
            hand_see(table_id=table.pk, seat_id=gita.pk)
    snapshot = what_viewers_see.table_snapshot(table_id=table.pk, seat_id=gita.pk)
    assert snapshot["hand"]["number"] == 3 and _hers(table, 3, gita) <= set(_cards_in(snapshot["hand"]))
    assert leaks_in_snapshot(str(gita.pk), snapshot, card_owners(table), cards_revealed(table))[0] == []
    frames = selectors.events_after(table_id=table.pk, after=seq, viewer=str(gita.pk))
    assert _hers(table, 3, gita) <= _cards_of_hand(frames, 3)
    assert leaks_in_events(str(gita.pk), [{"type": "events", "events": frames}], card_owners(table))[0] == []


def test_approved_before_her_turn_her_later_turns_in_that_hand_are_played_at_once():
    """Approved while another player is to act: nothing is played for her yet, but she is
    away for the rest of the hand; her turn, when it comes, is the away rule's move at once
    (``by: "away"``). Sitting out and coming back from the new browser meanwhile does not
    hand her that hand back (she has no view of it to decide by)."""
    table, host, gita, _old = _table_with_gita(start=True)
    if current_turn(table)[0] == str(gita.pk):
        hand_act(table_id=table.pk, seat_id=gita.pk, verb="chaal", amount=current_turn(table)[1][0].min)
    before = _log(table)
    token, taken = _claim_taken(table, host)
    assert taken.hand_played_out
    written = [kind for _seq, kind in _log(table)][len(before) :]
    assert written == ["request_made", "request_approved", "seat_moved"]  # not her turn: nothing played now
    with writes_for(SeatHolder(gita.pk, token)):
        seat_sit_out(table_id=table.pk, seat_id=gita.pk)
        seat_come_back(table_id=table.pk, seat_id=gita.pk)
    live = selectors.hand_live(table=table)
    assert live is not None and str(gita.pk) in live.plan["away"]
    for _step in range(40):
        played = Event.objects.filter(table=table, kind="action", actor_id=gita.pk, seq__gt=before[-1][0]).first()
        if played is not None:
            break
        player, legal = current_turn(table)
        assert player is not None and player != str(gita.pk), "her turn waited for her"
        move = next(entry for entry in legal if entry.verb in ("chaal", "call", "check"))
        hand_act(table_id=table.pk, seat_id=int(player), verb=move.verb, amount=move.min)
    assert played is not None and played.payload["by"] == "away" and played.payload["verb"] == "pack"
    gita.refresh_from_db()
    assert gita.status == Seat.Status.PLAYING


def test_all_in_she_has_no_decisions_left_and_nothing_is_played_for_her():
    table, host, gita, _old = _table_with_gita("holdem", start=True)
    _to_her_turn(table, gita)
    shove = next(entry for entry in current_turn(table)[1] if entry.verb in ("raise", "bet"))
    hand_act(table_id=table.pk, seat_id=gita.pk, verb=shove.verb, amount=shove.max)
    assert current_turn(table)[0] not in (None, str(gita.pk))
    before = _log(table)
    _token, taken = _claim_taken(table, host)
    assert not taken.hand_played_out
    assert [kind for _seq, kind in _log(table)][len(before) :] == ["request_made", "request_approved", "seat_moved"]
    live = selectors.hand_live(table=table)
    assert live is not None and str(gita.pk) not in live.plan.get("away", [])
    snapshot = what_viewers_see.table_snapshot(table_id=table.pk, seat_id=gita.pk)
    assert _hidden_cards_reaching(table, [snapshot], 1) == set()


@pytest.mark.parametrize("game", ["faras", "holdem"])
def test_the_hosts_own_claim_of_her_seat_during_a_hand_shows_his_second_browser_none_of_her_cards(game):
    """Abuse: the host types Gita's name on a second browser of his own, asks "This is me"
    and approves it during a hand, while he plays his own seat. That browser gets none of
    her cards of the hand: not in its first read, not in a resync, not in the hand's history
    page once it is over. (Her seat is his from the next hand, in front of the whole table,
    as taking it between hands would be.)"""
    table, host, gita, _old = _table_with_gita(game, start=True)
    if game == "faras":
        hand_see(table_id=table.pk, seat_id=gita.pk)  # her cards are face up to her own phone
    hers = _hers(table, 1, gita)
    second = guest_token_new()  # the host's second browser
    _claim_taken(table, host, second)
    snapshot = what_viewers_see.table_snapshot(table_id=table.pk, seat_id=gita.pk)
    frames = selectors.events_after(table_id=table.pk, after=0, viewer=str(gita.pk))
    assert hers & _cards_of_hand([snapshot, *frames], 1) == set()
    assert _hidden_cards_reaching(table, [snapshot, *frames], 1) == set()
    _play_out_the_hand(table, gita, random.Random(38))
    browser = Client()
    session = browser.session
    session[GUEST_TOKEN_SESSION_KEY] = second
    session.save()
    page = browser.get(reverse("hand_history", kwargs={"code": table.code, "number": 1}))
    assert page.status_code == 200
    replay = json.loads(re.search(r'id="replay-data"[^>]*>(.*?)</script>', page.content.decode(), re.S).group(1))
    assert _hidden_among(table, 1, set(_cards_in(replay))) == set()


def _claim_approved_and_taken_quietly(table: Table, host: Seat) -> str:
    """A new browser's claim, approved and taken, while the channel layer drops every piece of
    news (at-most-once delivery): the old socket hears nothing of the move."""
    real = log_module.broadcast
    log_module.broadcast = lambda *args, **kwargs: None
    try:
        token, _taken = _claim_taken(table, host)
    finally:
        log_module.broadcast = real
    return token


@pytest.mark.django_db(transaction=True)
async def test_the_old_socket_cannot_act_after_her_seat_moved_during_her_turn(monkeypatch):
    """Abuse: the old phone's socket, never told of the move, sends her move after it: refused
    (``seat_moved``, with the sentence the page shows), closed (4409), nothing written. The
    new phone's socket is not offered that turn (it was played for her) and may not act in
    the hand: refused (``moved_in_hand``), nothing written."""
    monkeypatch.setattr(TableConsumer, "quiet_seconds", 3600.0)  # no catch-up by the watcher
    table, host, gita, old_token = await database_sync_to_async(_table_with_gita)(start=True)
    await database_sync_to_async(_to_her_turn)(table, gita)
    connected, old, _code = await connect(table.code, guest_token=old_token)
    assert connected and old.seat_id == gita.pk and old.turn["player"] == str(gita.pk)
    move = next(entry for entry in old.turn["legal"] if entry["verb"] in ("chaal", "call", "check"))
    token = await database_sync_to_async(_claim_approved_and_taken_quietly)(table, host)
    before = await database_sync_to_async(_log)(table)
    await old.send({"type": "action", "verb": move["verb"], "amount": move.get("min"), "id": "late"})
    refusal = await old.reply_to("late")
    assert (refusal["type"], refusal.get("code")) == ("error", "seat_moved"), refusal
    assert "open on another device" in refusal["message"]
    out = await old.communicator.receive_output(timeout=TIMEOUT)
    while out["type"] != "websocket.close":
        out = await old.communicator.receive_output(timeout=TIMEOUT)
    assert out["code"] == 4409
    assert await database_sync_to_async(_log)(table) == before

    connected, new, _code = await connect(table.code, guest_token=token)
    assert connected and new.seat_id == gita.pk and new.turn["player"] != str(gita.pk)
    reply = await new.request({"type": "see"})
    assert (reply["type"], reply.get("code")) == ("error", "moved_in_hand"), reply
    assert await database_sync_to_async(_log)(table) == before
    await new.close()


def _others_play_the_hand_out_and_deal(table: Table, gita: Seat, number: int) -> None:
    _play_out_the_hand(table, gita, random.Random(number))
    _deal_next_hand(table, number + 1)


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("game", ["faras", "holdem"])
async def test_the_new_phones_socket_gets_no_card_of_the_hand_in_play_and_hers_of_the_next(game):
    """Every frame the new phone's socket receives, from its first snapshot on, while the
    hand in play is played out without her and the next is dealt: no hidden card of the
    hand in play (anyone's, hers too, unless the rules turned it up for everyone), and her
    own cards of the next hand (Faras: once she looks, from the new phone)."""
    table, host, gita, _old = await database_sync_to_async(_table_with_gita)(game, start=True)
    if game == "faras":  # she had looked at her cards on the old phone
        await database_sync_to_async(hand_see)(table_id=table.pk, seat_id=gita.pk)
    await database_sync_to_async(_to_her_turn)(table, gita)
    token, taken = await database_sync_to_async(_claim_taken)(table, host)
    assert taken.hand_played_out
    connected, new, _code = await connect(table.code, guest_token=token)
    assert connected and new.seat_id == gita.pk and new.snapshots[0]["hand"]["number"] == 1
    await database_sync_to_async(_others_play_the_hand_out_and_deal)(table, gita, 1)
    await sync_all(table.pk, [new])
    if game == "faras":
        reply = await new.request({"type": "see"})
        assert reply["type"] == "ack", reply
        await sync_all(table.pk, [new])
    await new.close()
    assert any(event.get("kind") == "hand_ended" for frame in new.frames for event in frame.get("events") or [])
    assert await database_sync_to_async(_hidden_cards_reaching)(table, new.frames, 1) == set()
    hers = await database_sync_to_async(_hers)(table, 2, gita)
    assert hers and hers <= _cards_of_hand(new.frames, 2)
    owners = await database_sync_to_async(card_owners)(table)
    assert leaks_in_events(str(gita.pk), new.frames, owners)[0] == []


def test_a_seat_link_opened_during_the_hand_first_keeps_its_place():
    """The seat's link opened in another browser during the hand (it waits for the hand's
    end, issue 34): an approved claim of the seat then is refused, and nothing moves."""
    table, host, gita, old_token = _table_with_gita(start=True)
    linked = guest_token_new()
    seat_link_use(code=table.code, seat_id=gita.pk, key=seat_link_key(gita), guest_token=linked)
    asked, token = _claim(table)
    request_approve(table_id=table.pk, seat_id=host.pk, request=asked)
    before = _log(table)
    _refused("link_waiting", seat_claim_take, table_id=table.pk, guest_token=token)
    assert _log(table) == before
    gita.refresh_from_db()
    assert gita.guest_token == old_token and gita.link_claim == linked


def test_after_the_claim_moved_her_seat_mid_hand_the_old_seat_link_is_used():
    table, host, gita, _old = _table_with_gita(start=True)
    old_key = seat_link_key(gita)
    token, _taken = _claim_taken(table, host)
    before = _log(table)
    _refused("used_link", seat_link_use, code=table.code, seat_id=gita.pk, key=old_key, guest_token=guest_token_new())
    assert _log(table) == before
    _play_out_the_hand(table, gita, random.Random(38))
    gita.refresh_from_db()
    assert gita.guest_token == token and gita.link_moves == 1  # the hand's end moves nothing more


def test_only_a_guests_seat_not_banned_may_be_claimed():
    table, host, gita, _token = _table_with_gita()
    player = Seat.objects.filter(table=table, user__isnull=False).exclude(pk=host.pk).get()
    before = _log(table)
    for name in (host.display_name, player.display_name, "Nobody here"):
        _refused("not_claimable", _claim, table, name)
    assert _log(table) == before
    seat_remove(table_id=table.pk, seat_id=host.pk, remove_seat_id=gita.pk, ban=True)
    table.refresh_from_db()  # a ban replaces the invite link: this is the new one
    before = _log(table)
    _refused("not_claimable", _claim, table, "Gita")
    assert _log(table) == before


def test_a_local_players_or_a_computers_seat_cannot_be_claimed():
    table, host, _gita, _token = _table_with_gita()
    local_player_add(table_id=table.pk, seat_id=host.pk, name="Bikash")
    computer = computer_add(table_id=table.pk, seat_id=host.pk, strength="easy")
    before = _log(table)
    _refused("not_claimable", _claim, table, "Bikash")
    _refused("name_reserved", _claim, table, computer.display_name)  # a computer's name: no guest's
    assert _log(table) == before


def test_the_invite_link_is_needed_and_a_browser_with_a_seat_cannot_claim():
    table, _host, _gita, gita_token = _table_with_gita()
    before = _log(table)
    for code, invite in ((table.code, "wrong"), ("NOSUCH", table.invite_token), (table.code, None)):
        _refused(
            "no_invite",
            seat_claim_ask,
            code=code,
            invite_token=invite,
            guest_name="Gita",
            guest_token=guest_token_new(),
        )
    _refused("other_seat", _claim, table, "Gita", gita_token)  # her own browser: nothing to claim
    dipa_token = guest_token_new()
    table_join(code=table.code, invite_token=table.invite_token, guest_name="Dipa", guest_token=dipa_token)
    before = _log(table)
    _refused("other_seat", _claim, table, "Gita", dipa_token)
    _refused("no_session", _claim, table, "Gita", "short")
    assert _log(table) == before


def test_one_claim_waits_per_seat_and_per_browser():
    table, _host, gita, _token = _table_with_gita()
    table_join(code=table.code, invite_token=table.invite_token, guest_name="Dipa", guest_token=guest_token_new())
    _asked, token = _claim(table)
    before = _log(table)
    _refused("claim_pending", _claim, table, "Gita")  # a stranger's second claim of the seat
    _refused("request_pending", _claim, table, "Dipa", token)  # the same browser, another seat
    assert _log(table) == before
    # Gita's own requests at the table are not mixed up with the claim of her seat.
    assert seat_claim_state(table=table, guest_token=token) == ("waiting", "Gita")
    _refused("no_request", request_cancel, table_id=table.pk, seat_id=gita.pk)


def test_a_denied_claim_cannot_be_repeated_at_once_even_from_a_fresh_browser():
    table, host, gita, old_token = _table_with_gita()
    asked, token = _claim(table)
    request_deny(table_id=table.pk, seat_id=host.pk, request=asked)
    assert seat_claim_state(table=table, guest_token=token) == ("denied", "Gita")
    _refused("no_claim", seat_claim_take, table_id=table.pk, guest_token=token)
    before = _log(table)
    _refused("too_many_requests", _claim, table, "Gita", token)
    _refused("too_many_requests", _claim, table, "Gita")  # a fresh session, the same seat
    assert _log(table) == before
    gita.refresh_from_db()
    assert gita.guest_token == old_token


def test_at_most_five_claims_in_ten_minutes_per_browser():
    table, _host, _gita, _token = _table_with_gita()
    token = guest_token_new()
    for _ask in range(5):
        _claim(table, "Gita", token)
        seat_claim_withdraw(table_id=table.pk, guest_token=token)
    before = _log(table)
    _refused("too_many_requests", _claim, table, "Gita", token)
    assert _log(table) == before


def test_only_the_asking_browser_withdraws_its_claim():
    table, _host, _gita, _token = _table_with_gita()
    _asked, token = _claim(table)
    before = _log(table)
    _refused("no_request", seat_claim_withdraw, table_id=table.pk, guest_token=guest_token_new())
    assert _log(table) == before
    seat_claim_withdraw(table_id=table.pk, guest_token=token)
    assert selectors.requests_pending(table=table) == []
    assert seat_claim_state(table=table, guest_token=token) == ("withdrawn", "Gita")
    _refused("no_request", seat_claim_withdraw, table_id=table.pk, guest_token=token)


def test_a_seat_moved_by_its_link_meanwhile_is_not_given_away_by_an_old_claim():
    table, host, gita, _old = _table_with_gita()
    asked, _token = _claim(table)
    # Gita finds her seat link and uses it herself.
    own = guest_token_new()
    seat_link_use(code=table.code, seat_id=gita.pk, key=seat_link_key(gita), guest_token=own)
    before = _log(table)
    _refused("request_stale", request_approve, table_id=table.pk, seat_id=host.pk, request=asked)
    assert _log(table) == before
    gita.refresh_from_db()
    assert gita.guest_token == own


def test_a_ban_drops_a_waiting_claim_and_stops_an_approved_one():
    table, host, gita, _old = _table_with_gita()
    _claim(table)
    seat_remove(table_id=table.pk, seat_id=host.pk, remove_seat_id=gita.pk, ban=True)
    assert selectors.requests_pending(table=table) == []

    table2, host2, gita2, old2 = _table_with_gita()
    asked, token = _claim(table2)
    request_approve(table_id=table2.pk, seat_id=host2.pk, request=asked)
    seat_remove(table_id=table2.pk, seat_id=host2.pk, remove_seat_id=gita2.pk, ban=True)
    _refused("banned", seat_claim_take, table_id=table2.pk, guest_token=token)
    gita2.refresh_from_db()
    assert gita2.guest_token == old2


def test_a_claim_does_not_block_the_seats_own_requests():
    table, host, _gita, _old = _table_with_gita()
    table_update_settings(table_id=table.pk, seat_id=host.pk, choices={"approve_seats": True})
    invite = table.invite_token
    dipa = table_join(code=table.code, invite_token=invite, guest_name="Dipa", guest_token=guest_token_new())
    _claim(table, "Dipa")
    # Dipa, still on her own browser, may ask for a seat while a claim of hers waits.
    seat_ask(table_id=table.pk, seat_id=dipa.pk, what="seat")
    assert {r["what"] for r in selectors.requests_pending(table=table)} == {"claim", "seat"}


# --- the invite link's page ----------------------------------------------------------------


def _invite(table: Table) -> str:
    return reverse("table_invite", kwargs={"code": table.code, "invite_token": table.invite_token})


def test_the_invite_page_offers_this_is_me_waits_and_takes_her_to_her_seat():
    table, host, gita, old_token = _table_with_gita()
    phone = Client()
    link = _invite(table)
    refused = phone.post(link, {"display_name": "Gita", "role": "seat"})
    page = refused.content.decode()
    assert refused.status_code == 200 and "This is me" in page and "If you have your seat link" in page
    assert Seat.objects.filter(table=table).count() == 3  # no second seat
    asked = phone.post(link, {"display_name": "Gita", "this_is_me": "1"})
    assert asked.status_code == 302 and asked["Location"] == link
    waiting = phone.get(link).content.decode()
    assert "Waiting for the host" in waiting and "js/claim_wait.js" in waiting
    pending = selectors.requests_pending(table=table)
    assert [r["what"] for r in pending] == ["claim"]
    request_approve(table_id=table.pk, seat_id=host.pk, request=pending[0]["request"])
    taken = phone.get(link)
    assert taken.status_code == 302 and taken["Location"] == reverse("table_detail", kwargs={"code": table.code})
    gita.refresh_from_db()
    assert gita.guest_token == phone.session["dashain_guest_token"] != old_token
    assert phone.get(reverse("table_detail", kwargs={"code": table.code})).status_code == 200


def test_the_invite_page_tells_her_that_the_hand_in_play_is_played_out_for_her():
    table, host, gita, _old = _table_with_gita(start=True)
    _to_her_turn(table, gita)
    phone = Client()
    link = _invite(table)
    phone.post(link, {"display_name": "Gita", "this_is_me": "1"})
    request_approve(table_id=table.pk, seat_id=host.pk, request=selectors.requests_pending(table=table)[0]["request"])
    page = phone.get(link, follow=True).content.decode()
    assert "Welcome back, Gita" in page and "that hand is played out for you" in page
    again = phone.get(link, follow=True).content.decode()  # taken already: nothing played again
    assert "played out for you" not in again


def test_the_invite_page_says_no_after_a_denial_and_lets_her_withdraw():
    table, host, _gita, _old = _table_with_gita()
    link = _invite(table)
    phone = Client()
    phone.post(link, {"display_name": "Gita", "this_is_me": "1"})
    phone.post(link, {"claim_withdraw": "1"})
    assert selectors.requests_pending(table=table) == []
    assert "This is me" not in phone.get(link).content.decode()  # withdrawn: the usual form
    other = Client()
    other.post(link, {"display_name": "gita", "this_is_me": "1"})
    request_deny(table_id=table.pk, seat_id=host.pk, request=selectors.requests_pending(table=table)[0]["request"])
    assert "The host said no" in other.get(link).content.decode()
    again = other.post(link, {"display_name": "Gita", "this_is_me": "1"})
    assert again.status_code == 200 and "wait a minute" in again.content.decode()


def test_no_offer_for_an_accounts_name_or_a_signed_in_visitor():
    table, host, _gita, _old = _table_with_gita()
    link = _invite(table)
    page = Client().post(link, {"display_name": host.display_name, "role": "seat"}).content.decode()
    assert "This is me" not in page and "already called" in page
    member = Client()
    member.force_login(make_user("eve-claim"))
    member.post(link, {"display_name": "Gita", "this_is_me": "1"})
    assert selectors.requests_pending(table=table) == []


def test_no_claim_at_a_night_played_with_real_cards():
    from tests.kitchen.conftest import open_night

    night = open_night(make_user("asha-night"))
    table_join(code=night.code, invite_token=night.invite_token, guest_name="Gita", guest_token=guest_token_new())
    before = _log(night)
    _refused("not_dealt", _claim, night, "Gita")
    assert _log(night) == before


def test_a_browser_that_joined_as_someone_else_meanwhile_does_not_take_the_seat_too():
    table, host, gita, old = _table_with_gita()
    asked, token = _claim(table)
    request_approve(table_id=table.pk, seat_id=host.pk, request=asked)
    table_join(code=table.code, invite_token=table.invite_token, guest_name="Gita Two", guest_token=token)
    before = _log(table)
    _refused("other_seat", seat_claim_take, table_id=table.pk, guest_token=token)
    assert _log(table) == before
    gita.refresh_from_db()
    assert gita.guest_token == old
