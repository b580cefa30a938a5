"""Variants in play (docs/rules.md, "Variants"): the deal, the turned card, show, sideshow,
pot limit, the scenario format, and random hands of every variant (chips kept, every hand ends,
no card shown before the rules show it, the log replays)."""

import json
import random
import re
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.api import Action, SettingsError
from engine.cards import parse_cards
from engine.fairness import seeded_deck
from engine.replay import run_scenario
from engine.teenpatti import preset_game
from engine.teenpatti.hand import actions_from_events
from tests.engine.test_teenpatti_properties import play_and_check, tables

VARIANTS = ("muflis", "ak47", "joker", "four_card")
ROOT = Path(__file__).resolve().parents[2]


def scenario(variant, hands, actions, *, game="faras", joker=None, **extra):
    data = {
        "game": game,
        "settings": {"variant": variant, **extra},
        "players": [{"name": name, "stack": 1000} for name in hands],
        "dealer": len(hands) - 1,
        "hands": {name: cards.split() for name, cards in hands.items()},
        "actions": actions,
    }
    if joker is not None:
        data["joker"] = joker
    return data


def shown_pair(variant, asha, bikash, **extra):
    """Asha and Bikash both see; Asha chaals; Bikash asks for the show. Returns the output."""
    data = scenario(
        variant,
        {"Asha": asha, "Bikash": bikash},
        [["Asha", "see"], ["Asha", "chaal"], ["Bikash", "see"], ["Bikash", "show"]],
        **extra,
    )
    status, output = run_scenario(data)
    assert status == 0, output
    return output


def event(output, kind):
    return next(item for item in output["events"] if item["kind"] == kind)


# --- settings ---------------------------------------------------------------------------------


def test_variant_needs_the_standard_ranking():
    for variant in VARIANTS:
        with pytest.raises(SettingsError) as refused:
            preset_game("999").settings({"variant": variant})
        assert refused.value.field == "variant"
        assert preset_game("faras").settings({"variant": variant})["variant"] == variant
        assert preset_game("classic").settings({"variant": variant})["variant"] == variant
    with pytest.raises(SettingsError) as refused:
        preset_game("faras").settings({"variant": "lowball"})
    assert refused.value.field == "variant"


def test_variant_is_optional_and_left_out_of_the_settings_when_none():
    status, output = run_scenario(scenario("none", {"Asha": "As Ad Ac", "Bikash": "2s 3h 5d"}, []))
    assert status == 0
    assert "variant" not in event(output, "hand_started")["settings"]
    status, output = run_scenario(scenario("muflis", {"Asha": "As Ad Ac", "Bikash": "2s 3h 5d"}, []))
    assert event(output, "hand_started")["settings"]["variant"] == "muflis"


# --- show, sideshow, ties -----------------------------------------------------------------------


def test_muflis_show_the_lower_hand_wins():
    output = shown_pair("muflis", "As Ad Ac", "2s 3h 5d")
    assert output["pots"][0]["winners"] == ["Bikash"]
    output = shown_pair("none", "As Ad Ac", "2s 3h 5d")
    assert output["pots"][0]["winners"] == ["Asha"]


def test_variant_show_tie_goes_to_the_player_who_did_not_ask():
    # AK47: Asha's two kings are jokers and make a trail of nines with her 9; Bikash's natural
    # trail of nines is the same hand: an exact tie. Bikash asked, so Asha wins.
    output = shown_pair("ak47", "Ks Kd 9c", "9s 9h 9d")
    assert event(output, "showdown")["hands"]["Asha"]["category"] == "trail"
    assert output["pots"][0]["winners"] == ["Asha"]
    # Joker variant: the natural trail against the same trail made with a joker; the asker loses.
    output = shown_pair("joker", "9s 9h 9d", "9c 6h 6s", joker="6d")
    assert event(output, "joker")["card"] == "6d"
    assert output["pots"][0]["winners"] == ["Asha"]


