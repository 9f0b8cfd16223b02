"""Rendering a resolved rite: plain data (JSON), text lines and a self-contained HTML page."""

from __future__ import annotations

import functools
import html
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from dianli.corpus.cite import Citation
from dianli.corpus.labels import witness_label
from dianli.rites.model import MUSIC_ACTION_NAMES, Element, Step, Venue
from dianli.rites.resolve import ResolvedRite, inherited_from, preferred_citations
from dianli.rites.vocabulary import postures

FULL_SPACE = "\u3000"


@dataclass(frozen=True)
class Exhibit:
    """An engine's output shown with a part (named by the part's ``shows``): a summary in a few lines and
    a pointer to the command that gives it in full. Computed above the rites layer (the program)."""

    name: str
    part_id: str
    part_title: str
    title: str
    lines: tuple[str, ...]
    pointer: str

    def to_data(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "part": self.part_id,
            "part_title": self.part_title,
            "title": self.title,
            "lines": list(self.lines),
            "pointer": self.pointer,
        }


def source_label(element: Element, witness: str) -> str:
    """``witness「quote」`` for the first citation (the chosen witness's first), then ``assumption: …``
    when the element also rests on a reading of ours (or only on it); led by "not stated in W; from V"
    when the witness read does not state the element and it is inherited from another."""
    cites = preferred_citations(element, witness)
    source = inherited_from(element, witness)
    bits = [f"not stated in {witness_label(witness)}; from {witness_label(source)}"] if source else []
    bits += [f"{witness_label(cites[0].witness)}「{cites[0].quote}」"] if cites else []
    if element.assumption:
        bits.append(f"assumption: {element.assumption}")
    return " · ".join(bits)


