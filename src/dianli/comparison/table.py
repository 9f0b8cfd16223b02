"""The correspondence table: which witness states which element of the model, where, with which value.

Every row is a :class:`Statement` — one witness stating one element: the element's path in the rite data
(``xianshi.date_rule[xianshi-spring]``), the fact it gives as a value (:mod:`dianli.comparison.values`:
its kind, its slot and its words), the quotation and where it stands in the witness, and its provenance:

* ``cited`` — a citation of the shared rite data (``rites/data/*.yaml``);
* ``read`` — a citation in a witness's own reading (``readings/*.yaml`` of a witness folder), the element
  as that reading gives it;
* ``cited`` also for a citation of the other cited data — the music, the dance, the spring ox, the
  calendar, the manifests — whose element is the domain (``music``) and whose value is its wording;
* ``draft`` — a citation in the reading of a drafted, unreviewed witness (``status: draft``);
* ``aligned`` — an agreeing clause found by the aligner and kept in the witness's ``alignment.yaml``, with
  its score; its value is the element's as the witness's reading gives it where the clause's own words
  state it (:func:`dianli.comparison.values.quote_states`), else its wording only: a bare heading 「社稷壇」
  that agrees with the 社稷 officiant's citation states no officiant.

The table is derived from the data alone, never edited, and kept in the on-disk cache like the other
derived data (:mod:`dianli.cache`). The views — coverage, the comparison of values, the synoptic
collation — read it; so does a caller who wants "who states what" as rows (:meth:`Table.records`).
"""

from __future__ import annotations

import functools
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import asdict, dataclass
from importlib.resources.abc import Traversable
from pathlib import Path
from typing import Any

import yaml
from pydantic import BaseModel

from dianli import cache
from dianli.comparison.values import KINDS, Value, element_names, element_values, facts_in, quote_states
from dianli.corpus.cite import Citation, CitationError, resolve
from dianli.corpus.normalise import fold
from dianli.corpus.witnesses import manifest, witness_ids
from dianli.errors import UnknownValueError
from dianli.rites.load import all_rites
from dianli.rites.model import Element, Part, walk_paths
from dianli.rites.readings import aligned_citations, apply_reading, own_readings, rites_for

NOT_PROCEDURAL_FILE = "not_procedural.yaml"
"""Clauses marked as no procedure (history, commentary): read by coverage, never statements."""
PROVENANCES = ("cited", "read", "aligned", "draft")
"""Where a statement comes from, most trusted first."""


@dataclass(frozen=True, slots=True)
class Statement:
    """One witness stating one element of the model: where, in which words, with which value."""

    witness: str
    rite: str
    element: str
    """The element's path in the rite data (``xianshi.parts[chuxian].steps[3]``)."""
    kind: str
    """The kind of fact (a key of :data:`dianli.comparison.values.KINDS`; ``text`` for wording only)."""
    slot: str
    """The point of the model the value answers (statements of one slot are compared)."""
    value: str
    """The fact in words (二月上丁, 知府, 咸和); for kind ``text`` the quotation's folding key."""
    provenance: str
    quote: str
    section: str
    start: int
    """Offset of the quotation in the witness's reading text (``dianli cite`` shows it)."""
    end: int
    score: float | None = None
    """The aligner's score (0–100) of an ``aligned`` statement."""
    about: str = ""
    """The slot's item in words (正獻官, 東配·籩, 初獻), where the kind alone does not say it."""
    reading: str = ""
    """Whose reading the element path is a path of: ``""`` for the shared rite data (and the other cited
    data), else the witness whose ``readings/*.yaml`` or ``alignment.yaml`` holds it (a reading may quote
    another witness: the statement is that witness's, the path is in this reading)."""

    @property
    def key(self) -> str:
        """The value's folding key: two statements give the same fact when their keys agree."""
        return fold(self.value)


@dataclass(frozen=True)
class Table:
    """All statements, with the lookups the views need."""

    statements: tuple[Statement, ...]

    def __len__(self) -> int:
        return len(self.statements)

    def __iter__(self) -> Iterator[Statement]:
        return iter(self.statements)

    def where(
        self,
        *,
        witness: str | None = None,
        rite: str | None = None,
        kind: str | None = None,
        slot: str | None = None,
        provenance: Iterable[str] | None = None,
    ) -> tuple[Statement, ...]:
        """The statements that match every given criterion."""
        wanted = set(provenance) if provenance is not None else None
        return tuple(
            s
            for s in self.statements
            if (witness is None or s.witness == witness)
            and (rite is None or s.rite == rite)
            and (kind is None or s.kind == kind)
            and (slot is None or s.slot == slot)
            and (wanted is None or s.provenance in wanted)
        )

    def witnesses(self) -> tuple[str, ...]:
        """The witnesses with at least one statement, in corpus order."""
        have = {s.witness for s in self.statements}
        return tuple(w for w in witness_ids() if w in have)

    def spans(self, witness: str) -> tuple[tuple[int, int], ...]:
        """The text spans of a witness that back at least one statement, sorted and merged."""
        spans = sorted((s.start, s.end) for s in self.statements if s.witness == witness)
        merged: list[tuple[int, int]] = []
        for start, end in spans:
            if merged and start <= merged[-1][1]:
                merged[-1] = (merged[-1][0], max(end, merged[-1][1]))
            else:
                merged.append((start, end))
        return tuple(merged)

    def records(self) -> list[dict[str, Any]]:
        """Every statement as a plain record (the columns of :class:`Statement`)."""
        return [asdict(s) for s in self.statements]


