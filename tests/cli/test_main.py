"""cli/main: the console script lists every command from the table and loads a command's module only when it
runs — the same commands, with the same listing lines, as the full application."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest
from typer.testing import CliRunner

from dianli.cli import app
from dianli.cli.commands import COMMANDS, command_modules
from dianli.cli.lazy import LazyGroup, load_command
from dianli.cli.root import root_app


def _registered() -> dict[str, str | None]:
    names = {str(c.name): c.short_help for c in app.registered_commands}
    return names | {str(g.name): g.short_help for g in app.registered_groups}


def test_the_table_and_the_application_have_the_same_commands() -> None:
    assert set(_registered()) == set(COMMANDS)
    assert {name: c.summary for name, c in COMMANDS.items()} == _registered()


def _run(args: list[str], *env: tuple[str, str]) -> subprocess.CompletedProcess[str]:
    """``dianli ARGS`` in a fresh interpreter (with ``env`` set); its stderr ends with the names of every
    module it loaded."""
    script = (
        "import sys\n"
        "from dianli.cli.main import main\n"
        f"sys.argv = ['dianli', *{args!r}]\n"
        "try:\n    main()\nexcept SystemExit as exit:\n    assert exit.code in (0, None), exit.code\n"
        "print(' '.join(sorted(sys.modules)), file=sys.stderr)\n"
    )
    environment = {**os.environ, **dict(env)}
    return subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, check=True, env=environment
    )


@pytest.mark.parametrize("name", list(COMMANDS))
def test_each_command_loads_from_its_module(name: str) -> None:
    assert load_command(name).name == name


def test_every_module_registers_a_command() -> None:
    assert set(command_modules()) == {c.module for c in COMMANDS.values()}


@pytest.mark.parametrize("summary", [c.summary for c in COMMANDS.values()])
def test_a_summary_is_one_line_of_an_80_column_listing(summary: str) -> None:
    from dianli.cli.common import display_width

    assert "\n" not in summary and display_width(summary) <= 64, summary


def test_the_root_lists_every_command_with_its_summary() -> None:
    result = CliRunner().invoke(root_app(cls=LazyGroup), ["--help"], env={"COLUMNS": "120"})
    assert result.exit_code == 0
    for name, command in COMMANDS.items():
        assert name in result.output
        assert command.summary in result.output


@pytest.mark.parametrize(
    ("args", "loaded", "not_loaded"),
    [
        (["--help"], [], ["dianli.rites", "dianli.music", "dianli.corpus", "numpy", "pydantic"]),
        (
            ["date", "乾隆十七年二月初一"],
            ["dianli.calendar.reigns"],
            ["dianli.music", "dianli.dance", "music21"],
        ),
    ],
)
def test_a_command_loads_only_what_it_needs(
    args: list[str], loaded: list[str], not_loaded: list[str]
) -> None:
    modules = set(_run(args, ("DIANLI_CACHE_DIR", "off")).stderr.split())  # computed, not read back
    for name in loaded:
        assert name in modules
    for name in not_loaded:
        assert name not in modules, name


def test_the_console_script_collects_only_what_its_command_makes() -> None:
    """Start-up runs without the cyclic collector; what it made is frozen once the command is loaded and
    the collector runs again for the command (see dianli.cli.main); importing the CLI changes nothing."""
    probe = (
        "import gc, sys\n"
        "import dianli.cli, dianli.cli.lazy\n"
        "imported = gc.isenabled()\n"
        "from dianli.cli.main import main\n"
        "sys.argv = ['dianli', 'date', '1752-03-16']\n"
        "try:\n    main()\nexcept SystemExit:\n    pass\n"
        "print(imported, gc.isenabled(), gc.get_freeze_count() > 1000, file=sys.stderr)\n"
    )
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True)
    assert done.stderr.split() == ["True", "True", "True"]


def test_a_lazy_command_runs_like_the_registered_one() -> None:
    lazy = CliRunner().invoke(root_app(cls=LazyGroup), ["date", "乾隆十七年二月初一"], env={"COLUMNS": "80"})
    full = CliRunner().invoke(app, ["date", "乾隆十七年二月初一"], env={"COLUMNS": "80"})
    assert lazy.exit_code == full.exit_code == 0
    assert lazy.output == full.output
    assert "1752-03-16" in lazy.output


@pytest.mark.parametrize(
    ("args", "not_loaded"),
    [
        # with the cache warm (the first run fills it): no pydantic for a date, no rites for a calendar
        # and, the text being plain, no rich
        (  # the day's answer read back: no calendar module
            ["date", "乾隆十七年二月初一"],
            [
                "pydantic",
                "typer._adapters",
                "yaml",
                "numpy",
                "dianli.places",
                "rich.console",
                "dianli.calendar",
            ],
        ),
        (
            ["calendar", "1752", "--place", "臺灣府"],
            [
                *("dianli.rites.observances", "dianli.rites.model", "dianli.places", "pydantic"),
                *("typer._adapters", "numpy", "skyfield", "icalendar", "yaml", "rich.console"),
            ],
        ),
    ],
)
def test_a_command_with_a_warm_cache_loads_less(args: list[str], not_loaded: list[str]) -> None:
    first, second = _run(args), _run(args)
    assert second.stdout == first.stdout
    modules = set(second.stderr.split())
    for name in not_loaded:
        assert name not in modules, name


@pytest.mark.parametrize(
    "args",
    [
        ["date", "乾隆十七年二月初一", "--format", "nope"],
        ["date", "乾隆十七年二月初一", "-f", "JSON"],
        ["date", "乾隆十七年二月初一", "-f", "json"],
        ["--width", "5", "date", "乾隆十七年二月初一"],
        ["--width", "100", "date", "1752-03-16"],
        ["calendar", "abc"],
        ["calendar", "１７５２", "--place", "臺灣府", "-r", "xianshi"],  # full-width digits: typer's own
        ["calendar", "+1752", "--place", "臺灣府", "-r", "xianshi"],
        ["calendar", "-1752"],
        ["calendar", "0017"],
        ["calendar", "17520000000000000000000000"],
        ["--width", "1000", "date", "1752-03-16"],
        ["--width", "1001", "date", "1752-03-16"],
        ["--width", "19", "date", "1752-03-16"],
        ["--width", "20", "date", "1752-03-16"],
        ["--width", "8e1", "date", "1752-03-16"],
        ["calendar", "1752", "--place", "臺灣府", "--format", "xml"],
        ["calendar", "1752", "--place", "臺灣府", "-r", "xianshi", "-r", "祀先師", "-f", "json"],
    ],
)
def test_the_lazy_root_converts_values_as_typer_does(args: list[str]) -> None:
    """The console script's plain conversion (no pydantic for a str, a choice, an int in ASCII digits within
    its bounds, no value) gives what typer's own gives, bad values and bounds included (typer's message)."""
    lazy = CliRunner().invoke(root_app(cls=LazyGroup), args, env={"COLUMNS": "80"})
    full = CliRunner().invoke(app, args, env={"COLUMNS": "80"})
    assert (lazy.exit_code, lazy.output) == (full.exit_code, full.output)


@pytest.mark.parametrize(("given", "seen"), [(None, "__all__"), ("", ""), ("logfire", "logfire")])
def test_the_console_script_leaves_pydantic_plugins_out_unless_told(given: str | None, seen: str) -> None:
    import os

    from dianli.cli.main import PYDANTIC_PLUGINS_ENV

    env = {k: v for k, v in os.environ.items() if k != PYDANTIC_PLUGINS_ENV}
    if given is not None:
        env[PYDANTIC_PLUGINS_ENV] = given
    script = (
        "import os, sys\n"
        "from dianli.cli.main import main\n"
        "sys.argv = ['dianli', 'date', '乾隆十七年二月初一']\n"
        "try:\n    main()\nexcept SystemExit:\n    pass\n"
        f"print(repr(os.environ.get({PYDANTIC_PLUGINS_ENV!r})), file=sys.stderr)\n"
    )
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, env=env, check=True)
    assert done.stderr.splitlines()[-1] == repr(seen)
