"""Properties of single hold'em hands over random play: chips, secrets, turns (issue 4)."""

from __future__ import annotations

import pickle
import random

from hypothesis import given, settings
from hypothesis import strategies as st

from engine.api import Action
from engine.cards import card_text
from engine.fairness import seeded_deck
from engine.holdem import HOLDEM


def random_hand(seed: int):
    """Deal a random table and play random legal actions to the end: (state, start players, events)."""
    rng = random.Random(seed)
    count = rng.randint(2, 6)
    players = [(f"P{i}", rng.choice((rng.randint(1, 60), rng.randint(20, 3000)))) for i in range(count)]
    state, events = HOLDEM.start_hand(
        settings=HOLDEM.settings(), players=players, dealer=rng.randrange(count), deck=seeded_deck(seed)
    )
    events = list(events)
    steps = 0
    while not HOLDEM.is_finished(state):
        player = HOLDEM.to_act(state)
        legal = HOLDEM.legal_actions(state)
        assert legal and legal[0].verb == "fold"
        option = rng.choice(legal)
        amount = rng.randint(option.min, option.max) if option.verb in ("bet", "raise") else None
        before = sum(state.stacks) + sum(state.committed)
        state, new = HOLDEM.apply(state, Action(player, option.verb, amount))
        # Chips are only moved, never made: behind + in the pot stays the same.
        after = sum(state.stacks) + (0 if HOLDEM.is_finished(state) else sum(state.committed))
        assert after == before
        events.extend(new)
        steps += 1
        assert steps < 200
    return state, players, events


@settings(max_examples=300, deadline=None)
@given(seed=st.integers(min_value=0, max_value=2**32))
def test_no_chip_is_created_or_lost_in_a_hand_and_the_events_account_for_every_chip(seed):
    state, players, events = random_hand(seed)
    result = HOLDEM.result(state)
    assert sum(result.stacks.values()) == sum(stack for _, stack in players)
    assert all(stack >= 0 for stack in result.stacks.values())
    paid_out = sum(sum(e.data["shares"].values()) for e in events if e.kind == "pot_awarded")
    assert paid_out == sum(pot.amount for pot in result.pots)
    # Each player's chips follow from the events alone: start - put in + given back + won.
    for name, start in players:
        put_in = sum(e.data["amount"] for e in events if e.kind in ("blind", "action") and e.data["player"] == name)
        back = sum(e.data["amount"] for e in events if e.kind == "uncalled" and e.data["player"] == name)
        won = sum(e.data["shares"].get(name, 0) for e in events if e.kind == "pot_awarded")
        assert result.stacks[name] == start - put_in + back + won
    assert events[-1].kind == "hand_finished" and events[-1].data["stacks"] == dict(result.stacks)


@settings(max_examples=300, deadline=None)
@given(seed=st.integers(min_value=0, max_value=2**32))
def test_nobody_sees_another_players_hidden_cards(seed):
    """Hole cards reach only their owner; other players' cards become public only when shown;
    a mucked hand never does."""
    state, _players, events = random_hand(seed)
    hole = {name: {card_text(c) for c in state.hole[seat]} for seat, name in enumerate(state.names)}
    public: set[str] = set()  # cards anyone may know so far: the board and shown hands
    mucked = set()
    for event in events:
        if event.kind == "hole_cards":
            assert event.visible_to == frozenset({event.data["player"]})
            assert set(event.data["cards"]) == hole[event.data["player"]]
            continue
        assert event.visible_to is None
        if event.kind == "board":
            public |= set(event.data["cards"])
        if event.kind == "show":
            public |= set(event.data["cards"])
        if event.kind == "muck":
            mucked.add(event.data["player"])
            assert set(event.data) == {"player"}
        mentioned = {word for word in repr(event.data).replace("'", " ").split() if word in _CARD_WORDS}
        assert mentioned <= public, (event, mentioned - public)
    for name in mucked:
        assert not hole[name] & public - _board(state)
    for viewer in [*state.names, None]:
        view = HOLDEM.view(state, viewer)
        for player in view["players"]:
            if player["cards"] is not None and player["name"] != viewer:
                assert set(player["cards"]) <= public
            if player["name"] in mucked and player["name"] != viewer:
                assert player["cards"] is None


_CARD_WORDS = {card_text(card) for card in range(52)}


def _board(state):
    return {card_text(c) for c in state.board}


@settings(max_examples=100, deadline=None)
@given(seed=st.integers(min_value=0, max_value=2**32))
def test_only_the_player_to_act_may_act_and_a_refusal_changes_nothing(seed):
    rng = random.Random(seed)
    players = [(f"P{i}", 1000) for i in range(rng.randint(2, 6))]
    state, _ = HOLDEM.start_hand(settings=HOLDEM.settings(), players=players, dealer=0, deck=seeded_deck(seed))
    while not HOLDEM.is_finished(state):
        to_act = HOLDEM.to_act(state)
        for name, _ in players:
            if name != to_act:
                assert HOLDEM.legal_actions(state, name) == []
        option = rng.choice(HOLDEM.legal_actions(state))
        amount = rng.randint(option.min, option.max) if option.verb in ("bet", "raise") else None
        state, _ = HOLDEM.apply(state, Action(to_act, option.verb, amount))
    assert HOLDEM.to_act(state) is None and HOLDEM.legal_actions(state) == []


def test_a_hand_state_survives_pickling_for_caches():
    state, _, _ = random_hand(7)
    again = pickle.loads(pickle.dumps(state))
    assert HOLDEM.view(again, None) == HOLDEM.view(state, None)
