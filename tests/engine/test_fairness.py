"""The verifiable shuffle (engine.fairness, docs/fairness.md): the worked example, the
construction's properties, and a chi-square test of card against position."""

from __future__ import annotations

import hashlib
import hmac
import math
from pathlib import Path

from engine import fairness
from engine.cards import NEW_DECK, card_text, cards_text

DOCS = Path(__file__).resolve().parents[2] / "docs" / "fairness.md"

EXAMPLE_SEED = bytes(range(32))
EXAMPLE_TABLE = "example-table"
EXAMPLE_PLAYER_SEEDS = ["asha-7f3a", "bikash-19c2"]
EXAMPLE_COMMITMENT = "630dcd2966c4336691125448bbb25b4ff412a49c732db2c8abc1b8581bd710dd"
EXAMPLE_HAND_KEY = "7e0e3faef7ef25c43fd51de3c3a80a7e8ae37d8f4f17e0efbc0be244794c11fe"
EXAMPLE_BLOCK_0 = "06e2251911c5c85775251bc7a3d337c08f66a28be5778eef5023de8400072518"
EXAMPLE_FIRST_NUMBERS = [495999698566760535, 8441183620836833216, 10333125116782153455]
EXAMPLE_TOP = "Tc Kd Jc 6c 2s Qh 7h 4s 8h 3d"
EXAMPLE_BOTTOM = "5s Ac 3h Ts Qc"
EXAMPLE_NO_PLAYER_SEEDS_TOP = "8h Jd 4h 6c Qc 2c 8s 5s 3s 3h"
EXAMPLE_HAND_2_TOP = "4d 9c 4s 9s 3d 4h 2h 6s 8c Td"


# --- the worked example of docs/fairness.md ------------------------------------------------


def test_worked_example_commitment_is_sha256_of_the_seed():
    assert fairness.commitment(EXAMPLE_SEED) == EXAMPLE_COMMITMENT
    assert hashlib.sha256(EXAMPLE_SEED).hexdigest() == EXAMPLE_COMMITMENT


def test_worked_example_hand_key_and_stream_follow_steps_2_and_3():
    key = fairness.hand_key(EXAMPLE_SEED, EXAMPLE_TABLE, 1, EXAMPLE_PLAYER_SEEDS)
    assert key.hex() == EXAMPLE_HAND_KEY
    # Step 2 by hand: the message is compact JSON of the domain, table, number and seeds.
    message = b'["dashain-deck-v1","example-table",1,["asha-7f3a","bikash-19c2"]]'
    assert hmac.new(EXAMPLE_SEED, message, hashlib.sha256).hexdigest() == EXAMPLE_HAND_KEY
    # Step 3 by hand: block 0 is HMAC(key, 0 as 8 big-endian bytes), read as 64-bit numbers.
    block = hmac.new(key, (0).to_bytes(8, "big"), hashlib.sha256).digest()
    assert block.hex() == EXAMPLE_BLOCK_0
    assert [int.from_bytes(block[i : i + 8], "big") for i in (0, 8, 16)] == EXAMPLE_FIRST_NUMBERS


def test_worked_example_decks():
    deck = cards_text(fairness.hand_deck(EXAMPLE_SEED, EXAMPLE_TABLE, 1, EXAMPLE_PLAYER_SEEDS))
    assert deck[:10] == EXAMPLE_TOP.split()
    assert deck[-5:] == EXAMPLE_BOTTOM.split()
    assert (
        cards_text(fairness.hand_deck(EXAMPLE_SEED, EXAMPLE_TABLE, 1, []))[:10] == EXAMPLE_NO_PLAYER_SEEDS_TOP.split()
    )
    assert cards_text(fairness.hand_deck(EXAMPLE_SEED, EXAMPLE_TABLE, 2, EXAMPLE_PLAYER_SEEDS))[:10] == (
        EXAMPLE_HAND_2_TOP.split()
    )


def test_docs_state_the_same_worked_example():
    """The numbers in docs/fairness.md are the ones the code computes (so the doc cannot drift)."""
    text = DOCS.read_text(encoding="utf-8")
    for value in (
        EXAMPLE_SEED.hex(),
        EXAMPLE_COMMITMENT,
        EXAMPLE_HAND_KEY,
        EXAMPLE_BLOCK_0,
        *map(str, EXAMPLE_FIRST_NUMBERS),
        EXAMPLE_TOP,
        EXAMPLE_BOTTOM,
        EXAMPLE_NO_PLAYER_SEEDS_TOP,
        EXAMPLE_HAND_2_TOP,
    ):
        assert value in text, value


def test_an_independent_fisher_yates_from_the_doc_gives_the_same_deck():
    """Re-implement steps 3 to 5 straight from the doc's words and compare."""
    key = bytes.fromhex(EXAMPLE_HAND_KEY)
    numbers: list[int] = []
    block = 0
    while len(numbers) < 200:
        digest = hmac.new(key, block.to_bytes(8, "big"), hashlib.sha256).digest()
        numbers += [int.from_bytes(digest[i : i + 8], "big") for i in range(0, 32, 8)]
        block += 1
    stream = iter(numbers)
    ranks, suits = "23456789TJQKA", "shdc"
    deck = [rank + suit for rank in ranks for suit in suits]
    for i in range(51, 0, -1):
        n = i + 1
        while True:
            x = next(stream)
            if x < 2**64 - (2**64 % n):
                break
        j = x % n
        deck[i], deck[j] = deck[j], deck[i]
    assert deck == cards_text(fairness.hand_deck(EXAMPLE_SEED, EXAMPLE_TABLE, 1, EXAMPLE_PLAYER_SEEDS))


