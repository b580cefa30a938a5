"""The variants' hand rankings (docs/rules.md, "Variants"): Muflis, AK47, Joker, Four-card.

Each test is named after the choice it pins; docs/rules.md cites them.
"""

import random
from itertools import combinations, pairwise, product

import pytest

from engine.cards import card_text, parse_card, parse_cards
from engine.teenpatti.ranking import CATEGORY_NAMES, HAND_COUNT, evaluate_hand, hand_score, score_table
from engine.teenpatti.variants import (
    AK47_RANKS,
    MUFLIS_TOP,
    compare_variant,
    four_card_hand,
    joker_hand,
    joker_ranks,
    variant_hand,
)

EXAMPLES = 400  # random hands per property test (bounded by count, not time)


def better(first: str, second: str, variant: str, turned: str | None = None, best_run: str = "AKQ") -> int:
    return compare_variant(
        parse_cards(first.split()),
        parse_cards(second.split()),
        variant=variant,
        best_run=best_run,
        turned=None if turned is None else parse_card(turned),
    )


def label(cards: str, variant: str, turned: str | None = None) -> dict:
    hand = variant_hand(
        parse_cards(cards.split()), variant=variant, turned=None if turned is None else parse_card(turned)
    )
    return hand.label(variant)


# --- Muflis ------------------------------------------------------------------------------------


@pytest.mark.parametrize("best_run", ["AKQ", "A23"])
def test_muflis_every_hand_ranks_in_the_reverse_order(best_run):
    hands = sorted(score_table("standard", best_run))  # every one of the 22,100 hands (as bit keys)
    cards = {key: tuple(card for card in range(52) if key >> card & 1) for key in hands}
    standard = {key: hand_score(cards[key], best_run=best_run) for key in hands}
    muflis = {key: variant_hand(cards[key], variant="muflis", best_run=best_run).score for key in hands}
    order = sorted(hands, key=lambda key: standard[key])
    assert len(order) == HAND_COUNT
    for low, high in pairwise(order):
        if standard[low] == standard[high]:
            assert muflis[low] == muflis[high]  # exact ties stay ties
        else:
            assert muflis[low] > muflis[high]  # every other pair swaps


def test_muflis_trail_of_aces_is_the_worst_hand_and_532_the_best():
    scores = {variant_hand(hand, variant="muflis").score for hand in combinations(range(52), 3)}
    worst = variant_hand(parse_cards("As Ah Ad".split()), variant="muflis").score
    best = variant_hand(parse_cards("5s 3h 2d".split()), variant="muflis").score
    assert worst == min(scores) and best == max(scores)


def test_muflis_categories_from_the_top_high_card_pair_colour_sequence_pure_sequence_trail():
    ladder = ["As Kd Jc", "As Ad Kc", "2d 7d 9d", "4h 5s 6h", "4h 5h 6h", "2s 2d 2c"]
    assert [label(hand, "muflis")["category"] for hand in ladder] == [
        "high_card",
        "pair",
        "colour",
        "sequence",
        "pure_sequence",
        "trail",
    ]
    for upper, lower in pairwise(ladder):
        assert better(upper, lower, "muflis") == 1


def test_muflis_the_lowest_trail_222_beats_every_higher_trail():
    assert better("2s 2d 2c", "3s 3d 3c", "muflis") == 1
    assert better("Ks Kd Kc", "As Ad Ac", "muflis") == 1


def test_muflis_ace_is_high_so_a73_loses_to_kq9():
    assert better("Kh Qs 9d", "As 7d 3c", "muflis") == 1


def test_muflis_high_cards_compare_the_top_card_first_then_the_next():
    assert better("9s 4d 2c", "Ts 3d 2h", "muflis") == 1  # 9 below 10
    assert better("9s 3d 2c", "9h 4d 2h", "muflis") == 1  # same top, 3 below 4


def test_muflis_runs_432_lowest_then_up_to_kqj_then_a23_then_akq_worst():
    ladder = ["4s 3d 2c", "5s 4d 3c", "Ks Qd Jc", "As 2d 3c", "As Kd Qc"]  # best first in Muflis
    for upper, lower in pairwise(ladder):
        assert better(upper, lower, "muflis") == 1


