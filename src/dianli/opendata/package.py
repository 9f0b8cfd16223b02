"""Writing the model as a Frictionless data package: ``datapackage.json`` and one resource per table.

Two formats:

* ``csv``: ``datapackage.json`` and ``data/<table>.csv`` (UTF-8, a header row, RFC 4180 quoting). An
  ``array`` or ``object`` cell holds its JSON text; an empty cell is a missing value; booleans are
  ``true``/``false``; dates ISO 8601.
* ``json``: one ``datapackage.json`` with every table inline (``data``: an array of objects, one per row,
  keys in schema order). Inline rather than ``data/<table>.json`` files because Frictionless reads JSON
  files only with its ``json`` extra (ijson, jsonlines), while inline data it reads with its core install;
  and a JSON user gets the whole model with one ``json.load``. CSV is the format for large tables.

In both, a character a witness's transcription could not encode (a private-use code point) is written as the
character another witness supplies, in 〔〕, or 〔缺〕 (:mod:`dianli.corpus.supplied`); a quotation's offsets
still count the raw text, where it is one code point.

Both are checked by :mod:`dianli.opendata.check`.
"""

from __future__ import annotations

import csv
import io
import json
import threading
import zipfile
from datetime import date
from importlib import metadata
from pathlib import Path
from tempfile import TemporaryDirectory
from typing import Any

from dianli import __version__
from dianli.corpus.supplied import supply
from dianli.corpus.witnesses import manifest
from dianli.errors import UnknownValueError
from dianli.opendata.schema import TABLES, TableSchema
from dianli.opendata.tables import DEFAULT_YEARS, Progress, Tables, _quiet, build_tables
from dianli.provenance import provenance
from dianli.written import MANIFEST

FORMATS = ("csv", "json")
DESCRIPTOR = "datapackage.json"
DATA_DIR = "data"


def check_format(fmt: str) -> str:
    if fmt not in FORMATS:
        raise UnknownValueError("--format", fmt, FORMATS)
    return fmt


def _license() -> list[dict[str, str]]:
    """The package's own licence, as its installed metadata states it (the data ships with the code)."""
    try:
        meta = metadata.metadata("dianli")
    except metadata.PackageNotFoundError:
        return []
    names = meta.get_all("License-Expression") or meta.get_all("License") or []
    name = str(names[0]) if names else ""
    if not name:
        return []
    return [{"name": name, "path": f"https://spdx.org/licenses/{name}.html", "title": name}]


def years_label(years: range) -> str:
    return str(years.start) if len(years) == 1 else f"{years.start}..{years[-1]}"


def descriptor(tables: Tables | None, fmt: str, years: range = DEFAULT_YEARS) -> dict[str, Any]:
    """The package descriptor; with ``tables`` in json format, the rows inline."""
    check_format(fmt)
    resources = []
    for schema in TABLES:
        resource: dict[str, Any] = {
            "profile": "tabular-data-resource",
            "name": schema.name,
            "title": schema.title,
            "description": schema.description,
        }
        if fmt == "csv":
            resource |= {
                "path": f"{DATA_DIR}/{schema.name}.csv",
                "format": "csv",
                "mediatype": "text/csv",
                "encoding": "utf-8",
                "dialect": {"delimiter": ",", "header": True, "quoteChar": '"', "doubleQuote": True},
            }
        else:
            resource["data"] = _json_rows(schema, tables[schema.name]) if tables else []
        resource["schema"] = schema.descriptor()
        resources.append(resource)
    return {
        "profile": "tabular-data-package",
        "name": "dianli",
        "title": "dianli (典禮): the Qing state ritual code of Fujian and Taiwan as cited data",
        "description": (
            "The model of dianli as open data: the witnesses (gazetteer chapters and a translation), the "
            "places over time with their CHGIS ids, the rites, each witness's reading of each rite with its "
            "expanded order of service, offerings and tablets, the date rules and the dated ritual calendar "
            f"of every place in {years_label(years)}, the variants between witnesses, and every citation "
            "resolved to its offsets in the witness's text."
        ),
        "version": __version__,
        "keywords": ["Qing", "ritual", "gazetteer", "Fujian", "Taiwan", "CHGIS", "citations"],
        "licenses": _license(),
        "sources": [{"title": info.title} for info in manifest()],
        "dianli": {
            "observance_years": [years.start, years[-1]],
            "format": fmt,
            **provenance().as_dict(),  # what a paper names: the version and the data digest
        },
        "resources": resources,
    }


def _json_value(value: Any) -> Any:
    if isinstance(value, str):
        return supply(value)
    return value.isoformat() if isinstance(value, date) else value


