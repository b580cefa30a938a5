"""Standings people would rather look at: each member's running net over the nights as a
server-side SVG chart (no script, no inline style), and the season's CSV (through the CSV's
formula guard). With the abuse: a stranger, a forged season number."""

from __future__ import annotations

import csv
import io
import re
import xml.etree.ElementTree as ET
from decimal import Decimal

import pytest
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import translation

from homegames.chart import chart_build
from homegames.selectors_seasons import home_game_results, standings_running
from homegames.services_seasons import season_close
from tests.ledger.conftest import make_user
from tests.ledger.test_seasons import NIGHTS, friends, three_nights  # noqa: F401 (fixture)

SVG = "{http://www.w3.org/2000/svg}"


def test_the_running_net_adds_each_night_to_the_last(host, friends):  # noqa: F811
    home_game, _tables = three_nights(host, friends)
    nights, _standings = home_game_results(home_game=home_game)
    labels, series, in_chips = standings_running(home_game=home_game, nights=nights)
    assert len(labels) == 3 and not in_chips
    # NIGHTS: Asha +8.50, -5.00, 0.00; Bikash -3.50, +5.00, -3.50; Chandra -5.00, 0.00, +3.50.
    assert series == [
        ("Asha", [Decimal("8.50"), Decimal("3.50"), Decimal("3.50")]),
        ("Chandra", [Decimal("-5.00"), Decimal("-5.00"), Decimal("-1.50")]),
        ("Bikash", [Decimal("-3.50"), Decimal("1.50"), Decimal("-2.00")]),
    ]


def test_the_chart_puts_winners_above_the_zero_line_and_losers_below():
    chart = chart_build([("Up", [Decimal(5), Decimal(20)]), ("Down", [Decimal(-5), Decimal(-20)])], ["a", "b"])
    up, down = chart.lines
    assert up.last_y < chart.zero_y < down.last_y
    assert len(up.points.split()) == 3  # the start at 0, then each night
    xs = [float(point.split(",")[0]) for point in up.points.split()]
    assert xs == sorted(xs) and xs[0] == chart.left and xs[-1] == chart.right
    assert [tick.value for tick in chart.ticks] == [-20, -10, 0, 10, 20]
    assert [number for _x, number in chart.nights] == [1, 2]


def test_the_home_games_page_draws_the_chart_as_svg_without_script_or_style(client, host, friends):  # noqa: F811
    home_game, _tables = three_nights(host, friends)
    client.force_login(friends["Bikash"])
    html = client.get(reverse("ledger:home_game_detail", kwargs={"home_game_id": home_game.pk})).content.decode()
    (markup,) = re.findall(r"<svg class=\"chart\".*?</svg>", html, flags=re.S)
    svg = ET.fromstring(markup)
    lines = svg.findall(f"{SVG}polyline")
    assert len(lines) == 3 and all(len(line.get("points").split()) == 4 for line in lines)
    assert not svg.findall(f".//{SVG}script") and not svg.findall(f".//{SVG}style")
    assert all(element.get("style") is None for element in svg.iter())
    assert "Asha: +3.50" in svg.find(f"{SVG}desc").text  # the chart says its numbers in words too
    assert 'class="chart-legend"' in html

    # In German the page writes 3,50, but the SVG's coordinates stay numbers a browser reads.
    client.cookies.load({"django_language": "de"})
    german = client.get(reverse("ledger:home_game_detail", kwargs={"home_game_id": home_game.pk})).content.decode()
    (markup,) = re.findall(r"<svg class=\"chart\".*?</svg>", german, flags=re.S)
    svg = ET.fromstring(markup)
    assert "+3,50" in svg.find(f"{SVG}desc").text
    for element in svg.iter():
        for name in ("x", "y", "x1", "x2", "y1", "y2", "cx", "cy"):
            if element.get(name) is not None:
                float(element.get(name))
        for point in (element.get("points") or "").split():
            [float(number) for number in point.split(",")]


@pytest.mark.parametrize(
    ("language", "thousands", "halves"),
    [
        ("en", ["-2,000", "-1,000", "0", "1,000", "2,000"], ["-0.5", "0", "0.5", "1"]),
        ("de", ["-2.000", "-1.000", "0", "1.000", "2.000"], ["-0,5", "0", "0,5", "1"]),
        ("hi", ["-2,000", "-1,000", "0", "1,000", "2,000"], ["-0.5", "0", "0.5", "1"]),
    ],
)
def test_the_charts_axis_writes_its_numbers_in_the_viewers_language(language, thousands, halves):
    """The numbers up the side are written as the rest of the page writes them (they were
    "1000" and "0.5" in every language); the coordinates stay numbers a browser reads."""
    for values, expected in (([Decimal(1800), Decimal(-1700)], thousands), ([Decimal("0.6"), Decimal("-0.4")], halves)):
        chart = chart_build([("Asha", values)], ["a", "b"])
        with translation.override(language):
            markup = render_to_string("homegames/_standings_chart.html", {"chart": chart})
        svg = ET.fromstring(re.search(r"<svg class=\"chart\".*?</svg>", markup, flags=re.S)[0])
        ticks = [element.text for element in svg.iter(f"{SVG}text") if element.get("class") == "chart-tick"]
        assert ticks == expected
        assert all(float(element.get("y")) >= 0 for element in svg.iter(f"{SVG}text"))


def test_the_seasons_csv_lists_nets_and_transfers_and_keeps_formulas_out(client, host, friends):  # noqa: F811
    nights = [{"Asha": 1850, "=cmd|' /C calc'!A0": 650, "Chandra": 500}, *NIGHTS[1:]]
    friends = {"Chandra": friends["Chandra"]}
    home_game, _tables = three_nights(host, friends, nights=nights)
    client.force_login(friends["Chandra"])
    url = reverse("ledger:season_csv_open", kwargs={"home_game_id": home_game.pk})
    rows = list(csv.reader(io.StringIO(client.get(url).content.decode())))
    assert rows[0] == ["Player", "Nights", "Net", "Net chips", "Currency"]
    people = {row[0]: row[2] for row in rows[1:] if row and len(row) == 5 and row[1].isdigit()}
    assert people["Asha"] == "3.50" and people["'=cmd|' /C calc'!A0"] == "-3.50"  # the guard's quote
    assert not any(cell.startswith("=") for row in rows for cell in row)
    assert ["From", "To", "Amount", "Currency", "Paid", "Marked by"] in rows

    season_close(home_game=home_game, by=host)
    closed = reverse("ledger:season_csv", kwargs={"home_game_id": home_game.pk, "number": 1})
    response = client.get(closed)
    assert response.status_code == 200 and "Asha" in response.content.decode()
    assert (
        client.get(reverse("ledger:season_csv", kwargs={"home_game_id": home_game.pk, "number": 2})).status_code == 404
    )
    client.force_login(make_user("stranger"))
    assert client.get(url).status_code == 404
    assert client.get(closed).status_code == 404
