"""Both rule sets over all sixty year 干支, all sixty day 干支 and all twelve hours, as the sources state them."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from dianli.calendar.ganzhi import BRANCHES, Element, Sexagenary, branch_element, stem_element
from dianli.corpus.cite import Citation
from dianli.errors import DataError, UnknownValueError
from dianli.spring_ox.lichun import Fact, Facts, _sexagenary_facts
from dianli.spring_ox.profiles import load_profile, profile_ids
from dianli.spring_ox.rules import colour_of, evaluate, overcomer

PROFILES = profile_ids()
YANG_HOURS = ("辰", "午", "申", "戌")
YIN_HOURS = ("卯", "巳", "未", "酉")


def facts_for(year: Sexagenary, day: Sexagenary, hour: str, days_after_new_year: int = 0) -> Facts:
    out: Facts = {"year.number": Fact("year.number", 1760, "Gregorian year")}
    out.update(_sexagenary_facts("year", "year", year))
    out.update(_sexagenary_facts("day", "立春 day", day))
    out["hour.branch"] = Fact("hour.branch", hour, "時辰", branch_element(hour))
    polarity = "陽" if BRANCHES.index(hour) % 2 == 0 else "陰"
    out["hour.polarity"] = Fact("hour.polarity", polarity, "時辰 陰陽")
    out["lichun.days_after_new_year"] = Fact("lichun.days_after_new_year", days_after_new_year, "days")
    return out


def outcomes(profile: str, facts: Facts) -> dict[str, object]:
    return {o.id: o for o in evaluate(load_profile(profile), facts, "fuzhou")}


@pytest.mark.parametrize("profile", PROFILES)
@pytest.mark.parametrize("index", range(60))
def test_year_clauses(profile: str, index: int) -> None:
    year = Sexagenary(index)
    got = outcomes(profile, facts_for(year, Sexagenary(0), "午"))
    assert got["ox.head"].primary.colour == colour_of(stem_element(year.stem))  # type: ignore[attr-defined]
    assert got["ox.body"].primary.colour == colour_of(branch_element(year.branch))  # type: ignore[attr-defined]
    assert got["ox.belly"].primary.colour == colour_of(year.nayin.element)  # type: ignore[attr-defined]
    age = "prime" if year.branch in "子午卯酉" else "child" if year.branch in "辰戌丑未" else "old"
    assert got["god.age"].primary.value["age"] == age  # type: ignore[attr-defined]


@pytest.mark.parametrize("profile", PROFILES)
@pytest.mark.parametrize("index", range(60))
def test_day_clauses(profile: str, index: int) -> None:
    day = Sexagenary(index)
    got = outcomes(profile, facts_for(Sexagenary(8), day, "午"))
    robe = got["god.robe"].primary.colour  # type: ignore[attr-defined]
    belt = got["god.belt"].primary.colour  # type: ignore[attr-defined]
    assert robe.element == overcomer(branch_element(day.branch))  # the robe overcomes the day's branch
    assert belt.element == overcomer(robe.element)  # the belt overcomes the robe, always
    hair = got["god.hair"].primary.value  # type: ignore[attr-defined]
    expected_hair = {
        Element.METAL: ("front", "front"),
        Element.WOOD: ("behind", "behind"),
        Element.WATER: ("front", "behind"),
        Element.FIRE: ("behind", "front"),
        Element.EARTH: ("crown", "crown"),
    }[day.nayin.element]
    assert (hair["left"], hair["right"]) == expected_hair
    dress = got["god.dress"].primary.value  # type: ignore[attr-defined]
    assert dress["shoes"] == (day.nayin.element in (Element.METAL, Element.WOOD, Element.WATER))
    assert dress["trousers"] == (day.nayin.element is not Element.FIRE)
    rope = got["ox.rope"].primary.value["material"]  # type: ignore[attr-defined]
    assert (
        rope
        == {"寅申巳亥": "hemp", "子午卯酉": "ramie", "辰戌丑未": "silk"}[
            next(k for k in ("寅申巳亥", "子午卯酉", "辰戌丑未") if day.branch in k)
        ]
    )
    halter = got["ox.halter"].primary.colour  # type: ignore[attr-defined]
    if profile == "gazetteer":
        assert halter == colour_of(stem_element(day.stem))
        assert got["ox.hooves"].primary.colour == colour_of(Sexagenary(8).nayin.element)  # type: ignore[attr-defined]
    else:
        assert halter == colour_of(overcomer(stem_element(day.stem)))
        assert got["ox.hooves"].primary.colour == colour_of(day.nayin.element)  # type: ignore[attr-defined]
        assert got["ox.horns"].primary.colour == colour_of(stem_element(day.stem))  # type: ignore[attr-defined]
        assert got["ox.shins"].primary.colour == colour_of(branch_element(day.branch))  # type: ignore[attr-defined]


@pytest.mark.parametrize("profile", PROFILES)
@pytest.mark.parametrize("hour", BRANCHES)
def test_ear_flaps_by_hour(profile: str, hour: str) -> None:
    flaps = outcomes(profile, facts_for(Sexagenary(0), Sexagenary(0), hour))["god.ear_flaps"].primary.value  # type: ignore[attr-defined]
    if hour in YANG_HOURS:
        assert flaps == {**flaps, "state": "held", "hand": "left"}
    elif hour in YIN_HOURS:
        assert flaps == {**flaps, "state": "held", "hand": "right"}
    elif hour == "寅":
        assert (flaps["state"], flaps["side"]) == ("lifted", "left")
    elif hour == "亥":
        assert (flaps["state"], flaps["side"]) == ("lifted", "right")
    else:
        assert flaps["state"] == "worn"


@pytest.mark.parametrize(
    ("days", "position"),
    [
        (-9, "front"),
        (-6, "front"),
        (-5, "beside"),
        (0, "beside"),
        (5, "beside"),
        (6, "behind"),
        (20, "behind"),
    ],
)
def test_god_position_by_distance_from_new_year(days: int, position: str) -> None:
    got = outcomes("almanac", facts_for(Sexagenary(0), Sexagenary(0), "午", days))
    assert got["placing.god_position"].primary.value["position"] == position  # type: ignore[attr-defined]


@pytest.mark.parametrize(
    ("index", "side", "mouth", "tail"), [(0, "left", "open", "left"), (1, "right", "closed", "right")]
)
def test_yin_yang_year(index: int, side: str, mouth: str, tail: str) -> None:
    got = outcomes("almanac", facts_for(Sexagenary(index), Sexagenary(0), "午"))
    assert got["placing.god_side"].primary.value["side"] == side  # type: ignore[attr-defined]
    assert got["ox.mouth"].primary.value["mouth"] == mouth  # type: ignore[attr-defined]
    assert got["ox.tail_flick"].primary.value["tail"] == tail  # type: ignore[attr-defined]


def test_choosing_a_disputed_reading() -> None:
    facts = facts_for(Sexagenary(0), Sexagenary(0), "午")  # 甲子 year, 甲子 day
    chosen = {
        o.id: o
        for o in evaluate(load_profile("almanac"), facts, "fuzhou", {"ox.halter": "year-stem-overcomer"})
    }
    assert chosen["ox.halter"].primary.colour == colour_of(Element.METAL)  # 金 overcomes 甲 木
    with pytest.raises(UnknownValueError):
        evaluate(load_profile("almanac"), facts, "fuzhou", {"ox.halter": "nonsense"})
    with pytest.raises(UnknownValueError):
        evaluate(load_profile("almanac"), facts, "fuzhou", {"ox.head": "x"})


def test_unknown_profile() -> None:
    with pytest.raises(UnknownValueError):
        load_profile("nonsense")


def _cites(node: object) -> list[dict[str, str]]:
    if isinstance(node, dict):
        found = [node["cite"]] if isinstance(node.get("cite"), dict) else []
        return found + [c for v in node.values() for c in _cites(v)]
    if isinstance(node, list):
        return [c for v in node for c in _cites(v)]
    return []


DATA = Path(__file__).parents[2] / "src/dianli/spring_ox/data"
CITES = [
    c for f in sorted(DATA.glob("*.yaml")) for c in _cites(yaml.safe_load(f.read_text(encoding="utf-8")))
]


@pytest.mark.parametrize("cite", CITES, ids=[c["quote"][:12] for c in CITES])
def test_every_citation_resolves(cite: dict[str, str]) -> None:
    Citation(witness=cite["witness"], quote=cite["quote"]).resolve()


def test_data_error_names_file() -> None:
    from dianli.spring_ox.profiles import Profile, _validate

    with pytest.raises(DataError, match=r"x\.yaml"):
        _validate(Profile, "x.yaml", {"id": "x"})
