"""The rule books' examples and rules as replay files (``tests/engine/scenarios/*.json``).

Each file is a scenario of ``shared/spec/hand-scenario.md`` with two extra fields the
replay command ignores: ``rule`` (what it pins, from which book) and ``expect`` (the exit
status and the parts of the output it must give).
"""

import json
from pathlib import Path

import pytest

from engine.replay import run_scenario

SCENARIOS = sorted((Path(__file__).parent / "scenarios").glob("*.json"))


def test_there_are_scenarios_for_each_teen_patti_game():
    games = {json.loads(path.read_text())["game"] for path in SCENARIOS}
    assert {"faras", "classic", "999"} <= games


@pytest.mark.parametrize("path", SCENARIOS, ids=[path.stem for path in SCENARIOS])
def test_scenario(path):
    data = json.loads(path.read_text())
    assert data["rule"], "each scenario names the rule it pins"
    expect = dict(data["expect"])
    status, output = run_scenario(data)
    assert status == expect.pop("exit")
    error = expect.pop("error", None)
    if error is not None:
        assert {key: output["error"][key] for key in error} == error
        assert output["error"]["message"]
    for key, value in expect.items():
        assert output[key] == value, key
    total_before = sum(player["stack"] for player in data["players"])
    if output.get("finished"):
        assert sum(output["stacks"].values()) == total_before
