"""Drafting a witness from a transcribed gazetteer file: the manifest a curator would start from.

A transcribed chapter (as in ``../shared/gazetteers/``) opens with a header — ``SOURCE:``, ``WORK:``,
``NOTE:``, ``SECTIONS:`` lines, then a line of ``=====`` — and holds the text as transcribed. From the file
alone, a draft manifest is derived:

- ``id`` from the file name (lower case, ``_`` → ``-``), ``title`` and ``short_title`` from the ``WORK:`` line,
  ``edition`` from the ``SOURCE:`` and ``NOTE:`` lines;
- ``compiled.year``: the latest date the text records (:func:`dianli.corpus.dated_events.extract_dates`),
  labelled an assumption quoting it (a chapter is compiled after the last date it records);
- ``script`` by OpenCC (a text that traditional → simplified conversion changes is traditional),
  ``punctuated`` when it holds 。 or ，;
- ``governs``: the unit whose name the title holds (the longest place name found in it), from the
  compiled year, labelled an assumption;
- ``anchors``: the lines of the text that are headings of known sections. The heading lexicon is data: every
  section title of ``sections.yaml`` and every heading the existing manifests anchor (so each curated
  witness teaches the next); a line is a heading when its folding key is a lexicon heading, or holds one
  with at most :data:`HEADING_SLACK` more characters. A heading shared by several sections (陳設祭物圖)
  goes to the one inside the top-level section open at that point.

Every choice is marked ``draft`` in the manifest's comments and in the assumptions: a draft is a start for
curation, never a curated witness. :func:`measure_anchors` compares the drafted anchors of a curated witness
(its own manifest left out of the lexicon) with its hand anchors.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from dianli.corpus.normalise import fold
from dianli.corpus.tree import section_defs
from dianli.corpus.witnesses import MANIFEST_FILE, manifest
from dianli.datafile import read_transcription
from dianli.errors import DataError, DianliError, UnknownValueError

HEADING_SLACK = 3
"""A line may hold a known heading plus this many characters of its own (祭社稷壇 for 社稷壇)."""
MAX_HEADING = 14
"""Folding-key characters beyond which a line is running text, not a heading."""
HEADER_FIELDS = ("SOURCE", "WORK", "NOTE", "SECTIONS")
_RULE = re.compile(r"^=====+\s*$")


@dataclass(frozen=True)
class Header:
    """The transcriber's header of a gazetteer file."""

    fields: dict[str, str]
    body_start: int
    """Offset of the text after the ``=====`` line (0 when the file has no header)."""


def read_header(text: str) -> Header:
    """The ``SOURCE:``/``WORK:``/``NOTE:``/``SECTIONS:`` lines before the ``=====`` line, if any."""
    fields: dict[str, str] = {}
    offset = 0
    for line in text.splitlines(keepends=True):
        stripped = line.strip().lstrip("\ufeff")
        if _RULE.match(stripped):
            return Header(fields, offset + len(line))
        key, sep, value = stripped.partition(": ")
        if not sep or key not in HEADER_FIELDS:
            break
        fields[key] = value.strip()
        offset += len(line)
    return Header({}, 0)


@functools.cache
def _lexicon(leave_out: str | None) -> dict[str, tuple[str, ...]]:
    """Folded heading → the section ids it heads (sections.yaml titles and the manifests' anchors)."""
    found: dict[str, dict[str, None]] = {}
    for section_id, definition in section_defs().items():
        found.setdefault(fold(definition.title), {})[section_id] = None
    for info in manifest():
        if info.id == leave_out:
            continue
        for section_id, anchor in info.anchors:
            heading = anchor.split("|", 1)[0].lstrip("…")
            if heading and heading != "=":
                found.setdefault(fold(heading), {})[section_id] = None
    return {k: tuple(v) for k, v in found.items() if k}


