"""The animation's data on disk (#14): a booklet for a new place or year reuses its dances. A warm read is
the cold result, page for page, and the key names the movement, the witness and the package's files."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from dianli import cache
from dianli.dance import animate
from dianli.dance.audio import Audio
from dianli.dance.notation import dance_witnesses
from dianli.dance.notation import movements as dance_movements
from dianli.dance.timing import character_timing, tempo_timing

MOVEMENTS = [m.id for m in dance_movements()]


@pytest.fixture()
def cache_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, stable_package: None) -> Iterator[Path]:
    monkeypatch.setenv("DIANLI_CACHE_DIR", str(tmp_path))
    yield tmp_path


def _made(monkeypatch: pytest.MonkeyPatch) -> list[tuple[object, ...]]:
    """Count the times the data is made (it still is)."""
    original = animate._animation_data
    calls: list[tuple[object, ...]] = []

    def counted(*args: object) -> object:
        calls.append(args)
        return original(*args)  # type: ignore[arg-type]

    monkeypatch.setattr(animate, "_animation_data", counted)
    return calls


def _entry(movement: str, witness: str | None = None) -> Path:
    """Where the data of ``movement`` (in ``witness``'s reading) is kept."""
    part = "" if witness is None else f"witness {witness}"
    where = cache.path_for(cache.DERIVED, cache.installed_key(animate.CACHE_NAME, movement, part), ".pickle")
    assert where is not None
    return where


@pytest.mark.parametrize("movement", MOVEMENTS)
def test_a_warm_page_is_the_cold_page(
    movement: str, cache_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    audio = Audio("audio/ogg", b"OggS-not-really")
    cold = (
        animate.animation_data(movement),
        animate.render_html(movement),
        animate.render_html(movement, audio=audio),
    )
    cache.flush()
    assert _entry(movement).is_file()
    calls = _made(monkeypatch)
    warm = (
        animate.animation_data(movement),
        animate.render_html(movement),
        animate.render_html(movement, audio=audio),
    )
    assert warm == cold and not calls
    assert "base64,T2dnUy1ub3QtcmVhbGx5" in warm[2] and "base64," not in warm[1]


KEYED = {
    # the first call, then one that must be another entry
    "another movement": (("chuxian", None), ("yaxian", None)),
    "another witness": (("chuxian", None), ("chuxian", dance_witnesses()[1])),
    "the default witness named": (("chuxian", None), ("chuxian", dance_witnesses()[0])),
}


@pytest.mark.parametrize("name", KEYED)
def test_the_key_names_movement_and_witness(
    name: str, cache_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    first, other = KEYED[name]
    made = animate.animation_data(*first)
    cache.flush()
    calls = _made(monkeypatch)
    assert animate.animation_data(*first) == made and not calls
    animate.animation_data(*other)
    assert calls
    cache.flush()
    assert _entry(*first).is_file() and _entry(*other).is_file()


def test_an_edit_of_the_package_makes_it_again(cache_dir: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    made = animate.animation_data("zhongxian")
    cache.flush()
    calls = _made(monkeypatch)
    monkeypatch.setattr(cache, "_package_digest", lambda: "0" * 64)  # any file of the package edited
    assert animate.animation_data("zhongxian") == made and calls


@pytest.mark.parametrize("timing", ["music", "tempo"])
def test_a_given_timing_is_not_cached(timing: str, cache_dir: Path) -> None:
    """A caller's own timing is not made from the package alone: drawn each time, never stored."""
    given = character_timing("chuxian", 32) if timing == "music" else tempo_timing(32)
    data = animate.animation_data("chuxian", timing=given)
    cache.flush()
    assert not _entry("chuxian").exists()
    assert [c["start"] for c in data["characters"]] == [s for s, _ in given.spans_s]


def test_the_cache_off_writes_nothing(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DIANLI_CACHE_DIR", "off")
    page = animate.render_html("chuxian")
    cache.flush()
    monkeypatch.setenv("DIANLI_CACHE_DIR", str(tmp_path))
    assert animate.render_html("chuxian") == page
