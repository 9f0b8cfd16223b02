"""The self-contained package check: on hand-built packages it finds each kind of problem, in both
formats; where frictionless is installed it agrees (a plain ``if``: the test never skips)."""

from __future__ import annotations

import csv
import json
from pathlib import Path
from typing import Any

import pytest

from dianli.opendata.check import check_package, frictionless_problems
from dianli.opendata.schema import Field, ForeignKey, TableSchema

PEOPLE = TableSchema(
    "people",
    "People",
    "test table",
    (
        Field("id", "string", "id", required=True),
        Field("age", "integer", "age"),
        Field("born", "date", "birthday"),
        Field("tags", "array", "tags"),
        Field("alive", "boolean", "alive"),
        Field("parent", "string", "parent id"),
    ),
    ("id",),
    (ForeignKey(("parent",), "", ("id",)),),
)
SCHEMAS = (PEOPLE,)
GOOD = [
    ["a", "30", "1752-03-21", '["x"]', "true", ""],
    ["b", "", "", "[]", "false", "a"],
]


def _write(folder: Path, fmt: str, rows: list[list[str]], header: list[str] | None = None) -> Path:
    names = header or list(PEOPLE.field_names)
    resource: dict[str, Any] = {
        "name": "people",
        "profile": "tabular-data-resource",
        "schema": PEOPLE.descriptor(),
    }
    if fmt == "csv":
        with (folder / "people.csv").open("w", encoding="utf-8", newline="") as handle:
            csv.writer(handle).writerows([names, *rows])
        resource |= {"path": "people.csv", "format": "csv", "encoding": "utf-8"}
    else:
        types = {f.name: f.type for f in PEOPLE.fields}
        resource["data"] = [
            {n: _json_cell(types.get(n, "string"), c) for n, c in zip(names, row, strict=True)}
            for row in rows
        ]
    path = folder / "datapackage.json"
    path.write_text(json.dumps({"name": "t", "resources": [resource]}, ensure_ascii=False), encoding="utf-8")
    return path


def _json_cell(type_: str, cell: str) -> Any:
    """The CSV cell as the JSON value a writer would give (a malformed cell stays a string)."""
    if cell == "":
        return None
    try:
        if type_ == "integer":
            return int(cell)
        if type_ in ("array", "object"):
            return json.loads(cell)
    except ValueError:
        return cell
    if type_ == "boolean" and cell in ("true", "false"):
        return cell == "true"
    return cell


CASES = [
    ("valid", GOOD, None),
    ("repeated primary key", [*GOOD, ["a", "1", "", "[]", "true", ""]], "primary key ('a',) repeats row 1"),
    ("foreign key", [*GOOD, ["c", "1", "", "[]", "true", "zz"]], "parent = zz is not a id of people"),
    ("not an integer", [["a", "old", "", "[]", "true", ""]], "field age: 'old' is not"),
    ("not a date", [["a", "1", "1752-13-01", "[]", "true", ""]], "field born: '1752-13-01' is not a date"),
    ("not an array", [["a", "1", "", "x", "true", ""]], "field tags:"),
    ("required", [["", "1", "", "[]", "true", ""]], "field id: a value is required"),
]


@pytest.mark.parametrize("fmt", ["csv", "json"])
@pytest.mark.parametrize(("case", "rows", "problem"), CASES, ids=[c[0] for c in CASES])
def test_the_check_finds_each_problem(
    tmp_path: Path, fmt: str, case: str, rows: list[list[str]], problem: str | None
) -> None:
    path = _write(tmp_path, fmt, rows)
    found = check_package(path, SCHEMAS)
    if problem is None:
        assert found == []
    else:
        assert any(problem in line for line in found), found
    theirs = frictionless_problems(path)
    if theirs is not None:  # frictionless installed: it agrees on valid and invalid
        assert (theirs == []) == (problem is None), theirs


def test_a_csv_header_that_is_not_the_schema(tmp_path: Path) -> None:
    header = ["id", "age", "born", "tags", "parent", "alive"]
    found = check_package(_write(tmp_path, "csv", GOOD, header), SCHEMAS)
    assert any("is not the schema's fields" in line for line in found), found


def test_a_schema_that_is_not_dianlis(tmp_path: Path) -> None:
    path = _write(tmp_path, "json", GOOD)
    package = json.loads(path.read_text(encoding="utf-8"))
    package["resources"][0]["schema"]["primaryKey"] = ["age"]
    path.write_text(json.dumps(package), encoding="utf-8")
    assert check_package(path, SCHEMAS) == ["people: schema primaryKey: ['age'] differs from dianli's ['id']"]


def test_a_missing_resource_and_file(tmp_path: Path) -> None:
    (tmp_path / "datapackage.json").write_text('{"resources": []}', encoding="utf-8")
    assert check_package(tmp_path / "datapackage.json", SCHEMAS) == ["people: resource missing"]
    path = _write(tmp_path, "csv", GOOD)
    (tmp_path / "people.csv").unlink()
    assert check_package(path, SCHEMAS) == ["people: file 'people.csv' is missing"]
