"""Two kinds of collation, and the choice between them.

**Textual families.** Two witnesses are of one textual family when one copies or abridges the other — which
the texts themselves show: long runs of identical characters. For every pair of witnesses of a section,
:func:`kinship` is the share of the shorter text's characters (folding keys) that stand in runs of at least
:data:`FAMILY_RUN` characters shared with the other, in order. At :data:`FAMILY_SHARE` or more the two are
kin; a family is a group linked by kinship (single linkage). 福建通志 and 汀州府志's 典禮 copy one text
almost whole; two county gazetteers that each wrote their own chapter share a formula here and there, and
well under half their characters.

**The choice.** Witnesses of one family are collated character by character (:mod:`.collate`: parallel
segmentation, TEI); when the witnesses of a section fall into more than one family, a character alignment
would set unrelated passages side by side, so they are set side by side **synoptically**: one row per point
of the model (from the correspondence table, :mod:`.table`: a rite's days, its officiants, each element of
its order of service …), one cell per witness holding its own words for that point, the differing values
marked (:mod:`.compare`). :func:`choose` says which kind and why; ``dianli collate`` follows it unless told.
"""

from __future__ import annotations

import csv
import difflib
import functools
import html
import io
from collections.abc import Sequence
from dataclasses import dataclass

from dianli.comparison.collate import resolve_target, section_witnesses, witness_tokens
from dianli.comparison.compare import Cell, cells_of, verdict_of
from dianli.comparison.table import Statement, table
from dianli.comparison.values import KINDS
from dianli.corpus.labels import witness_label
from dianli.corpus.sections import is_within, section_defs
from dianli.corpus.witnesses import manifest
from dianli.errors import UnknownValueError
from dianli.rites.load import all_rites
from dianli.rites.model import Names, walk_paths

FAMILY_RUN = 8
"""Shared runs shorter than this (a formula, a title) say nothing of copying."""
FAMILY_SHARE = 0.5
"""Two witnesses are kin when at least this share of the shorter one stands in shared long runs."""
KINDS_OF_COLLATION = ("textual", "synoptic")


def kinship(a: str, b: str) -> float:
    """The share of the shorter of two folded texts that stands in runs of at least :data:`FAMILY_RUN`
    characters shared with the other, in order (0 for an empty text)."""
    short, long = (a, b) if len(a) <= len(b) else (b, a)
    if not short:
        return 0.0
    blocks = difflib.SequenceMatcher(None, short, long, autojunk=False).get_matching_blocks()
    return sum(block.size for block in blocks if block.size >= FAMILY_RUN) / len(short)


@dataclass(frozen=True, slots=True)
class Families:
    """The witnesses of a section grouped into textual families, with every pair's kinship."""

    section: str
    groups: tuple[tuple[str, ...], ...]
    kinships: tuple[tuple[str, str, float], ...]

    def family_of(self, witness: str) -> tuple[str, ...]:
        return next(g for g in self.groups if witness in g)

    def describe(self) -> str:
        """The families in words, with the strongest kinship inside each (or the strongest across)."""
        parts = []
        for group in self.groups:
            names = "、".join(witness_label(w) for w in group)
            inside = [k for k in self.kinships if k[0] in group and k[1] in group]
            if inside:
                best = max(inside, key=lambda k: k[2])
                parts.append(
                    f"{names} ({best[2]:.0%} of the shorter in shared runs of {FAMILY_RUN}+ characters)"
                )
            else:
                parts.append(names)
        return "; ".join(parts)


@functools.cache
def families(section: str) -> Families:
    """The textual families of the witnesses of ``section`` (those :func:`.collate.section_witnesses`
    collates), measured on their texts."""
    ids, _ = section_witnesses(section)
    keys = {w: "".join(t.key for t in witness_tokens(w, section)[0]) for w in ids}
    pairs = []
    parent = {w: w for w in ids}

    def root(w: str) -> str:
        while parent[w] != w:
            w = parent[w]
        return w

    for i, a in enumerate(ids):
        for b in ids[i + 1 :]:
            share = kinship(keys[a], keys[b])
            pairs.append((a, b, round(share, 3)))
            if share >= FAMILY_SHARE:
                parent[root(b)] = root(a)
    groups: dict[str, list[str]] = {}
    for w in ids:
        groups.setdefault(root(w), []).append(w)
    return Families(section, tuple(tuple(g) for g in groups.values()), tuple(pairs))


