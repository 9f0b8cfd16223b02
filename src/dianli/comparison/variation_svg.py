"""Pictures of a rule's variation, drawn offline as SVG: a timeline of its readings and a map of a year.

The **timeline** runs over the years of the place data (1644–1911) with the reigns marked; one band per
reading (its number, colour and words), one row per governing witness under it, a bar over the years in
which that witness's units follow the reading (paler where it only stands in before any witness of the
unit was written); a witness that states the reading but governs no unit (a Ming or Song gazetteer, a
chapter of no unit) is a mark at the year it was compiled — in a gutter before the axis, in the order of
their years, when that is before the place data's first year. The **map** is :func:`dianli.places.map.render_map` with every unit coloured by the
reading in force there that year, and a legend of the readings. Every text is XML-escaped.
"""

from __future__ import annotations

import re
import unicodedata
from html import escape

from dianli.calendar.reigns import REIGNS
from dianli.comparison.variation import Reading, Rule, format_ranges, merge_ranges
from dianli.corpus.labels import witness_label
from dianli.corpus.witnesses import manifest, witness_ids
from dianli.places.map import render_map
from dianli.places.places import check_year, places_in_year, year_range
from dianli.rites import labels

PALETTE = (
    "#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b", "#e377c2", "#17becf",
    "#bcbd22", "#393b79", "#637939", "#843c39",
)  # fmt: skip
"""Colours of the readings, in their order (repeated past 12)."""
EMPTY_COLOUR = "#9a9a9a"
"""The empty reading: the witness's reading has nothing of the rule."""
NEUTRAL = "#d0ccc2"
"""Units where the rule is not in force."""
WIDTH = 960
LEFT = 200
"""Room left of the plot for the witnesses' ids."""
RIGHT = 12
PRE_GUTTER = 90
"""Room, after the witnesses' names, for the witnesses written before the place data's first year."""
ROW = 15
LINE = 14
CHARS_PER_LINE = 110
"""Display columns of a band's heading line (a wide character takes two)."""
LEGEND_COLUMNS = 96
_FONT = "'Noto Serif CJK TC','Noto Serif TC','Songti TC',serif"


def reading_colour(reading: Reading) -> str:
    """The colour of a reading, the same in the timeline, the map and the web page."""
    return EMPTY_COLOUR if reading.empty else PALETTE[(reading.number - 1) % len(PALETTE)]


def _width(text: str) -> int:
    return sum(2 if unicodedata.east_asian_width(c) in "WF" else 1 for c in text)


def wrap_columns(text: str, columns: int) -> list[str]:
    """``text`` in lines of at most ``columns`` display columns (a wide character takes two), broken at
    spaces or between wide characters; a word longer than a line is cut. Nothing is dropped."""
    tokens = re.findall(r"\s+|[^\s\u2e80-\U0002ffff\uff00-\uffef]+|.", text)
    lines: list[str] = []
    line = ""
    for token in tokens:
        while _width(token) > columns:
            if line.strip():
                lines.append(line.rstrip())
            cut = next((i for i in range(len(token), 1, -1) if _width(token[:i]) <= columns), 1)
            lines.append(token[:cut])
            line, token = "", token[cut:]
        if line and _width(line + token) > columns:
            lines.append(line.rstrip())
            line = token.lstrip()
        else:
            line += token
    if line or not lines:
        lines.append(line)
    return lines


def rule_label(rule: Rule) -> str:
    """The rule as a reader names it (「山川·祭期」): :func:`dianli.rites.labels.rule_label`."""
    return labels.rule_label(rule)


def reading_label(reading: Reading) -> str:
    """``[2] words — witnesses`` (who states it, or who follows it where nobody states it)."""
    who = "、".join(map(witness_label, reading.witnesses)) or (
        f"followed by {'、'.join(map(witness_label, reading.followers))}"
        if reading.followers
        else "no witness"
    )
    return f"[{reading.number}] {reading.value} — {who}"


# --- the timeline ---------------------------------------------------------------------------------


def _x(year: float, first: int, last: int, left: int = LEFT) -> float:
    return round(left + (year - first) / (last + 1 - first) * (WIDTH - left - RIGHT), 1)


def _axis(first: int, last: int, top: float, bottom: float, left: int = LEFT) -> list[str]:
    out = ['<g class="axis" font-size="10" fill="#6b6357">']
    if left != LEFT:  # the gutter of the witnesses written before the place data's first year
        out.append(
            f'<text x="{LEFT + 2}" y="{top - 16}">before {first}</text>'
            f'<line x1="{left - 4}" y1="{top - 4}" x2="{left - 4}" y2="{bottom}" stroke="#b8b0a0" '
            'stroke-width="0.8" stroke-dasharray="3 2"/>'
        )
    for reign in REIGNS:
        if not first <= reign.first_year <= last:
            continue
        x = _x(reign.first_year, first, last, left)
        out.append(
            f'<line x1="{x}" y1="{top - 4}" x2="{x}" y2="{bottom}" stroke="#ddd6c8" stroke-width="0.8"/>'
        )
        out.append(f'<text x="{x + 2}" y="{top - 16}">{escape(reign.name)}</text>')
        out.append(f'<text x="{x + 2}" y="{top - 6}">{reign.first_year}</text>')
    out.append("</g>")
    return out


def _unplaced(rule: Rule) -> dict[str, int]:
    """The witnesses stating a reading of the rule that govern no unit, with the year each was compiled
    (the Ming and Song gazetteers, a chapter of no unit): shown at that year, not over units."""
    infos = {info.id: info for info in manifest()}
    return {
        w: infos[w].compiled_year
        for reading in rule.readings
        for w in reading.witnesses
        if w in infos and not infos[w].governs
    }


