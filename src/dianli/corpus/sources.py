"""Where a fact comes from: a quotation of a witness, a labelled assumption, or an outside source.

These are the shapes the corpus data files use (witness manifests, the variant table). They name a
witness by id only: the lowest layer cannot resolve a quote while it is still reading the manifests, so
the ids are checked when the manifests load and the quotes resolve through :class:`dianli.corpus.cite.Citation`.

Everything that is not a witness — a statute, the 會典, a book, an encyclopaedia, a news report, a forum
post — is an *outside source*: one registry (``data/outside_sources.yaml``) gives each an id, its work,
juan and URL, and two grades (:class:`SourceKind`, what the work is; :class:`CopyKind`, how its text was
read here). The data names an outside source by id with the exact words (:class:`OutsideRef`).
"""

from __future__ import annotations

import functools
from enum import StrEnum
from urllib.parse import unquote

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

from dianli.datafile import load_model
from dianli.errors import DataError, UnknownValueError


class WitnessCite(BaseModel):
    """A quotation: the witness id, the exact words, and optionally the section to look in."""

    model_config = ConfigDict(frozen=True, extra="forbid", defer_build=True)

    witness: str = Field(min_length=1)
    quote: str = Field(min_length=1)
    section: str | None = None

    @property
    def text(self) -> str:
        where = f" ({self.section})" if self.section else ""
        return f"{self.witness}{where}: 「{self.quote}」"


class Source(BaseModel):
    """Exactly one of ``cite`` (a witness says so) or ``assumption`` (why the value is taken as it is)."""

    model_config = ConfigDict(frozen=True, extra="forbid", defer_build=True)

    cite: WitnessCite | None = None
    assumption: str | None = Field(default=None, min_length=1)

    @model_validator(mode="after")
    def _one_source(self) -> Source:
        if (self.cite is None) == (self.assumption is None):
            raise ValueError("give exactly one of 'cite' (a quotation) or 'assumption' (the reason)")
        return self

    @property
    def text(self) -> str:
        """The source in words: ``witness (section): 「quote」`` or ``assumption: …``."""
        if self.cite is not None:
            return self.cite.text
        return f"assumption: {self.assumption}"


# --- outside sources: everything the data relies on that is not a witness -------------------------

OUTSIDE_SOURCES_FILE = "data/outside_sources.yaml"


class SourceKind(StrEnum):
    """What an outside work is (its grade), strongest first."""

    PRIMARY = "primary"
    EDITION = "edition"
    SCHOLARLY = "scholarly"
    REFERENCE = "reference"
    NEWS = "news"
    WEB_SUMMARY = "web-summary"

    @property
    def label(self) -> str:
        return _KIND_LABELS[self]

    @property
    def rank(self) -> int:
        """0 for a primary text … 5 for a web summary."""
        return list(SourceKind).index(self)


_KIND_LABELS: dict[SourceKind, str] = {
    SourceKind.PRIMARY: "primary Qing text",
    SourceKind.EDITION: "later edition or transcription of a primary text",
    SourceKind.SCHOLARLY: "scholarly work",
    SourceKind.REFERENCE: "reference work",
    SourceKind.NEWS: "news report",
    SourceKind.WEB_SUMMARY: "web summary",
}


class CopyKind(StrEnum):
    """How the text of an outside source was read here."""

    PRINT = "print"
    SCAN = "scan"
    DIGITAL_LIBRARY = "digital-library"
    PUBLISHER = "publisher"
    MIRROR = "mirror"
    FORUM = "forum"

    @property
    def label(self) -> str:
        return _COPY_LABELS[self]


_COPY_LABELS: dict[CopyKind, str] = {
    CopyKind.PRINT: "read in print",
    CopyKind.SCAN: "read in a scan of the edition",
    CopyKind.DIGITAL_LIBRARY: "read in a digital library",
    CopyKind.PUBLISHER: "read on its publisher's page",
    CopyKind.MIRROR: "read on a mirror or copy site",
    CopyKind.FORUM: "read in a forum post",
}

STRONG_KINDS = frozenset({SourceKind.PRIMARY, SourceKind.EDITION, SourceKind.SCHOLARLY})
"""Kinds that can carry a rule on their own (when not read on a mirror or in a forum)."""
WEAK_COPIES = frozenset({CopyKind.MIRROR, CopyKind.FORUM})


class OutsideSource(BaseModel):
    """One outside source of the registry: what the work is, where its text was read, and its grade."""

    model_config = ConfigDict(frozen=True, extra="forbid", defer_build=True)

    id: str = Field(min_length=1, pattern=r"^[a-z0-9][a-z0-9-]*$")
    title: str = Field(min_length=1)
    author: str | None = None
    work: str | None = None
    juan: str | None = None
    url: str | None = None
    also_at: tuple[str, ...] = ()
    locator: str | None = None
    kind: SourceKind
    read: CopyKind
    note: str | None = None
    best_available: str | None = None
    """For a text read on a mirror or in a forum: what was searched for a better copy, and not found."""

    @model_validator(mode="after")
    def _findable(self) -> OutsideSource:
        if self.url is None and self.locator is None:
            raise ValueError("give url or locator (where the quoted copy is)")
        return self

    @property
    def where(self) -> str:
        """Where the quoted copy is: its URL, or the locator (a repository file …)."""
        return " ".join((self.url or self.locator or "").split())

    @property
    def addresses(self) -> tuple[str, ...]:
        """Every address of the source: its URL, its other addresses, the URLs in its locator."""
        found = [self.url, *self.also_at] if self.url else list(self.also_at)
        found += [w for w in (self.locator or "").split() if w.startswith(("http://", "https://"))]
        return tuple(dict.fromkeys(a for a in found if a))

    @property
    def grade(self) -> str:
        """``primary Qing text, read on a mirror or copy site``."""
        return f"{self.kind.label}, {self.read.label}"

    @property
    def weak(self) -> bool:
        """A web summary, or any text read on a mirror site or in a forum post."""
        return self.kind is SourceKind.WEB_SUMMARY or self.read in WEAK_COPIES

    @property
    def strong(self) -> bool:
        """A primary, edited or scholarly text read in a trustworthy copy."""
        return self.kind in STRONG_KINDS and not self.weak

    @property
    def heading(self) -> str:
        """The work in words: ``皇朝文獻通考 卷二百六十四 …`` or the title."""
        parts = [self.title] + ([self.juan] if self.juan and self.juan not in self.title else [])
        return " ".join(parts)


