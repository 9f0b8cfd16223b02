"""The documentation: the site builds with warnings as errors, its generated reference covers every command
and schema it names, and the docs describe the project as it is (no history by session, nothing outside
the repository)."""

from __future__ import annotations

import importlib.util
import os
import re
import shlex
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import pytest
import typer
from typer.testing import CliRunner

from dianli.cli import app

from .test_readme import EXAMPLES

ROOT = Path(__file__).resolve().parents[1]
DOCS = ROOT / "docs"
README = ROOT / "README.md"


def _hooks() -> ModuleType:
    spec = importlib.util.spec_from_file_location("docs_hooks", ROOT / "tools" / "docs_hooks.py")
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


hooks = _hooks()


def _pages() -> list[Path]:
    return sorted(DOCS.rglob("*.md"))


# --- the site builds ----------------------------------------------------------------------------------


def test_the_site_builds_with_warnings_as_errors(tmp_path: Path) -> None:
    pytest.importorskip("mkdocs", reason="the docs extra is not installed (pip install -e '.[docs]')")
    pytest.importorskip("mkdocstrings")
    pytest.importorskip("mkdocs_jupyter")
    site = tmp_path / "site"
    cache_before = (ROOT / ".cache").exists()
    result = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(site)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        env={**os.environ, "NO_MKDOCS_2_WARNING": "1"},  # Material's notice of its end of life
        timeout=900,
    )
    assert result.returncode == 0, result.stderr[-4000:]
    assert "WARNING" not in result.stderr, result.stderr[-4000:]
    cli = (site / "reference" / "cli" / "index.html").read_text(encoding="utf-8")
    for path in _command_paths():
        assert f"<code>{path}</code>" in cli, path
    for notebook in ("shangding-century", "variants-map", "spring-ox", "reading-music"):
        assert (site / "notebooks" / notebook / "index.html").is_file(), notebook
    assert (ROOT / ".cache").exists() == cache_before, "the build wrote a cache folder into the work tree"


def _command_paths() -> list[str]:
    root = typer.main.get_command(app)
    context = root.make_context("dianli", [], resilient_parsing=True)
    return [ctx.command_path for _command, ctx in hooks._walk(root, context)]


# --- the generated reference --------------------------------------------------------------------------


def test_the_cli_reference_names_every_command_and_option() -> None:
    text = hooks.cli_reference()
    paths = _command_paths()
    assert len(paths) > 20  # the groups (rites, texts) and their commands, each once
    for path in paths:
        assert re.search(rf"^#+ `{re.escape(path)}`$", text, re.M), path
    assert "`--place <str>`" in text or "`-p, --place <str>`" in text
    assert "`-f, --format <text|json>`" in text  # metavars shown as code, never as an HTML tag


def test_every_link_of_the_cli_reference_has_its_heading() -> None:
    text = hooks.cli_reference()
    anchors = {hooks._anchor(h) for h in re.findall(r"^#+ `(.+)`$", text, re.M)}
    links = set(re.findall(r"\]\(#([^)]+)\)", text))
    assert links and links <= anchors, links - anchors


def test_the_api_reference_documents_every_public_name() -> None:
    import dianli

    text = hooks.render("api", [])
    assert text.startswith("::: dianli\n")  # the package's own docstring first
    documented = re.findall(r"^::: (\S+)$", text, re.M)[1:]
    public = [name for name in getattr(dianli, "__all__", ()) if not name.startswith("_")]
    assert [path.rsplit(".", 1)[-1] for path in documented] == [
        *[n for n in public if not isinstance(getattr(dianli, n), type)],
        *[n for n in public if isinstance(getattr(dianli, n), type)],
    ]


