"""Pass and play over the real socket: what the host's phone is sent, and what it may do.

Rules pinned (issue 15, book 001: "the cards stay hidden while the phone is passed"):
- every frame sent to a pass-and-play phone, over random hands of each of the four games,
  holds no hidden card of any seat other than the one holding the phone, and none at all
  while nobody holds it (cards turned up at a show are everyone's); the card owners come
  from the deal itself, not from the server's filter (``tests.tables.leaks``);
- the phone is held only on the holder's turn: when the turn leaves the holder the very
  frame that says so is filtered as nobody's, and names whom to pass to;
- moves from the phone are refused while nobody holds it, a tap as a seat that is not
  this phone's or not on turn is refused, a stranger's socket cannot hold a local seat,
  and each refusal changes nothing;
- the phone buys in again for its players as the book allows (between hands, within the
  host's buy-backs, not in hold'em); any other buy-back from it, or for its players from
  another socket, is refused with its reason and changes no chip, no ledger line, no seat.
"""

from __future__ import annotations

import random
from datetime import timedelta
from typing import Any

import pytest
from channels.db import database_sync_to_async
from django.utils import timezone

from ledger.models import LedgerEntry, TableLedger
from tables.models import Event, Seat, Table
from tables.services import local_player_add, seat_buy_back, table_start
from tables.services.clock_run import table_clock_run
from tables.services.computers import computer_add
from tests.tables.conftest import open_table, repeatable_decks
from tests.tables.leaks import card_owners, cards_revealed, phone_leaks
from tests.tables.ws import Client, connect, pick_action, sync_all, users_of

pytestmark = pytest.mark.django_db(transaction=True)

PLAY_CHIPS = {"buy_in_price": "0.00"}


@pytest.fixture(autouse=True)
def _repeatable_decks(monkeypatch):
    # Seed and code fixed, so each run plays the same hands (with a random code the hold'em
    # game ended before 35 actions one run in four).
    repeatable_decks(monkeypatch, random.Random(1515))


@pytest.fixture(autouse=True)
def _computers_at_once(settings):
    settings.DASHAIN_COMPUTER_PAUSE = 0


def _pass_and_play_table(game: str, *, remote: bool) -> tuple[Table, list[Seat], dict[str, Seat]]:
    """The host seated, two local players (Asha, Bikash), a computer, and with ``remote`` a
    player on their own phone; play chips; started."""
    choices = {**PLAY_CHIPS, **({} if game == "holdem" else {"buy_in_chips": 300})}
    table, seats = open_table(game, players=2 if remote else 1, choices=choices, start=False)
    host = seats[0]
    local = {
        "asha": local_player_add(table_id=table.pk, seat_id=host.pk, name="Asha"),
        "bikash": local_player_add(table_id=table.pk, seat_id=host.pk, name="Bikash"),
        "computer": computer_add(table_id=table.pk, seat_id=host.pk, strength="normal"),
    }
    table_start(table_id=table.pk, seat_id=host.pk)
    table.refresh_from_db()
    return table, seats, local


def _between_hands(table_id: int) -> bool:
    """Nobody is to act: players short of the boot buy back, then the clock does what is due
    (a computer's move, the next deal). Returns whether play can go on."""
    table = Table.objects.get(pk=table_id)
    if table.status != Table.Status.PLAYING:
        return False
    before = table.last_seq
    boot = table.settings["engine"].get("boot", 1)
    for seat in Seat.objects.filter(table=table, number__isnull=False, stack__lt=boot, computer=""):
        seat_buy_back(table_id=table_id, seat_id=seat.pk)
    table_clock_run(table_id=table_id, now=timezone.now() + timedelta(seconds=60))
    return Table.objects.get(pk=table_id).last_seq > before


def _computer_moves(table_id: int) -> None:
    table_clock_run(table_id=table_id, now=timezone.now() + timedelta(seconds=60))


def _phone_of(client: Client) -> dict[str, Any]:
    """The latest pass-and-play state the phone was sent."""
    for frame in reversed(client.frames):
        if "phone" in frame:
            return frame["phone"]
    raise AssertionError("the host's socket was never told it is a phone")


