"""The units of one year on a map: an SVG drawn offline from the seats' coordinates (no tiles, no fonts
or scripts fetched), to inline in a page or write to a file.

Projection: equirectangular over lon 115.8–122.2 °E and lat 21.8–28.5 °N, the box of the CHGIS extract,
with the standard parallel at the box's middle latitude (x = Δlon · cos φ₀, y = −Δlat), so distances are
true along that parallel and along meridians. There is no coastline: the data has none.

Each seat is a mark with the names of the units seated there that year (a 府 and its 附郭 縣 share one);
units are coloured by the 府 or 直隸州 they belong to (the unit itself for those), found through their
parents in the same year. Province seats are rings. Every text is XML-escaped.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from html import escape

from dianli.places.places import PREFECTURE_LEVELS, PlaceAt, PlaceLevel

LON_MIN, LON_MAX = 115.8, 122.2
LAT_MIN, LAT_MAX = 21.8, 28.5
UNITS_PER_DEGREE = 100.0
"""SVG user units per degree of latitude."""
_COS0 = math.cos(math.radians((LAT_MIN + LAT_MAX) / 2))
WIDTH = round((LON_MAX - LON_MIN) * _COS0 * UNITS_PER_DEGREE)
HEIGHT = round((LAT_MAX - LAT_MIN) * UNITS_PER_DEGREE)
_TOP = 28.0
"""Room above the map for the title."""
_LEGEND_ROW = 16.0
_LEGEND_COLUMNS = 3
_FONT = "'Noto Serif CJK TC','Noto Serif TC','Songti TC',serif"
_PALETTE = (
    "#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#8c564b", "#e377c2", "#bcbd22", "#17becf",
    "#ff7f0e", "#393b79", "#637939", "#843c39", "#7b4173", "#8c6d31", "#3182bd", "#31a354",
)  # fmt: skip
"""Colours of the groups, in order (dark enough for text on the map's light ground); repeated past 16."""
_NEUTRAL = "#555555"


def project(latitude_deg: float, longitude_deg: float) -> tuple[float, float]:
    """SVG coordinates (x, y) of a point: the equirectangular projection of the module docstring."""
    x = (longitude_deg - LON_MIN) * _COS0 * UNITS_PER_DEGREE
    y = _TOP + (LAT_MAX - latitude_deg) * UNITS_PER_DEGREE
    return round(x, 1), round(y, 1)


def group_of(unit: PlaceAt, by_id: dict[str, PlaceAt]) -> str | None:
    """The id of the 府/直隸州 a unit belongs to (itself for those), through its parents that year."""
    seen = {unit.id}
    current = unit
    while current.level not in PREFECTURE_LEVELS and current.parent in by_id and current.parent not in seen:
        current = by_id[current.parent]
        seen.add(current.id)
    return current.id if current.level in PREFECTURE_LEVELS else None


def group_colours(units: Sequence[PlaceAt]) -> dict[str, str]:
    """A colour for each 府/直隸州 among ``units``, in their order."""
    groups = [u.id for u in units if u.level in PREFECTURE_LEVELS]
    return {gid: _PALETTE[i % len(_PALETTE)] for i, gid in enumerate(groups)}


def _seats(units: Sequence[PlaceAt]) -> list[list[PlaceAt]]:
    """Units grouped by seat (coordinates to 0.01°), provinces and 府 first within a seat."""
    rank = {PlaceLevel.PROVINCE: 0, **{level: 1 for level in PREFECTURE_LEVELS}}
    seats: dict[tuple[float, float], list[PlaceAt]] = {}
    for unit in units:
        seats.setdefault((round(unit.latitude_deg, 2), round(unit.longitude_deg, 2)), []).append(unit)
    return [sorted(group, key=lambda u: rank.get(u.level, 2)) for group in seats.values()]


def _graticule() -> list[str]:
    out = ['<g class="graticule" stroke="#d8d2c4" stroke-width="0.6" fill="#8a8172" font-size="11">']
    for lon in range(math.ceil(LON_MIN), math.floor(LON_MAX) + 1):
        x, _ = project(LAT_MAX, lon)
        out.append(f'<line x1="{x}" y1="{_TOP}" x2="{x}" y2="{_TOP + HEIGHT}"/>')
        out.append(f'<text x="{x + 2}" y="{_TOP + HEIGHT - 3}" stroke="none">{lon}°E</text>')
    for lat in range(math.ceil(LAT_MIN), math.floor(LAT_MAX) + 1):
        _, y = project(lat, LON_MIN)
        out.append(f'<line x1="0" y1="{y}" x2="{WIDTH}" y2="{y}"/>')
        out.append(f'<text x="2" y="{y - 2}" stroke="none">{lat}°N</text>')
    out.append("</g>")
    return out


def _mark(seat: list[PlaceAt], colour: str) -> str:
    x, y = project(seat[0].latitude_deg, seat[0].longitude_deg)
    levels = {u.level for u in seat}
    shapes = []
    if PlaceLevel.PROVINCE in levels:
        shapes.append(f'<circle cx="{x}" cy="{y}" r="8" fill="none" stroke="{_NEUTRAL}" stroke-width="1.4"/>')
    if levels & PREFECTURE_LEVELS:
        shapes.append(f'<rect x="{x - 4}" y="{y - 4}" width="8" height="8" fill="{colour}"/>')
    elif levels - {PlaceLevel.PROVINCE}:
        shapes.append(f'<circle cx="{x}" cy="{y}" r="3.2" fill="{colour}"/>')
    return "".join(shapes)


_LABEL_PX = 11.0
"""The labels' font size (user units; the page draws the map no smaller than 1:1 on a phone)."""
_MARK_BOX = 5.0
"""Half the side of the box a seat's mark keeps free of labels."""
_DIRECTIONS = ((1, 0), (-1, 0), (0, -1), (0, 1), (1, -1), (1, 1), (-1, -1), (-1, 1))
"""Where a label may stand from its seat, in order of preference: right, left, above, below, the corners."""
_REACHES = (6.0, 18.0, 32.0, 48.0)
"""How far from its seat a label may stand; past the first, a leader line joins it to the seat."""

Box = tuple[float, float, float, float]


def label_width(text: str) -> float:
    """A label's width in user units: a CJK character is square, anything else about half."""
    return sum(_LABEL_PX if ord(ch) > 0x2E7F else _LABEL_PX * 0.55 for ch in text)


def _overlap(a: Box, b: Box) -> float:
    w = min(a[2], b[2]) - max(a[0], b[0])
    h = min(a[3], b[3]) - max(a[1], b[1])
    return w * h if w > 0 and h > 0 else 0.0


def place_labels(
    seats: Sequence[tuple[float, float, str]], width: float, top: float, bottom: float
) -> list[tuple[float, float, str, bool]]:
    """Each label (x, y of its seat, text) placed where it overlaps no other label and no seat's mark,
    trying the eight sides of the seat at growing distances; a label that has to stand away gets a leader
    line. Returns (x, y, text-anchor, leader) per seat: x, y the label's baseline anchor. Where every
    place is taken, the one overlapping least."""
    taken: list[Box] = [(x - _MARK_BOX, y - _MARK_BOX, x + _MARK_BOX, y + _MARK_BOX) for x, y, _text in seats]
    out: list[tuple[float, float, str, bool]] = []
    for x, y, text in seats:
        w = label_width(text)
        best: tuple[float, Box, tuple[float, float, str, bool]] | None = None
        for reach in _REACHES:
            for dx, dy in _DIRECTIONS:
                cx, cy = x + dx * reach, y + dy * reach
                left = cx if dx > 0 else cx - w if dx < 0 else cx - w / 2
                if dy < 0:
                    box = (left, cy - _LABEL_PX, left + w, cy)
                elif dy > 0:
                    box = (left, cy, left + w, cy + _LABEL_PX)
                else:
                    box = (left, cy - _LABEL_PX / 2, left + w, cy + _LABEL_PX / 2)
                outside = box[0] < 0 or box[2] > width or box[1] < top or box[3] > bottom
                cost = sum(_overlap(box, t) for t in taken) + (1e6 if outside else 0.0)
                anchor = "start" if dx > 0 else "end" if dx < 0 else "middle"
                ax = box[0] if anchor == "start" else box[2] if anchor == "end" else (box[0] + box[2]) / 2
                placed = (ax, box[3] - _LABEL_PX * 0.15, anchor, reach > _REACHES[0])
                if best is None or cost < best[0]:
                    best = (cost, box, placed)
                if cost == 0:
                    break
            if best is not None and best[0] == 0:
                break
        assert best is not None
        taken.append(best[1])
        out.append(best[2])
    return out


def _label(x: float, y: float, at: tuple[float, float, str, bool], colour: str, content: str) -> str:
    """A placed label (escaped ``content`` already), with its leader line where it stands away."""
    lx, ly, anchor, leader = at
    line = ""
    if leader:
        ex = lx - 2 if anchor == "end" else lx + 2 if anchor == "start" else lx
        ey = ly - _LABEL_PX * 0.35
        line = f'<line x1="{x}" y1="{y}" x2="{ex:.1f}" y2="{ey:.1f}" stroke="{colour}" stroke-width="0.7"/>'
    return (
        f'{line}<text x="{lx:.1f}" y="{ly:.1f}" text-anchor="{anchor}" font-size="{_LABEL_PX:g}" '
        f'fill="{colour}" stroke="#f7f4ec" stroke-width="2.5" paint-order="stroke">{content}</text>'
    )


def _placements(seats: list[list[PlaceAt]], names: Sequence[str]) -> list[tuple[float, float, str, bool]]:
    """Where each seat's label stands: the labels of 府 placed first, then from north to south."""
    points = [
        (*project(seat[0].latitude_deg, seat[0].longitude_deg), name)
        for seat, name in zip(seats, names, strict=True)
    ]
    rank = {PlaceLevel.PROVINCE: 0, **{level: 0 for level in PREFECTURE_LEVELS}}
    order = sorted(
        range(len(seats)), key=lambda i: (min(rank.get(u.level, 1) for u in seats[i]), points[i][1])
    )
    placed = place_labels([points[i] for i in order], WIDTH, _TOP, _TOP + HEIGHT)
    by_seat = dict(zip(order, placed, strict=True))
    return [by_seat[i] for i in range(len(seats))]


def focus_of(points: Sequence[tuple[float, float]]) -> str:
    """The middle of ``points`` (x, y in user units) as the map's ``data-focus``: where a page that shows
    the map in a narrower box scrolls it to (the region a rule is in force in)."""
    if not points:
        return ""
    xs, ys = [p[0] for p in points], [p[1] for p in points]
    return f"{(min(xs) + max(xs)) / 2:.0f},{(min(ys) + max(ys)) / 2:.0f}"


def render_map(
    units: Sequence[PlaceAt],
    title: str = "",
    *,
    unit_colours: Mapping[str, str] | None = None,
    legend: Sequence[tuple[str, str]] | None = None,
) -> str:
    """The SVG (text) of ``units`` — all of one year, as :func:`dianli.places.places.places_in_year`
    gives them — with ``title`` above and a legend of the 府/直隸州 below.

    With ``unit_colours`` (unit id → colour) each unit is coloured by it instead (the neutral grey where
    absent), and ``legend`` gives the legend's entries (label, colour), one per row; a label's lines are
    separated by newlines."""
    if unit_colours is not None:
        return _render_coloured(units, title, unit_colours, legend or ())
    by_id = {u.id: u for u in units}
    colours = group_colours(units)
    names = {u.id: u.name for u in units}
    legend_rows = math.ceil(len(colours) / _LEGEND_COLUMNS)
    total_height = _TOP + HEIGHT + 8 + legend_rows * _LEGEND_ROW
    seats = _seats(units)
    labels = ["·".join(u.name for u in seat if u.level is not PlaceLevel.PROVINCE) for seat in seats]
    points = [project(seat[0].latitude_deg, seat[0].longitude_deg) for seat in seats]
    out = _head(title, total_height, focus_of(points))
    for seat, label, at in zip(seats, labels, _placements(seats, labels), strict=True):
        group = next((g for g in (group_of(u, by_id) for u in seat) if g is not None), None)
        colour = colours.get(group, _NEUTRAL) if group is not None else _NEUTRAL
        x, y = project(seat[0].latitude_deg, seat[0].longitude_deg)
        tip = "; ".join(f"{u.name} ({u.level.value}, CHGIS {u.chgis_id})" for u in seat)
        out.append(f'<g class="seat"><title>{escape(tip)}</title>{_mark(seat, colour)}')
        if label:
            out.append(_label(x, y, at, colour, escape(label)))
        out.append("</g>")
    out.append(f'<g class="legend" font-size="11" transform="translate(0,{_TOP + HEIGHT + 8})">')
    column_width = WIDTH / _LEGEND_COLUMNS
    for i, (gid, colour) in enumerate(colours.items()):
        cx = (i % _LEGEND_COLUMNS) * column_width + 4
        cy = (i // _LEGEND_COLUMNS) * _LEGEND_ROW
        out.append(f'<rect x="{cx:g}" y="{cy + 3:g}" width="9" height="9" fill="{colour}"/>')
        out.append(f'<text x="{cx + 13:g}" y="{cy + 12:g}" fill="#222">{escape(names[gid])}</text>')
    out.append("</g></svg>")
    return "\n".join(out)


def _head(title: str, total_height: float, focus: str = "") -> list[str]:
    at = f' data-focus="{focus}"' if focus else ""
    return [
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {WIDTH} {total_height:g}" width="100%" '
        f'style="max-width:{WIDTH * 1.6:g}px;height:auto" role="img" aria-label="{escape(title)}" '
        f'font-family="{_FONT}"{at}>',
        f"<title>{escape(title)}</title>",
        f'<rect x="0" y="{_TOP}" width="{WIDTH}" height="{HEIGHT}" fill="#f7f4ec"/>',
        f'<text x="4" y="18" font-size="15" fill="#222">{escape(title)}</text>',
        *_graticule(),
    ]


def _render_coloured(
    units: Sequence[PlaceAt], title: str, unit_colours: Mapping[str, str], legend: Sequence[tuple[str, str]]
) -> str:
    """:func:`render_map` with each unit coloured by ``unit_colours`` and the given legend."""
    lines = [label.split("\n") for label, _colour in legend]
    total_height = _TOP + HEIGHT + 8 + sum(len(x) for x in lines) * _LEGEND_ROW
    seats = _seats(units)
    labels = ["·".join(u.name for u in seat if u.level is not PlaceLevel.PROVINCE) for seat in seats]
    coloured = [
        project(seat[0].latitude_deg, seat[0].longitude_deg)
        for seat in seats
        if any(u.id in unit_colours for u in seat)
    ]  # the map opens on where the colours are (the units a rule is in force in)
    out = _head(title, total_height, focus_of(coloured))
    for seat, at in zip(seats, _placements(seats, labels), strict=True):
        named = [u for u in seat if u.level is not PlaceLevel.PROVINCE] or seat
        colour = unit_colours.get(named[0].id, _NEUTRAL)
        x, y = project(seat[0].latitude_deg, seat[0].longitude_deg)
        tip = "; ".join(f"{u.name} ({u.level.value}, CHGIS {u.chgis_id})" for u in seat)
        out.append(f'<g class="seat"><title>{escape(tip)}</title>{_mark(seat, colour)}')
        province = [u for u in seat if u.level is PlaceLevel.PROVINCE]
        for unit in province:
            ring = unit_colours.get(unit.id, _NEUTRAL)
            out.append(f'<circle cx="{x}" cy="{y}" r="8" fill="none" stroke="{ring}" stroke-width="1.4"/>')
        pieces = "·".join(
            f'<tspan fill="{unit_colours.get(u.id, _NEUTRAL)}">{escape(u.name)}</tspan>'
            for u in seat
            if u.level is not PlaceLevel.PROVINCE
        )
        if pieces:
            out.append(_label(x, y, at, _NEUTRAL, pieces))
        out.append("</g>")
    out.append(f'<g class="legend" font-size="11" transform="translate(0,{_TOP + HEIGHT + 8})">')
    row = 0
    for label_lines, (_text, colour) in zip(lines, legend, strict=True):
        cy = row * _LEGEND_ROW
        out.append(f'<rect x="4" y="{cy + 3:g}" width="9" height="9" fill="{colour}"/>')
        for number, line in enumerate(label_lines):
            out.append(
                f'<text x="17" y="{cy + 12 + number * _LEGEND_ROW:g}" fill="#222">{escape(line)}</text>'
            )
        row += len(label_lines)
    out.append("</g></svg>")
    return "\n".join(out)