@pytest.mark.parametrize(
    ("target", "fields"),
    [
        ("dianli.corpus.witnesses:WitnessManifest", ["id", "compiled", "governs", "fragments", "anchors"]),
        ("dianli.rites.model:RiteFile", ["family", "rites"]),
        ("dianli.rites.practice:Practice", ["id", "utc_offset_hours", "rites"]),
        ("dianli.rites.readings:AlignmentFile", ["witness", "same"]),
    ],
)
def test_a_schema_lists_its_fields_and_the_models_it_uses(target: str, fields: list[str]) -> None:
    text = hooks.render("schema", [target])
    for field in fields:
        assert re.search(rf"^- `{field}` \(", text, re.M), field
    for link in re.findall(r"\]\(#([a-z0-9]+)\)", text):
        assert re.search(rf"^### {link}$", text, re.M | re.I), link  # every model it links to is on the page


@pytest.mark.parametrize(
    ("spec", "words"),
    [
        ({"type": "string", "minLength": 1}, "text of at least 1 characters"),
        ({"type": "integer", "minimum": 1000, "maximum": 2100}, "integer (≥ 1000, ≤ 2100)"),
        ({"anyOf": [{"type": "string"}, {"type": "null"}]}, "text or null"),
        ({"type": "array", "items": {"$ref": "#/$defs/Step"}}, "a list of [Step](#step)"),
        ({"enum": ["primary", "gloss"]}, 'one of `"primary"`, `"gloss"`'),
        ({"type": "array", "prefixItems": [{"type": "string"}, {"type": "string"}]}, "a list of text, text"),
    ],
)
def test_json_schema_types_in_words(spec: dict[str, object], words: str) -> None:
    assert hooks.type_text(spec) == words


@pytest.mark.parametrize(
    ("text", "markdown"),
    [
        ("a *b* _c_", r"a \*b\* \_c\_"),
        ("<text|json> & more", r"&lt;text\|json&gt; &amp; more"),
        ("see `dianli texts list` [here]", r"see `dianli texts list` \[here\]"),
    ],
)
def test_help_text_is_shown_as_written(text: str, markdown: str) -> None:
    assert hooks.escape(text) == markdown


@pytest.mark.parametrize(
    ("name", "args", "error"),
    [
        ("file", ["../outside.txt"], "outside the repository"),
        ("file", ["docs/no-such-file.md"], "no file"),
        ("schema", ["dianli.rites.model:NoSuchModel"], "no class"),
        ("schema", ["dianli.rites.years:FIRST_YEAR"], "not a pydantic model"),
        ("nothing", [], "unknown directive"),
    ],
)
def test_a_wrong_directive_stops_the_build(name: str, args: list[str], error: str) -> None:
    with pytest.raises(hooks.DirectiveError, match=error):
        hooks.render(name, args)


def test_every_directive_of_the_pages_renders() -> None:
    found = 0
    for page in _pages():
        for match in hooks.DIRECTIVE.finditer(page.read_text(encoding="utf-8")):
            assert hooks.render(match.group("name"), match.group("args").split()).strip(), (
                page,
                match.group(0),
            )
            found += 1
    assert found >= 10


# --- the docs describe the project as it is -----------------------------------------------------------

HISTORY = re.compile(r"\bsessions? [0-9]|this session|shared folder|\.\./shared", re.I)


@pytest.mark.parametrize("path", [README, *_pages()], ids=lambda p: str(Path(p).relative_to(ROOT)))
def test_the_docs_speak_of_the_project_not_its_history(path: Path) -> None:
    """The pages as the site shows them: the files and schemas they include count too."""
    text = hooks.DIRECTIVE.sub(
        lambda m: hooks.render(m.group("name"), m.group("args").split()),
        path.read_text(encoding="utf-8"),
    )
    lines = [f"{n}: {line}" for n, line in enumerate(text.splitlines(), 1) if HISTORY.search(line)]
    assert not lines, lines


LINK = re.compile(r"\]\(([^)#\s]+)(?:#[^)]*)?\)")


@pytest.mark.parametrize("path", [README, *_pages()], ids=lambda p: str(Path(p).relative_to(ROOT)))
def test_every_relative_link_stays_in_the_repository_and_exists(path: Path) -> None:
    for target in LINK.findall(path.read_text(encoding="utf-8")):
        if re.match(r"[a-z]+:", target):
            continue  # an address (https:, mailto:)
        resolved = (path.parent / target).resolve()
        assert resolved.is_relative_to(ROOT), (path.name, target)
        assert resolved.exists(), (path.name, target)


