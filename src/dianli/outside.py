"""Every outside source with its grade, what it supports and where: the registry joined to its uses.

The registry (:mod:`dianli.corpus.sources`) says what each source is; this module finds where the data and
the code rely on it:

* *cited* uses — the data names the source by id with the exact words: the spring-ox rule sets (the fixed
  profiles and every witness's own ``spring_ox.yaml``) and the place data (the parents of units, the end
  of Qing rule, the dataset the units come from). Each supports a named rule;
* *mentioned* uses — a file of the package (data or code) gives one of the source's addresses in prose
  (an assumption that names its page) or its id as ``dianli sources ID`` in backquotes, or code names it
  through :func:`dianli.corpus.sources.source_mention`. Each supports the element of the file where it
  stands.

:func:`unregistered_addresses` lists every web address in the package that is no registered source (and no
technical address such as an XML namespace): the registry is complete when it is empty.
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from urllib.parse import unquote

from dianli.corpus.sources import OUTSIDE_SOURCES_FILE, OutsideRef, OutsideSource, outside_sources
from dianli.errors import UnknownValueError
from dianli.places.places import all_places, period_quotes, place_at, place_sources, qing_rule_ends
from dianli.spring_ox.profiles import (
    PROFILE_FILES,
    Attribute,
    Evidence,
    Profile,
    Rule,
    load_profile,
    rule_ids,
    witness_patches,
)

_ROOT = Path(str(resources.files("dianli")))
_URL = re.compile(r"https?://[^\s)\"'<>,;，。」]+")
_MENTION = re.compile(
    r"""source_mention\(\s*["']([a-z0-9-]+)["']\s*\)|outside source ``([a-z0-9-]+)``|`dianli sources ([a-z0-9-]+)`"""
)
_MARKERS = ("http", "source_mention(", "outside source ``", "`dianli sources ")
"""A line without one of these names no outside source (a quick filter before the patterns)."""
TECHNICAL_HOSTS = (
    "www.w3.org",
    "www.tei-c.org",
    "relaxng.org",
    "spdx.org",
    "127.0.0.1",
    "www.musicxml.org",
    "maps.cga.harvard.edu",
)
"""Hosts of addresses that name a format, a licence or a local server, not a source."""
TECHNICAL_PATHS = ("/ns/", ".dtd", ".rng", ".xsd", "/schema")
"""Address parts that name a namespace or a schema, not a source."""


@dataclass(frozen=True, slots=True)
class Use:
    """One place where the data or the code relies on an outside source."""

    source: str
    supports: str
    where: str
    quote: str | None = None
    rule: str | None = None
    """The rule it supports, where the use is cited (``spring_ox.god.height``, ``places.PLACE.parent``)."""


@dataclass(frozen=True, slots=True)
class SourceUses:
    """A registry entry with every use of it."""

    source: OutsideSource
    uses: tuple[Use, ...]


# --- cited uses ------------------------------------------------------------------------------


def _place_name(place_id: str | None, year: int) -> str:
    """A parent unit as a reader names it: its name in ``year`` (the id is for the data)."""
    return "none" if place_id is None else place_at(place_id, year).name


def _rule_file(rule_set: str) -> str:
    patches = witness_patches()
    if rule_set in patches:
        path = patches[rule_set][0]
        return f"{path.parent.name}/{path.name}"
    return f"dianli/spring_ox/{PROFILE_FILES[rule_set]}"


def _refs(rule: Evidence) -> list[OutsideRef]:
    refs = list(rule.sources)
    if isinstance(rule, Rule):
        refs += [r for case in rule.cases or () for r in case.sources]
    return refs


def _attribute_uses(rule_set: str, profile: Profile, attribute: Attribute) -> list[Use]:
    where = f"{_rule_file(rule_set)}: {attribute.id}"
    key = f"spring_ox.{attribute.id}"
    out = []
    readings: list[tuple[str, Rule]] = [(attribute.reading, attribute)]
    readings += [(alt.id, alt) for alt in attribute.alternatives]
    for reading, rule in readings:
        label = "" if rule is attribute else f", reading {reading}"
        basis = profile.basis_label(attribute)
        supports = f"spring ox, rule set {rule_set}: {attribute.label} {attribute.gloss}{label}"
        supports += f" ({basis})" if basis else ""
        out += [Use(r.source, supports, where, r.quote, key) for r in _refs(rule)]
    return out


def _spring_ox_uses() -> list[Use]:
    out: list[Use] = []
    own = witness_patches()
    for rule_set in rule_ids():
        profile = load_profile(rule_set)
        stated = {a.id for a in own[rule_set][1].attributes} if rule_set in own else None
        for attribute in profile.attributes:
            if stated is None or attribute.id in stated:
                out += _attribute_uses(rule_set, profile, attribute)
        for i, note in enumerate(profile.notes):
            if stated is not None and i >= len(own[rule_set][1].notes):
                continue  # the base's notes, counted with the base
            where = f"{_rule_file(rule_set)}: notes.{i}"
            out += [
                Use(r.source, f"spring ox, rule set {rule_set}: a note on the rule", where, r.quote)
                for r in note.sources
            ]
    return out


def _place_uses() -> list[Use]:
    where = "dianli/places/data/places.yaml"
    out: list[Use] = []
    dataset = place_sources()[0]
    out.append(
        Use(dataset.id, "the units, years, names and seats of every place", f"{where}: dataset_source")
    )
    for ending in qing_rule_ends():
        out += [
            Use(
                q.source, f"the end of Qing rule: {ending.event}", f"{where}: {ending.id}", q.quote, ending.id
            )
            for q in ending.cite
        ]
    for place in all_places():
        for period in place.periods:
            for q in period_quotes(period):
                out.append(
                    Use(
                        q.source,
                        f"the parent of {period.name} ({period.from_year}–{period.until_year}): "
                        f"{_place_name(period.parent, period.from_year)}",
                        f"{where}: {period.name}",
                        q.quote,
                        f"places.{place.id}.parent",
                    )
                )
    return out


# --- mentioned uses ------------------------------------------------------------------------------


def _normal(url: str) -> str:
    return unquote(url).rstrip(".:/").removeprefix("https://").removeprefix("http://")


@functools.cache
def _address_index() -> dict[str, str]:
    return {_normal(a): s.id for s in outside_sources().values() for a in s.addresses}


def _package_files() -> list[Path]:
    skip = _ROOT / "corpus" / OUTSIDE_SOURCES_FILE
    files = [*_ROOT.rglob("*.yaml"), *_ROOT.rglob("*.py")]
    return sorted(p for p in files if p != skip and "__pycache__" not in p.parts)


def _context(lines: list[str], index: int, python: bool) -> str:
    """The element a line stands in: the nearest enclosing key (YAML) or definition (Python)."""
    line = lines[index]
    depth = len(line) - len(line.lstrip())
    pattern = re.compile(r"^\s*(?:def|class)\s+(\w+)|^([A-Z_][A-Z0-9_]*)\s*[:=]") if python else None
    for j in range(index, -1, -1):
        text = lines[j]
        if not text.strip() or text.lstrip().startswith("#"):
            continue
        if pattern is not None:
            m = pattern.match(text)
            if m:
                return m.group(1) or m.group(2)
            continue
        indent = len(text) - len(text.lstrip())
        key = re.match(r"^\s*(?:- )?(?:\{?\s*)([\w.-]+):", text)
        if key and (indent < depth or j == index):
            item = re.match(r"^\s*- (?:id|reign|name|role): *([^\s,}]+)", text)
            if item:
                return item.group(1)
            if indent == 0:
                return key.group(1)
            depth = min(depth, indent)
    return "module documentation" if python else "top level"


def _scan() -> tuple[list[Use], list[str]]:
    """(mentions of registered sources, unregistered addresses) in every data and code file."""
    index = _address_index()
    uses: list[Use] = []
    unknown: list[str] = []
    for path in _package_files():
        rel = "dianli/" + path.relative_to(_ROOT).as_posix()
        text = path.read_text(encoding="utf-8")
        if not any(k in text for k in _MARKERS):
            continue
        lines = text.splitlines()
        python = path.suffix == ".py"
        for i, line in enumerate(lines):
            if not any(k in line for k in _MARKERS):
                continue
            found = [index.get(_normal(u)) for u in _URL.findall(line)]
            for url, source_id in zip(_URL.findall(line), found, strict=True):
                technical = url.split("/")[2].startswith(TECHNICAL_HOSTS) or any(
                    p in url for p in TECHNICAL_PATHS
                )
                if source_id is None and not technical:
                    unknown.append(f"{rel}:{i + 1}: {url}")
            ids = [s for s in found if s is not None]
            ids += [a or b or c for a, b, c in _MENTION.findall(line)]
            for source_id in dict.fromkeys(ids):
                what = _context(lines, i, python)
                uses.append(Use(source_id, f"{'code' if python else 'data'}: {what}", f"{rel}:{i + 1}"))
    return uses, unknown


def unregistered_addresses() -> tuple[str, ...]:
    """Every web address of the package's data and code that is no registered outside source."""
    return tuple(_scan()[1])


# --- the report ------------------------------------------------------------------------------


@functools.cache
def source_uses() -> tuple[SourceUses, ...]:
    """Every outside source of the registry with its uses, strongest grade first."""
    uses = [*_spring_ox_uses(), *_place_uses(), *_scan()[0]]
    registry = outside_sources()
    unknown = sorted({u.source for u in uses} - set(registry))
    if unknown:
        raise UnknownValueError("outside source", unknown[0], sorted(registry), "see `dianli sources`")
    by_source: dict[str, list[Use]] = {s: [] for s in registry}
    for use in uses:
        if use not in by_source[use.source]:
            by_source[use.source].append(use)
    ordered = sorted(registry.values(), key=lambda s: (s.kind.rank, s.weak, s.id))
    return tuple(SourceUses(s, tuple(by_source[s.id])) for s in ordered)


def source_uses_of(source_id: str) -> SourceUses:
    """One source with its uses; an unknown id lists the registry."""
    for entry in source_uses():
        if entry.source.id == source_id:
            return entry
    raise UnknownValueError("outside source", source_id, sorted(outside_sources()), "see `dianli sources`")


@dataclass(frozen=True, slots=True)
class Support:
    """What one rule, as stated in one place of the data, rests on.

    ``rule`` names the rule by what it says — a spring-ox attribute with the meaning of its reading
    (``spring_ox.god.height = 36.5 cun``), a unit's parent in a period — so that the same rule stated in
    several rule sets or files is one rule."""

    rule: str
    where: str
    witnesses: tuple[str, ...]
    strong: tuple[str, ...]
    weak: tuple[str, ...]
    labelled: str | None
    """Why a rule on weak sources alone stands: its basis (an addition beyond the statute), an assumption,
    an alternative reading, or the source's own note that no better copy was found."""

    @property
    def weak_only(self) -> bool:
        return bool(self.weak) and not self.witnesses and not self.strong


def _spring_ox_supports() -> list[Support]:
    from dianli.comparison.spring_ox_variation import (
        meaning,  # the spring-ox comparison's own notion of a reading
    )

    out: list[Support] = []
    registry = outside_sources()
    for rule_set in rule_ids():
        profile = load_profile(rule_set)
        for attribute in profile.attributes:
            for rule in (attribute, *attribute.alternatives):
                reading = attribute.reading if rule is attribute else getattr(rule, "id", "")
                means = meaning(rule)[0]  # type: ignore[arg-type]
                refs = _refs(rule)
                cites = [c.witness for c in (rule.cite, *(c.cite for c in rule.cases or ())) if c is not None]
                label = None
                if attribute.basis == "addition":
                    label = profile.basis_label(attribute)
                elif rule.assumption or any(c.assumption for c in rule.cases or ()):
                    label = "assumption"
                elif rule is not attribute:
                    label = f"alternative reading {reading}"
                out.append(
                    Support(
                        rule=f"spring_ox.{attribute.id} = {means}",
                        where=f"{_rule_file(rule_set)}: {attribute.id} [{reading}]",
                        witnesses=tuple(dict.fromkeys(cites)),
                        strong=tuple(dict.fromkeys(r.source for r in refs if registry[r.source].strong)),
                        weak=tuple(dict.fromkeys(r.source for r in refs if registry[r.source].weak)),
                        labelled=label,
                    )
                )
    return out


def _place_supports() -> list[Support]:
    registry = outside_sources()
    out: list[Support] = []
    for place in all_places():
        for period in place.periods:
            quotes = period_quotes(period)
            if not quotes:
                continue
            weak = tuple(dict.fromkeys(q.source for q in quotes if registry[q.source].weak))
            notes = [n for n in (registry[s].best_available for s in weak) if n]
            out.append(
                Support(
                    rule=f"places.{place.id} {period.from_year}–{period.until_year} parent = {period.parent}",
                    where=f"dianli/places/data/places.yaml: {place.id}",
                    witnesses=(),
                    strong=tuple(dict.fromkeys(q.source for q in quotes if registry[q.source].strong)),
                    weak=weak,
                    labelled=(
                        "assumption"
                        if period.parent_source is not None and period.parent_source.assumption
                        else ("; ".join(notes) if notes and len(notes) == len(weak) else None)
                    ),
                )
            )
    for ending in qing_rule_ends():
        sources = tuple(dict.fromkeys(q.source for q in ending.cite))
        out.append(
            Support(
                rule=f"places.qing_rule_ends.{ending.id}",
                where=f"dianli/places/data/places.yaml: {ending.id}",
                witnesses=(),
                strong=tuple(s for s in sources if registry[s].strong),
                weak=tuple(s for s in sources if registry[s].weak),
                labelled=None,
            )
        )
    return out


@functools.cache
def rule_supports() -> tuple[Support, ...]:
    """Every rule of the data that outside sources support, as stated in each place (spring-ox readings in
    every rule set, the parents of units, the end of Qing rule), with what it rests on there."""
    return (*_spring_ox_supports(), *_place_supports())


def unsound_supports(supports: tuple[Support, ...] | None = None) -> tuple[Support, ...]:
    """The rules that rest on weak sources alone (web summaries, texts read on a mirror or in a forum)
    where they should not: a witness or a strong source states the same rule elsewhere in the data, or
    nothing says why the weak source stands (an addition beyond the statute, an assumption, an alternative
    reading, or the source's note that no better copy was found). ``supports``: these instead of the
    data's (:func:`rule_supports`)."""
    supports = rule_supports() if supports is None else supports
    backed = {s.rule for s in supports if s.witnesses or s.strong}
    return tuple(s for s in supports if s.weak_only and (s.rule in backed or not s.labelled))


def source_json(entry: SourceUses) -> dict[str, object]:
    """One source with its grade and uses, as JSON."""
    src = entry.source
    return {
        **src.model_dump(mode="json", exclude_none=True, exclude={"also_at"}),
        **({"also_at": list(src.also_at)} if src.also_at else {}),
        "kind_label": src.kind.label,
        "read_label": src.read.label,
        "grade": src.grade,
        "weak": src.weak,
        "uses": [
            {
                k: v
                for k, v in (
                    ("supports", u.supports),
                    ("where", u.where),
                    ("quote", u.quote),
                    ("rule", u.rule),
                )
                if v
            }
            for u in entry.uses
        ],
    }


__all__ = [
    "SourceUses",
    "Support",
    "Use",
    "rule_supports",
    "source_json",
    "source_uses",
    "source_uses_of",
    "unregistered_addresses",
    "unsound_supports",
]
