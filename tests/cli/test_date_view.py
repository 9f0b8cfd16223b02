"""cli/date_view: the console script answers a plain ``dianli date`` without typer, exactly as typer's path
does — the same standard output, standard error and exit status, case by case — and leaves everything
else to typer."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from dianli.cli.date_view import OutputFormat, plain_arguments

DAY = "乾隆十七年二月初一"


@pytest.mark.parametrize(
    ("args", "expected"),
    [
        (["date", DAY], (DAY, OutputFormat.text, None)),
        (["date", DAY, "--format", "json"], (DAY, OutputFormat.json, None)),
        (["date", DAY, "-f", "text"], (DAY, OutputFormat.text, None)),
        (["date", "--format=json", DAY], (DAY, OutputFormat.json, None)),
        (["date", DAY, "--place", "臺灣府"], (DAY, OutputFormat.text, "臺灣府")),
        (["date", "-p", "臺灣府", DAY, "-f", "json"], (DAY, OutputFormat.json, "臺灣府")),
        (["date", DAY, "--place="], (DAY, OutputFormat.text, "")),
        (["date", DAY, "--place=a=b"], (DAY, OutputFormat.text, "a=b")),
        (["date", "1752-03-16"], ("1752-03-16", OutputFormat.text, None)),
        # everything else is typer's: help, the root's options, other spellings, errors typer reports
        (["date"], None),
        (["date", DAY, "--help"], None),
        (["date", "--help"], None),
        (["--width", "100", "date", DAY], None),
        (["--with-drafts", "date", DAY], None),
        (["calendar", "1752"], None),
        ([], None),
        (["date", DAY, "extra"], None),
        (["date", DAY, "--format", "JSON"], None),
        (["date", DAY, "--format", "xml"], None),
        (["date", DAY, "--format"], None),
        (["date", DAY, "-fjson"], None),
        (["date", DAY, "--place"], None),
        (["date", DAY, "--place", "-f"], None),
        (["date", DAY, "-f", "json", "-f", "text"], None),
        (["date", DAY, "--place", "a", "--place", "b"], None),
        (["date", "--", DAY], None),
        (["date", "-"], None),
        (["date", "-1752-03-16"], None),
        (["date", DAY, "--nope"], None),
        (["date", DAY, "--form", "json"], None),
    ],
)
def test_which_arguments_are_plain(
    args: list[str], expected: tuple[str, OutputFormat, str | None] | None
) -> None:
    assert plain_arguments(args) == expected


def test_the_option_names_are_the_commands() -> None:
    """The names plain_arguments reads are those typer's ``date`` declares (one declaration, in date_view)."""
    from dianli.cli.date_view import FORMAT_OPTION, PLACE_OPTION
    from dianli.cli.lazy import load_command

    options = {tuple(p.opts) for p in load_command("date").params if p.param_type_name == "option"}
    assert options == {FORMAT_OPTION, PLACE_OPTION}


def _run(
    how: str, args: list[str], env: dict[str, str], stdout: int | None = subprocess.PIPE
) -> tuple[int, str, str]:
    """``dianli ARGS`` in a fresh interpreter, by the console script (``main``) or through typer alone
    (``parsed``, what the console script did before): exit status, standard output and error."""
    script = f"import sys\nfrom dianli.cli.main import {how}\nsys.argv = ['dianli', *{args!r}]\n{how}()\n"
    done = subprocess.run(
        [sys.executable, "-c", script], stdout=stdout, stderr=subprocess.PIPE, env=env, check=False
    )
    out = done.stdout.decode("utf-8") if done.stdout is not None else ""
    return done.returncode, out, done.stderr.decode("utf-8")