def test_variant_sideshow_compares_variant_hands():
    # Muflis, three players: Chandra (low hand) asks Bikash (trail) for a sideshow: Bikash packs.
    data = scenario(
        "muflis",
        {"Asha": "Qs Jd 9c", "Bikash": "7s 7d 7c", "Chandra": "5s 3h 2d"},
        [
            ["Asha", "see"],
            ["Asha", "chaal"],
            ["Bikash", "see"],
            ["Bikash", "chaal"],
            ["Chandra", "see"],
            ["Chandra", "sideshow"],
            ["Bikash", "accept"],
        ],
    )
    status, output = run_scenario(data)
    assert status == 0, output
    result = event(output, "sideshow_result")
    assert result["loser"] == "Bikash"
    assert result["visible_to"] == ["Bikash", "Chandra"]
    # A tie packs the asker, under a variant too (Four-card: both best threes are K-K-9).
    data = scenario(
        "four_card",
        {"Asha": "Qs Jd 8c 2h", "Bikash": "Ks Kd 9c 2d", "Chandra": "Kh Kc 9s 3s"},
        [
            ["Asha", "see"],
            ["Asha", "chaal"],
            ["Bikash", "see"],
            ["Bikash", "chaal"],
            ["Chandra", "see"],
            ["Chandra", "sideshow"],
            ["Bikash", "accept"],
        ],
    )
    status, output = run_scenario(data)
    assert status == 0, output
    assert event(output, "sideshow_result")["loser"] == "Chandra"


def test_four_card_show_and_sideshow_play_the_best_three():
    output = shown_pair("four_card", "As Ad 2c 7h", "Ks Kd Kc 3h")
    showdown = event(output, "showdown")
    assert showdown["cards"]["Bikash"] == ["Ks", "Kd", "Kc", "3h"]  # all four turned up
    assert showdown["hands"]["Bikash"] == {"category": "trail", "cards": ["Ks", "Kd", "Kc"]}
    assert showdown["hands"]["Asha"] == {"category": "pair", "cards": ["As", "Ad", "7h"]}
    assert output["pots"][0]["winners"] == ["Bikash"]


def test_variant_pot_limit_group_show_compares_variant_hands():
    data = scenario(
        "muflis",
        {"Asha": "As Ad Ac", "Bikash": "5s 3h 2d", "Chandra": "Ks Kd Kc"},
        [["Asha", "chaal"]],  # the pot reaches 40, four boots: everyone still in shows
        pot_limit_boots=4,
    )
    status, output = run_scenario(data)
    assert status == 0 and output["finished"]
    assert event(output, "showdown")["reason"] == "pot_limit"
    assert output["pots"][0]["winners"] == ["Bikash"]


# --- the deal --------------------------------------------------------------------------------


def test_four_card_deals_four_cards_one_at_a_time():
    rules = preset_game("faras")
    deck = seeded_deck(7)
    names = ["Asha", "Bikash", "Chandra"]
    state, events = rules.start_hand(
        settings=rules.settings({"variant": "four_card"}), players=[(n, 1000) for n in names], dealer=2, deck=deck
    )
    assert events[2].kind == "dealt" and events[2].data["cards_each"] == 4
    for k, name in enumerate(names):  # Asha first: the player after the dealer
        assert state.cards[state.index[name]] == tuple(deck[k + 3 * r] for r in range(4))
    assert rules.table_rules.hole_cards_for(state.settings.to_json()) == 4
    state, events = rules.apply(state, Action("Asha", "see"))
    assert len(events[1].data["cards"]) == 4 and events[1].visible_to == {"Asha"}


def test_joker_turned_card_is_public_and_logged():
    rules = preset_game("classic")
    deck = seeded_deck(11)
    names = ["Asha", "Bikash", "Chandra"]
    state, events = rules.start_hand(
        settings=rules.settings({"variant": "joker"}), players=[(n, 1000) for n in names], dealer=0, deck=deck
    )
    joker = events[3]
    assert joker.kind == "joker" and joker.visible_to is None  # everyone, watchers included
    assert parse_cards([joker.data["card"]]) == [deck[9]]  # the card after the 3 x 3 dealt
    assert deck[9] not in {card for cards in state.cards for card in cards}
    for viewer in (None, "Asha"):
        view = rules.view(state, viewer)
        assert view["joker"] == joker.data["card"] and view["joker_ranks"] == [joker.data["rank"]]
        assert all(player["cards"] is None for player in view["players"])  # still nobody's cards


def test_joker_cards_event_names_what_the_jokers_make():
    data = scenario("joker", {"Asha": "7s 9d 9c", "Bikash": "2s 3h 5d"}, [["Asha", "see"]], joker="7h")
    status, output = run_scenario(data)
    assert status == 0, output
    cards = event(output, "cards")
    assert cards["hand"] == {"category": "trail", "cards": ["9s", "9d", "9c"], "jokers": 1}
    assert cards["visible_to"] == ["Asha"]


# --- the scenario format ------------------------------------------------------------------------


