"""Hand ranking (rule book 001, "Hand ranking"): the best five of seven, compared by value."""

from __future__ import annotations

import random

import pytest

from engine.cards import card_text, parse_cards
from engine.holdem.evaluator import CATEGORY_NAMES, best_hand, hand_value


def value(text: str) -> int:
    return hand_value(parse_cards(text.split()))


def category(text: str) -> str:
    return best_hand(parse_cards(text.split())).category


@pytest.mark.parametrize(
    ("cards", "name"),
    [
        ("Ah Kh Qh Jh Th 2c 3d", "straight_flush"),
        ("9h 8h 7h 6h 5h 2c 3d", "straight_flush"),
        ("5s 4s 3s 2s As Kd Qc", "straight_flush"),
        ("7c 7d 7h 7s Ad 2c 3d", "four_of_a_kind"),
        ("Kc Kd Ks 7h 7s 2c 3d", "full_house"),
        ("Ah 9h 7h 4h 2h Kc Kd", "flush"),
        ("Ts 9h 8d 7c 6s 2c 2d", "straight"),
        ("5d 4c 3h 2s Ad Kc 9h", "straight"),
        ("Qs Qh Qd 7c 5s 3c 2d", "three_of_a_kind"),
        ("Js Jh 4d 4c 9s 7c 2d", "two_pair"),
        ("Js Jh 8d 6c 4s 3c 2d", "pair"),
        ("As Qh 9d 7c 5s 3c 2d", "high_card"),
    ],
)
def test_categories_from_the_book(cards, name):
    assert category(cards) == name


def test_ranking_order_straight_flush_down_to_high_card():
    hands = [
        "9h 8h 7h 6h 5h 2c 3d",
        "7c 7d 7h 7s Ad 2c 3d",
        "Kc Kd Ks 7h 7s 2c 3d",
        "Ah 9h 7h 4h 2h Kc Qd",
        "Ts 9h 8d 7c 6s 2c 2d",
        "Qs Qh Qd 7c 5s 3c 2d",
        "Js Jh 4d 4c 9s 7c 2d",
        "Js Jh 8d 6c 4s 3c 2d",
        "As Qh 9d 7c 5s 3c 2d",
    ]
    values = [value(hand) for hand in hands]
    assert values == sorted(values, reverse=True)
    assert len(set(values)) == len(values)


def test_royal_flush_is_the_best_straight_flush():
    assert value("Ah Kh Qh Jh Th 2c 3d") > value("Kh Qh Jh Th 9h 2c 3d")


def test_ace_is_low_only_in_five_high_straight_the_lowest_straight():
    assert category("5d 4c 3h 2s Ad Kc 9h") == "straight"
    assert value("6d 5c 4h 3s 2d Kc 9h") > value("5d 4c 3h 2s Ad Kc 9h")
    assert best_hand(parse_cards("5d 4c 3h 2s Ad Kc 9h".split())).cards == tuple(parse_cards("5d 4c 3h 2s Ad".split()))


def test_no_straight_round_the_corner():
    assert category("Qd Kc Ah 2s 3d 8c 9h") == "high_card"


def test_kickers_compared_one_at_a_time_highest_first():
    assert value("As Ah Kd 9c 4s 3c 2d") > value("As Ah Qd Jc Ts 3c 2d")
    assert value("Js Jh 4d 4c As 7c 2d") > value("Js Jh 4d 4c Ks Qc 2d")


def test_a_sixth_or_seventh_card_never_breaks_a_tie():
    # Both play A-K-Q-J-9; the 8 and the 7 are the sixth and seventh cards.
    assert value("As Kd Qh Jc 9s 8d 2c") == value("Ac Kh Qs Jd 9h 7c 2d")


def test_suits_never_break_a_tie():
    assert value("Ah Kh Qh Jh 9h 2c 3d") == value("As Ks Qs Js 9s 2d 3c")


def test_board_plays_for_everyone():
    board = "Ts Jh Qd Kc Ah"
    assert value(board + " 2c 3d") == value(board + " 4c 5d")


def test_two_three_of_a_kind_make_the_best_full_house():
    hand = best_hand(parse_cards("Kc Kd Ks 7h 7s 7c 2d".split()))
    assert hand.category == "full_house"
    assert [card_text(c)[0] for c in hand.cards] == ["K", "K", "K", "7", "7"]


def test_three_pairs_use_the_best_two_and_the_best_kicker():
    hand = best_hand(parse_cards("Ks Kd 7h 7s 3c 3d 2c".split()))
    assert hand.category == "two_pair"
    assert [card_text(c)[0] for c in hand.cards] == ["K", "K", "7", "7", "3"]


def test_best_hand_names_five_cards_worth_the_same_value():
    rng = random.Random(4)
    for _ in range(3000):
        cards = rng.sample(range(52), 7)
        hand = best_hand(cards)
        assert len(hand.cards) == 5 and set(hand.cards) <= set(cards)
        assert hand_value(list(hand.cards)) == hand.value == hand_value(cards)
        assert hand.category in CATEGORY_NAMES


def test_agrees_with_treys_on_which_of_two_hands_is_better():
    """Differential: on random pairs of seven-card hands sharing a board, the order agrees with treys."""
    from treys import Card, Evaluator

    evaluator = Evaluator()
    rng = random.Random(11)
    for _ in range(5000):
        cards = rng.sample(range(52), 9)
        board = cards[4:]
        ours = [hand_value(cards[0:2] + board), hand_value(cards[2:4] + board)]
        theirs = [
            evaluator.evaluate([Card.new(card_text(c)) for c in hole], [Card.new(card_text(c)) for c in board])
            for hole in (cards[0:2], cards[2:4])
        ]
        assert (ours[0] > ours[1]) == (theirs[0] < theirs[1])
        assert (ours[0] == ours[1]) == (theirs[0] == theirs[1])
