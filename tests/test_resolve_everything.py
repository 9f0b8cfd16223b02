"""Every rite × every witness × every place × the boundary years of each gives a ceremony or a DianliError,
nothing else (no KeyError, no pydantic error, no crash inside the expander).

Boundary years: 1644 and 1911; each period of the place (founding, renamings, seat moves, its end and
the year after it: 1895 for Taiwan); every year a rule of the rite starts or ends (from_year, until_year,
and the year on the other side). Each combination is resolved in the default (governing) reading and in
each witness's; the calendar of the place is computed for the same years.

Every combination's place is looked up for its year (what the unit was, which witness governs it); a
resolution depends on the place only through its level that year, whether the rite data names it, and its
governing witness, so combinations equal in all of these share one resolution (about 165,000
combinations with the 15 witnesses; most with a witness that lacks the rite end at once in the error that
names the witnesses having it) — an error is still raised and checked for every combination that gives one.
"""

from __future__ import annotations

import functools

import pytest

from dianli.corpus.witnesses import witness_ids
from dianli.errors import DianliError
from dianli.places.governs import governing_witness
from dianli.places.places import all_places, get_place, place_at
from dianli.rites.load import all_rites
from dianli.rites.model import walk_elements
from dianli.rites.observances import observances_for
from dianli.rites.render import to_data as rite_to_data
from dianli.rites.resolve import resolve_rite


def _rule_years(rite_id: str) -> set[int]:
    years: set[int] = set()
    for element in walk_elements(all_rites()[rite_id]):
        if element.from_year is not None:
            years |= {element.from_year - 1, element.from_year}
        if element.until_year is not None:
            years |= {element.until_year, element.until_year + 1}
    return years


def _place_years(place_id: str) -> set[int]:
    place = next(p for p in all_places() if p.id == place_id)
    years = {1644, 1911}
    for period in place.periods:
        years |= {period.from_year - 1, period.from_year, period.until_year, period.until_year + 1}
    return {y for y in years if 1644 <= y <= 1911}


@functools.cache
def _named() -> frozenset[str]:
    """The places the rite data names (an element scoped to them): their resolutions are their own."""
    return frozenset(
        get_place(n).id for r in all_rites().values() for e in walk_elements(r) for n in e.places
    )


_SEEN: dict[tuple[object, ...], str] = {}


def _outcome(rite_id: str, place_id: str, year: int, witness: str | None) -> str:
    try:
        unit = place_at(place_id, year)
        key = (rite_id, year, witness, unit.level, governing_witness(place_id, year), place_id in _named())
    except DianliError:
        key = (rite_id, year, witness, place_id)
    if key in _SEEN:
        return _SEEN[key]
    try:
        resolved = resolve_rite(rite_id, place_id, year, witness)
    except DianliError as err:
        assert str(err), "an error must say what was wrong"
        _SEEN[key] = "error"
        return "error"
    rite_to_data(resolved)  # the output renders too
    _SEEN[key] = "ceremony"
    return "ceremony"


@pytest.mark.parametrize("place_id", [p.id for p in all_places()])
def test_every_rite_witness_and_boundary_year(place_id: str) -> None:
    outcomes: dict[str, int] = {"ceremony": 0, "error": 0}
    place_years = _place_years(place_id)
    for rite_id in all_rites():
        for year in sorted(place_years | {y for y in _rule_years(rite_id) if 1644 <= y <= 1911}):
            for witness in (None, *witness_ids()):
                outcomes[_outcome(rite_id, place_id, year, witness)] += 1
    for year in sorted(place_years):
        try:
            observances_for(place_id, year)
        except DianliError:
            outcomes["error"] += 1
    assert outcomes["ceremony"] > 0