def _log(table: Table) -> list[int]:
    return list(Event.objects.filter(table=table).order_by("seq").values_list("seq", flat=True))


# --- the check: no frame shows the phone a card of anyone but its holder --------------------


async def _hold(phone: Client, seat: int) -> None:
    reply = await phone.request({"type": "hold", "seat": seat})
    assert reply == {"type": "ack", "holding": seat, "id": reply["id"]}, reply
    assert _phone_of(phone)["holding"] == seat


async def play_on_the_phone(game: str, seed: int, actions: int) -> tuple[dict[str, Any], dict[str, int]]:
    rng = random.Random(seed)
    table, seats, local = await database_sync_to_async(_pass_and_play_table)(game, remote=False)
    (host_user,) = await users_of(seats[:1])
    connected, phone, _code = await connect(table.code, user=host_user)
    assert connected
    computer = local["computer"].pk
    counts = {"actions": 0, "holds": 0, "sees": 0, "releases": 0, "refusals": 0}
    for _ in range(actions * 3):
        if counts["actions"] >= actions:
            break
        await sync_all(table.pk, [phone])
        turn = phone.turn
        if turn is None or not turn.get("legal"):
            if not await database_sync_to_async(_between_hands)(table.pk):
                break
            continue
        player = int(turn["player"])
        if player == computer:
            await database_sync_to_async(_computer_moves)(table.pk)
            continue
        state = _phone_of(phone)
        if state["holding"] != player:
            assert state["holding"] is None and state["pass_to"] == player, state
            if rng.random() < 0.2:  # someone else taps first: refused, nothing changes
                other = rng.choice([seat for seat in state["seats"] if seat != player])
                refused = await phone.request({"type": "hold", "seat": other})
                assert refused["code"] == "not_their_turn", refused
                counts["refusals"] += 1
            await _hold(phone, player)
            counts["holds"] += 1
        if rng.random() < 0.1:  # the holder hides their cards and taps again
            reply = await phone.request({"type": "hold", "seat": None})
            assert reply["type"] == "ack" and _phone_of(phone) == {**state, "holding": None, "pass_to": player}
            await _hold(phone, player)
            counts["releases"] += 1
        if rng.random() < 0.1:
            await phone.snapshot_now()
        legal = phone.turn["legal"]
        if any(entry["verb"] == "see" for entry in legal) and rng.random() < 0.5:
            reply = await phone.request({"type": "see"})
            assert reply["type"] == "ack", reply
            counts["sees"] += 1
            continue
        verb, amount = pick_action(rng, [entry for entry in legal if entry["verb"] != "see"] or legal)
        reply = await phone.request({"type": "action", "verb": verb, "amount": amount})
        assert reply["type"] == "ack", reply
        counts["actions"] += 1
    await sync_all(table.pk, [phone])
    owners = await database_sync_to_async(card_owners)(table)
    reveals = await database_sync_to_async(cards_revealed)(table)
    result = phone_leaks(phone.frames, owners, reveals)
    await phone.close()
    return result, counts


@pytest.mark.parametrize(
    ("game", "seed", "actions"), [("faras", 1, 70), ("classic", 2, 60), ("999", 3, 60), ("holdem", 4, 70)]
)
async def test_no_frame_shows_the_phone_a_card_of_anyone_but_its_holder(game, seed, actions):
    result, counts = await play_on_the_phone(game, seed, actions)
    assert result["leaks"] == [], result["leaks"][:5]
    # The check proved something: holders saw their own cards, frames went out with nobody
    # holding, and the phone was passed many times.
    assert result["own_cards"] > 0 and result["view_cards"] > 0, result
    assert result["frames_nobody_holds"] > 10 and result["frames_held"] > 10, result
    assert counts["holds"] > 10 and counts["actions"] >= actions // 2, counts
    if game != "holdem":
        assert counts["sees"] > 0, counts


