"""``dianli variants``, run as a user runs it: the table in 80 columns, JSON, CSV, the SVGs, the errors."""

from __future__ import annotations

import csv
import io
import json
import unicodedata
from pathlib import Path
from xml.etree import ElementTree as etree

import pytest
from typer.testing import CliRunner

from dianli.cli import app
from dianli.corpus.labels import witness_label

runner = CliRunner()
SVG = "{http://www.w3.org/2000/svg}"


def _width(line: str) -> int:
    return sum(2 if unicodedata.east_asian_width(c) in "WF" else 1 for c in line)


@pytest.mark.parametrize(
    ("args", "expected"),
    [
        (
            ["variants", "--rite", "祀先師"],
            [
                "xianshi:wangyi-call",
                "樂奉咸平之章",
                "樂奏咸平之章",
                "臺灣府志「唱：『樂奉咸平之章』，有樂無舞」",  # witnesses by short title (#14)
            ],
        ),
        (
            ["variants", "--rule", "guandi:guandi-guangzhao"],
            [
                "1 rule read differently",
                "關帝·光昭公之名: 3 readings (--rule guandi:guandi-guangzhao)",  # named by words, then its handle
                "光照公",
                "光昭公",
                "臺灣府志",
                "福建通志",
                "in force",
            ],
        ),
        (
            ["variants", "--rule", "qidao:qidao-troops"],
            [
                "鎮標暨城守及三營將士",
                "督撫標暨城守率八營將士",
                "臺灣府 · 臺灣府志",
                "stated by",
                "祭旗纛禮·迎請旗纛將士",
            ],
        ),
    ],
)
def test_text_fits_80_columns(args: list[str], expected: list[str]) -> None:
    result = runner.invoke(app, args, env={"COLUMNS": "80"})
    assert result.exit_code == 0, result.output
    for fragment in expected:
        assert fragment in result.output
    assert max(_width(line) for line in result.output.splitlines()) <= 80
    data = runner.invoke(app, [*args, "--format", "json"])
    flat = "".join(result.output.split())
    for rule in json.loads(data.output):  # wrapped, never cut: every reading and quote is there in full
        assert rule["id"] in flat
        for reading in rule["readings"]:
            assert "".join(reading["value"].split()) in flat
            for witness in reading["witnesses"]:
                cite = next((c for c in reading["citations"] if c["witness"] == witness), None)
                named = witness_label(witness)  # the text names the witness by its short title (#14)
                assert cite is None or "".join(f"{named}「{cite['quote']}」".split()) in flat


def test_json_and_csv() -> None:
    result = runner.invoke(app, ["variants", "--rule", "xianshi:wangyi-call", "--format", "json"])
    assert json.loads(result.output)[0]["title"] == "祀先師·望瘞樂章"  # the rule in words, beside its id
    assert result.exit_code == 0, result.output
    (rule,) = json.loads(result.output)
    assert rule["id"] == "xianshi:wangyi-call" and rule["rite"] == "xianshi" and len(rule["readings"]) >= 2
    feng = next(r for r in rule["readings"] if "樂奉" in r["value"])
    assert "taiwan-fuzhi-9" in feng["witnesses"]
    assert any(s["place"] == "taiwan-fu" and s["from_year"] <= 1752 <= s["until_year"] for s in feng["spans"])
    result = runner.invoke(app, ["variants", "--rule", "xianshi:wangyi-call", "--format", "csv"])
    assert result.exit_code == 0, result.output
    rows = list(csv.DictReader(io.StringIO(result.output)))
    taiwan = [
        r for r in rows if r["place"] == "taiwan-fu" and int(r["from_year"]) <= 1752 <= int(r["until_year"])
    ]
    assert len(taiwan) == 1 and "樂奉" in taiwan[0]["value"] and "taiwan-fuzhi-9「" in taiwan[0]["citations"]


