"""Readings: a witness's reading of a rite is the shared base plus what that witness states differently.

The shared base is the rite data of this package (``data/*.yaml``), where points the witnesses read
differently carry ``witnesses`` and ``variant`` labels. A witness folder may add ``readings/*.yaml``: rite
files whose rites are *patches* of base rites, holding only what the witness states differently. A field
given there replaces the base's field, except ``parts`` and ``altars``, which merge by id (a part or an
altar of the same id replaces the base's; a new one is added), and ``overrides``, which are appended.

A witness reads through its *reading chain*: itself, then its ``base`` (by default the witness it
translates), and so on; after each, the translations of it (a translation stands for its original where
the original is lost). The readings of every witness of the chain apply, the farthest first.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterator, Mapping
from pathlib import Path
from typing import Any, TypeVar

from pydantic import BaseModel, ConfigDict, ValidationError

from dianli import cache
from dianli.corpus.cite import Citation, resolve
from dianli.corpus.witnesses import ALIGNMENT_FILE, WitnessInfo, manifest, reading_files, witness_info
from dianli.datafile import load_model_path, read_yaml
from dianli.errors import DataError, DianliError, UnknownValueError
from dianli.rites.load import all_rites, schema_error
from dianli.rites.model import Rite, RiteFile, add_citations, walk_elements

MERGED_BY_ID = ("parts", "altars")
"""Fields of a rite that a reading merges item by item (by ``id``) instead of replacing."""
READING_KEYS = frozenset({"rites"})
CITE_KEYS = frozenset({"cite", "cites"})
"""The fields by which an element cites its witness (with ``also_in``, ``assumption``)."""
T = TypeVar("T")


class AlignedCite(BaseModel):
    """One clause of the witness that states a modelled element (an agreeing citation)."""

    model_config = ConfigDict(frozen=True, extra="forbid", defer_build=True)

    element: str
    witness: str
    quote: str
    section: str | None = None
    score: float


class AlignmentFile(BaseModel):
    """``alignment.yaml``: the witness, the witnesses of the model it was aligned to, the *same* clauses."""

    model_config = ConfigDict(frozen=True, extra="forbid", defer_build=True)

    witness: str
    model: tuple[str, ...]
    same: tuple[AlignedCite, ...] = ()


@functools.cache
def aligned_citations(witness: str) -> dict[str, tuple[Citation, ...]]:
    """element path → the witness's agreeing citations of it, from its folder's ``alignment.yaml``.

    Validating every citation of an alignment takes a while, so the result is kept in the on-disk cache
    under a key naming the witness and every file of the package and of the extra witness folders (the
    alignment, the witness ids its citations are checked against, this code): :mod:`dianli.cache`. The
    witness's folder is looked up when the result is made, so a warm run reads no manifest."""
    entry = cache.installed_key(
        "readings.aligned_citations", witness, cache.versions("pydantic", "PyYAML"), _where_installed()
    )
    return cache.pickled(cache.DERIVED, entry, lambda: _aligned_citations(witness))


@functools.cache
def _where_installed() -> str:
    """The package's folder, part of the keys of results that hold file paths (the keys name the files'
    bytes, not where they lie)."""
    return str(cache.package_root())


def _aligned_citations(witness: str) -> dict[str, tuple[Citation, ...]]:
    info = next((i for i in manifest() if i.id == witness), None)
    if info is None:
        raise UnknownValueError("witness", witness, [i.id for i in manifest()])
    path = info.folder / ALIGNMENT_FILE
    if not path.is_file():
        return {}
    return _read_alignment(witness, path)


def _read_alignment(witness: str, path: Path) -> dict[str, tuple[Citation, ...]]:
    data = load_model_path(path, AlignmentFile)
    wrong = next((c for c in data.same if c.witness != witness), None)
    if data.witness != witness or wrong is not None:
        raise DataError(
            f"{path}: cites another witness than {witness!r}: {wrong.witness if wrong else data.witness!r}"
        )
    out: dict[str, list[Citation]] = {}
    for index, cite in enumerate(data.same):
        problem = quote_problem(
            str(path), f"same[{index}] ({cite.element})", witness, cite.quote, cite.section
        )
        if problem is not None:
            raise DataError(problem)
        out.setdefault(cite.element, []).append(
            Citation(witness=witness, quote=cite.quote, section=cite.section)
        )
    return {element: tuple(cites) for element, cites in out.items()}


