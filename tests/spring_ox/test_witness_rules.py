"""A witness's own spring-ox rule (its folder's ``spring_ox.yaml``): loaded as a patch of a fixed profile,
chosen at the places and in the years its witness governs, refused with a clear error when broken."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from dianli.corpus.cite import resolve
from dianli.corpus.labels import witness_label
from dianli.errors import UnknownValueError
from dianli.places.places import get_place
from dianli.spring_ox.figure import choose_rule as spring_ox_rule_choice
from dianli.spring_ox.figure import spring_ox
from dianli.spring_ox.lichun import FACT_KEYS, Scenario, lichun
from dianli.spring_ox.profiles import load_profile, stated_attributes, witness_patches
from dianli.spring_ox.profiles import rule_ids as spring_ox_rule_ids
from dianli.spring_ox.report import render_text as spring_ox_text
from dianli.spring_ox.report import to_json as spring_ox_json

GEMALAN = "gemalan-tingzhi-3"
FENGSHAN = "chongxiu-fengshan-xianzhi-5"
MIAOLI = "miaoli-xianzhi-10"
FIXTURES = Path(__file__).parents[1] / "fixtures" / "witnesses"


def test_the_three_witnesses_have_rule_sets() -> None:
    assert spring_ox_rule_ids()[:2] == ("gazetteer", "almanac")
    assert {GEMALAN, FENGSHAN, MIAOLI} <= set(spring_ox_rule_ids())


@pytest.mark.parametrize(
    ("place", "year", "rule", "height", "cun"),
    [
        ("gamalan", 1852, None, "三尺六寸五分 (象三百六十五日)", 36.5),  # its own, by governance
        ("fengshan", 1764, None, "三尺六寸 (按三百六十日)", 36),
        ("miaoli", 1893, None, "三尺六寸 (按一年三百六十日)", 36),
        ("gamalan", 1852, "gazetteer", "三尺六寸 (按一年三百六十日)", 36),  # asked for
        ("fengshan", 1764, GEMALAN, "三尺六寸五分 (象三百六十五日)", 36.5),
    ],
)
def test_god_height_by_witness_place_and_year(
    place: str, year: int, rule: str | None, height: str, cun: float
) -> None:
    outcome = spring_ox(year, place=place, rule=rule).outcome("god.height")
    assert outcome.text == height
    assert outcome.primary.value["length_cun"] == cun


@pytest.mark.parametrize(
    ("place", "year", "rule", "governing"),
    [
        ("gamalan", 1852, GEMALAN, GEMALAN),
        ("噶瑪蘭廳", 1880, GEMALAN, GEMALAN),
        ("fengshan", 1764, FENGSHAN, FENGSHAN),
        ("fengshan", 1730, "gazetteer", "fengshan-xianzhi-3"),  # the 1720 gazetteer states no rule
        ("miaoli", 1893, MIAOLI, MIAOLI),
        ("臺灣府", 1752, "gazetteer", "taiwan-fuzhi-9"),
    ],
)
def test_the_place_chooses_its_governing_witness_rule(
    place: str, year: int, rule: str, governing: str
) -> None:
    choice = spring_ox_rule_choice(year, place)
    assert (choice.rule, choice.governing) == (rule, governing)
    result = spring_ox(year, place=place)
    assert result.profile.id == rule and result.choice == choice
    text = spring_ox_text(result)
    assert f"rule set chosen for the place and year: {rule} — {witness_label(governing)} governs" in text
    assert spring_ox_json(result)["rule_choice"]["governing_witness"] == governing


def test_no_place_no_rule_is_the_default_and_says_nothing_of_a_choice() -> None:
    result = spring_ox(1752)
    assert result.profile.id == "gazetteer" and result.choice is None and result.base is None
    assert "rule_choice" not in spring_ox_json(result)


def test_an_asked_rule_is_not_a_choice() -> None:
    result = spring_ox(1852, place="gamalan", rule="almanac")
    assert result.choice is None and "rule set chosen" not in spring_ox_text(result)


@pytest.mark.parametrize("bad", ["nonsense", "taiwan-fuzhi-9"])
def test_a_bad_rule_lists_every_rule_set(bad: str) -> None:
    with pytest.raises(UnknownValueError) as info:
        spring_ox(1852, rule=bad)
    assert tuple(info.value.accepted) == spring_ox_rule_ids()
    assert GEMALAN in str(info.value) and "almanac" in str(info.value)


def test_a_witness_rule_is_compared_with_its_base() -> None:
    result = spring_ox(1852, place="gamalan")
    assert result.other_profile == "gazetteer" and result.base == "gazetteer"
    differing = {d.attribute for d in result.differences}
    assert {"god.height", "ox.horns", "ox.hooves", "ox.tail", "ox.shins"} <= differing
    assert {"ox.mouth", "ox.tail_flick", "placing.god_side", "placing.whip_at"} <= set(result.only_here)
    assert set(result.stated) == set(stated_attributes(GEMALAN))
    # what the witness does not state is the base's, with the base's citation
    frame = result.outcome("ox.length").primary.evidence[0].cite
    assert frame is not None and frame.witness == "taiwan-fuzhi-9"


@pytest.mark.parametrize(
    ("year", "mouth", "tail", "side"),
    [(1852, "open", "left", "left"), (1853, "closed", "right", "right")],  # 壬子 陽, 癸丑 陰
)
def test_gemalan_mouth_tail_and_side_by_the_years_yin_yang(
    year: int, mouth: str, tail: str, side: str
) -> None:
    result = spring_ox(year, place="gamalan")
    assert result.outcome("ox.mouth").primary.value["mouth"] == mouth
    assert result.outcome("ox.tail_flick").primary.value["tail"] == tail
    assert result.outcome("placing.god_side").primary.value["side"] == side


@pytest.mark.parametrize(
    ("year", "lunar", "primary", "from_wang"),
    [
        (1852, (12, 15), "none", "shoulder"),  # 立春 on the 望 of the twelfth month
        (1853, (12, 27), "shoulder", "shoulder"),
        (1854, (1, 7), "belly", "belly"),
    ],
)
def test_gemalan_whip_by_the_lunar_date_of_lichun(
    year: int, lunar: tuple[int, int], primary: str, from_wang: str
) -> None:
    result = spring_ox(year, place="gamalan")
    facts = result.lichun.facts(result.scenario)
    assert (facts["lichun.lunar_month"].value, facts["lichun.lunar_day"].value) == lunar
    outcome = result.outcome("placing.whip_at")
    assert outcome.primary.value["whip_at"] == primary
    assert {a.reading: a.value["whip_at"] for a in outcome.alternatives} == {"from-wang": from_wang}


def test_the_lunar_facts_are_the_documented_keys() -> None:
    place = get_place("gamalan", 1852).nearest(1852)
    facts = lichun(1852, place).facts(Scenario("local-apparent", "almanac", "midnight"))
    assert tuple(facts) == FACT_KEYS
    assert facts["lichun.lunar_month"].shown == "十二月"


@pytest.mark.parametrize(
    ("place", "year", "attribute", "key", "value"),
    [
        ("miaoli", 1893, "ox.tail_length", "text", "一尺二寸 (按十二時)"),
        ("fengshan", 1764, "ox.tail_length", "text", "一尺二寸 (按十二月)"),
        ("fengshan", 1764, "god.ear_flaps", "state", "held"),  # 甲申 1764: 立春 in a 卯–戌 hour
    ],
)
def test_county_readings(place: str, year: int, attribute: str, key: str, value: str) -> None:
    assert spring_ox(year, place=place).outcome(attribute).primary.value[key] == value


def test_fengshan_names_no_hand_where_miaoli_does() -> None:
    fengshan = spring_ox(1764, place="fengshan").outcome("god.ear_flaps").primary.value
    miaoli = spring_ox(1764, place="fengshan", rule=MIAOLI).outcome("god.ear_flaps").primary.value
    assert "hand" not in fengshan and miaoli["hand"] in ("left", "right")


@pytest.mark.parametrize("witness", [GEMALAN, FENGSHAN, MIAOLI])
def test_every_stated_attribute_cites_its_witness_and_resolves(witness: str) -> None:
    path, patch = witness_patches()[witness]
    assert path.name == "spring_ox.yaml" and path.parent.name == witness
    for attribute in patch.attributes:
        cites = [attribute.cite, *(c.cite for c in attribute.cases or ())]
        assert any(c is not None and c.witness == witness for c in cites), attribute.id
        for cite in cites:
            if cite is not None:
                resolve(cite.witness, cite.quote, cite.section)  # raises CitationError if it does not
    assert load_profile(witness).id == witness


# --- a witness folder outside the package -----------------------------------------------------------


def _run(root: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "DIANLI_WITNESSES": str(root), "COLUMNS": "200"}
    code = "import sys; from dianli.cli import main; sys.argv = ['dianli', *sys.argv[1:]]; main()"
    return subprocess.run(
        [sys.executable, "-c", code, *args], capture_output=True, text=True, env=env, timeout=300
    )


def _folder(tmp_path: Path, patch: str) -> Path:
    root = tmp_path / "witnesses"
    folder = root / "test-fixture-gazetteer"
    folder.mkdir(parents=True)
    for item in (FIXTURES / "test-fixture-gazetteer").iterdir():
        if item.is_file():
            (folder / item.name).write_bytes(item.read_bytes())
        else:
            (folder / item.name).mkdir()
            for sub in item.iterdir():
                (folder / item.name / sub.name).write_bytes(sub.read_bytes())
    (folder / "spring_ox.yaml").write_text(patch, encoding="utf-8")
    return root


GOOD_ATTRIBUTE = """\
attributes:
  - id: god.height
    part: god
    label: 身高
    gloss: height of the god
    value: {text: 三尺, length_cun: 30}
    assumption: a test rule
