"""The witnesses: each a folder with its manifest (``witness.yaml``), its text and its readings.

A witness is one text of the ritual code. Its folder, named by its id, holds:

- ``witness.yaml``: the manifest (:class:`WitnessManifest`): title, edition, when it was compiled, script,
  authority, which witness it translates, whose reading fills what it does not state (``base``), the
  places it was written for (``governs``), its fragment files and where each section begins (``anchors``);
- its fragment files, the text as transcribed, never changed;
- ``readings/*.yaml`` (optional): its reading of rites, loaded by :mod:`dianli.rites`.

Witness folders are found in the package folder ``witnesses/`` and in every folder the environment
variable ``DIANLI_WITNESSES`` names (``os.pathsep``-separated), so a gazetteer is added without touching
the package. Package witnesses come first, ordered by compiled year and id; then each extra root's, in
the order the variable names them, ordered the same way. The variable is read when the corpus first loads.

Every manifest is validated and cross-checked when the corpus loads (:func:`manifest`): a broken one is a
:class:`DataError` that starts with the manifest's path and names the element, the bad value and what is
accepted. A witness's raw text is its fragments joined by :data:`FRAGMENT_SEPARATOR`; every offset the
corpus reports is an offset into that raw text.
"""

from __future__ import annotations

import functools
import os
from collections.abc import Callable
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Annotated, Literal, TypeVar

from pydantic import BaseModel, ConfigDict, Field, StrictBool, StrictInt

from dianli import cache
from dianli.corpus.normalise import VARIANTS_FILE, Normalised, normalise, variant_cites
from dianli.corpus.sources import Source, WitnessCite
from dianli.corpus.tree import SECTIONS_FILE, section_defs
from dianli.datafile import check_inside, load_model_path, read_text_file
from dianli.errors import DataError, UnknownValueError

FRAGMENT_SEPARATOR = "\n\n⁂\n\n"
"""Joins fragments in a witness's raw text; ⁂ marks the gap (it takes no part in the folding key)."""

T = TypeVar("T")

ENV_VAR = "DIANLI_WITNESSES"
"""Extra folders of witness folders, separated by :data:`os.pathsep`."""
MANIFEST_FILE = "witness.yaml"
READINGS_DIR = "readings"
ALIGNMENT_FILE = "alignment.yaml"
"""In a witness folder: the clauses ``dianli align --write`` found *same* as a modelled element, each an
agreeing citation of that element in this witness's reading (generated; re-run after the data changes)."""
DRAFTED_FILE = "drafted.yaml"
"""In a witness folder's ``readings/``: the drafted readings still to review (``dianli ingest --drafts``
proposes them, ``dianli align W --review`` accepts or rejects each); a curated witness has none pending."""
PACKAGE_DIR = "witnesses"

Script = Literal["traditional", "simplified"]
Language = Literal["classical", "modern"]
Authority = Literal["primary", "gloss", "test-fixture"]
Status = Literal["curated", "draft"]
"""A witness folder's state: ``curated`` (read by a person), or ``draft`` — made by ``dianli ingest --drafts``
and not yet reviewed. A draft governs no place, and so changes no output for a real place, unless drafts
are asked for (:func:`dianli.drafts.with_drafts`)."""

Year = Annotated[StrictInt, Field(ge=1000, le=2100)]
"""A Gregorian year."""
_PLACE_ID = r"^[a-z0-9][a-z0-9-]*$"


