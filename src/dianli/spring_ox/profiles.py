"""Rule sets ("profiles") for the spring ox and the Mang god, held as YAML data and validated here.

A profile is a list of *attributes* (ox.head, god.robe …). Each attribute has one rule of a small set of
kinds, and its evidence: a witness citation (``cite``), outside sources (``sources``: registry ids of
``corpus/data/outside_sources.yaml`` with the exact words) or a labelled ``assumption``. A profile with
``bases`` says for each attribute which authority it states: ``basis: rule`` — the statute as a witness
quotes it; ``basis: manual`` — an official manual's rule beyond that quotation, cited from the manual (an
outside source of the registry); ``basis: addition`` — the practitioners' addition beyond both. A disputed
point carries ``alternatives``: other readings, each with its own evidence, chosen by id. Rule kinds:

* ``value`` — a fixed value (a material, a measure);
* ``colour: {of: KEY, via: own|overcomer}`` — the colour of the 五行 of a fact (``year.stem``) or of an
  earlier attribute (``god.robe``), or of the phase that overcomes it;
* ``cases`` — the first case whose ``when`` matches the facts gives the value;
* ``first_day_after_term: {term, year_offset, branch}`` — the first day of a branch after a solar term.

Besides the two fixed profiles, a witness folder may hold ``spring_ox.yaml``: the witness's own 土牛式/芒神式
as a *patch* (:class:`ProfilePatch`) of one fixed profile (``base``). Its attributes replace the base's of
the same id (in the base's place) or are added after the base's attributes of their part; every other
attribute is the base's, with the base's evidence. Each patched attribute cites the witness or says why
not (``assumption``). The patched profile's id is the witness id (:func:`rule_ids`).
"""

from __future__ import annotations

from functools import cache
from pathlib import Path
from typing import Any, Literal, Self, TypeVar

import yaml
from pydantic import BaseModel, ConfigDict, Field, model_validator

from dianli.corpus.cite import Citation, CitationError, resolve
from dianli.corpus.sources import OutsideRef
from dianli.corpus.witnesses import manifest
from dianli.datafile import load_model, load_model_path, parse_model
from dianli.errors import DataError, UnknownValueError
from dianli.spring_ox.lichun import FACT_KEYS

_PACKAGE = "spring_ox"
PROFILE_FILES: dict[str, str] = {"gazetteer": "data/gazetteer.yaml", "almanac": "data/almanac.yaml"}
PHASES_FILE = "data/phases.yaml"
GLOSSES_FILE = "data/glosses.yaml"
PARTS = ("ox", "god", "placing", "making")
PATCH_FILE = "spring_ox.yaml"
"""In a witness folder: the witness's own spring-ox rule, a patch of a fixed profile."""
RULE_KINDS = ("value", "colour", "cases", "first_day_after_term")


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, defer_build=True)


M = TypeVar("M", bound=_Model)


class Evidence(_Model):
    """Where a rule comes from: a witness, outside sources (registry ids with the exact words), or an
    assumption (at least one)."""

    cite: Citation | None = None
    sources: tuple[OutsideRef, ...] = ()
    assumption: str | None = None
    note: str | None = None

    @model_validator(mode="after")
    def _has_evidence(self) -> Evidence:
        if self.cite is None and not self.sources and self.assumption is None:
            raise ValueError("needs cite, sources or assumption")
        return self


class Comparison(_Model):
    lt: int | None = None
    gt: int | None = None
    le: int | None = None
    ge: int | None = None


class Case(_Model):
    when: dict[str, list[str] | Comparison]
    value: Any
    cite: Citation | None = None
    sources: tuple[OutsideRef, ...] = ()
    assumption: str | None = None


class ColourRule(_Model):
    of: str
    via: Literal["own", "overcomer"] = "own"


class TermDayRule(_Model):
    term: str
    year_offset: int
    branch: str


class Rule(Evidence):
    """One way of computing an attribute (exactly one of the rule kinds)."""

    value: Any = None
    colour: ColourRule | None = None
    cases: tuple[Case, ...] | None = None
    first_day_after_term: TermDayRule | None = None

    @model_validator(mode="after")
    def _one_kind(self) -> Rule:
        kinds = [self.value is not None, self.colour, self.cases, self.first_day_after_term]
        if sum(bool(k) for k in kinds) != 1:
            raise ValueError("give exactly one of value, colour, cases, first_day_after_term")
        return self


