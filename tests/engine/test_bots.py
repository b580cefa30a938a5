"""Computer players (issue 15): every decision is legal, decisions are seeded and
repeatable, and a computer decides from its seat's view alone (no peeking)."""

from __future__ import annotations

import doctest
import random

import pytest

import engine.bots.holdem_odds
import engine.bots.teenpatti_odds
from engine.api import Action, Event
from engine.bots import STRENGTHS, BotError, History, choose_action, choose_variant, wants_to_act
from engine.bots.selfplay import Computer, play_hand
from engine.fairness import seeded_deck
from engine.games import GAME_NAMES, get_game

# Settings a host may choose, drawn at random so the computers meet every rule.
TEEN_PATTI_CHOICES = {
    "boot": [1, 5, 10, 25],
    "blind_turns": [None, 2, 4, 6],
    "stake_limit": [None],
    "pot_limit_boots": [None, 16, 64, 1024],
    "sideshow": ["previous", "previous_seen", "off"],
    "blind_show": [True, False],
    "raise": ["any", "double"],
}


def random_hand(game_name: str, rng: random.Random) -> dict:
    """A random table: players, stacks, dealer, settings and a mix of strengths."""
    game = get_game(game_name)
    count = rng.randint(game.min_players, min(game.max_players, 9))
    names = [f"P{index}" for index in range(count)]
    if game_name == "holdem":
        big = rng.choice([2, 20, 100])
        settings = {"small_blind": big // 2, "big_blind": big}
        stacks = [rng.choice([big // 2 + 1, 3 * big, 9 * big, 40 * big, 200 * big]) for _ in names]
    else:
        settings = game.settings({key: rng.choice(values) for key, values in TEEN_PATTI_CHOICES.items()})
        boot = settings["boot"]
        stacks = [rng.choice([boot, 3 * boot, 20 * boot, 100 * boot]) for _ in names]
    return {
        "game_name": game_name,
        "settings": settings,
        "players": list(zip(names, stacks, strict=True)),
        "dealer": rng.randrange(count),
        "deck": seeded_deck(rng.randrange(10**9)),
        "strategies": {name: Computer(rng.choice(STRENGTHS)) for name in names},
        "rngs": {name: random.Random(rng.randrange(10**9)) for name in names},
    }


@pytest.mark.parametrize("game_name", GAME_NAMES)
def test_every_decision_is_legal_over_many_random_hands(game_name):
    # play_hand checks each action with game.check before applying it: one illegal
    # choice fails here with the engine's RuleError.
    rng = random.Random(f"legal-{game_name}")
    decisions = 0
    for _ in range(40 if game_name == "holdem" else 80):
        hand = random_hand(game_name, rng)
        played = play_hand(**hand)
        game = get_game(game_name)
        assert game.is_finished(played.state)
        stacks = game.result(played.state).stacks
        assert sum(stacks.values()) == sum(stack for _, stack in hand["players"])
        decisions += played.decisions
    assert decisions > 200


@pytest.mark.parametrize("game_name", GAME_NAMES)
def test_a_hand_replays_action_for_action_with_the_same_seeds(game_name):
    for number in range(8):
        first = play_hand(**random_hand(game_name, random.Random(number)))
        second = play_hand(**random_hand(game_name, random.Random(number)))
        assert [event.to_json() for event in first.events] == [event.to_json() for event in second.events]


def test_different_seeds_give_different_play():
    outcomes = set()
    for seed in range(6):
        hand = random_hand("faras", random.Random(1))
        hand["rngs"] = {name: random.Random(seed) for name in hand["rngs"]}
        hand["strategies"] = {name: Computer("easy") for name in hand["strategies"]}
        outcomes.add(tuple(event.kind for event in play_hand(**hand).events))
    assert len(outcomes) > 1


# --- no peeking ----------------------------------------------------------------------------------


def _swap_hidden_cards(game_name: str, state, viewer: str, rng: random.Random):
    """A copy of ``state`` where every card ``viewer`` has not been shown is dealt anew:
    the other players' hidden cards (and, in hold'em, the cards still to come)."""
    game = get_game(game_name)
    view = game.view(state, viewer)
    shown = {entry["name"] for entry in view["players"] if entry["cards"] is not None}
    new = state.copy()
    if game_name == "holdem":
        from engine.holdem.state import board_positions, hole_card_positions

        visible = set(state.board)
        for seat, name in enumerate(state.names):
            if name in shown:
                visible.update(state.hole[seat])
        hidden = [card for card in range(52) if card not in visible]
        rng.shuffle(hidden)
        holes = [
            state.hole[seat] if name in shown else (hidden.pop(), hidden.pop()) for seat, name in enumerate(state.names)
        ]
        # The deck deals the same seen cards and new hidden ones: hole cards, the board so far, the rest.
        deck: list = [None] * 52
        for seat, positions in hole_card_positions(len(state.names), state.button).items():
            deck[positions[0]], deck[positions[1]] = holes[seat]
        for position, card in zip(board_positions(len(state.names)), state.board, strict=False):
            deck[position] = card
        deck = [card if card is not None else hidden.pop() for card in deck]
        new.hole, new.deck = tuple(holes), tuple(deck)
        return new
    from engine.teenpatti.ranking import score_table

    visible = set()
    for seat, name in enumerate(state.names):
        if name in shown:
            visible.update(state.cards[seat])
    hidden = [card for card in range(52) if card not in visible]
    rng.shuffle(hidden)
    cards = []
    for seat, name in enumerate(state.names):
        cards.append(state.cards[seat] if name in shown else (hidden.pop(), hidden.pop(), hidden.pop()))
    table = score_table(state.settings.ranking, state.settings.best_run)
    new.cards = tuple(cards)
    new.scores = tuple(table[1 << a | 1 << b | 1 << c] for a, b, c in cards)
    return new


@pytest.mark.parametrize("game_name", GAME_NAMES)
def test_a_computer_decides_the_same_whatever_the_cards_it_cannot_see(game_name):
    game = get_game(game_name)
    rng = random.Random(f"peek-{game_name}")
    compared = changed = 0
    for _ in range(12):
        hand = random_hand(game_name, rng)
        state, events = game.start_hand(
            settings=hand["settings"], players=hand["players"], dealer=hand["dealer"], deck=hand["deck"]
        )
        histories = {name: History().observe_engine_events(events, name) for name, _ in hand["players"]}
        while not game.is_finished(state):
            player = game.to_act(state)
            view = game.view(state, player)
            other = _swap_hidden_cards(game_name, state, player, rng)
            changed += other != state if game_name != "holdem" else other.hole != state.hole
            assert game.view(other, player) == view
            for strength in STRENGTHS:
                seed = rng.randrange(10**9)
                decided = [
                    choose_action(
                        game=game_name,
                        view=game.view(each, player),
                        player=player,
                        strength=strength,
                        rng=random.Random(seed),
                        history=histories[player],
                    )
                    for each in (state, other)
                ]
                assert decided[0] == decided[1]
                compared += 1
            action = hand["strategies"][player](
                game=game_name, view=view, player=player, rng=hand["rngs"][player], history=histories[player]
            )
            state, events = game.apply(state, action)
            histories = {name: h.observe_engine_events(events, name) for name, h in histories.items()}
    assert compared > 30
    assert changed > 10  # the hidden cards really did differ


def test_the_history_never_takes_in_an_event_the_seat_may_not_see():
    secret = Event("cards", {"player": "Asha", "cards": ["As", "Ad", "Ah"]}, frozenset({"Asha"}))
    seen = Event("see", {"player": "Asha"})
    history = History().observe_engine_events([seen, secret], "Bikash")
    assert history == History().observe_engine_events([seen], "Bikash")


# --- the opponent model --------------------------------------------------------------------------


def test_holdem_history_counts_voluntary_and_raised_hands_once_per_hand():
    events = [
        {"kind": "hand_started", "players": [{"name": "Asha", "stack": 1000}, {"name": "Bikash", "stack": 1000}]},
        {"kind": "blind", "player": "Asha", "blind": "small", "amount": 10, "all_in": False},
        {"kind": "action", "player": "Asha", "verb": "raise", "amount": 50},
        {"kind": "action", "player": "Bikash", "verb": "raise", "amount": 120},
        {"kind": "action", "player": "Asha", "verb": "raise", "amount": 240},
        {"kind": "action", "player": "Bikash", "verb": "call", "amount": 120},
        {"kind": "board", "street": "flop", "cards": ["2c", "7h", "Td"]},
        {"kind": "action", "player": "Asha", "verb": "bet", "amount": 100},
        {"kind": "action", "player": "Bikash", "verb": "call", "amount": 100},
    ]
    history = History().observe_all(events)
    asha, bikash = history.record("Asha"), history.record("Bikash")
    assert (asha.hands, asha.voluntary, asha.preflop_raises, asha.postflop_aggressive) == (1, 1, 1, 1)
    assert (bikash.voluntary, bikash.preflop_raises, bikash.postflop_passive) == (1, 1, 1)
    folded = (
        History()
        .observe_all([events[0], {"kind": "action", "player": "Asha", "verb": "fold", "amount": 0}])
        .record("Asha")
    )
    assert folded.voluntary == 0
    assert folded.vpip() < asha.vpip()


def test_teenpatti_history_counts_staying_in_after_seeing():
    start = {"kind": "hand_started", "players": [{"name": "Asha", "stack": 100}, {"name": "Bikash", "stack": 100}]}
    history = History().observe_all(
        [
            start,
            {"kind": "chaal", "player": "Asha", "blind": True},
            {"kind": "see", "player": "Asha"},
            {"kind": "chaal", "player": "Asha", "blind": False},
            {"kind": "raise", "player": "Asha", "blind": False},
            {"kind": "see", "player": "Bikash"},
            {"kind": "pack", "player": "Bikash", "reason": "pack"},
        ]
    )
    asha, bikash = history.record("Asha"), history.record("Bikash")
    assert (asha.saw, asha.stayed_seen, asha.bets, asha.raises) == (1, 1, 3, 1)
    assert (bikash.saw, bikash.stayed_seen) == (1, 0)
    assert asha.stay_seen() > bikash.stay_seen()


def test_teenpatti_history_reads_the_hands_turned_up_at_a_show_by_those_who_bet_seen():
    players = [{"name": "Asha", "stack": 100}, {"name": "Bikash", "stack": 100}]
    settings = {"ranking": "standard", "best_run": "AKQ"}
    history = History().observe_all(
        [
            {"kind": "hand_started", "players": players, "settings": settings},
            {"kind": "see", "player": "Asha"},
            {"kind": "chaal", "player": "Asha", "blind": False},
            {"kind": "chaal", "player": "Bikash", "blind": True},
            {
                "kind": "showdown",
                "reason": "pot_limit",
                "cards": {"Asha": ["As", "Ad", "Ah"], "Bikash": ["2s", "3d", "5h"]},
            },
        ]
    )
    asha, bikash = history.record("Asha"), history.record("Bikash")
    assert asha.shown == 1 and asha.shown_places > 0.99
    assert bikash.shown == 0  # blind: turned up by the pot limit, which says nothing of how they bet


# --- the strategies' rules of thumb --------------------------------------------------------------


def test_a_short_stack_goes_all_in_or_folds_before_the_flop():
    # Book 001's tip: under about ten big blinds, all in or fold is better than calling.
    rng = random.Random("short")
    game = get_game("holdem")
    verbs = set()
    for number in range(150):
        count = rng.randint(2, 6)
        players = [(f"P{k}", rng.randint(60, 190)) for k in range(count)]
        state, _ = game.start_hand(
            settings={"small_blind": 10, "big_blind": 20}, players=players, dealer=0, deck=seeded_deck(number)
        )
        player = game.to_act(state)
        if player is None:
            continue
        for strength in ("normal", "hard"):
            action = choose_action(
                game="holdem",
                view=game.view(state, player),
                player=player,
                strength=strength,
                rng=random.Random(number),
            )
            verbs.add(action.verb)
    assert verbs <= {"allin", "fold", "check"}
    assert {"allin", "fold"} <= verbs


def test_a_blind_teen_patti_player_looks_once_the_stake_has_grown():
    game = get_game("faras")

    def raised(stack_of_a):
        players = [("A", stack_of_a), ("B", 1000), ("C", 1000)]
        state, _ = game.start_hand(settings=game.settings(), players=players, dealer=0, deck=seeded_deck(3))
        state, _ = game.apply(state, Action("B", "raise", 40))
        state, _ = game.apply(state, Action("C", "chaal"))
        return choose_action(
            game="faras", view=game.view(state, "A"), player="A", strength="normal", rng=random.Random(1)
        )

    assert raised(3000) == Action("A", "see")
    # With as many chips as the two blind players, looking (seen bets cost double) would
    # make A the first to run dry in a chip race that blind players, who have nothing to
    # pack for, are likely to play out: it stays blind.
    assert raised(1000) == Action("A", "chaal")
    # B has the most chips, so it would not run dry first in a chip race: it bets blind.
    cheap, _ = game.start_hand(
        settings=game.settings(), players=[("A", 1000), ("B", 2000), ("C", 1000)], dealer=0, deck=seeded_deck(3)
    )
    action = choose_action(
        game="faras", view=game.view(cheap, "B"), player="B", strength="normal", rng=random.Random(1)
    )
    assert action == Action("B", "chaal")  # a blind chaal at the boot


def _teen_patti_table(game_name, players, *, dealer=0, settings=None):
    game = get_game(game_name)
    state, _ = game.start_hand(
        settings=game.settings(settings or {}), players=players, dealer=dealer, deck=seeded_deck(7)
    )
    return game, state


def test_the_chip_race_names_who_would_run_dry_first():
    from engine.bots.teenpatti_table import first_out, read_table

    # Book 000: with three or more in, a player who can't cover the chaal must pack.
    game, state = _teen_patti_table("faras", [("A", 1000), ("B", 1000), ("C", 1000)])
    assert first_out(read_table(game.view(state, "B"), "B")) == "B"  # equal stacks: the first to act
    game, state = _teen_patti_table("faras", [("A", 1000), ("B", 1200), ("C", 1000)])
    assert first_out(read_table(game.view(state, "B"), "B")) == "C"
    # Seen bets cost double: without a blind-turn limit (Classic), B, seen, runs dry before
    # the two blind players with less.
    game, state = _teen_patti_table("classic", [("A", 1000), ("B", 1200), ("C", 1000)])
    assert first_out(read_table(game.view(state, "B"), "B")) == "C"
    assert first_out(read_table(game.view(state, "B"), "B"), me_seen=True) == "B"
    # Two left, or a pot limit reached first: no race.
    game, state = _teen_patti_table("faras", [("A", 1000), ("B", 1000)])
    assert first_out(read_table(game.view(state, "B"), "B")) is None
    game, state = _teen_patti_table("faras", [("A", 1000), ("B", 1000), ("C", 1000)], settings={"pot_limit_boots": 64})
    assert first_out(read_table(game.view(state, "B"), "B")) is None


def test_who_would_run_dry_first_does_not_pay_on_blind():
    from engine.bots.teenpatti_table import first_out, read_table

    game, state = _teen_patti_table("faras", [("A", 1000), ("B", 1000), ("C", 1000)])
    decided = {
        strength: choose_action(
            game="faras", view=game.view(state, "B"), player="B", strength=strength, rng=random.Random(2)
        ).verb
        for strength in STRENGTHS
    }
    # At the first turn the others may yet look and pack: normal and hard look (it is free).
    assert decided == {"easy": "pack", "normal": "see", "hard": "see"}
    # Both others still blind after two blind chaals each: nothing will make them pack
    # until they look, and every strength packs rather than race them to the bottom of its stack.
    for player in "BCABCA":
        state, _ = game.apply(state, Action(player, "chaal"))
    decided = {
        strength: choose_action(
            game="faras", view=game.view(state, "B"), player="B", strength=strength, rng=random.Random(2)
        ).verb
        for strength in STRENGTHS
    }
    assert decided == {"easy": "pack", "normal": "pack", "hard": "pack"}
    # When both have just looked (and may well pack), normal and hard look first (looking is free).
    game, short = _teen_patti_table("faras", [("A", 1000), ("B", 600), ("C", 1000)])
    looked = game.apply(game.apply(short, Action("A", "see"))[0], Action("C", "see"))[0]
    assert first_out(read_table(game.view(looked, "B"), "B")) == "B"
    decided = {
        strength: choose_action(
            game="faras", view=game.view(looked, "B"), player="B", strength=strength, rng=random.Random(2)
        ).verb
        for strength in STRENGTHS
    }
    assert decided == {"easy": "pack", "normal": "see", "hard": "see"}
    # Hard, having watched both opponents stay in every hand they looked at, packs at once.
    history = History()
    for _ in range(30):
        history = history.observe_all(
            [
                {"kind": "hand_started", "players": [{"name": name, "stack": 1000} for name in "ABC"]},
                *({"kind": "see", "player": name} for name in "AC"),
                *({"kind": "chaal", "player": name, "blind": False} for name in "AC"),
            ]
        )
    action = choose_action(
        game="faras", view=game.view(looked, "B"), player="B", strength="hard", rng=random.Random(2), history=history
    )
    assert action.verb == "pack"
    # Further round the table, where others would run dry first, everyone bets blind or looks.
    state, _ = game.apply(state, Action("B", "chaal"))
    for strength in STRENGTHS:
        action = choose_action(
            game="faras", view=game.view(state, "C"), player="C", strength=strength, rng=random.Random(2)
        )
        assert action.verb in ("chaal", "see")


def test_asking_a_computer_out_of_turn_or_at_an_unknown_strength_is_refused():
    game = get_game("holdem")
    state, _ = game.start_hand(
        settings={"small_blind": 10, "big_blind": 20}, players=[("A", 1000), ("B", 1000)], dealer=0, deck=seeded_deck(1)
    )
    waiting = "B" if game.to_act(state) == "A" else "A"
    assert not wants_to_act(game.view(state, waiting), waiting)
    with pytest.raises(BotError) as refused:
        choose_action(
            game="holdem", view=game.view(state, waiting), player=waiting, strength="easy", rng=random.Random()
        )
    assert refused.value.code == "not_your_turn"
    player = game.to_act(state)
    with pytest.raises(BotError) as refused:
        choose_action(game="holdem", view=game.view(state, player), player=player, strength="wild", rng=random.Random())
    assert refused.value.code == "unknown_strength"


# --- odds ----------------------------------------------------------------------------------------


def test_equity_by_simulation_is_close_to_the_known_figures():
    from engine.bots.holdem_odds import Opponent, equity
    from engine.cards import parse_card, parse_cards

    rng = random.Random(5)
    aces = equity(hole=parse_cards(["As", "Ah"]), board=(), opponents=[Opponent(1.0)], rng=rng, trials=3000)
    assert 0.82 < aces < 0.88  # a pair of aces against any hand: about 85%
    flush_draw = equity(
        hole=parse_cards(["Ks", "Qs"]),
        board=parse_cards(["2s", "7s", "4d"]),
        opponents=[Opponent(1.0, cards=(parse_card("Ac"), parse_card("Ah")))],
        rng=rng,
        trials=3000,
    )
    assert 0.30 < flush_draw < 0.40  # nine outs twice, against a set: about a third (book 001's tip)


def test_teen_patti_hand_place_follows_the_ranking():
    from engine.bots.teenpatti_odds import beat_chance, hand_place

    faras = {"ranking": "standard", "best_run": "AKQ"}
    places = [hand_place(cards, faras) for cards in (["2s", "3h", "5d"], ["8s", "8h", "2d"], ["As", "Ks", "Qs"])]
    assert places == sorted(places)
    assert hand_place(["9s", "Ah", "Kd"], {"ranking": "digits", "best_run": "A23"}) > hand_place(
        ["5s", "4h", "3d"], {"ranking": "digits", "best_run": "A23"}
    )
    assert beat_chance(0.9, 1.0) == pytest.approx(0.9)
    assert beat_chance(0.4, 0.5) == 0.0


@pytest.mark.parametrize("module", [engine.bots.holdem_odds, engine.bots.teenpatti_odds], ids=lambda m: m.__name__)
def test_docstring_examples(module):
    result = doctest.testmod(module)
    assert result.attempted > 0 and result.failed == 0


def test_holdem_history_counts_folds_to_bets_after_the_flop_only():
    start = {"kind": "hand_started", "players": [{"name": "Asha", "stack": 1000}, {"name": "Bikash", "stack": 1000}]}
    history = History().observe_all(
        [
            start,
            {"kind": "action", "player": "Asha", "verb": "raise"},
            {"kind": "action", "player": "Bikash", "verb": "call"},  # before the flop: not a bet faced after it
            {"kind": "board", "street": "flop"},
            {"kind": "action", "player": "Bikash", "verb": "check"},
            {"kind": "action", "player": "Asha", "verb": "bet"},
            {"kind": "action", "player": "Bikash", "verb": "call"},
            {"kind": "board", "street": "turn"},
            {"kind": "action", "player": "Bikash", "verb": "check"},
            {"kind": "action", "player": "Asha", "verb": "bet"},
            {"kind": "action", "player": "Bikash", "verb": "fold"},
        ]
    )
    bikash = history.record("Bikash")
    assert (bikash.faced_bets, bikash.folded_to_bets) == (2, 1)
    assert history.record("Asha").faced_bets == 0


def _faras_heads_up_after_blind_turns(deck_seed):
    """Heads-up Faras: three blind chaals each, then B looks and bets seen, then A looks."""
    game = get_game("faras")
    state, _ = game.start_hand(
        settings=game.settings(), players=[("A", 1000), ("B", 1000)], dealer=0, deck=seeded_deck(deck_seed)
    )
    for player in "BABABA":
        state, _ = game.apply(state, Action(player, "chaal"))
    for action in (Action("B", "see"), Action("B", "chaal"), Action("A", "see")):
        state, _ = game.apply(state, action)
    return game, state


def test_normal_asks_for_a_show_when_its_chance_pays_the_cost():
    from engine.bots.teenpatti_odds import beat_chance, hand_place

    # Pot 100, a show costs 20: a chance of winning above 20 / 120 pays (book 001's "count
    # the pot before you call"), against B put on the top 70% of hands for betting seen.
    decided = {}
    for deck_seed in range(400):
        game, state = _faras_heads_up_after_blind_turns(deck_seed)
        view = game.view(state, "A")
        assert view["pot"] == 100 and {e["verb"] for e in view["legal"]} >= {"show", "pack"}
        win = beat_chance(hand_place(view["your_cards"], view["settings"]), 0.7)
        band = "pays" if 0.2 < win < 0.3 else ("short" if win < 0.15 else None)
        if band is None or band in decided:
            continue
        action = choose_action(game="faras", view=view, player="A", strength="normal", rng=random.Random(1))
        decided[band] = action.verb
        if len(decided) == 2:
            break
    assert decided == {"pays": "show", "short": "pack"}


def test_hard_looks_when_a_tight_player_bets_again_after_looking():
    game = get_game("faras")
    state, _ = game.start_hand(
        settings=game.settings(), players=[("A", 1000), ("B", 1000)], dealer=0, deck=seeded_deck(11)
    )
    state, _ = game.apply(state, Action("B", "see"))
    state, _ = game.apply(state, Action("B", "chaal"))
    tight = History()
    for _ in range(30):  # B looked every hand and bet again only once in five
        tight = tight.observe_all(
            [
                {"kind": "hand_started", "players": [{"name": "A", "stack": 1000}, {"name": "B", "stack": 1000}]},
                {"kind": "see", "player": "B"},
                {"kind": "chaal", "player": "B", "blind": False} if _ % 5 == 0 else {"kind": "pack", "player": "B"},
            ]
        )
    this_hand = [
        {"kind": "hand_started", "players": [{"name": "A", "stack": 1000}, {"name": "B", "stack": 1000}]},
        {"kind": "see", "player": "B"},
        {"kind": "chaal", "player": "B", "blind": False},
    ]
    view = game.view(state, "A")
    hard = choose_action(
        game="faras", view=view, player="A", strength="hard", rng=random.Random(3), history=tight.observe_all(this_hand)
    )
    assert hard == Action("A", "see")
    normal = choose_action(
        game="faras",
        view=view,
        player="A",
        strength="normal",
        rng=random.Random(3),
        history=History().observe_all(this_hand),
    )
    assert normal == Action("A", "chaal")  # normal, without the read, bets blind while the stake is low


# --- hold'em: hard's reads ------------------------------------------------------------------------


def _holdem_hand(events_per_player):
    start = {"kind": "hand_started", "players": [{"name": "Asha", "stack": 1000}, {"name": "Bikash", "stack": 1000}]}
    return [start, *events_per_player]


def test_holdem_history_counts_folds_to_a_raise_before_the_flop_once_per_hand():
    raised_and_folded = _holdem_hand(
        [
            {"kind": "action", "player": "Asha", "verb": "raise"},
            {"kind": "action", "player": "Bikash", "verb": "fold"},
        ]
    )
    raised_and_called = _holdem_hand(
        [
            {"kind": "action", "player": "Asha", "verb": "raise"},
            {"kind": "action", "player": "Bikash", "verb": "raise"},
            {"kind": "action", "player": "Asha", "verb": "raise"},
            {"kind": "action", "player": "Bikash", "verb": "call"},
        ]
    )
    history = History().observe_all([*raised_and_folded, *raised_and_called, *raised_and_folded])
    bikash, asha = history.record("Bikash"), history.record("Asha")
    assert (bikash.faced_raises, bikash.folded_to_raises) == (3, 2)
    assert (asha.faced_raises, asha.folded_to_raises) == (1, 0)  # Bikash's re-raise, once
    # Asha made the first raise each time she could; Bikash never had the chance.
    assert (asha.open_chances, asha.opens, bikash.open_chances) == (3, 3, 0)
    assert asha.open_share() > History().record("Asha").open_share()
    assert bikash.fold_to_raise() > asha.fold_to_raise()


def test_holdem_history_reads_bluffs_from_the_hands_turned_up_after_betting():
    def hand(cards):
        return _holdem_hand(
            [
                {"kind": "board", "street": "flop", "cards": ["2c", "7h", "Td"]},
                {"kind": "action", "player": "Asha", "verb": "bet"},
                {"kind": "action", "player": "Bikash", "verb": "call"},
                {"kind": "board", "street": "turn", "cards": ["Js"]},
                {"kind": "board", "street": "river", "cards": ["3d"]},
                {"kind": "show", "player": "Asha", "cards": cards, "reason": "showdown"},
                {"kind": "show", "player": "Bikash", "cards": ["Ah", "Th"], "reason": "showdown"},
            ]
        )

    history = History().observe_all([*hand(["Kc", "Qd"]), *hand(["5c", "4d"]), *hand(["Tc", "9c"])])
    asha, bikash = history.record("Asha"), history.record("Bikash")
    assert (asha.shown_bets, asha.shown_bluffs) == (3, 2)  # K-Q and 5-4 high; T-9 a pair of tens
    assert bikash.shown_bets == 0  # he only called
    assert asha.bluff_share(0.3) > History().record("Asha").bluff_share(0.3)


def _holdem_history_of(name, *, fold_to_raise, hands=40):
    """``name`` faced a raise before the flop in each of ``hands`` hands and folded that share."""
    history = History()
    for number in range(hands):
        history = history.observe_all(
            [
                {"kind": "hand_started", "players": [{"name": "Hero", "stack": 2000}, {"name": name, "stack": 2000}]},
                {"kind": "action", "player": "Hero", "verb": "raise"},
                {"kind": "action", "player": name, "verb": "fold" if number < fold_to_raise * hands else "call"},
            ]
        )
    return history


def test_hard_opens_more_hands_against_a_player_who_folds_to_raises():
    # Book 001: "The hard computer players keep track of how loosely each player has played".
    game = get_game("holdem")
    folder = _holdem_history_of("Villain", fold_to_raise=0.9)
    caller = _holdem_history_of("Villain", fold_to_raise=0.1)
    opened = {"folder": 0, "caller": 0, "normal": 0}
    for number in range(60):
        state, events = game.start_hand(
            settings={"small_blind": 10, "big_blind": 20},
            players=[("Hero", 2000), ("Villain", 2000)],
            dealer=0,
            deck=seeded_deck(number),
        )
        assert game.to_act(state) == "Hero"  # heads-up, the button acts first before the flop
        view = game.view(state, "Hero")
        for key, strength, history in (
            ("folder", "hard", folder),
            ("caller", "hard", caller),
            ("normal", "normal", folder),
        ):
            now = history.observe_engine_events(events, "Hero")
            action = choose_action(
                game="holdem", view=view, player="Hero", strength=strength, rng=random.Random(number), history=now
            )
            opened[key] += action.verb in ("raise", "allin")
    assert opened["folder"] > opened["caller"]
    assert opened["folder"] > opened["normal"]  # normal keeps its own ranges whatever it has seen


def test_hard_re_raises_more_against_a_player_who_folds_to_raises():
    game = get_game("holdem")
    folder = _holdem_history_of("Villain", fold_to_raise=0.9)
    caller = _holdem_history_of("Villain", fold_to_raise=0.1)
    re_raised = {"folder": 0, "caller": 0}
    for number in range(60):
        state, events = game.start_hand(
            settings={"small_blind": 10, "big_blind": 20},
            players=[("Villain", 2000), ("Hero", 2000)],
            dealer=0,
            deck=seeded_deck(number),
        )
        state, more = game.apply(state, Action("Villain", "raise", 50))  # the button opens
        assert game.to_act(state) == "Hero"
        view = game.view(state, "Hero")
        for key, history in (("folder", folder), ("caller", caller)):
            now = history.observe_engine_events([*events, *more], "Hero")
            action = choose_action(
                game="holdem", view=view, player="Hero", strength="hard", rng=random.Random(number), history=now
            )
            re_raised[key] += action.verb in ("raise", "allin")
    # Against the folder it re-raises any hand; against the caller only those worth it for value.
    assert re_raised["folder"] > re_raised["caller"] + 10


# --- the opponent model reads what it sees (issue 27) ---------------------------------------------


def test_holdem_history_reads_hands_turned_up_at_an_all_in_once_the_board_is_out():
    hand = _holdem_hand(
        [
            {"kind": "board", "street": "flop", "cards": ["2c", "7h", "Td"]},
            {"kind": "action", "player": "Asha", "verb": "bet"},
            {"kind": "action", "player": "Bikash", "verb": "allin"},
            {"kind": "action", "player": "Asha", "verb": "allin"},
            # Turned up at the all-in, before the turn and river are dealt.
            {"kind": "show", "player": "Asha", "cards": ["5c", "4d"], "reason": "all_in"},
            {"kind": "show", "player": "Bikash", "cards": ["Ah", "Th"], "reason": "all_in"},
            {"kind": "board", "street": "turn", "cards": ["Js"]},
        ]
    )
    history = History().observe_all(hand)
    assert history.record("Asha").shown_bets == 0  # not read yet: the board is not out
    history = history.observe({"kind": "board", "street": "river", "cards": ["3d"]})
    asha = history.record("Asha")
    assert (asha.shown_bets, asha.shown_bluffs) == (1, 1)  # a bet with 5-4 high: a bluff
    assert history.pending_shows == ()


def _teen_patti_start(*names, stack=1000, blind_turns=4):
    settings = {"boot": 10, "blind_turns": blind_turns, "ranking": "standard", "best_run": "AKQ"}
    players = [{"name": name, "stack": stack} for name in names]
    return [
        {"kind": "hand_started", "players": players, "settings": settings},
        {"kind": "boot", "amount": 10, "pot": 10 * len(names), "players": list(names)},
    ]


def test_teenpatti_history_keeps_blind_raises_apart_from_seen_ones():
    history = History()
    for _ in range(20):  # raises blind every turn, looks only when the blind turns run out
        history = history.observe_all(
            [
                *_teen_patti_start("Maniac", "Asha"),
                *(
                    {"kind": "raise", "player": "Maniac", "blind": True, "stake": 20 * 2**k, "stack": 900 - 100 * k}
                    for k in range(4)
                ),
                {"kind": "see", "player": "Maniac"},
                {"kind": "raise", "player": "Maniac", "blind": False, "stake": 320, "stack": 0},
            ]
        )
    maniac = history.record("Maniac")
    assert (maniac.blind_bets, maniac.blind_raises, maniac.bets, maniac.raises) == (80, 80, 100, 100)
    assert maniac.blind_raise_share() > 0.9
    # The looks were forced (four blind turns used), not chosen; after looking it always bet.
    assert maniac.looked_after_blind == 0 and maniac.look_share() < 0.3
    assert (maniac.saw, maniac.stayed_seen) == (20, 20) and maniac.stay_seen() > 0.9


def test_teenpatti_history_does_not_read_a_pack_forced_by_a_short_stack_as_tightness():
    history = History()
    for _ in range(20):  # a station, short of the chaal three-handed, must look and pack
        history = history.observe_all(
            [
                *_teen_patti_start("Station", "Asha", "Bikash", blind_turns=None),
                {"kind": "chaal", "player": "Station", "blind": True, "stake": 10, "stack": 5},
                {"kind": "see", "player": "Station"},
                {"kind": "pack", "player": "Station", "reason": "pack"},
            ]
        )
    station = history.record("Station")
    assert (station.saw, station.looked_after_blind) == (0, 0)
    assert station.stay_seen() == History().record("Station").stay_seen()  # no evidence either way
    # The same pack with chips to spare is a choice, and counted.
    chosen = (
        History()
        .observe_all(
            [
                *_teen_patti_start("Rock", "Asha", "Bikash"),
                {"kind": "chaal", "player": "Rock", "blind": True, "stake": 10, "stack": 980},
                {"kind": "see", "player": "Rock"},
                {"kind": "pack", "player": "Rock", "reason": "pack"},
            ]
        )
        .record("Rock")
    )
    assert (chosen.saw, chosen.stayed_seen, chosen.looked_after_blind) == (1, 0, 1)


# --- Teen Patti against blind players (issue 27) ---------------------------------------------------


def test_heads_up_against_a_blind_player_normal_and_hard_stay_blind():
    # Book 000: a seen player may not ask a blind one for a show. At 999 (no blind-turn
    # limit), seen against a player who never looks, a computer could only pack in the end.
    game = get_game("999")
    state, _ = game.start_hand(
        settings=game.settings(), players=[("A", 1000), ("B", 1000)], dealer=0, deck=seeded_deck(5)
    )
    for _ in range(3):  # the stake climbs to 80, eight boots: normal would look in a three-way pot
        state, _ = game.apply(state, Action("B", "raise", 2 * state.stake))
        for strength in ("normal", "hard"):
            action = choose_action(
                game="999", view=game.view(state, "A"), player="A", strength=strength, rng=random.Random(4)
            )
            assert action.verb in ("chaal", "raise"), (strength, action)
        state, _ = game.apply(state, Action("A", "chaal"))


def test_short_of_a_chaal_against_a_blind_player_a_computer_asks_for_a_blind_show():
    game = get_game("999")
    state, _ = game.start_hand(
        settings=game.settings(), players=[("A", 60), ("B", 1000)], dealer=0, deck=seeded_deck(5)
    )
    state, _ = game.apply(state, Action("B", "raise", 20))
    state, _ = game.apply(state, Action("A", "chaal"))  # A has 30 left
    state, _ = game.apply(state, Action("B", "raise", 40))  # a chaal now costs 40
    view = game.view(state, "A")
    assert "chaal" not in {entry["verb"] for entry in view["legal"]}
    for strength in ("normal", "hard"):
        action = choose_action(game="999", view=view, player="A", strength=strength, rng=random.Random(1))
        assert action == Action("A", "show")  # looking would leave it no show to ask


def test_heads_up_a_blind_computer_looks_once_a_seen_opponent_bets_on():
    game = get_game("999")
    state, events = game.start_hand(
        settings=game.settings(), players=[("A", 1000), ("B", 1000)], dealer=0, deck=seeded_deck(5)
    )
    history = History().observe_engine_events(events, "A")
    for action in (Action("B", "see"), Action("B", "chaal")):
        state, events = game.apply(state, action)
        history = history.observe_engine_events(events, "A")
    for strength in ("normal", "hard"):
        action = choose_action(
            game="999", view=game.view(state, "A"), player="A", strength=strength, rng=random.Random(1), history=history
        )
        assert action == Action("A", "see")
    # Without the record of this hand (B looked but has not bet since) it bets blind.
    fresh = History().observe_engine_events(events, "A")
    action = choose_action(
        game="999", view=game.view(state, "A"), player="A", strength="normal", rng=random.Random(1), history=fresh
    )
    assert action.verb == "chaal"


def _999_heads_up_at(stacks, raises, *, game_name="999"):
    """A 999 hand between A and B (B bets first): B raises to each stake in ``raises`` in
    turn and A chaals each, both blind."""
    game = get_game(game_name)
    state, _ = game.start_hand(
        settings=game.settings(), players=[("A", stacks[0]), ("B", stacks[1])], dealer=0, deck=seeded_deck(5)
    )
    for stake in raises:
        state, _ = game.apply(state, Action("B", "raise", stake) if stake > state.stake else Action("B", "chaal"))
        state, _ = game.apply(state, Action("A", "chaal"))
    return game, state


def _stacks(game, state):
    return {entry["name"]: int(entry["stack"]) for entry in game.view(state, "A")["players"]}


def test_a_raise_the_blind_opponent_cannot_cover_makes_them_show_for_what_they_have():
    # Both blind, heads-up at 999, 1,000 each: after the raises and chaals B has 370, chaals
    # 160 and has 210 left, A 370. B can cover a chaal but not a raise to 220: A raises to it.
    game, state = _999_heads_up_at((1000, 1000), [20, 40, 80, 160, 160, 160])
    state, _ = game.apply(state, Action("B", "chaal"))
    assert _stacks(game, state) == {"A": 370, "B": 210} and state.stake == 160
    view = game.view(state, "A")
    for strength in ("normal", "hard"):
        action = choose_action(game="999", view=view, player="A", strength=strength, rng=random.Random(2))
        assert action == Action("A", "raise", 220), strength  # the smallest raise B cannot cover
    before = sum(_stacks(game, state).values()) + state.pot
    after, _ = game.apply(state, Action("A", "raise", 220))
    legal = {entry["verb"]: entry for entry in game.view(after, "B")["legal"]}
    assert "chaal" not in legal and "raise" not in legal and "show" in legal  # a show for all B has
    shown, _ = game.apply(after, Action("B", "show"))
    result = game.result(shown).stacks
    assert sum(result.values()) == before  # no chip created or lost
    assert result["A"] >= 150  # the 150 A kept back stayed out of the pot, whoever won
    assert result["B"] in (0, before - 150)  # no side pot: the better hand took all 1,850 in it


def test_no_raise_above_a_stack_where_it_wins_nothing_more():
    # B already short of a chaal: a chaal keeps more back than any raise.
    game, state = _999_heads_up_at((1000, 1000), [20, 40, 80, 160, 160, 160, 160])
    state, _ = game.apply(state, Action("B", "chaal"))
    assert _stacks(game, state) == {"A": 210, "B": 50}
    for strength in ("normal", "hard"):
        action = choose_action(
            game="999", view=game.view(state, "A"), player="A", strength=strength, rng=random.Random(2)
        )
        assert action == Action("A", "chaal"), strength
    # Faras has no blind show: a blind player short of a chaal could only pack, and the
    # computers do not play for that.
    faras = get_game("faras")
    state, _ = faras.start_hand(
        settings=faras.settings({"blind_turns": None}),
        players=[("A", 1000), ("B", 300)],
        dealer=0,
        deck=seeded_deck(5),
    )
    state, _ = faras.apply(state, Action("B", "chaal"))
    for strength in ("normal", "hard"):
        action = choose_action(
            game="faras", view=faras.view(state, "A"), player="A", strength=strength, rng=random.Random(2)
        )
        assert action.verb != "raise", strength


def test_blind_against_blind_hard_never_doubles_and_easy_doubles_only_to_a_stake_its_stack_is_a_multiple_of():
    # Hard does not raise the stake blind against a blind player (a bigger stake only opens
    # the raise above its stack to them); normal and easy now and then double it.
    game = get_game("999")
    raised = {"easy": [], "normal": [], "hard": []}
    for seed in range(40):
        state, _ = game.start_hand(
            settings=game.settings(), players=[("A", 1000), ("B", 1000)], dealer=0, deck=seeded_deck(seed)
        )
        for _ in range(12):  # B chaals, A answers: the pot grows past a dozen stakes
            state, _ = game.apply(state, Action("B", "chaal"))
            view = game.view(state, "A")
            for strength in raised:
                action = choose_action(
                    game="999", view=view, player="A", strength=strength, rng=random.Random(f"{seed}{strength}")
                )
                if action.verb == "raise":
                    raised[strength].append((_stacks(game, state)["A"], action.amount))
            state, _ = game.apply(state, Action("A", "chaal"))
    assert raised["hard"] == []
    assert raised["normal"] and raised["easy"]
    assert all((stack - amount) % amount == 0 for stack, amount in raised["easy"] + raised["normal"])


def _faras_three(actions, *, deck=5):
    """A Faras hand of A, B and C (B bets first) after ``actions``, with A's history of it."""
    game = get_game("faras")
    state, events = game.start_hand(
        settings=game.settings(), players=[("A", 1000), ("B", 1000), ("C", 1000)], dealer=0, deck=seeded_deck(deck)
    )
    history = History().observe_engine_events(events, "A")
    for action in actions:
        state, events = game.apply(state, action)
        history = history.observe_engine_events(events, "A")
    return game, state, history


def test_with_three_in_a_blind_normal_computer_looks_once_someone_looks_and_bets_on():
    # Nobody has looked: it bets blind. B looks and chaals: B holds a hand; looking is free.
    game, state, history = _faras_three([Action("B", "chaal"), Action("C", "chaal")])
    view = game.view(state, "A")
    action = choose_action(
        game="faras", view=view, player="A", strength="normal", rng=random.Random(1), history=history
    )
    assert action.verb in ("chaal", "raise")
    game, state, history = _faras_three([Action("B", "see"), Action("B", "chaal"), Action("C", "chaal")])
    view = game.view(state, "A")
    action = choose_action(
        game="faras", view=view, player="A", strength="normal", rng=random.Random(1), history=history
    )
    assert action == Action("A", "see")


def test_normal_reads_a_seen_raise_and_two_seen_bettors_as_stronger_hands():
    from engine.bots.teenpatti import MULTIWAY_SEEN_FACTOR, NORMAL, SEEN_RAISE_FACTOR, _share
    from engine.bots.teenpatti_table import read_table

    def share_of(name, actions):
        game, state, history = _faras_three(actions)
        table = read_table(game.view(state, "A"), "A")
        opponent = next(p for p in table.players if p.name == name)
        return _share(opponent, table, history, NORMAL)

    assert share_of("B", [Action("B", "see"), Action("B", "chaal")]) == NORMAL.seen_share
    assert share_of("B", [Action("B", "see"), Action("B", "raise", 20)]) == NORMAL.seen_share * SEEN_RAISE_FACTOR
    # Raised blind first, then again seen: one who raises whatever they hold.
    blind_then_seen = [Action("B", "raise", 20), Action("C", "chaal"), Action("A", "chaal"), Action("B", "see")]
    assert share_of("B", [*blind_then_seen, Action("B", "raise", 40)]) == NORMAL.seen_share
    both = [Action("B", "see"), Action("B", "chaal"), Action("C", "see"), Action("C", "chaal")]
    assert share_of("B", both) == share_of("C", both) == NORMAL.seen_share * MULTIWAY_SEEN_FACTOR


def test_heads_up_normal_does_not_raise_back_at_a_player_who_raised_after_looking():
    game = get_game("faras")
    verbs = {"raise": set(), "chaal": set()}
    for seed in range(60):
        for answer in verbs:
            state, events = game.start_hand(
                settings=game.settings(), players=[("A", 1000), ("B", 1000)], dealer=0, deck=seeded_deck(seed)
            )
            history = History().observe_engine_events(events, "A")
            steps = [Action("B", "see"), Action("B", "raise", 20) if answer == "raise" else Action("B", "chaal")]
            for action in [*steps, Action("A", "see")]:
                state, events = game.apply(state, action)
                history = history.observe_engine_events(events, "A")
            action = choose_action(
                game="faras",
                view=game.view(state, "A"),
                player="A",
                strength="normal",
                rng=random.Random(seed),
                history=history,
            )
            verbs[answer].add(action.verb)
    assert "raise" in verbs["chaal"]  # its strong hands raise a seen chaal
    assert "raise" not in verbs["raise"]  # but not a seen raise: it stays or shows


def test_teenpatti_history_names_who_raised_blind_in_the_hand_in_play_only():
    game, _state, history = _faras_three([Action("B", "raise", 20), Action("C", "see"), Action("C", "raise", 40)])
    assert history.this_hand_blind_raised == ("B",)  # C's raise was seen
    _fresh, events = game.start_hand(
        settings=game.settings(), players=[("A", 1000), ("B", 1000), ("C", 1000)], dealer=1, deck=seeded_deck(6)
    )
    assert history.observe_engine_events(events, "A").this_hand_blind_raised == ()


def test_a_computer_calls_one_of_the_allowed_variants_seeded_and_each_can_come():
    allowed = ["none", "muflis", "ak47", "joker", "four_card"]
    calls = [choose_variant(allowed=allowed, rng=random.Random(seed)) for seed in range(200)]
    assert set(calls) == set(allowed)  # every allowed variant is called by some seed, and nothing else
    assert calls == [choose_variant(allowed=allowed, rng=random.Random(seed)) for seed in range(200)]
    # The host's list in another order, or with a repeat, draws from the same variants.
    assert {choose_variant(allowed=["joker", "none", "joker"], rng=random.Random(seed)) for seed in range(50)} == {
        "joker",
        "none",
    }
    with pytest.raises(BotError) as refused:
        choose_variant(allowed=[], rng=random.Random(0))
    assert refused.value.code == "no_variants"


def test_a_computers_variant_call_is_drawn_evenly():
    """5,000 fixed seeds: each of five allowed variants is called 1,000 times, give or take 10%."""
    allowed = ["none", "muflis", "ak47", "joker", "four_card"]
    counts = dict.fromkeys(allowed, 0)
    for seed in range(5000):
        counts[choose_variant(allowed=allowed, rng=random.Random(seed))] += 1
    assert all(900 <= count <= 1100 for count in counts.values()), counts