def _statements_of(
    witness_filter: str | None,
    reading: str,
    rite_id: str,
    path: str,
    element: Element,
    provenance: str,
    cites: Sequence[Citation],
    scores: dict[str, float],
    names: dict[str, str],
) -> Iterator[Statement]:
    values = element_values(rite_id, path, element, names)
    for cite in (*cites, *_inner_citations(element)):
        if witness_filter is not None and cite.witness != witness_filter:
            continue
        try:
            found = resolve(cite.witness, cite.quote, cite.section)
        except (CitationError, UnknownValueError):
            continue  # an unresolved citation is reported by the checks at load, not counted here
        quoted = (
            values if provenance != "aligned" else tuple(v for v in values if quote_states(v, cite.quote))
        )
        if isinstance(element, Part):  # a part quoted whole states the postures and hymns its words name
            quoted += tuple(
                Value(v.kind, f"{path}.{v.kind}", v.text, names.get(path, ""))
                for v in facts_in(cite.quote)
                if v.kind in ("posture", "hymn")
            )
        for value in quoted or (Value("text", path, fold(cite.quote)),):
            yield Statement(
                witness=cite.witness,
                rite=rite_id,
                element=path,
                kind=value.kind,
                slot=value.slot,
                value=value.text,
                provenance=provenance,
                quote=cite.quote,
                section=found.section.id,
                start=found.text_start,
                end=found.text_end,
                score=scores.get(cite.quote),
                about=value.about,
                reading=reading,
            )


def _wording(
    witness: str,
    rite_id: str,
    path: str,
    provenance: str,
    cites: Sequence[Citation],
    scores: dict[str, float],
) -> Iterator[Statement]:
    for cite in cites:
        try:
            found = resolve(cite.witness, cite.quote, cite.section)
        except (CitationError, UnknownValueError):
            continue
        yield Statement(
            witness=witness, rite=rite_id, element=path, kind="text", slot=path, value=fold(cite.quote),
            provenance=provenance, quote=cite.quote, section=found.section.id, start=found.text_start,
            end=found.text_end, score=scores.get(cite.quote), reading=witness,
        )  # fmt: skip


def _inner_citations(node: BaseModel, top: bool = True) -> Iterator[Citation]:
    """Citations an element holds in parts of it that are not elements themselves (a date rule's related
    days and its time of day, its scope): they state the element too."""
    for name in type(node).model_fields:
        if top and name in ("cite", "cites"):
            continue
        value = getattr(node, name)
        for item in value if isinstance(value, tuple) else (value,):
            if isinstance(item, Citation):
                yield item
            elif isinstance(item, BaseModel) and not isinstance(item, Element):
                yield from _inner_citations(item, top=False)
            elif isinstance(item, dict | list):  # plain data (an override's ``set`` value)
                for witness, quote, section in _quotes(item):
                    yield Citation(witness=witness, quote=quote, section=section)


def _rite_of(path: str) -> str:
    return path.split(".", 1)[0].split("[", 1)[0]


def _aligned_scores(witness: str) -> dict[str, dict[str, float]]:
    """element → quote → score of the witness's ``alignment.yaml``."""
    from dianli.corpus.witnesses import ALIGNMENT_FILE
    from dianli.datafile import load_model_path
    from dianli.rites.readings import AlignmentFile

    info = next(i for i in manifest() if i.id == witness)
    path = info.folder / ALIGNMENT_FILE
    if not path.is_file():
        return {}
    out: dict[str, dict[str, float]] = {}
    for cite in load_model_path(path, AlignmentFile).same:
        out.setdefault(cite.element, {})[cite.quote] = cite.score
    return out


def yaml_files(root: Traversable) -> Iterator[Traversable]:
    """Every YAML file under a folder of the package, depth first."""
    for entry in root.iterdir():
        if entry.is_dir():
            yield from yaml_files(entry)
        elif entry.name.endswith((".yaml", ".yml")):
            yield entry


def _quotes(node: Any) -> Iterator[tuple[str, str, str | None]]:
    """(witness, quote, section) of every citation in plain YAML data: a mapping with ``witness`` and
    ``quote``, and a ``cite`` with ``also_in`` (the same quote in those witnesses too)."""
    if isinstance(node, dict):
        if isinstance(node.get("witness"), str) and isinstance(node.get("quote"), str):
            section = node.get("section")
            yield node["witness"], node["quote"], section if isinstance(section, str) else None
        cite = node.get("cite")
        if (
            isinstance(cite, dict)
            and isinstance(node.get("also_in"), list)
            and isinstance(cite.get("quote"), str)
        ):
            for witness in node["also_in"]:
                yield str(witness), cite["quote"], cite.get("section")
        for value in node.values():
            yield from _quotes(value)
    elif isinstance(node, list):
        for value in node:
            yield from _quotes(value)


