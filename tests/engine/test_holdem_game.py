"""A whole hold'em game (rule book 001, "Leaving the table and winning"): the end and the placings."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.api import Action, HandResult, PotResult, TablePosition
from engine.holdem import HOLDEM
from engine.holdem.game import (
    GameProgress,
    KnockedOut,
    Placing,
    game_is_over,
    game_next_hand,
    game_placings,
    game_play,
    game_record_hand,
    game_start,
)


def random_chooser(seed):
    rng = random.Random(seed)

    def choose(state, player, legal):
        option = rng.choice(legal)
        if option.verb in ("bet", "raise"):
            amount = rng.choice((option.min, option.max, rng.randint(option.min, option.max)))
            return Action(player, option.verb, amount)
        return Action(player, option.verb)

    return choose


def passive(state, player, legal):
    verbs = [option.verb for option in legal]
    return Action(player, "check" if "check" in verbs else "fold")


def test_everyone_starts_with_1000_chips():
    progress = game_start(players=["Asha", "Bikash", "Chandra"])
    assert progress.stacks == (1000, 1000, 1000)


def test_game_of_30_hands_ends_after_30_and_the_biggest_stack_wins():
    game_settings = {"game_length": 30}
    progress, placings = game_play(
        players=["Asha", "Bikash", "Chandra"], settings=game_settings, seed=1, choose=passive
    )
    assert progress.position.hands_played == 30
    assert game_is_over(progress=progress, settings=HOLDEM.settings(game_settings))
    chips = [placing.chips for placing in placings]
    assert chips == sorted(chips, reverse=True)
    assert placings[0].place == 1 and placings[0].chips == max(progress.stacks)


def test_game_until_one_player_has_every_chip():
    progress, placings = game_play(players=["Asha", "Bikash", "Chandra", "Dev"], seed=2, choose=random_chooser(2))
    assert sorted(progress.stacks) == [0, 0, 0, 4000]
    assert placings[0].chips == 4000 and [p.place for p in placings] == [1, 2, 3, 4]
    assert game_next_hand(progress=progress, settings=HOLDEM.settings()) is None


def _progress(stacks, knocked_out=()):
    seats = tuple(stacks)
    return GameProgress(
        seats=seats,
        stacks=tuple(stacks.values()),
        position=TablePosition(hands_played=10),
        knocked_out=tuple(knocked_out),
    )


def test_players_who_went_out_are_placed_in_the_order_they_went_out():
    progress = _progress(
        {"Asha": 2500, "Bikash": 0, "Chandra": 500, "Dev": 0},
        [KnockedOut("Dev", 3, 200), KnockedOut("Bikash", 7, 400)],
    )
    assert game_placings(progress=progress) == [
        Placing("Asha", 1, 2500),
        Placing("Chandra", 2, 500),
        Placing("Bikash", 3, 0),
        Placing("Dev", 4, 0),
    ]


def test_two_out_in_the_same_hand_the_one_who_started_it_with_fewer_chips_finishes_lower():
    progress = game_start(players=["Asha", "Bikash", "Chandra"])
    plan = game_next_hand(progress=progress, settings=HOLDEM.settings())
    plan = type(plan)(
        players=(("Asha", 300), ("Bikash", 1000), ("Chandra", 1700)),
        dealer=0,
        settings=plan.settings,
        position=plan.position,
    )
    progress = GameProgress(seats=progress.seats, stacks=(300, 1000, 1700), position=progress.position)
    result = HandResult(stacks={"Asha": 0, "Bikash": 0, "Chandra": 3000}, pots=(PotResult(3000, (), ("Chandra",)),))
    progress = game_record_hand(progress=progress, plan=plan, result=result)
    assert [k.name for k in progress.knocked_out] == ["Asha", "Bikash"]
    assert [(p.name, p.place) for p in game_placings(progress=progress)] == [
        ("Chandra", 1),
        ("Bikash", 2),
        ("Asha", 3),
    ]


def test_ties_share_a_place():
    progress = _progress(
        {"Asha": 1200, "Bikash": 1200, "Chandra": 0, "Dev": 0, "Esha": 400},
        [KnockedOut("Chandra", 5, 300), KnockedOut("Dev", 5, 300)],
    )
    assert [(p.name, p.place) for p in game_placings(progress=progress)] == [
        ("Asha", 1),
        ("Bikash", 1),
        ("Esha", 3),
        ("Chandra", 4),
        ("Dev", 4),
    ]


def test_a_result_that_creates_chips_is_refused():
    progress = game_start(players=["Asha", "Bikash"])
    plan = game_next_hand(progress=progress, settings=HOLDEM.settings())
    result = HandResult(stacks={"Asha": 1500, "Bikash": 1000}, pots=())
    with pytest.raises(ValueError, match="neither create nor lose"):
        game_record_hand(progress=progress, plan=plan, result=result)


@settings(max_examples=40, deadline=None)
@given(
    seed=st.integers(min_value=0, max_value=10**9),
    count=st.integers(min_value=2, max_value=6),
    blinds_every=st.sampled_from([5, 10, 20]),
    length=st.sampled_from([None, 30, 60]),
)
def test_whole_games_no_chip_created_or_lost_placings_a_permutation_and_the_game_ends(
    seed, count, blinds_every, length
):
    players = [f"P{i}" for i in range(count)]
    total = 1000 * count
    finished_stacks = []

    def watch(events):
        for event in events:
            if event.kind == "hand_finished":
                finished_stacks.append(sum(event.data["stacks"].values()))

    game_settings = {"blinds_every": blinds_every, "game_length": length}
    progress, placings = game_play(
        players=players,
        settings=game_settings,
        seed=seed,
        choose=random_chooser(seed),
        on_events=watch,
        max_hands=3000,
    )
    # The game ended by the rules, not by the bound.
    assert game_is_over(progress=progress, settings=HOLDEM.settings(game_settings))
    if length is not None:
        assert progress.position.hands_played <= length
    # No chip created or lost, after every hand and at the end.
    assert finished_stacks and all(chips == total for chips in finished_stacks)
    assert sum(progress.stacks) == total
    # Placings: each player exactly once, places from 1, sorted.
    assert sorted(p.name for p in placings) == sorted(players)
    places = [p.place for p in placings]
    assert places == sorted(places) and places[0] == 1
    assert all(place <= index + 1 for index, place in enumerate(places))


@settings(max_examples=25, deadline=None)
@given(
    seed=st.integers(min_value=0, max_value=10**9),
    count=st.integers(min_value=2, max_value=6),
    blinds_every=st.sampled_from([5, 10, 20]),
)
def test_in_a_whole_game_the_blinds_rise_by_hand_number_and_the_button_moves_to_the_next_player_with_chips(
    seed, count, blinds_every
):
    """Book: the blinds go up every 5, 10 or 20 hands through the listed levels; the button
    moves to the next player to the left who still has chips; heads-up after going down to
    two, nobody posts the big blind twice in a row."""
    from engine.holdem.table import BLIND_LEVELS

    players = [f"P{i}" for i in range(count)]
    starts = []

    def watch(events):
        starts.extend(event.data for event in events if event.kind == "hand_started")

    game_play(
        players=players,
        settings={"blinds_every": blinds_every},
        seed=seed,
        choose=random_chooser(seed),
        on_events=watch,
        max_hands=3000,
    )
    assert starts
    for number, (before, hand) in enumerate(zip([None, *starts], starts, strict=False)):
        assert (hand["small_blind"], hand["big_blind"]) == BLIND_LEVELS[min(number // blinds_every, 15)]
        if before is None:
            assert hand["button"] == players[0]
            continue
        dealt_in = [player["name"] for player in hand["players"]]
        seat = players.index(before["button"])
        to_the_left = [players[(seat + step) % count] for step in range(1, count + 1)]
        next_with_chips = next(name for name in to_the_left if name in dealt_in)
        if len(dealt_in) > 2 or len(before["players"]) == 2:
            assert hand["button"] == next_with_chips
        else:  # just down to two: the button moves one seat further only to spare a second big blind
            assert hand["big_blind_player"] != before["big_blind_player"]
            if hand["button"] != next_with_chips:
                would_post_big_blind = next(name for name in dealt_in if name != next_with_chips)
                assert would_post_big_blind == before["big_blind_player"]
