"""Characters a witness's transcription could not encode, supplied from another witness — never a box.

A transcription writes a glyph its font lacks as a private-use code point (U+E000–U+F8FF), which a reader
sees as a box (☒). A witness folder may hold ``supplied.yaml``: for each such code point, the character
another witness prints in the same passage (written in this witness's script) with the citation of that
witness, or a labelled ``gap`` where no witness has the passage. The raw text is never changed (offsets
and citations keep working); what is *shown* goes through :func:`supply`:

* a supplied character is written in 〔〕, the mark of what dianli supplies (「先賢樊〔須〕」);
* a gap is written 〔缺〕 (a character the witness has and no witness can tell);
* a private-use code point no table knows is written 〔缺〕 too — never the code point itself.

Every output applies it last: the CLI's console and files, the booklet's and the web pages' templates (the
Jinja ``finalize``), the program's JSON. Where a supplied character comes from is in the table, and the
data that holds one says so (a tablet's gloss).
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass

from pydantic import BaseModel, ConfigDict, Field, model_validator

from dianli.corpus.cite import Citation
from dianli.corpus.witnesses import manifest_table, witness_ids, witness_info
from dianli.datafile import load_model_path
from dianli.errors import DataError

SUPPLIED_FILE = "supplied.yaml"
PRIVATE_USE = re.compile("[\ue000-\uf8ff]")
"""The Basic Multilingual Plane's private-use area: glyphs of a transcription's own font."""
GAP = "〔缺〕"
"""What stands for a character no witness supplies."""


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, defer_build=True)


class SuppliedChar(_Strict):
    """One code point of the witness's transcription: the character supplied for it, or why none is."""

    code_point: str = Field(pattern=r"^U\+[0-9A-F]{4}$")
    in_: str = Field(alias="in", min_length=1)
    """Where the witness writes it (▢ for the code point), to find it."""
    supplied: str | None = Field(default=None, min_length=1, max_length=1)
    cite: Citation | None = None
    gap: str | None = None

    model_config = ConfigDict(extra="forbid", frozen=True, populate_by_name=True, defer_build=True)

    @model_validator(mode="after")
    def _sourced(self) -> SuppliedChar:
        if (self.supplied is None) == (self.gap is None):
            raise ValueError("give either 'supplied' (with its 'cite') or 'gap' (why none is)")
        if self.supplied is not None and self.cite is None:
            raise ValueError("a supplied character needs the 'cite' of the witness that prints it")
        if not PRIVATE_USE.fullmatch(self.char):
            raise ValueError(f"{self.code_point} is not a private-use code point")
        return self

    @property
    def char(self) -> str:
        return chr(int(self.code_point[2:], 16))

    @property
    def shown(self) -> str:
        return f"〔{self.supplied}〕" if self.supplied is not None else GAP

    @property
    def source(self) -> str:
        if self.supplied is not None and self.cite is not None:
            return f"supplied from {self.cite.witness}「{self.cite.quote}」: the transcription could not encode it"
        return f"a character the transcription could not encode; {self.gap}"


class SuppliedFile(_Strict):
    """``supplied.yaml`` of a witness folder."""

    witness: str
    characters: tuple[SuppliedChar, ...] = Field(min_length=1)


@dataclass(frozen=True)
class Supplied:
    """A code point as one witness's table reads it."""

    witness: str
    entry: SuppliedChar


@functools.cache
def supplied_tables() -> dict[str, SuppliedFile]:
    """Every witness's table, by witness id (witnesses without ``supplied.yaml`` have none)."""
    out: dict[str, SuppliedFile] = {}
    for witness in witness_ids():
        path = witness_info(witness).folder / SUPPLIED_FILE
        if not path.is_file():
            continue
        table = load_model_path(path, SuppliedFile)
        if table.witness != witness:
            raise DataError(f"{path}: witness: {table.witness!r} is not the folder's witness {witness!r}")
        out[witness] = table
    return out


@functools.cache
def supplied_chars() -> dict[str, Supplied]:
    """Every code point any table reads, with the table's reading (two tables may not read one code
    point differently: the output does not know which witness a string came from)."""
    out: dict[str, Supplied] = {}
    for witness, table in supplied_tables().items():
        for entry in table.characters:
            other = out.get(entry.char)
            if other is not None and other.entry.shown != entry.shown:
                raise DataError(
                    f"{witness}/{SUPPLIED_FILE}: {entry.code_point} reads {entry.shown}, "
                    f"but {other.witness}'s table reads {other.entry.shown}"
                )
            out.setdefault(entry.char, Supplied(witness, entry))
    return out


def supply(text: str) -> str:
    """``text`` with every private-use code point written as its supplied character in 〔〕, or 〔缺〕."""
    if not PRIVATE_USE.search(text):
        return text
    table = shown_chars()
    return PRIVATE_USE.sub(lambda m: table.get(m.group(), GAP), text)


@functools.cache
def shown_chars() -> dict[str, str]:
    """Every code point a table reads → what is shown for it (:func:`supplied_chars`, plain data kept on
    disk by :func:`dianli.corpus.witnesses.manifest_table`: supplying text validates no table)."""
    return manifest_table("supplied_shown", lambda _: {c: s.entry.shown for c, s in supplied_chars().items()})


def private_use(text: str) -> list[str]:
    """The private-use code points of ``text``, each as U+ and four hex digits, for tests and checks."""
    return [f"U+{ord(c):04X}" for c in PRIVATE_USE.findall(text)]


def supply_value(value: object) -> object:
    """A template engine's ``finalize``: every string output supplied (a markup string stays markup)."""
    if isinstance(value, str):
        return type(value)(supply(value)) if PRIVATE_USE.search(value) else value
    return value
