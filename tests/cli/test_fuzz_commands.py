"""Every command, driven with generated arguments through typer's runner: it ends with status 0 (done) or 2
(a usage error or a refused value, with a message) — never with a traceback.

The values are drawn from a pool mixing valid and invalid ones (names of rites, places and witnesses,
numbers in and out of range, markup, paths that cannot be written, empty and very long strings). For the
slow commands one parameter is always drawn from the invalid part, so that the run stays short; ``serve``
is left out (it would start a server: its bad values are checked in tests/cli/test_bad_input.py).
"""

from __future__ import annotations

import os
import re
from pathlib import Path
from typing import Any

import pytest
import typer.main
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from dianli.cli import app

VALID = [
    "祀先師",
    "xianshi",
    "臺灣府",
    "福州",
    "1752",
    "taiwan-fuzhi-9",
    "寧平",
    "json",
    "text",
    "spring",
    "通贊",
]
INVALID = [
    "",
    "nope",
    "-3",
    "99999",
    "[bold]x[/]",
    "../../nope",
    "☒",
    "\ue000",
    "\u3000",
    "x" * 300,
    "0",
    "1e9",
]
PATHS = ["/nonexistent-dir/out.txt", "/proc/out.txt", "out-file.txt", "-", "."]
YEARS = ["-1", "0", "1643", "1752", "1911", "2025", "2101", "99999", "x"]
PATH_PARAMS = {"out", "svg", "html", "ics", "drafts", "svg_timeline", "svg_map", "live_state", "ssl_certfile"}
YEAR_PARAMS = {"year", "year_from", "year_to", "from_year", "until_year"}
# slow when valid: this parameter always gets an invalid value
FORCED_INVALID = {
    "program": "rite",
    "music": "target",
    "ingest": "folder",
    "align": "witness",
    "collate": "rite",
    "export": "fmt",
    "coverage": "witness",
    "dance": "movement",
    "variants": "rule",
}
LEFT_OUT = {"serve"}
EMPTY_ACCEPTED = re.compile(r"accepted:\s*(?:$|[.;)]|see\b)")


def _commands() -> list[tuple[list[str], Any]]:
    found: list[tuple[list[str], Any]] = []

    def walk(command: Any, path: list[str]) -> None:
        subcommands = getattr(command, "commands", None)
        if subcommands:
            for name, sub in subcommands.items():
                walk(sub, [*path, name])
        elif path[0] not in LEFT_OUT:
            found.append((path, command))

    walk(typer.main.get_command(app), [])
    return found


COMMANDS = _commands()


def _pool(command: str, name: str) -> list[str]:
    if FORCED_INVALID.get(command) == name:
        return INVALID
    if name in PATH_PARAMS:
        return PATHS
    if name in YEAR_PARAMS:
        return YEARS
    return VALID + INVALID


@st.composite
def _arguments(draw: st.DrawFn, path: list[str], command: Any) -> list[str]:
    words: list[str] = list(path)
    options: list[str] = []
    for param in command.params:
        if param.name == "help":
            continue
        values = _pool(path[0], str(param.name))
        forced = FORCED_INVALID.get(path[0]) == param.name
        if param.param_type_name == "argument":
            if param.required or forced or draw(st.booleans()):
                words.append(draw(st.sampled_from(values)))
            continue
        if not (param.required or forced or draw(st.booleans())):
            continue
        if getattr(param, "is_flag", False):
            options.append(param.opts[0])
        else:
            options.extend([param.opts[0], draw(st.sampled_from(values))])
    return [*words, *options]


@pytest.mark.parametrize(("path", "command"), COMMANDS, ids=[" ".join(p) for p, _ in COMMANDS])
def test_no_traceback(path: list[str], command: Any, tmp_path: Path) -> None:
    runner = CliRunner()

    @settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
    @given(_arguments(path, command))
    def run(args: list[str]) -> None:
        cwd = os.getcwd()
        os.chdir(tmp_path)
        try:
            result = runner.invoke(app, args, env={"COLUMNS": "80"})
        finally:
            os.chdir(cwd)
        if result.exception is not None and not isinstance(result.exception, SystemExit):
            raise AssertionError(
                f"dianli {' '.join(args)!r} raised {result.exception!r}"
            ) from result.exception
        assert result.exit_code in (0, 2), (args, result.exit_code, result.output[-500:])
        assert "Traceback" not in result.output, (args, result.output[-500:])
        if result.exit_code == 2:
            assert not EMPTY_ACCEPTED.search(" ".join(result.output.split())), (args, result.output[-500:])

    run()
