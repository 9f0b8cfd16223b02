"""The formation: what the witnesses give and what is assumed, labelled."""

from __future__ import annotations

from collections import Counter

from dianli.dance.formation import formation as dance_formation


def test_two_ranks_of_six_ban() -> None:
    form = dance_formation()
    assert form.ranks == ("east", "west")
    assert form.files_per_rank == 6


def test_thirty_six_dancers_is_an_assumption_with_outside_sources() -> None:
    form = dance_formation()
    assert form.dancers == 36
    assert any("六佾" in a and "36" in a for a in form.assumptions)
    assert all(s.startswith("https://") for s in form.sources)


def test_who_stands_in_the_formation() -> None:
    roles = Counter(f.role for f in dance_formation().figures)
    assert roles == {"舞生": 36, "節生": 2, "麾生": 1, "木鐸": 1, "相鼓": 1}
    leaders = [f for f in dance_formation().figures if f.role == "節生"]
    heads = max(f.z_m for f in dance_formation().figures if f.role == "舞生")
    assert {f.rank for f in leaders} == {"east", "west"}
    assert all(f.z_m > heads for f in leaders), "the 節生 stand at the head of their rank"


def test_every_formation_fact_cites_a_witness() -> None:
    for cite in dance_formation().cites:
        cite.resolve()
