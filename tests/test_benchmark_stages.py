"""The load benchmark's split of an action's time (``benchmarks/live_load.py --trace``)."""

from __future__ import annotations

import pytest

from benchmarks.live_report import stages


def _trace(table: int, seq: int, start: float, cpu: float) -> list[list]:
    """A server trace of one action whose news reached two sockets."""
    return [
        ["handler", table, seq, start + 0.001],
        ["service", table, seq, start + 0.002],
        ["service_end", table, seq, start + 0.010],
        ["service_cpu", table, seq, cpu],
        ["news", table, seq, start + 0.012],
        ["news_end", table, seq, start + 0.013],
        ["news", table, seq, start + 0.014],
        ["news_end", table, seq, start + 0.016],
    ]


def test_each_delivered_action_is_split_where_the_server_noted_it() -> None:
    trace = _trace(7, 31, 100.0, 0.004)
    sent = {(7, 31): 100.0}
    heard = {(7, 31): [100.018, 100.020]}

    (row,) = stages(trace, sent, heard, players=2)

    expected = {
        "total": 20,
        "inbound": 1,
        "thread": 1,
        "service": 8,
        "service_cpu": 4,
        "to_news": 2,
        "fanout": 4,
        "outbound": 4,
    }
    assert row == pytest.approx(expected, abs=1e-6)
    # The parts from the send to the last player add up to the whole.
    assert sum(row[name] for name in expected if name not in ("total", "service_cpu")) == pytest.approx(row["total"])


def test_an_action_not_seen_by_every_player_or_not_traced_is_left_out() -> None:
    trace = _trace(7, 31, 100.0, 0.004) + _trace(8, 5, 200.0, 0.003)
    sent = {(7, 31): 100.0, (8, 5): 200.0, (9, 1): 300.0}
    heard = {(7, 31): [100.018], (8, 5): [200.017, 200.019], (9, 1): [300.01, 300.02]}

    rows = stages(trace, sent, heard, players=2)

    assert [round(row["total"], 6) for row in rows] == [19.0]