def choose(rite: str, section: str | None = None) -> tuple[str, str]:
    """(kind of collation, why): textual when the section's witnesses are one family, else synoptic."""
    _, section_id = resolve_target(rite, section)
    found = families(section_id)
    if len(found.groups) <= 1:
        return "textual", f"one textual family: {found.describe()}"
    return "synoptic", f"{len(found.groups)} textual families ({found.describe()}): set side by side by point"


# --- the synopsis -----------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class SynopticRow:
    """One point of the model: its words, the kind of fact, the verdict, and each witness's cell."""

    slot: str
    label: str
    kind: str
    verdict: str
    cells: tuple[Cell, ...]
    odd: frozenset[str]
    """The witnesses whose values differ from those of the most witnesses (marked)."""

    def cell(self, witness: str) -> Cell | None:
        return next((c for c in self.cells if c.witness == witness), None)


@dataclass(frozen=True, slots=True)
class Synopsis:
    """A rite's (or section's) points, one row each, one column per witness that states any."""

    rite: str
    section: str
    section_title: str
    witnesses: tuple[str, ...]
    rows: tuple[SynopticRow, ...]
    why: str


def _label(rite: str, statements: Sequence[Statement]) -> str:
    first = statements[0]
    name = all_rites()[rite].names.classical[0]
    if first.kind != "text":
        about = next((s.about for s in statements if s.about), "")
        return f"{name}·{KINDS[first.kind].label}" + (f"·{about}" if about else "")
    return f"{name}·{_element_words(rite, first.element)}"


@functools.cache
def _element_names(rite: str) -> dict[str, str]:
    """path → a short description of every element of the base rite, in words (its title, name, call or
    action; a step by its part's title and its number)."""
    out: dict[str, str] = {}
    for path, element in walk_paths(all_rites()[rite], rite):
        if isinstance(element, Names):
            out[path] = element.classical[0]
            continue
        words = next(
            (
                str(getattr(element, f))
                for f in ("title", "name", "call", "action", "office", "text")
                if isinstance(getattr(element, f, None), str)
            ),
            "",
        )
        out[path] = words[:24]
    return out


FIELD_WORDS = {"layout": "陳設圖 (layout)", "plan": "位次圖 (plan)", "occasion": "同日之祭 (occasion)"}
"""Words for the elements of the model that have none of their own (a layout is its altar's)."""


def _element_words(rite: str, path: str) -> str:
    words = _element_names(rite).get(path)
    if words:
        return words
    if path == rite:
        return "篇首 (the rite's heading)"
    parent, _, field = path.rpartition(".")
    field = field.split("[")[0]
    above = _element_names(rite).get(parent, "")
    return "·".join(w for w in (above, FIELD_WORDS.get(field, "")) if w) or "text"


def _order(rite: str) -> dict[str, int]:
    return {p: i for i, (p, _) in enumerate(walk_paths(all_rites()[rite], rite))}


