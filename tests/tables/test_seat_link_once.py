"""A seat link moves only a seat no hand holds, once; an old page loses a moved seat (issue 34).

Rules pinned, each an attack of issue 34 replayed:

- item 3: the host opens a guest's seat link in another session during a hand. The seat does
  not move during the hand (the page says it moves when the hand ends), it moves then, and
  that session receives none of the guest's hidden cards of a hand dealt before the move (by
  the socket's snapshot, its resync from the start, or the hand's history page), in Faras, in
  Teen Patti after the guest looked, and in hold'em; it gets its own from the next hand. A
  used link is dead, and the page says who held the seat.
- item 6: a snapshot or a resync that reads past the ``seat_moved`` news, and a move whose
  news never reaches the old socket: the old socket is closed (4409) and none of its writes
  is applied.
- item 10: after a house's wrong guesses, the real seat link still lets the guest in.
"""

from __future__ import annotations

import json
import random
from datetime import timedelta
from typing import Any

import pytest
from channels.db import database_sync_to_async
from django.test import Client
from django.urls import reverse
from django.utils import timezone
from django.utils.crypto import salted_hmac

from config.limits import MAX_FAILED_JOINS, join_attempts_forget
from tables import selectors, what_viewers_see
from tables.live.consumers import TableConsumer
from tables.models import Event, Seat, Table
from tables.services import (
    ServiceError,
    guest_token_new,
    hand_act,
    hand_see,
    seat_link_key,
    seat_link_use,
    seat_take,
    table_clock_run,
    table_join,
    table_start,
)
from tables.services import log as log_module
from tables.services.hosting import SEAT_LINK_SALT
from tests.tables.conftest import current_turn, open_table
from tests.tables.leaks import PUBLIC_REVEALS, _cards_in, card_owners, cards_revealed
from tests.tables.ws import TIMEOUT, connect

pytestmark = pytest.mark.django_db


@pytest.fixture
def address():
    where = f"10.{random.randint(0, 255)}.{random.randint(0, 255)}.9"
    join_attempts_forget(where)
    yield where
    join_attempts_forget(where)


def _log(table: Table) -> list[tuple[int, str]]:
    return list(Event.objects.filter(table=table).order_by("seq").values_list("seq", "kind"))


def _table_with_dipa(game: str, *, start: bool) -> tuple[Table, Seat, Seat, str]:
    """A table of ``game``: the host, a player with an account, and Dipa, a guest, all seated."""
    table, seats = open_table(game, 2, {"buy_in_price": "0.00"} if game != "holdem" else None, start=False)
    token = guest_token_new()
    dipa = table_join(code=table.code, invite_token=table.invite_token, guest_name="Dipa", guest_token=token)
    seat_take(table_id=table.pk, seat_id=dipa.pk)
    if start:
        table_start(table_id=table.pk, seat_id=seats[0].pk)
    table.refresh_from_db()
    dipa.refresh_from_db()
    return table, seats[0], dipa, token


def _link(seat: Seat) -> str:
    seat.refresh_from_db()
    return reverse("table_seat_link", kwargs={"code": seat.table.code, "seat_id": seat.pk, "key": seat_link_key(seat)})


def _play_out_the_hand(table: Table, dipa: Seat, rng: random.Random) -> None:
    """Play the live hand to its end: Dipa packs (or folds) at her first turn, so her cards
    are never shown to the table; the others play at random."""
    playing = selectors.hand_live(table=table)
    assert playing is not None
    for _ in range(300):
        live = selectors.hand_live(table=table)
        if live is None or live.number != playing.number:  # over (the next may be dealt at once)
            return
        player, legal = current_turn(table)
        verbs = [entry.verb for entry in legal]
        if player == str(dipa.pk):
            verb = next((v for v in ("pack", "fold", "refuse") if v in verbs), verbs[0])
            amount = None
        else:
            calm = [entry for entry in legal if entry.verb in ("show", "check", "call", "chaal")]
            if "show" in verbs:
                calm = [entry for entry in legal if entry.verb == "show"]
            choice = rng.choice(calm if calm and rng.random() < 0.8 else legal)
            verb, amount = choice.verb, choice.min
        hand_act(table_id=table.pk, seat_id=int(player), verb=verb, amount=amount)
    raise AssertionError("the hand did not end")


