""" "This is me": a guest on a new browser asks the host for her own seat (issue 38, point 1).

Rules pinned (``tables.services.claims``), each as the person who would misuse it: a
stranger with the invite link typing a guest's name to read her cards.

- The claim is a request to the host naming the seat (``request_made``, ``what: "claim"``,
  ``claim``: the seat); the asker's key (``who``) never travels. Nothing moves until the host
  approves; then the asking browser takes the seat at once, the old browser's pages closed by
  ``seat_moved``. Approved during a hand she is dealt into, even during her turn (the second
  group's trial), she plays on in it from the new browser: her cards of that hand and nobody
  else's, her turn on the same clock, her move at once; the old browser's writes are refused;
  her time running out is the ordinary away rule. A seat link opened during that hand
  first keeps its place (it moves the seat at the hand's end, issue 34).
- Only a guest's seat, never an account's, a computer's or a banned one.
- One claim waiting per seat and per browser; a denied claim cannot be repeated at once (by
  that browser, or by a fresh one for the same seat); at most five asks in ten minutes.
- A seat that moved to another browser since the claim (its owner used her seat link) is
  not given away by a stale approval; a ban after the approval stops the move.
"""

from __future__ import annotations

import random
from datetime import timedelta

import pytest
from channels.db import database_sync_to_async
from django.test import Client
from django.urls import reverse

from tables import selectors, what_viewers_see
from tables.events import event_frame
from tables.live.consumers import TableConsumer
from tables.models import Event, PushSubscription, Seat, Table
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
    seat_link_key,
    seat_link_use,
    seat_remove,
    seat_take,
    table_clock_run,
    table_join,
    table_start,
    table_update_settings,
    writes_for,
)
from tables.services import log as log_module
from tables.services.computers import computer_add
from tests.tables.conftest import current_turn, make_user, open_table
from tests.tables.leaks import (
    PUBLIC_REVEALS,
    _cards_in,
    card_owners,
    cards_revealed,
    leaks_in_events,
    leaks_in_snapshot,
)
from tests.tables.test_seat_link_once import _play_out_the_hand
from tests.tables.ws import TIMEOUT, connect

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
    assert taken.pk == gita.pk and gita.guest_token == token and gita.stack == stack and gita.number is not None
    assert selectors.seat_gone(seat_id=gita.pk, guest_token=old_token) == "seat_moved"  # the old pages close
    assert _log(table)[-1][1] == "seat_moved"
    # Still one Gita: no second seat, no second buy-in.
    assert Seat.objects.filter(table=table, display_name__iexact="gita").count() == 1
    assert gita.buy_ins == 1
    # Taking again changes nothing; the used seat link no longer works.
    before = _log(table)
    assert seat_claim_take(table_id=table.pk, guest_token=token).pk == gita.pk
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


@pytest.mark.parametrize("game", ["faras", "holdem"])
def test_approved_during_her_turn_she_plays_on_in_that_hand_from_the_new_browser(game):
    """The second group's trial: the host says yes while Gita is to act. Her seat moves at
    once; the new browser reads her cards of that hand (hers only) and her turn, and acts at
    once; the old browser's writes are refused; nothing waits for the lost browser."""
    table, host, gita, old_token = _table_with_gita(game, start=True)
    _play_out_the_hand(table, gita, random.Random(38))  # a first hand, on the old phone only
    if game == "faras":
        hand_see(table_id=table.pk, seat_id=gita.pk)  # she had looked at her cards on the old phone
    _to_her_turn(table, gita)
    hand = selectors.hand_live(table=table)
    assert hand is not None and hand.number == 2 and hand.to_act == str(gita.pk)
    deadline = hand.turn_deadline
    # The old phone had asked for turn reminders by Web Push.
    PushSubscription.objects.create(seat=gita, endpoint="https://push.example/old-phone", p256dh="k", auth="a")
    asked, token = _claim(table)
    request_approve(table_id=table.pk, seat_id=host.pk, request=asked)
    taken = seat_claim_take(table_id=table.pk, guest_token=token)
    gita.refresh_from_db()
    assert taken.pk == gita.pk and gita.guest_token == token and gita.link_claim == ""  # now, not at the hand's end
    assert gita.link_moves == 1 and gita.link_moved_hand == hand.number - 1
    assert _log(table)[-1][1] == "seat_moved"
    assert selectors.seat_gone(seat_id=gita.pk, guest_token=old_token) == "seat_moved"
    assert not PushSubscription.objects.filter(seat=gita).exists()  # no more reminders to the old phone
    # The same player in the same hand: still her turn, on the same clock.
    hand.refresh_from_db()
    assert hand.ended_at is None and hand.to_act == str(gita.pk) and hand.turn_deadline == deadline
    assert gita.status == Seat.Status.PLAYING

    # The new browser's first read: her cards of this hand, nobody else's, and her turn.
    snapshot = what_viewers_see.table_snapshot(table_id=table.pk, seat_id=gita.pk)
    assert snapshot["hand"]["number"] == hand.number and snapshot["you"] == gita.pk
    assert set(_cards_in(snapshot["hand"])) & set(card_owners(table)[hand.number]) == _hers(table, hand.number, gita)
    assert leaks_in_snapshot(str(gita.pk), snapshot, card_owners(table), cards_revealed(table))[0] == []
    turn = snapshot["hand"]["turn"]
    assert turn["player"] == str(gita.pk) and turn["legal"]
    # A resync from the start tells her the same, and nobody else's cards.
    frames = selectors.events_after(table_id=table.pk, after=0, viewer=str(gita.pk))
    assert leaks_in_events(str(gita.pk), frames, card_owners(table))[0] == []
    in_events = {card for frame in frames if frame.get("hand") == hand.number for card in _cards_in(frame.get("data"))}
    assert _hers(table, hand.number, gita) <= in_events
    # The hand before the move stays the old phone's: none of her hidden cards of it.
    shown = {
        card
        for _seq, number, kind, payload in cards_revealed(table)
        if number == 1 and kind in PUBLIC_REVEALS
        for card in _cards_in(payload)
    }
    earlier = {card for frame in frames if frame.get("hand") == 1 for card in _cards_in(frame.get("data"))}
    assert (earlier & _hers(table, 1, gita)) - shown == set()

    # The old browser may not act for the seat any more: refused, nothing written.
    before = _log(table)
    verb = next(entry for entry in turn["legal"] if entry["verb"] in ("chaal", "call", "check"))
    with writes_for(SeatHolder(gita.pk, old_token)):
        _refused("seat_moved", hand_act, table_id=table.pk, seat_id=gita.pk, verb=verb["verb"], amount=verb.get("min"))
    assert _log(table) == before
    # The new one acts at once, as herself, and the hand goes on.
    with writes_for(SeatHolder(gita.pk, token)):
        hand_act(table_id=table.pk, seat_id=gita.pk, verb=verb["verb"], amount=verb.get("min"))
    action = Event.objects.filter(table=table, kind="action").order_by("-seq").first()
    assert action is not None and action.payload["player"] == str(gita.pk) and "by" not in action.payload
    assert current_turn(table)[0] != str(gita.pk)
    gita.refresh_from_db()
    assert gita.status == Seat.Status.PLAYING  # not sat out: no "Come back" to press


