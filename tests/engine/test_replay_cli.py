"""``python -m engine replay FILE``: output, exit status 0 / 1 / 2, and errors naming the field."""

import copy
import io
import json
import subprocess
import sys
from pathlib import Path

import pytest

from engine.__main__ import main as engine_main
from engine.replay import main as replay_main

ROOT = Path(__file__).resolve().parents[2]

SPEC_EXAMPLE = {
    "game": "faras",
    "settings": {"boot": 10, "blind_turns": 4},
    "players": [{"name": "Asha", "stack": 1000}, {"name": "Bikash", "stack": 1000}, {"name": "Chandra", "stack": 1000}],
    "dealer": 0,
    "hands": {"Asha": ["As", "Ad", "Ah"], "Bikash": ["2h", "3h", "4h"], "Chandra": ["Qs", "Kd", "Ac"]},
    "actions": [["Bikash", "chaal"], ["Chandra", "see"], ["Chandra", "raise", 20], ["Asha", "pack"]],
}


def replay(data):
    stdout, stderr = io.StringIO(), io.StringIO()
    status = replay_main(["-"], stdin=io.StringIO(data if isinstance(data, str) else json.dumps(data)),
                         stdout=stdout, stderr=stderr)  # fmt: skip
    return status, json.loads(stdout.getvalue()), stderr.getvalue()


def test_spec_example_runs_through_the_real_command_line(tmp_path):
    path = tmp_path / "hand.json"
    path.write_text(json.dumps(SPEC_EXAMPLE))
    process = subprocess.run(
        [sys.executable, "-m", "engine", "replay", str(path)], cwd=ROOT, capture_output=True, text=True, check=False
    )
    assert process.returncode == 0, process.stderr
    output = json.loads(process.stdout)
    assert list(output) == ["ok", "finished", "stacks", "pots", "to_act", "legal", "events"]
    assert output["ok"] is True and output["finished"] is False
    assert output["stacks"] == {"Asha": 990, "Bikash": 980, "Chandra": 950}
    assert output["to_act"] == "Bikash"
    assert output["legal"] == [
        {"verb": "see"}, {"verb": "chaal"}, {"verb": "raise", "min": 30, "max": 980}, {"verb": "pack"},
    ]  # fmt: skip
    kinds = [event["kind"] for event in output["events"]]
    assert kinds == ["hand_started", "boot", "dealt", "chaal", "see", "cards", "raise", "pack"]
    cards = output["events"][5]
    assert cards["visible_to"] == ["Chandra"] and cards["cards"] == ["Qs", "Kd", "Ac"]


def test_standard_input_and_a_finished_hand():
    data = copy.deepcopy(SPEC_EXAMPLE)
    data["actions"] += [["Bikash", "pack"]]
    status, output, _ = replay(data)
    assert status == 0
    assert output["finished"] is True and output["to_act"] is None and output["legal"] == []
    assert output["stacks"] == {"Asha": 990, "Bikash": 980, "Chandra": 1030}
    assert output["pots"] == [{"amount": 80, "eligible": ["Chandra"], "winners": ["Chandra"]}]


def test_a_52_card_deck_is_dealt_one_card_at_a_time_after_the_dealer():
    order = ["Ac", "Kc", "Qc", "Ad", "Kd", "Qd", "Ah", "Kh", "Qh"]
    rest = [f"{rank}{suit}" for rank in "23456789TJ" for suit in "shdc"] + ["As", "Ks", "Qs"]
    data = {key: value for key, value in SPEC_EXAMPLE.items() if key != "hands"}
    data["deck"] = order + rest
    data["actions"] = [["Bikash", "see"], ["Chandra", "see"], ["Asha", "see"]]
    status, output, _ = replay(data)
    assert status == 0
    dealt = {event["player"]: event["cards"] for event in output["events"] if event["kind"] == "cards"}
    assert dealt == {"Bikash": ["Ac", "Ad", "Ah"], "Chandra": ["Kc", "Kd", "Kh"], "Asha": ["Qc", "Qd", "Qh"]}


def test_refused_action_exits_1_with_the_state_before_it():
    data = copy.deepcopy(SPEC_EXAMPLE)
    data["actions"] = [["Bikash", "chaal"], ["Chandra", "see"], ["Chandra", "raise", 20], ["Chandra", "pack"]]
    status, output, _ = replay(data)
    assert status == 1
    assert output["ok"] is False
    assert output["error"] == {"index": 3, "code": "not_your_turn", "message": "It is Asha's turn, not Chandra's."}
    assert output["stacks"] == {"Asha": 990, "Bikash": 980, "Chandra": 950}
    assert output["to_act"] == "Asha"
    assert output["legal"][0] == {"verb": "see"}


