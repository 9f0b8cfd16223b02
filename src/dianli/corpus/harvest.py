"""Harvesting: the chapters and passages of a whole gazetteer that hold the state rites.

A work comes as the plain text of a whole gazetteer, or as its GuWen pages (HTML pages of a git clone of
``lhw828/GuWen``, or page extracts, :mod:`dianli.corpus.guwen`), the pages of one work joined in page order.
:func:`harvest_work` finds in it the passages that hold the state rites — the 典禮/祀典 chapters, 禮制,
壇廟, the 祭禮 and 文廟 sections of a 學校志, the 祠祀 — by their headings and by their contents, and
:func:`transcribed_file` writes them as one transcribed file in the corpus's ``SOURCE:``/``WORK:``/
``NOTE:``/``SECTIONS:`` + ``=====`` form (:mod:`dianli.corpus.draft` reads it), each run of material left
out between the passages taken marked ``[OMITTED: …]`` with its headings and its length, in the script of
the source.

**The lexicon is the data's** (:func:`build_lexicon`); nothing in this module names a rite or a chapter:

- *headings*: every section title of ``corpus/data/sections.yaml`` and every heading a curated manifest
  anchors (:func:`dianli.corpus.draft.heading_lexicon`), every name, alias and venue of a rite of
  ``rites/data``, and the chapter headings of ``corpus/data/harvest.yaml`` (祀典, 廟壇 …, each with the
  work it was met in); the title lines and colophons (sections ``front`` and ``back``) are no ritual headings;
- *vocabulary*: those headings and the words the rite data is written in — the calls, roles, postures,
  part titles, functions and tags of every order of service, the acts and postures of
  ``rites/data/vocabulary.yaml``, and every pair of characters that :data:`QUOTE_SPREAD` distinct
  quotations of the rite data hold (献官, 叩首, 神位, 祝文 …) — each folded (:func:`dianli.corpus.normalise.fold`), two characters or
  more. The *density* of a passage is the share of its folding key that these words cover.

**The text's structure.** A work is cut into *blocks* at its headings: a short line of its own (at most
:data:`dianli.corpus.draft.MAX_HEADING` key characters and no sentence), consecutive heading lines making
one block head (「●苗栗县志卷十」「典礼志」). A line that names a 卷 opens a *chapter*. A table of contents —
at the start of the work (page 1) or of a chapter — is recognised as :func:`dianli.corpus.draft.
table_of_contents` recognises it (headings with no text between them, each recurring later as the heading
of text) and is never taken as the sections.

**What is taken.** A block is taken when its head matches a heading of the lexicon (on the folding key,
as the drafting matches headings: the same words, a known heading with a few characters more, the same
core; a sub-section's heading only right after a taken block), or when its text is dense in the
vocabulary (:data:`BLOCK_DENSITY`; dates — 乾隆, 五年 — count little: :data:`DATED_SHARE`). After a taken
block, a run of temples each under a heading of its own (「祖师庙」「水仙宫」「风神庙」 of a 廟祀; a heading
naming a temple ends as the temples of the rite data do: :attr:`Lexicon.shrines`) is taken, with any one
heading between two of them. Inside a taken block, an entry of a list that opens with a name before a colon
(「奎阁：即魁星楼…」) or before its note in 【】 (「刘巡检庙【在郡北门外…有司春秋致祭…】」) is left out when
that name is no heading of the lexicon and its own text is not dense (:data:`ENTRY_DENSITY`): the temples
of a 祠廟 list outside the 祀典. A chapter most of whose text
is taken (:data:`CHAPTER_SHARE`) is taken whole; a chapter of which anything is taken gives its head
(its title, table of contents and preface) too. Everything else is left out and said so.
"""

from __future__ import annotations

import datetime
import functools
import itertools
import os
import re
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pydantic import BaseModel, ConfigDict

from dianli import parallel
from dianli.corpus import guwen
from dianli.errors import DataError, DianliError

if TYPE_CHECKING:
    from dianli.corpus.draft import Line

BLOCK_DENSITY = 0.25
"""Share of a block's folding key covered by the ritual vocabulary above which it is taken unheaded."""
ENTRY_DENSITY = 0.25
"""Share of an entry's key the vocabulary must cover to keep an entry whose name is no known heading, or
a long entry (:data:`LONG_ENTRY`) whose name is one."""
LONG_ENTRY = 600
"""Key characters beyond which an entry of a list is a record (inscriptions, a history of repairs) rather
than a rite, unless it is dense in the vocabulary (:data:`LONG_ENTRY_DENSITY`)."""
LONG_ENTRY_DENSITY = 0.10
"""Share of a long entry's key the vocabulary must cover to keep it when its name is a known heading."""
WORSHIP_LIST = 0.5
"""Share of a block's key in entries naming places of worship above which the block is a list of them
(a 壇廟 or 祠祀 section under a heading of its own, 「府」, 「閩縣」), taken for the entries that pass."""
FINAL_SPREAD = 2
"""A character is the last of a place of worship's name (庙, 坛, 祠 …) when this many rite or section
headings of the lexicon end in it."""
HEADING_FLOOR = 0.02
"""Share of the vocabulary below which a long block (:data:`BARE_BODY`) under a known heading is no rite:
the mountains and rivers of a 封域志 under 「山川」 (1%), where an altar's or a temple list's text has 4% or
more (苗栗縣志's 祠廟, 5%)."""
BARE_BODY = 200
"""Key characters of a block under a known heading from which its vocabulary is weighed (:data:`HEADING_FLOOR`)."""
SHRINE_NAME = 3
"""Key characters of the heading of a temple of a run (:func:`_names_shrine`): a name before the kind of
temple (风神 + 庙); 「丛祠」 names a kind of shrines."""
CHAPTER_SHARE = 0.5
"""Share of a chapter's key in taken blocks above which the whole chapter is taken."""
DATED_SHARE = 0.2
"""Share of the vocabulary a block is taken for (:data:`BLOCK_DENSITY`) that may be dates (乾隆, 五年:
:attr:`Lexicon.undated`): a list of graduates or magistrates by year (「乾隆十七年：吕昆玉（台湾县学）」,
two thirds dates) is no rite; a 文廟's 贊 and its 下馬牌 of 康熙二十六年 (a tenth) is."""
CONTENT_BODY = 40
"""Key characters a block needs to be taken for its vocabulary alone (a few words are no evidence)."""
MIN_BODY = 12
"""Key characters a block needs under its heading to be taken on its heading alone (else it is a title
of what follows, taken only with it)."""
MAX_TERM = 8
QUOTE_SPREAD = 5
"""A pair of characters is a word of the vocabulary when this many distinct quotations of the rite data
hold it (献官, 叩首, 神位, 祝文 …)."""
"""Longest vocabulary word looked for (folded characters)."""
SOURCE_LIMIT_BYTES = 64_000_000
"""Largest source file read (a whole gazetteer of several hundred juan is some 10 MB)."""
SHOWN_HEADINGS = 12
"""Headings named one by one in an ``[OMITTED: …]`` mark; the rest are counted."""