def _claim_approved_and_taken_quietly(table: Table, host: Seat) -> str:
    """A new browser's claim, approved and taken, while the channel layer drops every piece of
    news (at-most-once delivery): the old socket hears nothing of the move."""
    real = log_module.broadcast
    log_module.broadcast = lambda *args, **kwargs: None
    try:
        asked, token = _claim(table)
        request_approve(table_id=table.pk, seat_id=host.pk, request=asked)
        seat_claim_take(table_id=table.pk, guest_token=token)
    finally:
        log_module.broadcast = real
    return token


@pytest.mark.django_db(transaction=True)
async def test_the_old_socket_cannot_act_after_her_seat_moved_during_her_turn(monkeypatch):
    """Abuse: the old phone's socket, never told of the move, sends her move after it: refused
    (``seat_moved``, with the sentence the page shows), closed (4409), nothing written. The
    new phone's socket reads her turn and plays it."""
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
    assert connected and new.seat_id == gita.pk and new.turn["player"] == str(gita.pk)
    reply = await new.request({"type": "action", "verb": move["verb"], "amount": move.get("min")})
    assert reply["type"] == "ack", reply
    await new.close()
    played = await database_sync_to_async(
        lambda: Event.objects.filter(table=table, kind="action").order_by("-seq").values_list("payload", flat=True)[0]
    )()
    assert played["player"] == str(gita.pk) and played["verb"] == move["verb"] and "by" not in played


def test_her_time_running_out_after_the_move_is_the_ordinary_away_rule():
    table, host, gita, _old = _table_with_gita(choices={"turn_timer": 30, "timeout_action": "act"}, start=True)
    _to_her_turn(table, gita)
    asked, token = _claim(table)
    request_approve(table_id=table.pk, seat_id=host.pk, request=asked)
    seat_claim_take(table_id=table.pk, guest_token=token)
    hand = selectors.hand_live(table=table)
    assert hand is not None and hand.to_act == str(gita.pk) and hand.turn_deadline is not None
    assert table_clock_run(table_id=table.pk, now=hand.turn_deadline - timedelta(seconds=1)) == []
    assert table_clock_run(table_id=table.pk, now=hand.turn_deadline + timedelta(seconds=1)) == ["turn_alarm"]
    kinds = [kind for _seq, kind in _log(table)]
    assert kinds[kinds.index("seat_moved") :].count("seat_sat_out") == 1
    action = Event.objects.get(table=table, kind="action", payload__player=str(gita.pk), payload__by="timer")
    assert action.payload["verb"] == "pack"
    gita.refresh_from_db()
    assert gita.guest_token == token and gita.status == Seat.Status.SITTING_OUT


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
    asked, token = _claim(table)
    request_approve(table_id=table.pk, seat_id=host.pk, request=asked)
    seat_claim_take(table_id=table.pk, guest_token=token)
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