# --- properties of the construction ---------------------------------------------------------


def test_every_deck_is_a_permutation_of_the_52_cards():
    for hand_number in range(1, 40):
        deck = fairness.hand_deck(EXAMPLE_SEED, "t", hand_number, ["x"])
        assert sorted(deck) == list(NEW_DECK)


def test_each_input_changes_the_deck():
    """Seed, table, hand number and every player seed (and their order) all enter the deck."""
    base = fairness.hand_deck(EXAMPLE_SEED, "t", 1, ["a", "b"])
    assert fairness.hand_deck(bytes(32), "t", 1, ["a", "b"]) != base
    assert fairness.hand_deck(EXAMPLE_SEED, "u", 1, ["a", "b"]) != base
    assert fairness.hand_deck(EXAMPLE_SEED, "t", 2, ["a", "b"]) != base
    assert fairness.hand_deck(EXAMPLE_SEED, "t", 1, ["a", "c"]) != base
    assert fairness.hand_deck(EXAMPLE_SEED, "t", 1, ["b", "a"]) != base
    assert fairness.hand_deck(EXAMPLE_SEED, "t", 1, ["a"]) != base
    assert fairness.hand_deck(EXAMPLE_SEED, "t", 1, ["a", "b"]) == base


def test_player_seeds_cannot_be_glued_together_differently():
    """The message is JSON, so ["ab"] and ["a", "b"] are different inputs."""
    assert fairness.hand_key(EXAMPLE_SEED, "t", 1, ["ab"]) != fairness.hand_key(EXAMPLE_SEED, "t", 1, ["a", "b"])
    assert fairness.hand_key(EXAMPLE_SEED, "t1", 1, []) != fairness.hand_key(EXAMPLE_SEED, "t", 11, [])


# --- chi-square test of card against position -----------------------------------------------

CHI_SQUARE_DECKS = 5200  # 100 expected per (card, position) cell
ONE_PERCENT_Z = 2.3263478740408408  # the standard normal's 99th percentile


def chi_square_critical_value(degrees_of_freedom: int, z: float = ONE_PERCENT_Z) -> float:
    """The chi-square quantile by Wilson and Hilferty's cube-root normal approximation,
    accurate to well under 0.1% for thousands of degrees of freedom."""
    k = degrees_of_freedom
    return k * (1 - 2 / (9 * k) + z * math.sqrt(2 / (9 * k))) ** 3


def chi_square_upper_tail(statistic: float, degrees_of_freedom: int) -> float:
    """P(X >= statistic) for chi-square, by the regularized incomplete gamma's series
    (computed in logs, exact enough to cross-check the approximation above)."""
    a, x = degrees_of_freedom / 2, statistic / 2
    term = 1.0 / a
    total = term
    n = 1
    while term > total * 1e-16:
        term *= x / (a + n)
        total += term
        n += 1
    lower = math.exp(math.log(total) + a * math.log(x) - x - math.lgamma(a))
    return 1.0 - lower


def card_position_chi_square(decks: list[list[int]]) -> float:
    counts = [[0] * 52 for _ in range(52)]
    for deck in decks:
        for position, card in enumerate(deck):
            counts[card][position] += 1
    expected = len(decks) / 52
    return sum((count - expected) ** 2 / expected for row in counts for count in row)


# Each deck is a permutation, so every row and column of the 52x52 table sums to the
# number of decks: (52 - 1) * (52 - 1) degrees of freedom.
DEGREES_OF_FREEDOM = 51 * 51


def test_critical_value_matches_the_exact_tail():
    """The tabled 1% critical value for 2601 degrees of freedom leaves 1% above it."""
    critical = chi_square_critical_value(DEGREES_OF_FREEDOM)
    assert 2770 < critical < 2772  # about 2771.7
    assert abs(chi_square_upper_tail(critical, DEGREES_OF_FREEDOM) - 0.01) < 0.0005


def test_shuffle_passes_chi_square_of_card_against_position_at_one_percent():
    """Over 5200 decks of a fixed test seed, no card favours any position (1% level)."""
    decks = [fairness.hand_deck(b"dashain chi-square test seed....", "chi", n, []) for n in range(CHI_SQUARE_DECKS)]
    statistic = card_position_chi_square(decks)
    assert statistic < chi_square_critical_value(DEGREES_OF_FREEDOM), statistic


def test_chi_square_catches_a_biased_shuffle():
    """The test can fail: Sattolo's variant (j below i, not i + 1) never leaves a card in place."""
    decks = []
    for n in range(CHI_SQUARE_DECKS // 4):
        stream = fairness._stream(fairness.hand_key(b"biased", "chi", n, []))
        deck = list(NEW_DECK)
        for i in range(51, 0, -1):
            j = next(stream) % i
            deck[i], deck[j] = deck[j], deck[i]
        decks.append(deck)
    assert card_position_chi_square(decks) > chi_square_critical_value(DEGREES_OF_FREEDOM)


def test_card_text_round_trip_of_a_derived_deck():
    deck = fairness.hand_deck(EXAMPLE_SEED, EXAMPLE_TABLE, 1, EXAMPLE_PLAYER_SEEDS)
    assert card_text(deck[0]) == "Tc"
