"""``python manage.py settle FILE`` exactly as shared/spec/settle.md says."""

from __future__ import annotations

import io
import json
import subprocess
import sys
from pathlib import Path

import pytest
from django.core.management import call_command

REPO = Path(__file__).resolve().parents[2]

SPEC_INPUT = {
    "currency": "USD",
    "buy_in": {"price": "10.00", "chips": 1000},
    "players": [
        {"name": "Asha", "buy_ins": 1, "chips": 1850},
        {"name": "Bikash", "buy_ins": 2, "chips": 650},
        {"name": "Chandra", "buy_ins": 1, "chips": 1500},
    ],
}

SPEC_OUTPUT = {
    "ok": True,
    "chip_value": "0.01",
    "balances": {"Asha": "8.50", "Bikash": "-13.50", "Chandra": "5.00"},
    "transfers": [
        {"from": "Bikash", "to": "Asha", "amount": "8.50"},
        {"from": "Bikash", "to": "Chandra", "amount": "5.00"},
    ],
}


def run_settle(tmp_path: Path, document: object | str) -> tuple[int, dict]:
    """Run the command in process; return (exit status, parsed output)."""
    path = tmp_path / "game.json"
    path.write_text(document if isinstance(document, str) else json.dumps(document), encoding="utf-8")
    out = io.StringIO()
    status = 0
    try:
        call_command("settle", str(path), stdout=out)
    except SystemExit as exit_:
        status = exit_.code
    return status, json.loads(out.getvalue())


def with_changes(**changes) -> dict:
    document = json.loads(json.dumps(SPEC_INPUT))
    document.update(changes)
    return document


def with_player(index: int, **changes) -> dict:
    document = json.loads(json.dumps(SPEC_INPUT))
    document["players"][index].update(changes)
    return document


def test_spec_example_exactly(tmp_path):
    assert run_settle(tmp_path, SPEC_INPUT) == (0, SPEC_OUTPUT)


def test_spec_example_from_standard_input_in_a_real_process():
    """FILE may be - for standard input; the exit status is the process's."""
    done = subprocess.run(
        [sys.executable, "manage.py", "settle", "-"],
        input=json.dumps(SPEC_INPUT),
        capture_output=True,
        text=True,
        cwd=REPO,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout) == SPEC_OUTPUT


def test_bad_input_exits_with_status_2_in_a_real_process():
    done = subprocess.run(
        [sys.executable, "manage.py", "settle", "-"],
        input="{not json",
        capture_output=True,
        text=True,
        cwd=REPO,
        check=False,
    )
    assert done.returncode == 2
    answer = json.loads(done.stdout)
    assert answer["ok"] is False and "JSON" in answer["error"]


def test_chip_value_zero(tmp_path):
    """settle.md: "0" means chips alone; every balance "0.00", no transfers."""
    status, answer = run_settle(tmp_path, with_changes(buy_in={"price": "0", "chips": 1000}))
    assert status == 0
    assert answer["chip_value"] == "0.00"
    assert answer["balances"] == {"Asha": "0.00", "Bikash": "0.00", "Chandra": "0.00"}
    assert answer["transfers"] == []


def test_chip_value_not_in_whole_cents(tmp_path):
    """10.00 for 3,000 chips: a third of a cent each; balances still add to zero."""
    document = {
        "currency": "NPR",
        "buy_in": {"price": "10.00", "chips": 3000},
        "players": [
            {"name": "Asha", "buy_ins": 1, "chips": 3001},
            {"name": "Bikash", "buy_ins": 1, "chips": 1000},
            {"name": "Chandra", "buy_ins": 1, "chips": 4999},
        ],
    }
    status, answer = run_settle(tmp_path, document)
    assert status == 0
    assert answer["chip_value"] == "0.003333333333"
    # Exact: Asha +0.00333.., Bikash -6.66666.., Chandra +6.66333..; floors 0.00, -6.67, 6.66
    # leave one cent. All three dropped a third of a cent: the tie goes to the lowest
    # exact result, Bikash.
    assert answer["balances"] == {"Asha": "0.00", "Bikash": "-6.66", "Chandra": "6.66"}
    assert answer["transfers"] == [{"from": "Bikash", "to": "Chandra", "amount": "6.66"}]


