"""Altars: the rite's plan (陳設圖) where the witness draws one, and a table of offerings for each altar
whose 陳設 list gives only kinds and counts.

* :func:`altar_plan_svg` draws the plan of a rite whose altars carry tablets on the plan (社稷, and 山川
  through its mirror override — whatever the resolved rite says, nothing special-cased).
* :func:`offering_table_svg` draws one altar's table from its 陳設 list in a fixed order (the rule in
  ``data/layout.yaml``, labelled an assumption): each vessel as often as the data count it.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from dianli.layout.config import MarkKind, config
from dianli.layout.grid import draw, plan_grid
from dianli.layout.svg import Canvas, box, document, legend, text, wrap
from dianli.rites.model import Altar
from dianli.rites.resolve import ResolvedRite

VESSEL_PX = 26
VESSEL_GAP_PX = 5
GROUP_GAP_PX = 18
TABLET_BAR_CHARS = 12
"""Tablet names longer than this are given in the notes; the bar then reads 神位."""
TABLE_PAD_PX = 14
HEADER_PX = 30
VESSEL_FONT_PX = 14
MIN_TABLE_W_PX = 300
TABLE_LEGEND_W_PX = 300
TABLE_NOTE = "order schematic: the 陳設 list gives kinds and counts, not places"
SIDE_COLUMNS = 2
"""籩 and 豆 stand in two columns on each side of the grains."""


def altar_plan_svg(r: ResolvedRite) -> str | None:
    """The plan of the rite's altars as the witness draws it, or None when no tablet is on a plan."""
    grid = plan_grid(r)
    if grid is None or "tablet" not in grid.kinds:
        return None
    boxed = [a.id for a in r.altars if a.tablets and a.at is not None]
    notes = [n for n in (r.plan.notes if r.plan else None,) if n]
    notes.append("one cell per character of the witness's text diagram: places and order, not distances")
    return draw(grid, f"{r.rite.names.classical[0]} 陳設圖", notes, boxed=boxed)


@dataclass(frozen=True)
class Vessel:
    """One drawn vessel: its kind of mark and the character shown."""

    kind: MarkKind
    word: str
    tip: str


def _things(altar: Altar) -> dict[str, list[Vessel]]:
    """The altar's things sorted into the table's groups (near, soups, grains, left, right, front, other)."""
    rules = config().table
    groups: dict[str, list[Vessel]] = {
        k: [] for k in ("near", "soups", "grains", "left", "right", "front", "other")
    }
    for s in altar.silk:
        tip = f"帛 {s.colour or ''}{' ' + s.size if s.size else ''}".strip()
        groups["near"].extend(Vessel("silk", "帛", tip) for _ in range(s.count))
    for c in altar.cups:
        groups["near"].extend(Vessel("cup", "爵", f"爵 {c.material or ''}".strip()) for _ in range(c.count))
    for o in altar.offerings:
        contents = "、".join(o.contents)
        tip = f"{o.vessel}{'：' + contents if contents else ''}"
        group = (
            "soups"
            if o.vessel in rules.soups
            else "grains"
            if o.vessel in rules.grains
            else "left"
            if o.vessel == rules.left
            else "right"
            if o.vessel == rules.right
            else "other"
        )
        groups[group].extend(Vessel("food", o.vessel[0], tip) for _ in range(o.count))
    for v in altar.victims:
        groups["front"].extend(
            Vessel("victim", v.animal, f"{v.animal}{'（' + v.notes + '）' if v.notes else ''}")
            for _ in range(v.count)
        )
    return groups


def _row(vessels: list[Vessel], x: float, y: float) -> list[str]:
    out = []
    for i, v in enumerate(vessels):
        w = VESSEL_PX * max(1, len(v.word))
        out.append(
            box(v.kind, x + i * (VESSEL_PX + VESSEL_GAP_PX), y, w, VESSEL_PX, v.word, VESSEL_FONT_PX, v.tip)
        )
    return out


def _row_w(n: int) -> float:
    return n * VESSEL_PX + max(0, n - 1) * VESSEL_GAP_PX


