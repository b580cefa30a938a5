"""The standings chart's geometry: each person's running net over the nights as a line,
drawn as server-side SVG (the site's Content-Security-Policy allows no inline script or
style, so the page carries plain SVG elements whose colours come from the site's CSS).

Pure: numbers in, coordinates out; the template ``homegames/_standings_chart.html`` draws them.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from decimal import Decimal

WIDTH = 600
HEIGHT = 300
LEFT = 64  # room for the amounts on the left
RIGHT = 12
TOP = 12
BOTTOM = 28  # room for the night numbers below
COLOURS = 8  # chart-line--0 .. chart-line--7 in site.css


@dataclass
class ChartLine:
    name: str
    values: list[Decimal]  # the running net after each night (the first is 0, before any)
    colour: int
    points: str = ""  # "x,y x,y ..." for <polyline points>
    last_x: float = 0.0
    last_y: float = 0.0


@dataclass
class Tick:
    y: float
    value: Decimal  # written in the viewer's language by the template (1,000 / 1.000; 2.5 / 2,5)


@dataclass
class Chart:
    width: int = WIDTH
    height: int = HEIGHT
    lines: list[ChartLine] = field(default_factory=list)
    ticks: list[Tick] = field(default_factory=list)
    nights: list[tuple[float, int]] = field(default_factory=list)  # x of each night labelled and its number
    zero_y: float = 0.0
    left: int = LEFT
    right: float = WIDTH - RIGHT


def _nice_step(span: Decimal) -> Decimal:
    """A round step (1, 2 or 5 times a power of ten) giving about four gridlines over ``span``."""
    if span <= 0:
        return Decimal(1)
    rough = span / 4
    power = Decimal(1)
    while power * 10 <= rough:
        power *= 10
    while power > rough and power > Decimal("0.01"):
        power /= 10
    for factor in (1, 2, 5, 10):
        if power * factor >= rough:
            return power * factor
    return power * 10


def chart_build(series: list[tuple[str, list[Decimal]]], night_labels: list[str]) -> Chart:
    """The chart of ``series`` (a name and its running net after each night, one value per
    label) with the nights along the bottom; the first point of every line is 0 (before the
    first night)."""
    chart = Chart()
    count = len(night_labels)
    every = [Decimal(0)] + [value for _name, values in series for value in values]
    low, high = min(every), max(every)
    step = _nice_step(high - low)
    low = (low / step).to_integral_value(rounding="ROUND_FLOOR") * step
    high = (high / step).to_integral_value(rounding="ROUND_CEILING") * step
    if high == low:
        high = low + step
    plot_w = WIDTH - LEFT - RIGHT
    plot_h = HEIGHT - TOP - BOTTOM

    def x_of(index: int) -> float:
        return round(LEFT + plot_w * index / max(count, 1), 1)

    def y_of(value: Decimal) -> float:
        return round(TOP + plot_h * float((high - value) / (high - low)), 1)

    value = low
    while value <= high:
        chart.ticks.append(Tick(y=y_of(value), value=value.normalize()))
        value += step
    chart.zero_y = y_of(Decimal(0))
    every_nth = -(-count // 10) or 1  # at most about ten labels along the bottom
    chart.nights = [(x_of(index + 1), index + 1) for index in range(count) if (index + 1) % every_nth == 0]
    for position, (name, values) in enumerate(series):
        points = [(x_of(0), y_of(Decimal(0)))] + [(x_of(i + 1), y_of(v)) for i, v in enumerate(values)]
        line = ChartLine(name=name, values=values, colour=position % COLOURS)
        line.points = " ".join(f"{x},{y}" for x, y in points)
        line.last_x, line.last_y = points[-1]
        chart.lines.append(line)
    return chart
