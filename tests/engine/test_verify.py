"""``python -m engine verify`` (engine.verify) and the export format (engine.export):
an honest game is accepted; a changed deal, player seed or commitment is caught and
the hand named; a broken file is exit status 2."""

from __future__ import annotations

import copy
import io
import json
import random
import subprocess
import sys
from pathlib import Path

import pytest

from engine import export, verify
from engine.api import Action, RuleError, TablePosition
from engine.fairness import commitment, hand_deck

SECRET = bytes.fromhex("8f" * 16 + "11" * 16)
TABLE = "table-42"


def run(data, *args: str) -> tuple[int, str]:
    """Run the verifier on ``data`` given on standard input; returns (exit status, output)."""
    out = io.StringIO()
    status = verify.main([*args, "-"], stdout=out, stdin=io.StringIO(json.dumps(data)))
    return status, out.getvalue()


def hand_started_event(
    number: int, seeds: list[str], players: list[tuple[str, int]], dealer: int, *, secret: bytes = SECRET
) -> dict:
    """The site's record of a deal, as its event log keeps it (tables.services.hands)."""
    return {
        "seq": 1000 * number,
        "kind": "hand_started",
        "data": {
            "number": number,
            "table": TABLE,
            "seed_commitment": commitment(secret),
            "player_seeds": list(seeds),
            "dealer": players[dealer][0],
            "dealer_index": dealer,
            "players": [[name, stack] for name, stack in players],
            "settings": {},
        },
        "visible_to": None,
    }


def deals_only_game(hands: int = 4, *, secret: bytes | None = SECRET, logged: bool = True) -> dict:
    """A game built straight from the construction (no engine): right for the deal checks.
    ``logged``: each hand carries its event log's ``hand_started``, as the site's do."""
    seeds_by_hand = [[], ["asha-1"], ["asha-1", "bikash-2"], ["ünïcode seed ✓"]]
    players = [("Asha", 1000), ("Bikash", 1000)]
    hand_list = []
    for number in range(1, hands + 1):
        seeds = seeds_by_hand[(number - 1) % len(seeds_by_hand)]
        hand_list.append(
            export.hand_export(
                game="faras",
                settings={"boot": 10},
                players=players,
                dealer=number % 2,
                deck=hand_deck(SECRET, TABLE, number, seeds),
                actions=[],
                table=TABLE,
                hand_number=number,
                player_seeds=seeds,
                commitment=commitment(SECRET),
                stacks={"Asha": 1000, "Bikash": 1000},
                pots=[],
                events=[hand_started_event(number, seeds, players, number % 2)] if logged else [],
            )
        )
    return export.game_export(
        table=TABLE,
        game="faras",
        commitment=commitment(SECRET),
        secret_seed=secret,
        hands_played=hands,
        hands=hand_list,
        **chips_between_hands(dict(players), dict(players), hands_played=hands, last_seq=1000 * hands + 500),
    )


def chips_between_hands(
    bought: dict[str, int], final: dict[str, int], *, hands_played: int, last_seq: int
) -> dict[str, list]:
    """The table's log between the hands and the ledger of a game where each player bought
    ``bought`` before the first hand and the game ended with ``final`` (as the site exports)."""
    table_events = [
        {"seq": index + 1, "kind": "seat_taken", "data": {"seat": name, "chips": chips, "stack": chips}}
        for index, (name, chips) in enumerate(bought.items())
    ]
    table_events.append(
        {
            "seq": last_seq + 1,
            "kind": "game_ended",
            "data": {"reason": "host", "final_stacks": dict(final), "hands_played": hands_played},
        }
    )
    ledger = [
        {"player": name, "kind": "buy_in", "chips": chips, "price": "0.00", "reverses": None}
        for name, chips in bought.items()
    ]
    ledger += [
        {"player": name, "kind": "cash_out", "chips": chips, "price": "0.00", "reverses": None}
        for name, chips in final.items()
        if chips
    ]
    return {"table_events": table_events, "ledger": ledger}


def frame(seq: int, event: dict) -> dict:
    """An engine event (``Event.to_json()``) as the table's log exports it."""
    data = {key: value for key, value in event.items() if key not in ("kind", "visible_to")}
    return {"seq": seq, "kind": event["kind"], "data": data, "visible_to": event.get("visible_to")}


# --- the deal and commitment checks (no engine needed) ----------------------------------------


