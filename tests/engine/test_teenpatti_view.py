"""The per-player view: complete, JSON-ready, and showing each person only what the rules let them see."""

import json

from engine.api import Action
from engine.cards import parse_cards
from engine.teenpatti import preset_game

HANDS = {"Asha": "As Ad Ah", "Bikash": "2s 5d 9c", "Chandra": "Qs Kd Ac"}


def start(game="faras", hands=HANDS, **settings):
    rules = preset_game(game)
    names = list(hands)
    deck = rules.deck_for_scenario(
        players=names, dealer=0, hands={name: parse_cards(cards.split()) for name, cards in hands.items()}, board=None
    )
    state, _ = rules.start_hand(
        settings=rules.settings(settings), players=[(name, 1000) for name in names], dealer=0, deck=deck
    )
    return rules, state


def play(rules, state, *actions):
    for action in actions:
        state, _ = rules.apply(state, Action(*action))
    return state


def test_view_has_every_field_the_pages_render_and_is_json_ready():
    rules, state = start()
    view = rules.view(state, "Bikash")
    assert json.loads(json.dumps(view)) == view
    assert set(view) == {
        "game", "settings", "viewer", "dealer", "to_act", "pot", "stake", "boot", "players",
        "your_cards", "legal", "must_see", "sideshow", "finished", "result",
        "variant", "cards_each", "joker", "joker_ranks",
    }  # fmt: skip
    assert (view["variant"], view["cards_each"], view["joker"], view["joker_ranks"]) == ("none", 3, None, [])
    assert view["players"][1] == {
        "name": "Bikash", "stack": 990, "bet": 10, "seen": False, "packed": False, "blind_turns_used": 0,
        "blind_turns_left": 4, "dealer": False, "to_act": True, "cards": None, "hand": None,
    }  # fmt: skip
    assert (view["dealer"], view["to_act"], view["pot"], view["stake"]) == ("Asha", "Bikash", 30, 10)
    assert view["legal"] == [
        {"verb": "see", "cost": 0},
        {"verb": "chaal", "cost": 10},
        {"verb": "raise", "min": 20, "max": 990, "cost": 20, "per_chip": 1, "step": 10, "start": 20},
        {"verb": "pack", "cost": 0},
    ]


def test_own_cards_only_once_seen():
    rules, state = start()
    assert rules.view(state, "Asha")["your_cards"] is None
    state = play(rules, state, ("Asha", "see"))
    view = rules.view(state, "Asha")
    assert view["your_cards"] == ["As", "Ad", "Ah"]
    assert view["players"][0]["hand"] == {"category": "trail"}
    for viewer in ("Bikash", "Chandra", None):
        assert all(player["cards"] is None for player in rules.view(state, viewer)["players"])


def test_legal_actions_are_the_viewers_own():
    rules, state = start()
    assert [entry["verb"] for entry in rules.view(state, "Chandra")["legal"]] == ["see"]
    assert rules.view(state, None)["legal"] == [] and rules.view(state, None)["viewer"] is None
    assert rules.view(state, "Stranger")["legal"] == []


def test_blind_turns_used_and_left():
    rules, state = start()
    state = play(rules, state, ("Bikash", "chaal"))
    assert rules.view(state, None)["players"][1]["blind_turns_used"] == 1
    assert rules.view(state, None)["players"][1]["blind_turns_left"] == 3
    classic, state = start("classic")
    assert classic.view(state, None)["players"][1]["blind_turns_left"] is None


