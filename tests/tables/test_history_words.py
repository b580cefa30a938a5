"""The replayer tells the whole hand (issue 16, item 6): every action with its amount, whom
a sideshow was asked of and what followed, and each shown hand named ("Number 910",
"Pair of kings") for every hand shown. Sentences come from tables.history."""

from __future__ import annotations

import pytest

from tables.history import hand_replay_steps, seat_names
from tables.history_words import hand_label
from tables.models import Event, Hand
from tables.services import hand_act
from tests.tables.conftest import current_turn, open_table

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(
    ("label", "cards", "expected"),
    [
        ({"category": "digits", "value": 910}, ["9h", "Ts", "Kd"], "Number 910"),
        ({"category": "pair"}, ["Kh", "3s", "Kd"], "Pair of kings"),
        ({"category": "trail"}, ["7h", "7s", "7d"], "Trail of sevens"),
        ({"category": "high_card"}, ["2h", "As", "9d"], "Ace high"),
        ({"category": "colour"}, ["2h", "Qh", "9h"], "Colour, queen high"),
        ({"category": "pure_sequence"}, ["Ah", "2h", "3h"], "Pure sequence"),
        ({"category": "two_pair", "cards": ["Kh", "Kd", "5s", "5c", "2d"]}, [], "Two pair, kings and fives"),
        ({"category": "full_house", "cards": ["5h", "5d", "5s", "Kc", "Kd"]}, [], "Full house, fives over kings"),
        ({"category": "straight", "cards": ["5h", "4d", "3s", "2c", "Ad"]}, [], "Straight, five high"),
        ({"category": "flush", "cards": ["Ah", "Jh", "8h", "4h", "2h"]}, [], "Flush, ace high"),
        ({"category": "pair", "cards": ["10h", "10d", "As", "9c", "4d"]}, [], "Pair of tens"),
    ],
)
def test_a_shown_hand_is_named_for_people(label, cards, expected):
    assert hand_label(label, cards) == expected


def play_to_a_sideshow(game: str = "faras", players: int = 4):
    """Everyone looks; the first who may asks for a sideshow; it is accepted. Returns the table and hand."""
    table, _seats = open_table(game, players=players)
    hand = Hand.objects.get(table=table, number=1)
    for name, _stack in hand.plan["players"]:
        hand_act(table_id=table.pk, seat_id=int(name), verb="see")
    for _turn in range(20):
        player, legal = current_turn(table)
        verbs = {option.verb for option in legal}
        if "accept" in verbs:
            hand_act(table_id=table.pk, seat_id=int(player), verb="accept")
            return table, hand
        verb = "sideshow" if "sideshow" in verbs else "chaal"
        hand_act(table_id=table.pk, seat_id=int(player), verb=verb)
    raise AssertionError("no sideshow was asked")


def all_words(steps) -> list[str]:
    return [sentence for step in steps for sentence in step["words"]]


def test_the_replay_says_whom_a_sideshow_was_asked_of_and_who_packed_after_it():
    table, hand = play_to_a_sideshow()
    names = seat_names(table=table)
    asked = Event.objects.get(hand=hand, kind="sideshow").payload
    packed = Event.objects.get(hand=hand, kind="pack", payload__reason="sideshow").payload["player"]
    asker, partner = names[asked["player"]], names[asked["partner"]]
    # a watcher's view: the pair's cards stay hidden, but what happened is said
    words = all_words(hand_replay_steps(table=table, hand=hand, viewer=None))
    assert f"{asker} pays {asked['amount']} and asks {partner} for a sideshow." in words
    assert f"{partner} accepts {asker}'s sideshow." in words
    assert f"{names[packed]} packs after the sideshow." in words
    assert not any(sentence.startswith("Sideshow, the two hands") for sentence in words)
    # the asker saw both hands, each named
    words = all_words(hand_replay_steps(table=table, hand=hand, viewer=asked["player"]))
    result = next(sentence for sentence in words if sentence.startswith("Sideshow, the two hands"))
    assert result.count("(") == 2, result


def test_every_chaal_is_said_with_its_amount():
    table, hand = play_to_a_sideshow()
    names = seat_names(table=table)
    words = all_words(hand_replay_steps(table=table, hand=hand, viewer=None))
    chaals = Event.objects.filter(hand=hand, kind__in=("chaal", "raise")).order_by("seq")
    assert chaals.exists()
    for event in chaals:
        said = f"{names[event.payload['player']]} plays chaal for {event.payload['amount']}"
        assert any(sentence.startswith(said) for sentence in words), said
    assert not any(sentence.endswith("plays chaal.") for sentence in words)  # never without its amount


def test_a_999_show_names_both_hands_as_numbers():
    table, _seats = open_table("999", players=2)
    hand = Hand.objects.get(table=table, number=1)
    player, legal = current_turn(table)
    assert "show" in {option.verb for option in legal}  # 999: a blind player may ask for a show
    hand_act(table_id=table.pk, seat_id=int(player), verb="show")
    words = all_words(hand_replay_steps(table=table, hand=hand, viewer=None))
    show = next(sentence for sentence in words if sentence.startswith("Show:"))
    assert show.count("(Number ") == 2, show
    assert any("blind and asks" in sentence for sentence in words)


def test_holdem_blinds_are_said_with_their_amounts():
    table, _seats = open_table("holdem", players=3)
    hand = Hand.objects.get(table=table, number=1)
    words = all_words(hand_replay_steps(table=table, hand=hand, viewer=None))
    assert any("posts the small blind of" in sentence for sentence in words), words
    assert any("posts the big blind of" in sentence for sentence in words), words
