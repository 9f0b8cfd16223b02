"""No boxes: every character a witness's transcription could not encode (a private-use code point) is
supplied from another witness, cited, or a labelled gap — and no output of dianli (CLI text, JSON, HTML,
the booklet, the web pages) holds a private-use code point or a box."""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from dianli.cli import app
from dianli.corpus.normalise import fold
from dianli.corpus.supplied import GAP, PRIVATE_USE, private_use, supplied_chars, supplied_tables, supply
from dianli.corpus.witnesses import load_witness, witness_ids
from dianli.written import MANIFEST

BOX = re.compile("[\u2610-\u2612\ufffd]|[\ue000-\uf8ff]")
"""A box (☐☑☒, the replacement character) or a private-use code point."""


def _raw(witness: str) -> str:
    return load_witness(witness).raw


def _code_points() -> list[tuple[str, str]]:
    return sorted({(w, c) for w in witness_ids() for c in PRIVATE_USE.findall(_raw(w))})


@pytest.mark.parametrize(
    ("witness", "char"), _code_points(), ids=lambda v: f"U+{ord(v):04X}" if len(v) == 1 else v
)
def test_every_unencoded_character_of_a_witness_is_in_its_table(witness: str, char: str) -> None:
    table = {e.char: e for e in supplied_tables()[witness].characters}
    assert char in table
    entry = table[char]
    assert entry.in_.replace("▢", char) in _raw(witness)


@pytest.mark.parametrize(
    ("code_point", "supplied", "source"),
    [
        ("U+EF6E", "須", "chongxiu-fengshan-xianzhi-5"),
        ("U+F53E", "柏", "chongxiu-fengshan-xianzhi-5"),
        ("U+E7BC", "讎", "taiwan-xianzhi-6"),
        ("U+EAC7", "簠", "tingzhou-fuzhi-11"),
    ],
)
def test_a_supplied_character_cites_the_witness_that_prints_it(
    code_point: str, supplied: str, source: str
) -> None:
    char = chr(int(code_point[2:], 16))
    entry = supplied_chars()[char].entry
    assert entry.supplied == supplied and entry.cite is not None and entry.cite.witness == source
    entry.cite.resolve()  # the supplying witness prints the quote …
    assert fold(supplied) in fold(entry.cite.quote)  # … and the quote holds the character
    assert supply(f"x{char}y") == f"x〔{supplied}〕y"


@pytest.mark.parametrize(
    ("text", "shown"),
    [
        ("先賢樊\uef6e、先儒王\uf53e", "先賢樊〔須〕、先儒王〔柏〕"),
        ("秀\uef17塔", f"秀{GAP}塔"),  # no witness prints it: a labelled gap
        ("\ue000", GAP),  # a code point no table knows
        ("先賢高柴", "先賢高柴"),
    ],
)
def test_supply(text: str, shown: str) -> None:
    assert supply(text) == shown
    assert private_use(supply(text)) == []


runner = CliRunner()

COMMANDS = [
    ["rites", "show", "祀先師", "--place", "臺灣府", "--year", "1752"],
    ["rites", "show", "祀先師", "--place", "臺灣府", "--year", "1752", "--format", "json"],
    ["rites", "show", "祀先師", "--place", "臺灣府", "--year", "1752", "--format", "html", "--alone"],
    ["rites", "show", "xiangyue", "--place", "臺灣府", "--year", "1752", "--format", "json"],
    ["texts", "show", "taiwan-fuzhi-9", "xianshi.weici"],
    ["texts", "search", "先賢樊", "--witness", "taiwan-fuzhi-9"],
    ["cite", "taiwan-fuzhi-9", "先賢高柴、先賢樊"],
]


@pytest.mark.parametrize("args", COMMANDS, ids=lambda a: " ".join(a))
def test_no_box_in_cli_output(args: list[str]) -> None:
    result = runner.invoke(app, args)
    assert result.exit_code == 0, result.output
    assert BOX.findall(result.stdout) == []


@pytest.mark.parametrize(
    ("rite", "fmt", "expected"),
    [
        ("祀先師", "json", "先賢樊〔須〕"),
        ("祀先師", "html", "先儒王〔柏〕"),
        ("xiangyue", "json", "解〔讎〕忿"),
    ],
)
def test_no_box_in_the_program(rite: str, fmt: str, expected: str, tmp_path: Path) -> None:
    args = ["program", rite, "--place", "臺灣府", "--year", "1752", "--no-audio", "--format", fmt]
    result = runner.invoke(app, [*args, "--out", str(tmp_path)])
    assert result.exit_code == 0, result.output
    (written,) = [p for p in tmp_path.iterdir() if p.name != MANIFEST]  # beside dianli's list of its files
    text = written.read_text(encoding="utf-8")
    assert BOX.findall(text) == []
    assert expected in text


def test_what_is_shown_is_read_back_without_validating_the_tables(
    cold_and_warm: Callable[..., tuple[Any, Any]], monkeypatch: pytest.MonkeyPatch
) -> None:
    from dianli.corpus import supplied

    cold, warm = cold_and_warm(supplied.shown_chars)
    assert warm == cold == {c: s.entry.shown for c, s in supplied.supplied_chars().items()}
    assert cold["\uef6e"] == "〔須〕"

    def refuse() -> Any:
        raise AssertionError("the supplied tables were read again despite the cache entry")

    monkeypatch.setattr(supplied, "supplied_chars", refuse)
    supplied.shown_chars.cache_clear()  # a new process: only the disk holds it
    assert supply("先賢樊\uef6e") == "先賢樊〔須〕"
