"""The booklet's own caches (#14): a booklet for a new place or year reuses the witnesses' resolved quotes,
the music's cues and the compiled templates of earlier booklets. Each gives what a cold run gives, and is
keyed by what it is made from (an edit of the package, another argument: made again)."""

from __future__ import annotations

import pickle
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any
from urllib.parse import unquote

import pytest

from dianli import cache
from dianli.corpus.sources import outside_sources, sources_mentioned
from dianli.program import assemble, html, passages
from dianli.program.assemble import assemble as assemble_program
from dianli.program.html import render_booklet

QUOTES = [  # witness, quote, section: quotes the rites cite, and one that is in no witness
    ("taiwan-fuzhi-9", "先師", None),
    ("fujian-tongzhi-14", "迎神", None),
    ("tingzhou-fuzhi", "祭先師", None),
    ("taiwan-fuzhi-9", "此句不在書中也", None),
]


@pytest.fixture()
def cache_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, stable_package: None) -> Iterator[Path]:
    monkeypatch.setenv("DIANLI_CACHE_DIR", str(tmp_path))
    html.environment.cache_clear()
    passages._title.cache_clear()
    yield tmp_path
    html.environment.cache_clear()
    passages._title.cache_clear()


def _book_passages() -> tuple[Any, ...]:
    book = passages.PassageBook()
    for witness, text, section in QUOTES:
        book.ref(witness, text, section)
    return book.passages


def _cue() -> dict[str, Any]:
    return assemble.movement_cue("chuxian")


def _known() -> frozenset[str]:
    return assemble.known_movements()


Made = Callable[[], object]
CACHED: dict[str, tuple[Made, tuple[Any, str]]] = {
    # what a booklet reads from the cache → (reading it, the function that makes it when it is missing)
    "a witness's resolved quotes": (_book_passages, (passages, "_resolved_fields")),
    "a movement's cue": (_cue, (assemble, "_movement_cue")),
    "the movements' ids": (_known, ("dianli.music.score", "movement_ids")),
    "a dance's page and its sources": (lambda: html._silent_dance("chuxian"), (html, "_dance_page")),
}


def _counting(monkeypatch: pytest.MonkeyPatch, target: tuple[Any, str]) -> list[object]:
    """Count the calls of the function that makes an entry (still making it)."""
    owner, name = target
    if isinstance(owner, str):
        owner = __import__(owner, fromlist=[name])
    original = getattr(owner, name)
    calls: list[object] = []

    def counted(*args: object) -> object:
        calls.append(args)
        return original(*args)

    monkeypatch.setattr(owner, name, counted)
    return calls