"""


@pytest.mark.parametrize(
    ("patch", "message"),
    [
        (
            "base: nonsense\ntitle: t\nsummary: s\n" + GOOD_ATTRIBUTE,
            "base: unknown 'nonsense'; accepted: gazetteer, almanac",
        ),
        (
            "base: gazetteer\ntitle: t\nsummary: s\n" + GOOD_ATTRIBUTE.replace("value:", "pattern:"),
            "pattern",
        ),
        (
            "base: gazetteer\ntitle: t\nsummary: s\n"
            + GOOD_ATTRIBUTE.replace(
                "value: {text: 三尺, length_cun: 30}",
                "cases:\n      - when: {moon.phase: [滿]}\n        value: 三尺",
            ),
            "unknown fact 'moon.phase'; accepted: year.number",
        ),
        (
            "base: gazetteer\ntitle: t\nsummary: s\n"
            + GOOD_ATTRIBUTE.replace(
                "assumption: a test rule",
                "cite: {witness: taiwan-fuzhi-9, quote: 身高三尺六寸，按一年三百六十日}",
            ),
            "cites no passage of test-fixture-gazetteer and gives no assumption",
        ),
    ],
    ids=["unknown-base", "unknown-kind", "unknown-fact", "no-evidence"],
)
def test_a_broken_spring_ox_yaml_is_refused(tmp_path: Path, patch: str, message: str) -> None:
    done = _run(_folder(tmp_path, patch), "spring-ox", "1760", "--rule", "gazetteer")
    assert done.returncode != 0
    out = " ".join((done.stdout + done.stderr).split())  # the console wraps long lines
    assert "spring_ox.yaml" in out and message in out and "Traceback" not in out


def test_a_good_spring_ox_yaml_outside_the_package_is_a_rule_set(tmp_path: Path) -> None:
    root = _folder(tmp_path, "base: almanac\ntitle: t\nsummary: s\n" + GOOD_ATTRIBUTE)
    done = _run(root, "spring-ox", "1760", "--rule", "test-fixture-gazetteer")
    assert done.returncode == 0, done.stderr
    assert "身高 height of the god: 三尺" in done.stdout
    assert "Where the almanac rule set differs" in done.stdout


# --- the web page and the program follow the same choice ------------------------------------------------


@pytest.mark.parametrize(
    ("query", "status", "shown"),
    [
        (
            "year=1852&place=gamalan",
            200,
            ["rule set for the place and year: <b>噶瑪蘭廳志</b>", "三尺六寸五分"],
        ),
        ("year=1852&place=gamalan&rule=almanac", 200, ["<b>almanac</b> rule set"]),
        ("year=1764&rule=chongxiu-fengshan-xianzhi-5", 200, ["<b>重修鳳山縣志</b> rule set"]),
        ("year=1852&rule=nonsense", 400, ["gemalan-tingzhi-3"]),
    ],
)
def test_the_web_page(query: str, status: int, shown: list[str]) -> None:
    from fastapi.testclient import TestClient

    from dianli.web.app import app

    response = TestClient(app).get(f"/spring-ox?{query}")
    assert response.status_code == status
    for text in shown:
        assert text in response.text


@pytest.mark.parametrize(
    ("place", "year", "rules"),
    [
        ("gamalan", 1852, [GEMALAN, "gazetteer", "almanac"]),
        ("臺灣府", 1752, ["gazetteer", "almanac"]),
    ],
)
def test_the_program_shows_the_places_rule_first(place: str, year: int, rules: list[str]) -> None:
    from dianli.program.assemble import assemble as assemble_program

    pictures = assemble_program("迎春", place, year).spring_ox
    assert [p.rule for p in pictures] == rules
    assert ("governs" in pictures[0].summary) == (rules[0] == GEMALAN)