def test_honest_game_is_verified():
    status, output = run(deals_only_game(), "--no-replay")
    assert status == 0, output
    assert "VERIFIED" in output and "NOT VERIFIED" not in output
    for number in range(1, 5):
        assert f"hand {number}: OK" in output


def test_a_changed_deal_names_the_hand():
    game = deals_only_game()
    deck = game["hands"][2]["deck"]
    deck[0], deck[7] = deck[7], deck[0]  # two cards of hand 3 swapped
    status, output = run(game, "--no-replay")
    assert status == 1
    assert "hand 3: MISMATCH (deal)" in output
    assert "position 1" in output
    for number in (1, 2, 4):
        assert f"hand {number}: OK" in output


def test_a_changed_player_seed_without_the_log_cannot_be_verified():
    game = deals_only_game(logged=False)
    game["hands"][1]["player_seeds"] = ["asha-2"]  # hand 2's seed, as if rewritten afterwards
    status, output = run(game, "--no-replay")
    assert status == 1
    assert "hand 2: MISMATCH (deal)" in output
    assert "player seed" in output
    assert "hand 2: CANNOT VERIFY" in output and "NOT VERIFIED" in output


def test_a_player_seed_changed_against_the_hands_own_log_is_a_seed_mismatch():
    game = deals_only_game()
    game["hands"][2]["player_seeds"] = ["asha-1", "bikash-3"]
    status, output = run(game, "--no-replay")
    assert status == 1
    assert "hand 3: MISMATCH (seed)" in output
    assert "['asha-1', 'bikash-2']" in output  # what the log recorded
    assert "hand 3: MISMATCH (deal)" not in output
    assert "hand 2: OK" in output and "hand 4: OK" in output


def test_a_changed_deal_with_seeds_agreeing_with_the_log_blames_the_deal():
    game = deals_only_game()
    deck = game["hands"][0]["deck"]
    deck[10], deck[20] = deck[20], deck[10]
    status, output = run(game, "--no-replay")
    assert status == 1
    assert "hand 1: MISMATCH (deal)" in output
    assert "the deal itself was changed" in output
    assert "position 11" in output


def test_a_dropped_player_seed_names_the_hand():
    game = deals_only_game()
    game["hands"][2]["player_seeds"] = ["asha-1"]
    status, output = run(game, "--no-replay")
    assert status == 1 and "hand 3: MISMATCH (seed)" in output


def test_a_changed_secret_seed_breaks_the_commitment():
    game = deals_only_game()
    game["secret_seed"] = "00" * 32
    status, output = run(game, "--no-replay")
    assert status == 1
    assert "game: MISMATCH (commitment)" in output


def test_a_changed_commitment_is_caught():
    game = deals_only_game()
    other = commitment(b"another seed")
    game["commitment"] = other
    for hand in game["hands"]:
        hand["commitment"] = other
    status, output = run(game, "--no-replay")
    assert status == 1
    assert "game: MISMATCH (commitment)" in output


def test_a_hand_with_another_commitment_is_named():
    game = deals_only_game()
    game["hands"][3]["commitment"] = commitment(b"another seed")
    status, output = run(game, "--no-replay")
    assert status == 1
    assert "hand 4: MISMATCH (commitment)" in output


def test_a_hand_moved_to_another_number_is_named():
    game = deals_only_game()
    game["hands"][1]["hand_number"] = 3  # now two hands say "3" and hand 2's deck no longer fits
    status, output = run(game, "--no-replay")
    assert status == 1
    assert "hand 3: MISMATCH (order)" in output
    assert "hand 3: MISMATCH (deal)" in output
    assert "hand 3: MISMATCH (log)" in output  # its own log dealt it as hand 2
    assert "leaves out hand(s) 2" in output


def test_a_game_not_ended_cannot_be_verified():
    status, output = run(deals_only_game(secret=None), "--no-replay")
    assert status == 1
    assert "revealed when the game ends" in output


# --- the verifier refuses what it cannot prove (issue 14) -------------------------------------


def test_a_deleted_hand_is_named_and_the_game_not_verified():
    game = deals_only_game()
    del game["hands"][1]  # hand 2 of 4 taken out; every remaining hand is honest
    status, output = run(game, "--no-replay")
    assert status == 1
    assert "game: MISMATCH (order)" in output and "leaves out hand(s) 2" in output
    assert "NOT VERIFIED" in output and "VERIFIED: all" not in output


def test_the_last_hand_deleted_is_named_too():
    game = deals_only_game()
    game["hands"].pop()
    status, output = run(game, "--no-replay")
    assert status == 1 and "leaves out hand(s) 4" in output