def test_muflis_with_best_run_a23_a23_is_the_worst_run():
    assert better("As Kd Qc", "As 2d 3c", "muflis", best_run="A23") == 1


def test_muflis_pairs_the_lower_pair_wins_then_the_lower_odd_card():
    assert better("2s 2d 3c", "3s 3d 2c", "muflis") == 1
    assert better("8s 8d 5c", "8h 8c Ks", "muflis") == 1


def test_muflis_suits_never_break_a_tie():
    assert better("5s 3h 2d", "5c 3d 2h", "muflis") == 0


# --- jokers (AK47 and Joker) --------------------------------------------------------------------


def test_ak47_jokers_are_every_ace_king_four_and_seven():
    assert AK47_RANKS == {14, 13, 4, 7}
    assert joker_ranks("ak47", None) == AK47_RANKS
    assert label("As 9d 9c", "ak47") == {"category": "trail", "cards": ["9s", "9d", "9c"], "jokers": 1}


def test_joker_variant_every_card_of_the_turned_rank_is_a_joker():
    assert joker_ranks("joker", parse_card("7h")) == {7}
    assert label("7s 9d 9c", "joker", turned="7h")["category"] == "trail"
    assert label("7s 9d 9c", "joker", turned="8h")["category"] == "pair"


def test_joker_a_single_joker_completes_a_pure_sequence():
    assert label("4s 9h Th", "ak47") == {"category": "pure_sequence", "cards": ["Jh", "9h", "Th"], "jokers": 1}


def test_joker_two_jokers_make_a_trail_of_the_natural_card():
    assert label("As Kd 9c", "ak47") == {"category": "trail", "cards": ["9s", "9h", "9c"], "jokers": 2}


def test_joker_three_jokers_are_a_trail_of_aces_tying_a_natural_one():
    assert label("As Kd 7c", "ak47")["category"] == "trail"
    assert label("5h 5d 5c", "joker", turned="5s")["cards"] == ["As", "Ah", "Ad"]
    assert better("5h 5d 5c", "Ah Ad Ac", "joker", turned="5s") == 0


def test_joker_completing_a_trail_ties_a_natural_trail_of_the_same_rank():
    # Joker variant with 7s turned: 7d is a joker, so 9s 9h 7d is a trail of nines and scores
    # exactly as the natural trail 9s 9h 9d does (book 002: no priority either way).
    assert better("9s 9h 7d", "9s 9h 9d", "joker", turned="7s") == 0
    assert better("9s 9h 7d", "Ts Th Td", "joker", turned="7s") == -1
    assert better("9s 9h 7d", "8s 8h 8d", "joker", turned="7s") == 1


def test_joker_natural_and_joker_hands_of_equal_value_tie_exactly():
    assert label("Qs Jd 4c", "joker", turned="4h") == {"category": "sequence", "cards": ["Qs", "Jd", "Ks"], "jokers": 1}
    assert better("Qs Jd 4c", "Kh Qc Jd", "joker", turned="4h") == 0  # K-Q-J each


def test_joker_a_joker_stands_for_a_card_not_among_the_naturals():
    hand = joker_hand(parse_cards("9s 9h 7d".split()), frozenset({7}))
    assert len(set(hand.played)) == 3 and card_text(hand.played[2])[0] == "9"


def test_joker_a_joker_hand_never_ranks_below_the_same_cards_without_jokers():
    rng = random.Random(29)
    for _ in range(EXAMPLES):
        cards = rng.sample(range(52), 3)
        turned = rng.choice([card for card in range(52) if card not in cards])
        for variant in ("ak47", "joker"):
            assert variant_hand(cards, variant=variant, turned=turned).score >= hand_score(cards)