def plan_lines(r: ResolvedRite) -> list[str]:
    """The rite's plan (陳設圖) as lines of text: each tablet at its altar's ``at`` cell and every item of
    its ``layout`` around it, one full-width column per cell, the axis words at the edges."""
    if r.plan is None:
        return []
    cells: dict[tuple[int, int], str] = {}
    for altar in r.altars:
        if altar.at is None:
            continue
        if altar.tablets:
            cells[(altar.at.down, altar.at.across)] = "、".join(altar.tablets)
        for cell in altar.layout.cells if altar.layout else ():
            cells[(altar.at.down + cell.down, altar.at.across + cell.across)] = cell.item
    if not cells:
        return []
    rows = [d for d, _ in cells]
    cols = [a for _, a in cells]
    top, bottom, left = min(rows), max(rows), min(cols)
    width = max(a + len(text) for (_, a), text in cells.items()) - left
    middle = (top + bottom) // 2
    west, east = r.plan.down if r.plan.down else ("", "")
    lines = [FULL_SPACE * (width // 2) + west] if west else []
    for row in range(top, bottom + 1):
        line = [FULL_SPACE] * width
        for (d, a), text in sorted(cells.items()):
            if d == row:
                for i, ch in enumerate(text):
                    line[a - left + i] = ch
        edge = (r.plan.across[0], r.plan.across[1]) if row == middle else (FULL_SPACE, FULL_SPACE)
        lines.append(edge[0] + "".join(line).rstrip(FULL_SPACE).ljust(width, FULL_SPACE) + edge[1])
    if east:
        lines.append(FULL_SPACE * (width // 2) + east)
    return [line.rstrip(FULL_SPACE) for line in lines]


def _cite_data(c: Citation) -> dict[str, str]:
    return {"witness": c.witness, "quote": c.quote}


def step_data(number: int, part: str, step: Step, witness: str) -> dict[str, Any]:
    data: dict[str, Any] = {"number": number, "part": part}
    data.update(
        step.model_dump(exclude_none=True, exclude_defaults=True, exclude={"cite", "cites", "also_in"})
    )
    if step.posture:
        p = postures()[step.posture]
        data["posture_counts"] = {"kneel": p.kneel, "kowtow": p.kowtow}
    data["citations"] = [_cite_data(c) for c in preferred_citations(step, witness)]
    source = inherited_from(step, witness)
    if source:
        data["inherited_from"] = source
    if step.assumption:
        data["assumption"] = step.assumption
    return data


def to_data(r: ResolvedRite, exhibits: Sequence[Exhibit] = ()) -> dict[str, Any]:
    """Plain data for JSON output and goldens; ``exhibits`` (what the parts show) under ``exhibits``."""
    w = r.witness

    def dump(el: Element) -> dict[str, Any]:
        d = el.model_dump(exclude_none=True, exclude_defaults=True, exclude={"cite", "cites", "also_in"})
        d["citations"] = [_cite_data(c) for c in preferred_citations(el, w)]
        source = inherited_from(el, w)
        if source:
            d["inherited_from"] = source
        return d

    plan = {"plan": dump(r.plan)} if r.plan else {}
    shown = {"exhibits": [x.to_data() for x in exhibits]} if exhibits else {}
    return (
        plan
        | shown
        | {
            "rite": r.rite.id,
            "names": r.rite.names.classical,
            "gloss": r.rite.names.gloss,
            "place": {"id": r.place.id, "name": r.place.name, "level": str(r.place.level)},
            "year": r.year,
            "witness": w,
            "governing_witness": r.governing_witness,
            "date_rules": [dump(x) for x in r.date_rules],
            "officiants": [dump(x) for x in r.officiants],
            "roles": [dump(x) for x in r.roles],
            "venues": [dump(x) for x in r.venues],
            "preparations": [dump(x) for x in r.preparations],
            "altars": [dump(x) for x in r.altars],
            "tablets": [dump(x) for x in r.tablets],
            "vessels": [dump(x) for x in r.vessels],
            "foods": [dump(x) for x in r.foods],
            "texts": [dump(x) for x in r.texts],
            "steps": [step_data(n.number, n.placed.part_title, n.step, w) for n in r.steps],
        }
    )


def venue_line(venue: Venue) -> str:
    """A venue in one line: its name and its measures as the witness writes them (高四尺二寸 …)."""
    by_subject: dict[str, list[str]] = {}
    for d in venue.dimensions:
        by_subject.setdefault(d.of or "", []).append(d.text or f"{d.measure}{d.value:g}{d.unit}")
    measures = "；".join(f"{of}{'：' if of else ''}{'、'.join(texts)}" for of, texts in by_subject.items())
    return venue.name + (f"（{measures}）" if measures else "")


@functools.cache
def _movement_labels() -> dict[str, str]:
    from dianli.music.schema import movements_data  # the music's data load only when a movement is named

    return {m.id: f"{m.name}（{m.tune}）" for m in movements_data().movements}


def movement_label(movement: str) -> str:
    """A movement as a reader names it: its rite part and its tune, 望瘞（咸平） for ``wangyi``."""
    return _movement_labels().get(movement, movement)


def step_line(step: Step) -> str:
    """What is said or done, in one line: 「call」 and the action, posture, place, door, cue."""
    bits = []
    if step.call:
        bits.append(f"「{step.call}」")
    if step.action:
        bits.append(step.action)
    if step.posture and step.posture not in (step.action or "") + (step.call or ""):
        bits.append(f"〔{step.posture}〕")
    if step.door:
        bits.append(f"門：{step.door}")
    if step.music:
        action = MUSIC_ACTION_NAMES[step.music_action] if step.music_action else ""
        bits.append(f"♪ {movement_label(step.music)}{action}")
    if step.dance:
        bits.append(f"舞：{step.dance}")
    if step.notes:
        bits.append(f"（{step.notes}）")
    return "　".join(bits)


def exhibits_html(exhibits: Sequence[Exhibit]) -> str:
    e = html.escape
    return "".join(
        f"<section class='exhibit'><h2>{e(x.title)} <small>(with {e(x.part_title)})</small></h2>"
        + "".join(f"<p>{e(line)}</p>" for line in x.lines)
        + f"<p><small>{e(x.pointer)}</small></p></section>"
        for x in exhibits
    )


def to_html(r: ResolvedRite, exhibits: Sequence[Exhibit] = ()) -> str:
    """A self-contained HTML page (no external resources); all text escaped."""
    e = html.escape
    w = r.witness
    rows = []
    for n in r.steps:
        s = n.step
        src = source_label(s, w)
        cls = ' class="assumption"' if not s.citations else ""
        rows.append(
            f"<tr><td>{n.number}</td><td>{e(n.placed.part_title)}</td><td>{e(s.role or '')}</td>"
            f"<td>{e(step_line(s))}</td><td>{e(s.gloss or '')}</td><td{cls}>{e(src)}</td></tr>"
        )
    offs = "".join(
        f"<li>{e(o.function)}: {e(o.office)} <small>{e(source_label(o, w))}</small></li>"
        for o in r.officiants
    )
    venues = "".join(
        f"<li>{e(venue_line(v))}{' — ' + e(v.gloss) if v.gloss else ''} <small>{e(source_label(v, w))}</small></li>"
        for v in r.venues
    )
    title = f"{r.rite.names.classical[0]} — {r.place.name} {r.year}"
    return (
        "<!DOCTYPE html><html lang='zh-Hant'><head><meta charset='utf-8'>"
        f"<title>{e(title)}</title><style>body{{font-family:serif;margin:2em}}"
        "table{border-collapse:collapse}td{border-top:1px solid #ccc;padding:.2em .5em;vertical-align:top}"
        "small,td:last-child{color:#555;font-size:.85em}.assumption{color:#a40}</style></head><body>"
        f"<h1>{e(title)}</h1><p>{e(r.rite.names.gloss)} · witness {e(witness_label(w))}</p>"
        f"<h2>獻官</h2><ul>{offs}</ul>"
        + (f"<h2>壇位 venues</h2><ul>{venues}</ul>" if r.venues else "")
        + (f"<h2>陳設圖</h2><pre>{e(chr(10).join(plan_lines(r)))}</pre>" if r.plan else "")
        + exhibits_html(exhibits)
        + "<h2>儀注</h2><table>"
        "<tr><th>#</th><th>part</th><th>role</th><th>call / action</th><th>gloss</th><th>source</th></tr>"
        + "".join(rows)
        + "</table></body></html>\n"
    )