def test_the_check_finds_a_card_shown_to_the_wrong_holder():
    """The check can fail: a frame naming Asha's card while Bikash holds is a leak."""
    owners = {1: {"As": "11", "Kd": "12"}}
    frame = {
        "type": "events",
        "phone": {"seats": [10, 11, 12], "holding": 12, "pass_to": None},
        "events": [{"seq": 5, "kind": "hole_cards", "hand": 1, "data": {"player": "11", "cards": ["As"]}}],
    }
    assert phone_leaks([frame], owners, [])["leaks"] == [("12", 5, "hole_cards", "As", "11")]
    nobody = {**frame, "phone": {"seats": [10, 11, 12], "holding": None, "pass_to": None}}
    assert phone_leaks([nobody], owners, [])["leaks"] == [("nobody", 5, "hole_cards", "As", "11")]


# --- abuse --------------------------------------------------------------------------------


async def _phone_and_stranger(game: str = "holdem"):
    table, seats, local = await database_sync_to_async(_pass_and_play_table)(game, remote=True)
    host_user, remote_user = await users_of(seats)
    connected, phone, _code = await connect(table.code, user=host_user)
    assert connected
    connected, stranger, _code = await connect(table.code, user=remote_user)
    assert connected
    return table, seats, local, phone, stranger


async def _until_a_phone_seat_is_to_act(table: Table, phone: Client, stranger: Client, computer: int) -> int:
    """Let the computer and the stranger play (check or call) until a seat of the phone is to act."""
    for _ in range(50):
        await sync_all(table.pk, [phone, stranger])
        player = int(phone.turn["player"])
        if player in _phone_of(phone)["seats"]:
            return player
        if player == computer:
            await database_sync_to_async(_computer_moves)(table.pk)
            continue
        verbs = [entry["verb"] for entry in phone.turn["legal"]]
        verb = next(v for v in ("check", "call", "chaal", "fold", "pack") if v in verbs)
        reply = await stranger.request({"type": "action", "verb": verb})
        assert reply["type"] == "ack", reply
    raise AssertionError("no seat of the phone came to act")


async def _refused_on(client: Client, table: Table, message: dict[str, Any], code: str) -> None:
    before = await database_sync_to_async(_log)(table)
    reply = await client.request(message)
    assert (reply["type"], reply["code"]) == ("error", code), reply
    assert reply["message"]
    assert await database_sync_to_async(_log)(table) == before


async def test_the_phone_shows_the_public_table_and_moves_nobody_until_someone_taps():
    table, seats, local, phone, stranger = await _phone_and_stranger()
    host, _remote = seats
    first = phone.snapshots[0]
    assert first["you"] == host.pk
    assert first["phone"]["seats"] == [host.pk, local["asha"].pk, local["bikash"].pk]
    assert first["phone"]["holding"] is None
    assert "phone" not in stranger.snapshots[0]  # an ordinary player's socket is no phone
    player = await _until_a_phone_seat_is_to_act(table, phone, stranger, local["computer"].pk)
    assert _phone_of(phone)["pass_to"] == player
    await _refused_on(phone, table, {"type": "action", "verb": "fold"}, "not_holding")
    await _refused_on(phone, table, {"type": "action", "verb": "call"}, "not_holding")
    await _refused_on(phone, table, {"type": "see"}, "not_holding")
    # The page's view is the public one: no seat's cards at all.
    snapshot = await phone.snapshot_now()
    assert all(not p.get("cards") for p in snapshot["hand"]["view"]["players"])
    assert snapshot["hand"]["view"].get("legal") in (None, [])
    await _hold(phone, player)
    mine = phone.snapshots[-1]["hand"]["view"]
    assert [p for p in mine["players"] if p.get("cards")] == [
        p for p in mine["players"] if str(p["name"]) == str(player)
    ]
    assert mine["legal"], "the holder gets their own legal moves"
    await phone.close()
    await stranger.close()