class Alternative(Rule):
    id: str
    label: str


class Attribute(Rule):
    id: str
    part: Literal["ox", "god", "placing", "making"]
    label: str
    gloss: str
    reading: str = "as-stated"  # the id of the primary reading when there are alternatives
    alternatives: tuple[Alternative, ...] = ()
    places: tuple[str, ...] | None = None  # only at these places (site ids)
    basis: Literal["rule", "manual", "addition"] | None = None  # a key of the profile's ``bases``


class Basis(_Model):
    """What an attribute's ``basis`` means: the rule it states, with the witness that quotes the rule or
    the outside source (registry id) that states it."""

    label: str
    witness: str | None = None
    source: str | None = None


class Bases(_Model):
    """A profile whose attributes say which authority they state: the statute's ``rule`` (as a witness
    quotes it), an official ``manual``'s rule beyond it (an outside source), or the practitioners'
    ``addition`` beyond both."""

    rule: Basis
    manual: Basis | None = None
    addition: Basis | None = None

    def get(self, basis: str) -> Basis | None:
        """The basis of that name (``None`` where the profile defines none)."""
        found: Basis | None = getattr(self, basis, None)
        return found

    @property
    def names(self) -> tuple[str, ...]:
        """The bases this profile defines, in order."""
        return tuple(name for name in ("rule", "manual", "addition") if self.get(name) is not None)


class Defaults(_Model):
    place: str
    clock: str
    day_source: str
    boundary: str


class Profile(_Model):
    id: str
    title: str
    summary: str
    defaults: Defaults
    bases: Bases | None = None
    notes: tuple[Evidence, ...] = ()
    attributes: tuple[Attribute, ...] = Field(min_length=1)

    def basis_label(self, attribute: Attribute) -> str:
        """The words for an attribute's basis (``""`` where the profile has none)."""
        basis = None if self.bases is None or attribute.basis is None else self.bases.get(attribute.basis)
        return "" if basis is None else basis.label

    def attribute(self, attribute_id: str) -> Attribute:
        for attribute in self.attributes:
            if attribute.id == attribute_id:
                return attribute
        raise UnknownValueError(
            f"attribute of profile {self.id}", attribute_id, [a.id for a in self.attributes]
        )


class ProfilePatch(_Model):
    """``spring_ox.yaml`` of a witness folder: the witness's own rule as changes to a fixed profile."""

    base: str
    title: str
    summary: str
    notes: tuple[Evidence, ...] = ()
    attributes: tuple[Attribute, ...] = Field(min_length=1)


class Phase(_Model):
    element: str
    colour: str
    hex: str
    cite: Citation


class Phases(_Model):
    phases: tuple[Phase, ...]
    overcomes: dict[str, str]  # 木 → 土: wood overcomes earth
    overcomes_evidence: Evidence
    hex_assumption: str


class Gloss(_Model):
    """A further citation of the gazetteer rule, linked to the attributes or phases it supports."""

    attributes: tuple[str, ...] = ()
    phases: tuple[str, ...] = ()
    cite: Citation
    note: str | None = None

    @model_validator(mode="after")
    def _supports_something(self) -> Self:
        if not self.attributes and not self.phases:
            raise ValueError("a gloss names the attributes or the phases it supports")
        return self


class Glosses(_Model):
    """``data/glosses.yaml``: the wording of one profile's rule in the other witnesses."""

    profile: str
    glosses: tuple[Gloss, ...]


def _validate(model: type[M], name: str, data: Any) -> M:
    """Validate data already in memory as the file ``name`` (errors as :mod:`dianli.datafile` gives them)."""
    return parse_model(f"dianli/{_PACKAGE}/{name}", yaml.safe_dump(data, allow_unicode=True), model)


def _duplicates(attributes: tuple[Attribute, ...]) -> list[str]:
    ids = [a.id for a in attributes]
    return sorted({i for i in ids if ids.count(i) > 1})