def synopsis(rite: str, section: str | None = None) -> Synopsis:
    """The synoptic collation of a rite (or of a section inside it): every point of the model that a
    witness of the section states, one row each (facts by slot, wording by element)."""
    rite_id, section_id = resolve_target(rite, section)
    if rite_id is None:
        raise UnknownValueError("rite (a synopsis is by the points of a rite)", rite, sorted(all_rites()))
    ids, _ = section_witnesses(section_id)
    wanted = set(ids)
    by_slot: dict[str, list[Statement]] = {}
    for s in table().where(rite=rite_id):
        if s.witness in wanted and (section is None or is_within(s.section, section_id)):
            by_slot.setdefault(s.slot, []).append(s)
    order = _order(rite_id)
    rows = []
    for slot, statements in sorted(
        by_slot.items(), key=lambda kv: (min(order.get(s.element, len(order)) for s in kv[1]), kv[0])
    ):
        cells = cells_of(statements)
        largest: dict[frozenset[str], int] = {}
        for c in cells:
            largest[c.keys] = largest.get(c.keys, 0) + 1
        common = max(largest, key=lambda k: largest[k])
        if largest[common] < 2:  # no two witnesses agree: no majority to mark against
            common = frozenset().union(*(c.keys for c in cells))
        kind = statements[0].kind
        if kind == "text":  # wording only: compared by identity, nothing marked as a different value
            odd: frozenset[str] = frozenset()
            verdict = "alone" if len(cells) == 1 else "agrees" if len(largest) == 1 else "wording"
        else:
            odd = frozenset(c.witness for c in cells if not (c.keys <= common or common <= c.keys))
            verdict = verdict_of(cells)
        rows.append(SynopticRow(slot, _label(rite_id, statements), kind, verdict, cells, odd))
    used = {c.witness for r in rows for c in r.cells}
    return Synopsis(
        rite=rite_id,
        section=section_id,
        section_title=section_defs()[section_id].title,
        witnesses=tuple(w for w in ids if w in used),
        rows=tuple(rows),
        why=choose(rite, section)[1],
    )


# --- renderers ---------------------------------------------------------------------------------------

VERDICT_WORDS = {
    "differs": "the values differ",
    "wording": "other words",
    "agrees": "the same words",
    "alone": "one witness",
}


def _cell_text(cell: Cell) -> str:
    quotes = "｜".join(dict.fromkeys(s.quote for s in cell.statements))
    if cell.statements[0].kind == "text":
        return f"「{quotes}」"
    return f"{'、'.join(cell.values)}「{quotes}」"


def synopsis_lines(result: Synopsis, width: int = 80) -> list[str]:
    """The synopsis as text: a block per row, a line per witness (odd values marked ▲)."""
    from dianli.lines import fit_line

    out = fit_line(
        f"{result.section_title}: {len(result.rows)} points, {len(result.witnesses)} witnesses, set side by "
        f"side (synoptic collation) — {result.why}",
        width,
        hang=2,
    )
    for row in result.rows:
        out.append("")
        out += fit_line(f"{row.label} — {VERDICT_WORDS[row.verdict]}", width, hang=2)
        for cell in row.cells:
            mark = "▲ " if cell.witness in row.odd else "  "
            out += fit_line(f"{mark}{witness_label(cell.witness)}: {_cell_text(cell)}", width, hang=6)
    return out


def synopsis_csv(result: Synopsis) -> str:
    """One row per (point, witness): the point in words, its kind and verdict, the witness, values, words."""
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(["point", "slot", "kind", "verdict", "witness", "title", "values", "differs", "quotes"])
    for row in result.rows:
        for cell in row.cells:
            writer.writerow(
                [
                    row.label, row.slot, row.kind, row.verdict, cell.witness, witness_label(cell.witness),
                    "、".join(cell.values) if row.kind != "text" else "", cell.witness in row.odd,
                    " | ".join(dict.fromkeys(s.quote for s in cell.statements)),
                ]
            )  # fmt: skip
    return buffer.getvalue()


SYNOPSIS_STYLE = """
body{font-family:system-ui,'Noto Sans CJK TC',sans-serif;margin:0 auto;max-width:72rem;padding:1rem;
line-height:1.5}
h1{font-size:1.3rem}p.why{color:#444}
section.point{border-top:1px solid #ccc;padding:.5rem 0}
section.point h2{font-size:1rem;margin:.2rem 0}
.verdict{font-weight:normal;font-size:.85rem;color:#555}.differs .verdict{color:#a40}
dl{display:grid;grid-template-columns:minmax(6rem,12rem) 1fr;gap:.2rem .8rem;margin:.3rem 0}
dt{font-weight:600}dd{margin:0}
mark{background:#ffe2b8;padding:0 .15em}
@media (max-width:40rem){dl{grid-template-columns:1fr}dd{margin-left:.8rem}}
"""