def test_the_readme_is_what_a_newcomer_needs() -> None:
    text = README.read_text(encoding="utf-8")
    assert len(text.splitlines()) <= 150
    for heading in (
        "## Quickstart",
        "## A tour",
        "## Documentation",
        "## Dependencies, and why",
        "## Licence",
    ):
        assert heading in text, heading
    for marker in ("quickstart:run", "quickstart:test", "examples"):
        assert f"<!-- {marker} -->" in text, marker


def test_every_dependency_has_a_row_in_the_readme() -> None:
    """Each package of pyproject's dependencies and extras is named in the README's table, with why."""
    import tomllib

    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    required = list(project["dependencies"]) + [
        d for extra in project["optional-dependencies"].values() for d in extra
    ]
    names = {re.split(r"[\[<>=!~ ;]", d, maxsplit=1)[0] for d in required} - {"dianli"}
    table = README.read_text(encoding="utf-8").split("## Dependencies, and why", 1)[1].split("\n## ", 1)[0]
    named = set(re.findall(r"`([A-Za-z0-9_.\-\[\]]+)`", table))
    named |= {n.split("[")[0] for n in named}
    missing = sorted(n for n in names if n not in named and n.lower() not in {m.lower() for m in named})
    assert not missing, missing


# --- the pages' commands run as written ---------------------------------------------------------------

WALKED = [
    *sorted((DOCS / "tutorials").glob("*.md")),
    DOCS / "how-to" / "cite.md",
    DOCS / "how-to" / "export-gis.md",
]
"""Pages whose every ``dianli`` line in a ``bash`` block a reader may type as it stands."""


def _not_run(line: str) -> str | None:
    """Why a line of the pages is not run here, or None."""
    words = shlex.split(line)
    if words[1] == "serve":
        return "a server that runs until stopped"
    if words[1] == "program" and "--no-audio" not in words and "--format" not in words:
        return "the booklet with its music: the Quickstart's own command (.ci/run)"
    if line in EXAMPLES:
        return "in the README's tour, which tests/test_readme.py runs"
    return None


def _page_commands() -> list[object]:
    out: list[object] = []
    for page in WALKED:
        for block in re.findall(r"```bash\n(.*?)```", page.read_text(encoding="utf-8"), re.S):
            for raw in block.splitlines():
                line = re.split(r"\s#\s", raw, maxsplit=1)[0].strip()
                if line.startswith("dianli ") and _not_run(line) is None:
                    out.append(pytest.param(line, id=f"{page.stem}: {line}"))
    return out


PAGE_COMMANDS = _page_commands()


def test_the_pages_have_commands_to_run() -> None:
    assert len(PAGE_COMMANDS) >= 10


@pytest.mark.parametrize("line", PAGE_COMMANDS)
def test_a_command_of_the_pages_runs_as_written(
    line: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Piped at 80 columns, in a scratch folder: it succeeds, prints something or writes what it names."""
    command, _, redirect = line.partition(" > ")
    words = shlex.split(command)
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(app, words[1:], env={"COLUMNS": "80"})
    assert result.exit_code == 0, result.output[-2000:]
    assert result.output.strip(), line
    written = [w for w in words if re.search(r"\.(svg|ics|xml|csv)$", w)] + (
        [redirect.strip()] if redirect else []
    )
    for name in written:
        if name == redirect.strip():
            (tmp_path / name).write_text(result.output, encoding="utf-8")
        assert (tmp_path / name).stat().st_size > 0, name


def test_a_schema_can_be_headed_by_what_the_reader_writes() -> None:
    """The model's own heading names the file (``alignment.yaml``), keeping the model's anchor for links."""
    text = hooks.render("schema", ["dianli.rites.readings:AlignmentFile", "alignment.yaml"])
    assert text.startswith("### alignment.yaml {#alignmentfile}\n")
    assert "### AlignedCite" in text
