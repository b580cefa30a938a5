"""Properties of random legal play, for each preset and 2 to 16 players (hypothesis).

- no chip is created or lost;
- the hand always ends, and until it does someone is to act with something to do;
- no view and no visible event ever holds another player's unrevealed cards;
- what ``legal_actions`` offers is accepted, what it does not offer is refused;
- ``apply`` never changes the state it is given;
- at a table, hand after hand, chips carry over, the dealer moves one seat and a player
  with less than the boot is left out;
- the event log names every action, and replaying them from the same deal gives the same
  state and the same events.
"""

import copy
import random

from hypothesis import given, settings
from hypothesis import strategies as st

from engine.api import Action, RuleError, TablePosition
from engine.fairness import seeded_deck
from engine.teenpatti import preset_game
from engine.teenpatti.hand import VERBS, actions_from_events

MAX_STEPS = 5_000


@st.composite
def tables(draw, preset, *, min_players=None, max_players=None):
    rules = preset_game(preset)
    low = max(rules.min_players, min_players or 0)
    high = min(rules.max_players, max_players or 99)
    count = draw(st.integers(low, high))
    overrides = {}
    if draw(st.booleans()):
        overrides = {
            "blind_turns": draw(st.sampled_from([None, 2, 3, 4, 6])),
            "raise": draw(st.sampled_from(["any", "double"])),
            "sideshow": draw(st.sampled_from(["previous", "previous_seen", "off"])),
            "blind_show": draw(st.booleans()),
            "pot_limit_boots": draw(st.sampled_from([None, 4, 16, 64, 1024])),
            "stake_limit": draw(st.sampled_from([None, 20, 80, 400])),
        }
    boot = draw(st.sampled_from([1, 5, 10]))
    overrides["boot"] = boot
    if overrides.get("stake_limit"):
        overrides["stake_limit"] = max(2, overrides["stake_limit"] // 10) * boot
    stacks = draw(st.lists(st.integers(boot, 60 * boot), min_size=count, max_size=count))
    dealer = draw(st.integers(0, count - 1))
    seed = draw(st.integers(0, 2**32))
    return rules, rules.settings(overrides), stacks, dealer, seed


def choose(rng, rules, state, names):
    """A random legal action: now and then a blind player (any) looks; else the player to act moves."""
    blind = [name for name in names if any(a.verb == "see" for a in rules.legal_actions(state, name))]
    if blind and rng.random() < 0.15:
        return Action(rng.choice(blind), "see")
    player = rules.to_act(state)
    legal = rules.legal_actions(state, player)
    pick = rng.choice(legal)
    if pick.verb == "raise":
        boot = state.settings.boot
        return Action(player, "raise", rng.randrange(pick.min, pick.max + 1, boot))
    return Action(player, pick.verb)


def revealed_in(event, viewer):
    """Players whose cards ``event`` shows ``viewer``; fails on cards it must not show."""
    if not event.visible(viewer) or "cards" not in event.data:
        return set()
    if event.kind == "cards":
        assert event.data["player"] == viewer
        return {viewer}
    if event.kind == "sideshow_result":
        assert viewer in (event.data["asker"], event.data["partner"])
        return set(event.data["cards"])
    assert event.kind == "showdown" and event.visible_to is None, event
    return set(event.data["cards"])


def check_offers(rules, state, player):
    legal = rules.legal_actions(state, player)
    offered = {action.verb for action in legal}
    for action in legal:
        if action.verb == "raise":
            rules.check(state, Action(player, "raise", action.min))
            rules.check(state, Action(player, "raise", action.max))
            try:
                rules.check(state, Action(player, "raise", action.max + state.settings.boot))
            except RuleError:
                pass
            else:
                raise AssertionError("a raise above the offered maximum was accepted")
        else:
            rules.check(state, Action(player, action.verb))
    for verb in VERBS:
        if verb not in offered:
            try:
                rules.check(state, Action(player, verb, 10 * state.stake if verb == "raise" else None))
            except RuleError:
                continue
            raise AssertionError(f"{verb} was accepted but not offered to {player}")


def play_and_check(rules, table_settings, stacks, dealer, seed):
    rng = random.Random(seed)
    names = [f"P{i}" for i in range(len(stacks))]
    players = list(zip(names, stacks, strict=True))
    deck = seeded_deck(seed)
    state, events = rules.start_hand(settings=table_settings, players=players, dealer=dealer, deck=deck)
    start_state, start_events = state, list(events)
    total = sum(stacks)
    log = list(events)
    seen_by = {viewer: set() for viewer in [*names, None]}
    actions = []
    for _step in range(MAX_STEPS):
        assert sum(rules.result(state).stacks.values()) + state.pot == total
        for viewer in seen_by:
            for event in events:
                seen_by[viewer] |= revealed_in(event, viewer)
            view = rules.view(state, viewer)
            for player in view["players"]:
                if player["cards"] is not None:
                    assert player["name"] in seen_by[viewer], (viewer, player["name"])
            if viewer is not None and not state.seen[state.index[viewer]] and not state.public[state.index[viewer]]:
                assert view["your_cards"] is None and view["players"][state.index[viewer]]["cards"] is None
        if rules.is_finished(state):
            break
        player = rules.to_act(state)
        assert player is not None and rules.legal_actions(state)
        check_offers(rules, state, player)
        action = choose(rng, rules, state, names)
        before = copy.deepcopy(state)
        new_state, events = rules.apply(state, action)
        assert state == before, "apply changed the state it was given"
        state = new_state
        actions.append(action)
        log.extend(events)
    else:
        raise AssertionError("the hand did not end")
    assert rules.to_act(state) is None and rules.legal_actions(state) == []
    result = rules.result(state)
    assert sum(result.stacks.values()) == total and state.pot == 0
    assert sum(pot.amount for pot in result.pots) == sum(total_bet for total_bet in state.bets)
    assert all(result.stacks[name] >= 0 for name in names)

    assert actions_from_events(log) == actions
    replayed, replay_log = start_state, list(start_events)
    for action in actions:
        replayed, events = rules.apply(replayed, action)
        replay_log.extend(events)
    assert replayed == state
    assert [event.to_json() for event in replay_log] == [event.to_json() for event in log]
    again, again_events = rules.start_hand(settings=table_settings, players=players, dealer=dealer, deck=deck)
    assert again == start_state and again_events == start_events


@settings(max_examples=150, deadline=None)
@given(tables("faras"))
def test_random_faras_hands_keep_every_chip_end_and_hide_cards(table):
    play_and_check(*table)


@settings(max_examples=100, deadline=None)
@given(tables("classic"))
def test_random_classic_hands_keep_every_chip_end_and_hide_cards(table):
    play_and_check(*table)


@settings(max_examples=100, deadline=None)
@given(tables("999"))
def test_random_999_hands_keep_every_chip_end_and_hide_cards(table):
    play_and_check(*table)


@settings(max_examples=30, deadline=None)
@given(tables("999", min_players=12))
def test_random_999_hands_with_many_players(table):
    play_and_check(*table)


@settings(max_examples=25, deadline=None)
@given(
    preset=st.sampled_from(["faras", "classic", "999"]),
    stacks=st.lists(st.integers(0, 200), min_size=3, max_size=7),
    seed=st.integers(0, 2**32),
)
def test_a_table_of_random_hands_carries_chips_moves_the_dealer_and_skips_short_players(preset, stacks, seed):
    rules = preset_game(preset)
    rng = random.Random(seed)
    table_settings = rules.settings()
    boot = table_settings["boot"]
    seats = {f"S{i}": stack for i, stack in enumerate(stacks)}
    total = sum(stacks)
    position = TablePosition()
    last_dealer_seat = None
    for number in range(20):
        plan = rules.plan_hand(settings=table_settings, seats=list(seats.items()), previous=position)
        able = [name for name, stack in seats.items() if stack >= boot]
        if plan is None:
            assert len(able) < rules.min_players
            break
        assert [name for name, _ in plan.players] == able
        dealer = plan.players[plan.dealer][0]
        seat_order = list(seats)
        if last_dealer_seat is not None:
            # the first player dealt in after the last dealer's seat
            following = [seat_order[(last_dealer_seat + k) % len(seat_order)] for k in range(1, len(seat_order) + 1)]
            assert dealer == next(name for name in following if name in able)
        names = [name for name, _ in plan.players]
        state, _ = rules.start_hand(
            settings=plan.settings, players=plan.players, dealer=plan.dealer, deck=seeded_deck(f"{seed}-{number}")
        )
        while not rules.is_finished(state):
            state, _ = rules.apply(state, choose(rng, rules, state, names))
        seats.update(rules.result(state).stacks)
        assert sum(seats.values()) == total
        position = plan.position
        last_dealer_seat = seat_order.index(dealer)
