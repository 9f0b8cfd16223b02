"""Checking a written data package without any library: every resource and field present as our schema
says, every value of its type, required values given, primary keys unique, foreign keys resolved; and,
where the ``frictionless`` package is installed, its own validation too.

:func:`check_package` returns the problems as lines (empty: the package is valid). It reads what
:mod:`dianli.opendata.package` writes — CSV files with a header row, or inline JSON rows — and compares the
descriptor's schemas with :data:`dianli.opendata.schema.TABLES`, so a package that a user edited or an
older version wrote is checked against the schema of this version.
"""

from __future__ import annotations

import csv
import json
import math
from collections.abc import Callable, Iterator
from datetime import date
from pathlib import Path
from typing import Any

from dianli.opendata.schema import TABLES, TableSchema

MAX_PROBLEMS = 50
Value = Any


class _Bad(ValueError):
    pass


def _csv_value(type_: str, cell: str) -> Value:
    """A CSV cell as a value of the Table Schema type (``None`` for an empty cell)."""
    if cell == "":
        return None
    if type_ == "string":
        return cell
    if type_ == "integer":
        if not cell.lstrip("-").isdigit():
            raise _Bad(f"{cell!r} is not an integer")
        return int(cell)
    if type_ == "number":
        try:
            number = float(cell)
        except ValueError:
            raise _Bad(f"{cell!r} is not a number") from None
        if not math.isfinite(number):
            raise _Bad(f"{cell!r} is not a finite number")
        return number
    if type_ == "boolean":
        if cell not in ("true", "false"):
            raise _Bad(f"{cell!r} is not a boolean (true or false)")
        return cell == "true"
    if type_ == "date":
        return _date(cell)
    if type_ in ("array", "object"):
        try:
            parsed = json.loads(cell)
        except json.JSONDecodeError:
            raise _Bad(f"{cell!r} is not JSON") from None
        return _json_value(type_, parsed)
    raise _Bad(f"unknown field type {type_!r}")


def _date(text: object) -> date:
    try:
        if not isinstance(text, str) or len(text) != 10:
            raise ValueError
        return date.fromisoformat(text)
    except ValueError:
        raise _Bad(f"{text!r} is not a date (YYYY-MM-DD)") from None


_JSON_TYPES: dict[str, Callable[[Value], bool]] = {
    "string": lambda v: isinstance(v, str),
    "integer": lambda v: isinstance(v, int) and not isinstance(v, bool),
    "number": lambda v: isinstance(v, int | float) and not isinstance(v, bool),
    "boolean": lambda v: isinstance(v, bool),
    "array": lambda v: isinstance(v, list),
    "object": lambda v: isinstance(v, dict),
}


def _json_value(type_: str, value: Value) -> Value:
    """An inline JSON value checked against the Table Schema type (``None`` is a missing value)."""
    if value is None:
        return None
    if type_ == "date":
        return _date(value)
    check = _JSON_TYPES.get(type_)
    if check is None:
        raise _Bad(f"unknown field type {type_!r}")
    if not check(value):
        raise _Bad(f"{value!r} is not of type {type_}")
    return value


def _hashable(value: Value) -> Value:
    return json.dumps(value, sort_keys=True) if isinstance(value, list | dict) else value


def _rows(base: Path, resource: dict[str, Any], names: list[str]) -> Iterator[list[Value] | str]:
    """The rows of a resource as raw cells (CSV strings or JSON values) in field order, or a problem line."""
    if "data" in resource:
        for index, item in enumerate(resource["data"]):
            if isinstance(item, dict):
                missing = [n for n in names if n not in item]
                extra = [k for k in item if k not in names]
                if missing or extra:
                    yield f"row {index + 1}: keys missing {missing}, unknown {extra}"
                    continue
                yield [item[n] for n in names]
            else:
                yield f"row {index + 1}: not an object"
        return
    path = base / str(resource.get("path", ""))
    if not path.is_file():
        yield f"file {resource.get('path')!r} is missing"
        return
    with path.open(encoding="utf-8", newline="") as handle:
        reader = csv.reader(handle)
        header = next(reader, None)
        if header != names:
            yield f"header {header} is not the schema's fields {names}"
            return
        for index, cells in enumerate(reader, start=2):
            if len(cells) != len(names):
                yield f"line {index}: {len(cells)} cells for {len(names)} fields"
                continue
            yield cells


def _schema_problems(expected: TableSchema, resource: dict[str, Any]) -> list[str]:
    given = resource.get("schema")
    if not isinstance(given, dict):
        return ["no schema"]
    want = expected.descriptor()
    return [
        f"schema {key}: {given.get(key)!r} differs from dianli's {want.get(key)!r}"
        for key in ("fields", "primaryKey", "foreignKeys")
        if given.get(key) != want.get(key)
    ]


