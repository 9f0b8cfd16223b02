"""A witness is a folder: the test fixture gazetteer, added through ``DIANLI_WITNESSES`` with no other file
touched, goes the whole path — search, sections, its own date rule in the calendar, its reading in
``rites show``, ``rites diff`` and the program.

Each command runs in a fresh process with the variable set (the corpus reads it once per process), as a
user who keeps a gazetteer outside the package would run it.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

FIXTURES = Path(__file__).parent / "fixtures" / "witnesses"
FIXTURE = "test-fixture-gazetteer"


def dianli(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "DIANLI_WITNESSES": str(FIXTURES), "COLUMNS": "200"}
    code = "import sys; from dianli.cli import main; sys.argv = ['dianli', *sys.argv[1:]]; main()"
    return subprocess.run(
        [sys.executable, "-c", code, *args], capture_output=True, text=True, env=env, cwd=cwd, timeout=300
    )


def ok(*args: str, cwd: Path | None = None) -> str:
    done = dianli(*args, cwd=cwd)
    assert done.returncode == 0, done.stderr + done.stdout
    return done.stdout


def test_texts_and_search() -> None:
    assert FIXTURE in ok("texts", "list")
    assert "七月十五日" in ok("texts", "search", "一歲一祭", "--witness", FIXTURE)
    assert "祭厲壇禮" in ok("texts", "show", FIXTURE, "litan")


def test_its_date_rule_replaces_the_general_ones_where_it_governs() -> None:
    """淡水廳 from 1760 (the fixture's year): one 厲壇 sacrifice, in 七月; before 1760 and elsewhere: three."""

    def litan(place: str, year: int) -> list[dict[str, object]]:
        out = ok(
            "calendar", str(year), "--place", place, "--rite", "litan", "--no-related", "--format", "json"
        )
        return [r for r in json.loads(out) if r["rite"] == "litan"]

    after = litan("淡水廳", 1760)
    assert [r["observance"] for r in after] == ["litan-zhongyuan"]
    assert FIXTURE in json.dumps(after, ensure_ascii=False)
    assert len(litan("淡水廳", 1759)) == 3
    assert len(litan("臺灣府", 1760)) == 3


def test_its_reading_in_rites_show() -> None:
    out = ok("rites", "show", "厲壇", "--place", "淡水廳", "--year", "1760", "--format", "json")
    data = json.loads(out)
    assert data["witness"] == FIXTURE and data["governing_witness"] == FIXTURE
    assert [o["office"] for o in data["officiants"]] == ["同知"]
    # what the fixture does not state is inherited from its base and marked so
    assert data["steps"] and all(s.get("inherited_from") == "taiwan-fuzhi-9" for s in data["steps"])


def test_its_reading_in_rites_diff() -> None:
    """Its officiant and its day are readings it states, by its short title (#14), quoted in its words."""
    out = " ".join(ok("rites", "diff", "厲壇").split())
    assert "主祭：同知 stated by 測試用廳志" in out and "測試用廳志「同知主祭」" in out
    assert "每歲七月十五日祭厲壇，春、冬不祭 stated by 測試用廳志" in out


def test_a_rite_it_lacks_is_a_clear_error() -> None:
    done = dianli("rites", "show", "耕耤", "--place", "淡水廳", "--year", "1760", "--witness", FIXTURE)
    assert done.returncode == 2
    assert FIXTURE in done.stderr + done.stdout and "taiwan-fuzhi-9" in done.stderr + done.stdout


def test_its_reading_in_the_program(tmp_path: Path) -> None:
    ok(
        "program",
        "厲壇",
        "--place",
        "淡水廳",
        "--year",
        "1760",
        "--no-audio",
        "--out",
        str(tmp_path),
        cwd=tmp_path,
    )
    booklet = next(tmp_path.glob("*.html")).read_text(encoding="utf-8")
    assert "同知" in booklet and "每歲七月十五日祭厲壇" in booklet


def test_it_governs_its_place_from_its_year() -> None:
    def governing(year: int) -> str:
        rows = json.loads(ok("places", "--year", str(year), "--format", "json"))["units"]
        return next(str(r["governing_witness"]) for r in rows if r["id"] == "danshui")

    assert governing(1760) == FIXTURE
    assert governing(1759) == "taiwan-fuzhi-9"


def test_its_coverage() -> None:
    """The fixture's clauses are counted like any witness's, section by section."""
    out = ok("coverage", "--witness", FIXTURE)
    assert FIXTURE in out
    # sections and the witness named in words, the ids the options take beside them
    from dianli.corpus.labels import section_label, witness_label

    assert witness_label(FIXTURE) in out and f"{section_label('litan')} (litan)" in out


def test_its_own_not_procedural_marks_count() -> None:
    """A witness kept outside the package marks its non-procedural clauses in its own folder."""
    out = ok("coverage", "--witness", FIXTURE, "--uncovered")
    assert "本廳厲壇，在城北郊外； — not procedural: the altar's location (no procedure)" in out
