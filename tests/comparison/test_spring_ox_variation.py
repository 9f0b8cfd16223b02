"""The spring-ox attributes witnesses read differently, in the corpus variation (``dianli variants``)."""

from __future__ import annotations

import pytest

from dianli.comparison.spring_ox_variation import meaning, spring_ox_rules
from dianli.comparison.variation import rule_ids as variation_rule_ids
from dianli.comparison.variation import variation
from dianli.spring_ox.profiles import load_profile

GEMALAN = "gemalan-tingzhi-3"
FENGSHAN = "chongxiu-fengshan-xianzhi-5"


@pytest.mark.parametrize(
    ("rule", "place", "year", "value", "stated_by"),
    [
        ("spring_ox.god.height", "gamalan", 1852, "三尺六寸五分 (象三百六十五日)", GEMALAN),
        ("spring_ox.god.height", "fengshan", 1764, "三尺六寸 (按一年三百六十日)", FENGSHAN),
        ("spring_ox.god.height", "fengshan", 1730, "三尺六寸 (按一年三百六十日)", "taiwan-fuzhi-9"),
        ("spring_ox.ox.horns", "gamalan", 1852, "colour of day.stem", GEMALAN),
        ("spring_ox.ox.horns", "miaoli", 1893, "colour of year.stem", "miaoli-xianzhi-10"),
        ("spring_ox.god.ear_flaps", "fengshan", 1800, None, FENGSHAN),
    ],
)
def test_reading_in_force(rule: str, place: str, year: int, value: str | None, stated_by: str) -> None:
    assert rule in variation_rule_ids()
    (found,) = variation(rule=rule)
    reading = found.reading_at(place, year)
    assert reading is not None
    assert value is None or reading.value == value
    assert stated_by in reading.witnesses
    assert any(c.witness == stated_by for c in reading.citations) or stated_by not in reading.witnesses


def test_god_height_readings_and_years() -> None:
    (rule,) = variation(rule="spring_ox.god.height")
    assert rule.kind == "spring_ox" and len(rule.readings) == 2
    days365 = next(r for r in rule.readings if "三百六十五" in r.value)
    assert days365.witnesses == (GEMALAN,) and days365.places() == ("gamalan",)
    assert days365.years()[0][0] == 1852
    days360 = next(r for r in rule.readings if r is not days365)
    assert {"taiwan-fuzhi-9", FENGSHAN, "miaoli-xianzhi-10"} <= set(days360.witnesses)
    assert "fengshan-xianzhi-3" in days360.followers  # governs 鳳山縣 1720–1763, states no rule


def test_rules_the_witnesses_read_alike_are_not_listed() -> None:
    ids = {r.id for r in spring_ox_rules()}
    assert "spring_ox.ox.frame" not in ids and "spring_ox.making.earth_direction" not in ids


def test_ten_single_stems_mean_the_same_as_five_pairs() -> None:
    """重修鳳山縣志 lists the 歲德 direction stem by stem, the gazetteer by pairs: one reading."""
    ten = load_profile(FENGSHAN).attribute("making.earth_direction")
    five = load_profile("gazetteer").attribute("making.earth_direction")
    assert meaning(ten)[0] == meaning(five)[0]
    assert (
        meaning(load_profile(GEMALAN).attribute("god.height"))[0]
        != meaning(load_profile("gazetteer").attribute("god.height"))[0]
    )
