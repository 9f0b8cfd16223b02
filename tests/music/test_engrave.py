"""The engraved score (verovio from the MEI) and the music page that shows it beside the witness's
columns, every sung note timed to the audio."""

from __future__ import annotations

import itertools
import re
import threading
from collections import defaultdict

import pytest
from fastapi.testclient import TestClient

from dianli.music.apparatus import apparatus
from dianli.music.cues import character_times
from dianli.music.engrave import engraved_svg
from dianli.music.score import movement, movement_ids
from dianli.web.app import app

TINGZHOU = "tingzhou-fuzhi-11"
_TIMED = re.compile(r'<g id="([^"]+)" class="note" data-start="([0-9.]+)" data-end="([0-9.]+)"')


@pytest.mark.parametrize(
    ("movement_id", "witness"), [("chuxian", None), ("chezhuan", TINGZHOU), ("wangyi", None)]
)
def test_every_sung_note_is_engraved_with_its_time(movement_id: str, witness: str | None) -> None:
    svg = engraved_svg([movement_id], witness)
    timed = _TIMED.findall(svg)
    times = character_times(movement_id, witness=witness)
    assert len(timed) == len(times) == 32
    for (_id, start, end), (_lyric, t0, t1) in zip(timed, times, strict=True):
        assert (float(start), float(end)) == (round(t0, 3), round(t1, 3))
    # the default witness's characters, the other's where the apparatus records a variant (differences of
    # script alone, 淵/渊, are not variants: the digitised 汀州府志 is in simplified script)
    variants = {(v.phrase, v.position) for a in apparatus(movement_id) for v in a.variants}
    other = movement(movement_id, witness).characters
    for c, o in zip(movement(movement_id).characters, other, strict=True):
        shown = o if witness and (c.phrase, c.position) in variants else c
        assert shown.display.strip("[]") in svg


@pytest.mark.parametrize(("witness", "shown", "hidden"), [(None, "先", "宣"), (TINGZHOU, "宣", "先")])
def test_the_witness_reading_is_engraved(witness: str | None, shown: str, hidden: str) -> None:
    svg = engraved_svg(["chezhuan"], witness)
    assert shown in svg and hidden not in svg


def test_engraving_works_in_a_worker_thread() -> None:
    out: list[str] = []
    worker = threading.Thread(target=lambda: out.append(engraved_svg(["yaxian"], TINGZHOU)))
    worker.start()
    worker.join()
    assert len(_TIMED.findall(out[0])) == 32


@pytest.mark.parametrize(
    ("url", "needles"),
    [
        (
            "/music/chuxian",
            ["Engraved by Verovio", 'class="columns"', "初獻奏寧平之曲", 'class="engraved follow"'],
        ),
        (f"/music/chezhuan?witness={TINGZHOU}", ["Engraved by Verovio", "宣", "撤馔奏咸平之曲"]),
    ],
)
def test_music_page_shows_the_score_and_the_columns(url: str, needles: list[str]) -> None:
    html = TestClient(app).get(url).text
    for needle in needles:
        assert needle in html
    # the sung line, the engraved notes and the columns: 32 timed elements each
    assert html.count("data-start=") == 3 * 32


_SYLLABLE = re.compile(
    r'<text x="(\d+)" y="(\d+)"[^>]*>\s*<tspan[^>]*class="text"[^>]*>\s*<tspan font-size="(\d+)px">([^<]+)</tspan>'
)


def _syllable_gaps(svg: str) -> list[tuple[str, str, float]]:
    """Between each two neighbouring syllables of a verse line: the gap in characters, a CJK character
    being as wide as its font size (square)."""
    lines: dict[int, list[tuple[int, int, str, int]]] = defaultdict(list)
    for x, y, size, text in _SYLLABLE.findall(svg):
        lines[int(y)].append((int(x), int(x) + len(text) * int(size), text, int(size)))
    gaps = []
    for syllables in lines.values():
        syllables.sort()
        gaps += [(a[2], b[2], (b[0] - a[1]) / a[3]) for a, b in itertools.pairwise(syllables)]
    return gaps


@pytest.mark.parametrize("witness", [None, TINGZHOU])
@pytest.mark.parametrize("movement_id", movement_ids())
def test_no_two_syllables_of_a_verse_collide(movement_id: str, witness: str | None) -> None:
    """清黃鐘 followed by 林鐘 or 南呂 ran together (verovio under-measures CJK text)."""
    gaps = _syllable_gaps(engraved_svg([movement_id], witness))
    assert len(gaps) > 60  # 32 notes with three verses each, less a pair at each line break
    narrowest = min(gaps, key=lambda g: g[2])
    assert narrowest[2] > 0.5, narrowest
