"""The ritual calendar derived from the rites' own date rules (one source of truth)."""

from __future__ import annotations

from datetime import date

import pytest

from dianli.corpus.cite import resolve
from dianli.errors import DianliError, UnknownValueError
from dianli.rites.load import all_rites
from dianli.rites.model import DateRule as Observance
from dianli.rites.observances import all_observances, observances_for
from dianli.rites.resolve import resolve_rite


def test_every_rite_has_a_date_rule() -> None:
    """Every rite of the rite data is in the calendar: no hand-kept list of rite ids."""
    held = {rite_id for rite_id, rite in all_rites().items() if rite.date_rule or rite.extends}
    assert held == set(all_rites())


def test_observance_ids_are_unique_per_rite() -> None:
    owner: dict[str, set[str]] = {}
    for rite_id, rite in all_rites().items():
        for rule in rite.date_rule:
            owner.setdefault(rule.id, set()).add(rite_id)
    assert {k: v for k, v in owner.items() if len(v) > 1} == {}


@pytest.mark.parametrize("observance", all_observances(), ids=lambda o: o.id)
def test_every_citation_resolves(observance: Observance) -> None:
    cites = [*observance.citations, *(r.cite for r in observance.related)]
    if observance.scope_cite is not None:
        cites.append(observance.scope_cite)
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
        ("taiwan-fu", "zhuwengong", True),  # the 22nd rite, missing from the old hand list
    ],
)
def test_scope(place: str, rite: str, present: bool) -> None:
    assert bool(observances_for(place, 1752, [rite])) == present


@pytest.mark.parametrize("name", ["xianshi", "祀先師", "祭先師禮", "zhuwengong"])
def test_rite_by_id_or_name(name: str) -> None:
    assert observances_for("臺灣府", 1752, [name], include_related=False)


def test_wanshouting_from_kangxi_50() -> None:
    assert observances_for("taiwan-fu", 1710, ["wanshouting"]) == ()
    assert observances_for("taiwan-fu", 1711, ["wanshouting"]) != ()


def test_governing_witness_is_cited() -> None:
    ting = observances_for("汀州府", 1752, ["minghuan"], include_related=False)
    assert {o.cite.witness for o in ting} == {"tingzhou-fuzhi"}
    taiwan = observances_for("臺灣府", 1752, ["xianshi"], include_related=False)
    assert {o.cite.witness for o in taiwan} == {"taiwan-fuzhi-9"}


@pytest.mark.parametrize(
    ("place", "year", "rite", "held"),
    [("jinjiang", 1830, "dongyue", True), ("fuzhou", 1830, "dongyue", False), ("gamalan", 1852, "huoshen", True),
     ("taiwan-fu", 1852, "huoshen", False)],
)  # fmt: skip
def test_local_cults_are_held_only_where_stated(place: str, year: int, rite: str, held: bool) -> None:
    assert bool(observances_for(place, year, [rite], include_related=False)) is held


def test_open_observances_last_with_reason() -> None:
    occ = observances_for("fuzhou", 1752)
    opened = [o for o in occ if o.day is None]
    # 救護 is dated by computed eclipses; 城隍 (prayers, a new official) and 天后 name no day; 東嶽 and
    # 火神 are scoped to the places whose gazetteers state them (晉江, 噶瑪蘭), so 福州 has neither
    assert {o.rite for o in opened} == {"jiezhao", "guandi", "longshen", "chenghuang", "tianhou"}
    assert occ[-len(opened) :] == tuple(opened)
    assert all(o.open_reason for o in opened)
    days = [o.day for o in occ if o.day is not None]
    assert days == sorted(days) and days[0] >= date(1751, 11, 1)


@pytest.mark.parametrize(
    ("observance", "text"),
    [
        ("litan-qingming", "春祭清明日"),
        ("litan-zhongyuan", "秋祭七月十五日"),
        ("litan-winter", "冬祭十月初一日"),
    ],
)
def test_each_observance_has_its_own_rule_text(observance: str, text: str) -> None:
    """The autumn 厲壇 no longer prints the spring rule (春祭清明日)."""
    occ = [o for o in observances_for("臺灣府", 1752, ["litan"], include_related=False)]
    assert {o.observance_id: o.rule_text for o in occ}[observance] == text


def test_same_rules_as_the_resolved_rite() -> None:
    """The calendar and `rites show` read the same resolved date rules."""
    resolved = resolve_rite("xianshi", "臺灣府", 1752)
    occ = observances_for("臺灣府", 1752, ["xianshi"], include_related=False)
    assert {o.observance_id for o in occ} == {r.id for r in resolved.date_rules}


def test_unknown_rite() -> None:
    with pytest.raises(UnknownValueError) as err:
        observances_for("fuzhou", 1752, ["confucius"])
    assert "xianshi" in str(err.value)


@pytest.mark.parametrize("year", [1643, 2201])
def test_year_out_of_range(year: int) -> None:
    with pytest.raises(DianliError, match=str(year)):
        observances_for("fuzhou", year)


def test_today() -> None:
    """Some rites are still performed: the calendar runs past 1911 on computed dates, without 萬壽."""
    occ = observances_for("福州府", 2025, ["xianshi", "qinghe", "jiezhao"], include_related=False)
    assert {o.rite for o in occ} == {"xianshi"}  # the imperial rites end with the dynasty
    assert all(o.source is not None and o.source.value == "computation" for o in occ)


def test_taiwan_after_the_cession_is_an_error() -> None:
    with pytest.raises(DianliError, match="1895"):
        observances_for("臺灣府", 1900)


def test_in_1895_taiwan_keeps_only_the_days_before_the_cession() -> None:
    days = [o.day for o in observances_for("臺灣府", 1895) if o.day is not None]
    assert days and max(days) <= date(1895, 5, 8)
    assert any(d.month >= 9 for d in (o.day for o in observances_for("福州府", 1895)) if d is not None)