def _rite_of(path: str) -> str:
    return path.split(".", 1)[0].split("[", 1)[0]


@functools.cache
def reading_chain(witness: str) -> tuple[str, ...]:
    """The witness, its base, their bases …, each followed by the witnesses that translate it (kept in the
    on-disk cache, like every derived table of this module: :func:`_derived`)."""
    return _relations(witness)[0]


def _relations(witness: str) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """The witness's reading chain and translation family, from one table of every witness's (kept in the
    on-disk cache as a whole: a booklet read in another witness than the last one finds its chain there)."""
    table = _relations_table()
    if witness not in table:
        raise UnknownValueError("witness", witness, list(table))
    return table[witness]


def _witness_relations(_: str) -> dict[str, tuple[tuple[str, ...], tuple[str, ...]]]:
    infos = {info.id: info for info in manifest()}
    return {w: (_reading_chain(infos, w), _translation_family(infos, w)) for w in infos}


def _derived(name: str, make: Callable[[str], T], witness_or_rite: str) -> T:
    """``make(witness_or_rite)`` kept in the on-disk cache (:mod:`dianli.cache`) as plain data (strings,
    tuples, dicts: cheap to read back) under a key naming ``name``, the argument and every file of the
    package and of the extra witness folders, so a run that needs only these tables reads no manifest, no
    reading file and walks no rite. An error raised by ``make`` is never kept."""
    entry = cache.installed_key(f"rites.readings.{name}", witness_or_rite, _where_installed())
    return cache.pickled(cache.DERIVED, entry, lambda: make(witness_or_rite))


def _reading_chain(infos: Mapping[str, WitnessInfo], witness: str) -> tuple[str, ...]:
    chain: list[str] = []
    current: str | None = witness
    while current is not None and current not in chain:
        chain.append(current)
        for info in infos.values():
            if info.translation_of == current and info.id not in chain:
                chain.append(info.id)
        current = infos[current].base or infos[current].translation_of
    return tuple(chain)


def _merge_by_id(base: list[Any], given: list[Any]) -> list[Any]:
    out = list(base)
    for item in given:
        ident = item.get("id") if isinstance(item, dict) else None
        at = next((i for i, b in enumerate(out) if ident is not None and b.get("id") == ident), None)
        if at is None:
            out.append(item)
        else:
            out[at] = item
    return out


def _keep_related(base: list[Any], given: list[Any]) -> list[Any]:
    """A reading's date rules, each keeping the related days (齋戒, 省牲, 牒告城隍 …) of the base's rule of
    the same id unless it states its own (``related``, even ``[]``: the witness says there are none): a
    witness that states another day for a rite does not thereby say its preparations are not held."""
    by_id = {rule.get("id"): rule for rule in base if isinstance(rule, dict)}
    out: list[Any] = []
    for rule in given:
        before = by_id.get(rule.get("id")) if isinstance(rule, dict) else None
        if isinstance(rule, dict) and "related" not in rule and before and before.get("related"):
            rule = {**rule, "related": before["related"]}
        out.append(rule)
    return out


def apply_reading(base: Rite, patch: Mapping[str, Any], where: str) -> Rite:
    """The base rite with a reading's fields: given fields replace, parts/altars merge by id, a date rule
    keeps the related days of the base's rule of its id unless it gives its own (:func:`_keep_related`)."""
    unknown = sorted(set(patch) - set(Rite.model_fields) - {"with"})
    if unknown:
        raise DataError(
            f"{where}: rite {base.id!r}: unknown field {unknown[0]!r}; accepted: {', '.join(Rite.model_fields)}"
        )
    merged = base.model_dump(by_alias=True, exclude_unset=True)
    for key, value in patch.items():
        if key == "id":
            continue
        if key in MERGED_BY_ID and isinstance(value, list):
            merged[key] = _merge_by_id(list(merged.get(key, [])), value)
        elif key == "overrides" and isinstance(value, list):
            merged[key] = [*merged.get(key, []), *value]
        elif key == "date_rule" and isinstance(value, list):
            merged[key] = _keep_related(list(merged.get(key, [])), value)
        else:
            merged[key] = value
    if CITE_KEYS & set(patch) and "also_in" not in patch:
        # the base's also_in says where the *base's* quote occurs too; a reading that gives its own
        # citation of the rite does not inherit that claim for its quote
        merged.pop("also_in", None)
    raw = {"family": "reading", "rites": [merged]}
    try:
        return RiteFile.model_validate(raw).rites[0]
    except ValidationError as exc:
        raise schema_error(where, raw, exc) from None


