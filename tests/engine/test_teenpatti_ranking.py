"""Hand ranking: standard Teen Patti order (books 000, 004) and 999's digit score (book 002)."""

from itertools import combinations, pairwise

import pytest

from engine.cards import parse_cards
from engine.teenpatti.ranking import (
    CATEGORY_NAMES,
    HAND_COUNT,
    compare_hands,
    describe,
    evaluate_hand,
    hand_label,
    hand_score,
    score_table,
)


def better(first: str, second: str, **rules: str) -> int:
    return compare_hands(parse_cards(first.split()), parse_cards(second.split()), **rules)


def category(cards: str, **rules: str) -> str:
    return hand_label(hand_score(parse_cards(cards.split()), **rules), "standard")["category"]


def test_book_example_pure_sequence_234_of_hearts_beats_sequence_qka():
    assert better("2h 3h 4h", "Qs Kd Ac") == 1


def test_book_example_high_card_a73_beats_kq9():
    assert better("As 7d 3c", "Kh Qs 9d") == 1


def test_book_example_pair_compares_odd_card_88k_beats_885():
    assert better("8s 8d Kc", "8h 8c 5s") == 1


def test_book_example_trail_kkk_beats_999():
    assert better("Ks Kd Kc", "9h 9c 9s") == 1


def test_categories_from_the_top_trail_pure_sequence_sequence_colour_pair_high_card():
    ladder = ["2s 2d 2c", "4h 5h 6h", "4h 5s 6h", "2d 7d 9d", "As Ad Kc", "As Kd Jc"]
    names = [category(hand) for hand in ladder]
    assert names == ["trail", "pure_sequence", "sequence", "colour", "pair", "high_card"]
    for upper, lower in pairwise(ladder):
        assert better(upper, lower) == 1


def test_trail_of_aces_beats_the_best_pure_sequence():
    assert better("As Ah Ad", "Qc Kc Ac") == 1


def test_sequence_beats_colour_unlike_poker():
    assert better("4s 5d 6c", "As Ks 9s") == 1


def test_best_run_akq_default_then_a23_then_kqj():
    assert better("As Kd Qc", "Ah 2d 3c") == 1
    assert better("Ah 2d 3c", "Ks Qd Jc") == 1
    assert better("Ks Qd Jc", "2s 3d 4c") == 1


def test_best_run_a23_puts_a23_on_top_and_akq_second():
    assert better("Ah 2d 3c", "As Kd Qc", best_run="A23") == 1
    assert better("As Kd Qc", "Ks Qd Jc", best_run="A23") == 1


def test_ace_two_three_and_ace_king_queen_are_runs_but_king_ace_two_is_not():
    assert category("Ah 2d 3c") == "sequence"
    assert category("As Kd Qc") == "sequence"
    assert category("Ks Ad 2c") == "high_card"


def test_suits_never_break_a_tie():
    assert better("As 7d 3c", "Ah 7s 3d") == 0
    assert better("Ks Kd Kc", "Kh Kd Ks") == 0
    assert better("8s 8d Kc", "8h 8c Ks") == 0
    assert better("2h 3h 4h", "2s 3s 4s") == 0


def test_colours_compare_top_card_then_next_then_last():
    assert better("Ks 9s 2s", "Kd 8d 7d") == 1
    assert better("Ks 9s 3s", "Kd 9d 2d") == 1


def test_pair_higher_pair_wins_before_odd_card():
    assert better("9s 9d 2c", "8h 8c As") == 1


def test_digits_999_example_best_three_digit_number():
    # A=1, 2-9 as printed, 10/J/Q/K = 0; the digits make the largest number.
    assert evaluate_hand(parse_cards(["9s", "Ah", "Kd"]), ranking="digits") == 910
    assert evaluate_hand(parse_cards(["9s", "9h", "9d"]), ranking="digits") == 999
    assert evaluate_hand(parse_cards(["Ks", "Qh", "Td"]), ranking="digits") == 0
    assert evaluate_hand(parse_cards(["As", "Ah", "Ad"]), ranking="digits") == 111
    assert evaluate_hand(parse_cards(["2s", "7h", "5d"]), ranking="digits") == 752


def test_digits_999_do_not_add_card_values():
    # 5-5-5 adds to 15 but makes 555; 9-A-A adds to 11 and makes 911.
    assert better("5s 5h 5d", "9s Ah Ad", ranking="digits") == -1


def test_digits_999_categories_and_suits_do_not_score():
    assert better("4h 3h 2h", "As Ah Ad", ranking="digits") == 1  # 432 beats 111
    assert better("9s 8s 7s", "9d 8h 7c", ranking="digits") == 0


def test_digits_999_ten_and_faces_are_zero():
    assert better("9s Th Kd", "9d Jh Qc", ranking="digits") == 0  # both 900
    assert better("9s As 2d", "9d Th Kc", ranking="digits") == 1  # 921 over 900


def test_table_holds_every_three_card_hand_and_matches_the_naive_evaluation():
    for ranking, best_run in (("standard", "AKQ"), ("standard", "A23"), ("digits", "AKQ")):
        table = score_table(ranking, best_run)
        assert len(table) == HAND_COUNT == 22_100
        for hand in combinations(range(52), 3):
            a, b, c = hand
            assert table[1 << a | 1 << b | 1 << c] == evaluate_hand(hand, ranking=ranking, best_run=best_run)


def test_category_counts_match_the_known_three_card_frequencies():
    counts = dict.fromkeys(CATEGORY_NAMES, 0)
    for score in score_table().values():
        counts[CATEGORY_NAMES[score >> 12]] += 1
    assert counts == {
        "trail": 52,
        "pure_sequence": 48,
        "sequence": 720,
        "colour": 1096,
        "pair": 3744,
        "high_card": 16440,
    }


@pytest.mark.parametrize(("cards", "text"), [("As Ad Ah", "As Ad Ah: trail"), ("9s Ah Kd", "9s Ah Kd: 910")])
def test_describe_names_the_hand(cards, text):
    ranking = "digits" if text.endswith("910") else "standard"
    assert describe(parse_cards(cards.split()), ranking=ranking) == text