def timeline_svg(rule: Rule) -> str:
    """The timeline of a rule's readings (see the module docstring)."""
    first, last = year_range()
    title = rule_label(rule)
    order = {w: i for i, w in enumerate(witness_ids())}
    unplaced = _unplaced(rule)
    early = sorted({y for y in unplaced.values() if y < first})
    left = LEFT + PRE_GUTTER if early else LEFT
    body: list[str] = []
    y = 58.0
    for reading in rule.readings:
        colour = reading_colour(reading)
        heading = wrap_columns(reading_label(reading), CHARS_PER_LINE)
        body.append(f'<g class="reading" data-reading="{reading.number}">')
        body.append(f'<rect x="4" y="{y - 10}" width="10" height="10" fill="{colour}"/>')
        for number, line in enumerate(heading):
            body.append(
                f'<text x="18" y="{y + number * LINE}" font-size="12" fill="#222">{escape(line)}</text>'
            )
        y += len(heading) * LINE + 2
        witnesses = sorted({s.witness for s in reading.spans}, key=lambda w: order.get(w, len(order)))
        marked = sorted((w for w in reading.witnesses if w in unplaced), key=lambda w: unplaced[w])
        if not witnesses and not marked:
            body.append(
                f'<text x="18" y="{y + 9}" font-size="11" fill="#6b6357">not in force at any unit of the '
                "place data</text>"
            )
            y += ROW
        for witness in witnesses:
            spans = [s for s in reading.spans if s.witness == witness]
            units = dict.fromkeys(s.name for s in spans)
            body.append(
                f'<text x="{LEFT - 6}" y="{y + 9}" font-size="11" text-anchor="end" fill="#333">'
                f"{escape(witness_label(witness))} ({len(units)})</text>"
            )
            for stands_in in (False, True):
                ranges = merge_ranges((s.from_year, s.until_year) for s in spans if s.stands_in is stands_in)
                for start, end in ranges:
                    here = dict.fromkeys(
                        s.name
                        for s in spans
                        if s.stands_in is stands_in and s.from_year <= end and s.until_year >= start
                    )
                    tip = (
                        f"[{reading.number}] {witness_label(witness)} {start}–{end}"
                        f"{' (stands in: no witness written yet)' if stands_in else ''}: {'、'.join(here)}"
                    )
                    x0, x1 = _x(start, first, last, left), _x(end + 1, first, last, left)
                    opacity = "0.4" if stands_in else "1"
                    body.append(
                        f'<rect x="{x0}" y="{y + 1}" width="{max(x1 - x0, 1.0):.1f}" height="{ROW - 4}" '
                        f'fill="{colour}" fill-opacity="{opacity}"><title>{escape(tip)}</title></rect>'
                    )
            y += ROW
        for witness in marked:
            year = unplaced[witness]
            if year < first:  # in the gutter, in the order of the years (not to scale), its year beside it
                x = LEFT + 8 + early.index(year) * (PRE_GUTTER - 16) / max(len(early), 1)
            else:
                x = _x(year + 0.5, first, last, left)
            tip = f"[{reading.number}] {witness_label(witness)}, written {year}; it governs no unit"
            body.append(
                f'<text x="{LEFT - 6}" y="{y + 9}" font-size="11" text-anchor="end" fill="#333">'
                f"{escape(witness_label(witness))} ({year})</text>"
                f'<path d="M{x:.1f} {y + 1} l5 5.5 l-5 5.5 l-5 -5.5 z" fill="{colour}">'
                f"<title>{escape(tip)}</title></path>"
            )
            y += ROW
        body.append("</g>")
        y += 8
    height = y + 6
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {WIDTH} {height:g}" width="100%" '
        f'style="max-width:{WIDTH * 1.4:g}px;height:auto" role="img" aria-label="{escape(title)}" '
        f'font-family="{_FONT}">',
        f"<title>{escape(title)}</title>",
        f'<rect x="0" y="0" width="{WIDTH}" height="{height:g}" fill="#fbf9f4"/>',
        f'<text x="4" y="16" font-size="14" fill="#222">{escape(title)}</text>',
        *_axis(first, last, 46, height - 4, left),
        *body,
        "</svg>",
    ]
    return "\n".join(out)


# --- the map --------------------------------------------------------------------------------------


def map_svg(rule: Rule, year: int) -> str:
    """The units of ``year`` coloured by the reading of ``rule`` in force at each."""
    check_year(year)
    units = places_in_year(year)
    colours: dict[str, str] = {}
    shown: dict[int, Reading] = {}
    for unit in units:
        reading = rule.reading_at(unit.id, year)
        if reading is not None:
            colours[unit.id] = reading_colour(reading)
            shown[reading.number] = reading
    legend = []
    for reading in rule.readings:
        where = (
            f"{sum(1 for c in units if rule.reading_at(c.id, year) is reading)} units in {year}"
            if reading.number in shown
            else f"not in force in {year}; in force {format_ranges(reading.years()) or 'nowhere'}"
        )
        text = f"{reading_label(reading)} ({where})"
        legend.append(("\n".join(wrap_columns(text, LEGEND_COLUMNS)), reading_colour(reading)))
    legend.append((f"the rule is not in force there in {year}", NEUTRAL))
    neutral = {u.id: NEUTRAL for u in units if u.id not in colours}
    return render_map(
        units,
        f"{rule_label(rule)} · {year}",
        unit_colours={**neutral, **colours},
        legend=tuple(legend),
    )