@cache
def load_profile(profile_id: str) -> Profile:
    """The rule set ``gazetteer`` or ``almanac``, or a witness's own (its id; see :func:`rule_ids`)."""
    if profile_id in PROFILE_FILES:
        name = PROFILE_FILES[profile_id]
        profile = load_model(_PACKAGE, name, Profile)
        duplicates = _duplicates(profile.attributes)
        if duplicates:
            raise DataError(f"dianli/{_PACKAGE}/{name}: duplicate attribute ids {duplicates}")
        check_bases(f"dianli/{_PACKAGE}/{name}", profile)
        return profile
    own = witness_profiles()
    if profile_id in own:
        return own[profile_id]
    raise UnknownValueError("spring-ox rule set", profile_id, rule_ids())


def check_bases(where: str, profile: Profile) -> None:
    """With ``bases``, every attribute says one of the profile's bases, and cites what that basis names:
    a passage of the rule's witness, a quotation of the manual (an outside source)."""
    if profile.bases is None:
        return
    names = profile.bases.names
    for i, attribute in enumerate(profile.attributes):
        at = f"{where}: attributes.{i} ({attribute.id})"
        basis = None if attribute.basis is None else profile.bases.get(attribute.basis)
        if basis is None:
            said = "missing" if attribute.basis is None else f"unknown {attribute.basis!r}"
            raise DataError(f"{at}: basis: {said}; accepted: {', '.join(names)}")
        others = " or ".join(f"basis: {n}" for n in names if n != attribute.basis)
        cites = [c.witness for c in _evidence_of(attribute)]
        if basis.witness is not None and basis.witness not in cites:
            raise DataError(
                f"{at}: basis {attribute.basis} cites no passage of {basis.witness}; accepted: "
                f"cite: {{witness: {basis.witness}, quote: ...}} or {others}"
            )
        sources = [
            r.source for r in (*attribute.sources, *(r for c in attribute.cases or () for r in c.sources))
        ]
        if basis.source is not None and basis.source not in sources:
            raise DataError(
                f"{at}: basis {attribute.basis} quotes nothing of {basis.source}; accepted: "
                f"sources: [{{source: {basis.source}, quote: ...}}] or {others}"
            )


def _facts_used(rule: Rule) -> list[tuple[str, str]]:
    """(where, key) of every fact or attribute a rule reads."""
    out: list[tuple[str, str]] = []
    if rule.colour is not None:
        out.append(("colour.of", rule.colour.of))
    for i, case in enumerate(rule.cases or ()):
        out += [(f"cases.{i}.when", key) for key in case.when]
    return out


def _evidence_of(rule: Rule) -> list[Citation]:
    cites = [rule.cite] if rule.cite is not None else []
    return cites + [c.cite for c in rule.cases or () if c.cite is not None]


def _check_patch(path: Path, witness: str, patch: ProfilePatch) -> None:
    """Cross-check a witness's patch: its base, its ids, the facts it reads, its evidence and quotes."""
    if patch.base not in PROFILE_FILES:
        raise DataError(f"{path}: base: unknown {patch.base!r}; accepted: {', '.join(PROFILE_FILES)}")
    duplicates = _duplicates(patch.attributes)
    if duplicates:
        raise DataError(f"{path}: duplicate attribute ids {duplicates}")
    known = {a.id for a in load_profile(patch.base).attributes} | {a.id for a in patch.attributes}
    for i, attribute in enumerate(patch.attributes):
        where = f"{path}: attributes.{i} ({attribute.id})"
        for rule in (attribute, *attribute.alternatives):
            for field, key in _facts_used(rule):
                if key not in FACT_KEYS and not (field == "colour.of" and key in known):
                    accepted = FACT_KEYS if field != "colour.of" else (*FACT_KEYS, *sorted(known))
                    raise DataError(
                        f"{where}: {field}: unknown fact {key!r}; accepted: {', '.join(accepted)}"
                    )
        cites = [c for rule in (attribute, *attribute.alternatives) for c in _evidence_of(rule)]
        if not any(c.witness == witness for c in cites) and attribute.assumption is None:
            raise DataError(
                f"{where}: cites no passage of {witness} and gives no assumption; a witness's rule "
                f"states what the witness says (cite: {{witness: {witness}, quote: ...}}) or says why not"
            )
        for cite in cites:
            try:
                resolve(cite.witness, cite.quote, cite.section)
            except CitationError as exc:
                raise DataError(f"{where}: {exc}") from None