async def test_a_tap_as_another_seat_is_refused_and_the_holder_keeps_the_phone():
    table, seats, local, phone, stranger = await _phone_and_stranger()
    _host, remote = seats
    player = await _until_a_phone_seat_is_to_act(table, phone, stranger, local["computer"].pk)
    await _hold(phone, player)
    others = [seat for seat in _phone_of(phone)["seats"] if seat != player]
    for other in others:
        await _refused_on(phone, table, {"type": "hold", "seat": other}, "not_their_turn")
    for target in (remote.pk, local["computer"].pk, 10**9):
        await _refused_on(phone, table, {"type": "hold", "seat": target}, "not_on_this_phone")
    for target in ("1", True, [player]):
        await _refused_on(phone, table, {"type": "hold", "seat": target}, "bad_seat")
    assert _phone_of(phone)["holding"] == player  # still the holder's: refusals change nothing
    # A frame naming another seat still plays for the holder only (the server ignores it).
    verbs = [entry["verb"] for entry in phone.turn["legal"]]
    verb = next(v for v in ("check", "call") if v in verbs)
    reply = await phone.request({"type": "action", "verb": verb, "seat": others[0], "player": str(others[0])})
    assert reply["type"] == "ack"
    actor = await database_sync_to_async(lambda: Event.objects.get(table=table, seq=reply["seq"]).actor_id)()
    assert actor == player
    await phone.close()
    await stranger.close()


async def test_the_turn_leaving_the_holder_hides_their_cards_in_the_same_frame():
    table, _seats, local, phone, stranger = await _phone_and_stranger()
    player = await _until_a_phone_seat_is_to_act(table, phone, stranger, local["computer"].pk)
    await _hold(phone, player)
    count = len(phone.frames)
    verbs = [entry["verb"] for entry in phone.turn["legal"]]
    verb = next(v for v in ("check", "call") if v in verbs)
    reply = await phone.request({"type": "action", "verb": verb})
    assert reply["type"] == "ack"
    await sync_all(table.pk, [phone, stranger])
    news = [frame for frame in phone.frames[count:] if frame.get("type") == "events"]
    assert news and all(frame["phone"]["holding"] is None for frame in news)
    view = news[0]["screen"]["hand"]["view"]
    assert all(not p.get("cards") for p in view["players"]), view
    await _refused_on(phone, table, {"type": "action", "verb": "fold"}, "not_holding")
    await phone.close()
    await stranger.close()


async def test_a_strangers_socket_cannot_hold_or_move_a_local_seat():
    table, seats, local, phone, stranger = await _phone_and_stranger("faras")
    player = await _until_a_phone_seat_is_to_act(table, phone, stranger, local["computer"].pk)
    for target in (player, local["asha"].pk, local["bikash"].pk, seats[0].pk):
        await _refused_on(stranger, table, {"type": "hold", "seat": target}, "not_your_phone")
    await _refused_on(stranger, table, {"type": "hold", "seat": None}, "not_pass_and_play")
    await _refused_on(stranger, table, {"type": "seat", "verb": "sit_out", "seat": local["asha"].pk}, "not_your_phone")
    # An action naming the local player is the stranger's own (and not their turn).
    await _refused_on(stranger, table, {"type": "action", "verb": "pack", "seat": player}, "not_your_turn")
    # Their own look at their cards out of turn is theirs to take, as on any phone.
    reply = await stranger.request({"type": "see"})
    assert reply["type"] == "ack"
    await phone.close()
    await stranger.close()


async def test_the_phone_manages_its_players_seats_between_hands():
    table, seats, local, phone, stranger = await _phone_and_stranger("faras")
    reply = await phone.request({"type": "seat", "verb": "sit_out", "seat": local["asha"].pk})
    assert reply["type"] == "ack", reply
    status = await database_sync_to_async(lambda: Seat.objects.get(pk=local["asha"].pk).status)()
    assert status == Seat.Status.SITTING_OUT
    await _refused_on(phone, table, {"type": "seat", "verb": "sit_out", "seat": seats[1].pk}, "not_on_this_phone")
    await phone.close()
    await stranger.close()


async def test_a_host_who_adds_a_player_mid_hand_sees_the_public_table_at_once():
    """Teen Patti seats people while a game is under way (dealt in from the next hand): the host who has looked at
    their cards adds a local player; their socket becomes the phone and is sent the public
    view in place of their own (no card of theirs stays on the page)."""
    table, seats = await database_sync_to_async(open_table)("faras", 2, {**PLAY_CHIPS, "buy_in_chips": 300})
    host, _friend = seats
    host_user, _friend_user = await users_of(seats)
    connected, socket, _code = await connect(table.code, user=host_user)
    assert connected
    reply = await socket.request({"type": "see"})
    assert reply["type"] == "ack"
    await sync_all(table.pk, [socket])
    assert socket.screens[-1]["hand"]["view"]["your_cards"], "the host looked: their cards are on the page"
    await database_sync_to_async(local_player_add)(table_id=table.pk, seat_id=host.pk, name="Late")
    count = len(socket.frames)
    await sync_all(table.pk, [socket])
    after = socket.frames[count:]
    assert [frame["type"] for frame in after] == ["snapshot"], after  # the view replaced, not the news applied
    snapshot = after[0]
    assert snapshot["phone"]["holding"] is None and snapshot["you"] == host.pk
    assert all(not p.get("cards") for p in snapshot["hand"]["view"]["players"])
    assert not snapshot["hand"]["view"].get("your_cards")
    await socket.close()