class _Registry(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid", defer_build=True)

    sources: tuple[OutsideSource, ...] = Field(min_length=1)


@functools.cache
def outside_sources() -> dict[str, OutsideSource]:
    """The registry of outside sources, by id (``corpus/data/outside_sources.yaml``)."""
    registry = load_model("corpus", OUTSIDE_SOURCES_FILE, _Registry)
    out: dict[str, OutsideSource] = {}
    for i, source in enumerate(registry.sources):
        if source.id in out:
            raise DataError(f"dianli/corpus/{OUTSIDE_SOURCES_FILE}: sources.{i}: duplicate id {source.id!r}")
        out[source.id] = source
    return out


def outside_source(source_id: str) -> OutsideSource:
    """One outside source by id; an unknown id is an :class:`UnknownValueError` listing the ids."""
    registry = outside_sources()
    if source_id not in registry:
        raise UnknownValueError("outside source", source_id, sorted(registry), "see `dianli sources`")
    return registry[source_id]


class OutsideRef(BaseModel):
    """A quotation of an outside source: its registry id, the exact words, optionally the page's section."""

    model_config = ConfigDict(frozen=True, extra="forbid", defer_build=True)

    source: str = Field(min_length=1)
    quote: str = Field(min_length=1)
    section: str | None = None

    @field_validator("source")
    @classmethod
    def _known(cls, value: str) -> str:
        if value not in outside_sources():
            accepted = ", ".join(sorted(outside_sources()))
            raise ValueError(f"unknown outside source {value!r}; accepted: {accepted}")
        return value

    @property
    def entry(self) -> OutsideSource:
        return outside_sources()[self.source]

    @property
    def text(self) -> str:
        """``title juan (section): 「quote」 [grade] <url>`` — one line for readers."""
        src = self.entry
        where = f" ({self.section})" if self.section else ""
        return f"{src.heading}{where}: 「{self.quote}」 [{src.grade}] <{src.where}>"


def source_mention(source_id: str) -> str:
    """A short mention of a registry source for prose held in code: heading, grade and where.

    Written into a message, it makes the grade of the source visible with the source itself."""
    src = outside_source(source_id)
    return f"{src.heading} [{src.grade}; `dianli sources {src.id}`]"


Needles = dict[str, tuple[tuple[str, str], ...]]
"""Strings to look for, grouped: the group's common beginning → (the string, the source it names)."""


def _grouped(needles: list[tuple[str, str]]) -> Needles:
    """``needles`` grouped by their first four characters, each group under the beginning its strings
    share (the scheme of the addresses, ``dianli sources ``): a text is searched once per group, for
    that beginning."""
    groups: dict[str, list[tuple[str, str]]] = {}
    for needle, source_id in needles:
        groups.setdefault(needle[:4], []).append((needle, source_id))
    out: Needles = {}
    for group in groups.values():
        first, last = min(n for n, _ in group), max(n for n, _ in group)
        shared = next((i for i, (a, b) in enumerate(zip(first, last, strict=False)) if a != b), len(first))
        out[first[:shared]] = tuple(group)
    return out


@functools.cache
def source_needles() -> tuple[Needles, Needles]:
    """What :func:`sources_mentioned` looks for, made once from the registry: the mentions
    (``dianli sources ID`` and its closing backtick), looked for as written, and every address of
    every source, unquoted, looked for in the unquoted text."""
    mentions = [(f"dianli sources {s.id}`", s.id) for s in outside_sources().values()]
    addresses = [(unquote(a), s.id) for s in outside_sources().values() for a in s.addresses]
    return _grouped(mentions), _grouped(addresses)


def _found_in(text: str, needles: Needles, found: set[str]) -> None:
    """Add to ``found`` the source of every needle ``text`` holds: only where a group's beginning
    stands is a needle compared (a few places in a booklet, not every source over the whole text)."""
    for start, group in needles.items():
        at = text.find(start)
        while at >= 0:
            found.update(source_id for needle, source_id in group if text.startswith(needle, at))
            at = text.find(start, at + 1)


def sources_mentioned(text: str) -> tuple[OutsideSource, ...]:
    """The registered outside sources a text names — by one of their addresses (written with their
    characters or percent-encoded: both sides are unquoted), or as ``dianli sources ID``
    (:func:`source_mention`) — strongest grade first (the appendix of a document)."""
    mentions, addresses = source_needles()
    found: set[str] = set()
    _found_in(text, mentions, found)
    _found_in(unquote(text), addresses, found)
    registry = outside_sources()
    return tuple(sorted((registry[i] for i in found), key=lambda s: (s.kind.rank, s.weak, s.id)))