def offering_table_svg(altar: Altar) -> str | None:
    """One altar's table seen from above, the tablet at the top: None if nothing is laid on it."""
    g = _things(altar)
    if not any(g[k] for k in ("near", "soups", "grains", "left", "right", "front", "other")):
        return None
    side_rows = max(math.ceil(len(g["left"]) / SIDE_COLUMNS), math.ceil(len(g["right"]) / SIDE_COLUMNS), 0)
    grain_w = _row_w(len(g["grains"]))
    block_w = 2 * _row_w(SIDE_COLUMNS) + grain_w + 2 * GROUP_GAP_PX
    rows = [g["near"], g["soups"] + g["other"], g["front"]]
    inner_w = max(block_w, *(_row_w(len(r)) + VESSEL_PX for r in rows))
    header_w = sum(14 if ord(ch) > 0x2E7F else 8 for ch in altar.name) + 2 * TABLE_PAD_PX
    width = max(inner_w + 2 * TABLE_PAD_PX, MIN_TABLE_W_PX, header_w)  # the name is never clipped
    cx = width / 2
    body: list[str] = []
    body.append(text(cx, HEADER_PX / 2, altar.name, 14, "dl-label"))
    table_top = HEADER_PX
    names = "、".join(altar.tablets)
    bar = names if 0 < len(names) <= TABLET_BAR_CHARS else ("神位" if altar.tablets else "")
    y: float = table_top + TABLE_PAD_PX
    content: list[str] = []
    if bar:
        bar_w = max(len(bar) * 16 + 20, 80)
        content.append(box("tablet", cx - bar_w / 2, y, bar_w, VESSEL_PX, bar, VESSEL_FONT_PX, names))
        y += VESSEL_PX + GROUP_GAP_PX
    for vessels in rows[:2]:
        if vessels:
            content.extend(_row(vessels, cx - _row_w(len(vessels)) / 2, y))
            y += VESSEL_PX + VESSEL_GAP_PX
    if side_rows or g["grains"]:
        bx = cx - block_w / 2
        top = y + VESSEL_GAP_PX
        step = VESSEL_PX + VESSEL_GAP_PX
        for i, v in enumerate(g["left"]):
            content.extend(_row([v], bx + (i % SIDE_COLUMNS) * step, top + (i // SIDE_COLUMNS) * step))
        gx = bx + _row_w(SIDE_COLUMNS) + GROUP_GAP_PX
        mid = top + (max(side_rows, 1) - 1) * step / 2
        content.extend(_row(g["grains"], gx, mid))
        rx = gx + grain_w + GROUP_GAP_PX
        for i, v in enumerate(g["right"]):
            content.extend(_row([v], rx + (i % SIDE_COLUMNS) * step, top + (i // SIDE_COLUMNS) * step))
        y = top + max(side_rows, 1) * step
    if g["front"]:
        fw = sum(VESSEL_PX * max(1, len(v.word)) + VESSEL_GAP_PX for v in g["front"]) - VESSEL_GAP_PX
        x = cx - fw / 2
        y += GROUP_GAP_PX / 2
        for v in g["front"]:
            w = VESSEL_PX * max(1, len(v.word))
            content.append(box(v.kind, x, y, w, VESSEL_PX, v.word, VESSEL_FONT_PX, v.tip))
            x += w + VESSEL_GAP_PX
        y += VESSEL_PX
    table_h = y - table_top + TABLE_PAD_PX
    body.append(
        f'<rect class="dl-table" x="{TABLE_PAD_PX / 2:.1f}" y="{table_top:.1f}" '
        f'width="{width - TABLE_PAD_PX:.1f}" height="{table_h:.1f}" rx="6"/>'
    )
    body.extend(content)
    items = "、".join(f"{i.vessel}{i.count if i.count > 1 else ''}" for i in altar.items)
    notes = [f"神位: {names}"] if names and bar != names else []
    notes += [f"also: {items}"] if items else []
    notes.append(TABLE_NOTE)
    lines = [line for n in notes for line in wrap(n, width - 16)]
    kinds = [v.kind for vs in g.values() for v in vs] + (["tablet"] if altar.tablets else [])
    elements, legend_h = legend(8, table_top + table_h + 10, width - 16, kinds, lines)
    body.extend(elements)
    return document(Canvas(width, table_top + table_h + 10 + legend_h + 4, f"{altar.name} 陳設", tuple(body)))


def offering_tables(r: ResolvedRite) -> tuple[tuple[Altar, str], ...]:
    """A table for each altar of the rite that has things laid before a tablet and no plan of its own."""
    out = []
    for altar in r.altars:
        if altar.layout is not None:
            continue
        svg = offering_table_svg(altar)
        if svg is not None:
            out.append((altar, svg))
    return tuple(out)