def test_the_sideshow_offer_names_the_partner_the_rules_pick():
    """Book 000: a sideshow is with "the player who bet just before you"; Classic (book 004):
    the previous *seen* player. The view names them, so the page decides nothing."""
    rules, state = start(hands={**HANDS, "Deepa": "3s 4d 7c"})
    # Dealer Asha: Bikash, Chandra, Deepa, then Asha act.
    state = play(rules, state, ("Bikash", "see"), ("Bikash", "chaal"), ("Chandra", "see"), ("Chandra", "chaal"))
    state = play(rules, state, ("Deepa", "see"))
    offer = {entry["verb"]: entry for entry in rules.view(state, "Deepa")["legal"]}
    assert offer["sideshow"] == {"verb": "sideshow", "cost": 20, "partner": "Chandra"}
    state = play(rules, state, ("Deepa", "chaal"), ("Asha", "chaal"), ("Bikash", "chaal"), ("Chandra", "pack"))
    # Chandra packed: the player still in before Deepa is Bikash.
    offer = {entry["verb"]: entry for entry in rules.view(state, "Deepa")["legal"]}
    assert offer["sideshow"]["partner"] == "Bikash"
    for viewer in ("Asha", "Bikash", None):  # only the one who may ask is offered it
        assert "sideshow" not in {entry["verb"] for entry in rules.view(state, viewer)["legal"]}

    classic, state = start("classic", hands={**HANDS, "Deepa": "3s 4d 7c"})
    state = play(classic, state, ("Bikash", "see"), ("Bikash", "chaal"), ("Chandra", "chaal"), ("Deepa", "see"))
    offer = {entry["verb"]: entry for entry in classic.view(state, "Deepa")["legal"]}
    assert offer["sideshow"]["partner"] == "Bikash"  # Chandra is blind: the previous seen player


def test_must_see_says_when_the_blind_turns_are_used_up():
    """Book 000: four blind bets by default, then see before betting again: the view says so
    to the viewer it concerns, and only See and Pack are offered."""
    rules, state = start(hands={"Asha": "As Ad Ah", "Bikash": "2s 5d 9c"})
    for _round in range(3):
        state = play(rules, state, ("Bikash", "chaal"), ("Asha", "chaal"))
    assert rules.view(state, "Bikash")["must_see"] is False
    state = play(rules, state, ("Bikash", "chaal"), ("Asha", "chaal"))
    view = rules.view(state, "Bikash")
    assert view["must_see"] is True
    assert [entry["verb"] for entry in view["legal"]] == ["see", "pack"]
    assert rules.view(state, None)["must_see"] is False  # a spectator has no blind turns
    state = play(rules, state, ("Bikash", "see"))
    assert rules.view(state, "Bikash")["must_see"] is False
    classic, state = start("classic")
    for _round in range(6):
        state = play(classic, state, ("Bikash", "chaal"), ("Chandra", "chaal"), ("Asha", "chaal"))
    assert classic.view(state, "Bikash")["must_see"] is False  # Classic: no blind limit


def test_show_turns_cards_up_for_everyone_and_the_result_is_in_the_view():
    rules, state = start()
    state = play(rules, state, ("Bikash", "pack"), ("Chandra", "see"), ("Chandra", "chaal"), ("Asha", "see"))
    state = play(rules, state, ("Asha", "show"))
    view = rules.view(state, None)
    assert view["finished"] is True and view["to_act"] is None
    assert [player["cards"] for player in view["players"]] == [["As", "Ad", "Ah"], None, ["Qs", "Kd", "Ac"]]
    assert view["result"] == {
        "reason": "show",
        "winners": ["Asha"],
        "payouts": {"Asha": 70},
        "pots": [{"amount": 70, "eligible": ["Asha", "Chandra"], "winners": ["Asha"]}],
        "stacks": {"Asha": 1040, "Bikash": 990, "Chandra": 970},
    }


def test_everyone_else_packs_and_nobody_sees_the_winners_hand():
    rules, state = start()
    state = play(rules, state, ("Bikash", "pack"), ("Chandra", "pack"))
    for viewer in ("Asha", "Bikash", "Chandra", None):
        assert all(player["cards"] is None for player in rules.view(state, viewer)["players"])
    assert rules.view(state, None)["result"]["reason"] == "last_player"