_CHAPTER = re.compile(r"卷之?[一二三四五六七八九十百〇零]+|^●")
_ENTRY_HEAD = re.compile(r"^(?P<head>[^：:。，；、\u3000\s]{2,20})(?:[：:]|\u3000+| {2,})")
_NOTED_ENTRY = re.compile(r"(?:^|(?<=】))(?P<head>[^：:。，；、【】\u3000\s]{2,20})【")
"""An entry that is a name and its note in 【】, with no colon: at the start of a line or right after the
note of the entry before it (「社稷坛【在郡城北天王山下…】风云雷雨山川坛【…】」)."""
_NOTE = re.compile(r"[（(][^）)]*[）)]")
_STOP = re.compile(r"[。！？；]")
_SPACED = re.compile(r"[\s\u3000]+")
HARVEST_FILE = "data/harvest.yaml"
"""The chapter headings of the state rites that no manifest anchors (祀典, 廟壇 …), with their reasons."""
_SPLIT = re.compile(r"[\s\u3000，,、。．.；;：:！？!?「」『』“”‘’《》〈〉【】〔〕（）()\[\]{}|/·・…—-]+")
_QUOTE_KEYS = frozenset({"quote", "text", "action"})
_NUMERALS = frozenset("〇零一二三四五六七八九十百千万廿卅")
"""Numbers are in every kind of text (二十, 十六): a pair of them is no word of the rites."""
_TERM_KEYS = frozenset(
    {"classical", "aliases", "call", "role", "posture", "title", "function", "tags", "words"}
)
_NAME_KEYS = frozenset({"classical", "aliases"})
_OUTSIDE = frozenset({"front", "back"})


# --- the lexicon --------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Lexicon:
    """What the harvest recognises, read from the data (picklable: built once and sent to the workers)."""

    headings: dict[str, tuple[str, ...]]
    """Folded heading → the section or rite ids it heads (sub-sections have a ``.`` in their id)."""
    terms: frozenset[str]
    """The ritual vocabulary, folded, :data:`MAX_TERM` characters at most."""
    finals: frozenset[str] = frozenset()
    """The characters the names of places of worship end in (庙, 坛, 祠 …): the last character of
    :data:`FINAL_SPREAD` or more headings of rites and sections (not sub-sections) of the lexicon."""
    left_out: str | None = None
    """A witness whose manifest did not teach the headings (to measure harvest on it)."""
    chapters: frozenset[str] = frozenset()
    """The folded chapter headings of ``data/harvest.yaml``: a chapter whose title they follow is taken
    whole."""
    undated: frozenset[str] = frozenset()
    """:attr:`terms` without the pairs that date (:func:`_dating`: 乾隆, 五年): a block with no known heading
    is taken for its vocabulary only when the dates are a small part of it (:data:`DATED_SHARE`)."""
    shrines: frozenset[str] = frozenset()
    """The characters the names of the temples of ``rites/data/temples`` end in (:data:`FINAL_SPREAD` or
    more names): 庙, 祠, 坛, 宫 — narrower than :attr:`finals`, which the headings of the parts of a rite
    (乐, 仪, 表 …) swell."""


def _strings(node: Any, keys: frozenset[str], inside: bool = False) -> Iterable[str]:
    """Every string under one of ``keys`` in a YAML tree."""
    if isinstance(node, dict):
        for key, value in node.items():
            yield from _strings(value, keys, inside=key in keys)
    elif isinstance(node, list):
        for value in node:
            yield from _strings(value, keys, inside)
    elif isinstance(node, str) and inside:
        yield node


def _without(node: Any, witness: str | None) -> Any:
    """A YAML tree without the citations of ``witness`` (its quotations teach no vocabulary when harvest is
    measured on its own work)."""
    if witness is None:
        return node
    if isinstance(node, dict):
        if node.get("witness") == witness:
            return {}
        return {k: _without(v, witness) for k, v in node.items()}
    if isinstance(node, list):
        return [_without(v, witness) for v in node]
    return node


def _words(text: str) -> list[str]:
    """The folded words of a data string: parted at punctuation and brackets, two characters or more."""
    from dianli.corpus.normalise import fold

    return [k for k in (fold(p) for p in _SPLIT.split(text)) if len(k) >= 2]


@functools.cache
def _reign_names() -> frozenset[str]:
    """The folded names of the reigns (:mod:`dianli.calendar.reigns`): 乾隆, 康熙 …"""
    from dianli.calendar.reigns import CHONGZHEN, REIGNS, ROC
    from dianli.corpus.normalise import fold

    return frozenset(fold(r.name) for r in (CHONGZHEN, *REIGNS, ROC))


def _dating(pair: str) -> bool:
    """A pair of characters that dates rather than names a rite — two numerals (二十), a numeral and 年
    (五年), a reign's name (乾隆): the rite data's quotations are full of them, and so is every record of a
    repair or a list of graduates (「乾隆十七年：吕昆玉（台湾县学）」)."""
    return (pair[1] == "年" and pair[0] in _NUMERALS) or pair in _reign_names()


