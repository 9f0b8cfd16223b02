"""Venues and their measures; rite names as users type them."""

from __future__ import annotations

import pytest

from dianli.errors import UnknownValueError
from dianli.rites.render import to_data as rite_to_data
from dianli.rites.render import venue_line as rite_venue_line
from dianli.rites.resolve import find_rite, resolve_rite


@pytest.mark.parametrize(
    ("rite", "venue", "of", "measure", "value_chi", "unit"),
    [
        ("gengji", "耤田", None, "面積", 4.9, "畝"),
        ("gengji", "先農壇", "京師先農壇", "高", 4.2, "尺"),
        ("gengji", "先農壇", "京師先農壇", "寬", 50, "尺"),
        ("gengji", "先農壇", "本地壇", "高", 2.1, "尺"),
        ("gengji", "先農壇", "本地壇", "寬", 25, "尺"),
    ],
)
def test_venue_measures(
    rite: str, venue: str, of: str | None, measure: str, value_chi: float, unit: str
) -> None:
    resolved = resolve_rite(rite, "臺灣府", 1752)
    (found,) = [v for v in resolved.venues if v.name == venue]
    (dimension,) = [d for d in found.dimensions if d.of == of and d.measure == measure]
    assert (dimension.value, dimension.unit) == (value_chi, unit)
    assert dimension.citations


def test_venue_line_groups_measures_by_what_they_measure() -> None:
    resolved = resolve_rite("gengji", "臺灣府", 1752)
    (altar,) = [v for v in resolved.venues if v.name == "先農壇"]
    assert (
        rite_venue_line(altar) == "先農壇（京師先農壇：高四尺二寸、寬五丈；本地壇：高二尺一寸、寬二丈五尺）"
    )


def test_json_carries_the_venues() -> None:
    data = rite_to_data(resolve_rite("gengji", "臺灣府", 1752))
    names = [v["name"] for v in data["venues"]]
    assert names[:2] == ["耤田", "先農壇"]


@pytest.mark.parametrize(
    ("name", "rite"),
    [
        ("耕耤", "gengji"), ("耕耤禮", "gengji"), ("鄉飲酒", "xiangyinjiu"), ("乡饮酒礼", "xiangyinjiu"),
        ("祭社稷禮", "sheji"), ("社稷", "sheji"), ("祭先師", "xianshi"), ("祀先师", "xianshi"), ("關帝", "guandi"),
        ("厲壇", "litan"), ("旗纛", "qidao"), ("釋菜", "shicai"), ("xianshi", "xianshi"),
    ],
)  # fmt: skip
def test_rite_names_with_or_without_their_frame(name: str, rite: str) -> None:
    assert find_rite(name) == rite


@pytest.mark.parametrize("name", ["禮", "祭", "耕", "", "先農"])
def test_unknown_rite_names(name: str) -> None:
    with pytest.raises(UnknownValueError):
        find_rite(name)
