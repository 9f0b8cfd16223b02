"""Every preparation dated from its rule (先期二日, 前三日, 前一日, 祭之日); undated only where no witness gives
a day, and then saying why."""

from __future__ import annotations

from dataclasses import replace
from datetime import date

import pytest

from dianli.corpus.normalise import fold
from dianli.rites.load import all_rites
from dianli.rites.model import Preparation
from dianli.rites.observances import observances_for
from dianli.rites.preparation_days import DatedPreparation, dated_preparations, related_name
from dianli.rites.resolve import resolve_rite

NO_DAY_WORDS = ("前期", "預期")
"""Words of the witnesses that say "beforehand" without a day."""


def _dated(rite: str, place: str, year: int) -> dict[str, DatedPreparation]:
    r = resolve_rite(rite, place, year)
    occ = observances_for(r.place.id, year, [r.rite.id], witness=r.witness)
    main = next(o for o in occ if o.part is None and o.day is not None)
    related = [o for o in occ if o.part is not None and o.observance_id == main.observance_id]
    return {p.kind: p for p in dated_preparations(r.preparations, main.day, related, r.witness)}


@pytest.mark.parametrize(
    ("kind", "days", "rule", "stated_by"),
    [
        ("散齋", [date(1752, 3, 17), date(1752, 3, 18)], "散齋二日", None),
        ("書名榜掛", [date(1752, 3, 18)], "先期二日", None),
        ("致齋", [date(1752, 3, 19)], "致齋一日", None),
        ("省牲", [date(1752, 3, 19)], "祭前一日", None),
        ("宰牲", [date(1752, 3, 19)], "正祭前一日", "taiwan-xianzhi-6"),
        ("視祭器", [], None, None),
        ("治祭物", [], None, None),
    ],
)
def test_xianshi_at_taiwan_fu_1752(
    kind: str, days: list[date], rule: str | None, stated_by: str | None
) -> None:
    """The rite day is 1752-03-20 (二月初五, 上丁); 宰牲's day is 臺灣縣志's (「正祭前一日 … 遂宰之」)."""
    p = _dated("祀先師", "臺灣府", 1752)[kind]
    assert list(p.days) == days
    assert p.rule == rule
    assert p.stated_by == stated_by
    if not days:
        assert p.undated_reason == "no witness gives its day"
    if stated_by is not None:
        # named for a reader by the witnesses' short titles (臺灣府志 = taiwan-fuzhi-9, 臺灣縣志 典禮志 = taiwan-xianzhi-6: two chapters of 臺灣縣志 are witnesses, so the title names the chapter)
        assert p.note == "day not stated in 臺灣府志; from 臺灣縣志 典禮志"


@pytest.mark.parametrize(
    ("rite", "place", "kind", "offsets"),
    [
        ("社稷", "臺灣府", "齋戒", [-3, -2, -1]),
        ("社稷", "臺灣府", "治祭物", [-1]),
        ("社稷", "臺灣府", "夙興", [0]),
        ("社稷", "臺灣府", "陳毛血", [0]),
        ("山川", "福州", "設幕次", [-1]),
        ("山川", "福州", "夙興", [0]),
    ],
)
def test_days_count_from_the_rite_day(rite: str, place: str, kind: str, offsets: list[int]) -> None:
    r = resolve_rite(rite, place, 1752)
    occ = observances_for(r.place.id, 1752, [r.rite.id], witness=r.witness)
    main = next(o for o in occ if o.part is None and o.day is not None)
    related = [o for o in occ if o.part is not None and o.observance_id == main.observance_id]
    found = {p.kind: p for p in dated_preparations(r.preparations, main.day, related, r.witness)}[kind]
    assert main.day is not None
    assert [(d - main.day).days for d in found.days] == offsets


PREPARATIONS = [(rite_id, p) for rite_id, rite in all_rites().items() for p in rite.preparations]


@pytest.mark.parametrize(("rite_id", "prep"), PREPARATIONS, ids=[f"{r}-{p.kind}" for r, p in PREPARATIONS])
def test_a_day_the_witness_words_is_a_cited_rule(rite_id: str, prep: Preparation) -> None:
    """A preparation whose witness words its day has a day rule (or a related day of its kind), and a day
    rule's words stand in one of its own citations."""
    rite = all_rites()[rite_id]
    related = [fold(r.name) for rule in rite.date_rule for r in rule.related]
    if prep.day_rule is not None:
        assert any(fold(prep.day_rule.text) in fold(c.quote) for c in prep.day_rule.citations)
    elif prep.when and prep.when not in NO_DAY_WORDS:
        assert any(name.startswith(fold(prep.kind)) for name in related), prep.when


@pytest.mark.parametrize(
    ("when", "reason"),
    [("前期", "the witness says 「前期」, which gives no day"), (None, "no witness gives its day")],
)
def test_undated_says_why(when: str | None, reason: str) -> None:
    row = Preparation(kind="陳設", when=when, assumption="a test row")
    (p,) = dated_preparations([row], date(1752, 3, 20), [], "taiwan-fuzhi-9")
    assert (p.days, p.undated_reason) == ((), reason)


def test_a_related_day_no_preparation_uses_is_kept() -> None:
    occ = observances_for("fuzhou", 1752, ["xianshi"])
    main = next(o for o in occ if o.part is None)
    related = [o for o in occ if o.part is not None and o.observance_id == main.observance_id]
    out = dated_preparations([], main.day, related, "fujian-tongzhi-14")
    assert [p.kind for p in out] == ["散齋二日", "致齋一日", "省牲"]
    assert len(out[0].days) == 2


@pytest.mark.parametrize(
    ("name", "own"),
    [
        ("散齋二日（春祭至聖先師（仲春上丁））", "散齋二日"),
        ("省牲、治祭物（春祭社稷）", "省牲、治祭物"),
        ("省牲", "省牲"),
    ],
)
def test_related_name(name: str, own: str) -> None:
    occ = observances_for("fuzhou", 1752, ["xianshi"])[0]
    assert related_name(replace(occ, name=name)) == own


def test_a_read_day_keeps_the_fast_of_the_base() -> None:
    """晉江縣志 states the 社稷 day (「于春秋二仲月上戊日致祭」) and no fast: the base's 齋戒 (「主祭官，前三日齋
    戒」), the three days before the rite day of 1830-03-03, still dates its 齋戒 (it was undated)."""
    p = _dated("社稷", "晉江縣", 1830)["齋戒"]
    assert list(p.days) == [date(1830, 2, 28), date(1830, 3, 1), date(1830, 3, 2)]
    assert p.undated_reason is None