def _deal_next(table: Table) -> None:
    table_clock_run(table_id=table.pk, now=timezone.now() + timedelta(minutes=10))


def _cards_by_hand(frame: dict[str, Any]) -> list[tuple[int, str]]:
    """(hand number, card) of every card a frame names, by the hand it belongs to."""
    found: list[tuple[int, str]] = []
    if frame.get("type") == "snapshot" and frame.get("hand"):
        found += [(frame["hand"]["number"], card) for card in _cards_in(frame["hand"].get("view"))]
    for event in frame.get("events", []):
        if event.get("hand") is not None:
            found += [(event["hand"], card) for card in _cards_in(event.get("data"))]
    screen_hand = (frame.get("screen") or {}).get("hand")
    if screen_hand:
        found += [(screen_hand["number"], card) for card in _cards_in(screen_hand.get("view"))]
    return found


async def _frames_until_quiet(client: Any, count: int = 50) -> list[dict[str, Any]]:
    """Every frame the socket is sent until it falls quiet (or closes)."""
    frames = []
    for _ in range(count):
        if await client.communicator.receive_nothing(timeout=0.5):
            break
        out = await client.communicator.receive_output(timeout=TIMEOUT)
        if out["type"] == "websocket.close":
            break
        frames.append(json.loads(out["text"]))
    return frames


# --- item 3: the host opens a guest's seat link during a hand -----------------------------


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("game", ["faras", "classic", "holdem"])
async def test_the_host_opening_a_guests_link_mid_hand_gets_none_of_her_cards(game, address, settings):
    settings.DASHAIN_NEXT_HAND_DELAY = 30  # the ended hand stays on the table until the next deal
    rng = random.Random(34)
    table, _host, dipa, dipa_token = await database_sync_to_async(_table_with_dipa)(game, start=True)
    hand = await database_sync_to_async(selectors.hand_live)(table=table)
    assert hand is not None and str(dipa.pk) in [str(name) for name, _stack in hand.plan["players"]]
    if game != "holdem":
        await database_sync_to_async(hand_see)(table_id=table.pk, seat_id=dipa.pk)  # she has looked
    connected, dipa_socket, _ = await connect(table.code, guest_token=dipa_token)
    assert connected

    # The host, in a private window (no account there), opens Dipa's link from their list.
    window = Client(REMOTE_ADDR=address)
    link = await database_sync_to_async(_link)(dipa)
    page = await database_sync_to_async(window.get)(link)
    text = page.content.decode()
    assert page.status_code == 200
    assert "Dipa holds this seat now" in text and "the seat moves to this browser when that hand ends" in text
    before = await database_sync_to_async(_log)(table)
    answer = await database_sync_to_async(window.post)(link)
    assert answer.status_code == 302 and answer["Location"] == link
    waiting = await database_sync_to_async(window.get)(link)
    assert waiting.status_code == 200 and "Waiting for Dipa" in waiting.content.decode()
    assert "js/claim_wait.js" in waiting.content.decode() and "http-equiv" not in waiting.content.decode()
    claim_token = await database_sync_to_async(lambda: window.session["dashain_guest_token"])()
    await database_sync_to_async(dipa.refresh_from_db)()
    assert dipa.guest_token == dipa_token and dipa.link_claim == claim_token
    assert await database_sync_to_async(_log)(table) == before  # nothing moved, nothing written
    # The window has no seat yet: its socket is refused, its table page sends it away.
    refused, _client, code = await connect(table.code, guest_token=claim_token)
    assert not refused and code == 4403
    assert (
        await database_sync_to_async(window.get)(reverse("table_detail", kwargs={"code": table.code}))
    ).status_code == 302

    # The hand ends: the seat moves, and the old page is told and closed.
    await database_sync_to_async(_play_out_the_hand)(table, dipa, rng)
    await database_sync_to_async(dipa.refresh_from_db)()
    assert dipa.guest_token == claim_token and dipa.link_moves == 1 and dipa.link_claim == ""
    kinds = [kind for _seq, kind in await database_sync_to_async(_log)(table)]
    new = kinds[len(before) :]
    # After the hand's end, before the next deal (which may follow at once).
    assert new.index("hand_ended") < new.index("seat_moved") < [*new, "hand_started"].index("hand_started")
    closed = await dipa_socket.communicator.receive_output(timeout=TIMEOUT)
    while closed["type"] != "websocket.close":
        closed = await dipa_socket.communicator.receive_output(timeout=TIMEOUT)
    assert closed["code"] == 4409
    welcome = await database_sync_to_async(window.get)(link)
    assert welcome.status_code == 302 and welcome["Location"] == reverse("table_detail", kwargs={"code": table.code})

    # The window's socket: its snapshot, a resync of the whole log, then the next hand.
    connected, claimant, _ = await connect(table.code, guest_token=claim_token)
    assert connected and claimant.seat_id == dipa.pk
    frames = [claimant.frames[0]]
    assert claimant.frames[0]["hand"]["number"] == 1  # the hand that ended, shown until the next deal
    await claimant.send({"type": "resync", "after": 0, "id": "all"})
    frames += await _frames_until_quiet(claimant)
    assert any(frame.get("id") == "all" for frame in frames)
    await database_sync_to_async(_deal_next)(table)
    frames += await _frames_until_quiet(claimant)
    if game != "holdem":
        await claimant.send({"type": "see", "id": "look"})
        frames += await _frames_until_quiet(claimant)
    history = await database_sync_to_async(window.get)(
        reverse("hand_history", kwargs={"code": table.code, "number": 1})
    )
    await claimant.close()

    owners = await database_sync_to_async(card_owners)(table)
    reveals = await database_sync_to_async(cards_revealed)(table)
    shown = {
        (number, card)
        for _seq, number, kind, payload in reveals
        if kind in PUBLIC_REVEALS
        for card in _cards_in(payload)
    }
    hers = str(dipa.pk)
    leaks = [
        (number, card)
        for frame in frames
        for number, card in _cards_by_hand(frame)
        if number == 1 and owners[1].get(card) == hers and (number, card) not in shown
    ]
    assert leaks == []
    in_history = [card for card in _cards_in(history.context["replay"]) if owners[1].get(card) == hers]
    assert history.status_code == 200 and [c for c in in_history if (1, c) not in shown] == []
    # Its own cards from the next hand on: the seat is the window's now.
    own = [
        card
        for frame in frames
        for number, card in _cards_by_hand(frame)
        if number == 2 and owners[2].get(card) == hers
    ]
    assert own


