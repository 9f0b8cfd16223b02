"""A reader never sees an id of the data (#14 item 5): the booklet and the README tour's text output name
witnesses, sections, rites and movements in Chinese. The web pages: tests/web/test_no_data_ids.py. The rule
that decides what counts as an id: tests/data_ids.py."""

from __future__ import annotations

import re
import shlex
from collections import Counter
from pathlib import Path

import pytest
from typer.testing import CliRunner

from dianli.cli import app
from dianli.dance.animate import render_html as dance_html
from dianli.music.score import movement_ids, movement_info
from dianli.program.assemble import assemble as assemble_program
from dianli.program.html import render_booklet

from .data_ids import data_ids, distinctive, ids_in, pinyin_syllables, shown, visible_text
from .test_readme import EXAMPLES, WIDTH


@pytest.mark.parametrize(
    ("word", "syllables"),
    [
        ("chongsheng", 2),
        ("wangyi", 2),
        ("xiangyinjiu", 3),
        ("xian", 1),
        ("an", 1),
        ("front", 0),
        ("setup", 0),
    ],
)
def test_pinyin_syllables(word: str, syllables: int) -> None:
    assert pinyin_syllables(word) == syllables


@pytest.mark.parametrize(
    ("data_id", "looked_for"),
    [
        ("taiwan-fuzhi-9", True),  # compound
        ("xianshi.jiqi-vessels", True),
        ("xianshi:wangyi-call", True),
        ("chongsheng", True),  # two pinyin syllables
        ("wangyi", True),
        ("ji", False),  # one syllable: a word of prose as often as an id
        ("front", False),  # English
        ("back", False),
    ],
)
def test_which_ids_are_looked_for(data_id: str, looked_for: bool) -> None:
    assert data_id in data_ids()
    assert distinctive(data_id) is looked_for


@pytest.mark.parametrize(
    ("text", "found"),
    [
        ("凡祭文廟，必先崇聖祠（見 chongsheng）", {"chongsheng": 1}),
        ("♪ wangyi stop", {"wangyi": 1}),
        ("福建通志 (fujian-tongzhi-14) · 崇聖祠儀注", {"fujian-tongzhi-14": 1}),
        (
            "taiwan-fuzhi-9「大鐘」 and fujian-tongzhi-14-modern",
            {"taiwan-fuzhi-9": 1, "fujian-tongzhi-14-modern": 1},
        ),
        ("see /witnesses/taiwan-fuzhi-9 or https://example.org/chongsheng", {}),  # addresses
        ("written to xianshi-taiwan-fu-1752.html; the Tongan and Nanjing texts", {}),  # a file name; capitals
        ("the victims in front, back to their places; usher of an officiant", {}),  # English ids are prose
    ],
)
def test_ids_in(text: str, found: dict[str, int]) -> None:
    assert ids_in(text) == Counter(found)


@pytest.mark.parametrize(
    ("html", "text"),
    [
        ('<p title="taiwan-fuzhi-9"><a href="/w/taiwan-fuzhi-9">臺灣府志</a></p>', "臺灣府志"),
        ("<p>a<script>var w='chongsheng'</script><style>.wangyi{}</style>b</p>", "ab"),
        ("<svg><title>from chongxiu-fengshan-xianzhi-5</title><text>樊〔須〕</text></svg>", "樊〔須〕"),
        ('<td>福州府 <code class="data-id">fuzhou</code></td>', "福州府 "),
    ],
)
def test_visible_text(html: str, text: str) -> None:
    assert visible_text(html) == text


@pytest.fixture(scope="module")
def booklet() -> str:
    return visible_text(render_booklet(assemble_program("祀先師", "臺灣府", 1752), dance=False))


def test_the_booklet_shows_no_id(booklet: str) -> None:
    """The booklet of 祀先師 at 臺灣府 in 1752 (five rites, ~1,000 citations, the parallels appendix)."""
    found = ids_in(booklet)
    assert not found, shown(booklet, found)


@pytest.mark.parametrize(
    "name",
    [
        "reading of 臺灣府志",  # the reading witness by its short title, not taiwan-fuzhi-9
        "凡祭文廟，必先崇聖祠（見 祭崇聖祠儀注）",  # a cross-reference by the rite's name
        "day not stated in 臺灣府志; from 臺灣縣志 典禮志",  # 宰牲's day
        "視祭器（見 祭器）",
    ],
)
def test_the_booklet_names_them(booklet: str, name: str) -> None:
    assert name in " ".join(booklet.split())


