"""Characters no shipped font draws, shown by their components and a note, never as a box (issue 27 item 6).

The table is data (``program/data/nofont.yaml``): a character with its ideographic description sequence
(``𩚏`` → ``⿰飠也``). In a page's text the character becomes ``<span class="nofont" role="img"
aria-label="note" title="note">〔⿰飠也〕</span>``; inside a tag (an attribute) or an SVG drawing, where no
element can stand, the plain 〔⿰飠也〕. The booklet is written in chunks (:func:`NoFont.html`
keeps across chunks whether the text is inside a tag or a drawing).
"""

from __future__ import annotations

import functools
import re
from html import escape
from importlib import resources

from pydantic import BaseModel, ConfigDict

from dianli.datafile import parse_model


class Supplied(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    ids: str
    note: str


class _Table(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    chars: dict[str, Supplied]


@functools.cache
def supplied_forms() -> dict[str, Supplied]:
    """Every character no shipped font draws → its components and note."""
    path = "data/nofont.yaml"
    text = resources.files("dianli.program").joinpath(path).read_text(encoding="utf-8")
    return parse_model(f"dianli/program/{path}", text, _Table).chars


@functools.cache
def _pattern() -> re.Pattern[str]:
    return re.compile("|".join(map(re.escape, supplied_forms())) or r"(?!)")


def plain(ch: str) -> str:
    """The character as plain text: its components in 〔〕."""
    return f"〔{supplied_forms()[ch].ids}〕"


def element(ch: str) -> str:
    """The character in a page's text: its components, the note as its label and tooltip."""
    note = escape(supplied_forms()[ch].note)
    return f'<span class="nofont" role="img" aria-label="{note}" title="{note}">{plain(ch)}</span>'


class NoFont:
    """Replaces the characters of the table in HTML given a chunk at a time (one object per document)."""

    def __init__(self) -> None:
        self.in_tag = False
        self.in_svg = False

    def html(self, chunk: str) -> str:
        if not _pattern().search(chunk):
            self._advance(chunk)
            return chunk
        out: list[str] = []
        at = 0
        for m in _pattern().finditer(chunk):
            self._advance(chunk[at : m.start()])
            out.append(chunk[at : m.start()])
            out.append(plain(m.group()) if self.in_tag or self.in_svg else element(m.group()))
            at = m.end()
        self._advance(chunk[at:])
        out.append(chunk[at:])
        return "".join(out)

    def _advance(self, text: str) -> None:
        opened, closed = text.rfind("<"), text.rfind(">")
        if opened != closed:
            self.in_tag = opened > closed
        svg_open, svg_close = text.rfind("<svg"), text.rfind("</svg")
        if svg_open != svg_close:
            self.in_svg = svg_open > svg_close


def nofont_html(html: str) -> str:
    """A whole page with the table's characters shown by their components."""
    return NoFont().html(html)
