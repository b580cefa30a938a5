"""The table around the hands (rule book 001): the button, heads-up, the blind levels."""

from __future__ import annotations

import pytest

from engine.api import TablePosition
from engine.holdem import HOLDEM
from engine.holdem.table import BLIND_LEVELS, blinds_for_hand

SETTINGS = HOLDEM.settings()


NO_HAND_YET = TablePosition()


def plan(seats, previous=NO_HAND_YET, **overrides):
    return HOLDEM.plan_hand(settings=HOLDEM.settings(overrides), seats=seats, previous=previous)


def test_first_hand_button_is_the_first_seat_and_everyone_with_chips_is_dealt_in():
    first = plan([("Asha", 1000), ("Bikash", 1000), ("Chandra", 1000)])
    assert first.players == (("Asha", 1000), ("Bikash", 1000), ("Chandra", 1000))
    assert first.dealer == 0
    assert first.position == TablePosition(dealer="Asha", big_blind="Chandra", hands_played=1)
    assert (first.settings["small_blind"], first.settings["big_blind"]) == (10, 20)


def test_button_moves_to_the_next_player_to_the_left_who_still_has_chips():
    seats = [("Asha", 1000), ("Bikash", 0), ("Chandra", 900), ("Dev", 1100)]
    nxt = plan(seats, TablePosition(dealer="Asha", big_blind="Dev", hands_played=3))
    assert [name for name, _ in nxt.players] == ["Asha", "Chandra", "Dev"]  # Bikash has no chips: not dealt in
    assert nxt.players[nxt.dealer][0] == "Chandra"
    assert nxt.position.big_blind == "Asha"


def test_button_moves_past_a_button_who_went_out():
    seats = [("Asha", 0), ("Bikash", 1000), ("Chandra", 1000), ("Dev", 1000)]
    nxt = plan(seats, TablePosition(dealer="Asha", big_blind="Chandra", hands_played=3))
    assert nxt.players[nxt.dealer][0] == "Bikash"


def test_heads_up_the_button_posts_the_small_blind():
    nxt = plan([("Asha", 1000), ("Bikash", 1000)])
    assert nxt.players[nxt.dealer][0] == "Asha" and nxt.position.big_blind == "Bikash"


def test_going_down_to_two_the_button_moves_one_seat_further_so_nobody_posts_the_big_blind_twice():
    # Asha had the button, Chandra the big blind; Asha goes out. Plain rule: Bikash's button,
    # Chandra's big blind again. The extra seat gives Chandra the button instead.
    seats = [("Asha", 0), ("Bikash", 1500), ("Chandra", 1500)]
    nxt = plan(seats, TablePosition(dealer="Asha", big_blind="Chandra", hands_played=8))
    assert nxt.players[nxt.dealer][0] == "Chandra"
    assert nxt.position.big_blind == "Bikash"


def test_going_down_to_two_without_the_extra_seat_when_nobody_would_post_twice():
    seats = [("Asha", 1500), ("Bikash", 0), ("Chandra", 1500)]
    nxt = plan(seats, TablePosition(dealer="Asha", big_blind="Chandra", hands_played=8))
    assert nxt.players[nxt.dealer][0] == "Chandra"
    assert nxt.position.big_blind == "Asha"


def test_heads_up_the_button_alternates():
    seats = [("Asha", 1000), ("Bikash", 1000)]
    first = plan(seats)
    second = plan(seats, first.position)
    third = plan(seats, second.position)
    assert [p.players[p.dealer][0] for p in (first, second, third)] == ["Asha", "Bikash", "Asha"]


def test_no_hand_with_fewer_than_two_players_with_chips():
    assert plan([("Asha", 3000), ("Bikash", 0), ("Chandra", 0)]) is None


@pytest.mark.parametrize(
    ("every", "hands_played", "blinds"),
    [
        (10, 0, (10, 20)),
        (10, 9, (10, 20)),
        (10, 10, (15, 30)),
        (10, 20, (25, 50)),
        (5, 5, (15, 30)),
        (5, 14, (25, 50)),
        (20, 19, (10, 20)),
        (20, 20, (15, 30)),
        (5, 75, (3000, 6000)),
        (5, 500, (3000, 6000)),
        (None, 500, (10, 20)),
    ],
)
def test_blinds_go_up_every_5_10_or_20_hands_through_the_books_levels(every, hands_played, blinds):
    settings = HOLDEM.settings({"blinds_every": every})
    assert blinds_for_hand(settings, hands_played) == blinds
    seats = [("Asha", 1000), ("Bikash", 1000)]
    nxt = HOLDEM.plan_hand(settings=settings, seats=seats, previous=TablePosition(hands_played=hands_played))
    assert (nxt.settings["small_blind"], nxt.settings["big_blind"]) == blinds


def test_the_books_sixteen_levels_from_10_20_to_3000_6000():
    assert len(BLIND_LEVELS) == 16
    assert BLIND_LEVELS[0] == (10, 20) and BLIND_LEVELS[-1] == (3000, 6000)
    assert all(small * 2 == big for small, big in BLIND_LEVELS)


def test_rising_blinds_from_other_starting_blinds_climb_the_levels_above_them():
    settings = HOLDEM.settings({"small_blind": 50, "big_blind": 100, "blinds_every": 5})
    assert [blinds_for_hand(settings, n) for n in (0, 5, 10)] == [(50, 100), (75, 150), (100, 200)]
