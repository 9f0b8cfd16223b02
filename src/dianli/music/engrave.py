"""The engraved score: the MEI edition rendered to SVG by verovio, the 律呂 and 工尺 as verses under the
notes, each sung note's SVG group carrying its start and end in the audio (``data-start``,
``data-end``, seconds) so a page can follow playback.

A score witness other than the default is shown by choosing its ``<rdg>`` in every ``<app>`` (verovio's
``appXPathQuery``); the default shows the ``<lem>``.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Sequence
from importlib import resources

import verovio

from dianli.music.cues import Timing, character_times, default_timing
from dianli.music.mei import mei_bytes, note_id
from dianli.music.pitch import Tuning
from dianli.music.score import check_score_witness, movement, movement_info, score_witness

PAGE_WIDTH = 1500
"""Verovio page width in its units (tenths of a staff space × 10); the SVG scales to its box."""
SCALE = 45
SPACING_LINEAR = 0.3
"""verovio's linear spacing factor (its default 0.25 puts three phrases on a line and squeezes them):
verovio measures a syllable with its Latin text font, which knows no CJK glyph, and so under-measures
the three square characters of 清黃鐘, which then ran into the 林鐘 or 南呂 after it. At 0.3 a line holds
two phrases and every syllable of a verse clears the next by most of a character."""
MAX_PAGE_HEIGHT = 60000
"""Tall enough that a whole suite is one page (the page height is then cut to the music)."""
_G_RE = re.compile(r'<g id="([^"]+)" class="note"')


def _toolkit(witness: str) -> verovio.toolkit:
    # verovio keeps its default resource path per thread: a toolkit made in a worker thread (the web
    # app's) must be told where its fonts are
    tk = verovio.toolkit(False)
    tk.setResourcePath(str(resources.files("verovio") / "data"))
    tk.setOptions(
        {
            "pageWidth": PAGE_WIDTH,
            "pageHeight": MAX_PAGE_HEIGHT,
            "adjustPageHeight": True,
            "scale": SCALE,
            "svgViewBox": True,
            "svgRemoveXlink": True,
            "header": "none",
            "footer": "none",
            "mdivAll": True,
            "breaks": "auto",
            "spacingLinear": SPACING_LINEAR,
        }
    )
    if witness != score_witness():
        tk.setOptions({"appXPathQuery": [f"./rdg[contains(@source, '#{witness}')]"]})
    return tk


def note_times(
    movement_ids: Sequence[str], timing: Timing | None = None, witness: str | None = None
) -> dict[str, tuple[float, float]]:
    """Each sung note's id in the MEI (the reading shown) → its (start, end) in the movement's audio."""
    read = check_score_witness(witness)
    out: dict[str, tuple[float, float]] = {}
    for mid in movement_ids:
        chars = movement(mid, read).characters
        times = character_times(mid, timing or default_timing(), read)
        for c, (_lyric, start, end) in zip(chars, times, strict=True):
            span = (round(start, 3), round(end, 3))
            out[note_id(movement_info(mid).id, c)] = span
            out[note_id(movement_info(mid).id, c, read)] = span
    return out


def engraved_svg(
    movement_ids: Sequence[str],
    witness: str | None = None,
    tuning: Tuning | None = None,
    bpm: float | None = None,
    timing: Timing | None = None,
) -> str:
    """The sung line of the movements as one SVG, the witness's readings chosen (None: the default)."""
    read = check_score_witness(witness)
    ids = tuple(movement_info(m).id for m in movement_ids)
    if timing is None:
        return _engraved(ids, read, tuning, bpm)
    return _render(ids, read, tuning, bpm, timing)


@functools.lru_cache(maxsize=32)
def _engraved(ids: tuple[str, ...], read: str, tuning: Tuning | None, bpm: float | None) -> str:
    return _render(ids, read, tuning, bpm, None)


def _render(
    ids: tuple[str, ...], read: str, tuning: Tuning | None, bpm: float | None, timing: Timing | None
) -> str:
    tk = _toolkit(read)
    if not tk.loadData(mei_bytes(list(ids), tuning, bpm).decode("utf-8")):
        raise RuntimeError(f"verovio could not load the MEI of {', '.join(ids)}: {tk.getLog()}")
    svg: str = tk.renderToSVG(1)
    times = note_times(ids, timing, read)

    def timed(match: re.Match[str]) -> str:
        span = times.get(match.group(1))
        if span is None:
            return match.group(0)
        return f'{match.group(0)} data-start="{span[0]}" data-end="{span[1]}"'

    return _G_RE.sub(timed, svg)