def _choose(candidates: tuple[str, ...], open_top: str | None) -> str:
    inside = [c for c in candidates if open_top and c.startswith(open_top + ".")]
    tops = [c for c in candidates if "." not in c]
    return (inside or tops or list(candidates))[0]


def find_anchors(text: str, leave_out: str | None = None) -> tuple[tuple[str, str], ...]:
    """The anchors of a text, in document order: (section id, the heading as the text writes it)."""
    lexicon = _lexicon(leave_out)
    by_length = sorted(lexicon, key=len, reverse=True)
    anchors: list[tuple[str, str]] = []
    seen: set[str] = set()
    open_top: str | None = None
    for written in _candidates(text[read_header(text).body_start :]):
        key = fold(written)
        if not key or len(key) > MAX_HEADING:
            continue
        match = lexicon.get(key)
        if match is None:
            near = next((h for h in by_length if h in key and len(key) - len(h) <= HEADING_SLACK), None)
            match = lexicon[near] if near is not None else None
        if match is None:
            continue
        section = _choose(match, open_top)
        if section in seen:
            continue
        seen.add(section)
        anchors.append((section, written))
        open_top = section.split(".")[0]
    return tuple(anchors)


_NOTE = re.compile(r"[（(][^）)]*[）)]")
_SENTENCE_END = re.compile(r"(?<=[。！？])")


def _candidates(body: str) -> Iterator[str]:
    """Where a heading may stand, in text order: a whole short line; and the words before the first colon
    of a line or of a sentence (「社稷坛之祭：每岁…」, 「旗纛庙（未有特建）：每岁…」), a note in brackets
    dropped."""
    for line in body.splitlines():
        stripped = line.strip().strip("\u3000").strip()
        if not stripped:
            continue
        yield stripped
        for sentence in _SENTENCE_END.split(stripped):
            head, colon, _ = sentence.strip().partition("：")
            if colon:
                yield _NOTE.sub("", head).strip()


@dataclass(frozen=True)
class AnchorMeasure:
    """Drafted anchors of a curated witness against its hand anchors (sections found, by id)."""

    witness: str
    hand: int
    drafted: int
    correct: int

    @property
    def recall(self) -> float:
        return self.correct / self.hand if self.hand else 1.0

    @property
    def precision(self) -> float:
        return self.correct / self.drafted if self.drafted else 1.0


def measure_anchors(witness: str) -> AnchorMeasure:
    """Draft the anchors of a curated witness with its own manifest left out of the lexicon, and count the
    sections it finds that its hand anchors also open (a section opened by ``=`` or mid-text counts too)."""
    info = next((i for i in manifest() if i.id == witness), None)
    if info is None:
        raise UnknownValueError("witness", witness, [i.id for i in manifest()])
    text = "\n".join((info.folder / f.file).read_text(encoding="utf-8") for f in info.files)
    hand = {s for s, _ in info.anchors}
    drafted = {s for s, _ in find_anchors(text, leave_out=witness)}
    return AnchorMeasure(witness, len(hand), len(drafted), len(hand & drafted))


def _slug(stem: str) -> str:
    slug = re.sub(r"[^a-z0-9]+", "-", stem.lower()).strip("-")
    if not slug:
        raise UnknownValueError(
            "file name", stem, ["a name with latin letters or digits (the witness id is made from it)"]
        )
    return slug


def _script(body: str) -> str:
    from opencc import OpenCC

    converted = OpenCC("t2s").convert(body)
    changed = sum(1 for a, b in zip(body, converted, strict=False) if a != b)
    return "traditional" if changed > len(body) / 200 else "simplified"


def _governed_place(title: str) -> str | None:
    from dianli.places.places import get_place, place_names

    names = sorted((n for n in place_names() if len(n) >= 2 and n in title), key=len, reverse=True)
    for name in names:
        try:
            return get_place(name).id
        except UnknownValueError:
            continue
    return None