def test_a_hand_beyond_the_games_count_is_named():
    game = deals_only_game()
    game["hands_played"] = 3
    status, output = run(game, "--no-replay")
    assert status == 1
    assert "hand 4: MISMATCH (order)" in output and "dealt only 3 hand(s)" in output


def test_hands_out_of_order_are_named():
    game = deals_only_game()
    game["hands"][0], game["hands"][1] = game["hands"][1], game["hands"][0]
    status, output = run(game, "--no-replay")
    assert status == 1 and "not in the order they were dealt" in output


def test_a_file_that_does_not_say_how_many_hands_were_dealt_is_refused():
    game = deals_only_game()
    del game["hands_played"]
    del game["hands"][1]
    status, output = run(game, "--no-replay")
    assert status == 1
    assert "game: CANNOT VERIFY" in output and "hands_played" in output
    assert "VERIFIED: all" not in output


def test_stripped_events_with_changed_seeds_and_a_rederived_deck_is_refused():
    """The break found in issue 14: without the log the seed check was skipped, so new seeds and
    a deck derived from the real seed for them passed as VERIFIED."""
    game = deals_only_game()
    hand = game["hands"][2]
    hand["events"] = []
    hand["player_seeds"] = ["chosen afterwards"]
    hand["deck"] = [str(card) for card in export.hand_export(
        game="faras", settings={}, players=[], dealer=0,
        deck=hand_deck(SECRET, TABLE, 3, ["chosen afterwards"]), actions=[], table=TABLE, hand_number=3,
        player_seeds=[], commitment=commitment(SECRET), stacks={}, pots=[],
    )["deck"]]  # fmt: skip
    status, output = run(game, "--no-replay")
    assert status == 1
    assert "hand 3: CANNOT VERIFY" in output and "hand_started" in output
    assert "VERIFIED: all" not in output
    assert "hand 2: OK" in output and "hand 4: OK" in output


def test_a_key_stripped_from_hand_started_is_refused():
    game = deals_only_game()
    del game["hands"][1]["events"][0]["data"]["player_seeds"]
    status, output = run(game, "--no-replay")
    assert status == 1
    assert "hand 2: CANNOT VERIFY" in output and "player_seeds" in output


def test_a_second_hand_started_is_named():
    game = deals_only_game()
    events = game["hands"][0]["events"]
    events.append(copy.deepcopy(events[0]))
    status, output = run(game, "--no-replay")
    assert status == 1 and "hand 1: MISMATCH (log)" in output


def test_a_hand_started_commitment_other_than_the_files_is_named():
    game = deals_only_game()
    game["hands"][1]["events"][0]["data"]["seed_commitment"] = commitment(b"another seed")
    status, output = run(game, "--no-replay")
    assert status == 1
    assert "hand 2: MISMATCH (commitment)" in output and "event log recorded commitment" in output
    assert "hand 1: OK" in output


def test_stacks_changed_against_the_log_are_named():
    game = deals_only_game()
    game["hands"][3]["players"][0]["stack"] = 5000  # Asha "started" hand 4 with more chips
    status, output = run(game, "--no-replay")
    assert status == 1 and "hand 4: MISMATCH (log)" in output


def test_a_dealer_changed_against_the_log_is_named():
    game = deals_only_game()
    game["hands"][0]["dealer"] = 1 - game["hands"][0]["dealer"]
    status, output = run(game, "--no-replay")
    assert status == 1 and "hand 1: MISMATCH (log)" in output and "dealer" in output


@pytest.mark.parametrize(
    ("change", "field"),
    [
        (lambda g: g.pop("commitment"), "commitment"),
        (lambda g: g.update(format="something-else"), "format"),
        (lambda g: g.update(secret_seed="zz"), "secret_seed"),
        (lambda g: g.update(secret_seed="ab" * 31), "secret_seed"),
        (lambda g: g["hands"][1]["deck"].pop(), "hands[1].deck"),
        (lambda g: g["hands"][1]["deck"].__setitem__(0, "Xx"), "hands[1].deck"),
        (lambda g: g["hands"][1]["deck"].__setitem__(0, g["hands"][1]["deck"][1]), "hands[1].deck"),
        (lambda g: g["hands"][0].pop("player_seeds"), "hands[0].player_seeds"),
        (lambda g: g["hands"][0].update(hand_number="1"), "hands[0].hand_number"),
        (lambda g: g["hands"][0]["result"].pop("stacks"), "hands[0].result.stacks"),
        (lambda g: g.update(hands_played="4"), "hands_played"),
        (lambda g: g.update(hands_played=-1), "hands_played"),
        (lambda g: g.update(hands_played=True), "hands_played"),
        (lambda g: g["hands"][2].update(events=["hand_started"]), "hands[2].events[0]"),
    ],
)
def test_a_broken_file_is_status_2_and_names_the_field(change, field):
    game = deals_only_game()
    change(game)
    status, output = run(game, "--no-replay")
    assert status == 2
    assert field in output


