"""The pages of the GuWen copy of the 殆知閣 texts, and the *page extracts* made of them.

The open 殆知閣-derived copy GitHub ``lhw828/GuWen`` stores each work of 史藏/地理 as HTML pages:
``史藏/地理/<title>.html`` (page 1, which opens with the work's table of contents) and
``史藏/地理/<title>_page<N>.html`` (N = 2 … M). A page's text sits in ``<div class="content">…</div>``, its
``<h1>`` reads like ``厦门志 - 第 12 页/共 58 页``; the rest is a fixed navigation bar.

A **page extract** keeps one page's text with where it came from, one UTF-8 file a page::

    PAGE: lhw828/GuWen 史藏/地理/<title>_page<N>.html
    COMMIT: <the 40-hex commit the page was read at>
    TITLE: <the h1 text, e.g. 厦门志 - 第 12 页/共 58 页>
    -----
    <the content div's text, verbatim>

The text is every character between ``<div class="content">`` and its ``</div>``, HTML entities (``&amp;``
…) left as they are, line breaks and full-width spaces kept; only the ASCII whitespace (spaces, tabs, line
breaks) before the first and after the last other character is removed — the full-width spaces that
indent the first paragraph are the text's own. :func:`from_html` makes an extract from a page,
:func:`render` writes it, :func:`parse_extract` reads it back. A page whose structure is not this one (no
``h1``, no content ``div`` or two of them, markup inside the text, a title that does not name the page
the path names) is a :class:`~dianli.errors.DataError` naming the page and what was expected.
"""

from __future__ import annotations

import html
import re
from dataclasses import dataclass
from pathlib import Path

from dianli.errors import DataError

REPOSITORY = "lhw828/GuWen"
"""The repository the pages come from (a page extract may name another: it is kept as read)."""

HEADER_KEYS = ("PAGE", "COMMIT", "TITLE")
RULE = "-----"
"""The line that ends an extract's header."""

_PAGE_NAME = re.compile(r"^(?P<title>[^/]+?)(?:_page(?P<n>[1-9][0-9]{0,4}))?\.html$")
_H1 = re.compile(r"^\s*(?P<title>.+?)\s*-\s*第\s*(?P<n>[0-9]+)\s*页\s*/\s*共\s*(?P<total>[0-9]+)\s*页\s*$")
_COMMIT = re.compile(r"^[0-9a-f]{40}$")
_CONTENT_OPEN = re.compile(r"<div\s+class\s*=\s*\"content\"\s*>", re.IGNORECASE)
_DIV_CLOSE = re.compile(r"</div\s*>", re.IGNORECASE)
_OUTER_SPACE = " \t\r\n\ufeff"
"""What is stripped around a page's text: layout, never the full-width spaces that indent a paragraph."""


@dataclass(frozen=True)
class PageExtract:
    """One page of a work, its text as the page holds it, and where it came from."""

    repository: str
    """``owner/name`` of the repository (``lhw828/GuWen``)."""
    path: str
    """The page's path in the repository (``史藏/地理/金门志_page6.html``)."""
    commit: str
    """The 40-hex commit the page was read at."""
    title: str
    """The page's ``h1`` (``金门志 - 第 6 页/共 13 页``)."""
    text: str
    """The content div's text, verbatim (entities as written)."""

    @property
    def work(self) -> str:
        """The work's title, as the page's file name gives it (``金门志``)."""
        return page_name(self.path)[0]

    @property
    def number(self) -> int:
        """The page's number in its work (1 for ``<title>.html``)."""
        return page_name(self.path)[1]

    @property
    def total(self) -> int:
        """How many pages the work has, as the page's title says."""
        return _title_parts(self.title, self.path)[2]

    @property
    def source(self) -> str:
        """The page as a reader finds it: ``lhw828/GuWen 史藏/地理/金门志_page6.html``."""
        return f"{self.repository} {self.path}"


def page_name(path: str) -> tuple[str, int]:
    """(work title, page number) of a page's path: ``…/<title>.html`` is page 1, ``…/<title>_page<N>.html``
    page N. Any other name is a :class:`DataError` naming it."""
    name = path.replace("\\", "/").rsplit("/", 1)[-1]
    match = _PAGE_NAME.match(name)
    if match is None:
        raise DataError(
            f"{path}: not the name of a GuWen page; accepted: <title>.html (page 1) or <title>_page<N>.html"
        )
    return match["title"], int(match["n"] or 1)


def _title_parts(title: str, where: str) -> tuple[str, int, int]:
    match = _H1.match(title)
    if match is None:
        raise DataError(
            f"{where}: the page's title 「{title}」 is not of the form 「<title> - 第 N 页/共 M 页」"
        )
    number, total = int(match["n"]), int(match["total"])
    if not 1 <= number <= total:
        raise DataError(f"{where}: the page's title 「{title}」 numbers page {number} of {total}")
    return match["title"], number, total


