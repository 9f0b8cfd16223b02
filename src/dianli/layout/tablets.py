"""The tablet plan (神主位次): where each spirit tablet stands in the year the rite is resolved for.

A tablet's place comes from the words of its ``side`` and ``hall`` (the column rules and side-hall words
in ``data/layout.yaml``) and its ``order`` (its rank, 1 nearest the north). The rite is resolved for a
year, so dated tablets (a 先賢 raised from a side hall into the main hall) stand where they stood then;
such tablets are outlined and named in the legend.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from dianli.layout.config import config
from dianli.layout.svg import Canvas, axis_word, document, esc, legend, text, vertical_text, wrap
from dianli.rites.model import Tablet
from dianli.rites.resolve import ResolvedRite

Region = Literal["main", "east", "west", "both"]
COL_W_PX = 140
SIDE_COL_W_PX = 100
SIDE_PLATE_W_PX = 92
SIDE_ROW_STEP_PX = 29
PLATE_W_PX = 128
PLATE_H_PX = 26
ROW_STEP_PX = 32
CENTRE_W_PX = 40
HALL_PAD_PX = 14
HALL_TITLE_PX = 24
SIDE_LABEL_PX = 18
GAP_PX = 26
AXIS_PX = 40
PLATE_FONT_PX = 14
NOTE_FONT_PX = 11
MIN_WIDTH_PX = 520


@dataclass(frozen=True)
class PlacedTablet:
    """A tablet with its building (main hall or a side hall), column (None: no side given) and row."""

    tablet: Tablet
    region: Region
    column: int | None
    row: int

    @property
    def dated(self) -> bool:
        return self.tablet.from_year is not None or self.tablet.until_year is not None


def base_hall(hall: str) -> str:
    return hall.split("（")[0]


def column_of(t: Tablet) -> int | None:
    """The first column rule whose word is in the tablet's side (or, failing that, its hall)."""
    for words in (t.side or "", t.hall):
        for rule in config().tablets.columns:
            if rule.match in words:
                return rule.column
    return None


def region_of(t: Tablet) -> Region:
    for rule in config().tablets.side_halls:
        if rule.match in t.hall:
            return rule.side
    return "main"


def place_tablets(tablets: Sequence[Tablet]) -> tuple[PlacedTablet, ...]:
    """Each tablet's building, column and row (rank − 1; tablets without a rank follow in data order)."""
    placed = []
    counters: dict[tuple[str, int | None], int] = {}
    for t in tablets:
        region = region_of(t)
        column = column_of(t) if region == "main" else None
        key = (region, column)
        row = (t.order - 1) if t.order is not None and region == "main" else counters.get(key, 0)
        counters[key] = max(counters.get(key, 0), row + 1)
        placed.append(PlacedTablet(t, region, column, row))
    return tuple(placed)


def _plate(x: float, y: float, p: PlacedTablet, w: float = PLATE_W_PX) -> str:
    t = p.tablet
    cls = "dl-mark dl-tablet dl-changed" if p.dated else "dl-mark dl-tablet"
    tip = " · ".join(bit for bit in (t.name, t.hall, t.side, t.gloss) if bit)
    size = min(PLATE_FONT_PX, (w - 8) / max(len(t.name), 1))
    return (
        f'<g class="{cls}"><title>{esc(tip)}</title><rect x="{x:.1f}" y="{y:.1f}" width="{w:.1f}" '
        f'height="{PLATE_H_PX}" rx="4"/>{text(x + w / 2, y + PLATE_H_PX / 2, t.name, size)}</g>'
    )


def _centre(x: float, y: float, p: PlacedTablet) -> tuple[str, float]:
    """A tall tablet for the centre line, its name running downwards; returns the element and height."""
    h = len(p.tablet.name) * 17 + 16
    cls = "dl-mark dl-tablet dl-changed" if p.dated else "dl-mark dl-tablet"
    tip = " · ".join(bit for bit in (p.tablet.name, p.tablet.hall, p.tablet.side) if bit)
    return (
        f'<g class="{cls}"><title>{esc(tip)}</title><rect x="{x - CENTRE_W_PX / 2:.1f}" y="{y:.1f}" '
        f'width="{CENTRE_W_PX}" height="{h}" rx="6"/>' + vertical_text(x, y + 8, p.tablet.name, 15) + "</g>",
        h,
    )


def _hall_box(x: float, y: float, w: float, h: float, title: str) -> list[str]:
    return [
        f'<rect class="dl-hall" x="{x:.1f}" y="{y:.1f}" width="{w:.1f}" height="{h:.1f}" rx="3"/>',
        text(x + w / 2, y + HALL_TITLE_PX / 2 + 2, title, 13, "dl-label"),
    ]


