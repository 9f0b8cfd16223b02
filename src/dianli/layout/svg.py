"""SVG building blocks shared by the layouts: the document, escaped text, swatches and the legend.

Every text that reaches the SVG passes through :func:`esc`; numbers are formatted here. The styles are
one ``<style>`` block whose classes (``dl-…``) all layouts share, so a page holding several figures
stays consistent and a figure saved alone looks the same.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from html import escape

from dianli.layout.config import MarkKind

FONT = "'Noto Serif CJK TC','Noto Serif CJK SC','Source Han Serif TC','Songti TC','SimSun',serif"
LEGEND_ROW_PX = 22
LEGEND_SWATCH_PX = 14
LEGEND_COLUMN_PX = 140
NOTE_LINE_PX = 16

KIND_LABELS: dict[str, str] = {
    "tablet": "神位 tablet",
    "changed": "dated: moved that year",
    "food": "祭品 food",
    "victim": "牲 victim",
    "silk": "帛 silk",
    "cup": "爵 cup",
    "burner": "香爐 burner",
    "person": "位 a person's place",
    "feature": "階、案 steps, table",
}

STYLE = """
.dl-bg{fill:#fffdf8}
.dl-frame{fill:none;stroke:#d9ccb4;stroke-width:1}
.dl-table{fill:#f7efe0;stroke:#d4c1a0;stroke-width:1}
.dl-hall{fill:#fbf6ec;stroke:#b9a27c;stroke-width:1.5}
.dl-court{fill:none;stroke:#cdbb9b;stroke-dasharray:4 3}
.dl-mark text,.dl-t{fill:#2b2118}
.dl-tablet rect,.dl-sw-tablet{fill:#8c2f1f;stroke:#5e1d12}
.dl-tablet text{fill:#fff6e0;font-weight:700}
.dl-food rect,.dl-sw-food{fill:#f6efe2;stroke:#b79e7a}
.dl-victim rect,.dl-sw-victim{fill:#ead2b8;stroke:#8a6a45}
.dl-silk rect,.dl-sw-silk{fill:#eef2f6;stroke:#7d8fa3}
.dl-cup rect,.dl-sw-cup{fill:#f3e3b8;stroke:#a88a3c}
.dl-burner rect,.dl-sw-burner{fill:#e4dccd;stroke:#6d5c48}
.dl-person rect,.dl-sw-person{fill:#e3edf7;stroke:#2d5b88}
.dl-person text{fill:#1d3d5e;font-weight:700}
.dl-feature rect,.dl-sw-feature{fill:#fffdf8;stroke:#8f8f8f;stroke-dasharray:3 2}
.dl-feature text{fill:#555}
.dl-axis circle{fill:#fffdf8;stroke:#8c2f1f;stroke-width:1.5}
.dl-axis text{fill:#8c2f1f;font-weight:700}
.dl-label{fill:#6b5a45}
.dl-note{fill:#6b5a45;font-family:sans-serif}
.dl-changed rect{stroke:#e0a020;stroke-width:3}
.dl-sw-changed{fill:#8c2f1f;stroke:#e0a020;stroke-width:3}
"""


@dataclass(frozen=True)
class Canvas:
    """An SVG under construction: its size, its title and its body elements in drawing order."""

    width: float
    height: float
    label: str
    body: tuple[str, ...]


def esc(text: object) -> str:
    return escape(str(text), quote=True)


def document(canvas: Canvas) -> str:
    """The SVG element, self-contained (its own styles and font stack), with a <title>."""
    return "\n".join(
        (
            f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {canvas.width:.0f} {canvas.height:.0f}" '
            f'width="{canvas.width:.0f}" height="{canvas.height:.0f}" class="dl-layout" role="img" '
            f'aria-label="{esc(canvas.label)}" font-family="{FONT}">',
            f"<title>{esc(canvas.label)}</title>",
            f"<style>{STYLE}</style>",
            f'<rect class="dl-bg" x="0" y="0" width="{canvas.width:.0f}" height="{canvas.height:.0f}"/>',
            *canvas.body,
            "</svg>",
        )
    )


def text(x: float, y: float, content: str, size: float, cls: str = "dl-t", anchor: str = "middle") -> str:
    return (
        f'<text x="{x:.1f}" y="{y:.1f}" font-size="{size:.0f}" class="{cls}" '
        f'text-anchor="{anchor}" dominant-baseline="central">{esc(content)}</text>'
    )


def vertical_text(x: float, top: float, content: str, size: float, cls: str = "dl-t") -> str:
    """Characters stacked top to bottom (one <text> per character, so every renderer agrees)."""
    return "".join(text(x, top + size * (i + 0.5), ch, size, cls) for i, ch in enumerate(content))


def box(
    kind: str, x: float, y: float, w: float, h: float, label: str, size: float, tip: str | None = None
) -> str:
    """A mark: a rounded box of its kind's style with its word centred (a tooltip naming it)."""
    title = f"<title>{esc(tip or label)}</title>"
    return (
        f'<g class="dl-mark dl-{kind}">{title}<rect x="{x:.1f}" y="{y:.1f}" width="{w:.1f}" height="{h:.1f}" '
        f'rx="4"/>{text(x + w / 2, y + h / 2, label, size)}</g>'
    )


def axis_word(x: float, y: float, word: str, radius: float = 14) -> str:
    return (
        f'<g class="dl-axis"><circle cx="{x:.1f}" cy="{y:.1f}" r="{radius:.0f}"/>'
        f"{text(x, y, word, radius * 1.2)}</g>"
    )


def legend(
    x: float, y: float, width: float, kinds: Iterable[MarkKind | str], notes: Sequence[str] = ()
) -> tuple[tuple[str, ...], float]:
    """Swatches for the kinds drawn, then the notes (one line each); returns the elements and height."""
    shown = [k for k in KIND_LABELS if k in set(kinds)]
    per_row = max(1, int(width // LEGEND_COLUMN_PX))
    out: list[str] = []
    for i, kind in enumerate(shown):
        cx = x + (i % per_row) * LEGEND_COLUMN_PX
        cy = y + (i // per_row) * LEGEND_ROW_PX
        out.append(
            f'<rect class="dl-sw-{kind}" x="{cx:.1f}" y="{cy:.1f}" width="{LEGEND_SWATCH_PX}" '
            f'height="{LEGEND_SWATCH_PX}" rx="3"/>'
        )
        out.append(
            text(
                cx + LEGEND_SWATCH_PX + 6,
                cy + LEGEND_SWATCH_PX / 2,
                KIND_LABELS[kind],
                12,
                "dl-label",
                "start",
            )
        )
    rows = (len(shown) + per_row - 1) // per_row
    top = y + rows * LEGEND_ROW_PX + (4 if rows else 0)
    for j, note in enumerate(notes):
        out.append(text(x, top + j * NOTE_LINE_PX + NOTE_LINE_PX / 2, note, 11, "dl-note", "start"))
    return tuple(out), rows * LEGEND_ROW_PX + len(notes) * NOTE_LINE_PX + (8 if rows or notes else 0)


def wrap(note: str, width_px: float, size_px: float = 11) -> tuple[str, ...]:
    """Break a note into lines that fit ``width_px`` (CJK characters count a full em, others half)."""
    lines: list[str] = []
    line, used = "", 0.0
    for ch in note:
        w = size_px if ord(ch) > 0x2E7F else size_px * 0.5
        if used + w > width_px and line:
            cut = line.rfind(" ")
            if cut > len(line) // 2 and ord(ch) <= 0x2E7F:
                lines.append(line[:cut])
                line = line[cut + 1 :]
                used = sum(size_px if ord(c) > 0x2E7F else size_px * 0.5 for c in line)
            else:
                lines.append(line)
                line, used = "", 0.0
        line += ch
        used += w
    if line:
        lines.append(line)
    return tuple(lines)
