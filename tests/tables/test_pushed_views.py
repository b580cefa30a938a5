"""Each socket's screen is pushed with the news: its own view, exact, and never a hidden card.

Rules pinned (issue 13): after every change each socket receives, with the events, the
screen its page draws (the hand as its viewer may see it, the turn); a player's view is
the engine's view for that seat of the state the log holds at that seq, a watcher's is
the public view (both watchers get the same); no view holds a card its viewer was not
told of by an event already (own cards once dealt or seen, cards shown, a sideshow's
two hands to its two players); and delivering the news makes no database call: no
snapshot and no read of the log per socket.
"""

from __future__ import annotations

import random
from typing import Any

import pytest
from channels.db import database_sync_to_async

from engine.api import Action
from engine.games import get_game
from tables import selectors
from tables.live.session import TableSession
from tables.models import Event, Hand, Table
from tables.services import table_clock_run
from tests.tables.conftest import repeatable_decks
from tests.tables.leaks import _cards_in, card_owners
from tests.tables.test_consumer_play import buy_back_the_broke, open_ws_table
from tests.tables.ws import Client, play_random_hands

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(autouse=True)
def _repeatable_decks(monkeypatch):
    repeatable_decks(monkeypatch, random.Random(1313))


def _states_by_seq(table: Table) -> dict[int, tuple[int, Any, list[str]]]:
    """hand number -> its states: [(seq from which it holds, state)], rebuilt from the log."""
    game = get_game(table.game)
    out: dict[int, Any] = {}
    for hand in Hand.objects.filter(table=table).order_by("number"):
        state = selectors.hand_start_state(table=table, hand=hand)
        start = Event.objects.filter(hand=hand).order_by("seq").values_list("seq", flat=True).first()
        states = [(start, state)]
        for event in Event.objects.filter(hand=hand, kind="action", actor__isnull=False).order_by("seq"):
            payload = event.payload
            state, _ = game.apply(state, Action(str(payload["player"]), payload["verb"], payload.get("amount")))
            states.append((event.seq, state))
        out[hand.number] = (states, [str(name) for name, _stack in hand.plan["players"]])
    return out


def _state_at(states: list[tuple[int, Any]], seq: int) -> Any:
    found = None
    for since, state in states:
        if since <= seq:
            found = state
    return found


def _told_cards(client: Client, owners: dict[int, dict[str, str]]) -> list[tuple[int, set[str]]]:
    """(seq, every card named in an event this client received up to that seq), growing.
    A hand dealt before the socket connected: its own cards in the connect snapshot too."""
    told: set[str] = set()
    out = []
    for frame in client.frames:
        if frame.get("type") == "snapshot" and frame.get("hand"):
            mine = owners.get(frame["hand"]["number"], {})
            told |= {card for card in _cards_in(frame["hand"]["view"]) if mine.get(card) == client.name}
        if frame.get("type") != "events":
            continue
        for event in frame["events"]:
            if "kind" in event:
                told |= set(_cards_in(event.get("data")))
        out.append((frame["events"][-1]["seq"], set(told)))
    return out


def check_pushed_views(table: Table, clients: dict[str, Client], watchers: list[Client]) -> int:
    """Every screen every socket was pushed, against the log and the cards it was told of."""
    game = get_game(table.game)
    hands = _states_by_seq(table)
    owners = card_owners(table)
    checked = 0
    for client in [*clients.values(), *watchers]:
        told = _told_cards(client, owners)
        for screen in client.screens:
            hand = screen.get("hand")
            if not hand:
                continue
            states, players = hands[hand["number"]]
            state = _state_at(states, screen["seq"])
            viewer = client.name if client.name in players else None
            # Exact: the engine's view for this viewer of the state the log holds at that seq.
            assert hand["view"] == game.view(state, viewer), (client.name, screen["seq"])
            # Never a card the viewer was not told of by an event up to that seq.
            known = next(cards for seq, cards in told if seq == screen["seq"])
            hidden = set(_cards_in(hand["view"])) - known
            assert not hidden, (client.name, screen["seq"], hidden)
            checked += 1
    # Spectators share one public view.
    first, second = ({s["seq"]: s.get("hand") for s in watcher.screens} for watcher in watchers)
    common = [seq for seq in first if seq in second]
    assert len(common) >= len(second) - 1
    assert [first[seq] for seq in common] == [second[seq] for seq in common]
    return checked


def _between_hands(table_id: int) -> bool:
    """What the pause between hands does (here at once, by hand): buy-backs, then the next deal."""
    bought = buy_back_the_broke(table_id)
    table = Table.objects.get(pk=table_id)
    if table.status != Table.Status.PLAYING or selectors.hand_live(table=table) is not None:
        return bought
    if table.next_deal_at is None:
        return bought
    # The clock deals the next hand when its pause is over (run here at that moment).
    return "next_deal" in table_clock_run(table_id=table_id, now=table.next_deal_at) or bought


@pytest.fixture(autouse=True)
def _a_pause_between_hands(monkeypatch, settings):
    """A finished hand stays on screen until the next deal (dealt by the test, not a timer)."""
    from tables import celery_tasks

    settings.DASHAIN_NEXT_HAND_DELAY = 60
    monkeypatch.setattr(celery_tasks.clock_run, "apply_async", lambda *args, **kwargs: None)


@pytest.mark.parametrize("game, seed", [("faras", 1), ("classic", 2), ("999", 3), ("holdem", 4), ("holdem", 5)])
async def test_every_pushed_view_is_exact_and_shows_only_cards_the_viewer_was_told_of(game, seed, monkeypatch):
    calls = {"snapshot": 0, "events_after": 0}
    original_snapshot, original_events_after = TableSession.send_snapshot, selectors.events_after

    async def counted_snapshot(self):
        calls["snapshot"] += 1
        await original_snapshot(self)

    def counted_events_after(**kwargs):
        calls["events_after"] += 1
        return original_events_after(**kwargs)

    monkeypatch.setattr(TableSession, "send_snapshot", counted_snapshot)
    monkeypatch.setattr(selectors, "events_after", counted_events_after)
    rng = random.Random(seed)
    choices = {} if game == "holdem" else {"buy_in_chips": 300}
    played = checked = 0
    finished: list[dict] = []
    for _table in range(6):  # a hold'em game may end early: play another until enough was seen
        table, _seats, clients, watchers = await open_ws_table(game, 4, choices)
        connected = calls["snapshot"]

        async def on_idle(table=table) -> bool:
            return await database_sync_to_async(_between_hands)(table.pk)

        now = await play_random_hands(table.pk, clients, watchers, rng, max_actions=120 - played, on_idle=on_idle)
        # Delivering the news read nothing per socket: no snapshot asked, no gap filled.
        assert calls == {"snapshot": connected, "events_after": 0}, calls
        await database_sync_to_async(table.refresh_from_db)()
        checks = await database_sync_to_async(check_pushed_views)(table, clients, watchers)
        assert checks >= 6 * now  # every socket, after every action
        played, checked = played + now, checked + checks
        finished += [s["hand"] for s in watchers[0].screens if s.get("hand") and s["hand"]["finished"]]
        for client in [*clients.values(), *watchers]:
            await client.close()
        if played >= 50:
            break
    assert played >= 50
    assert finished, "no finished hand was pushed: its result would not be checked"
    for hand in finished:
        result = hand["view"]["result"]
        assert sum(result["payouts"].values()) == sum(pot["amount"] for pot in result["pots"])