def test_a_link_works_once_and_a_used_one_says_so(address):
    table, _host, dipa, _token = _table_with_dipa("faras", start=False)
    old_link = _link(dipa)
    # A seat's first link is the one issue 28 gave it: links handed out before still work, once.
    issue_28_key = salted_hmac(SEAT_LINK_SALT, f"{table.pk}:{dipa.pk}", algorithm="sha256").hexdigest()[:32]
    assert old_link.split("/")[-2] == issue_28_key
    first = Client(REMOTE_ADDR=address)
    assert first.post(old_link).status_code == 302
    dipa.refresh_from_db()
    assert dipa.guest_token == first.session["dashain_guest_token"] and dipa.link_moves == 1
    new_link = _link(dipa)
    assert new_link != old_link
    # The old link, replayed by another browser: dead, said so, nothing moved or written.
    before = _log(table)
    second = Client(REMOTE_ADDR=address)
    for method in (second.get, second.post):
        page = method(old_link)
        assert page.status_code == 410 and "This seat link has been used" in page.content.decode()
    with pytest.raises(ServiceError) as refused:
        seat_link_use(code=table.code, seat_id=dipa.pk, key=old_link.split("/")[-2], guest_token=guest_token_new())
    assert refused.value.code == "used_link"
    assert _log(table) == before
    dipa.refresh_from_db()
    assert dipa.guest_token == first.session["dashain_guest_token"]
    # The browser that holds the seat opening either link goes to its table.
    assert first.get(old_link)["Location"] == reverse("table_detail", kwargs={"code": table.code})
    # The new link moves it once more, and the page it came from shows the next one.
    assert second.post(new_link).status_code == 302
    dipa.refresh_from_db()
    assert dipa.guest_token == second.session["dashain_guest_token"] and dipa.link_moves == 2
    assert second.get(reverse("table_detail", kwargs={"code": table.code})).context["seat_url"].endswith(_link(dipa))