def draft_manifest(path: Path) -> dict[str, Any]:
    """The draft manifest of one transcribed gazetteer file (see the module docstring)."""
    from dianli.corpus.dated_events import extract_dates

    if not path.is_file():
        raise UnknownValueError("gazetteer file", str(path), ["a transcribed text file (UTF-8)"])
    text = read_transcription(path)
    header = read_header(text)
    body = text[header.body_start :]
    if not body.strip():
        raise DataError(
            f"{path}: a header but no text after it; accepted: a transcribed text under its header"
        )
    work = header.fields.get("WORK", "")
    title = re.sub(r"\s+", " ", _NOTE.sub("", work.split(" — ")[0])).strip() or path.stem
    short = re.split(r"[\s(（]", title, maxsplit=1)[0] or title
    dated = extract_dates(body)
    if not dated:
        raise UnknownValueError(
            "gazetteer file", str(path), ["a text that records at least one reign date (its compiled year)"]
        )
    latest = max(dated, key=lambda e: e.gregorian_year)
    place = _governed_place(title)
    edition = (
        " ".join(f"{k}: {header.fields[k]}" for k in ("WORK", "SOURCE", "NOTE") if k in header.fields)
        or f"transcribed file {path.name}"
    )
    data: dict[str, Any] = {
        "id": _slug(path.stem),
        "title": title,
        "short_title": short,
        "edition": edition,
        "compiled": {
            "year": latest.gregorian_year,
            "assumption": f"draft: the latest date the text records is {latest.chinese_text} "
            f"({latest.gregorian_year}); a chapter is compiled after the last date it records — to be checked",
        },
        "script": _script(body),
        "language": "classical",
        "punctuated": "。" in body or "，" in body,
        "authority": "primary",
        "translation_of": None,
        "base": None,
        "governs": []
        if place is None
        else [
            {
                "place": place,
                "from_year": latest.gregorian_year,
                "assumption": f"draft: the title 「{title}」 names this unit; governs from the compiled year",
            }
        ],
        "fragments": [{"file": path.name, "note": "the file as transcribed (draft)"}],
        "anchors": [list(a) for a in find_anchors(text)],
    }
    return data


MANIFEST_COMMENT = """\
# DRAFT manifest written by `dianli ingest` from the transcribed file alone (dianli.corpus.draft): the
# compiled year, the place governed and the anchors are guesses labelled as assumptions — a start for
# curation (docs/adding-a-witness.md), not a curated witness.
"""


DRAFT_BASE = ".drafted.witness.yaml"
"""Beside a drafted manifest: the draft as dianli last wrote it, the base of a merge with a curator's edits."""
NEW_DRAFT = "witness.new-draft.yaml"
"""Beside a curated manifest whose edits conflict with a new draft: the new draft, for the curator to merge."""


@dataclass(frozen=True)
class DraftWritten:
    """What drafting one file did: its folder, and how its manifest met a curator's edits (if at all)."""

    folder: Path
    merged: bool = False
    """The curator's edited manifest was merged with the new draft (no line changed by both)."""
    conflicts: tuple[tuple[int, int], ...] = ()
    """Lines (first, last) of the curator's manifest that the new draft changes otherwise: the manifest
    was kept as the curator left it and the new draft written as :data:`NEW_DRAFT`."""


def draft_folder(path: Path, into: Path, force: bool = False) -> Path:
    """Write the draft witness folder of a transcribed file under ``into`` (its manifest and a copy of the
    text, unchanged) and return the folder (see :func:`write_draft`)."""
    return write_draft(path, into, force).folder


