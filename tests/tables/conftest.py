"""Fixtures of live play: users, a table with players seated, and random legal play."""

from __future__ import annotations

import json
import random

import pytest
from django.test import override_settings

from engine.games import get_game
from tables import selectors
from tables.models import Seat, Table
from tables.services import seat_take, table_create, table_join, table_start
from tables.state_cache import state_cache_clear


@pytest.fixture(autouse=True)
def _no_pause_between_hands():
    """Hands follow one another at once in tests (the pause is a setting)."""
    with override_settings(DASHAIN_NEXT_HAND_DELAY=0):
        yield


@pytest.fixture(autouse=True)
def _cold_state_cache():
    state_cache_clear()
    yield
    state_cache_clear()


def repeatable_decks(monkeypatch, rng: random.Random) -> None:
    """Every table opened from now on draws its secret seed and its code from ``rng``: a deck
    comes from both, so each run of a test deals the same cards."""
    from tables.services import hosting as table_services

    monkeypatch.setattr(table_services.secrets, "token_bytes", lambda n: rng.randbytes(n))
    monkeypatch.setattr(table_services.secrets, "choice", rng.choice)


def make_user(username: str):
    from django.contrib.auth import get_user_model

    return get_user_model().objects.create_user(username=username, password="x-Password-1")


def open_table(game: str = "faras", players: int = 3, choices: dict | None = None, start: bool = True):
    """A table hosted by user0 with ``players`` seated (user0 plus users), started if asked."""
    host = make_user(f"host-{random.random()}")
    table = table_create(host=host, game=game, choices=choices or {})
    seats = [Seat.objects.get(table=table, user=host)]
    for index in range(1, players):
        seats.append(
            table_join(code=table.code, invite_token=table.invite_token, user=make_user(f"p{index}-{random.random()}"))
        )
    for seat in seats:
        seat_take(table_id=table.pk, seat_id=seat.pk)
    if start:
        table_start(table_id=table.pk, seat_id=seats[0].pk)
    table.refresh_from_db()
    return table, [Seat.objects.get(pk=seat.pk) for seat in seats]


def current_turn(table: Table):
    """(player name to act, legal actions) of the live hand, or (None, [])."""
    table.refresh_from_db()
    hand = selectors.hand_live(table=table)
    if hand is None:
        return None, []
    game = get_game(table.game)
    state, _seq = selectors.hand_state(table=table, hand=hand)
    player = game.to_act(state)
    return player, game.legal_actions(state, player) if player else []


def random_action(rng: random.Random, legal):
    """A random (verb, amount) from the legal actions, leaning towards ending hands."""
    choice = rng.choice(legal)
    amount = None
    if choice.min is not None and choice.max is not None:
        amount = rng.choice([choice.min, choice.max])
    elif choice.min is not None:
        amount = choice.min
    return choice.verb, amount


@pytest.fixture(autouse=True)
def _fast_scripted_clients(monkeypatch):
    """Scripted test players send faster than people; the rate limit has its own test."""
    from tables.live.consumers import TableConsumer
    from tables.live.socket_limits import LIMITS

    monkeypatch.setattr(TableConsumer, "rate_burst", 10_000)
    monkeypatch.setattr(TableConsumer, "rate_per_second", 10_000.0)
    # The same for the limits per person and address (tests/tables/test_socket_limits.py
    # tests them): every test's sockets come from one address and start from none open.
    LIMITS.__init__()  # type: ignore[misc]
    with override_settings(
        DASHAIN_SOCKETS_PER_PERSON=10_000,
        DASHAIN_SOCKETS_PER_ADDRESS=10_000,
        DASHAIN_READS_PER_PERSON_BURST=10_000,
        DASHAIN_READS_PER_ADDRESS_BURST=10_000,
        DASHAIN_COMMANDS_PER_PERSON_BURST=10_000,
    ):
        yield
    LIMITS.__init__()  # type: ignore[misc]


def end_game(table: Table, host_seat_id: int) -> None:
    """The host ends the game and it ends: a hand under way is played out first, by the away
    rules (the clock acts for each player in turn as their time runs out), as at a real
    table whose players stop acting once the host has said the game is over."""
    from datetime import timedelta

    from django.utils import timezone

    from tables.services import table_clock_run, table_end

    table_end(table_id=table.pk, seat_id=host_seat_id)
    for _step in range(1000):
        if Table.objects.get(pk=table.pk).status == Table.Status.ENDED:
            table.refresh_from_db()
            return
        table_clock_run(table_id=table.pk, now=timezone.now() + timedelta(days=1))
    raise AssertionError("the game did not end")


def news_captured(monkeypatch) -> list[dict]:
    """Every message the writers broadcast from now on, as the channel layer hands it to
    each socket: decoded from its bytes (none reaches a channel layer)."""
    from tables.services import log

    sent: list[dict] = []

    def capture(group, frames, screen=None):
        message: dict = {"type": "table.events", "events": frames}
        if screen is not None:
            message["screen"] = screen
        sent.append(json.loads(json.dumps(message)))

    monkeypatch.setattr(log, "broadcast", capture)
    return sent
