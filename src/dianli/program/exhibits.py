"""Engine outputs shown with a part of the order of service (a part's ``shows`` in the rites data).

Each name maps to a function of the place and year that summarises the engine's result as a few lines
with a pointer to the full command; nothing here knows a rite — a part says what it shows.
"""

from __future__ import annotations

from collections.abc import Callable

from dianli.calendar.ganzhi import year_sexagenary
from dianli.errors import DataError
from dianli.places.places import PlaceAt
from dianli.program.config import config
from dianli.rites.render import Exhibit as RiteExhibit
from dianli.rites.resolve import ResolvedRite
from dianli.spring_ox.figure import spring_ox

Summary = Callable[[PlaceAt, int], tuple[str, tuple[str, ...], str]]
"""(title, lines, pointer) for a place and year."""


def spring_ox_summary(place: PlaceAt, year: int) -> tuple[str, tuple[str, ...], str]:
    """The year's ox and god by the place's rule (its governing witness's own, else the gazetteer's),
    compact; where the rule it is compared with differs."""
    rule = config().exhibits.spring_ox
    ox = spring_ox(year, place=place.id)
    r = ox.reading
    title = f"土牛芒神 {year} {year_sexagenary(year).name}年"
    lines = [
        f"立春 {r.clock_time:%Y-%m-%d %H:%M} {r.hour.label} ({r.scenario.clock} clock at {place.name}) · "
        f"day {r.day_sexagenary.name} · rule set: {ox.profile.id}"
    ]
    for heading, ids in rule.summary.items():
        bits = []
        for attribute in ids:
            outcome = ox.outcome(attribute)
            bits.append(f"{outcome.label} {outcome.text}")
        lines.append(f"{heading}: " + " · ".join(bits))
    if ox.base is not None and ox.choice is not None:
        lines.append(f"the place's own rule: {ox.choice.reason}")
    if ox.differences:
        diff = ", ".join(f"{d.label} {d.other}" for d in ox.differences)
        lines.append(f"the {ox.other_profile} rule differs: {diff}")
    pointer = f"every attribute with its reason: dianli spring-ox {year} --place {place.name}"
    return title, tuple(lines), pointer


EXHIBITS: dict[str, Summary] = {"spring_ox": spring_ox_summary}


def exhibit_names() -> tuple[str, ...]:
    return tuple(EXHIBITS)


def rite_exhibits(r: ResolvedRite) -> tuple[RiteExhibit, ...]:
    """What the rite's parts show, for its place and year, in the order of the parts."""
    out = []
    for part in r.rite.parts:
        for name in part.shows:
            if name not in EXHIBITS:
                raise DataError(
                    f"rite {r.rite.id!r}: part {part.id!r}: field shows: unknown {name!r}; "
                    f"accepted: {', '.join(EXHIBITS)}"
                )
            title, lines, pointer = EXHIBITS[name](r.place, r.year)
            out.append(RiteExhibit(name, part.id, part.title, title, lines, pointer))
    return tuple(out)