ANSWERED = [
    ["date", DAY],
    ["date", DAY, "--format", "json"],
    ["date", "1752-03-20", "--place", "臺灣府"],  # a solar term, its time at the place
    ["date", "--place=臺灣府", "1950-04-05", "-f", "json"],  # after the Qing, named as at the place
    ["date", "永曆十六年四月十五日"],
    ["date", "1500-01-01", "-f", "json"],  # before the almanac: the Ming calendar
    ["date", "萬曆四十五年正月三十"],  # refused by the data: error, exit 2
    ["date", "乾隆十七年閏五月初一", "-f", "json"],
    ["date", "0500-01-01"],
    ["date", "1752-03-20", "--place", "北京"],  # an unknown place
    ["date", "1500-01-01", "--place", "北京"],  # an unknown place where no term time is given
    ["date", DAY, "--place="],
    ["date", "nonsense"],
    ["date", ""],
    ["date", "[bold]x[/]"],  # a message with markup-like text, shown as typed
]
LEFT_TO_TYPER = [
    ["date", DAY, "--format", "JSON"],
    ["date", DAY, "-fjson"],
    ["date", DAY, "--help"],
    ["date"],
    ["date", DAY, "extra"],
    ["--width", "30", "date", DAY],
]


@pytest.fixture(scope="module")
def cache_dir(tmp_path_factory: pytest.TempPathFactory) -> str:
    """One cache for the module's runs (the eras and the almanac read once); a day's answer kept by the
    console script's run is read back by typer's: both print the same all the same."""
    return str(tmp_path_factory.mktemp("cache"))


@pytest.mark.parametrize(
    ("args", "terminal"),
    [
        *((args, False) for args in ANSWERED + LEFT_TO_TYPER),
        # rich draws colours for a terminal: the error's, the JSON's
        *((args, True) for args in [ANSWERED[1], ANSWERED[3], ANSWERED[6], ANSWERED[9], LEFT_TO_TYPER[0]]),
    ],
)
def test_the_console_script_answers_as_typer_does(args: list[str], terminal: bool, cache_dir: str) -> None:
    env = {**os.environ, "DIANLI_CACHE_DIR": cache_dir, "COLUMNS": "80"}
    if terminal:
        env |= {"TTY_COMPATIBLE": "1", "FORCE_COLOR": "1"}
    assert _run("main", args, env) == _run("parsed", args, env)


def test_the_console_script_answers_as_typer_does_without_a_cache() -> None:
    env = {**os.environ, "DIANLI_CACHE_DIR": "off", "COLUMNS": "80"}
    for args in (ANSWERED[0], ANSWERED[6]):
        assert _run("main", args, env) == _run("parsed", args, env)


@pytest.mark.parametrize("args", ANSWERED[:3])
def test_a_plain_date_loads_no_typer(args: list[str]) -> None:
    env = {**os.environ, "DIANLI_CACHE_DIR": "off", "COLUMNS": "80"}  # computed, not read back
    script = (
        "import sys\n"
        "from dianli.cli.main import main\n"
        f"sys.argv = ['dianli', *{args!r}]\n"
        "try:\n    main()\nexcept SystemExit:\n    pass\n"
        "print(' '.join(sorted(sys.modules)), file=sys.stderr)\n"
    )
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, env=env, check=True)
    modules = set(done.stderr.split())
    assert "dianli.calendar.written_dates" in modules  # computed
    assert not {m for m in modules if m == "typer" or m.startswith(("typer.", "click"))}


@pytest.mark.parametrize(
    "args", [["date", DAY], ["date", DAY, "-f", "json"], ["date", "萬曆四十五年正月三十"]]
)
def test_a_closed_pipe_ends_as_under_typer(args: list[str], cache_dir: str) -> None:
    """Standard output a pipe no one reads: exit 1, nothing on standard error, under either path."""
    env = {**os.environ, "DIANLI_CACHE_DIR": cache_dir, "COLUMNS": "80"}
    runs = []
    for how in ("main", "parsed"):
        read, write = os.pipe()
        os.close(read)
        try:
            runs.append(_run(how, args, env, stdout=write))
        finally:
            os.close(write)
    assert runs[0] == runs[1]
    assert runs[0][0] == (2 if "正月三十" in args[1] else 1)


def test_a_completion_request_is_typers() -> None:
    env = {**os.environ, "_DIANLI_COMPLETE": "bash_complete", "COMP_WORDS": "dianli date", "COMP_CWORD": "1"}
    assert _run("main", ["date", DAY], env) == _run("parsed", ["date", DAY], env)
