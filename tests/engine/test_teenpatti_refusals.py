"""Every refusal: a stable code, a sentence a player can read, and the state left as it was."""

import copy

import pytest

from engine.api import Action, RuleError
from engine.cards import parse_cards
from engine.teenpatti import preset_game

HANDS3 = {"Asha": "As Ad Ah", "Bikash": "2h 3h 4h", "Chandra": "Qs Kd Ac"}
HANDS2 = {"Asha": "As Ad Ah", "Bikash": "2h 3h 4h"}

# The verb may be offered; what is wrong is the amount's form.
SHAPE_CODES = {"amount_required", "bad_amount", "amount_not_allowed", "raise_not_multiple_of_boot"}

# (case, game, settings, hands, stacks, actions before, refused action, code)
CASES = [
    ("finished hand", "faras", {}, HANDS2, {}, [("Bikash", "pack")], ("Asha", "see"), "hand_over"),
    ("stranger", "faras", {}, HANDS3, {}, [], ("Dev", "chaal"), "unknown_player"),
    ("poker verb", "faras", {}, HANDS3, {}, [], ("Bikash", "fold"), "unknown_verb"),
    ("raise without amount", "faras", {}, HANDS3, {}, [], ("Bikash", "raise"), "amount_required"),
    ("raise of nothing", "faras", {}, HANDS3, {}, [], ("Bikash", "raise", 0), "bad_amount"),
    ("chaal with amount", "faras", {}, HANDS3, {}, [], ("Bikash", "chaal", 10), "amount_not_allowed"),
    ("packed player", "faras", {}, HANDS3, {}, [("Bikash", "pack")], ("Bikash", "see"), "already_packed"),
    ("second look", "faras", {}, HANDS3, {}, [("Asha", "see")], ("Asha", "see"), "already_seen"),
    ("out of turn", "faras", {}, HANDS3, {}, [], ("Asha", "chaal"), "not_your_turn"),
    ("out of turn pack", "faras", {}, HANDS3, {}, [], ("Chandra", "pack"), "not_your_turn"),
    (
        "blind turns used",
        "faras",
        {"blind_turns": 2},
        HANDS2,
        {},
        [("Bikash", "chaal"), ("Asha", "chaal"), ("Bikash", "chaal"), ("Asha", "chaal")],
        ("Bikash", "chaal"),
        "must_see",
    ),
    (
        "short chaal",
        "faras",
        {},
        HANDS3,
        {"Chandra": 20},
        [("Bikash", "raise", 20)],
        ("Chandra", "chaal"),
        "not_enough_chips",
    ),
    ("short raise", "faras", {}, HANDS3, {"Bikash": 50}, [], ("Bikash", "raise", 50), "not_enough_chips"),
    ("raise to the stake", "faras", {}, HANDS3, {}, [], ("Bikash", "raise", 10), "raise_too_small"),
    ("raise off the boot", "faras", {}, HANDS3, {}, [], ("Bikash", "raise", 35), "raise_not_multiple_of_boot"),
    ("raise past double", "classic", {}, HANDS3, {}, [], ("Bikash", "raise", 30), "raise_too_large"),
    (
        "raise past the cap",
        "faras",
        {"stake_limit": 30},
        HANDS3,
        {},
        [],
        ("Bikash", "raise", 40),
        "raise_over_stake_limit",
    ),
    ("show with three", "faras", {}, HANDS3, {}, [("Bikash", "see")], ("Bikash", "show"), "show_needs_two"),
    ("blind show in faras", "faras", {}, HANDS2, {}, [], ("Bikash", "show"), "show_blind_not_allowed"),
    (
        "show against blind",
        "classic",
        {},
        HANDS3,
        {},
        [("Bikash", "pack"), ("Chandra", "see")],
        ("Chandra", "show"),
        "show_against_blind",
    ),
    (
        "sideshow off",
        "999",
        {},
        HANDS3,
        {},
        [("Bikash", "see"), ("Bikash", "chaal"), ("Chandra", "see")],
        ("Chandra", "sideshow"),
        "sideshow_off",
    ),
    (
        "sideshow two left",
        "faras",
        {},
        HANDS2,
        {},
        [("Bikash", "see"), ("Bikash", "chaal"), ("Asha", "see")],
        ("Asha", "sideshow"),
        "sideshow_needs_three",
    ),
    (
        "sideshow blind asker",
        "faras",
        {},
        HANDS3,
        {},
        [("Bikash", "see"), ("Bikash", "chaal")],
        ("Chandra", "sideshow"),
        "sideshow_needs_seen",
    ),
    (
        "sideshow first to bet",
        "faras",
        {},
        HANDS3,
        {},
        [("Bikash", "see"), ("Asha", "see")],
        ("Bikash", "sideshow"),
        "sideshow_no_partner",
    ),
    (
        "sideshow blind partner",
        "faras",
        {},
        HANDS3,
        {},
        [("Bikash", "chaal"), ("Chandra", "see")],
        ("Chandra", "sideshow"),
        "sideshow_partner_blind",
    ),
    (
        "sideshow short",
        "faras",
        {},
        HANDS3,
        {"Chandra": 25},
        [("Bikash", "see"), ("Bikash", "chaal"), ("Chandra", "see")],
        ("Chandra", "sideshow"),
        "not_enough_chips",
    ),
    ("answer nobody", "faras", {}, HANDS3, {}, [], ("Bikash", "accept"), "no_sideshow_pending"),
    (
        "bet instead of answering",
        "faras",
        {},
        HANDS3,
        {},
        [("Bikash", "see"), ("Bikash", "chaal"), ("Chandra", "see"), ("Chandra", "sideshow")],
        ("Bikash", "pack"),
        "sideshow_answer_needed",
    ),
    (
        "others wait for the answer",
        "faras",
        {},
        HANDS3,
        {},
        [("Bikash", "see"), ("Bikash", "chaal"), ("Chandra", "see"), ("Chandra", "sideshow")],
        ("Asha", "pack"),
        "not_your_turn",
    ),
]