class _Strict(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid", defer_build=True)


class Compiled(Source):
    """When the witness was compiled (the Gregorian year its edition was printed), with its source."""

    year: Year


class GovernsEntry(Source):
    """A place the witness was written for, as the manifest gives it (``from_year`` may be left out)."""

    place: str = Field(pattern=_PLACE_ID)
    from_year: Year | None = None
    until_year: Year | None = None


class FragmentFile(_Strict):
    """One file of the witness's text: its name in the folder, a note, and the section it starts inside."""

    file: str = Field(min_length=1)
    note: str = ""
    starts_in: str | None = None


MadeBy = Literal["harvest", "hand"]
"""How a witness's text was made: found by ``dianli harvest`` in a work's pages, or chosen by a person."""


class Made(_Strict):
    """How the witness was made, where its own files do not say it (``made:`` of ``witness.yaml``).

    Which pages its text was harvested from, and when, is in its text file's header (``SOURCE:``, ``WORK:``);
    its review — the proposals accepted and rejected — in its ``review.yaml`` and ``readings/``: the corpus
    table (``dianli texts list --format csv``) reads them there. What only a person can say is here.
    """

    by: MadeBy
    nothing_beyond_base: str | None = Field(default=None, min_length=1)
    """Why the witness's chapter states nothing its base does not (it is kept as a witness of that)."""
    stays_out: str | None = Field(default=None, min_length=1)
    """Why the text stays out of the corpus (too corrupt to read …): the folder is kept, with its reason,
    and listed in the corpus table, but it is no witness — nothing cites it, governs by it or aligns it."""


class WitnessManifest(_Strict):
    """The schema of ``witness.yaml``."""

    id: str = Field(pattern=r"^[a-z0-9][a-z0-9-]*$")
    title: str = Field(min_length=1)
    short_title: str = Field(min_length=1)
    edition: str
    compiled: Compiled
    script: Script
    language: Language
    punctuated: StrictBool
    authority: Authority
    status: Status = "curated"
    translation_of: str | None = None
    base: str | None = None
    governs: tuple[GovernsEntry, ...]
    governs_no_place: str | None = Field(default=None, min_length=1)
    """Why the witness governs no place, when ``governs`` is empty (and only then): a gloss, a part of an
    edition another witness governs by, a gazetteer of no unit of :mod:`dianli.places` …"""
    fragments: tuple[FragmentFile, ...] = Field(min_length=1)
    anchors: tuple[tuple[str, str], ...] = ()
    made: Made | None = None
    """How it was made, where its own files do not say (:class:`Made`); left out for the witnesses curated
    by hand before harvesting existed."""


class Governed(_Strict):
    """A place the witness governs from ``from_year`` (inclusive) until ``until_year`` (inclusive, or open).

    ``place`` is a place id of :mod:`dianli.places`, which checks it; the corpus keeps it as a string.
    """

    place: str
    from_year: int
    until_year: int | None
    source: str
    """Why: the quotation (``witness (section): 「quote」``) or ``assumption: …``."""
    cite: WitnessCite | None
    """The quotation, where the entry cites one (resolve it with :class:`dianli.corpus.cite.Citation`)."""


class WitnessInfo(_Strict):
    """A witness as the corpus knows it: its manifest, resolved (defaults filled) and checked."""

    id: str
    title: str
    short_title: str
    edition: str
    compiled_year: int
    compiled_source: str
    """Why that year: the quotation (``witness (section): 「quote」``) or ``assumption: …``."""
    compiled_cite: WitnessCite | None
    script: Script
    language: Language
    punctuated: bool
    authority: Authority
    status: Status
    translation_of: str | None
    base: str | None
    """Whose reading fills what this witness does not state (``translation_of`` unless given)."""
    governs: tuple[Governed, ...]
    governs_no_place: str | None
    """Why it governs no place (given exactly when ``governs`` is empty)."""
    files: tuple[FragmentFile, ...]
    anchors: tuple[tuple[str, str], ...]
    folder: Path
    made: Made | None = None

    @property
    def manifest_path(self) -> Path:
        return self.folder / MANIFEST_FILE


@dataclass(frozen=True)
class Fragment:
    """One file of a witness: where it starts and ends in the witness's raw text."""

    file: str
    start: int
    end: int
    note: str
    starts_in: str | None
    """The section the fragment starts inside (it begins mid-section), or None."""


@dataclass(frozen=True)
class Witness:
    """A witness with its raw text, fragments and normalised views."""

    info: WitnessInfo
    fragments: tuple[Fragment, ...]
    norm: Normalised

    @property
    def id(self) -> str:
        return self.info.id

    @property
    def raw(self) -> str:
        return self.norm.raw

    def fragment_at(self, raw_offset: int) -> Fragment:
        """The fragment that holds a raw offset (the separator belongs to the fragment before it)."""
        for fragment in self.fragments:
            if raw_offset < fragment.end:
                return fragment
        return self.fragments[-1]


def package_root() -> Path:
    """The package's own folder of witness folders."""
    return Path(str(resources.files("dianli.corpus").joinpath(PACKAGE_DIR)))


def witness_roots() -> tuple[Path, ...]:
    """The folders searched for witness folders: the package's, then those ``DIANLI_WITNESSES`` names."""
    roots: dict[Path, None] = {package_root().resolve(): None}
    for entry in os.environ.get(ENV_VAR, "").split(os.pathsep):
        if not entry.strip():
            continue
        path = Path(entry).expanduser()
        if not path.is_dir():
            raise DataError(
                f"{ENV_VAR}: {entry!r} is not a folder; it names folders that hold witness folders "
                f"(each with a {MANIFEST_FILE}), separated by {os.pathsep!r}"
            )
        roots.setdefault(path.resolve(), None)
    return tuple(roots)


def _witness_folders(root: Path) -> list[Path]:
    """The witness folders of a root (folders starting with . or _ are not witnesses)."""
    folders = []
    for child in sorted(root.iterdir()):
        if not child.is_dir() or child.name.startswith((".", "_")):
            continue
        if not (child / MANIFEST_FILE).is_file():
            raise DataError(
                f"{child}: a witness folder without {MANIFEST_FILE}; a folder of {root} is a witness: "
                f"its manifest {MANIFEST_FILE}, its text files and optionally {READINGS_DIR}/"
            )
        folders.append(child)
    return folders


@functools.lru_cache(maxsize=1)
def manifest() -> tuple[WitnessInfo, ...]:
    """Every witness of every root, validated and cross-checked, in order (see the module docstring)."""
    found: list[tuple[Path, WitnessManifest]] = []
    for root in witness_roots():
        in_root = [
            (folder / MANIFEST_FILE, load_model_path(folder / MANIFEST_FILE, WitnessManifest))
            for folder in _witness_folders(root)
        ]
        in_root.sort(key=lambda pair: (pair[1].compiled.year, pair[1].id))
        found.extend(pair for pair in in_root if not _stays_out(pair[1]))
    _check(found)
    return tuple(_info(path, entry) for path, entry in found)


def _stays_out(entry: WitnessManifest) -> bool:
    return entry.made is not None and entry.made.stays_out is not None


@dataclass(frozen=True)
class SetAside:
    """A text kept with its folder and manifest but out of the corpus (``made: {stays_out: why}``)."""

    id: str
    title: str
    why: str
    folder: Path


def set_aside() -> tuple[SetAside, ...]:
    """The folders of every root whose manifest says the text stays out of the corpus, with why."""
    out = []
    for root in witness_roots():
        for folder in _witness_folders(root):
            entry = load_model_path(folder / MANIFEST_FILE, WitnessManifest)
            if entry.made is not None and entry.made.stays_out is not None:
                out.append(SetAside(entry.id, entry.title, entry.made.stays_out, folder))
    return tuple(out)


def _effective_base(entry: WitnessManifest) -> str | None:
    return entry.base if entry.base is not None else entry.translation_of


def _translation_of(entry: WitnessManifest) -> str | None:
    return entry.translation_of


def _check(found: list[tuple[Path, WitnessManifest]]) -> None:
    """Every cross reference of the manifests: ids, files, sections, witnesses; raise the first problem."""
    paths: dict[str, Path] = {}
    for path, entry in found:
        if entry.id in paths:
            raise DataError(
                f"{path}: id: witness {entry.id!r} is defined twice, in {paths[entry.id].parent} and in "
                f"{path.parent}; a witness id must be unique across the package and {ENV_VAR}"
            )
        paths[entry.id] = path
    ids = list(paths)
    for path, entry in found:
        _check_entry(path, entry, ids)
    for index, cite in enumerate(variant_cites()):
        _check_cite(f"dianli/corpus/{VARIANTS_FILE}", f"variants cite {index}", cite, ids)
    for field, relation in (("base", _effective_base), ("translation_of", _translation_of)):
        _check_acyclic(found, field, relation)


def _check_entry(path: Path, entry: WitnessManifest, ids: list[str]) -> None:
    folder = path.parent
    if entry.id != folder.name:
        raise DataError(
            f"{path}: id: {entry.id!r} differs from the folder name; accepted: {folder.name!r} "
            f"(a witness folder is named by its id)"
        )
    texts = sorted(p.name for p in folder.iterdir() if p.is_file() and p.name != MANIFEST_FILE)
    for index, fragment in enumerate(entry.fragments):
        if fragment.file not in texts:
            raise DataError(
                f"{path}: fragments.{index}.file: {fragment.file!r} is not a file of {folder}; "
                f"accepted: {', '.join(texts) or '(the folder holds no text file)'}"
            )
        if fragment.starts_in is not None:
            _check_section(str(path), f"fragments.{index}.starts_in", fragment.starts_in)
    for index, (section_id, _heading) in enumerate(entry.anchors):
        _check_section(str(path), f"anchors.{index}", section_id)
    for field, value in (("translation_of", entry.translation_of), ("base", entry.base)):
        if value is not None and value not in ids:
            raise DataError(f"{path}: {field}: unknown witness {value!r}; accepted: {', '.join(ids)}")
    if entry.compiled.cite is not None:
        _check_cite(str(path), "compiled.cite", entry.compiled.cite, ids)
    _check_governs(path, entry)
    for index, governed in enumerate(entry.governs):
        if governed.cite is not None:
            _check_cite(str(path), f"governs.{index}.cite", governed.cite, ids)
        start = governed.from_year if governed.from_year is not None else entry.compiled.year
        if governed.until_year is not None and governed.until_year < start:
            raise DataError(
                f"{path}: governs.{index}.until_year: {governed.until_year} is before the year it governs "
                f"from, {start}; accepted: a year from {start} on"
            )


def _check_governs(path: Path, entry: WitnessManifest) -> None:
    """A witness governs places of :mod:`dianli.places`, or says why it governs none."""
    if not entry.governs and entry.governs_no_place is None:
        raise DataError(
            f"{path}: governs: the witness governs no place and does not say why; accepted: the places it "
            "was written for (governs), or the reason it governs none (governs_no_place: …)"
        )
    if entry.governs and entry.governs_no_place is not None:
        raise DataError(
            f"{path}: governs_no_place: given, but the witness governs {entry.governs[0].place!r}; accepted: "
            "either the places it governs (governs) or the reason it governs none (governs_no_place), not both"
        )
    from dianli.places.places import all_places  # the places load only when the manifests are checked

    known = {p.id for p in all_places()}
    for index, governed in enumerate(entry.governs):
        if governed.place not in known:
            raise DataError(
                f"{path}: governs.{index}.place: unknown place {governed.place!r}; accepted: the place ids of "
                f"`dianli places`: {', '.join(sorted(known))}"
            )


def _check_section(where: str, element: str, section_id: str) -> None:
    defs = section_defs()
    if section_id not in defs:
        raise DataError(
            f"{where}: {element}: unknown section {section_id!r}; accepted: the ids of "
            f"dianli/corpus/{SECTIONS_FILE}: {', '.join(defs)}"
        )


def _check_cite(where: str, element: str, cite: WitnessCite, ids: list[str]) -> None:
    if cite.witness not in ids:
        raise DataError(
            f"{where}: {element}.witness: unknown witness {cite.witness!r}; accepted: {', '.join(ids)}"
        )
    if cite.section is not None:
        _check_section(where, f"{element}.section", cite.section)


def _check_acyclic(
    found: list[tuple[Path, WitnessManifest]],
    field: str,
    relation: Callable[[WitnessManifest], str | None],
) -> None:
    """No witness reaches itself by following ``relation`` (its base, or what it translates)."""
    entries = {entry.id: entry for _, entry in found}
    for path, entry in found:
        chain = [entry.id]
        step = relation(entry)
        while step is not None:
            if step in chain:
                cycle = " → ".join([*chain[chain.index(step) :], step])
                raise DataError(
                    f"{path}: {field}: {relation(entry)!r} leads back to {step!r} ({cycle}); "
                    f"accepted: a witness whose {field} chain ends"
                )
            chain.append(step)
            step = relation(entries[step])


def _info(path: Path, entry: WitnessManifest) -> WitnessInfo:
    compiled = entry.compiled
    return WitnessInfo(
        id=entry.id,
        title=entry.title,
        short_title=entry.short_title,
        edition=entry.edition,
        compiled_year=compiled.year,
        compiled_source=compiled.text,
        compiled_cite=compiled.cite,
        script=entry.script,
        language=entry.language,
        punctuated=entry.punctuated,
        authority=entry.authority,
        status=entry.status,
        translation_of=entry.translation_of,
        base=_effective_base(entry),
        governs=tuple(
            Governed(
                place=g.place,
                from_year=g.from_year if g.from_year is not None else compiled.year,
                until_year=g.until_year,
                source=g.text,
                cite=g.cite,
            )
            for g in entry.governs
        ),
        governs_no_place=entry.governs_no_place,
        files=entry.fragments,
        anchors=entry.anchors,
        folder=path.parent,
        made=entry.made,
    )


@functools.lru_cache(maxsize=1)
def witness_ids() -> tuple[str, ...]:
    """The stable ids of all witnesses, in order (every citation's validation asks for them: kept on disk,
    :func:`manifest_table`)."""
    return manifest_table("witness_ids", lambda infos: tuple(info.id for info in infos))


def manifest_table(name: str, make: Callable[[tuple[WitnessInfo, ...]], T]) -> T:
    """``make(manifest())``, plain data (strings, tuples, dicts), kept in the on-disk cache under ``name`` and
    a key naming every file of the package and of the folders ``DIANLI_WITNESSES`` names (and the value
    itself, so a folder that is not one is still an error): a run that needs only such a table (the ids,
    the titles) reads and validates no manifest."""
    entry = cache.installed_key(f"corpus.witnesses.{name}", os.environ.get(ENV_VAR, ""))
    return cache.pickled(cache.DERIVED, entry, lambda: make(manifest()))


def witness_info(witness_id: str) -> WitnessInfo:
    """The manifest of one witness; an unknown id lists the known ones."""
    for info in manifest():
        if info.id == witness_id:
            return info
    raise UnknownValueError("witness", witness_id, witness_ids())


@functools.cache
def load_witness(witness_id: str) -> Witness:
    """Load and normalise one witness by id (cached in the process, and on disk under a key naming every file
    of the package and of the extra witness folders: :func:`dianli.cache.installed_key`)."""
    entry = cache.installed_key("corpus.load_witness", witness_id, cache.versions("opencc"))
    return cache.pickled(cache.DERIVED, entry, lambda: _load_witness(witness_id))


def _load_witness(witness_id: str) -> Witness:
    info = witness_info(witness_id)
    parts: list[str] = []
    fragments: list[Fragment] = []
    offset = 0
    for index, file in enumerate(info.files):
        if index:
            parts.append(FRAGMENT_SEPARATOR)
            offset += len(FRAGMENT_SEPARATOR)
        text = _read_text(info.folder / file.file, info.folder)
        parts.append(text)
        fragments.append(Fragment(file.file, offset, offset + len(text), file.note, file.starts_in))
        offset += len(text)
    return Witness(info=info, fragments=tuple(fragments), norm=normalise("".join(parts)))


def _read_text(path: Path, folder: Path) -> str:
    return read_text_file(path, within=folder, what="fragment")


def all_witnesses() -> tuple[Witness, ...]:
    """Every witness, loaded."""
    return tuple(load_witness(wid) for wid in witness_ids())


def reading_files(witness_id: str) -> tuple[Path, ...]:
    """The witness's reading files (``readings/*.yaml`` of its folder), sorted by name; () if none."""
    home = witness_info(witness_id).folder
    folder = home / READINGS_DIR
    if not folder.is_dir():
        return ()
    check_inside(folder, home, "readings folder")
    found = tuple(sorted(p for p in folder.glob("*.yaml") if p.is_file()))
    for path in found:  # a link out of the witness folder is refused, as for its text files
        check_inside(path, home, "reading file")
    return found


@functools.lru_cache(maxsize=1)
def translation_pairs() -> tuple[tuple[str, str], ...]:
    """``(original, translation)`` for every witness that translates another, in witness order (kept on
    disk: :func:`manifest_table`)."""
    return manifest_table("translation_pairs", _translation_pairs)


def _translation_pairs(infos: tuple[WitnessInfo, ...]) -> tuple[tuple[str, str], ...]:
    return tuple((info.translation_of, info.id) for info in infos if info.translation_of is not None)