def test_scenario_joker_field_places_the_turned_card():
    data = scenario("joker", {"Asha": "7s 9d 9c", "Bikash": "2s 3h 5d"}, [], joker="Kh")
    status, output = run_scenario(data)
    assert status == 0 and event(output, "joker") == {"kind": "joker", "card": "Kh", "rank": "K"}
    del data["joker"]
    status, output = run_scenario(data)
    assert status == 0 and event(output, "joker")["card"] == "2h"  # the next of the rest in new-deck order


def test_scenario_joker_field_refused_outside_the_joker_variant():
    status, output = run_scenario(scenario("muflis", {"Asha": "7s 9d 9c", "Bikash": "2s 3h 5d"}, [], joker="Kh"))
    assert status == 2 and output["error"]["field"] == "joker"
    status, output = run_scenario(scenario("joker", {"Asha": "7s 9d 9c", "Bikash": "2s 3h 5d"}, [], joker="9d"))
    assert status == 2 and output["error"]["field"] == "joker"
    status, output = run_scenario(scenario("four_card", {"Asha": "7s 9d 9c", "Bikash": "2s 3h 5d"}, []))
    assert status == 2 and output["error"]["field"] == "hands.Asha"
    status, output = run_scenario(scenario("none", {"Asha": "7s 9d 9c 2c", "Bikash": "2s 3h 5d 4c"}, []))
    assert status == 2 and output["error"]["field"] == "hands.Asha"


# --- random hands --------------------------------------------------------------------------------


@pytest.mark.parametrize("variant", VARIANTS)
def test_every_variant_replays_through_the_scenario_format(variant):
    """Random legal hands of each variant, written as scenario files with the deck, replay to
    the same stacks and pots and events; chips are kept and every hand ends."""
    rng = random.Random(variant)
    for number in range(25):
        rules = preset_game(rng.choice(["faras", "classic"]))
        count = rng.randint(max(rules.min_players, 2), rules.max_players)
        names = [f"P{i}" for i in range(count)]
        stacks = [rng.randint(10, 400) for _ in names]
        deck = seeded_deck(number)
        table = rules.settings({"variant": variant, "pot_limit_boots": rng.choice([None, 16, 64])})
        state, log = rules.start_hand(
            settings=table, players=list(zip(names, stacks, strict=True)), dealer=0, deck=deck
        )
        for _step in range(2000):
            if rules.is_finished(state):
                break
            player = rules.to_act(state)
            pick = rng.choice(rules.legal_actions(state, player))
            amount = rng.randrange(pick.min, pick.max + 1, table["boot"]) if pick.verb == "raise" else None
            state, events = rules.apply(state, Action(player, pick.verb, amount))
            log.extend(events)
        assert rules.is_finished(state)
        assert sum(rules.result(state).stacks.values()) == sum(stacks)
        data = {
            "game": rules.name,
            "settings": table,
            "players": [{"name": n, "stack": s} for n, s in zip(names, stacks, strict=True)],
            "dealer": 0,
            "deck": [f"{'23456789TJQKA'[card // 4]}{'shdc'[card % 4]}" for card in deck],
            "actions": [
                [a.player, a.verb] + ([a.amount] if a.amount is not None else []) for a in actions_from_events(log)
            ],
        }
        status, output = run_scenario(json.loads(json.dumps(data)))
        assert status == 0 and output["finished"]
        assert output["stacks"] == rules.result(state).stacks
        assert output["events"] == [event.to_json() for event in log]


@st.composite
def variant_tables(draw):
    preset = draw(st.sampled_from(["faras", "classic"]))
    rules, table, stacks, dealer, seed = draw(tables(preset))
    return rules, rules.settings({**table, "variant": draw(st.sampled_from(VARIANTS))}), stacks, dealer, seed


@settings(max_examples=120, deadline=None)
@given(variant_tables())
def test_random_variant_hands_keep_every_chip_end_and_hide_cards(table):
    play_and_check(*table)


# --- the rules page's promises ------------------------------------------------------------------


def test_every_test_the_variants_section_of_the_rules_names_exists():
    text = (ROOT / "docs" / "rules.md").read_text()
    section = text[text.index("## Variants") : text.index("## Events")]
    named = set(re.findall(r"`(test_[a-z0-9_]+)`", section))
    assert len(named) > 30
    sources = "".join(path.read_text() for path in (ROOT / "tests").rglob("test_*.py"))
    defined = set(re.findall(r"def (test_[a-z0-9_]+)\(", sources))
    assert named - defined == set()
