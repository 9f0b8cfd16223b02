"""`dianli program`: the absolute path written, the output cached on disk (a hit is the same file, made
without the rites), the --appendix editions, and errors naming what is accepted."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from dianli import cache
from dianli.cli import app
from dianli.cli import program as cli_program
from dianli.program.html import APPENDICES

runner = CliRunner()
ARGS = ["program", "祀先師", "--place", "臺灣府", "--year", "1752"]
NAME = "xianshi-taiwan-fu-1752"


@pytest.fixture()
def cache_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    where = tmp_path / "cache"
    monkeypatch.setenv("DIANLI_CACHE_DIR", str(where))
    return where


def _run(*extra: str) -> Path:
    result = runner.invoke(app, [*ARGS, *extra])
    assert result.exit_code == 0, result.output
    return Path(result.output.strip())


def _no_rites(*_: object, **__: object) -> None:
    raise AssertionError("the rites were assembled although the booklet is cached")


@pytest.mark.parametrize(("fmt", "suffix"), [("html", "html"), ("json", "json")])
def test_a_second_run_copies_the_cached_file(
    fmt: str, suffix: str, tmp_path: Path, cache_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from dianli.program.fingerprint import inputs_fingerprint as program_inputs_fingerprint

    frozen = program_inputs_fingerprint()  # the package as it is now (a concurrent edit cannot miss)
    monkeypatch.setattr(cli_program, "inputs_fingerprint", lambda: frozen)
    first = _run("--no-audio", "--format", fmt, "--out", str(tmp_path / "one"))
    assert first == tmp_path / "one" / f"{NAME}.{suffix}"
    assert len(list((cache_dir / cli_program.CACHE_KIND).rglob(f"*.{suffix}"))) == 1
    monkeypatch.setattr("dianli.program.assemble.assemble", _no_rites)
    second = _run("--no-audio", "--format", fmt, "--out", str(tmp_path / "two"))
    assert second.name == first.name and second.read_bytes() == first.read_bytes()


def test_the_path_printed_is_absolute(
    tmp_path: Path, cache_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    path = _run("--no-audio", "--format", "json", "--out", "sub/dir")
    assert path.is_absolute() and path == tmp_path / "sub" / "dir" / f"{NAME}.json"
    assert json.loads(path.read_text(encoding="utf-8"))["rite"] == "xianshi"


def test_each_argument_is_in_the_key() -> None:
    base = ("祀先師", "臺灣府", "1752", "", "", "", "html", "full", "False")
    keys = {cli_program.output_key(base, audio=False)}
    for i, other in enumerate(("xianshi", "福州", "1753", "autumn", "w", "p", "json", "none", "True")):
        keys.add(cli_program.output_key((*base[:i], other, *base[i + 1 :]), audio=False))
    assert len(keys) == 1 + len(base)
    assert cli_program.output_key(base, audio=False) == cli_program.output_key(base, audio=False)


def test_a_changed_package_file_is_another_key(monkeypatch: pytest.MonkeyPatch) -> None:
    base = ("祀先師", "臺灣府", "1752", "", "", "", "html", "full", "False")
    before = cli_program.output_key(base, audio=False)
    monkeypatch.setattr(cli_program, "inputs_fingerprint", lambda: b"another tree")
    assert cli_program.output_key(base, audio=False) != before


@pytest.mark.parametrize(
    ("appendix", "present", "absent"),
    [
        ("full", ['id="passages"', 'class="ctx"', 'id="parallels"'], ["appendix-left-out"]),
        ("compact", ['id="passages"', 'class="appendix compact"'], ['class="ctx"', 'id="parallels"']),
        ("none", ["appendix-left-out"], ['id="passages"', 'class="ctx"', 'id="parallels"']),
    ],
)
def test_the_appendix_editions(
    appendix: str, present: list[str], absent: list[str], tmp_path: Path, cache_dir: Path
) -> None:
    text = _run("--no-audio", "--appendix", appendix, "--out", str(tmp_path)).read_text(encoding="utf-8")
    assert "祀先師禮" in text and 'id="order"' in text
    for needle in present:
        assert needle in text, needle
    for needle in absent:
        assert needle not in text, needle


def test_the_cli_and_the_booklet_accept_the_same_appendices() -> None:
    assert cli_program.APPENDICES == APPENDICES


@pytest.mark.parametrize(
    ("extra", "named"),
    [(["--appendix", "short"], ["short", "full", "compact", "none"]), (["--format", "pdf"], ["pdf", "html"])],
)
def test_bad_choices_name_what_is_accepted(extra: list[str], named: list[str], cache_dir: Path) -> None:
    result = runner.invoke(app, [*ARGS, *extra])
    assert result.exit_code == 2 and "Traceback" not in result.output
    for word in named:
        assert word in result.output


def test_the_hint_says_how_to_open_the_file(tmp_path: Path) -> None:
    path = tmp_path / f"{NAME}.html"
    hint = cli_program.open_hint(path)
    assert str(path) in hint and path.as_uri() in hint and "browser" in hint


def test_an_unwritable_cache_is_no_error(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    blocker = tmp_path / "not-a-folder"
    blocker.write_text("", encoding="utf-8")
    monkeypatch.setenv("DIANLI_CACHE_DIR", str(blocker / "cache"))
    assert _run("--no-audio", "--format", "json", "--out", str(tmp_path)).is_file()


def test_in_a_terminal_the_bar_moves_through_every_stage_and_the_hint_is_shown(
    tmp_path: Path, cache_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import io

    from rich.console import Console

    from dianli.program.assemble import STAGES as assemble_stages

    screen = io.StringIO()
    from dianli.cli import common

    monkeypatch.setitem(common._MADE, "err_console", Console(file=screen, force_terminal=True, width=200))
    seen: list[tuple[int, str]] = []
    original = cli_program.Stages.at

    def record(self: cli_program.Stages, done: int, description: str, movements: int | None = None) -> None:
        seen.append((done, description))
        original(self, done, description, movements)

    monkeypatch.setattr(cli_program.Stages, "at", record)
    path = _run("--no-audio", "--out", str(tmp_path))
    steps = [done for done, _ in seen]
    assert steps == sorted(steps) and steps[0] == 1 and seen[-1] == (cli_program.Stages.STEPS, "done")
    named = ["loading the program", *assemble_stages, "writing the booklet", "done"]
    assert [d for _, d in seen] == named  # every stage named as it begins
    assert path.as_uri() in screen.getvalue() and "browser" in screen.getvalue()


def test_old_booklets_are_pruned_past_the_bound(cache_dir: Path) -> None:
    import os

    for i, size in enumerate([300, 300, 300, 100]):
        path = cache_dir / cli_program.CACHE_KIND / f"{i:02d}" / f"{i:02d}.html"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(b"x" * size)
        os.utime(path, (1000 + i, 1000 + i))
    cache.prune(cli_program.CACHE_KIND, max_bytes=500)
    left = sorted(p.name for p in (cache_dir / cli_program.CACHE_KIND).rglob("*.html"))
    assert left == ["02.html", "03.html"]  # the newest, 400 bytes; the two oldest removed


def test_with_audio_the_system_libopus_is_in_the_key(monkeypatch: pytest.MonkeyPatch) -> None:
    base = ("祀先師", "臺灣府", "1752", "", "", "", "html", "full", "True")
    with_audio = cli_program.output_key(base, audio=True)
    assert with_audio != cli_program.output_key(base, audio=False)
    monkeypatch.setattr(cli_program, "libopus_version", lambda: "libopus 9.9")
    assert cli_program.output_key(base, audio=True) != with_audio


def test_the_year_range_read_from_source_is_the_rites_range() -> None:
    from dianli.rites.years import FIRST_YEAR as RITE_FIRST_YEAR
    from dianli.rites.years import LAST_YEAR as RITE_LAST_YEAR

    assert cli_program.rite_years() == (RITE_FIRST_YEAR, RITE_LAST_YEAR)
    result = runner.invoke(app, ["program", "--help"], env={"COLUMNS": "120"})
    assert f"{RITE_FIRST_YEAR}–{RITE_LAST_YEAR}" in result.output


@pytest.mark.parametrize("year", ["x", "17x2", "1e3", ""])
def test_a_year_that_is_no_whole_number_is_a_usage_error(year: str, cache_dir: Path) -> None:
    result = runner.invoke(app, [*ARGS[:-1], year, "--no-audio"])
    assert result.exit_code == 2 and "Traceback" not in result.output
    assert "not a valid integer" in " ".join(result.output.split())


@pytest.mark.parametrize(
    ("args", "collecting"),
    [
        # the console script runs one command and ends: a booklet is made without the cyclic collector
        (["program", "祀先師", "--place", "臺灣府", "--year", "1752", "--format", "json"], False),
        (["calendar", "1752", "--place", "臺灣府"], False),  # and a year's calendar
        (["date", "乾隆十七年二月初一"], True),  # other commands keep it
    ],
)
def test_the_console_script_makes_a_booklet_or_a_calendar_without_the_cyclic_collector(
    args: list[str], collecting: bool, tmp_path: Path
) -> None:
    import subprocess
    import sys

    script = (
        "import gc, sys\n"
        "from dianli.cli.main import main\n"
        f"sys.argv = ['dianli', *{args!r}, *({['--out', str(tmp_path)]!r} if {args[0]!r} == 'program' else [])]\n"
        "try:\n    main()\nexcept SystemExit as exit:\n    assert exit.code in (0, None), exit.code\n"
        "print(gc.isenabled(), file=sys.stderr)\n"
    )
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True)
    assert done.stderr.split()[-1] == str(collecting)


def test_in_the_test_runner_the_collector_stays_on(tmp_path: Path, cache_dir: Path) -> None:
    import gc

    assert _run("--format", "json", "--out", str(tmp_path)).is_file()
    assert gc.isenabled()


def test_the_booklet_written_holds_no_private_use_code_point(tmp_path: Path, cache_dir: Path) -> None:
    import re

    text = _run("--no-audio", "--out", str(tmp_path)).read_text(encoding="utf-8")
    assert "〔" in text  # characters were supplied (臺灣府志 has them) …
    assert not re.search("[\ue000-\uf8ff\U000f0000-\U0010ffff]", text)  # … and none is left to supply


def test_a_first_booklet_loads_no_more_than_it_needs(tmp_path: Path) -> None:
    """A booklet for a new place and year, the data cached by another booklet: what it must not load (the
    YAML parser, OpenCC, lunar_python (a practice profile's day), rich without a terminal, the synthesiser)."""
    import os
    import subprocess
    import sys

    env = {**os.environ, "DIANLI_CACHE_DIR": str(tmp_path / "cache")}
    script = (
        "import sys\n"
        "from dianli.cli.main import main\n"
        f"sys.argv = ['dianli', 'program', *sys.argv[1:], '--no-audio', '--out', {str(tmp_path)!r}]\n"
        "try:\n    main()\nexcept SystemExit as exit:\n    assert exit.code in (0, None), exit.code\n"
        "print(' '.join(sorted(sys.modules)), file=sys.stderr)\n"
    )
    other = ["祀先師", "--place", "汀州府", "--year", "1760"]
    subprocess.run([sys.executable, "-c", script, *other], env=env, capture_output=True, check=True)
    done = subprocess.run([sys.executable, "-c", script, *ARGS[1:]], env=env, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    loaded = set(done.stderr.split())
    assert "dianli.program.assemble" in loaded  # made, not copied
    assert not loaded & {"yaml", "opencc", "lunar_python", "rich.console", "numpy", "music21", "skyfield"}