@pytest.mark.parametrize("name", CACHED)
def test_a_warm_read_is_the_cold_result_and_makes_nothing(
    name: str, cache_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    read, target = CACHED[name]
    calls = _counting(monkeypatch, target)
    cold = read()
    assert calls, "the cold read made it"
    cache.flush()  # written when a process ends; here, now
    passages._title.cache_clear()
    calls.clear()
    warm = read()
    assert warm == cold and not calls


@pytest.mark.parametrize("name", CACHED)
def test_an_edit_of_the_package_makes_it_again(
    name: str, cache_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    read, target = CACHED[name]
    cold = read()
    cache.flush()
    calls = _counting(monkeypatch, target)
    monkeypatch.setattr(cache, "_package_digest", lambda: "0" * 64)  # any file of the package edited
    assert read() == cold and calls


ARGUMENTS: dict[str, tuple[Made, Made, tuple[Any, str]]] = {
    # one entry, another argument, the maker
    "a movement's cue": (
        lambda: assemble.movement_cue("chuxian"),
        lambda: assemble.movement_cue("yaxian"),
        (assemble, "_movement_cue"),
    ),
    "a dance's page (another movement)": (
        lambda: html._silent_dance("chuxian"),
        lambda: html._silent_dance("yaxian"),
        (html, "_dance_page"),
    ),
    "a witness's quotes (another quote)": (
        lambda: _one_passage("taiwan-fuzhi-9", "先師"),
        lambda: _one_passage("taiwan-fuzhi-9", "祭先師"),
        (passages, "_resolved_fields"),
    ),
    "a witness's quotes (another section)": (
        lambda: _one_passage("taiwan-fuzhi-9", "先師"),
        lambda: _one_passage("taiwan-fuzhi-9", "先師", "xianshi.chenshe"),
        (passages, "_resolved_fields"),
    ),
    "a witness's quotes (another witness)": (
        lambda: _one_passage("taiwan-fuzhi-9", "先師"),
        lambda: _one_passage("fujian-tongzhi-14", "先師"),
        (passages, "_resolved_fields"),
    ),
}


def _one_passage(witness: str, text: str, section: str | None = None) -> Any:
    book = passages.PassageBook()
    book.ref(witness, text, section)
    return book.passages[0]


@pytest.mark.parametrize("name", ARGUMENTS)
def test_another_argument_is_another_entry(
    name: str, cache_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    first, other, target = ARGUMENTS[name]
    first()
    cache.flush()
    calls = _counting(monkeypatch, target)
    first()
    assert not calls  # read back
    other()
    assert calls  # not taken for the first


def test_the_quotes_resolve_as_without_the_cache(cache_dir: Path) -> None:
    """Every quote of the table (the one in no witness carries the resolver's error) as
    :func:`resolve_passage` gives it, cold and warm."""
    expected = tuple(passages.resolve_passage(f"c{i}", *q) for i, q in enumerate(QUOTES, 1))
    assert expected[-1].error and not expected[0].error
    assert _book_passages() == expected
    cache.flush()
    passages._title.cache_clear()
    assert _book_passages() == expected


def test_a_damaged_store_is_made_again(cache_dir: Path) -> None:
    cold = _book_passages()
    cache.flush()
    store = passages.WitnessQuotes("taiwan-fuzhi-9")
    where = cache.path_for(cache.DERIVED, store.key, ".pickle")
    assert where is not None and where.is_file()
    title, quotes = pickle.loads(where.read_bytes())
    assert title == passages._title("taiwan-fuzhi-9") and ("先師", None) in quotes
    where.write_bytes(b"damaged")
    assert _book_passages() == cold


# --- compiled templates --------------------------------------------------------------------------------


def _no_compiling(monkeypatch: pytest.MonkeyPatch) -> None:
    def refuse(*_: object, **__: object) -> object:
        raise AssertionError("compiled although the compiled template is cached")

    monkeypatch.setattr(html.environment(), "compile", refuse)


def test_compiled_templates_are_read_back(cache_dir: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    template = html.environment().get_template("booklet.html")
    cache.flush()
    stored = sorted((cache_dir / html.BYTECODE_KIND).rglob("*.code"))
    assert len(stored) == 1  # the booklet (the macros it imports are compiled when it is rendered)
    html.environment.cache_clear()
    _no_compiling(monkeypatch)
    again = html.environment().get_template("booklet.html")
    assert again is not template and again.blocks.keys() == template.blocks.keys()


@pytest.mark.parametrize("damage", [b"", b"damaged", b"\x00" * 64])
def test_a_damaged_compiled_template_is_compiled_again(cache_dir: Path, damage: bytes) -> None:
    html.environment().get_template("macros.html")
    cache.flush()
    for entry in (cache_dir / html.BYTECODE_KIND).rglob("*.code"):
        entry.write_bytes(damage)
    html.environment.cache_clear()
    assert html.environment().get_template("macros.html").module is not None


def _bucket_key(monkeypatch: pytest.MonkeyPatch, change: str) -> str:
    from jinja2.bccache import Bucket

    env = html.environment()
    name, checksum = "booklet.html", "a" * 40
    if change == "the template's source":
        checksum = "b" * 40
    elif change == "the template's name":
        name = "macros.html"
    elif change == "the package's files":
        monkeypatch.setattr(cache, "_package_digest", lambda: "0" * 64)
    elif change == "Jinja2's version":
        monkeypatch.setattr(cache, "versions", lambda *d: ";".join(f"{x}=0.0" for x in d))
    assert env.bytecode_cache is not None
    bucket = Bucket(env, env.bytecode_cache.get_cache_key(name, f"/t/{name}"), checksum)
    code = env.bytecode_cache
    assert isinstance(code, html.TemplateCode)
    return code.key_of(bucket)


@pytest.mark.parametrize(
    "change", ["the template's source", "the template's name", "the package's files", "Jinja2's version"]
)
def test_the_compiled_template_key_names_what_compiling_reads(
    change: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    before = _bucket_key(monkeypatch, "")
    assert _bucket_key(monkeypatch, "") == before
    assert _bucket_key(monkeypatch, change) != before


# --- the sources a booklet names -----------------------------------------------------------------------

_SOURCE = next(s for s in outside_sources().values() if s.addresses and "%" in s.addresses[0])
_ADDRESS = _SOURCE.addresses[0]
_OTHER = next(s for s in outside_sources().values() if s.id != _SOURCE.id)

PARTS: dict[str, list[str]] = {
    "none named": ['{"a":"先師"}', "<html>迎神</html>"],
    "an address": ['{"a":"先師"}', f"<html><a href='{_ADDRESS}'>x</a></html>"],
    "an address, decoded": [f'{{"u":"{unquote(_ADDRESS)}"}}', "<html></html>"],
    "a mention": [f'{{"n":"see `dianli sources {_OTHER.id}`"}}', "<html></html>"],
    "both, in two parts": [f'{{"n":"`dianli sources {_OTHER.id}`"}}', f"<p>{_ADDRESS}</p>"],
    "a mention across parts": ['{"n":"see `dianli sources ', f'{_OTHER.id}` here"}}'],
    "an address across parts": [f"<p>{_ADDRESS[:12]}", f"{_ADDRESS[12:]}</p>"],
    "an escape across parts": [
        f"<p>{_ADDRESS[: _ADDRESS.index('%') + 1]}",
        f"{_ADDRESS[_ADDRESS.index('%') + 1 :]}",
    ],
    "an escape after a part": [
        f"<p>{unquote(_ADDRESS[: _ADDRESS.index('%') + 9])}",
        f"{_ADDRESS[_ADDRESS.index('%') + 9 :]}</p>",
    ],
    "empty parts": ["", '{"a":1}', "", "<p></p>"],
}


@pytest.mark.parametrize("name", PARTS)
def test_sources_found_part_by_part_are_those_of_the_whole(name: str) -> None:
    parts = PARTS[name]
    assert html.mentioned(parts) == sources_mentioned("".join(parts))


@pytest.mark.parametrize(
    ("name", "named"),
    [
        ("none named", set()),
        ("an address", {_SOURCE.id}),
        ("an address, decoded", {_SOURCE.id}),
        ("a mention", {_OTHER.id}),
        ("both, in two parts", {_SOURCE.id, _OTHER.id}),
        ("a mention across parts", {_OTHER.id}),
        ("an address across parts", {_SOURCE.id}),
        ("an escape across parts", {_SOURCE.id}),
        ("an escape after a part", {_SOURCE.id}),
    ],
)
def test_the_parts_find_what_they_name(name: str, named: set[str]) -> None:
    assert {s.id for s in html.mentioned(PARTS[name])} == named


# --- the whole booklet ---------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def uncached() -> str:
    """The booklet made with the cache off (as before the caches)."""
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("DIANLI_CACHE_DIR", "off")
        html.environment.cache_clear()
        made = render_booklet(assemble_program("祀先師", "臺灣府", 1752))
    html.environment.cache_clear()
    return made


def test_the_booklet_is_the_same_cold_warm_and_uncached(uncached: str, cache_dir: Path) -> None:
    cold = render_booklet(assemble_program("祀先師", "臺灣府", 1752))
    cache.flush()
    for kind in ("jinja", cache.DERIVED):
        assert any((cache_dir / kind).rglob("*.*")), kind
    html.environment.cache_clear()
    passages._title.cache_clear()
    warm = render_booklet(assemble_program("祀先師", "臺灣府", 1752))
    assert cold == warm == uncached


# --- the end of a booklet's process ---------------------------------------------------------------------


def test_the_process_ends_without_a_last_collection(monkeypatch: pytest.MonkeyPatch) -> None:
    """``dianli program`` registers :func:`gc.freeze` to run at exit, once however often it runs."""
    import atexit
    import gc

    from dianli.cli import common as command

    registered: list[object] = []
    monkeypatch.setattr(atexit, "register", registered.append)
    monkeypatch.setattr(command, "_ENDS_WITHOUT_COLLECTING", False)
    command.end_without_collecting()
    command.end_without_collecting()
    assert registered == [gc.freeze]