def _check_names(path: str, title: str) -> None:
    """The page's title names the work and the page that its path names."""
    work, number = page_name(path)
    named, numbered, _ = _title_parts(title, path)
    if (named, numbered) != (work, number):
        raise DataError(
            f"{path}: the page's title 「{title}」 names page {numbered} of 「{named}」, but the path names page "
            f"{number} of 「{work}」; accepted: a page whose title and file name agree"
        )


def from_html(page: str, path: str, commit: str, repository: str = REPOSITORY) -> PageExtract:
    """The extract of one GuWen HTML page (its source text as read), with its provenance. A page of another
    structure is a :class:`DataError` saying what was found and what is expected."""
    from lxml import etree  # type: ignore[import-untyped]  # no stubs shipped
    from lxml import html as lxml_html

    if not _COMMIT.match(commit):
        raise DataError(f"{path}: commit {commit!r} is not a 40-hex git commit")
    try:
        tree = lxml_html.document_fromstring(page)
    except (etree.ParserError, ValueError) as exc:
        raise DataError(f"{path}: not an HTML page ({exc}); accepted: a GuWen page as stored") from exc
    headings = tree.xpath("//h1")
    contents = tree.xpath('//div[@class="content"]')
    if len(headings) != 1 or len(contents) != 1:
        raise DataError(
            f'{path}: {len(headings)} <h1> and {len(contents)} <div class="content">; accepted: a GuWen '
            "page, with one of each"
        )
    (div,) = contents
    if len(div):
        raise DataError(
            f"{path}: the content <div> holds markup (<{div[0].tag}>); accepted: a content <div> of text only"
        )
    title = " ".join(headings[0].text_content().split())
    _check_names(path, title)
    opened = list(_CONTENT_OPEN.finditer(page))
    if len(opened) != 1:
        raise DataError(f'{path}: <div class="content"> is not written once in the page\'s source')
    closed = _DIV_CLOSE.search(page, opened[0].end())
    if closed is None:
        raise DataError(f'{path}: <div class="content"> is never closed')
    raw = page[opened[0].end() : closed.start()]
    if html.unescape(raw) != (div.text or ""):
        raise DataError(f"{path}: the content <div>'s source is not its text alone")
    return PageExtract(repository, path, commit, title, raw.strip(_OUTER_SPACE))


def render(extract: PageExtract) -> str:
    """The page extract as its file holds it (the header, ``-----``, the text, a final line break)."""
    return (
        f"PAGE: {extract.source}\nCOMMIT: {extract.commit}\nTITLE: {extract.title}\n{RULE}\n{extract.text}\n"
    )


def is_extract(text: str) -> bool:
    """Whether a file's text opens as a page extract (its first line a ``PAGE:`` line)."""
    return text.lstrip("\ufeff").startswith("PAGE: ")


def parse_extract(text: str, where: str) -> PageExtract:
    """Read a page extract back (:func:`render`'s form). A file of another form is a :class:`DataError`
    naming ``where`` and the line that is wrong."""
    lines = text.lstrip("\ufeff").split("\n")
    fields: dict[str, str] = {}
    for number, key in enumerate(HEADER_KEYS, start=1):
        line = lines[number - 1].rstrip("\r") if len(lines) >= number else ""
        prefix = f"{key}: "
        if not line.startswith(prefix) or not line[len(prefix) :].strip():
            raise DataError(
                f"{where}: line {number} is 「{line[:60]}」; accepted: a page extract, whose lines 1–3 are "
                "PAGE: <owner/name> <path>, COMMIT: <40-hex commit>, TITLE: <the page's h1>, then -----"
            )
        fields[key] = line[len(prefix) :].strip()
    if len(lines) < 4 or lines[3].rstrip("\r") != RULE:
        raise DataError(f"{where}: line 4 is not {RULE}; accepted: the header's three lines, then {RULE}")
    repository, _, path = fields["PAGE"].partition(" ")
    if not path or "/" not in repository:
        raise DataError(
            f"{where}: PAGE: {fields['PAGE']}; accepted: the repository (owner/name), a space, the page's path"
        )
    if not _COMMIT.match(fields["COMMIT"]):
        raise DataError(f"{where}: COMMIT: {fields['COMMIT']} is not a 40-hex git commit")
    _check_names(path, fields["TITLE"])
    body = "\n".join(lines[4:]).replace("\r\n", "\n").strip(_OUTER_SPACE)
    if not body:
        raise DataError(f"{where}: no text after {RULE}; accepted: the page's text under the header")
    return PageExtract(repository, path, fields["COMMIT"], fields["TITLE"], body)


def read_extract(path: Path) -> PageExtract:
    """A page extract file (:func:`parse_extract`)."""
    try:
        text = path.read_text(encoding="utf-8")
    except UnicodeDecodeError as exc:
        raise DataError(f"{path}: not UTF-8 text ({exc.reason}); accepted: a page extract, UTF-8") from exc
    except OSError as exc:
        raise DataError(f"{path}: cannot be read ({exc.strerror or exc})") from exc
    return parse_extract(text, str(path))


def extract_name(extract: PageExtract) -> str:
    """The file name of a page's extract: ``<title>_page<N>.txt`` (page 1 too)."""
    return f"{extract.work}_page{extract.number}.txt"
