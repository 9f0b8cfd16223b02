"""Seating plans: a rite whose plan places people and no tablet (鄉飲酒's 方位圖) drawn as the witness
draws it, with each seat tied to its role, the office that fills it at the place, and — where the text
states a seat in compass words — the text's word beside the diagram's quadrant.
"""

from __future__ import annotations

from dataclasses import dataclass

from dianli.corpus.cite import Citation
from dianli.layout.config import config, seat_role
from dianli.layout.grid import PlanGrid, draw, plan_grid, quadrant
from dianli.rites.resolve import ResolvedRite


@dataclass(frozen=True)
class Seat:
    """A seat of the diagram: its word, the role it seats, that role's office here, and the positions."""

    word: str
    role: str
    office: str | None
    stated: str | None
    """Where the text seats the role (東南 …), if it says."""
    drawn: str | None
    """The diagram's quadrant of the seat, read from the plan's axis words."""
    cite: Citation | None
    assumption: str | None

    @property
    def agrees(self) -> bool | None:
        return None if self.stated is None or self.drawn is None else self.stated == self.drawn


def seating_grid(r: ResolvedRite) -> PlanGrid | None:
    """The plan of a rite that seats people and draws no tablet, else None."""
    grid = plan_grid(r)
    if grid is None or "tablet" in grid.kinds or not any(seat_role(m.text) for m in grid.marks):
        return None
    return grid


def seats(r: ResolvedRite) -> tuple[Seat, ...]:
    """Every seat word of the rite's seating plan, in the diagram's order."""
    grid = seating_grid(r)
    if grid is None:
        return ()
    offices: dict[str, str] = {}
    for o in r.officiants:
        offices.setdefault(o.function, o.office)
    stated = {s.role: s for s in config().stated_seats}
    out = []
    for mark in grid.marks:
        rule = seat_role(mark.text)
        if rule is None:
            continue
        said = stated.get(rule.role)
        out.append(
            Seat(
                word=mark.text,
                role=rule.role,
                office=offices.get(rule.role),
                stated=said.at if said else None,
                drawn=quadrant(grid, mark),
                cite=said.cite if said else None,
                assumption=rule.assumption,
            )
        )
    return tuple(out)


def seat_notes(r: ResolvedRite) -> tuple[str, ...]:
    """The legend's lines: each role seated, its office here, the text's seat beside the diagram's."""
    lines = []
    by_role: dict[str, list[Seat]] = {}
    for s in seats(r):
        by_role.setdefault(s.role, []).append(s)
    for role, own in by_role.items():
        words = "、".join(s.word for s in own)
        office = f" ({own[0].office})" if own[0].office else ""
        check = ""
        if own[0].stated:
            drawn = "、".join(sorted({s.drawn or "on a centre line" for s in own}))
            mark = "agrees" if all(s.agrees for s in own) else "DIFFERS"
            check = f" — text: {own[0].stated}; diagram: {drawn} ({mark})"
        lines.append(f"{role}{office}: {words}{check}")
    lines.extend(s.assumption for s in seats(r) if s.assumption)
    return tuple(lines)


def seating_svg(r: ResolvedRite) -> str | None:
    """The seating plan as an SVG, or None when the rite has none."""
    grid = seating_grid(r)
    if grid is None:
        return None
    tips = {s.word: f"{s.role}{' · ' + s.office if s.office else ''}" for s in seats(r)}
    notes = [n for n in (r.plan.notes if r.plan else None, r.plan.assumption if r.plan else None) if n]
    return draw(grid, f"{r.rite.names.classical[0]} 座次", [*seat_notes(r), *notes], tips=tips)