DANCED = [m for m in movement_ids() if movement_info(m).danced]


@pytest.mark.parametrize("movement", DANCED)
def test_the_dance_animation_shows_no_id(movement: str) -> None:
    """The animation the booklet and /dance embed (in an iframe's srcdoc, which the booklet's scan skips)."""
    text = visible_text(dance_html(movement))
    found = ids_in(text)
    assert not found, shown(text, found)


# Commands of the README tour that show ids on purpose, with the kinds of id allowed (None: all) and why.
EXEMPT: dict[str, tuple[frozenset[str] | None, str]] = {
    "dianli ingest": (None, "lists the witness folders it ingests by id: the argument of --witness"),
    "dianli align": (
        None,
        "the alignment's data paths (xianshi.parts[chuxian].steps[0]) are what a reading names",
    ),
    "dianli coverage": (
        None,
        "a developers' table of witnesses × sections by id, to pass to --witness/--section",
    ),
    "dianli texts": (
        None,
        "a hit is addressed as WITNESS · SECTION, the arguments of texts show / cite --section",
    ),
    "dianli cite": (None, "the resolver's report names the section id that cite --section takes"),
    "dianli places": (frozenset({"place"}), "the id column is what --place and the URLs take"),
}

OPEN: dict[str, str] = {}
"""Commands whose ids come from another helper's files: known, reported, expected to fail until fixed there."""


def _matches(line: str, prefix: str) -> bool:
    return line == prefix or line.startswith(prefix + " ")


@pytest.mark.parametrize("prefix", sorted(EXEMPT) + sorted(OPEN))
def test_each_exemption_is_a_command_of_the_tour(prefix: str) -> None:
    assert any(_matches(line, prefix) for line in EXAMPLES)


def _allowed(line: str) -> frozenset[str] | None:
    """The kinds of id the command may show (empty: none; None: any)."""
    return next((kinds for prefix, (kinds, _why) in EXEMPT.items() if _matches(line, prefix)), frozenset())


def _param(line: str) -> object:
    why = next((reason for prefix, reason in OPEN.items() if _matches(line, prefix)), None)
    return pytest.param(line, marks=pytest.mark.xfail(strict=True, reason=why) if why else ())


TEXT = [
    _param(line)
    for line in EXAMPLES
    if " -o " not in line and " --out " not in line and _allowed(line) is not None
]


@pytest.mark.parametrize("line", TEXT)
def test_the_tour_shows_no_id(line: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """What each command of the README tour prints, piped at 80 columns; what the user typed is not
    counted (``dianli cite taiwan-fuzhi-9 …`` may echo its witness)."""
    monkeypatch.chdir(tmp_path)
    words = shlex.split(line)
    result = CliRunner().invoke(app, words[1:], env={"COLUMNS": str(WIDTH)})
    assert result.exit_code == 0, result.output
    found = ids_in(result.output)
    allowed = _allowed(line) or frozenset()
    typed = {part for word in words for part in re.split(r"[=,]", word)}  # --day gengji=DATE types gengji
    for data_id in [i for i in found if i in typed or data_ids()[i] in allowed]:
        del found[data_id]
    assert not found, shown(result.output, found)


SEED_NUMBER = re.compile(r"(?<!Volume )\b00[0-9]\b")
"""A transcription's file number (001 for 臺灣府志 …): the developers' name of a witness, not a reader's
(a printed volume's number, "Volume 009", is a reader's)."""


def _data_files() -> list[Path]:
    package = Path(__file__).resolve().parents[1] / "src" / "dianli"
    return sorted(p for p in package.rglob("*.yaml") if "witnesses" not in p.relative_to(package).parts[:2])


@pytest.mark.parametrize(
    "path", _data_files(), ids=lambda p: f"{p.parent.parent.name}/{p.parent.name}/{p.name}"
)
def test_data_text_names_witnesses_as_readers_do(path: Path) -> None:
    """Notes, glosses and assumptions (shown in the booklet, the pages and the CLI) name a witness by its
    title, never by its transcription's file number; comments, for developers, may."""
    numbered = [
        f"{number}: {line.strip()}"
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if not line.lstrip().startswith("#") and SEED_NUMBER.search(line.split(" #")[0])
    ]
    assert numbered == []