def _temple_names() -> list[str]:
    """The names of the temples the rite data lists (``rites/data/temples``), notes left out, folded."""
    from importlib import resources

    from dianli.corpus.normalise import fold
    from dianli.datafile import read_yaml
    from dianli.rites.load import DATA_PACKAGE

    folder = resources.files(DATA_PACKAGE) / "temples"
    names: list[str] = []
    for path in sorted(folder.iterdir(), key=lambda p: p.name):
        if path.name.endswith(".yaml"):
            for place in (read_yaml(path.read_text(encoding="utf-8")) or {}).get("places", []) or []:
                for temple in place.get("temples", []) or [] if isinstance(place, dict) else []:
                    if isinstance(temple, dict) and isinstance(temple.get("name"), str):
                        names.append(fold(_NOTE.sub("", temple["name"])))
    return [n for n in names if n]


def _rite_data() -> list[tuple[str, Any]]:
    """(file name, data) of every rite file and of the vocabulary file of ``rites/data``."""
    from importlib import resources

    from dianli.datafile import read_yaml
    from dianli.rites.load import DATA_PACKAGE

    root = resources.files(DATA_PACKAGE)
    return [
        (p.name, read_yaml(p.read_text(encoding="utf-8")))
        for p in sorted(root.iterdir(), key=lambda p: p.name)
        if p.name.endswith(".yaml") and p.name != "not_procedural.yaml"
    ]


