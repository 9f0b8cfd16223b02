"""The data package written in both formats: valid by dianli's own check and (where installed) by
frictionless, every table described, and known rows in several tables."""

from __future__ import annotations

import functools
import json
from datetime import date
from pathlib import Path
from typing import Any

import pytest

from dianli.calendar.ganzhi import day_sexagenary
from dianli.comparison.variation import variation
from dianli.corpus.normalise import fold
from dianli.corpus.witnesses import load_witness
from dianli.errors import UnknownValueError
from dianli.opendata.check import check_package as check_datapackage
from dianli.opendata.check import frictionless_problems, read_table
from dianli.opendata.package import FORMATS as EXPORT_FORMATS
from dianli.opendata.package import write_package as write_datapackage
from dianli.opendata.schema import TABLES as EXPORT_TABLES
from dianli.opendata.schema import table_schema
from dianli.opendata.tables import Tables
from dianli.written import MANIFEST

Row = dict[str, Any]


@functools.cache
def _table(path: Path, name: str) -> list[Row]:
    """A table of a written package, read once per test session."""
    return read_table(path, table_schema(name), _descriptor(path))


@functools.cache
def _descriptor(path: Path) -> dict[str, Any]:
    return dict(json.loads(path.read_text(encoding="utf-8")))


def _one(rows: list[Row], **match: Any) -> Row:
    found = [r for r in rows if all(r[k] == v for k, v in match.items())]
    assert len(found) == 1, (match, len(found))
    return found[0]


@pytest.mark.parametrize("fmt", EXPORT_FORMATS)
def test_the_package_is_valid(packages: dict[str, Path], fmt: str) -> None:
    path = packages[fmt]
    assert check_datapackage(path) == []
    problems = frictionless_problems(path)
    if problems is not None:  # frictionless is installed: it validates too (never a skip)
        assert problems == []


def test_the_files_of_each_format(packages: dict[str, Path]) -> None:
    csv_files = sorted(p.name for p in (packages["csv"].parent / "data").iterdir() if p.name != MANIFEST)
    assert csv_files == sorted(f"{t.name}.csv" for t in EXPORT_TABLES)
    assert [p.name for p in packages["json"].parent.iterdir() if p.name != MANIFEST] == ["datapackage.json"]
    header = (packages["csv"].parent / "data" / "steps.csv").read_text(encoding="utf-8").splitlines()[0]
    assert header.startswith("rite,witness,number,part,")


@pytest.mark.parametrize("fmt", EXPORT_FORMATS)
def test_every_table_is_described_and_keyed(packages: dict[str, Path], fmt: str) -> None:
    package = _descriptor(packages[fmt])
    assert package["profile"] == "tabular-data-package"
    assert [r["name"] for r in package["resources"]] == [t.name for t in EXPORT_TABLES]
    for resource in package["resources"]:
        assert resource["description"] and resource["schema"]["primaryKey"], resource["name"]
        assert all(f["description"] and f["type"] for f in resource["schema"]["fields"]), resource["name"]


@pytest.mark.parametrize("fmt", EXPORT_FORMATS)
def test_row_counts_match_the_model(packages: dict[str, Path], tables: Tables, fmt: str) -> None:
    counts = {t.name: len(_table(packages[fmt], t.name)) for t in EXPORT_TABLES}
    assert counts == tables.counts()
    assert all(counts[name] > 0 for name in counts), counts


WITNESSES = [
    (
        "taiwan-fuzhi-9",
        {"compiled_year": 1742, "short_title": "臺灣府志", "reading_chain": ["taiwan-fuzhi-9"]},
    ),
    (
        "tingzhou-fuzhi-11",
        {
            "base": "tingzhou-fuzhi",
            "reading_chain": [
                "tingzhou-fuzhi-11",
                "tingzhou-fuzhi",
                "fujian-tongzhi-14",
                "fujian-tongzhi-14-modern",
            ],
        },
    ),
    ("fujian-tongzhi-14-modern", {"translation_of": "fujian-tongzhi-14", "language": "modern"}),
]