def _main_hall(placed: list[PlacedTablet], x0: float, y0: float, width: float) -> tuple[list[str], float]:
    """The main hall: unplaced tablets in a row at the top, then each column's tablets by rank."""
    body: list[str] = []
    cx = x0 + width / 2
    y = y0 + HALL_TITLE_PX
    unplaced = sorted((p for p in placed if p.column is None), key=lambda p: p.row)
    if unplaced:
        row_w = len(unplaced) * COL_W_PX
        for i, p in enumerate(unplaced):
            body.append(_plate(cx - row_w / 2 + i * COL_W_PX + (COL_W_PX - PLATE_W_PX) / 2, y, p))
        y += ROW_STEP_PX + 6
    columns = sorted({p.column for p in placed if p.column is not None})
    bottom = y
    for column in columns:
        own = sorted((p for p in placed if p.column == column), key=lambda p: p.row)
        x = cx + column * COL_W_PX
        side = own[0].tablet.side or ""
        body.append(text(x, y + SIDE_LABEL_PX / 2, side, NOTE_FONT_PX, "dl-note"))
        top = y + SIDE_LABEL_PX
        if column == 0 and len(own) == 1:
            element, h = _centre(x, top, own[0])
            body.append(element)
            bottom = max(bottom, top + h)
            continue
        for p in own:
            body.append(_plate(x - PLATE_W_PX / 2, top + p.row * ROW_STEP_PX, p))
            bottom = max(bottom, top + p.row * ROW_STEP_PX + PLATE_H_PX)
    h = bottom - y0 + HALL_PAD_PX
    title = base_hall(placed[0].tablet.hall)
    return _hall_box(x0, y0, width, h, title) + body, h


def _side_hall(
    placed: list[PlacedTablet], x0: float, y0: float, w: float, title: str
) -> tuple[list[str], float]:
    """A side hall: its tablets in rows of small plates, in the order the data give (glosses as tooltips)."""
    body: list[str] = []
    per_row = max(1, int((w - 2 * HALL_PAD_PX) // SIDE_COL_W_PX))
    left = x0 + (w - per_row * SIDE_COL_W_PX) / 2
    y = y0 + HALL_TITLE_PX
    for i, p in enumerate(placed):
        x = left + (i % per_row) * SIDE_COL_W_PX + (SIDE_COL_W_PX - SIDE_PLATE_W_PX) / 2
        body.append(_plate(x, y + (i // per_row) * SIDE_ROW_STEP_PX, p, SIDE_PLATE_W_PX))
    rows = (len(placed) + per_row - 1) // per_row
    h = HALL_TITLE_PX + rows * SIDE_ROW_STEP_PX + HALL_PAD_PX
    return _hall_box(x0, y0, w, h, f"{title}（{len(placed)}）") + body, h


def change_notes(placed: Sequence[PlacedTablet]) -> tuple[str, ...]:
    """One line per dated tablet: where it stands, and since or until when."""
    out = []
    for p in placed:
        t = p.tablet
        if t.from_year is not None:
            out.append(f"{t.name} stands in {t.hall} from {t.from_year}")
        if t.until_year is not None:
            out.append(f"{t.name} stands in {t.hall} until {t.until_year}")
    return tuple(out)


def tablet_plan_svg(r: ResolvedRite) -> str | None:
    """The rite's tablets where they stood in ``r.year``, north up; None when the rite has no tablets."""
    placed = place_tablets(r.tablets)
    if not placed:
        return None
    main = [p for p in placed if p.region == "main"]
    columns = [p.column for p in main if p.column is not None]
    span = max((abs(c) for c in columns), default=0)
    unplaced = sum(1 for p in main if p.column is None)
    inner = max((2 * span + 1) * COL_W_PX, unplaced * COL_W_PX, 2 * COL_W_PX + GAP_PX)
    width = max(inner + 2 * HALL_PAD_PX + 2 * AXIS_PX, MIN_WIDTH_PX)
    hall_w = width - 2 * AXIS_PX
    body: list[str] = []
    y: float = AXIS_PX
    if main:
        elements, h = _main_hall(main, AXIS_PX, y, hall_w)
        body += elements
        y += h + GAP_PX
    sides = {region: [p for p in placed if p.region == region] for region in ("west", "east", "both")}
    side_w = (hall_w - GAP_PX) / 2
    tallest = 0.0
    for region, x in (("west", AXIS_PX), ("east", AXIS_PX + side_w + GAP_PX)):
        own = sides[region]
        if own:
            elements, h = _side_hall(own, x, y, side_w, own[0].tablet.hall)
            body += elements
            tallest = max(tallest, h)
    if tallest:
        y += tallest + GAP_PX
    if sides["both"]:
        elements, h = _side_hall(sides["both"], AXIS_PX, y, hall_w, sides["both"][0].tablet.hall)
        body += elements
        y += h + GAP_PX
    mid = (AXIS_PX + y - GAP_PX) / 2
    body += [
        axis_word(width / 2, AXIS_PX / 2, "北"),
        axis_word(width / 2, y - GAP_PX + AXIS_PX / 2, "南"),
        axis_word(AXIS_PX / 2, mid, "西"),
        axis_word(width - AXIS_PX / 2, mid, "東"),
    ]
    notes = [f"as it stood in {r.year}", *change_notes(placed), config().tablets.assumption]
    if unplaced:
        notes.append(config().tablets.unplaced_assumption)
    lines = [line for n in notes for line in wrap(n, width - 24)]
    kinds = ["tablet", *(["changed"] if any(p.dated for p in placed) else [])]
    legend_top = y - GAP_PX + AXIS_PX + 4
    swatches, legend_h = legend(12, legend_top, width - 24, kinds, lines)
    body += swatches
    label = f"{r.rite.names.classical[0]} 神主位次 {r.year}"
    return document(Canvas(width, legend_top + legend_h + 6, label, tuple(body)))
