"""What changed at a boundary in time (dianli.comparison.dynasty): tested at 雍正元年 (1723), the change
the corpus documents best (three county gazetteers written before it, the rest after)."""

from __future__ import annotations

import pytest

from dianli.comparison.dynasty import before_and_after, boundary_label, qing_start
from dianli.comparison.ranking import holders


@pytest.fixture(scope="module")
def at_1723() -> dict[str, list[str]]:
    found: dict[str, list[str]] = {}
    for change in before_and_after(boundary=1723):
        found.setdefault(change.label, []).append(change.sentence(1723))
    return found


def test_the_default_boundary_is_the_first_year_of_the_era_tables_first_dynasty() -> None:
    assert qing_start() == 1644
    assert boundary_label(1644) == "1644 (順治)"
    for change in before_and_after():
        assert all(holders()[s.witness].year < 1644 for s in change.before.evidence)
        assert all(holders()[s.witness].year >= 1644 for s in change.after.evidence)


@pytest.mark.parametrize(
    ("point", "words"),
    [
        # the Ming 咸和 hymns of 臺灣縣志 against the 咸平 of the Qing witnesses
        (
            "祀先師禮·樂章 (hymn)·迎神",
            ["before 1723, 咸和: 臺灣縣志 典禮志 (康熙 1720)", "from 1723, 咸平: 福建通志"],
        ),
        # 四拜 against 三跪九叩 (stated by every witness after 1723 that quotes the 送神's step: its posture)
        (
            "祀先師禮·禮節 (posture)·送神",
            ["四拜: 臺灣縣志", "三跪九叩: 福建通志", "重修鳳山縣志 (乾隆 1764)"],
        ),
        # the altar of 社稷 lowered from 三尺四寸 to 二尺一寸, kept by 重修鳳山縣志
        ("祭社稷禮·尺寸 (dimension)·社稷壇·高", ["3.4尺: 諸羅縣志", "2.1尺: 噶瑪蘭廳志", "kept by 3.4尺"]),
    ],
)
def test_values_changed_at_1723(at_1723: dict[str, list[str]], point: str, words: list[str]) -> None:
    (sentence,) = at_1723[point]
    for w in words:
        assert w in sentence


def test_the_places_own_altars_and_offices_are_not_compared_across_the_boundary(
    at_1723: dict[str, list[str]],
) -> None:
    """Venues and officiants name each place's own altar and office: they differ by place, not by the code."""
    assert at_1723 and not [p for p in at_1723 if "(venue)" in p or "(officiant)" in p]


# 祭關帝禮 is no longer among them: 永定縣志 (康熙 1673) has its 關帝廟 (「关帝庙」, founded 萬曆乙未).
@pytest.mark.parametrize("rite", ["耕耤禮"])
def test_rites_stated_only_after_1723_are_added_and_say_the_earlier_witnesses_are_partial(
    at_1723: dict[str, list[str]], rite: str
) -> None:
    (sentence,) = at_1723[rite]
    assert "stated from 1723 on" in sentence and "few and partial" in sentence


def test_a_boundary_with_no_witness_on_one_side_has_no_change() -> None:
    years = [h.year for h in holders().values()]
    assert before_and_after(boundary=min(years)) == ()  # no witness before the first
    assert before_and_after(boundary=max(years) + 1) == ()  # none from the year after the last


def test_one_rite_only() -> None:
    changes = before_and_after("xianshi", boundary=1723)
    assert changes and {c.rite for c in changes} == {"xianshi"}
    record = changes[0].record(1723)
    assert record["before"] and record["after"] and record["sentence"]
