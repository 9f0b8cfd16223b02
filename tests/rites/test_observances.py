from __future__ import annotations

from datetime import date

import pytest

from dianli.api import RITE_IDS, UnknownValueError, all_observances, get_place, observances_for, resolve


def test_every_rite_has_an_observance() -> None:
    assert {o.rite for o in all_observances()} == set(RITE_IDS)


@pytest.mark.parametrize("observance", all_observances(), ids=lambda o: o.id)
def test_every_citation_resolves(observance: object) -> None:
    from dianli.api import Observance

    assert isinstance(observance, Observance)
    cites = [observance.cite, *(v.cite for v in observance.variants), *(r.cite for r in observance.related)]
    if observance.scope is not None and observance.scope.cite is not None:
        cites.append(observance.scope.cite)
    if observance.time is not None:
        cites.append(observance.time.cite)
    for cite in cites:
        resolve(cite.witness, cite.quote)


@pytest.mark.parametrize(
    ("place", "rite", "present"),
    [
        ("fuzhou", "changgong", True),
        ("quanzhou", "changgong", False),  # 「各府州無常公祠」
        ("taiwan-fu", "wanshouting", True),
        ("fuzhou", "wanshouting", False),
        ("quanzhou", "qidao", True),  # 「各府皆然」
        ("zhanghua", "qidao", False),
    ],
)
def test_scope(place: str, rite: str, present: bool) -> None:
    assert bool(observances_for(get_place(place), 1752, [rite])) == present


def test_wanshouting_from_kangxi_50() -> None:
    place = get_place("taiwan-fu")
    assert observances_for(place, 1710, ["wanshouting"]) == ()
    assert observances_for(place, 1711, ["wanshouting"]) != ()


def test_governing_witness_is_cited() -> None:
    ting = [o for o in observances_for(get_place("汀州府"), 1752, ["minghuan"], include_related=False)]
    assert {o.cite.witness for o in ting} == {"tingzhou-fuzhi"}
    taiwan = [o for o in observances_for(get_place("臺灣府"), 1752, ["xianshi"], include_related=False)]
    assert {o.cite.witness for o in taiwan} == {"taiwan-fuzhi-9"}


def test_open_observances_last_with_reason() -> None:
    occ = observances_for(get_place("fuzhou"), 1752)
    opened = [o for o in occ if o.day is None]
    assert {o.rite for o in opened} == {"jiezhao", "guandi", "longshen"}  # 救護 is dated by computed eclipses
    assert occ[-len(opened) :] == tuple(opened)
    assert all(o.open_reason for o in opened)
    days = [o.day for o in occ if o.day is not None]
    assert days == sorted(days) and days[0] >= date(1751, 11, 1)


def test_unknown_rite() -> None:
    with pytest.raises(UnknownValueError) as err:
        observances_for(get_place("fuzhou"), 1752, ["confucius"])
    assert "xianshi" in str(err.value)


def test_today() -> None:
    """Some rites are still performed: the calendar runs past 1911 on computed dates, without 萬壽."""
    occ = observances_for(
        get_place("臺灣府"), 2025, ["xianshi", "qinghe", "wanshouting", "jiezhao"], include_related=False
    )
    assert {o.rite for o in occ} == {"xianshi"}  # the imperial rites end with the dynasty
    assert all(o.source is not None and o.source.value == "computation" for o in occ)