def check_package(descriptor_path: Path, schemas: tuple[TableSchema, ...] = TABLES) -> list[str]:
    """Every problem of the package at ``descriptor_path`` (``datapackage.json``), as lines; [] if valid."""
    problems: list[str] = []
    try:
        package = json.loads(descriptor_path.read_text(encoding="utf-8"))
    except (OSError, json.JSONDecodeError) as exc:
        return [f"{descriptor_path}: cannot read the descriptor: {exc}"]
    resources = {r.get("name"): r for r in package.get("resources", []) if isinstance(r, dict)}
    keys: dict[str, dict[tuple[str, ...], set[tuple[Value, ...]]]] = {}
    tables: dict[str, list[dict[str, Value]]] = {}
    for schema in schemas:
        resource = resources.get(schema.name)
        if resource is None:
            problems.append(f"{schema.name}: resource missing")
            continue
        found = _schema_problems(schema, resource)
        problems += [f"{schema.name}: {p}" for p in found]
        if found:
            continue
        names = list(schema.field_names)
        parse = (lambda t, v: _json_value(t, v)) if "data" in resource else _csv_value
        rows: list[dict[str, Value]] = []
        for number, cells in enumerate(_rows(descriptor_path.parent, resource, names), start=1):
            if isinstance(cells, str):
                problems.append(f"{schema.name}: {cells}")
                continue
            row: dict[str, Value] = {}
            for field, cell in zip(schema.fields, cells, strict=True):
                try:
                    row[field.name] = parse(field.type, cell)
                except _Bad as exc:
                    problems.append(f"{schema.name}: row {number}: field {field.name}: {exc}")
                    row[field.name] = None
                    continue
                if field.required and row[field.name] is None:
                    problems.append(f"{schema.name}: row {number}: field {field.name}: a value is required")
            rows.append(row)
        tables[schema.name] = rows
        problems += [f"{schema.name}: {p}" for p in _primary_key_problems(schema, rows)]
    for schema in schemas:
        if schema.name in tables:
            problems += [f"{schema.name}: {p}" for p in _foreign_key_problems(schema, tables, keys)]
    extra = sorted(set(resources) - {s.name for s in schemas}, key=str)
    problems += [f"{name}: a resource dianli does not write" for name in extra]
    if len(problems) > MAX_PROBLEMS:
        problems = [*problems[:MAX_PROBLEMS], f"… {len(problems) - MAX_PROBLEMS} more problems"]
    return problems


def _primary_key_problems(schema: TableSchema, rows: list[dict[str, Value]]) -> list[str]:
    seen: dict[tuple[Value, ...], int] = {}
    out = []
    for number, row in enumerate(rows, start=1):
        key = tuple(_hashable(row[name]) for name in schema.primary_key)
        if any(part is None for part in key):
            out.append(f"row {number}: primary key {list(schema.primary_key)} has a missing value")
        elif key in seen:
            out.append(f"row {number}: primary key {key} repeats row {seen[key]}")
        else:
            seen[key] = number
    return out


def _foreign_key_problems(
    schema: TableSchema,
    tables: dict[str, list[dict[str, Value]]],
    keys: dict[str, dict[tuple[str, ...], set[tuple[Value, ...]]]],
) -> list[str]:
    out = []
    for fk in schema.foreign_keys:
        target = fk.resource or schema.name
        if target not in tables:
            out.append(f"foreign key {list(fk.fields)}: no resource {target!r}")
            continue
        index = keys.setdefault(target, {})
        if fk.reference not in index:
            index[fk.reference] = {tuple(row[f] for f in fk.reference) for row in tables[target]}
        known = index[fk.reference]
        for number, row in enumerate(tables[schema.name], start=1):
            value = tuple(row[f] for f in fk.fields)
            if any(v is None for v in value):
                continue  # a missing value refers to nothing (as in Frictionless)
            if value not in known:
                out.append(
                    f"row {number}: {', '.join(fk.fields)} = {', '.join(map(str, value))} is not a "
                    f"{'/'.join(fk.reference)} of {target}"
                )
    return out


def frictionless_problems(descriptor_path: Path) -> list[str] | None:
    """The problems ``frictionless.validate`` finds in the package ([] if valid), or None when the
    ``frictionless`` package is not installed (it is not a dependency of dianli)."""
    try:
        import frictionless
    except ImportError:
        return None
    report = frictionless.validate(str(descriptor_path))
    problems = [f"{error.type}: {error.message}" for error in report.errors]
    for task in report.tasks:
        problems += [f"{task.name}: {error.type}: {error.message}" for error in task.errors]
    if not report.valid and not problems:
        problems.append("frictionless reports the package invalid without naming an error")
    if len(problems) > MAX_PROBLEMS:
        problems = [*problems[:MAX_PROBLEMS], f"… {len(problems) - MAX_PROBLEMS} more problems"]
    return problems


def read_table(
    descriptor_path: Path, schema: TableSchema, package: dict[str, Any] | None = None
) -> list[dict[str, Value]]:
    """The rows of one table of a written package as typed values (CSV cells parsed by their field
    types; dates as :class:`datetime.date`); a problem in it raises ``ValueError`` naming it. ``package``
    is the descriptor already read, if it is."""
    if package is None:
        package = json.loads(descriptor_path.read_text(encoding="utf-8"))
    resource = next(r for r in package["resources"] if r.get("name") == schema.name)
    inline = "data" in resource
    out = []
    for number, cells in enumerate(
        _rows(descriptor_path.parent, resource, list(schema.field_names)), start=1
    ):
        if isinstance(cells, str):
            raise ValueError(f"{schema.name}: {cells}")
        row = {}
        for field, cell in zip(schema.fields, cells, strict=True):
            try:
                row[field.name] = _json_value(field.type, cell) if inline else _csv_value(field.type, cell)
            except _Bad as exc:
                raise ValueError(f"{schema.name}: row {number}: field {field.name}: {exc}") from None
        out.append(row)
    return out