def write_draft(path: Path, into: Path, force: bool = False) -> DraftWritten:
    """Write the draft witness folder of a transcribed file under ``into``, never losing a curator's work
    (:mod:`dianli.written`): a manifest the curator edited since dianli drafted it is merged with the new
    draft line by line (:func:`dianli.merge3.merge3`, against the draft dianli last wrote), and where both
    changed the same lines it is kept and the new draft written beside it; a copied text the curator
    changed is refused (:class:`dianli.written.ForeignFileError`). ``force`` replaces both."""
    import yaml

    from dianli import written
    from dianli.merge3 import merge3

    data = draft_manifest(path)
    folder: Path = into / str(data["id"])
    folder.mkdir(parents=True, exist_ok=True)
    copy = folder / path.name
    source = path.read_bytes()
    if not (copy.is_file() and not copy.is_symlink() and copy.read_bytes() == source):
        written.write(copy, source, force)
    body = yaml.safe_dump(data, allow_unicode=True, sort_keys=False, width=100)
    text = MANIFEST_COMMENT + body
    target, base = folder / MANIFEST_FILE, folder / DRAFT_BASE
    outcome = DraftWritten(folder)
    if force or written.why_foreign(target) is None:
        written.write(target, text.encode("utf-8"), force)
    else:
        if target.is_symlink() or not target.is_file():
            written.check([target])  # a link or a folder: refused, named
        ours = target.read_text(encoding="utf-8")
        before = base.read_text(encoding="utf-8") if written.is_own(base) else ""
        merged = merge3(before.splitlines(True), ours.splitlines(True), text.splitlines(True))
        if merged.clean:
            merged_text = "".join(merged.lines).encode("utf-8")  # the curator's work: never recorded as own
            written.write(target, merged_text, force=True, own=False)
            outcome = DraftWritten(folder, merged=True)
        else:
            written.write(folder / NEW_DRAFT, text.encode("utf-8"), force)
            outcome = DraftWritten(folder, conflicts=tuple(merged.conflicts))
    written.write(base, text.encode("utf-8"), force=force or written.is_own(base) or not base.exists())
    return outcome


def check_draft_ids(paths: Sequence[Path]) -> None:
    """Refuse files whose names make one witness id (``a b.txt``, ``a-b.txt``, ``a_b.txt``), naming them."""
    by_id: dict[str, list[Path]] = {}
    for path in paths:
        by_id.setdefault(_slug(path.stem), []).append(path)
    clashes = {k: v for k, v in by_id.items() if len(v) > 1}
    if clashes:
        named = "; ".join(f"{', '.join(p.name for p in v)} → {k}" for k, v in sorted(clashes.items()))
        raise DianliError(
            f"these files would make one witness folder each, but their names give the same witness id: "
            f"{named}; accepted: file names that differ in their latin letters or digits (rename one)"
        )


class DraftConflictError(DianliError):
    """Curated manifests that a new draft changes where the curator changed them too: each kept as the
    curator left it, the new draft beside it (:data:`NEW_DRAFT`)."""

    def __init__(self, conflicts: Sequence[DraftWritten]) -> None:
        self.drafts = list(conflicts)
        named = "; ".join(
            f"{d.folder / MANIFEST_FILE} lines "
            + ", ".join(f"{a}–{b}" if a != b else str(a) for a, b in d.conflicts)
            + f" (new draft: {d.folder / NEW_DRAFT})"
            for d in conflicts
        )
        super().__init__(
            f"kept your edits of {len(conflicts)} manifest(s) that the new draft changes too: {named}; "
            "accepted: merge the new draft into your manifest by hand (then delete it), or --force to "
            "replace your manifest with the new draft"
        )


def write_drafts(paths: Sequence[Path], into: Path, force: bool = False) -> list[DraftWritten]:
    """Draft a witness folder under ``into`` for each of ``paths`` (:func:`write_draft`), after checking
    that no two give one witness id; every folder is written, then a :class:`DraftConflictError` names
    the manifests whose curator's edits conflict with their new draft."""
    check_draft_ids(paths)
    into.mkdir(parents=True, exist_ok=True)
    done = [write_draft(path, into, force) for path in paths]
    conflicts = [d for d in done if d.conflicts]
    if conflicts:
        raise DraftConflictError(conflicts)
    return done