async def test_a_tap_answered_after_the_turn_moved_on_shows_nobodys_cards(monkeypatch):
    """The tap is checked, then the view read: if the turn left the seat in between, the view
    is read again as nobody's (the race is forced here by a check that lets a late tap through)."""
    from tables import services as table_services

    table, _seats, local, phone, stranger = await _phone_and_stranger()
    player = await _until_a_phone_seat_is_to_act(table, phone, stranger, local["computer"].pk)
    late = next(seat for seat in _phone_of(phone)["seats"] if seat != player)
    real_check = table_services.phone_hold_check

    def late_check(**kwargs):
        _seat, phone_seats = real_check(**{**kwargs, "hold_seat_id": player})
        return Seat.objects.get(pk=late), phone_seats

    monkeypatch.setattr(table_services, "phone_hold_check", late_check)
    count = len(phone.frames)
    reply = await phone.request({"type": "hold", "seat": late})
    assert reply == {"type": "ack", "holding": None, "id": reply["id"]}
    snapshots = [frame for frame in phone.frames[count:] if frame.get("type") == "snapshot"]
    assert snapshots and snapshots[-1]["phone"]["holding"] is None
    assert all(not p.get("cards") for p in snapshots[-1]["hand"]["view"]["players"])
    await phone.close()
    await stranger.close()


async def test_a_reconnected_phone_starts_with_nobody_holding_it():
    table, seats, local, phone, stranger = await _phone_and_stranger()
    player = await _until_a_phone_seat_is_to_act(table, phone, stranger, local["computer"].pk)
    await _hold(phone, player)
    await phone.close()
    (host_user,) = await users_of(seats[:1])
    connected, again, _code = await connect(table.code, user=host_user)
    assert connected
    snapshot = again.snapshots[0]
    assert snapshot["phone"]["holding"] is None and snapshot["phone"]["pass_to"] == player
    assert all(not p.get("cards") for p in snapshot["hand"]["view"]["players"])
    await again.close()
    await stranger.close()


def _act_unheard(table_id: int, seat_id: int, verb: str) -> int:
    """The holder's move is made and its news lost on the way (the channel layer may drop it)."""
    import tables.services.log as log_module
    from tables.services import hand_act

    real = log_module.broadcast
    log_module.broadcast = lambda *args, **kwargs: None
    try:
        return hand_act(table_id=table_id, seat_id=seat_id, verb=verb)
    finally:
        log_module.broadcast = real


async def test_news_caught_up_from_the_log_hides_the_holders_cards_once_the_turn_moved_on():
    table, _seats, local, phone, stranger = await _phone_and_stranger()
    player = await _until_a_phone_seat_is_to_act(table, phone, stranger, local["computer"].pk)
    await _hold(phone, player)
    verbs = [entry["verb"] for entry in phone.turn["legal"]]
    verb = next(v for v in ("check", "call") if v in verbs)
    seq = await database_sync_to_async(_act_unheard)(table.pk, player, verb)
    count = len(phone.frames)
    pong = await phone.request({"type": "ping"})  # the page's heartbeat: what was missed comes from the log
    assert pong["seq"] >= seq
    caught = [frame for frame in phone.frames[count:] if frame.get("type") == "events"]
    assert caught and caught[-1]["phone"]["holding"] is None
    assert all(not p.get("cards") for p in caught[-1]["screen"]["hand"]["view"]["players"])
    assert all(set(event) == {"seq"} or event.get("kind") != "hole_cards" for event in caught[-1]["events"])
    await phone.close()
    await stranger.close()