def _json_rows(schema: TableSchema, rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [{name: _json_value(row[name]) for name in schema.field_names} for row in rows]


def csv_cell(value: Any) -> str:
    """One value as a CSV cell (see the module docstring)."""
    if value is None:
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, list | dict):
        return supply(json.dumps(value, ensure_ascii=False, separators=(",", ":")))
    if isinstance(value, date):
        return value.isoformat()
    return supply(str(value))  # a character the transcription could not encode: 〔supplied〕, never a box


def _csv_bytes(schema: TableSchema, rows: list[dict[str, Any]]) -> bytes:
    handle = io.StringIO(newline="")
    writer = csv.writer(handle, lineterminator="\r\n")
    writer.writerow(schema.field_names)
    for row in rows:
        writer.writerow([csv_cell(row[name]) for name in schema.field_names])
    return handle.getvalue().encode("utf-8")


def package_files(out: Path, fmt: str) -> tuple[list[Path], list[Path]]:
    """The files a package of ``fmt`` in ``out`` writes, and those of the other format it removes."""
    tables = [out / DATA_DIR / f"{schema.name}.csv" for schema in TABLES]
    descriptor_path = out / DESCRIPTOR
    return ([*tables, descriptor_path], []) if fmt == "csv" else ([descriptor_path], tables)


def check_package_folder(out: Path, fmt: str, force: bool = False) -> None:
    """Refuse (:class:`dianli.written.ForeignFileError`, naming them) to write a package into ``out`` when
    it would replace or remove files dianli did not write there — unless ``force``."""
    from dianli import written

    check_format(fmt)
    writes, removes = package_files(out, fmt)
    written.check([*writes, *(p for p in removes if p.exists() or p.is_symlink())], force)


def write_package(tables: Tables, out: Path, fmt: str, force: bool = False) -> Path:
    """Write the package into folder ``out`` (created if missing); return the descriptor's path.

    Files of the other format that an earlier export left there (``data/<table>.csv``) are removed, so the
    folder holds one package. A file dianli did not write there (a user's own ``data/places.csv``, a
    ``datapackage.json`` of another package) is never replaced nor removed: the export is refused before
    anything is written, naming them (:mod:`dianli.written`), unless ``force``."""
    from dianli import written

    check_package_folder(out, fmt, force)
    writes, removes = package_files(out, fmt)
    out.mkdir(parents=True, exist_ok=True)
    data = out / DATA_DIR
    if fmt == "csv":
        data.mkdir(exist_ok=True)
        for schema, path in zip(TABLES, writes, strict=False):
            written.write(path, _csv_bytes(schema, tables[schema.name]), force)
    else:
        for path in removes:
            written.remove(path, force)
        if data.is_dir() and not any(data.iterdir()):
            data.rmdir()
    target = out / DESCRIPTOR
    written.write(target, descriptor_text(descriptor(tables, fmt, tables.years)).encode("utf-8"), force)
    return target


def descriptor_text(package: dict[str, Any]) -> str:
    """The descriptor as JSON text: indented, except that each inline row takes one line."""
    head = {k: v for k, v in package.items() if k != "resources"}
    parts = []
    for resource in package["resources"]:
        meta = json.dumps({k: v for k, v in resource.items() if k != "data"}, ensure_ascii=False, indent=1)
        if "data" in resource:
            rows = ",\n".join(
                json.dumps(r, ensure_ascii=False, separators=(",", ":")) for r in resource["data"]
            )
            meta = f'{meta[:-2]},\n "data": [\n{rows}\n ]\n}}'
        parts.append(meta)
    text = json.dumps(head, ensure_ascii=False, indent=1)
    return f'{text[:-2]},\n "resources": [\n' + ",\n".join(parts) + "\n ]\n}\n"


def export(
    out: Path, fmt: str, years: range = DEFAULT_YEARS, progress: Progress = _quiet, force: bool = False
) -> Path:
    """Build every table and write the package into ``out``; return the descriptor's path. Files dianli
    did not write there are refused before the tables are built (see :func:`write_package`)."""
    check_package_folder(out, fmt, force)
    return write_package(build_tables(years, progress), out, fmt, force)


_ZIPS: dict[tuple[int, int], bytes] = {}
_ZIP_LOCK = threading.Lock()


def package_zip(years: range = DEFAULT_YEARS) -> bytes:
    """The whole package in CSV format as a zip (``datapackage.json`` at its root), built once per process
    and set of years (a lock keeps two first requests from building it twice)."""
    key = (years.start, years.stop)
    with _ZIP_LOCK:
        if key not in _ZIPS:
            with TemporaryDirectory() as tmp:
                root = Path(tmp)
                export(root, "csv", years)
                buffer = io.BytesIO()
                with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
                    for path in sorted(root.rglob("*")):
                        if path.is_file() and path.name != MANIFEST:  # not dianli's bookkeeping
                            archive.write(path, path.relative_to(root).as_posix())
                _ZIPS[key] = buffer.getvalue()
        return _ZIPS[key]
