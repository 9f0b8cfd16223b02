"""The package is built once per test session (some 20 s) and written in both formats."""

from __future__ import annotations

from pathlib import Path

import pytest

from dianli.opendata.package import FORMATS as EXPORT_FORMATS
from dianli.opendata.package import write_package as write_datapackage
from dianli.opendata.tables import Tables
from dianli.opendata.tables import build_tables as build_export_tables


@pytest.fixture(scope="session")
def tables() -> Tables:
    return build_export_tables()


@pytest.fixture(scope="session")
def packages(tables: Tables, tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """format → the path of its datapackage.json, written to a scratch folder."""
    return {fmt: write_datapackage(tables, tmp_path_factory.mktemp(fmt), fmt) for fmt in EXPORT_FORMATS}