@pytest.mark.parametrize(
    ("game", "settings", "hands", "stacks", "before", "action", "code"),
    [case[1:] for case in CASES],
    ids=[case[0] for case in CASES],
)
def test_refused_action_has_a_code_a_sentence_and_leaves_the_state_as_it_was(
    game, settings, hands, stacks, before, action, code
):
    rules = preset_game(game)
    names = list(hands)
    deck = rules.deck_for_scenario(
        players=names, dealer=0, hands={name: parse_cards(cards.split()) for name, cards in hands.items()}, board=None
    )
    state, _ = rules.start_hand(
        settings=rules.settings(settings),
        players=[(name, stacks.get(name, 1000)) for name in names],
        dealer=0,
        deck=deck,
    )
    for earlier in before:
        state, _ = rules.apply(state, Action(*earlier))
    snapshot = copy.deepcopy(state)
    view_before = {viewer: rules.view(state, viewer) for viewer in [*names, None]}
    with pytest.raises(RuleError) as checked:
        rules.check(state, Action(*action))
    with pytest.raises(RuleError) as applied:
        rules.apply(state, Action(*action))
    assert checked.value.code == applied.value.code == code
    message = applied.value.message
    assert message[0].isupper() and message.endswith("."), message
    assert applied.value.to_json() == {"code": code, "message": message}
    assert state == snapshot
    assert {viewer: rules.view(state, viewer) for viewer in [*names, None]} == view_before
    # The refused verb is not offered to that player (when they are a player of this hand).
    if action[0] in names and code not in SHAPE_CODES:
        offered = rules.legal_actions(state, action[0])
        assert not any(
            legal.verb == action[1] and (len(action) < 3 or legal.min is None or legal.min <= action[2] <= legal.max)
            for legal in offered
        )


def test_every_refusal_code_is_covered_here():
    codes = {case[-1] for case in CASES}
    assert codes >= {
        "hand_over", "unknown_player", "unknown_verb", "amount_required", "bad_amount", "amount_not_allowed",
        "already_packed", "already_seen", "not_your_turn", "must_see", "not_enough_chips", "raise_too_small",
        "raise_not_multiple_of_boot", "raise_too_large", "raise_over_stake_limit", "show_needs_two",
        "show_blind_not_allowed", "show_against_blind", "sideshow_off", "sideshow_needs_three",
        "sideshow_needs_seen", "sideshow_no_partner", "sideshow_partner_blind", "no_sideshow_pending",
        "sideshow_answer_needed",
    }  # fmt: skip