def _patches(path: Path) -> list[dict[str, Any]]:
    import yaml  # only when the YAML is read: a cached run never loads it

    where = str(path)
    try:
        raw = read_yaml(path.read_text(encoding="utf-8"))
    except yaml.YAMLError as exc:
        raise DataError(f"{where}: not valid YAML: {exc}") from exc
    if not isinstance(raw, dict) or not isinstance(raw.get("rites"), list):
        raise DataError(f"{where}: a reading file is a mapping with 'rites:' (a list of rite patches)")
    unknown = sorted(set(raw) - READING_KEYS)
    if unknown:
        raise DataError(f"{where}: unknown key {unknown[0]!r}; accepted: {', '.join(sorted(READING_KEYS))}")
    patches: list[dict[str, Any]] = []
    for index, patch in enumerate(raw["rites"]):
        if not isinstance(patch, dict) or "id" not in patch:
            raise DataError(f"{where}: rite #{index + 1}: a reading needs the 'id' of the base rite it reads")
        patches.append(patch)
    return patches


@functools.cache
def own_readings(witness: str) -> dict[str, tuple[tuple[str, dict[str, Any]], ...]]:
    """rite id → (file, patch) of the witness's own reading files, checked against the base rite ids (the
    patches are plain YAML data, kept in the on-disk cache: :func:`_derived`)."""
    return _derived("own_readings", _own_readings, witness)


def _own_readings(witness: str) -> dict[str, tuple[tuple[str, dict[str, Any]], ...]]:
    base = all_rites()
    found: dict[str, list[tuple[str, dict[str, Any]]]] = {}
    for path in reading_files(witness):
        for patch in _patches(path):
            rite_id = str(patch["id"])
            if rite_id not in base:
                raise DataError(
                    f"{path}: rite {rite_id!r}: no such base rite; accepted: {', '.join(sorted(base))}"
                )
            problem = next(quote_problems(str(path), f"rite {rite_id!r}", patch), None)
            if problem is not None:
                raise DataError(problem)
            found.setdefault(rite_id, []).append((str(path), patch))
    return {rite_id: tuple(items) for rite_id, items in found.items()}


def quotes_of(node: object, where: str = "") -> Iterator[tuple[str, dict[str, Any]]]:
    """Every citation of a reading's raw data (a mapping with ``witness`` and ``quote``), with the path of
    the element that gives it: an item of a list is named by its ``id`` (or ``kind``, ``name``,
    ``function``) where it has one, else by its place (``parts[sheng].steps[3].cite``)."""
    if isinstance(node, dict):
        if isinstance(node.get("witness"), str) and isinstance(node.get("quote"), str):
            yield where, node
        for key, value in node.items():
            yield from quotes_of(value, f"{where}.{key}" if where else str(key))
    elif isinstance(node, list):
        for index, value in enumerate(node):
            keys = ("id", "kind", "name", "function")
            name = next((value[k] for k in keys if isinstance(value, dict) and k in value), index)
            yield from quotes_of(value, f"{where}[{name}]")


def quote_problem(file: str, element: str, witness: str, quote: str, section: object) -> str | None:
    """None when the quote resolves in its witness; else the problem in words: the file, the element, the
    quote and the closest passage of the witness (or the unknown witness or section)."""
    try:
        resolve(witness, quote, section if isinstance(section, str) else None)
    except DianliError as exc:
        return f"{file}: {element}: {exc}"
    return None


def quote_problems(file: str, where: str, patch: Mapping[str, Any]) -> Iterator[str]:
    """The problem of every quote of a reading's patch that does not resolve (see :func:`quote_problem`)."""
    for path, cite in quotes_of(patch):
        section = cite.get("section")
        found = quote_problem(file, f"{where}: {path}", cite["witness"], cite["quote"], section)
        if found is not None:
            yield found


