"""Layers depend downward only. The interfaces (the CLI and the web app) sit on top: nothing below them
imports them, and the web app does not import the CLI. They call the public API of ``import dianli`` for
what it offers and import every other name from the module that owns it — there is no facade between them
and the package, and no re-export to keep in step."""

from __future__ import annotations

import ast
from importlib import resources
from pathlib import Path

import pytest

import dianli

ROOT = Path(str(resources.files("dianli")))
MODULES = sorted(ROOT.rglob("*.py"))
INTERFACES = sorted([ROOT / "__main__.py", *(ROOT / "cli").rglob("*.py"), *(ROOT / "web").rglob("*.py")])
"""``python -m dianli``, the CLI and the web app."""
STARTS_THE_WEB_APP = ROOT / "cli" / "serve.py"
"""The one module of the CLI that imports the web app: ``dianli serve`` runs it."""


def _name(path: Path) -> str:
    parts = path.relative_to(ROOT.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _imported(path: Path) -> list[tuple[str, tuple[str, ...]]]:
    """Every ``import M`` (as ``(M, ())``) and ``from M import a, b`` (as ``(M, (a, b))``) of a module, at any
    depth (imports inside functions too), relative imports made absolute."""
    found: list[tuple[str, tuple[str, ...]]] = []
    package = _name(path) if path.name == "__init__.py" else _name(path).rpartition(".")[0]
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found += [(a.name, ()) for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = package.rsplit(".", node.level - 1)[0] if node.level else ""
            module = ".".join(x for x in (base, node.module or "") if x)
            found.append((module, tuple(a.name for a in node.names)))
    return found


def _uses(path: Path, layer: str) -> list[str]:
    """The modules of ``layer`` (``dianli.cli``, ``dianli.web``) that a module imports."""
    return [
        m
        for module, names in _imported(path)
        for m in (module, *(f"{module}.{n}" for n in names))
        if m == layer or m.startswith(f"{layer}.")
    ]


BELOW = [p for p in MODULES if p not in INTERFACES]


@pytest.mark.parametrize("path", BELOW, ids=[p.relative_to(ROOT).as_posix() for p in BELOW])
def test_nothing_below_the_interfaces_imports_them(path: Path) -> None:
    assert _uses(path, "dianli.cli") == [], f"{path.relative_to(ROOT)} imports the CLI"
    assert _uses(path, "dianli.web") == [], f"{path.relative_to(ROOT)} imports the web app"


WEB = sorted((ROOT / "web").rglob("*.py"))


@pytest.mark.parametrize("path", WEB, ids=[p.relative_to(ROOT).as_posix() for p in WEB])
def test_the_web_app_does_not_import_the_cli(path: Path) -> None:
    assert _uses(path, "dianli.cli") == [], f"{path.relative_to(ROOT)} imports the CLI"


def test_only_dianli_serve_imports_the_web_app() -> None:
    cli = sorted((ROOT / "cli").rglob("*.py"))
    assert [p.name for p in cli if _uses(p, "dianli.web")] == [STARTS_THE_WEB_APP.name]


def _binds(tree: ast.Module) -> set[str]:
    """The names a module defines at its top level (functions, classes, assignments; inside a top-level
    ``if`` or ``try`` too) — not the names it imports."""
    found: set[str] = set()
    body = list(tree.body)
    while body:
        node = body.pop()
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            found.add(node.name)
        elif isinstance(node, ast.Assign):
            found |= {n.id for t in node.targets for n in ast.walk(t) if isinstance(n, ast.Name)}
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            found.add(node.target.id)
        elif isinstance(node, ast.If | ast.Try):
            body += [
                *node.body,
                *node.orelse,
                *getattr(node, "handlers", ()),
                *getattr(node, "finalbody", ()),
            ]
        elif isinstance(node, ast.ExceptHandler):
            body += node.body
    return found


def _owner_defines(module: str, name: str) -> bool:
    """Whether ``name`` is defined by ``module`` itself, or is a submodule of it."""
    folder = ROOT.parent / module.replace(".", "/")
    if (folder / f"{name}.py").is_file() or (folder / name / "__init__.py").is_file():
        return True
    source = folder.with_suffix(".py") if folder.with_suffix(".py").is_file() else folder / "__init__.py"
    return name in _binds(ast.parse(source.read_text(encoding="utf-8")))


@pytest.mark.parametrize("path", INTERFACES, ids=[p.relative_to(ROOT).as_posix() for p in INTERFACES])
def test_the_interfaces_import_each_name_from_the_module_that_owns_it(path: Path) -> None:
    """A name of the package comes from the module that defines it (``from dianli.places.places import
    get_place``), never through a module that imports it from elsewhere: so no facade can grow again. Of
    ``dianli`` itself the interfaces take the version and the public API (``import dianli``)."""
    wrong = []
    for module, names in _imported(path):
        if module == "dianli":
            wrong += [
                n
                for n in names
                if n not in {"__version__", *dianli.__all__} and not _owner_defines(module, n)
            ]
        elif module.startswith("dianli."):
            wrong += [f"{module}.{n}" for n in names if not _owner_defines(module, n)]
    assert wrong == [], f"{path.relative_to(ROOT)} imports {wrong} from a module that does not define them"


@pytest.mark.parametrize("path", INTERFACES, ids=[p.relative_to(ROOT).as_posix() for p in INTERFACES])
def test_the_interfaces_reach_dianli_only_for_its_public_api(path: Path) -> None:
    """``dianli.X`` in an interface is an entry point of the public API (``dianli.ceremony(…)``)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    used = {
        n.attr
        for n in ast.walk(tree)
        if isinstance(n, ast.Attribute) and isinstance(n.value, ast.Name) and n.value.id == "dianli"
    }
    assert used <= set(dianli.__all__), (
        f"{path.relative_to(ROOT)} uses dianli.{sorted(used - set(dianli.__all__))}"
    )


def test_no_facade_and_no_parser_of_the_source() -> None:
    """The public API is listed once, in ``__init__.pyi``, which lazy_loader reads (SPEC 1); no module of
    the package finds names by parsing source (none imports ``ast``)."""
    assert not (ROOT / "api.py").exists()
    assert [p.relative_to(ROOT).as_posix() for p in MODULES if any(m == "ast" for m, _ in _imported(p))] == []


def test_no_witness_rite_or_place_id_in_python() -> None:
    """Witness, rite and place ids are data: grep finds none of them quoted in Python under src/."""
    from dianli.corpus.witnesses import witness_ids
    from dianli.places.places import all_places
    from dianli.rites.load import all_rites

    ids = {*witness_ids(), *all_rites(), *(p.id for p in all_places())}
    found = []
    for path in ROOT.rglob("*.py"):
        text = path.read_text(encoding="utf-8")
        found += [f"{path.relative_to(ROOT)}: {i}" for i in ids if f'"{i}"' in text or f"'{i}'" in text]
    assert found == []
