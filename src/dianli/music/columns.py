"""The 樂章 as the witness lays it out: an SVG of vertical columns read right to left.

The score witnesses write each sung character large and its note after it (臺灣府志 in brackets,
``覺(太四)``, 汀州府志 inline, ``觉太四``). Here each column is a phrase (句) of four characters, the first
phrase at the right after a heading column (``初獻奏寧平之曲``); under each character its note follows in
small print, the 律 and then the 工尺, read down the column as the witness's text runs. A character the witness's digitised text could not encode is shown as the
gloss reads it, grey and in brackets. Each character's group carries ``data-start``/``data-end``
(seconds in the movement's audio) so a page can follow playback, as the engraved score does.
"""

from __future__ import annotations

from xml.sax.saxutils import escape, quoteattr

from dianli.corpus.labels import witness_label
from dianli.music.cues import Timing, character_times, default_timing
from dianli.music.score import SungCharacter, check_score_witness, movement, witness_movement_info

CELL_W = 56
CHAR_H = 40
NOTE_H = 38
CELL_H = CHAR_H + NOTE_H
MARGIN = 16
CHAR_SIZE = 32
NOTE_SIZE = 14
FONT = "'Noto Serif CJK TC','Noto Serif TC','Source Han Serif TC','Songti TC','MingLiU',serif"


def _cell(c: SungCharacter, x: float, y: float, span: tuple[float, float] | None) -> str:
    supplied = not c.char
    text = c.display.strip("[]") if supplied else c.char
    note = c.note_as_written
    timed = f' data-start="{span[0]:.3f}" data-end="{span[1]:.3f}"' if span else ""
    title = f"{c.phrase}.{c.position} {c.display}（{note}）"
    if supplied:
        title += " — not encoded in the witness's digitised text; the gloss's reading"
    cls = "ch supplied" if supplied else "ch"
    return (
        f'<g class="{cls}" id="col-p{c.phrase}c{c.position}"{timed}><title>{escape(title)}</title>'
        f'<rect x="{x - CELL_W / 2:.1f}" y="{y:.1f}" width="{CELL_W}" height="{CELL_H}" rx="4"/>'
        f'<text class="char" x="{x:.1f}" y="{y + CHAR_H - 6:.1f}" font-size="{CHAR_SIZE}">'
        f"{escape(f'〔{text}〕' if supplied else text)}</text>"
        f'<text class="note" x="{x:.1f}" y="{y + CHAR_H + NOTE_SIZE:.1f}" '
        f'font-size="{NOTE_SIZE}">{escape(note[:1])}</text>'
        f'<text class="note" x="{x:.1f}" y="{y + CHAR_H + 2 * NOTE_SIZE + 2:.1f}" '
        f'font-size="{NOTE_SIZE}">{escape(note[1:])}</text></g>'
    )


def witness_columns_svg(name: str, witness: str | None = None, timing: Timing | None = None) -> str:
    """The movement as its score witness writes it, in columns read right to left."""
    read = check_score_witness(witness)
    mv = movement(name, read)
    info = witness_movement_info(name, read)
    times = character_times(mv.id, timing or default_timing(), read)
    spans = [(t[1], t[2]) for t in times] if len(times) == len(mv.characters) else []
    heading = info.cite.quote.split("(")[0].split("（")[0]
    per_column = max(len(p.characters) for p in mv.phrases)
    columns = len(mv.phrases) + 1
    width = columns * CELL_W + 2 * MARGIN
    height = max(per_column * CELL_H, len(heading) * (CHAR_SIZE * 0.8 + 4)) + 2 * MARGIN
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" class="columns" viewBox="0 0 {width} {height:.0f}" '
        f'role="img" aria-label={quoteattr(f"{info.title}: the 樂章 as {witness_label(read)} writes it, right to left")}>',
        "<style>.columns text{text-anchor:middle;font-family:" + FONT + "}"
        ".columns .note{fill:#8a3b12}.columns rect{fill:none;stroke:none}"
        ".columns .supplied .char{fill:#888}.columns .head{font-size:" + str(CHAR_SIZE * 0.8) + "px}"
        ".columns .now rect{fill:#fde9a8;stroke:#c0392b}</style>",
    ]
    x_head = width - MARGIN - CELL_W / 2
    for i, char in enumerate(heading):
        y = MARGIN + (i + 1) * (CHAR_SIZE * 0.8 + 4)
        parts.append(f'<text class="head" x="{x_head:.1f}" y="{y:.1f}">{escape(char)}</text>')
    index = 0
    for p, phrase in enumerate(mv.phrases):
        x = width - MARGIN - CELL_W / 2 - (p + 1) * CELL_W
        for k, c in enumerate(phrase.characters):
            span = spans[index] if spans else None
            parts.append(_cell(c, x, MARGIN + k * CELL_H, span))
            index += 1
    parts.append("</svg>")
    return "".join(parts)