def reading_problems(witness: str) -> tuple[list[str], int]:
    """Every problem of the witness's own readings and alignment (a reading file that does not load, a
    quote that is not in its witness), all of them, not only the first; and how many quotes were checked.
    (Loading raises the first of them: :func:`own_readings`, :func:`aligned_citations`.)"""
    problems: list[str] = []
    count = 0
    base = all_rites()
    for path in reading_files(witness):
        try:
            patches = _patches(path)
        except DianliError as exc:
            problems.append(str(exc))
            continue
        for patch in patches:
            rite_id = str(patch["id"])
            if rite_id not in base:
                problems.append(f"{path}: rite {rite_id!r}: no such base rite")
                continue
            count += sum(1 for _ in quotes_of(patch))
            problems.extend(quote_problems(str(path), f"rite {rite_id!r}", patch))
    folder = witness_info(witness).folder / ALIGNMENT_FILE
    if folder.is_file():
        try:
            data = load_model_path(folder, AlignmentFile)
        except DianliError as exc:
            problems.append(str(exc))
        else:
            for index, cite in enumerate(data.same):
                count += 1
                found = quote_problem(
                    str(folder), f"same[{index}] ({cite.element})", cite.witness, cite.quote, cite.section
                )
                if found is not None:
                    problems.append(found)
    return problems, count


def load_all_readings() -> None:
    """Load every witness's readings and alignment, each checked as it loads (a quote that is not in its
    witness raises, naming the file, the element and the closest passage): for what reads the readings'
    citations as data of its own (coverage) and must not count a false one silently. Cached on disk like
    the loads themselves, so a warm run reads a few small entries."""
    for witness in _relations_table():
        own_readings(witness)
        aligned_citations(witness)


def _relations_table() -> dict[str, tuple[tuple[str, ...], tuple[str, ...]]]:
    return _derived("witness_relations", _witness_relations, "")


@functools.cache
def rites_for(witness: str) -> Mapping[str, Rite]:
    """Every rite as ``witness`` reads it: the base with the readings of its chain (farthest first)."""
    rites = dict(all_rites())
    for member in reversed(reading_chain(witness)):
        for rite_id, patches in own_readings(member).items():
            for where, patch in patches:
                rites[rite_id] = apply_reading(rites[rite_id], patch, where)
    aligned = aligned_citations(witness)
    for rite_id in sorted({_rite_of(p) for p in aligned} & set(rites)):
        mine = {p: c for p, c in aligned.items() if _rite_of(p) == rite_id}
        rites[rite_id] = add_citations(rites[rite_id], rite_id, mine)
    return rites


@functools.cache
def translation_family(witness: str) -> tuple[str, ...]:
    """The witness, the witness it translates and the witnesses that translate it: one text in several
    forms (a translation stands for the part of its original that is lost)."""
    return _relations(witness)[1]


def _translation_family(infos: Mapping[str, WitnessInfo], witness: str) -> tuple[str, ...]:
    original = infos[witness].translation_of
    family = [witness, *([original] if original else [])]
    family += [i.id for i in infos.values() if i.translation_of in family and i.id not in family]
    return tuple(family)


@functools.cache
def witnesses_with_rite(rite_id: str) -> tuple[str, ...]:
    """The witnesses that hold a rite: cited anywhere in its base data, or giving a reading of it (kept in
    the on-disk cache: :func:`_derived`)."""
    return _derived("witnesses_with_rite", _witnesses_with_rite, rite_id)


def _witnesses_with_rite(rite_id: str) -> tuple[str, ...]:
    base = all_rites()
    if rite_id not in base:
        raise UnknownValueError("rite", rite_id, sorted(base))
    cited: set[str] = set()
    for element in walk_elements(base[rite_id]):
        cited.update(c.witness for c in element.citations)
        cited.update(element.witnesses)
    order = [info.id for info in manifest()]
    cited.update(w for w in order if rite_id in own_readings(w))
    cited.update(w for w in order if rite_id in _aligned_rites(w))
    return tuple(w for w in order if w in cited)


@functools.cache
def _aligned_rites(witness: str) -> frozenset[str]:
    return frozenset(_rite_of(p) for p in aligned_citations(witness))