def _other_data_files() -> list[tuple[str, Traversable | Path]]:
    """(what it is, file) of every YAML file of the package and of the witness folders that cites the
    witnesses but is not rite data, a reading or an alignment (the music, the dance, the spring ox, the
    calendar, the manifests …); a clause marked not procedural is no statement."""
    from importlib import resources

    from dianli.corpus.witnesses import ALIGNMENT_FILE, reading_files, witness_info
    from dianli.rites.load import rite_files

    skip = {str(p) for p in rite_files()}
    for witness in witness_ids():
        skip.update(str(p) for p in reading_files(witness))
        skip.add(str(witness_info(witness).folder / ALIGNMENT_FILE))
    root = resources.files("dianli")
    out: list[tuple[str, Traversable | Path]] = []
    for path in yaml_files(root):
        if str(path) not in skip and path.name != NOT_PROCEDURAL_FILE:
            out.append((str(path).removeprefix(str(root)).strip("/").split("/")[0], path))
    for witness in witness_ids():
        folder = witness_info(witness).folder
        if str(folder).startswith(str(root)):
            continue  # walked with the package
        out.extend(
            ("corpus", p)
            for p in sorted(folder.glob("*.yaml"))
            if str(p) not in skip and p.name != NOT_PROCEDURAL_FILE
        )
    return out


def _data_statements() -> Iterator[Statement]:
    from dianli.datafile import read_yaml

    known = set(witness_ids())
    for domain, path in _other_data_files():
        try:
            data = read_yaml(path.read_text(encoding="utf-8"))
        except yaml.YAMLError:
            continue  # reported where the file is loaded
        for witness, quote, section in _quotes(data):
            if witness not in known:
                continue
            try:
                found = resolve(witness, quote, section)
            except (CitationError, UnknownValueError):
                continue
            yield Statement(
                witness=witness, rite="", element=domain, kind="text", slot=domain, value=fold(quote),
                provenance="cited", quote=quote, section=found.section.id, start=found.text_start,
                end=found.text_end,
            )  # fmt: skip


def _build() -> tuple[Statement, ...]:
    out: list[Statement] = []
    seen: set[tuple[str, str, str, int, int]] = set()

    def keep(statements: Iterable[Statement]) -> None:
        for s in statements:
            key = (s.witness, s.element, s.slot, s.start, s.end)
            if key not in seen:
                seen.add(key)
                out.append(s)

    base = all_rites()
    for rite in base.values():
        names = element_names(rite, rite.id)
        for path, element in walk_paths(rite, rite.id):
            keep(_statements_of(None, "", rite.id, path, element, "cited", element.citations, {}, names))
    drafts = {i.id for i in manifest() if i.status == "draft"}
    for witness in witness_ids():
        provenance = "draft" if witness in drafts else "read"  # a drafted reading is no curated one
        for rite_id, patches in own_readings(witness).items():
            read = base[rite_id]
            for where, patch in patches:
                read = apply_reading(read, patch, where)
            names = element_names(read, rite_id)
            for path, element in walk_paths(read, rite_id):
                keep(
                    _statements_of(
                        None, witness, rite_id, path, element, provenance, element.citations, {}, names
                    )
                )
        aligned = aligned_citations(witness)
        if not aligned:
            continue
        rites = rites_for(witness)
        scores = _aligned_scores(witness)
        elements: dict[str, Element] = {}
        names = {}
        for rite_id in sorted({_rite_of(p) for p in aligned} & set(rites)):
            elements.update(walk_paths(rites[rite_id], rite_id))
            names.update(element_names(rites[rite_id], rite_id))
        for path, cites in aligned.items():
            rite_id, mine = _rite_of(path), scores.get(path, {})
            if path in elements:
                keep(
                    _statements_of(
                        witness, witness, rite_id, path, elements[path], "aligned", cites, mine, names
                    )
                )
            else:  # an element the witness's reading no longer has: its words still state the rite
                keep(_wording(witness, rite_id, path, "aligned", cites, mine))
    keep(_data_statements())
    order = {w: i for i, w in enumerate(witness_ids())}
    kinds = {k: i for i, k in enumerate(KINDS)}
    return tuple(
        sorted(out, key=lambda s: (order.get(s.witness, len(order)), s.start, kinds[s.kind], s.element))
    )


@functools.cache
def table() -> Table:
    """The correspondence table of the installed corpus (and the ``DIANLI_WITNESSES`` folders), kept in
    the on-disk cache under a key of every file it is made from."""
    entry = cache.installed_key("comparison.table", cache.versions("pydantic", "PyYAML", "opencc"))
    return Table(cache.pickled(cache.DERIVED, entry, _build))
