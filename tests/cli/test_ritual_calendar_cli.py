"""``dianli calendar`` with its year kept in the on-disk cache: the second run reads what the first stored
and prints exactly the same, the eclipse of 1752 (computed) included."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from dianli import cache
from dianli.cli import app

runner = CliRunner()


@pytest.mark.usefixtures("stable_package")
@pytest.mark.parametrize(
    ("args", "expected"),
    [
        (["calendar", "1752", "--place", "臺灣府", "-f", "json"], "annular solar eclipse"),
        (["calendar", "1752", "--place", "臺灣府", "--rite", "xianshi", "-f", "json"], "xianshi"),
        (["calendar", "1930", "--place", "福州府", "-f", "json"], "1930-"),
    ],
)
def test_a_cached_year_prints_what_a_cold_run_prints(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, args: list[str], expected: str
) -> None:
    monkeypatch.setenv("DIANLI_CACHE_DIR", str(tmp_path))
    cold = runner.invoke(app, args)
    assert cold.exit_code == 0, cold.output
    cache.flush()  # written at the end of a process; here, now
    stored = sorted((tmp_path / cache.DERIVED).rglob("*.pickle"))
    assert stored  # the year (and what it was made from) is in the cache
    warm = runner.invoke(app, args)
    assert warm.exit_code == 0, warm.output
    assert warm.output == cold.output
    assert expected in cold.output
    assert json.loads(warm.output) == json.loads(cold.output)


def test_a_changed_argument_is_another_entry(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("DIANLI_CACHE_DIR", str(tmp_path))
    with_related = runner.invoke(app, ["calendar", "1752", "--place", "臺灣府", "-f", "json"])
    without = runner.invoke(app, ["calendar", "1752", "--place", "臺灣府", "--no-related", "-f", "json"])
    assert with_related.exit_code == without.exit_code == 0
    assert len(json.loads(without.output)) < len(json.loads(with_related.output))


@pytest.mark.parametrize(
    ("years", "expected"), [(["1752"], [1752]), (["--from", "1752", "--to", "1753"], [1752, 1753])]
)
def test_an_icalendar_file_computes_each_year_once(
    years: list[str], expected: list[int], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """With an empty cache, the years computed for the table are those written to the .ics file."""
    from dianli.cli import ritual_calendar

    monkeypatch.setenv(cache.ENV_DIR, str(tmp_path / "cache"))
    computed: list[int] = []
    real = ritual_calendar._year

    def counted(*args: object) -> ritual_calendar.Year:
        computed.append(int(str(args[2])))
        return real(*args)  # type: ignore[arg-type]

    monkeypatch.setattr(ritual_calendar, "_year", counted)
    ics = tmp_path / "days.ics"
    result = runner.invoke(app, ["calendar", *years, "-p", "臺灣府", "-r", "xianshi", "--ics", str(ics)])
    assert result.exit_code == 0, result.output
    assert sorted(computed) == expected  # each once
    assert ics.read_text(encoding="utf-8").count("BEGIN:VEVENT") > 0