def test_many_buy_backs(tmp_path):
    document = with_changes(
        players=[
            {"name": "Asha", "buy_ins": 12, "chips": 0},
            {"name": "Bikash", "buy_ins": 1, "chips": 10_000},
            {"name": "Chandra", "buy_ins": 3, "chips": 6_000},
        ]
    )
    status, answer = run_settle(tmp_path, document)
    assert status == 0
    assert answer["balances"] == {"Asha": "-120.00", "Bikash": "90.00", "Chandra": "30.00"}
    assert answer["transfers"] == [
        {"from": "Asha", "to": "Bikash", "amount": "90.00"},
        {"from": "Asha", "to": "Chandra", "amount": "30.00"},
    ]


def test_currency_without_cents(tmp_path):
    """JPY has no minor unit: balances are whole yen."""
    document = with_changes(currency="JPY", buy_in={"price": "1000", "chips": 1000})
    status, answer = run_settle(tmp_path, document)
    assert status == 0
    assert answer["balances"] == {"Asha": "850", "Bikash": "-1350", "Chandra": "500"}


def test_names_keep_their_script(tmp_path):
    document = with_player(0, name="आशा")
    status, answer = run_settle(tmp_path, document)
    assert status == 0 and answer["balances"]["आशा"] == "8.50"


def _without(document: dict, *path: str | int) -> dict:
    target = document
    for key in path[:-1]:
        target = target[key]
    del target[path[-1]]
    return document


BAD_INPUTS = {
    "missing currency": _without(with_changes(), "currency"),
    "missing buy_in": _without(with_changes(), "buy_in"),
    "missing price": _without(with_changes(), "buy_in", "price"),
    "missing buy-in chips": _without(with_changes(), "buy_in", "chips"),
    "missing players": _without(with_changes(), "players"),
    "missing name": _without(with_changes(), "players", 0, "name"),
    "missing buy_ins": _without(with_changes(), "players", 1, "buy_ins"),
    "missing chips": _without(with_changes(), "players", 2, "chips"),
    "negative buy_ins": with_player(1, buy_ins=-1, chips=650 + 2000),
    "negative chips": with_player(1, chips=-650),
    "fractional buy_ins": with_player(1, buy_ins=1.5),
    "buy_ins as text": with_player(1, buy_ins="2"),
    "buy_ins as true": with_player(1, buy_ins=True),
    "chips do not add up (lost)": with_player(0, chips=1849),
    "chips do not add up (created)": with_player(0, chips=1851),
    "duplicate names": with_player(1, name="Asha"),
    "empty name": with_player(1, name="  "),
    "lower-case currency": with_changes(currency="usd"),
    "currency symbol": with_changes(currency="$"),
    "price with symbol": with_changes(buy_in={"price": "$10.00", "chips": 1000}),
    "price with comma": with_changes(buy_in={"price": "10,00", "chips": 1000}),
    "price negative": with_changes(buy_in={"price": "-10.00", "chips": 1000}),
    "price as a number": with_changes(buy_in={"price": 10.0, "chips": 1000}),
    "price below a cent": with_changes(buy_in={"price": "10.005", "chips": 1000}),
    "price exponent": with_changes(buy_in={"price": "1e1", "chips": 1000}),
    "yen with cents": with_changes(currency="JPY", buy_in={"price": "10.50", "chips": 1000}),
    "zero chips per buy-in": with_changes(buy_in={"price": "10.00", "chips": 0}),
    "no players": with_changes(players=[]),
    "players not a list": with_changes(players={"Asha": 1}),
    "player not an object": with_changes(players=["Asha"]),
    "document not an object": [SPEC_INPUT],
    "bad JSON": '{"currency": "USD",',
    "NaN in JSON": '{"currency": "USD", "buy_in": {"price": "10.00", "chips": NaN}, "players": []}',
    "empty file": "",
}


@pytest.mark.parametrize("case", list(BAD_INPUTS))
def test_bad_input_refused_with_status_2(tmp_path, case):
    """settle.md: bad input -> {"ok": false, "error": "..."} on standard output and status 2."""
    status, answer = run_settle(tmp_path, BAD_INPUTS[case])
    assert status == 2
    assert answer["ok"] is False
    assert set(answer) == {"ok", "error"}
    assert isinstance(answer["error"], str) and answer["error"]


def test_unreadable_file_refused(tmp_path):
    out = io.StringIO()
    with pytest.raises(SystemExit) as exit_:
        call_command("settle", str(tmp_path / "missing.json"), stdout=out)
    assert exit_.value.code == 2
    assert json.loads(out.getvalue())["ok"] is False


def test_missing_file_argument_refused_as_json():
    out = io.StringIO()
    with pytest.raises(SystemExit) as exit_:
        call_command("settle", stdout=out)
    assert exit_.value.code == 2
    answer = json.loads(out.getvalue())
    assert answer["ok"] is False and "JSON file" in answer["error"]
