"""Every cross reference of the rite data, checked when it is loaded.

The schema (:mod:`dianli.rites.model`) checks each element's shape; this module checks what an element
names elsewhere: witness ids (citations, ``also_in``, ``witnesses``), places, place levels, the rite a
rite ``extends``, the part a part ``extends`` or an ``include`` splices (``rite#part``), the altar an altar
is ``like``, the rite an ``occasion`` link names, and that an observance (a ``date_rule`` id) belongs to one rite. A bad reference is a
:class:`DataError` naming the file, the rite, the element's path and the bad value, and listing what is
accepted.

:func:`run_checks` runs every check of the data at once — these, the manifests' and the readings' — and
reports every problem, not only the first (``dianli check``).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from dianli.corpus.cite import Citation
from dianli.corpus.labels import witness_label
from dianli.corpus.sources import WitnessCite
from dianli.corpus.witnesses import WitnessInfo, witness_ids
from dianli.errors import DataError, DianliError, UnknownValueError
from dianli.places.places import get_place, place_names
from dianli.rites.model import Altar, Include, OccasionLink, Part, Rite, walk_paths
from dianli.rites.vocabulary import place_levels


def _extends_chain(rite_id: str, rites: Mapping[str, Rite]) -> list[Rite]:
    chain: list[Rite] = []
    seen: set[str] = set()
    current: str | None = rite_id
    while current is not None and current in rites and current not in seen:
        seen.add(current)
        chain.append(rites[current])
        current = rites[current].extends
    return chain


def _parts(rite_id: str, rites: Mapping[str, Rite]) -> set[str]:
    return {p.id for r in _extends_chain(rite_id, rites) for p in r.parts}


def _altars(rite_id: str, rites: Mapping[str, Rite]) -> set[str]:
    return {a.id for r in _extends_chain(rite_id, rites) for a in r.altars}


def _fail(
    where: str, what: str, value: object, accepted: list[str] | set[str] | tuple[str, ...]
) -> DataError:
    listed = ", ".join(sorted(accepted)) or "(none)"
    return DataError(f"{where}: {what} {value!r} is unknown; accepted: {listed}")


def _check_ref(ref: str, rite: Rite, rites: Mapping[str, Rite], where: str, what: str) -> None:
    rite_ref, _, part_ref = ref.partition("#")
    target = rite_ref or rite.id
    if target not in rites:
        raise _fail(where, f"{what} rite", target, list(rites))
    if part_ref and part_ref not in _parts(target, rites):
        raise _fail(where, f"{what} part of {target!r}", part_ref, _parts(target, rites))


def check_rites(rites: Mapping[str, Rite], origin: Mapping[str, str]) -> None:
    """Raise DataError at the first broken reference of the rite data (see the module docstring)."""
    witnesses = set(witness_ids())
    levels = place_levels()
    owner: dict[str, str] = {}
    for rite_id, rite in rites.items():
        file = origin.get(rite_id, "rite data")
        if rite.extends is not None and rite.extends not in rites:
            raise _fail(f"{file}: rite {rite_id!r}: field extends", "rite", rite.extends, list(rites))
        for rule in rite.date_rule:
            other = owner.setdefault(rule.id, rite_id)
            if other != rite_id:
                raise DataError(
                    f"{file}: rite {rite_id!r}: date_rule {rule.id!r}: observance id already used by rite {other!r}"
                )
        for path, element in walk_paths(rite, rite_id):
            where = f"{file}: rite {rite_id!r}: {path}"
            named = [c.witness for c in element.citations] + list(element.witnesses)
            extra = [getattr(element, "scope_cite", None)]
            named += [c.witness for c in extra if c is not None]
            for witness in named:
                if witness not in witnesses:
                    raise _fail(where, "witness", witness, witnesses)
            for name in element.places:
                try:
                    get_place(name)
                except DianliError:
                    raise _fail(where, "place", name, place_names()) from None
            for name in element.place_levels:
                if name not in levels:
                    raise _fail(where, "place level", name, list(levels))
            if isinstance(element, Part) and element.extends is not None:
                _check_ref(element.extends, rite, rites, where, "extends")
            if isinstance(element, Include):
                _check_ref(element.include, rite, rites, where, "include")
            if isinstance(element, Altar) and element.like is not None:
                pool = _altars(rite_id, rites)
                if element.like not in pool:
                    raise _fail(where, "altar like", element.like, pool)
            if isinstance(element, OccasionLink) and (element.other not in rites or element.other == rite_id):
                raise _fail(where, "occasion rite", element.other, [r for r in rites if r != rite_id])


@dataclass(frozen=True)
class CheckResult:
    """One check of :func:`run_checks`: what was checked, how many items, and every problem found."""

    name: str
    """What was checked, in words (a reader's words: titles, not ids)."""
    checked: int
    """How many items it checked (manifests, rites, quotes …)."""
    unit: str
    """What ``checked`` counts (``quotes``, ``rites`` …)."""
    problems: tuple[str, ...] = ()

    @property
    def ok(self) -> bool:
        return not self.problems


def _quote_problem(file: str, element: str, cite: Citation | WitnessCite) -> str | None:
    from dianli.rites.readings import quote_problem  # readings loads the rite data: imported when run

    return quote_problem(file, element, cite.witness, cite.quote, cite.section)


def _manifests(witness: str | None) -> list[CheckResult]:
    """Every manifest validated and cross-checked (:func:`dianli.corpus.witnesses.manifest`: places it
    governs, or why none; bases; sections …), and every quote it cites resolves."""
    from dianli.corpus.witnesses import manifest

    name = "the witness manifests (schema, the places each governs or why none, bases, sections)"
    try:
        infos = [i for i in manifest() if witness is None or i.id == witness]
    except DianliError as exc:
        return [CheckResult(name, 0, "manifests", (str(exc),))]
    problems: list[str] = []
    quotes = 0
    for info in infos:
        cites = [("compiled.cite", info.compiled_cite)]
        cites += [(f"governs.{i}.cite", g.cite) for i, g in enumerate(info.governs)]
        for element, cite in cites:
            if cite is None:
                continue
            quotes += 1
            found = _quote_problem(str(info.manifest_path), element, cite)
            if found is not None:
                problems.append(found)
    return [
        CheckResult(name, len(infos), "manifests"),
        CheckResult("the quotes of the manifests", quotes, "quotes", tuple(problems)),
        CheckResult(
            "no curated witness with drafted readings pending", len(infos), "manifests", _pending(infos)
        ),
    ]


def _pending(infos: list[WitnessInfo]) -> tuple[str, ...]:
    """A witness marked curated whose drafted readings still await review (they would be read as its
    reading unreviewed): each named, with what to do."""
    from dianli.corpus.witnesses import DRAFTED_FILE, READINGS_DIR
    from dianli.datafile import read_yaml

    problems = []
    for info in infos:
        drafted = info.folder / READINGS_DIR / DRAFTED_FILE
        if info.status != "curated" or not drafted.is_file():
            continue
        pending = (read_yaml(drafted.read_text(encoding="utf-8")) or {}).get("rites") or []
        if pending:
            problems.append(
                f"{info.manifest_path}: status: curated, but {len(pending)} drafted reading(s) in {drafted} "
                f"await review; accepted: review them first (dianli align {info.id} --review --accept N / "
                "--reject N), or keep status: draft"
            )
    return tuple(problems)


def _rite_data(witness: str | None) -> list[CheckResult]:
    """The shared rite data loads (schema and every cross reference), and each of its quotes (those of
    ``witness`` only, when one is given) resolves."""
    from dianli.rites.load import all_rites

    try:
        rites = all_rites()
    except DianliError as exc:
        return [CheckResult("the shared rite data (schema, cross references)", 0, "rites", (str(exc),))]
    problems: list[str] = []
    quotes = 0
    for rite_id, rite in rites.items():
        for path, element in walk_paths(rite, ""):
            for cite in element.citations:
                if witness is not None and cite.witness != witness:
                    continue
                quotes += 1
                named = f"rite {rite_id!r}: {path.lstrip('.') or 'the rite'}"
                found = _quote_problem("the shared rite data", named, cite)
                if found is not None:
                    problems.append(found)
    whose = "" if witness is None else f" citing {witness_label(witness)}"
    return [
        CheckResult("the shared rite data (schema, cross references)", len(rites), "rites"),
        CheckResult(f"the quotes of the shared rite data{whose}", quotes, "quotes", tuple(problems)),
    ]


NOT_PROCEDURAL_FILE = "not_procedural.yaml"
"""In a witness folder: the clauses marked as no procedure (history, commentary), each a quote and a reason."""


def _marks(witness: str) -> tuple[list[str], int]:
    """The quotes of the witness folder's not-procedural marks: the problem of each that does not resolve."""
    import yaml

    from dianli.corpus.witnesses import witness_info
    from dianli.datafile import read_yaml
    from dianli.rites.readings import quote_problem, quotes_of

    path = witness_info(witness).folder / NOT_PROCEDURAL_FILE
    if not path.is_file():
        return [], 0
    try:
        data = read_yaml(path.read_text(encoding="utf-8"))
    except yaml.YAMLError as exc:
        return [f"{path}: not valid YAML: {exc}"], 0
    found = list(quotes_of(data))
    problems = [
        quote_problem(str(path), where, c["witness"], c["quote"], c.get("section")) for where, c in found
    ]
    return [p for p in problems if p is not None], len(found)


def _readings(witness: str) -> CheckResult:
    """The witness's readings, alignment and not-procedural marks: every quote resolves, every patch applies
    to its base rite."""
    from dianli.rites.readings import reading_problems, rites_for

    name = f"the readings, alignment and not-procedural marks of {witness_label(witness)}"
    try:
        problems, quotes = reading_problems(witness)
        marked, more = _marks(witness)
    except DianliError as exc:
        return CheckResult(name, 0, "quotes", (str(exc),))
    problems += marked
    quotes += more
    if not problems:
        try:
            rites_for(witness)
        except DianliError as exc:
            problems.append(str(exc))
    return CheckResult(name, quotes, "quotes", tuple(problems))


def run_checks(witness: str | None = None) -> tuple[CheckResult, ...]:
    """Every check of the data, all of it or what concerns one witness: the manifests (places governed or
    why none), the shared rite data and its quotes, each witness's readings and alignment (every quote
    resolves in its witness; the error names the file, the element and the closest passage; every patch
    applies). Each problem is reported, not only the first. The same checks run when the data loads,
    where each stops at its first problem; ``dianli check`` prints these results."""
    from dianli.corpus.witnesses import witness_ids as ids

    if witness is not None and witness not in ids():
        raise UnknownValueError("witness", witness, ids(), "see `dianli texts list`")
    results = _manifests(witness)
    if results[0].ok:
        results += _rite_data(witness)
        results += [_readings(w) for w in ids() if witness is None or w == witness]
    return tuple(results)