@pytest.mark.parametrize("fmt", EXPORT_FORMATS)
@pytest.mark.parametrize(("witness", "expected"), WITNESSES)
def test_a_witness(packages: dict[str, Path], fmt: str, witness: str, expected: Row) -> None:
    row = _one(_table(packages[fmt], "witnesses"), id=witness)
    assert {k: row[k] for k in expected} == expected


PERIODS = [
    (
        ("taiwan-fu", 1684),
        {"name": "臺灣府", "chgis_id": "hvd_32025", "parent": "fujian", "until_year": 1886},
    ),
    (("taiwan-fu", 1887), {"name": "臺南府", "chgis_id": "hvd_32026", "parent": "taiwan-sheng"}),
    (("fuzhou", 1644), {"name": "福州府", "chgis_id": "hvd_32116", "level": "provincial-capital"}),
]


@pytest.mark.parametrize("fmt", EXPORT_FORMATS)
@pytest.mark.parametrize(("key", "expected"), PERIODS)
def test_a_place_period_with_its_chgis_id(
    packages: dict[str, Path], fmt: str, key: tuple[str, int], expected: Row
) -> None:
    row = _one(_table(packages[fmt], "place_periods"), place=key[0], from_year=key[1])
    assert {k: row[k] for k in expected} == expected
    assert _one(_table(packages[fmt], "places"), id=key[0])["periods"] >= 1


READINGS = [
    (
        ("sheji", "taiwan-fuzhi-9"),
        {"place": "taiwan-fu", "year": 1742, "governing_witness": "taiwan-fuzhi-9"},
    ),
    (("sheji", "fujian-tongzhi-14"), {"place": "fuzhou", "year": 1737}),  # a province: its 省城
    (("changgong", "taiwan-fuzhi-9"), {"place": "fuzhou", "year": 1742}),  # a rite of one place
]


@pytest.mark.parametrize("fmt", EXPORT_FORMATS)
@pytest.mark.parametrize(("key", "expected"), READINGS)
def test_a_reading_and_its_steps(
    packages: dict[str, Path], fmt: str, key: tuple[str, str], expected: Row
) -> None:
    rite, witness = key
    row = _one(_table(packages[fmt], "readings"), rite=rite, witness=witness)
    assert {k: row[k] for k in expected} == expected
    steps = [s for s in _table(packages[fmt], "steps") if s["rite"] == rite and s["witness"] == witness]
    assert row["steps"] == len(steps) > 0
    assert [s["number"] for s in steps] == list(range(1, len(steps) + 1))


STEPS = [
    ({"call": "瘞毛血"}, {"role": "通贊", "kind": "call", "part": "yimaoxue"}),
    ({"part": "yingshen", "role": None}, {"posture": "一跪三叩", "kind": "action"}),
]


@pytest.mark.parametrize("fmt", EXPORT_FORMATS)
@pytest.mark.parametrize(("match", "expected"), STEPS)
def test_a_sheji_step_and_its_citation_resolving(
    packages: dict[str, Path], fmt: str, match: Row, expected: Row
) -> None:
    step = _one(_table(packages[fmt], "steps"), rite="sheji", witness="taiwan-fuzhi-9", **match)
    assert {k: step[k] for k in expected} == expected
    assert step["cite_witness"] == "taiwan-fuzhi-9" and step["inherited_from"] is None
    raw = load_witness(step["cite_witness"]).raw
    assert fold(raw[step["cite_start"] : step["cite_end"]]) == fold(step["cite_quote"])
    assert fold(match.get("call") or expected["posture"][:1]) in fold(step["cite_quote"])


