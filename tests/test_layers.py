"""Layers depend downward only: the facade (dianli.api) is imported by the interfaces alone, and every
name in its __all__ exists."""

from __future__ import annotations

import ast
from importlib import resources
from pathlib import Path

import pytest

import dianli.api

INTERFACES = ("cli", "web")
ROOT = Path(str(resources.files("dianli")))
MODULES = sorted(p for p in ROOT.rglob("*.py") if p.name != "api.py")


def _imports_facade(path: Path) -> bool:
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.module == "dianli.api":
            return True
        if (
            isinstance(node, ast.ImportFrom)
            and node.module == "dianli"
            and any(a.name == "api" for a in node.names)
        ):
            return True
        if isinstance(node, ast.Import) and any(a.name == "dianli.api" for a in node.names):
            return True
    return False


@pytest.mark.parametrize("path", MODULES, ids=[p.relative_to(ROOT).as_posix() for p in MODULES])
def test_only_interfaces_import_the_facade(path: Path) -> None:
    layer = path.relative_to(ROOT).parts[0]
    if layer not in INTERFACES:
        assert not _imports_facade(path), f"{path.relative_to(ROOT)} imports dianli.api"


def test_every_exported_name_exists() -> None:
    assert [n for n in dianli.api.__all__ if not hasattr(dianli.api, n)] == []
    assert len(set(dianli.api.__all__)) == len(dianli.api.__all__)


WEB = sorted((ROOT / "web").rglob("*.py"))


@pytest.mark.parametrize("path", WEB, ids=[p.relative_to(ROOT).as_posix() for p in WEB])
def test_the_web_app_imports_only_the_facade(path: Path) -> None:
    """The web app is an interface: of dianli it imports the facade, its own package and the version."""
    allowed = {"dianli.api", "dianli.web", "dianli"}
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("dianli"):
            own = node.module.startswith("dianli.web.")  # its own modules (live, responses …)
            assert node.module in allowed or own, f"{path.name} imports {node.module}"
            if node.module == "dianli":
                assert {a.name for a in node.names} <= {"__version__"}, path.name


def test_no_witness_rite_or_place_id_in_python() -> None:
    """Witness, rite and place ids are data: grep finds none of them quoted in Python under src/."""
    from dianli.api import all_places, all_rites, witness_ids

    ids = {*witness_ids(), *all_rites(), *(p.id for p in all_places())}
    found = []
    for path in ROOT.rglob("*.py"):
        text = path.read_text(encoding="utf-8")
        found += [f"{path.relative_to(ROOT)}: {i}" for i in ids if f'"{i}"' in text or f"'{i}'" in text]
    assert found == []