def _patched(witness: str, patch: ProfilePatch) -> Profile:
    """The base profile with the patch's attributes in place (replaced) or after their part (added)."""
    base = load_profile(patch.base)
    replacing = {a.id: a for a in patch.attributes}
    attributes = [replacing.pop(a.id, a) for a in base.attributes]
    for added in replacing.values():
        last = max((i for i, a in enumerate(attributes) if a.part == added.part), default=len(attributes) - 1)
        attributes.insert(last + 1, added)
    return Profile(
        id=witness,
        title=patch.title,
        summary=patch.summary,
        defaults=base.defaults,
        notes=patch.notes + base.notes,
        attributes=tuple(attributes),
    )


@cache
def witness_patches() -> dict[str, tuple[Path, ProfilePatch]]:
    """Every witness's ``spring_ox.yaml`` (witness id → its path and patch), validated and cross-checked."""
    out: dict[str, tuple[Path, ProfilePatch]] = {}
    for info in manifest():
        path = info.folder / PATCH_FILE
        if not path.is_file():
            continue
        if info.id in PROFILE_FILES:
            raise DataError(f"{path}: witness id {info.id!r} is the name of a fixed rule set")
        patch = load_model_path(path, ProfilePatch)
        _check_patch(path, info.id, patch)
        out[info.id] = (path, patch)
    return out


@cache
def witness_profiles() -> dict[str, Profile]:
    """The witnesses' own rule sets, by witness id (the patches applied to their bases)."""
    return {w: _patched(w, patch) for w, (_, patch) in witness_patches().items()}


def base_of(rule_id: str) -> str:
    """The fixed profile a rule set is built on (itself for a fixed one)."""
    patches = witness_patches()
    return patches[rule_id][1].base if rule_id in patches else rule_id


def stated_attributes(rule_id: str) -> tuple[str, ...]:
    """The attribute ids a witness's rule set states itself (all of them for a fixed profile)."""
    patches = witness_patches()
    if rule_id in patches:
        return tuple(a.id for a in patches[rule_id][1].attributes)
    return tuple(a.id for a in load_profile(rule_id).attributes)


@cache
def load_phases() -> Phases:
    """The five phases: colour names, print colours, and which overcomes which."""
    return load_model(_PACKAGE, PHASES_FILE, Phases)


@cache
def load_glosses() -> Glosses:
    """The further citations of the gazetteer rule; every attribute and phase they name must exist."""
    return check_glosses(load_model(_PACKAGE, GLOSSES_FILE, Glosses), f"dianli/{_PACKAGE}/{GLOSSES_FILE}")


def check_glosses(glosses: Glosses, where: str) -> Glosses:
    """``glosses`` if its profile, attributes and phases exist; else a DataError naming ``where``."""
    if glosses.profile not in PROFILE_FILES:
        raise DataError(
            f"{where}: profile: unknown {glosses.profile!r}; accepted: {', '.join(PROFILE_FILES)}"
        )
    attributes = [a.id for a in load_profile(glosses.profile).attributes]
    elements = [p.element for p in load_phases().phases]
    for i, gloss in enumerate(glosses.glosses):
        for kind, names, known in (
            ("attributes", gloss.attributes, attributes),
            ("phases", gloss.phases, elements),
        ):
            unknown = [n for n in names if n not in known]
            if unknown:
                raise DataError(
                    f"{where}: glosses.{i}.{kind}: unknown {', '.join(unknown)}; accepted: {', '.join(known)}"
                )
    return glosses


def profile_ids() -> tuple[str, ...]:
    """The fixed profiles (``gazetteer``, ``almanac``)."""
    return tuple(PROFILE_FILES)


def rule_ids() -> tuple[str, ...]:
    """Every rule set: the fixed profiles, then each witness with its own ``spring_ox.yaml``."""
    return (*PROFILE_FILES, *witness_patches())