def test_joker_repeating_a_card_would_change_nothing():
    """The brute force over different cards equals a free choice of any card for each joker
    (a card may repeat), scored from scratch."""
    rng = random.Random(2929)
    for _ in range(EXAMPLES // 4):
        cards = rng.sample(range(52), 3)
        wild = frozenset(rng.sample(range(2, 15), rng.randint(1, 3)))
        naturals = [card for card in cards if card // 4 + 2 not in wild]
        need = 3 - len(naturals)
        if need == 3:
            continue  # three jokers: a trail of aces either way (pinned above)
        best = max(evaluate_hand((*naturals, *extra)) for extra in product(range(52), repeat=need))
        assert joker_hand(cards, wild).score == best, [card_text(card) for card in cards]


def test_joker_without_jokers_the_hand_is_the_standard_hand():
    assert better("9s 9h 2d", "9d 9c 3s", "ak47") == -1
    assert label("9s 9h 2d", "ak47") == {"category": "pair", "cards": ["9s", "9h", "2d"]}


JOKER_LADDER = ["2h 5d 5c", "2h 5h 6h", "2h 5d 6c", "2h 3d Td", "2h 3d Tc"]  # 2s turned: every 2 a joker
NATURAL_LADDER = ["3s 3d 3c", "8c 9c Tc", "8c 9d Tc", "As 9s 4s", "Ah Ac 9d", "Ad Jc 8h"]


def test_joker_with_a_joker_a_hand_is_at_least_a_pair():
    names = [label(hand, "joker", turned="2s")["category"] for hand in JOKER_LADDER]
    assert names == ["trail", "pure_sequence", "sequence", "colour", "pair"]
    for upper, lower in pairwise(JOKER_LADDER):
        assert better(upper, lower, "joker", turned="2s") == 1


def test_joker_every_pair_of_hand_classes_natural_or_joker_keeps_the_standard_order():
    rank = {name: place for place, name in enumerate(CATEGORY_NAMES)}
    for joker in JOKER_LADDER:
        for natural in NATURAL_LADDER:
            made = rank[label(joker, "joker", turned="2s")["category"]]
            plain = rank[label(natural, "joker", turned="2s")["category"]]
            if made != plain:
                assert better(joker, natural, "joker", turned="2s") == (1 if made > plain else -1), (joker, natural)


# --- Four-card --------------------------------------------------------------------------------


def test_four_card_plays_the_best_three_by_brute_force_over_the_four_choices():
    rng = random.Random(4)
    for _ in range(EXAMPLES):
        cards = rng.sample(range(52), 4)
        hand = four_card_hand(cards)
        choices = [hand_score([card for card in cards if card != left]) for left in cards]
        assert hand.score == max(choices)
        assert set(hand.played) < set(cards)
        assert hand_score(hand.played) == hand.score


def test_four_card_examples_pair_of_aces_four_of_a_kind_is_a_trail_akqj_is_the_top_run():
    assert label("As Ad Ks Kd", "four_card")["category"] == "pair"
    assert label("As Ad Ks Kd", "four_card")["cards"][:2] == ["As", "Ad"]
    assert label("7s 7d 7c 7h", "four_card")["category"] == "trail"
    assert label("As Kd Qc Jh", "four_card") == {"category": "sequence", "cards": ["As", "Kd", "Qc"]}


def test_four_card_a_fourth_card_never_makes_a_hand_worse():
    rng = random.Random(44)
    for _ in range(EXAMPLES):
        cards = rng.sample(range(52), 4)
        assert four_card_hand(cards).score >= hand_score(cards[:3])


def test_four_card_equal_best_threes_tie_whatever_the_fourth_card():
    assert better("Ks Kd 9c 2h", "Kh Kc 9s Ah", "four_card") == -1  # K-K-A beats K-K-9
    assert better("Ks Kd 9c 2h", "Kh Kc 9s 3h", "four_card") == 0  # K-K-9 each: the fourth card plays no part


def test_variant_hands_have_the_variant_card_count():
    with pytest.raises(ValueError):
        variant_hand(parse_cards("As Kd Qc".split()), variant="four_card")
    with pytest.raises(ValueError):
        variant_hand(parse_cards("As Kd Qc Jh".split()), variant="muflis")


def test_muflis_labels_name_the_standard_category():
    for hand in ("As Ad Ac", "2s 3s 4s", "5s 3h 2d"):
        cards = parse_cards(hand.split())
        category = CATEGORY_NAMES[hand_score(cards) >> 12]
        assert variant_hand(cards, variant="muflis").label("muflis")["category"] == category
    assert MUFLIS_TOP > hand_score(parse_cards("As Ad Ac".split()))