def test_a_second_browser_during_the_hand_is_refused_and_a_claim_for_a_seat_held_meanwhile_is_dropped():
    table, _host, dipa, dipa_token = _table_with_dipa("faras", start=True)
    key = seat_link_key(dipa)
    first, second = guest_token_new(), guest_token_new()
    seat_link_use(code=table.code, seat_id=dipa.pk, key=key, guest_token=first)
    seat_link_use(code=table.code, seat_id=dipa.pk, key=key, guest_token=first)  # again: still waiting
    with pytest.raises(ServiceError) as refused:
        seat_link_use(code=table.code, seat_id=dipa.pk, key=key, guest_token=second)
    assert refused.value.code == "link_waiting"
    # The waiting browser joins the table as someone else meanwhile: its claim is dropped.
    table_join(code=table.code, invite_token=table.invite_token, guest_name="Esha", guest_token=first)
    _play_out_the_hand(table, dipa, random.Random(1))
    dipa.refresh_from_db()
    assert dipa.guest_token == dipa_token and dipa.link_claim == "" and dipa.link_moves == 0
    assert "seat_moved" not in [kind for _seq, kind in _log(table)]


def test_a_seat_not_dealt_in_moves_at_once_even_during_a_hand():
    table, host, dipa, _token = _table_with_dipa("faras", start=False)
    from tables.services import seat_sit_out

    seat_sit_out(table_id=table.pk, seat_id=dipa.pk)
    table_start(table_id=table.pk, seat_id=host.pk)
    assert selectors.hand_live(table=table) is not None
    token = guest_token_new()
    seat_link_use(code=table.code, seat_id=dipa.pk, key=seat_link_key(dipa), guest_token=token)
    dipa.refresh_from_db()
    assert dipa.guest_token == token and _log(table)[-1][1] == "seat_moved"


# --- item 10: the real seat link after a house's wrong guesses -------------------------------


def test_after_a_houses_wrong_guesses_the_real_seat_link_still_lets_the_guest_in(address):
    table, _host, dipa, _token = _table_with_dipa("faras", start=False)
    typist = Client(REMOTE_ADDR=address)
    for attempt in range(MAX_FAILED_JOINS + 5):
        typist.get(reverse("table_join", kwargs={"code": f"TYPO{attempt:02d}"}))
    wrong = reverse("table_seat_link", kwargs={"code": table.code, "seat_id": dipa.pk, "key": "0" * 32})
    assert typist.get(wrong).status_code == 429  # a guess from that address is still refused
    guest = Client(REMOTE_ADDR=address)
    link = _link(dipa)
    assert guest.get(link).status_code == 200
    moved = guest.post(link)
    assert moved.status_code == 302 and moved["Location"] == reverse("table_detail", kwargs={"code": table.code})
    dipa.refresh_from_db()
    assert dipa.guest_token == guest.session["dashain_guest_token"]


# --- item 6: the old page loses the seat, whatever the ordering ------------------------------


def _move_silently(table: Table, dipa: Seat, token: str) -> None:
    """The seat moves and the channel layer drops the news of it (at-most-once delivery)."""
    real = log_module.broadcast
    log_module.broadcast = lambda *args, **kwargs: None
    try:
        seat_link_use(code=table.code, seat_id=dipa.pk, key=seat_link_key(dipa), guest_token=token)
    finally:
        log_module.broadcast = real