# --- the phone's "buy in again": what the book does not allow is refused and costs nothing ----


def _money_and_seats(table: Table) -> dict[str, Any]:
    """Everything a buy-back would change: the ledger's totals and entries, every seat's chips
    and buy-ins, and the log."""
    ledger = TableLedger.objects.filter(table=table).values("chips_bought", "chips_cashed_out", "money_paid").first()
    return {
        "ledger": ledger,
        "entries": LedgerEntry.objects.filter(table=table).count(),
        "seats": list(
            Seat.objects.filter(table=table)
            .order_by("pk")
            .values_list("pk", "number", "status", "stack", "buy_ins", "buy_backs_used")
        ),
        "log": _log(table),
    }


async def _buy_back_refused(client: Client, table: Table, seat: Any, code: str) -> None:
    before = await database_sync_to_async(_money_and_seats)(table)
    reply = await client.request({"type": "seat", "verb": "buy_back", "seat": seat})
    assert (reply["type"], reply["code"]) == ("error", code), reply
    assert reply["message"]
    assert await database_sync_to_async(_money_and_seats)(table) == before


async def _host_phone_with_asha(*, buy_backs: int) -> tuple[Table, Any, Client]:
    """A Faras table not yet started whose host's phone holds one player, Asha; the phone connected."""
    table, seats = await database_sync_to_async(open_table)("faras", 1, {"buy_backs": buy_backs}, False)
    asha = await database_sync_to_async(local_player_add)(table_id=table.pk, seat_id=seats[0].pk, name="Asha")
    (host_user,) = await users_of(seats)
    connected, phone, _code = await connect(table.code, user=host_user)
    assert connected
    return table, asha, phone


async def test_the_phone_buys_in_again_for_its_player_between_hands():
    """The control for the refusals below: allowed, a buy-back adds one buy-in, in the ledger too."""
    table, asha, phone = await _host_phone_with_asha(buy_backs=1)
    before = await database_sync_to_async(_money_and_seats)(table)
    reply = await phone.request({"type": "seat", "verb": "buy_back", "seat": asha.pk})
    assert reply["type"] == "ack", reply
    after = await database_sync_to_async(_money_and_seats)(table)
    chips = table.buy_in_chips
    assert after["ledger"]["chips_bought"] == before["ledger"]["chips_bought"] + chips
    assert after["entries"] == before["entries"] + 1
    bought = next(row for row in after["seats"] if row[0] == asha.pk)
    assert bought[3:] == (2 * chips, 2, 1)
    # Its one buy-back used (the host allowed one): a second is refused and changes nothing.
    await _buy_back_refused(phone, table, asha.pk, "no_buy_backs_left")
    await phone.close()


async def test_a_buy_back_the_book_does_not_allow_is_refused_from_the_phone_and_changes_nothing():
    # During a hand its player is in (book 000: "between hands you can buy in again").
    table, seats, local, phone, stranger = await _phone_and_stranger("faras")
    await sync_all(table.pk, [phone, stranger])
    for player in (local["asha"].pk, local["bikash"].pk):
        await _buy_back_refused(phone, table, player, "hand_in_progress")
    # Not a seat of this phone: another player's, a computer's, none at all; or not a seat id.
    for target in (seats[1].pk, local["computer"].pk, 10**9):
        await _buy_back_refused(phone, table, target, "not_on_this_phone")
    for target in ("1", True, [local["asha"].pk]):
        await _buy_back_refused(phone, table, target, "bad_seat")
    # Another player's socket cannot buy for the phone's players.
    await _buy_back_refused(stranger, table, local["asha"].pk, "not_your_phone")
    await phone.close()
    await stranger.close()


async def test_the_phone_buys_back_nobody_where_the_host_allows_none_or_the_game_has_no_rebuys():
    table, asha, phone = await _host_phone_with_asha(buy_backs=0)
    await _buy_back_refused(phone, table, asha.pk, "no_buy_backs_left")
    await phone.close()
    # Hold'em: everyone starts with the same chips and nobody buys more (book 001).
    table, _seats, local, phone, stranger = await _phone_and_stranger("holdem")
    await _buy_back_refused(phone, table, local["asha"].pk, "not_supported")
    await phone.close()
    await stranger.close()
