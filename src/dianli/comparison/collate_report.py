"""A collation as text (an apparatus readable in 80 columns) and as a self-contained HTML alignment table."""

from __future__ import annotations

import html
from dataclasses import dataclass

from rich.cells import cell_len

from dianli.comparison.collate import Collation, Column

AGREE_MARK = "="


def _wrap(text: str, width: int, first: str, rest: str) -> list[str]:
    """Wrap by terminal cells (a CJK character is two): the first line after ``first``, the others after
    ``rest``."""
    lines: list[str] = []
    line, prefix = "", first
    for char in text:
        if line and cell_len(prefix + line + char) > width:
            lines.append(prefix + line)
            line, prefix = "", rest
        line += char
    lines.append(prefix + line)
    return lines


def legend(collation: Collation) -> list[str]:
    """The witnesses with their sigla, and those left out."""
    out = []
    for w in collation.witnesses:
        mark = " (base)" if w.id == collation.base else ""
        lost = "; begins inside the section" if w.mid_start else ""
        out.append(f"  {w.sigil}  {w.info.short_title} {w.info.compiled_year}  {w.id}{mark}{lost}")
    for wid, why in collation.left_out:
        out.append(f"  left out: {wid} ({why})")
    return out


def text_lines(collation: Collation, width: int = 80) -> list[str]:
    """The apparatus: agreeing text once (after ``=``), each varying column as a numbered block of
    ``SIGLA  reading`` lines (the base's first; ``—`` where the witnesses have nothing)."""
    sigil = {w.id: w.sigil for w in collation.witnesses}
    what = f"{collation.rite} · " if collation.rite else ""
    lines = [
        f"{collation.section_title} ({what}section {collation.section}): {len(collation.witnesses)} witnesses, "
        f"compared on the folding key",
        *legend(collation),
        f"{len(collation.columns)} columns, {len(collation.varying)} where the witnesses differ",
    ]
    head = [wrapped for line in lines for wrapped in _wrap(line, width, "", "      ")] + [""]
    pad = max(len(" ".join(w.sigil for w in collation.witnesses)), 1)
    body: list[str] = []
    base_at = [w.id for w in collation.witnesses].index(collation.base)
    for n, column in enumerate(collation.columns, start=1):
        if column.agree:
            text = "".join(t.text for t in column.cells[base_at])
            body.extend(_wrap(text, width, f"{AGREE_MARK} ", "  "))
            continue
        body.append(f"[{n}]")
        for reading in column.readings():
            names = " ".join(sigil[w] for w in reading.witnesses)
            names = names if len(names) <= pad else names[: pad - 1] + "…"
            shown = reading.text or "—"
            if len(reading.spellings) > 1:
                shown += (
                    "  ("
                    + "; ".join(f"{' '.join(sigil[w] for w in ws)} {s}" for s, ws in reading.spellings[1:])
                    + ")"
                )
            first = f"  {names:<{pad}}  "
            body.extend(_wrap(shown, width, first, " " * len(first)))
    return [*head, *body]


@dataclass(frozen=True)
class Cell:
    """One cell of the HTML table: the witness's text, and whether it differs from the base's."""

    text: str
    differs: bool
    empty: bool
    note: bool
    gap: bool


def table_cells(collation: Collation) -> list[list[Cell]]:
    """Rows (witnesses) × columns of cells, for the HTML table."""
    base_at = [w.id for w in collation.witnesses].index(collation.base)
    rows: list[list[Cell]] = []
    for i, _ in enumerate(collation.witnesses):
        row = []
        for column in collation.columns:
            cell = column.cells[i]
            row.append(
                Cell(
                    text="".join(t.text for t in cell),
                    differs=_differs(column, i, base_at),
                    empty=not cell,
                    note=any(t.note for t in cell),
                    gap=any(t.gap for t in cell),
                )
            )
        rows.append(row)
    return rows


def _differs(column: Column, i: int, base_at: int) -> bool:
    return not column.agree and column.reading_of(column.witnesses[i]) != column.reading_of(
        column.witnesses[base_at]
    )


STYLE = """
body{font-family:serif;margin:1rem}
.scroll{overflow-x:auto;-webkit-overflow-scrolling:touch;max-width:100%}
table.collation{border-collapse:collapse;font-size:1.05rem}
table.collation th,table.collation td{border:1px solid #ccc;padding:.2rem .35rem;vertical-align:top;
 min-width:1.5em;max-width:18em}
table.collation th{position:sticky;left:0;background:#f7f7f7;text-align:left;white-space:nowrap}
td.agree{background:#fff}td.differs{background:#ffe2b8}td.varies{background:#f3f7ff}
td.empty{color:#999;text-align:center}.note{font-size:.8em;color:#555}.gap{color:#a00;font-style:italic}
"""


def to_html(collation: Collation) -> str:
    """A standalone HTML page: the legend and the alignment table (differences from the base shaded)."""
    e = html.escape
    cells = table_cells(collation)
    out = [
        "<!doctype html><html lang='zh-Hant'><head><meta charset='utf-8'>",
        "<meta name='viewport' content='width=device-width, initial-scale=1'>",
        f"<title>{e(collation.section_title)} — collation</title><style>{STYLE}</style></head><body>",
        f"<h1>{e(collation.section_title)} <small>({e(collation.section)})</small></h1>",
        "<pre>" + e("\n".join(legend(collation))) + "</pre>",
        "<div class='scroll'><table class='collation'>",
    ]
    for w, row in zip(collation.witnesses, cells, strict=True):
        tds = []
        for column, cell in zip(collation.columns, row, strict=True):
            kind = "agree" if column.agree else "differs" if cell.differs else "varies"
            css = f"{kind}{' empty' if cell.empty else ''}{' note' if cell.note else ''}{' gap' if cell.gap else ''}"
            tds.append(f"<td class='{css}'>{e(cell.text) if not cell.empty else '—'}</td>")
        out.append(f"<tr><th title='{e(w.id)}'>{e(w.sigil)} {e(w.info.short_title)}</th>{''.join(tds)}</tr>")
    out.append("</table></div></body></html>")
    return "\n".join(out)