async def _outcome(client: Any) -> tuple[int | None, list[dict[str, Any]]]:
    """(close code or None, the frames sent) until the socket closes or falls quiet."""
    frames = []
    while not await client.communicator.receive_nothing(timeout=1):
        out = await client.communicator.receive_output(timeout=TIMEOUT)
        if out["type"] == "websocket.close":
            return out["code"], frames
        frames.append(json.loads(out["text"]))
    return None, frames


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("read", ["snapshot", "resync"])
async def test_a_read_past_the_move_closes_the_old_page_and_it_cannot_act(read, monkeypatch):
    """The ordering of issue 34's 3 trials in 60, made certain: the move commits between the
    socket asking for a read and the read, so the read is past the ``seat_moved`` news, which
    then arrives as old news."""
    monkeypatch.setattr(TableConsumer, "quiet_seconds", 3600.0)  # no catch-up by the watcher
    table, _host, dipa, token = await database_sync_to_async(_table_with_dipa)("faras", start=False)
    connected, old, _ = await connect(table.code, guest_token=token)
    assert connected
    new_token = guest_token_new()
    moved_at: list[int] = []

    def move_then(real):
        def read(*args, **kwargs):
            if not moved_at:
                seat_link_use(code=table.code, seat_id=dipa.pk, key=seat_link_key(dipa), guest_token=new_token)
                moved_at.append(Table.objects.get(pk=table.pk).last_seq)
            return real(*args, **kwargs)

        return read

    if read == "snapshot":
        monkeypatch.setattr(what_viewers_see, "table_snapshot", move_then(what_viewers_see.table_snapshot))
        await old.send({"type": "snapshot"})
    else:
        monkeypatch.setattr(selectors, "events_after", move_then(selectors.events_after))
        await old.send({"type": "resync", "after": old.last_seq, "id": "re"})
    await old.send({"type": "seat", "verb": "sit_out", "id": "out"})
    code, frames = await _outcome(old)
    assert moved_at
    assert code == 4409
    assert not [frame for frame in frames if frame.get("type") == "ack"]
    assert not [frame for frame in frames if frame.get("type") == "snapshot" and frame["seq"] >= moved_at[0]]
    assert not [frame for frame in frames if frame.get("id") == "re"]  # the reply read past the move
    seat = await database_sync_to_async(Seat.objects.get)(pk=dipa.pk)
    assert seat.status == Seat.Status.PLAYING and seat.guest_token == new_token
    assert "seat_sat_out" not in [kind for _seq, kind in await database_sync_to_async(_log)(table)]


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize(
    "request_frame",
    [
        {"type": "seat", "verb": "sit_out"},
        {"type": "seat", "verb": "leave"},
        {"type": "seed", "seed": "ab" * 16},
        {"type": "see"},
    ],
)
async def test_no_write_of_the_old_page_is_applied_after_a_move_it_never_heard_of(request_frame, monkeypatch):
    """The news of the move is lost and no read follows: the write itself finds, under the
    table's lock, that the seat is not the socket's any more."""
    monkeypatch.setattr(TableConsumer, "quiet_seconds", 3600.0)
    table, _host, dipa, token = await database_sync_to_async(_table_with_dipa)("faras", start=True)
    connected, old, _ = await connect(table.code, guest_token=token)
    assert connected
    new_token = guest_token_new()
    # During the hand the claim waits; the news of the move at the hand's end is lost.
    await database_sync_to_async(seat_link_use)(
        code=table.code, seat_id=dipa.pk, key=await database_sync_to_async(seat_link_key)(dipa), guest_token=new_token
    )

    def end_hand_and_deal_quietly() -> None:
        real = log_module.broadcast
        log_module.broadcast = lambda *args, **kwargs: None
        try:
            _play_out_the_hand(table, dipa, random.Random(6))
            _deal_next(table)
        finally:
            log_module.broadcast = real

    await database_sync_to_async(end_hand_and_deal_quietly)()
    seat = await database_sync_to_async(Seat.objects.get)(pk=dipa.pk)
    assert seat.guest_token == new_token
    hand = await database_sync_to_async(selectors.hand_live)(table=table)
    assert hand is not None and hand.number == 2  # the seat is dealt into the next hand
    await old.communicator.receive_nothing(timeout=0.5)
    old.frames.clear()
    before = await database_sync_to_async(_log)(table)
    await old.send({**request_frame, "id": "late"})
    code, frames = await _outcome(old)
    assert code == 4409
    assert [frame.get("code") for frame in frames if frame.get("id") == "late"] == ["seat_moved"]
    assert await database_sync_to_async(_log)(table) == before