def test_unknown_verb_is_a_refused_action_not_a_broken_file():
    data = copy.deepcopy(SPEC_EXAMPLE)
    data["actions"] = [["Bikash", "fold"]]
    status, output, _ = replay(data)
    assert status == 1 and output["error"]["code"] == "unknown_verb"


def broken(**changes):
    data = copy.deepcopy(SPEC_EXAMPLE)
    for key, value in changes.items():
        if value is None:
            data.pop(key, None)
        else:
            data[key] = value
    return data


@pytest.mark.parametrize(
    ("data", "field"),
    [
        ("{not json", "file"),
        ([1, 2], "file"),
        (broken(game="poker"), "game"),
        (broken(game=None), "game"),
        (broken(settings={"boot": 0}), "settings.boot"),
        (broken(settings={"blind_turns": 9}), "settings.blind_turns"),
        (broken(settings={"ante": 5}), "settings.ante"),
        (broken(settings=[1]), "settings"),
        (broken(players=[]), "players"),
        (broken(players=[{"name": "Asha", "stack": 1000}]), "players"),
        (broken(players=[{"name": "Asha", "stack": 1000}, {"name": "Asha", "stack": 1000}]), "players[1].name"),
        (broken(players=[{"name": "Asha", "stack": 1000}, {"stack": 1000}]), "players[1].name"),
        (broken(players=[{"name": "Asha", "stack": 1000}, {"name": "B", "stack": "lots"}]), "players[1].stack"),
        (broken(players=[{"name": "Asha", "stack": 5}, *SPEC_EXAMPLE["players"][1:]]), "players[0].stack"),
        (broken(dealer=3), "dealer"),
        (broken(dealer="0"), "dealer"),
        (broken(hands=None), "hands"),
        (broken(hands=None, deck=["As"] * 52), "deck"),
        (broken(hands=None, deck=["As", "Kd"]), "deck"),
        (broken(deck=["As"] * 52), "hands"),
        (broken(hands={"Asha": ["As", "Ad", "Ah"], "Bikash": ["2h", "3h", "4h"]}), "hands.Chandra"),
        (broken(hands={"Asha": ["As", "Ad", "Zz"], "Bikash": ["2h", "3h", "4h"], "Chandra": ["Qs", "Kd", "Ac"]}),
         "hands.Asha[2]"),
        (broken(hands={"Asha": ["As", "Ad", "Ah"], "Bikash": ["As", "3h", "4h"], "Chandra": ["Qs", "Kd", "Ac"]}),
         "hands.Bikash"),
        (broken(board=["2c", "3c", "4c", "5c", "6c"]), "board"),
        (broken(actions={"Bikash": "chaal"}), "actions"),
        (broken(actions=[["Bikash"]]), "actions[0]"),
        (broken(actions=[["Bikash", "raise", "20"]]), "actions[0][2]"),
        (broken(actions=[["Bikash", "chaal"], [7, "chaal"]]), "actions[1][0]"),
    ],
)  # fmt: skip
def test_broken_file_exits_2_naming_the_field(data, field):
    status, output, stderr = replay(data)
    assert status == 2
    assert output["ok"] is False
    assert output["error"]["code"] == "invalid_scenario"
    assert output["error"]["field"] == field
    assert field in output["error"]["message"] and field in stderr


def test_missing_file_exits_2(tmp_path):
    stdout, stderr = io.StringIO(), io.StringIO()
    assert replay_main([str(tmp_path / "nope.json")], stdout=stdout, stderr=stderr) == 2
    assert json.loads(stdout.getvalue())["error"]["field"] == "file"


def test_command_line_usage_errors_exit_2(capsys):
    assert engine_main([]) == 2
    assert engine_main(["explode"]) == 2
    assert replay_main([], stderr=io.StringIO()) == 2
    assert engine_main(["--help"]) == 0
    assert "replay" in capsys.readouterr().out


def test_verify_is_dispatched_to_its_module(tmp_path):
    path = tmp_path / "not-an-export.json"
    path.write_text("[]")
    process = subprocess.run(
        [sys.executable, "-m", "engine", "verify", str(path)], cwd=ROOT, capture_output=True, text=True, check=False
    )
    assert process.returncode == 2
