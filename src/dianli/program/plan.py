"""Plans as inline SVG, drawn from the 陳設 data: where the tablets stand, and what lies before each.

The tablet plan places each tablet by the words of its hall and side (rules in ``data/program.yaml``:
north up, east to the right, rank by ``order``); the offering cards draw each kind of thing laid before
a tablet as many times as the data counts it. Both are schematic: the witnesses give sides, ranks and
counts, not distances.
"""

from __future__ import annotations

from collections.abc import Iterable
from html import escape

from dianli.program.config import config
from dianli.program.model import Altar, Tablet

COLUMN_PX = 74
ROW_PX = 118
TABLET_W_PX = 40
TABLET_H_PX = 104
MARGIN_PX = 36
GLYPH_PX = 26
GLYPH_GAP_PX = 4
GLYPHS_PER_ROW = 10
FONT = "'Noto Serif CJK TC','Noto Serif CJK SC','Source Han Serif TC','Songti TC','SimSun',serif"


def tablet_column(t: Tablet) -> int | None:
    """The column of a tablet: the first rule whose word occurs in its side or hall."""
    words = f"{t.side or ''} {t.hall}"
    for rule in config().tablet_plan.columns:
        if rule.match in words:
            return rule.column
    return None


def _vertical(x: float, y: float, text: str, size: int, cls: str = "") -> str:
    return (
        f'<text x="{x:.1f}" y="{y:.1f}" font-size="{size}" class="{cls}" '
        f'style="writing-mode:vertical-rl;text-orientation:upright" text-anchor="start">{escape(text)}</text>'
    )


def tablet_plan_svg(tablets: Iterable[Tablet]) -> str | None:
    """The tablets placed by side and rank; None when no tablet has a known place."""
    placed = [(t, c) for t in tablets if (c := tablet_column(t)) is not None]
    if not placed:
        return None
    columns = [c for _, c in placed]
    span = max(max(columns), -min(columns))
    width = (2 * span + 1) * COLUMN_PX + 2 * MARGIN_PX
    rows = max((t.order or 1) for t, _ in placed)
    height = (rows - 1) * ROW_PX + TABLET_H_PX + 2 * MARGIN_PX
    centre = width / 2
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width} {height}" class="plan" role="img" '
        f'aria-label="tablet plan" font-family="{FONT}">',
        f'<text x="{centre:.1f}" y="20" font-size="13" text-anchor="middle" class="compass">北 ↑　'
        f"（東在右 east to the right）</text>",
    ]
    for t, column in placed:
        x = centre + column * COLUMN_PX - TABLET_W_PX / 2
        y = MARGIN_PX + ((t.order or 1) - 1) * ROW_PX
        cls = "tablet main" if column == 0 else "tablet"
        parts.append(
            f'<g class="{cls}"><title>{escape(t.name)} · {escape(t.hall)} {escape(t.side or "")}</title>'
            f'<rect x="{x:.1f}" y="{y:.1f}" width="{TABLET_W_PX}" height="{TABLET_H_PX}" rx="3"/>'
            + _vertical(
                x + TABLET_W_PX / 2 - 7, y + 6, t.name, min(14, int((TABLET_H_PX - 10) / max(len(t.name), 1)))
            )
            + "</g>"
        )
    parts.append("</svg>")
    return "\n".join(parts)


LABEL_PX = 56
CARD_W_PX = LABEL_PX + GLYPHS_PER_ROW * (GLYPH_PX + GLYPH_GAP_PX) + 40


def altar_svg(altar: Altar) -> str:
    """One altar's card: each kind of thing in a row, drawn as many times as the data counts it."""
    rows: list[str] = []
    y = 8.0
    widest = 0
    for line in altar.lines:
        count = line.count or 1
        shown = min(count, GLYPHS_PER_ROW)
        rows.append(
            f'<text x="4" y="{y + GLYPH_PX * 0.7:.1f}" font-size="13" class="line-label">{escape(line.what.split("（")[0][:4])}</text>'
        )
        for i in range(shown):
            gx = LABEL_PX + i * (GLYPH_PX + GLYPH_GAP_PX)
            rows.append(
                f'<g class="vessel"><rect x="{gx}" y="{y:.1f}" width="{GLYPH_PX}" height="{GLYPH_PX}" rx="5"/>'
                f'<text x="{gx + GLYPH_PX / 2}" y="{y + GLYPH_PX * 0.72:.1f}" font-size="15" '
                f'text-anchor="middle">{escape(line.what[0])}</text></g>'
            )
        end = LABEL_PX + shown * (GLYPH_PX + GLYPH_GAP_PX)
        if count > shown:
            rows.append(f'<text x="{end}" y="{y + GLYPH_PX * 0.7:.1f}" font-size="13">×{count}</text>')
            end += 36
        widest = max(widest, end)
        y += GLYPH_PX + GLYPH_GAP_PX
    return "\n".join(
        [
            f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {CARD_W_PX} {y + 4:.0f}" '
            f'class="plan offerings" role="img" aria-label="{escape(altar.name)}" font-family="{FONT}">',
            *rows,
            "</svg>",
        ]
    )


def offerings_svgs(altars: Iterable[Altar]) -> tuple[tuple[Altar, str], ...]:
    """A card for each altar that has things laid before it."""
    return tuple((a, altar_svg(a)) for a in altars if a.lines)
