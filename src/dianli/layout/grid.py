"""A rite's plan (陳設圖) as marks on a grid: each tablet at its altar's ``at`` cell, every cell of the
altar's ``layout`` around it, each mark with the kind of thing it is — and the drawing of that grid.

The grid is the witness's text diagram: a cell is one character column by one line, so the drawing keeps
the diagram's proportions and its orientation (the plan's axis words say which way is which).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from dianli.layout.config import MarkKind, mark_kind
from dianli.layout.svg import Canvas, axis_word, box, document, legend, wrap
from dianli.rites.model import Plan
from dianli.rites.resolve import ResolvedRite

CELL_W_PX = 26
ROW_H_PX = 36
MARK_H_PX = 26
MARK_GAP_PX = 4
AXIS_PX = 46
PAD_PX = 8
MARK_FONT_PX = 15
MIN_WIDTH_PX = 420
COMPASS_EW = ("東", "西")


@dataclass(frozen=True)
class Mark:
    """One thing on the plan: where (cells), what (the witness's word) and of what kind."""

    across: int
    down: int
    text: str
    kind: MarkKind
    altar: str


@dataclass(frozen=True)
class PlanGrid:
    plan: Plan
    marks: tuple[Mark, ...]

    @property
    def kinds(self) -> tuple[MarkKind, ...]:
        return tuple(dict.fromkeys(m.kind for m in self.marks))

    def bounds(self) -> tuple[int, int, int, int]:
        """First and last column, first and last line (a mark spans one column per character)."""
        return (
            min(m.across for m in self.marks),
            max(m.across + len(m.text) for m in self.marks),
            min(m.down for m in self.marks),
            max(m.down for m in self.marks),
        )


def plan_grid(r: ResolvedRite) -> PlanGrid | None:
    """The marks of the rite's plan, or None when the rite has no plan with laid-out altars."""
    if r.plan is None:
        return None
    marks: list[Mark] = []
    for altar in r.altars:
        if altar.at is None:
            continue
        if altar.tablets:
            marks.append(Mark(altar.at.across, altar.at.down, "".join(altar.tablets), "tablet", altar.id))
        for cell in altar.layout.cells if altar.layout else ():
            a, d = altar.at.across + cell.across, altar.at.down + cell.down
            marks.append(Mark(a, d, cell.item, mark_kind(cell.item), altar.id))
    return PlanGrid(r.plan, tuple(marks)) if marks else None


def quadrant(grid: PlanGrid, mark: Mark) -> str | None:
    """The compass quadrant of a mark in the diagram (東南 …), read from the plan's axis words; None
    when the mark sits on a centre line or the axes do not give both an east–west and a north–south word."""
    left, right, top, bottom = grid.bounds()
    x = mark.across + len(mark.text) / 2 - (left + right) / 2
    y = mark.down - (top + bottom) / 2
    words = []
    if x:
        words.append(grid.plan.across[0] if x < 0 else grid.plan.across[1])
    if y and grid.plan.down:
        words.append(grid.plan.down[0] if y < 0 else grid.plan.down[1])
    if len(words) != 2:
        return None
    words.sort(key=lambda w: 0 if w in COMPASS_EW else 1)
    return "".join(words)


def orientation_note(plan: Plan) -> str:
    down = f", {plan.down[0]} at the top, {plan.down[1]} at the bottom" if plan.down else ""
    return f"drawn as the witness draws it: {plan.across[0]} at the left, {plan.across[1]} at the right{down}"


def draw(
    grid: PlanGrid,
    label: str,
    notes: Sequence[str] = (),
    tips: Mapping[str, str] | None = None,
    boxed: Iterable[str] = (),
) -> str:
    """The grid as an SVG: marks in their cells, the altars in ``boxed`` on a table, the axis words at
    the edges, and a legend of the kinds drawn with the notes."""
    left, right, top, bottom = grid.bounds()
    plan_w = (right - left) * CELL_W_PX
    plan_h = (bottom - top + 1) * ROW_H_PX
    width = max(plan_w + 2 * AXIS_PX, MIN_WIDTH_PX)
    x0 = (width - plan_w) / 2
    y0 = AXIS_PX

    def x_of(across: int) -> float:
        return x0 + (across - left) * CELL_W_PX

    def y_of(down: int) -> float:
        return y0 + (down - top) * ROW_H_PX

    body: list[str] = []
    for altar in boxed:
        own = [m for m in grid.marks if m.altar == altar]
        if not own:
            continue
        bx = min(x_of(m.across) for m in own) - PAD_PX
        bx2 = max(x_of(m.across + len(m.text)) for m in own) + PAD_PX
        by = min(y_of(m.down) for m in own) + MARK_GAP_PX / 2
        by2 = max(y_of(m.down) for m in own) + ROW_H_PX - MARK_GAP_PX * 1.5
        body.append(
            f'<rect class="dl-table" x="{bx:.1f}" y="{by:.1f}" width="{bx2 - bx:.1f}" height="{by2 - by:.1f}" rx="8"/>'
        )
    for m in grid.marks:
        w = len(m.text) * CELL_W_PX - MARK_GAP_PX
        x, y = x_of(m.across), y_of(m.down)
        h = MARK_H_PX
        if m.kind == "tablet":
            h = ROW_H_PX * 2 - MARK_GAP_PX
            y -= ROW_H_PX / 2
        else:
            y += (ROW_H_PX - MARK_GAP_PX - MARK_H_PX) / 2
        tip = (tips or {}).get(m.text)
        body.append(box(m.kind, x, y, w, h, m.text, MARK_FONT_PX, f"{m.text} — {tip}" if tip else None))
    mid_y = y0 + plan_h / 2
    body.append(axis_word(x0 - AXIS_PX / 2, mid_y, grid.plan.across[0]))
    body.append(axis_word(x0 + plan_w + AXIS_PX / 2, mid_y, grid.plan.across[1]))
    if grid.plan.down:
        body.append(axis_word(width / 2, AXIS_PX / 2, grid.plan.down[0]))
        body.append(axis_word(width / 2, y0 + plan_h + AXIS_PX / 2, grid.plan.down[1]))
    lines = [line for note in (orientation_note(grid.plan), *notes) for line in wrap(note, width - 24)]
    legend_top = y0 + plan_h + AXIS_PX + 6
    elements, legend_h = legend(12, legend_top, width - 24, grid.kinds, lines)
    body.extend(elements)
    return document(Canvas(width, legend_top + legend_h + 6, label, tuple(body)))