def test_not_json_is_status_2(tmp_path: Path):
    path = tmp_path / "game.json"
    path.write_text("{ not json", encoding="utf-8")
    out = io.StringIO()
    assert verify.main([str(path)], stdout=out) == 2
    assert "not JSON" in out.getvalue()
    assert verify.main([str(tmp_path / "missing.json")], stdout=out) == 2


def test_reads_a_file_path(tmp_path: Path):
    path = tmp_path / "game.json"
    path.write_text(export.to_text(deals_only_game()), encoding="utf-8")
    out = io.StringIO()
    assert verify.main(["--no-replay", str(path)], stdout=out) == 0


def test_export_round_trip():
    game = deals_only_game()
    record = export.parse_game(json.loads(export.to_text(game)))
    assert record.secret_seed == SECRET
    assert [hand.hand_number for hand in record.hands] == [1, 2, 3, 4]
    assert list(record.hands[2].deck) == hand_deck(SECRET, TABLE, 3, ["asha-1", "bikash-2"])
    assert record.hands_played == 4
    assert "secret_seed" not in export.game_export(
        table=TABLE, game="faras", commitment=commitment(SECRET), secret_seed=None, hands_played=0, hands=[]
    )


# --- honest games played by the engines, replayed -------------------------------------------


def _get_game_or_skip(name: str):
    from engine.games import get_game

    try:
        return get_game(name)
    except ImportError:
        pytest.skip(f"the {name} engine is not in this checkout yet")


def _random_amount(legal, rng: random.Random) -> int | None:
    if legal.min is None:
        return None
    high = legal.max if legal.max is not None else legal.min
    # Mostly the least raise, so that a game lasts several hands; sometimes more, or everything.
    return rng.choices([legal.min, rng.randint(legal.min, high), high], weights=[7, 2, 1])[0]


def play_honest_game(name: str, *, seed: int, hands: int = 5, players: int = 3, secret: bytes = SECRET) -> dict:
    """A whole game of random legal play through the engine, exported as live play would."""
    game = _get_game_or_skip(name)
    rng = random.Random(seed)
    settings = dict(game.settings({}))
    names = ["Asha", "Bikash", "Chandra", "Dipesh", "Elina", "Firoz"][:players]
    stacks = dict.fromkeys(names, 1000)
    position = TablePosition()
    exported = []
    for number in range(1, hands + 1):
        plan = game.plan_hand(settings=settings, seats=[(n, stacks[n]) for n in names], previous=position)
        if plan is None:
            break
        position = plan.position
        seeds = [f"browser-{rng.randrange(10**6)}" for _ in range(rng.randint(0, 2))]
        deck = hand_deck(secret, TABLE, number, seeds)
        state, events = game.start_hand(settings=plan.settings, players=plan.players, dealer=plan.dealer, deck=deck)
        started = hand_started_event(number, seeds, list(plan.players), plan.dealer, secret=secret)
        seq = started["seq"]
        all_events = [started]
        for event in events:
            seq += 1
            all_events.append(frame(seq, event.to_json()))
        actions = []
        for _step in range(400):
            if game.is_finished(state):
                break
            player = game.to_act(state)
            legal = game.legal_actions(state, player)
            # All-ins are rare so that a game lasts several hands.
            choice = rng.choices(legal, weights=[0.1 if option.verb == "allin" else 1.0 for option in legal])[0]
            amount = _random_amount(choice, rng)
            try:
                state, events = game.apply(state, Action(player, choice.verb, amount))
            except RuleError:  # an amount between min and max that the rules' steps do not allow
                amount = choice.min
                state, events = game.apply(state, Action(player, choice.verb, amount))
            seq += 1
            all_events.append(
                {
                    "seq": seq,
                    "kind": "action",
                    "data": {"player": player, "verb": choice.verb, "amount": amount},
                    "visible_to": None,
                }
            )
            for event in events:
                seq += 1
                all_events.append(frame(seq, event.to_json()))
            actions.append([player, choice.verb] + ([amount] if amount is not None else []))
        assert game.is_finished(state), "random play did not finish a hand in 400 actions"
        result = game.result(state)
        stacks.update(result.stacks)
        pots = [pot.to_json() for pot in result.pots]
        all_events.append(
            {
                "seq": seq + 1,
                "kind": "hand_ended",
                "data": {"number": number, "stacks": dict(result.stacks), "pots": pots},
                "visible_to": None,
            }
        )
        exported.append(
            export.hand_export(
                game=name,
                settings=plan.settings,
                players=plan.players,
                dealer=plan.dealer,
                deck=deck,
                actions=actions,
                table=TABLE,
                hand_number=number,
                player_seeds=seeds,
                commitment=commitment(secret),
                stacks=result.stacks,
                pots=[pot.to_json() for pot in result.pots],
                events=all_events,
            )
        )
    return export.game_export(
        table=TABLE,
        game=name,
        commitment=commitment(secret),
        secret_seed=secret,
        hands_played=len(exported),
        hands=exported,
        **chips_between_hands(
            dict.fromkeys(names, 1000), stacks, hands_played=len(exported), last_seq=1000 * (len(exported) + 1)
        ),
    )