def synopsis_html(result: Synopsis) -> str:
    """A standalone page: one section per point, each witness's words under its title, the differing
    values marked; one column on a phone, two on a desktop."""
    e = html.escape
    out = [
        "<!doctype html><html lang='zh-Hant'><head><meta charset='utf-8'>",
        "<meta name='viewport' content='width=device-width, initial-scale=1'>",
        f"<title>{e(result.section_title)} — synoptic collation</title><style>{SYNOPSIS_STYLE}</style>",
        "</head><body><main>",
        f"<h1>{e(result.section_title)}: the witnesses side by side</h1>",
        f"<p class='why'>{e(result.why)}. {len(result.rows)} points; a value that differs from most "
        "witnesses' is marked.</p>",
    ]
    for row in result.rows:
        out.append(
            f"<section class='point {e(row.verdict)}'><h2>{e(row.label)} "
            f"<span class='verdict'>— {e(VERDICT_WORDS[row.verdict])}</span></h2><dl>"
        )
        for cell in row.cells:
            text = e(_cell_text(cell))
            if cell.witness in row.odd:
                text = f"<mark>{text}</mark>"
            out.append(f"<dt>{e(witness_label(cell.witness))}</dt><dd>{text}</dd>")
        out.append("</dl></section>")
    out.append("</main></body></html>")
    return "\n".join(out)


def synopsis_tei(result: Synopsis) -> str:
    """The synopsis as TEI P5: the witnesses in ``<listWit>``, one ``<app>`` per point (its words as
    ``@n``, its verdict as ``@type``), one ``<rdg wit>`` per witness with its words, the value as ``@n``."""
    from lxml import etree  # type: ignore[import-untyped]

    from dianli import __version__
    from dianli.comparison.collate_tei import TEI_NS, _el

    infos = {i.id: i for i in manifest()}
    root = etree.Element(f"{{{TEI_NS}}}TEI", nsmap={None: TEI_NS})
    header = _el(root, "teiHeader")
    file_desc = _el(header, "fileDesc")
    _el(_el(file_desc, "titleStmt"), "title", f"{result.section_title}: a synoptic collation")
    _el(
        _el(file_desc, "publicationStmt"),
        "p",
        f"Generated by dianli {__version__} from its correspondence table; {result.why}.",
    )
    list_wit = _el(_el(file_desc, "sourceDesc"), "listWit")
    for witness in result.witnesses:
        entry = _el(list_wit, "witness", xml_id=witness)
        _el(entry, "title", infos[witness].title)
    _el(_el(header, "encodingDesc"), "variantEncoding", method="parallel-segmentation", location="internal")
    div = _el(_el(_el(root, "text"), "body"), "div", type="synopsis", n=result.section)
    _el(div, "head", result.section_title)
    for row in result.rows:
        ab = _el(div, "ab", n=row.label)
        app = _el(ab, "app", type=row.verdict)
        for cell in row.cells:
            attrs = {"wit": f"#{cell.witness}"}
            if row.kind != "text":
                attrs["n"] = "、".join(cell.values)
            if cell.witness in row.odd:
                attrs["type"] = "differs"
            _el(app, "rdg", "｜".join(dict.fromkeys(s.quote for s in cell.statements)), **attrs)
    return str(etree.tostring(root, encoding="unicode")) + "\n"


def synopsis_records(result: Synopsis) -> list[dict[str, object]]:
    """The synopsis as plain data: one record per point, each witness's values and words."""
    return [
        {
            "point": row.label,
            "slot": row.slot,
            "kind": row.kind,
            "verdict": row.verdict,
            "cells": [
                {
                    "witness": cell.witness,
                    "title": witness_label(cell.witness),
                    "values": list(cell.values) if row.kind != "text" else [],
                    "differs": cell.witness in row.odd,
                    "quotes": list(dict.fromkeys(s.quote for s in cell.statements)),
                }
                for cell in row.cells
            ],
        }
        for row in result.rows
    ]