def test_svgs(tmp_path: Path) -> None:
    timeline, drawn = tmp_path / "t.svg", tmp_path / "m.svg"
    result = runner.invoke(
        app,
        ["variants", "--rule", "xianshi:wangyi-call", "--svg-timeline", str(timeline), "--svg-map", str(drawn),
         "--year", "1752"],
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    for path in (timeline, drawn):
        root = etree.fromstring(path.read_text(encoding="utf-8"))
        assert root.tag == f"{SVG}svg"
    text = drawn.read_text(encoding="utf-8")
    assert "臺灣府" in text and "福州府" in text and "[1]" in text and "[2]" in text


@pytest.mark.parametrize(
    ("args", "needles"),
    [
        (["variants", "--rule", "nope"], ["unknown rule 'nope'", "accepted: "]),
        (["variants", "--rule", "xianshi:nope"], ["unknown rule 'xianshi:nope'", "xianshi:wangyi-call"]),
        (["variants", "--rite", "nope"], ["unknown rite 'nope'"]),
        (["variants", "--rule", "xianshi:wangyi-call", "--svg-map", "m.svg"], ["needs --year"]),
        (["variants", "--svg-timeline", "t.svg"], ["give --rule"]),
        (
            ["variants", "--rule", "xianshi:wangyi-call", "--svg-map", "m.svg", "--year", "1500"],
            ["out of range"],
        ),
    ],
)
def test_errors(args: list[str], needles: list[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    result = runner.invoke(app, args, env={"COLUMNS": "200"})
    assert result.exit_code == 2
    for needle in needles:
        assert needle in result.output
    assert "Traceback" not in result.output


def test_summary_ranks_the_rules_with_sentences_and_evidence_in_80_columns() -> None:
    result = runner.invoke(app, ["variants", "--summary", "--kind", "date_rule"], env={"COLUMNS": "80"})
    assert result.exit_code == 0, result.output
    assert all(_width(line) <= 80 for line in result.output.splitlines())
    assert "most varied first" in result.output
    assert "晉江縣志 (道光 1830, 晉江縣)" in result.output.replace("\n", "")
    assert "evidence" in result.output and "「" in result.output


def test_summary_as_csv_and_json() -> None:
    rows = list(
        csv.DictReader(io.StringIO(runner.invoke(app, ["variants", "--summary", "-f", "csv"]).output))
    )
    assert rows and [int(r["rank"]) for r in rows] == list(range(1, len(rows) + 1))
    assert all(0 < float(r["disagreement"]) <= 1 and r["sentence"] and r["evidence"] for r in rows)
    records = json.loads(runner.invoke(app, ["variants", "--summary", "--kind", "hymn", "-f", "json"]).output)
    assert all(r["kind"] == "hymn" for r in records)


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["variants", "--summary", "--kind", "weather"], "accepted: date_rule"),
        (["variants", "--kind", "hymn"], "add --summary"),
        (["variants", "--summary", "--rule", "shanchuan.date_rule"], "not --rule"),
    ],
)
def test_summary_arguments_are_checked(args: list[str], message: str) -> None:
    result = runner.invoke(app, args)
    assert result.exit_code == 2
    assert message in result.output.replace("\n", " ")


def test_dynasty_at_another_boundary_lists_the_changes_in_80_columns() -> None:
    result = runner.invoke(
        app, ["variants", "--dynasty", "--boundary", "1723", "--rite", "祀先師"], env={"COLUMNS": "80"}
    )
    assert result.exit_code == 0, result.output
    assert all(_width(line) <= 80 for line in result.output.splitlines())
    flat = result.output.replace("\n", "")
    assert "What changed at 1723 (雍正)" in flat and "咸和" in flat and "咸平" in flat
    rows = list(
        csv.DictReader(
            io.StringIO(
                runner.invoke(app, ["variants", "--dynasty", "--boundary", "1723", "-f", "csv"]).output
            )
        )
    )
    assert {r["change"] for r in rows} >= {"changed", "added"}
    assert all(r["sentence"] for r in rows)


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["variants", "--boundary", "1723"], "add --dynasty"),
        (["variants", "--dynasty", "--summary"], "--dynasty compares every rule"),
        (["variants", "--dynasty", "--boundary", "2020"], "1911"),
    ],
)
def test_dynasty_arguments_are_checked(args: list[str], message: str) -> None:
    result = runner.invoke(app, args)
    assert result.exit_code == 2
    assert message in result.output.replace("\n", " ")


@pytest.mark.parametrize("rite", ["祀先師", "山川", "接詔"])
def test_rites_diff_reports_what_variants_reports(rite: str) -> None:
    """``rites diff`` and ``variants`` read one source (the correspondence table through the variation):
    every reading ``variants --format json`` lists, with the witnesses that state it, is a row of the diff."""
    rules = json.loads(runner.invoke(app, ["variants", "--rite", rite, "--format", "json"]).output)
    diff = runner.invoke(app, ["rites", "diff", rite], env={"COLUMNS": "80"})
    assert diff.exit_code == 0, diff.output
    flat = "".join(diff.output.split())
    for rule in rules:
        assert "".join(rule["title"].split()) in flat
        for reading in rule["readings"]:
            assert f"[{reading['number']}]" in flat
            for witness in reading["witnesses"]:
                assert "".join(witness_label(witness).split()) in flat
    assert max(_width(line) for line in diff.output.splitlines()) <= 80
    assert "variants --rite" in diff.output


def test_rites_diff_lists_a_witness_stating_the_point_in_its_own_place() -> None:
    """臺灣縣志 reads 「樂奏咸和之曲」 at its 望瘞 (issue #25 item 8): it states a reading of its own."""
    out = " ".join(runner.invoke(app, ["rites", "diff", "祀先師"], env={"COLUMNS": "200"}).output.split())
    assert "樂奏咸和之曲" in out and f"{witness_label('taiwan-xianzhi-6')}「" in out