GAMES = ["faras", "classic", "999", "holdem"]


@pytest.mark.parametrize("name", GAMES)
def test_honest_engine_game_is_verified_with_replay(name):
    game = play_honest_game(name, seed=7)
    status, output = run(game)
    assert status == 0, output
    assert "deal and result" in output


@pytest.mark.parametrize("name", GAMES)
def test_a_changed_result_names_the_hand(name):
    game = play_honest_game(name, seed=11)
    tampered = copy.deepcopy(game)
    assert len(game["hands"]) >= 2
    stacks = tampered["hands"][1]["result"]["stacks"]
    first, second = sorted(stacks)[:2]
    stacks[first] += 10  # ten chips moved from one player to another after the hand
    stacks[second] -= 10
    status, output = run(tampered)
    assert status == 1
    assert "hand 2: MISMATCH (result)" in output
    assert "hand 1: OK" in output


@pytest.mark.parametrize("name", GAMES)
def test_one_exported_hand_replays_to_its_result(name):
    hand = play_honest_game(name, seed=3, hands=2)["hands"][-1]
    status, output = run(hand)
    assert status == verify.EXIT_ONE_HAND == 3, output
    assert "its actions replay to its result (its deal is NOT checked)" in output
    assert "NOT A GAME" in output and "VERIFIED" not in output.replace("NOT VERIFIED", "")


@pytest.mark.parametrize("name", GAMES)
def test_python_m_engine_replay_on_an_exported_hand_reproduces_its_result(name, tmp_path: Path):
    """The export is a replay scenario: the command line gives back the recorded stacks and pots."""
    game = play_honest_game(name, seed=5, hands=3)
    for hand in game["hands"]:
        path = tmp_path / f"hand-{hand['hand_number']}.json"
        path.write_text(export.to_text(hand), encoding="utf-8")
        completed = subprocess.run(
            [sys.executable, "-m", "engine", "replay", str(path)],
            capture_output=True,
            text=True,
            cwd=Path(__file__).resolve().parents[2],
            check=False,
        )
        assert completed.returncode == 0, completed.stdout + completed.stderr
        output = json.loads(completed.stdout)
        assert output["finished"] is True
        assert output["stacks"] == hand["result"]["stacks"]
        assert output["pots"] == hand["result"]["pots"]


def test_python_m_engine_verify_runs_from_the_command_line(tmp_path: Path):
    path = tmp_path / "game.json"
    path.write_text(export.to_text(play_honest_game("faras", seed=2, hands=3)), encoding="utf-8")
    root = Path(__file__).resolve().parents[2]
    command = [sys.executable, "-m", "engine", "verify", str(path)]
    completed = subprocess.run(command, capture_output=True, text=True, cwd=root, check=False)
    assert completed.returncode == 0, completed.stdout + completed.stderr
    assert "VERIFIED" in completed.stdout
    tampered = json.loads(path.read_text(encoding="utf-8"))
    tampered["hands"][2]["player_seeds"].append("added later")
    path.write_text(json.dumps(tampered), encoding="utf-8")
    completed = subprocess.run(command, capture_output=True, text=True, cwd=root, check=False)
    assert completed.returncode == 1
    assert "hand 3: MISMATCH (seed)" in completed.stdout
