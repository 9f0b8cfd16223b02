"""The exported animation: self-contained, one pose per sung character, timed by the music."""

from __future__ import annotations

import json
import re

import pytest

from dianli.dance.animate import animation_data
from dianli.dance.animate import render_html as dance_html
from dianli.dance.notation import movements as dance_movements
from dianli.dance.timing import character_timing as dance_timing


@pytest.fixture(scope="module")
def page() -> str:
    return dance_html("寧平")


def test_the_page_loads_nothing_from_outside(page: str) -> None:
    assert not re.search(r"<script[^>]+src=|<link[^>]+href=|src=\"https?:|url\(https?:", page)
    assert "<svg" in page and "dance-data" in page


def test_the_page_carries_one_pose_per_character_for_every_ban(page: str) -> None:
    raw = re.search(r'<script id="dance-data" type="application/json">(.*?)</script>', page, re.S)
    assert raw
    data = json.loads(raw.group(1).replace("<\\/", "</"))
    chars = data["characters"]
    assert [c["char"] for c in chars][:4] == ["覺", "我", "生", "民"]
    assert len(chars) == 32
    for c in chars:
        assert len(c["poses"]["east"]) == len(c["poses"]["west"]) == 6
        assert all(phases for phases in c["poses"]["east"])
        assert c["start"] < c["end"]


@pytest.mark.parametrize("movement", [m.id for m in dance_movements()])
def test_poses_run_on_the_music_timeline(movement: str) -> None:
    timing = dance_timing(movement)
    assert timing.source.startswith("the music's timeline")
    data = animation_data(movement)
    starts = [c["start"] for c in data["characters"]]
    assert starts == sorted(starts) and len(starts) == 32


def test_the_tempo_assumption_is_stated_when_used() -> None:
    timing = dance_timing("chuxian", use_music=False)
    assert timing.assumption and "assumption" in timing.source
    assert timing.spans_s[1][0] == timing.spans_s[0][1]


def test_unnamed_ban_hold_their_pose() -> None:
    data = animation_data("zhongxian")
    zhuo = data["characters"][16]
    assert zhuo["char"] == "酌"
    assert zhuo["named"]["east"] == [True, False, True, False, True, False]
