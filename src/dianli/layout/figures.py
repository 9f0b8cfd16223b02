"""All the layout figures of a resolved rite, each with its caption, citations and assumptions: the one
entry point the program and the web app call."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Literal

from dianli.corpus.cite import Citation
from dianli.layout.altar import altar_plan_svg, offering_tables
from dianli.layout.config import config
from dianli.layout.grid import orientation_note
from dianli.layout.seating import seating_svg, seats
from dianli.layout.tablets import place_tablets, tablet_plan_svg
from dianli.rites.model import Element
from dianli.rites.resolve import ResolvedRite

FigureKind = Literal["altar-plan", "seating", "tablets", "table"]


@dataclass(frozen=True)
class LayoutFigure:
    kind: FigureKind
    title: str
    caption: str
    svg: str
    citations: tuple[Citation, ...]
    assumptions: tuple[str, ...] = ()


def _cites(elements: Iterable[Element | None]) -> tuple[Citation, ...]:
    found: dict[tuple[str, str], Citation] = {}
    for el in elements:
        for c in el.citations if el is not None else ():
            found.setdefault((c.witness, c.quote), c)
    return tuple(found.values())


def layout_figures(r: ResolvedRite) -> tuple[LayoutFigure, ...]:
    """The rite's plan (altars or seats), its tablet plan for the year, and a table for each altar whose
    陳設 list gives only kinds and counts — whichever the data allow, in that order."""
    out: list[LayoutFigure] = []
    laid = [a.layout for a in r.altars if a.layout is not None]
    plan_svg = altar_plan_svg(r)
    if plan_svg is not None and r.plan is not None:
        out.append(
            LayoutFigure(
                "altar-plan",
                "陳設圖 altar plan",
                f"The altars as the witness's diagram lays them out — {orientation_note(r.plan)}.",
                plan_svg,
                _cites([r.plan, *laid]),
                (r.plan.assumption,) if r.plan.assumption else (),
            )
        )
    seat_svg = seating_svg(r)
    if seat_svg is not None and r.plan is not None:
        stated = [s.cite for s in seats(r) if s.cite is not None]
        out.append(
            LayoutFigure(
                "seating",
                "座次 seating",
                f"The seats of the witness's diagram, each with its role — {orientation_note(r.plan)}.",
                seat_svg,
                _cites([r.plan, *laid]) + tuple(dict.fromkeys(stated)),
                tuple(a for a in (r.plan.assumption, *(s.assumption for s in seats(r))) if a),
            )
        )
    tablets_svg = tablet_plan_svg(r)
    if tablets_svg is not None:
        placed = place_tablets(r.tablets)
        shown = [p.tablet for p in placed if p.region == "main" or p.dated]
        unplaced = any(p.region == "main" and p.column is None for p in placed)
        out.append(
            LayoutFigure(
                "tablets",
                f"神主位次 tablets in {r.year}",
                f"Where each tablet stood in {r.year} (north up, east to the right); tablets moved by a dated "
                "rule are outlined in gold.",
                tablets_svg,
                _cites(shown),
                (config().tablets.assumption,)
                + ((config().tablets.unplaced_assumption,) if unplaced else ()),
            )
        )
    for altar, svg in offering_tables(r):
        parts: list[Element | None] = [altar, *altar.offerings, *altar.silk, *altar.victims, *altar.cups]
        out.append(
            LayoutFigure(
                "table",
                f"{altar.name} 陳設",
                f"{altar.name}: the 陳設 list drawn as a table, each vessel as often as the data count it "
                "(the order is schematic: see the assumptions).",
                svg,
                (*_cites(parts), config().table.cite, *config().table.cites),
                (config().table.assumption,),
            )
        )
    return tuple(out)