class _ChapterEntry(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid", defer_build=True)

    heading: str
    section: str
    reason: str


class _HarvestFile(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid", defer_build=True)

    chapters: tuple[_ChapterEntry, ...]


def chapter_headings() -> dict[str, str]:
    """Folded chapter heading → its section (``data/harvest.yaml``); a section that is not a rite or chapter
    of the tree is a :class:`DataError`."""
    from dianli.corpus.normalise import fold
    from dianli.corpus.tree import section_defs
    from dianli.datafile import load_model

    tops = [i for i, d in section_defs().items() if d.parent is None and i not in _OUTSIDE]
    found: dict[str, str] = {}
    for index, entry in enumerate(load_model("corpus", HARVEST_FILE, _HarvestFile).chapters):
        if entry.section not in tops:
            raise DataError(
                f"dianli/corpus/{HARVEST_FILE}: chapters.{index}.section: {entry.section!r} is no rite or "
                f"chapter of the section tree; accepted: {', '.join(tops)}"
            )
        found[fold(entry.heading)] = entry.section
    return found


def build_lexicon(leave_out: str | None = None) -> Lexicon:
    """The headings and the vocabulary of the data (module docstring). ``leave_out``: a witness whose
    manifest's anchors and whose quotations are not used (harvest measured on that witness's own work)."""
    from collections import Counter

    from dianli.corpus.draft import heading_lexicon
    from dianli.corpus.normalise import fold

    headings: dict[str, dict[str, None]] = {}
    for key, ids in heading_lexicon(leave_out).items():
        kept = [i for i in ids if i.split(".")[0] not in _OUTSIDE]
        if kept and not any(c.isdigit() for c in key):
            headings.setdefault(key, {}).update(dict.fromkeys(kept))
    chapters = chapter_headings()
    for key, section in chapters.items():
        headings.setdefault(key, {})[section] = None
    terms: set[str] = set()
    quotes: set[str] = set()
    for _name, data in _rite_data():
        for rite in (data or {}).get("rites", []) if isinstance(data, dict) else []:
            if not isinstance(rite, dict) or not isinstance(rite.get("id"), str):
                continue
            names = list(_strings(rite.get("names", {}), _NAME_KEYS))
            venues = [v.get("name", "") for v in rite.get("venue", []) or [] if isinstance(v, dict)]
            for written in [*names, *venues]:
                for part in _words(_NOTE.sub("", written))[:1]:  # the name before any note or list
                    headings.setdefault(part, {})[rite["id"]] = None
        terms.update(w for s in _strings(data, _TERM_KEYS) for w in _words(s))
        quotes.update(fold(q) for q in _strings(_without(data, leave_out), _QUOTE_KEYS))
    pairs = Counter(p for q in quotes for p in {q[i : i + 2] for i in range(len(q) - 1)})
    spread = {p for p, n in pairs.items() if n >= QUOTE_SPREAD and not set(p) <= _NUMERALS}
    terms.update(spread)
    terms.update(headings)
    finals = Counter(k[-1] for k, ids in headings.items() if len(k) >= 2 and any("." not in i for i in ids))
    return Lexicon(
        {k: tuple(v) for k, v in headings.items()},
        frozenset(t for t in terms if len(t) <= MAX_TERM),
        frozenset(c for c, n in finals.items() if n >= FINAL_SPREAD),
        leave_out,
        frozenset(chapters),
        undated=frozenset(t for t in terms if len(t) <= MAX_TERM and not (t in spread and _dating(t))),
        shrines=frozenset(c for c, n in Counter(k[-1] for k in _temple_names()).items() if n >= FINAL_SPREAD),
    )


@functools.cache
def lexicon(leave_out: str | None = None) -> Lexicon:
    """:func:`build_lexicon`, once per process."""
    return build_lexicon(leave_out)


def density(key: str, terms: frozenset[str]) -> float:
    """Share of the folding key ``key`` covered by words of ``terms`` (longest first at each place)."""
    if not key:
        return 0.0
    covered = 0
    reach = 0
    for i in range(len(key)):
        for length in range(min(MAX_TERM, len(key) - i), 1, -1):
            if key[i : i + length] in terms:
                reach = max(reach, i + length)
                break
        if i < reach:
            covered += 1
    return covered / len(key)


# --- the works ----------------------------------------------------------------------------------------


@dataclass(frozen=True)
class PageSpan:
    """Where one page's text stands in its work's joined text."""

    source: str
    """The page as a reader finds it: ``lhw828/GuWen 史藏/地理/金门志_page6.html``."""
    repository: str
    path: str
    commit: str
    number: int
    start: int
    end: int


@dataclass(frozen=True)
class Work:
    """A whole gazetteer (or the pages of one that were read), its text and where each part came from."""

    title: str
    text: str
    pages: tuple[PageSpan, ...] = ()
    """The pages joined (in page order), empty for a plain text."""
    file: str = ""
    """The plain-text file it was read from (empty for pages)."""
    total_pages: int = 0
    """How many pages the work has (as its pages' titles say; 0 for a plain text)."""


@dataclass
class _Pages:
    extracts: dict[int, guwen.PageExtract] = field(default_factory=dict)
    files: dict[int, str] = field(default_factory=dict)


def source_files(paths: Sequence[Path]) -> list[Path]:
    """The files the sources name: each file given, and the ``*.txt`` and ``*.html`` files under each
    folder given (recursively; hidden folders skipped), sorted. A path that is neither, or a folder with
    no such file, is a :class:`DataError`."""
    found: list[Path] = []
    for path in paths:
        try:
            path.stat()
        except FileNotFoundError:
            pass  # named below, with what is accepted
        except OSError as exc:  # a name too long for the file system, a folder not readable …
            raise DataError(
                f"{str(path)[:80]}{'…' if len(str(path)) > 80 else ''}: {exc.strerror or exc}; accepted: a file "
                "or a folder of page extracts (*.txt, *.html)"
            ) from exc
        if path.is_file():
            found.append(path)
        elif path.is_dir():
            inside = sorted(
                p
                for p in path.rglob("*")
                if p.is_file()
                and p.suffix.lower() in (".txt", ".html", ".htm")
                and not any(part.startswith(".") for part in p.relative_to(path).parts)
            )
            if not inside:
                raise DataError(
                    f"{path}: a folder with no *.txt or *.html file; accepted: a folder of page extracts, "
                    "GuWen pages or plain-text gazetteers"
                )
            found.extend(inside)
        else:
            raise DataError(
                f"{path}: no such file or folder; accepted: a plain-text gazetteer (*.txt), a GuWen page "
                "(*.html), a page extract (*.txt opening with PAGE:), or a folder of them"
            )
    return list(dict.fromkeys(found))


_REMOTE = re.compile(r"url\s*=\s*\S*?[:/](?P<repo>[A-Za-z0-9][\w.-]*/[\w.-]+?)(?:\.git)?\s*$", re.M)


def _git_clone(path: Path) -> tuple[str, str, str] | None:
    """(repository, commit, path inside it) of a file of a git clone: the repository as its ``origin``
    remote names it (else the clone's folder name), the commit its ``HEAD`` stands at."""
    for root in path.resolve().parents:
        dot = root / ".git"
        if not dot.is_dir():
            continue
        head = (dot / "HEAD").read_text(encoding="utf-8").strip()
        if head.startswith("ref: "):
            ref = head[5:]
            if (dot / ref).is_file():
                head = (dot / ref).read_text(encoding="utf-8").strip()
            else:
                packed = dot / "packed-refs"
                lines = packed.read_text(encoding="utf-8").splitlines() if packed.is_file() else []
                head = next((ln.split()[0] for ln in lines if ln.endswith(" " + ref)), "")
        if not re.fullmatch(r"[0-9a-f]{40}", head):
            return None
        config = dot / "config"
        found = _REMOTE.search(config.read_text(encoding="utf-8")) if config.is_file() else None
        repository = found["repo"] if found else root.name
        return repository, head, path.resolve().relative_to(root).as_posix()
    return None


def load_works(paths: Sequence[Path]) -> list[Work]:
    """The works of the sources (:func:`source_files`): the pages of one work (its extracts and HTML
    pages, by repository and title) joined in page order, each plain text a work of its own. Two pages
    of one number, a page that is neither extract nor HTML page, or an HTML page outside a git clone (its
    commit unknown) is a :class:`DataError`."""
    from dianli.datafile import read_text_file

    by_work: dict[tuple[str, str], _Pages] = {}
    plain: list[Work] = []
    for path in source_files(paths):
        text = read_text_file(path, None, SOURCE_LIMIT_BYTES, "source file")
        suffix = path.suffix.lower()
        if suffix in (".html", ".htm"):
            found = _git_clone(path)
            if found is None:
                raise DataError(
                    f"{path}: an HTML page outside a git clone of {guwen.REPOSITORY}, so its commit is not "
                    "known; accepted: the pages of a git clone, or page extracts (PAGE:/COMMIT:/TITLE:)"
                )
            extract = guwen.from_html(text, found[2], found[1], found[0])
        elif guwen.is_extract(text):
            extract = guwen.parse_extract(text, str(path))
        else:
            if not text.strip():
                raise DataError(f"{path}: empty; accepted: the text of a gazetteer, UTF-8")
            plain.append(Work(_plain_title(text, path), text, file=str(path)))
            continue
        pages = by_work.setdefault((extract.repository, extract.work), _Pages())
        if extract.number in pages.extracts:
            raise DataError(
                f"{path}: page {extract.number} of 「{extract.work}」 is given twice (also "
                f"{pages.files[extract.number]}); accepted: each page once"
            )
        pages.extracts[extract.number] = extract
        pages.files[extract.number] = str(path)
    works = [_joined(title, pages) for (_, title), pages in sorted(by_work.items())]
    return works + plain


def _plain_title(text: str, path: Path) -> str:
    from dianli.corpus.draft import read_header

    work = read_header(text).fields.get("WORK", "")
    return work.split(" — ")[0].strip() or path.stem


def _joined(title: str, pages: _Pages) -> Work:
    parts: list[str] = []
    spans: list[PageSpan] = []
    at = 0
    for number in sorted(pages.extracts):
        page = pages.extracts[number]
        if parts:
            parts.append("\n")
            at += 1
        parts.append(page.text)
        spans.append(
            PageSpan(page.source, page.repository, page.path, page.commit, number, at, at + len(page.text))
        )
        at += len(page.text)
    total = max(p.total for p in pages.extracts.values())
    return Work(title, "".join(parts), tuple(spans), total_pages=total)


# --- the structure ------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Block:
    """A heading (one or more heading lines) and the text under it, to the next heading."""

    start: int
    """Offset of the start of its first line (indentation included)."""
    end: int
    """Offset of the start of the next block's first line (or the end of the text)."""
    heads: tuple[str, ...]
    """Its heading lines as written (none for the text before the first heading)."""
    head_keys: tuple[str, ...]
    body_key: str
    """The folding key of its text under the heading (a table of contents left out)."""
    chapter: bool
    """Its heading names a 卷: a chapter opens here."""
    entries: tuple[tuple[int, int, str], ...]
    """The entries of a list in its text — each from a line that opens with the name of a place of worship
    (ending in one of :attr:`Lexicon.finals`) before a colon or a full-width space, or from a name of one
    followed by its note in 【】 (:data:`_NOTED_ENTRY`), to the next entry — as (start, end, the name's
    key)."""
    after_gap: bool = False
    """It starts a page that follows a page not read (it continues what is not in the text)."""


def _heading_line(line: Line) -> bool:
    """A line that may be a heading: short (:data:`dianli.corpus.draft.MAX_HEADING` key characters at most,
    notes in brackets aside) and no sentence outside its notes — 「祀  典 附（校注：原文为“祠典”，今校改为
    “祀典”。）」 is a heading with an editor's note."""
    from dianli.corpus.draft import MAX_HEADING

    return 0 < len(line.key) <= MAX_HEADING and not _STOP.search(_NOTE.sub("", line.text))


def _head_keys(head: str, key: str) -> list[str]:
    """The keys a heading line is matched by: the whole line's, and, for a line listing names parted by
    spaces (「先師廟　兩廡　戟門　櫺星門」, the buildings of a temple), its first name's. A word written with
    spaces between its characters (「廟　　壇」, 「祀  典」) is one word (its key already joins them)."""
    from dianli.corpus.normalise import fold

    parts = [p for p in _SPACED.split(_NOTE.sub("", head)) if p]
    if len(parts) > 1 and any(len(fold(p)) > 1 for p in parts):
        first = fold(parts[0])
        if len(first) >= 2 and first != key:
            return [key, first]
    return [key]


def _line_begin(text: str, offset: int) -> int:
    return text.rfind("\n", 0, offset) + 1


def blocks(text: str, lex: Lexicon, breaks: Sequence[int] = ()) -> tuple[Block, ...]:
    """The blocks of a work's text (module docstring): cut at every heading line that is not in a table
    of contents, and at each offset of ``breaks`` (where a page follows a page that was not read: what
    stands there continues a block and a chapter whose head is not in the text)."""
    from dianli.corpus.draft import candidates, table_of_contents, text_lines
    from dianli.corpus.normalise import fold

    lines = text_lines(text)
    short = [_heading_line(line) for line in lines]
    chapter_lines = {
        i for i, line in enumerate(lines) if short[i] and _CHAPTER.search(_NOTE.sub("", line.text))
    }
    gaps = {next((i for i, line in enumerate(lines) if line.start >= b), len(lines)) for b in breaks}
    toc = table_of_contents(lines, candidates(lines, lex.headings))
    # a chapter's title opening a list, or opening a page after pages not read (八閩通志's 「卷之五十八」
    # after the contents of page 1), is no entry of it
    toc -= {i for i in chapter_lines if i - 1 not in toc or i in gaps}
    # a short line between two lines of a table of contents is one of them (the run's last entry, when
    # the run is followed by the same list written on one line)
    toc |= {
        i
        for i in range(1, len(lines) - 1)
        if short[i] and i - 1 in toc and i + 1 in toc and i not in chapter_lines
    }
    heads = [i for i in range(len(lines)) if i not in toc and short[i]]
    cuts: list[list[int]] = []
    for i in heads:
        joined = cuts and cuts[-1][-1] == i - 1 and i not in gaps
        if joined and not (i in chapter_lines and cuts[-1][-1] not in chapter_lines):
            cuts[-1].append(i)  # a run of heading lines is one head
        else:
            cuts.append([i])
    points = sorted([(c[0], c) for c in cuts] + [(i, []) for i in gaps - {c[0] for c in cuts}])
    points = [(i, group) for i, group in points if i < len(lines)]
    found: list[Block] = []
    starts = [0] + [_line_begin(text, lines[i].start) for i, _ in points]
    groups: list[list[int]] = [[]] + [group for _, group in points]
    ends = [*starts[1:], len(text)]
    body_from = [0] + [group[-1] + 1 if group else i for i, group in points]
    body_to = [i for i, _ in points] + [len(lines)]
    after_gap = [False] + [i in gaps for i, _ in points]
    for group, start, end, first, last, gap in zip(
        groups, starts, ends, body_from, body_to, after_gap, strict=True
    ):
        if end <= start:
            continue
        body = [lines[i] for i in range(first, last) if i not in toc]
        heads_at: list[tuple[int, str]] = []
        for index in range(first, last):
            line = lines[index]
            if index in toc:
                continue
            if (match := _ENTRY_HEAD.match(line.text)) is not None:
                heads_at.append((_line_begin(text, line.start), fold(_NOTE.sub("", match["head"]))))
                continue
            for noted in _NOTED_ENTRY.finditer(line.text):  # 「社稷坛【在郡城北…】风云雷雨山川坛【…】」
                at = _line_begin(text, line.start) if noted.start() == 0 else line.start + noted.start()
                heads_at.append((at, fold(noted["head"])))
        heads_at = [(at, name) for at, name in heads_at if name and (name[-1] in lex.finals)]
        entries = [
            (at, heads_at[n + 1][0] if n + 1 < len(heads_at) else end, name)
            for n, (at, name) in enumerate(heads_at)
        ]
        found.append(
            Block(
                start,
                end,
                tuple(lines[i].text for i in group),
                tuple(lines[i].key for i in group),
                "".join(line.key for line in body),
                any(i in chapter_lines for i in group),
                tuple(entries),
                gap,
            )
        )
    return tuple(found)


def heading_match(key: str, lex: Lexicon) -> tuple[str, ...]:
    """The sections or rites a heading's folding key names in the lexicon (as the drafting matches
    headings: the same words, a known heading and at most a few characters more, the same core)."""
    from dianli.corpus.draft import HEADING_SLACK, core

    if not key:
        return ()
    if key in lex.headings:
        return lex.headings[key]
    by_length = _by_length(lex)
    near = next((h for h in by_length if h in key and len(key) - len(h) <= HEADING_SLACK), None)
    if near is not None:
        return lex.headings[near]
    stem = core(key)
    if stem != key and len(stem) >= 2:
        for heading in by_length:
            if core(heading) == stem:
                return lex.headings[heading]
    return ()


@functools.cache
def _sorted_headings(keys: frozenset[str]) -> tuple[str, ...]:
    return tuple(sorted((k for k in keys if len(k) >= 2), key=len, reverse=True))


def _by_length(lex: Lexicon) -> tuple[str, ...]:
    return _sorted_headings(frozenset(lex.headings))


# --- the harvest --------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Passage:
    """A run of the work's text that is taken."""

    start: int
    end: int
    headings: tuple[str, ...]
    reason: str
    """Why: ``heading`` (a known heading), ``content`` (dense in the vocabulary), ``list`` (a list of places
    of worship), ``chapter`` (a ritual chapter taken whole, or a chapter's head)."""


@dataclass(frozen=True)
class Harvest:
    """What the harvest of one work found (picklable: it travels back from a worker)."""

    work: Work
    passages: tuple[Passage, ...]
    seconds: float = 0.0

    @property
    def taken(self) -> int:
        """Characters of the work's text taken."""
        return sum(p.end - p.start for p in self.passages)


def _reason_of(block: Block, text: str, lex: Lexicon, previous_taken: bool) -> str | None:
    bare = len(block.body_key) >= BARE_BODY and density(block.body_key, lex.terms) < HEADING_FLOOR
    for head, whole in zip(block.heads, block.head_keys, strict=True):
        for key in _head_keys(head, whole):
            match = heading_match(key, lex)
            if match and not bare and (any("." not in m for m in match) or previous_taken):
                return "heading"
    full = density(block.body_key, lex.terms)
    if len(block.body_key) >= CONTENT_BODY and full >= BLOCK_DENSITY:
        if density(block.body_key, lex.undated) >= (1 - DATED_SHARE) * full:
            return "content"
    listed = sum(len(_key_of(text[start:end])) for start, end, _ in block.entries)
    if len(block.entries) >= 2 and listed >= WORSHIP_LIST * len(block.body_key):
        return "list"
    return None


def _names_shrine(block: Block, lex: Lexicon) -> bool:
    """Every heading line of the block names a temple: a name and, last (notes aside), a character the
    temples of the rite data end in (:attr:`Lexicon.shrines`) — 「风神庙」, 「真人庙（载「纪略」）」. Two
    characters name a kind of temples (「丛祠」, the shrines of the people), not one; a chapter's title is
    none."""
    from dianli.corpus.normalise import fold

    if block.chapter or not block.heads:
        return False
    keys = [fold(_NOTE.sub("", head)) for head in block.heads]
    return all(len(key) >= SHRINE_NAME and key[-1] in lex.shrines for key in keys)


def _record_kept(key: str, lex: Lexicon) -> bool:
    """Whether a temple's entry whose name is known (or that stands under a heading of its own in a run of
    temples) is kept: unless it is long (:data:`LONG_ENTRY`) and sparse (:data:`LONG_ENTRY_DENSITY`), a
    record of inscriptions and repairs rather than a rite."""
    return len(key) <= LONG_ENTRY or density(key, lex.terms) >= LONG_ENTRY_DENSITY


def _names_chapter(block: Block, lex: Lexicon) -> bool:
    """The title of a chapter is followed by a chapter heading of the state rites (``data/harvest.yaml``):
    「卷之五十八」「壇　壝」."""
    return any(key in lex.chapters for key in block.head_keys[1:])


def _key_of(text: str) -> str:
    from dianli.corpus.normalise import fold

    return fold(text)


def harvest_work(work: Work, lex: Lexicon) -> Harvest:
    """The passages of a work that hold the state rites (module docstring)."""
    started = time.perf_counter()
    breaks = [b.start for a, b in itertools.pairwise(work.pages) if b.number != a.number + 1]
    found = blocks(work.text, lex, breaks)
    reasons: list[str | None] = []
    opened = False  # a block of this chapter was taken under a heading: its sub-sections may follow
    listing = False  # a block was just taken: a list of temples, a heading each, may follow it
    shrine = [_names_shrine(b, lex) for b in found]
    for index, block in enumerate(found):
        if block.chapter or block.after_gap:
            opened = listing = False
        follows = bool(reasons) and reasons[-1] is not None
        reason = _reason_of(block, work.text, lex, follows or opened)
        opened = opened or reason == "heading"
        # a temple under a heading of its own, in a run of them after a block taken (廟祀's 「风神庙」
        # after 「龙神庙」), or one heading between two temples of the run (「嘉荫亭」)
        bridge = index + 1 < len(found) and shrine[index + 1] and not found[index + 1].chapter
        in_list = listing and (shrine[index] or bridge)
        if reason is None and in_list and _record_kept(block.body_key, lex):
            reason = "entry"
        listing = reason is not None or in_list
        if reason == "heading" and len(block.body_key) < MIN_BODY:
            reason = "title" if index + 1 < len(found) else None  # decided by what follows
        reasons.append(reason)
    for index in range(len(found) - 1, -1, -1):  # a title is taken with the block it heads
        if reasons[index] == "title":
            reasons[index] = "heading" if reasons[index + 1] not in (None, "title") else None
    # chapters: a mostly ritual chapter whole, and the head of any chapter something is taken from
    chapters: list[list[int]] = [[]]
    for index, block in enumerate(found):
        if (block.chapter or block.after_gap) and chapters[-1]:
            chapters.append([])
        chapters[-1].append(index)
    for members in chapters:
        size = sum(len(found[i].body_key) + sum(map(len, found[i].head_keys)) for i in members)
        taken = sum(
            len(found[i].body_key) + sum(map(len, found[i].head_keys))
            for i in members
            if reasons[i] is not None
        )
        if not taken:
            continue
        opens = found[members[0]].chapter
        whole = opens and (taken / size >= CHAPTER_SHARE or _names_chapter(found[members[0]], lex))
        # the chapter's head: its title lines, its table of contents, and the first text (the preface)
        head = 0
        while opens and head < len(members) - 1 and len(found[members[head]].body_key) < MIN_BODY:
            head += 1
        for position, i in enumerate(members):
            if reasons[i] is None and (whole or (opens and position <= head)):
                reasons[i] = "chapter"
    spans: list[Passage] = []
    for block, reason in zip(found, reasons, strict=True):
        if reason is None:
            continue
        for start, end in _kept(block, work.text, lex, reason):
            spans.append(Passage(start, end, block.heads, reason))
    return Harvest(work, _merged(spans), time.perf_counter() - started)


def _kept(block: Block, text: str, lex: Lexicon, reason: str) -> list[tuple[int, int]]:
    """The spans of a taken block: its entries left out that name no known heading and are not dense in
    the vocabulary, or are long (records rather than rites) and sparse; a list none of whose entries
    passes gives nothing."""
    if reason == "chapter":
        return [(block.start, block.end)]
    from dianli.corpus.normalise import fold

    kept: list[tuple[int, int]] = []
    at = block.start
    entries = 0
    for start, end, name in block.entries:
        key = fold(text[start:end])
        if heading_match(name, lex):
            keep = _record_kept(key, lex)
        else:
            keep = density(key, lex.terms) >= ENTRY_DENSITY
        if keep:
            entries += 1
            continue
        if start > at:
            kept.append((at, start))
        at = end
    if block.end > at:
        kept.append((at, block.end))
    return kept if entries or reason != "list" else []


def _merged(spans: list[Passage]) -> tuple[Passage, ...]:
    merged: list[Passage] = []
    for span in sorted(spans, key=lambda s: s.start):
        if merged and span.start <= merged[-1].end:
            last = merged[-1]
            heads = last.headings + tuple(h for h in span.headings if h not in last.headings)
            merged[-1] = Passage(last.start, max(last.end, span.end), heads, last.reason)
        else:
            merged.append(span)
    return tuple(merged)


# --- the transcribed file -----------------------------------------------------------------------------

MADE_BY = "dianli harvest"
_UNSAFE_MARK = re.compile(r"[\[\]\n\r]")


def file_name(title: str) -> str:
    """The transcribed file's name for a work: its title in pinyin, latin letters only (the witness id
    ``dianli ingest --drafts`` makes from it), ``.txt``."""
    from pypinyin import lazy_pinyin

    latin = "".join(lazy_pinyin(title, errors="ignore"))
    slug = re.sub(r"[^a-z0-9]+", "", latin.lower())
    if not slug:
        slug = "work" + "".join(f"{ord(c):x}" for c in title)[:24]
    return f"{slug}.txt"


def _omitted(text: str, start: int, end: int, page: int | None) -> str:
    """The ``[OMITTED: …]`` mark of the material from ``start`` to ``end`` (of one page, if given): its
    headings and its length."""
    from dianli.corpus.draft import text_lines

    part = text[start:end]
    heads = [line.text for line in text_lines(part) if line.short]
    shown = list(dict.fromkeys(_UNSAFE_MARK.sub(" ", h).strip() for h in heads))
    named = ", ".join(shown[:SHOWN_HEADINGS])
    if len(shown) > SHOWN_HEADINGS:
        named += f" … ({len(shown) - SHOWN_HEADINGS} more headings)"
    size = len("".join(part.split()))
    what = f"{named} — " if named else ""
    where = f"page {page}: " if page is not None else ""
    return (
        f"[OMITTED: {where}{what}{size:,} characters left out by {MADE_BY}: no heading of the state rites "
        "and little of their vocabulary]"
    )


def _gap_marks(work: Work, start: int, end: int) -> list[str]:
    """The marks of the material left out from ``start`` to ``end``, one for each page it covers."""
    cuts = sorted({start, end, *(p.start for p in work.pages if start < p.start < end)})
    marks = []
    for a, b in itertools.pairwise(cuts):
        if work.text[a:b].strip():
            page = next((p.number for p in work.pages if p.start <= a < p.end + 1), None)
            marks.append(_omitted(work.text, a, b, page) + "\n")
    return marks


def _pages_of(work: Work, start: int, end: int) -> list[PageSpan]:
    return [p for p in work.pages if p.start < end and start < p.end]


def transcribed_file(result: Harvest, lex: Lexicon, today: datetime.date | None = None) -> str:
    """The harvest of a work as a transcribed file (module docstring); ``today`` dates it."""
    work = result.work
    day = (today or datetime.date.today()).isoformat()
    taken = [p for p in result.passages]
    used = [p for p in work.pages if any(p.start < q.end and q.start < p.end for q in taken)]
    if work.pages:
        commits = sorted({p.commit for p in used} or {p.commit for p in work.pages})
        repos = sorted({p.repository for p in used} or {p.repository for p in work.pages})
        source = f"GitHub repo {', '.join(repos)}, commit {', '.join(commits)}, paths " + ", ".join(
            p.path for p in used
        )
        read = ", ".join(str(p.number) for p in work.pages)
        where = f"page{'s' if len(work.pages) > 1 else ''} {read} of {work.total_pages} read"
    else:
        source = f"the plain-text file {Path(work.file).name}"
        where = "the whole file read"
    characters = len("".join(work.text.split()))
    kept = sum(len("".join(work.text[p.start : p.end].split())) for p in taken)
    headings = list(dict.fromkeys(h for p in taken for h in p.headings))
    lines = [
        f"SOURCE: {source}",
        f"WORK: {work.title} — harvested by {MADE_BY} on {day}: {len(taken)} passage(s), {kept:,} of "
        f"{characters:,} characters ({where})",
        "NOTE: text as stored in the source (its script, not converted); the passages taken verbatim, each "
        "run of text left out between them marked [OMITTED: …] with its headings",
        "SECTIONS: "
        + (
            ", ".join(_UNSAFE_MARK.sub(" ", h).strip() for h in headings)
            or "none (the text taken has no heading of its own)"
        ),
        "=====",
    ]
    out: list[str] = []
    at = 0
    for passage in taken:
        out.extend(_gap_marks(work, at, passage.start))
        out.append(work.text[passage.start : passage.end])
        if not out[-1].endswith("\n"):
            out.append("\n")
        at = passage.end
    out.extend(_gap_marks(work, at, len(work.text)))
    return "\n".join(lines) + "\n" + "".join(out)


# --- many works, in parallel --------------------------------------------------------------------------


@dataclass(frozen=True)
class WorkResult:
    """One work harvested (picklable): its title, the file written for it, the figures."""

    title: str
    name: str
    """The transcribed file's name (:func:`file_name`)."""
    text: str
    """The transcribed file (empty when nothing was found)."""
    characters: int
    taken: int
    passages: int
    pages: int
    seconds: float


@dataclass(frozen=True)
class HarvestRun:
    """Every work of the sources harvested, with the wall time and the workers used."""

    scheduler: str
    workers: int
    seconds: float
    results: tuple[WorkResult, ...]


ProgressHook = Callable[[str], None]


def _calls(works: list[Work]) -> list[tuple[str, tuple[Any, ...]]]:
    """One task per work: its key and its work (the lexicon and the day are shared: :mod:`dianli.parallel`)."""
    return [(f"harvest-{i}", (w,)) for i, w in enumerate(works)]


def _done(progress: ProgressHook | None) -> parallel.Done | None:
    return None if progress is None else lambda result: progress(result.title)


def harvest_one(work: Work, lex: Lexicon, today: datetime.date) -> WorkResult:
    """Harvest one work: the task each worker runs (the lexicon built once, in the caller)."""
    result = harvest_work(work, lex)
    text = transcribed_file(result, lex, today) if result.passages else ""
    return WorkResult(
        work.title,
        file_name(work.title),
        text,
        len("".join(work.text.split())),
        sum(len("".join(work.text[p.start : p.end].split())) for p in result.passages),
        len(result.passages),
        len(work.pages),
        result.seconds,
    )


def harvest_sources(
    paths: Sequence[Path],
    *,
    scheduler: str | None = None,
    workers: int | None = None,
    progress: ProgressHook | None = None,
    leave_out: str | None = None,
    today: datetime.date | None = None,
    connect_timeout_s: float = 10.0,
    counted: Callable[[int], None] | None = None,
) -> HarvestRun:
    """Harvest every work of the sources (:func:`load_works`) in parallel with Dask, one task per work: by
    default on local processes (``workers``, default the machine's cores), with ``scheduler`` on a
    ``dask.distributed`` cluster. The lexicon is built once here and shared with every task. ``counted`` is
    told how many works there are once they are read; ``progress`` each work's title as it is done."""
    works = load_works(paths)
    if counted is not None:
        counted(len(works))
    names: dict[str, str] = {}
    for work in works:
        name = file_name(work.title)
        if name in names and names[name] != work.title:
            raise DianliError(
                f"the works 「{names[name]}」 and 「{work.title}」 would both be written as {name}; accepted: "
                "sources whose titles differ in their reading (harvest one of them apart)"
            )
        names[name] = work.title
    lex = lexicon(leave_out)
    day = today or datetime.date.today()
    start = time.perf_counter()
    if len(works) == 1 and not scheduler:  # one work: no pool to start
        results = [harvest_one(works[0], lex, day)]
        if progress is not None:
            progress(works[0].title)
        used, label = 1, "this process"
    elif scheduler:
        shared = {"lex": lex, "today": day}
        results, used = parallel.on_cluster(
            scheduler, harvest_one, _calls(works), _done(progress), connect_timeout_s, shared
        )
        label = f"dask.distributed at {scheduler}"
    else:
        used = max(1, min(workers or os.cpu_count() or 1, len(works)))
        shared = {"lex": lex, "today": day}
        results = parallel.on_processes(harvest_one, _calls(works), used, _done(progress), shared)
        label = "local processes"
    order = {w.title: i for i, w in enumerate(works)}
    ordered = tuple(sorted(results, key=lambda r: order[r.title]))
    return HarvestRun(label, used, time.perf_counter() - start, ordered)


# --- measured against a curator's extent --------------------------------------------------------------


@dataclass(frozen=True)
class Extent:
    """The harvested extent of a work against a curator's (characters of the folding key)."""

    curated: int
    """Key characters of the work a curator took (found in the work's text)."""
    harvested: int
    """Key characters harvest took."""
    both: int
    """Key characters both took."""

    @property
    def recall(self) -> float:
        """Share of the curated chapter that harvest found."""
        return self.both / self.curated if self.curated else 1.0

    @property
    def precision(self) -> float:
        """Share of what harvest took that the curator took too."""
        return self.both / self.harvested if self.harvested else 1.0


def _keyed(text: str) -> tuple[str, list[int]]:
    """The folding key of ``text`` and, for each key character, its offset in ``text``."""
    from dianli.corpus.normalise import fold_char, is_key_char

    key: list[str] = []
    where: list[int] = []
    for offset, char in enumerate(text):
        if is_key_char(char):
            key.append(fold_char(char))
            where.append(offset)
    return "".join(key), where


def curated_positions(work_text: str, curated_body: str) -> set[int]:
    """The key positions of ``work_text`` that a curated transcription of it holds: each run of the curated
    text between its editorial marks, line by line, found in order on the folding key."""
    from dianli.corpus.draft import witness_text

    key, _ = _keyed(work_text)
    found: set[int] = set()
    at = 0
    for run in witness_text(curated_body).split("。"):
        needle, _ = _keyed(run)
        if len(needle) < 2:
            continue
        hit = key.find(needle, at)
        if hit < 0:
            hit = key.find(needle)
        if hit >= 0:
            found.update(range(hit, hit + len(needle)))
            at = hit + len(needle)
    return found


def measure(result: Harvest, curated_body: str) -> Extent:
    """The harvest of a work against the body of its curated transcription (what a curator took)."""
    from bisect import bisect_left

    key, where = _keyed(result.work.text)
    curated = curated_positions(result.work.text, curated_body)
    harvested: set[int] = set()
    for passage in result.passages:
        harvested.update(range(bisect_left(where, passage.start), bisect_left(where, passage.end)))
    del key
    return Extent(len(curated), len(harvested), len(curated & harvested))
