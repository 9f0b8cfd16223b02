"""comparison.synoptic: textual families, the choice of collation, and the synoptic collation."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path
from typing import Any

import pytest
from lxml import etree
from typer.testing import CliRunner

from dianli.cli.application import app
from dianli.comparison.synoptic import (
    FAMILY_SHARE,
    choose,
    families,
    kinship,
    synopsis,
    synopsis_csv,
    synopsis_html,
    synopsis_lines,
    synopsis_tei,
)
from dianli.errors import UnknownValueError

TEI_SCHEMA = Path(__file__).parents[1] / "fixtures" / "tei" / "tei_all.rng"

KINSHIP = [
    ("一二三四五六七八九十", "一二三四五六七八九十", 1.0),
    ("一二三四五六七八九十", "甲乙丙丁戊己庚辛壬癸", 0.0),
    ("一二三四五六七八九十甲乙", "一二三四五六七八九十子丑寅卯", 10 / 12),
    ("一二三之四五", "一二三之四五六七八九", 0.0),  # a shared formula shorter than a run is no copying
    ("", "一二三", 0.0),
]


@pytest.mark.parametrize(("a", "b", "share"), KINSHIP)
def test_kinship(a: str, b: str, share: float) -> None:
    assert kinship(a, b) == pytest.approx(share)


def test_the_families_of_sheji() -> None:
    """福建通志 and 臺灣府志 copy one text; 晉江縣志 wrote its own: two families at least."""
    found = families("sheji")
    assert found.family_of("fujian-tongzhi-14") == found.family_of("taiwan-fuzhi-9")
    assert "fujian-tongzhi-14" not in found.family_of("jinjiang-xianzhi-15")
    pair = next(k for k in found.kinships if {k[0], k[1]} == {"fujian-tongzhi-14", "taiwan-fuzhi-9"})
    assert pair[2] >= FAMILY_SHARE


def test_choose_says_which_and_why() -> None:
    kind, why = choose("社稷")
    assert kind == "synoptic" and "textual families" in why and "晉江縣志" in why


def test_a_synopsis_of_shanchuan_marks_the_days_of_jinjiang() -> None:
    result = synopsis("山川")
    days = next(r for r in result.rows if r.kind == "date_rule")
    assert days.verdict == "differs" and "jinjiang-xianzhi-15" in days.odd
    assert "二月上戊" in days.cell("jinjiang-xianzhi-15").values  # type: ignore[union-attr]


def test_synopsis_renderers_use_words() -> None:
    result = synopsis("社稷")
    text = "\n".join(synopsis_lines(result, 80))
    assert "臺灣府志" in text and "taiwan-fuzhi-9" not in text and "sheji" not in text
    rows = list(csv.DictReader(io.StringIO(synopsis_csv(result))))
    assert {r["title"] for r in rows} >= {"臺灣府志", "晉江縣志"}
    page = synopsis_html(result)
    assert "<meta name='viewport'" in page and "max-width:40rem" in page


def test_synopsis_tei_is_valid_tei() -> None:
    tei = synopsis_tei(synopsis("社稷"))
    rng = etree.RelaxNG(etree.parse(str(TEI_SCHEMA)))
    assert rng.validate(etree.fromstring(tei.encode())), rng.error_log.last_error
    assert tei.count("<app ") == len(synopsis("社稷").rows)


def test_a_synopsis_needs_a_rite() -> None:
    with pytest.raises(UnknownValueError):
        synopsis("no-such-rite")


runner = CliRunner()


@pytest.mark.parametrize("fmt", ["text", "csv", "json", "tei", "html"])
def test_cli_picks_synoptic_for_sheji(fmt: str) -> None:
    result = runner.invoke(app, ["collate", "社稷", "--format", fmt])
    assert result.exit_code == 0, result.output
    assert result.stderr.startswith("synoptic collation: ")
    if fmt == "json":
        assert json.loads(result.stdout)[0]["cells"]
    elif fmt == "csv":
        assert result.stdout.startswith("point,slot,kind,verdict,witness")


def test_cli_csv_is_refused_for_a_textual_collation() -> None:
    result = runner.invoke(app, ["collate", "社稷", "--kind", "textual", "--format", "csv"])
    assert result.exit_code == 2 and "synoptic" in result.output


@pytest.mark.browser
def test_the_synopsis_reads_on_a_phone(browser: Any, tmp_path: Path) -> None:
    """At 390 px the page does not scroll sideways and its text is at least 11 px."""
    page_file = tmp_path / "sheji.html"
    page_file.write_text(synopsis_html(synopsis("社稷")), encoding="utf-8")
    context = browser.new_context(viewport={"width": 390, "height": 844})
    page = context.new_page()
    page.goto(page_file.as_uri())
    wide = page.evaluate("document.documentElement.scrollWidth")
    smallest = page.evaluate(
        "Math.min(...[...document.querySelectorAll('dt,dd,h2,p')].map("
        "e => parseFloat(getComputedStyle(e).fontSize)))"
    )
    context.close()
    assert wide <= 390 and smallest >= 11