@pytest.mark.parametrize("fmt", EXPORT_FORMATS)
def test_offerings_and_tablets(packages: dict[str, Path], fmt: str) -> None:
    offerings = [
        o
        for o in _table(packages[fmt], "offerings")
        if (o["rite"], o["witness"]) == ("sheji", "taiwan-fuzhi-9")
    ]
    assert {o["kind"] for o in offerings} >= {"offering", "silk", "victim"}
    tablets = [
        t
        for t in _table(packages[fmt], "tablets")
        if (t["rite"], t["witness"]) == ("xianshi", "taiwan-fuzhi-9")
    ]
    assert len(tablets) > 100 and all(t["cite_witness"] or t["assumption"] for t in tablets)
    assert [t["number"] for t in tablets] == list(range(1, len(tablets) + 1))


OBSERVANCES = [
    ("sheji-spring", date(1752, 3, 21), "乾隆十七年二月初六", "戊"),  # 仲春上戊
    ("xianshi-spring", date(1752, 3, 20), "乾隆十七年二月初五", "丁"),  # 仲春上丁
]


@pytest.mark.parametrize("fmt", EXPORT_FORMATS)
@pytest.mark.parametrize(("observance", "day", "chinese", "stem"), OBSERVANCES)
def test_a_dated_observance(
    packages: dict[str, Path], fmt: str, observance: str, day: date, chinese: str, stem: str
) -> None:
    row = _one(_table(packages[fmt], "observances"), place="taiwan-fu", observance=observance, part=None)
    assert (row["year"], row["day"], row["chinese_date"], row["witness"]) == (
        1752,
        day,
        chinese,
        "taiwan-fuzhi-9",
    )
    assert day_sexagenary(day).stem == stem


@pytest.mark.parametrize("fmt", EXPORT_FORMATS)
def test_an_observance_rule(packages: dict[str, Path], fmt: str) -> None:
    row = _one(_table(packages[fmt], "observance_rules"), rite="sheji", id="sheji-spring")
    assert row["rule"] == {"kind": "stem_day_of_month", "month": 2, "stem": "戊"} | {
        k: v for k, v in row["rule"].items() if k not in ("kind", "month", "stem")
    }
    assert row["cite_witness"] == "taiwan-fuzhi-9" and row["related"][0]["offsets"] == [-3, -2, -1]


@pytest.mark.parametrize("fmt", EXPORT_FORMATS)
def test_the_variants_are_the_variation(packages: dict[str, Path], fmt: str) -> None:
    """The table holds what dianli variants reports: every reading of every rule, who states it."""
    rows = _table(packages[fmt], "variants")
    expected = [
        (rule.id, list(r.witnesses), list(r.followers)) for rule in variation() for r in rule.readings
    ]
    assert [(r["variant"], r["witnesses"], r["followers"]) for r in rows] == expected


@pytest.mark.parametrize("fmt", EXPORT_FORMATS)
def test_a_manifest_citation_resolves(packages: dict[str, Path], fmt: str) -> None:
    rows = _table(packages[fmt], "citations")
    row = _one(rows, element="taiwan-fuzhi-9.governs[taiwan-fu]")
    assert (row["layer"], row["witness"], row["quote"], row["resolved_section"]) == (
        "manifest",
        "taiwan-fuzhi-9",
        "臺灣府",
        "cisi.taiwanfu",
    )
    raw = load_witness("taiwan-fuzhi-9").raw
    assert raw[row["start"] : row["end"]] == "臺灣府"
    assert {r["layer"] for r in rows} >= {"rites", "manifest"}
    assert [r["id"] for r in rows] == list(range(1, len(rows) + 1))


def test_an_unknown_format_names_the_formats(tables: Tables, tmp_path: Path) -> None:
    with pytest.raises(UnknownValueError, match="accepted: csv, json"):
        write_datapackage(tables, tmp_path, "xml")


def test_a_json_export_replaces_an_earlier_csv_one(tables: Tables, tmp_path: Path) -> None:
    write_datapackage(tables, tmp_path, "csv")
    path = write_datapackage(tables, tmp_path, "json")
    assert [p.name for p in tmp_path.iterdir() if p.name != MANIFEST] == ["datapackage.json"]
    assert [r["name"] for r in json.loads(path.read_text(encoding="utf-8"))["resources"]][-1] == "citations"
