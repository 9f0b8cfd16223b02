"""The map's labels never overlap one another or a seat's mark (issue 27 item 4): each stands on the first
free side of its seat, farther out with a leader line where the near sides are taken; the map names the
region it opens on (data-focus)."""

from __future__ import annotations

import itertools
import re

import pytest

from dianli.places.map import label_width, place_labels, render_map
from dianli.places.places import places_in_year


def _boxes(svg: str) -> list[tuple[float, float, float, float]]:
    boxes = []
    for m in re.finditer(
        r'<text x="([\d.]+)" y="([\d.]+)" text-anchor="(\w+)" font-size="11"[^>]*>(.*?)</text>', svg
    ):
        x, y, anchor, text = float(m[1]), float(m[2]), m[3], re.sub(r"<[^>]+>", "", m[4])
        w = label_width(text)
        left = x if anchor == "start" else x - w if anchor == "end" else x - w / 2
        boxes.append((left, y - 11 * 0.85, left + w, y + 11 * 0.15))
    return boxes


@pytest.mark.parametrize("year", [1684, 1752, 1890])
def test_no_two_labels_overlap(year: int) -> None:
    svg = render_map(places_in_year(year), str(year))
    boxes = _boxes(svg)
    assert len(boxes) > 10
    for a, b in itertools.combinations(boxes, 2):
        w = min(a[2], b[2]) - max(a[0], b[0])
        h = min(a[3], b[3]) - max(a[1], b[1])
        assert not (w > 0.5 and h > 0.5), (a, b)


def test_a_crowded_seat_gets_a_leader_line() -> None:
    seats = [(100.0, 100.0, "甲縣"), (101.0, 100.0, "乙縣"), (100.0, 101.0, "丙縣"), (101.0, 101.0, "丁縣")]
    placed = place_labels(seats, 400, 0, 400)
    assert len({(x, y) for x, y, _a, _l in placed}) == 4
    assert any(leader for _x, _y, _a, leader in placed)
    svg = render_map(places_in_year(1752), "1752")
    assert "<line x1=" in svg.split('class="graticule"')[1].split("</g>", 1)[1]  # a leader line drawn


def test_the_map_names_where_it_opens() -> None:
    taiwan = [u for u in places_in_year(1752) if 119.0 < u.longitude_deg and u.latitude_deg < 24.0]
    svg = render_map(places_in_year(1752), "1752", unit_colours={u.id: "#d62728" for u in taiwan}, legend=[])
    focus = re.search(r'data-focus="(\d+),(\d+)"', svg)
    assert focus is not None
    whole = re.search(r'data-focus="(\d+),(\d+)"', render_map(places_in_year(1752), "1752"))
    assert whole is not None and int(focus[1]) > int(whole[1])  # east of the middle: Taiwan
