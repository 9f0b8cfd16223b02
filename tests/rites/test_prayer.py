"""Prayers filled completely: every text template of every witness's reading, at several places, for every
occasion of the year — every alternative read by the occasion, every date blank filled, every office the
data knows written (in 〔〕), every name a labelled 某; and the rules on small templates."""

from __future__ import annotations

import functools
import itertools
import json
import re
from datetime import date
from pathlib import Path

import pytest

from dianli.corpus.witnesses import witness_ids
from dianli.errors import OutOfRangeError, QingRuleEndedError, UnknownValueError
from dianli.rites.observances import observances_for
from dianli.rites.prayer import (
    DATE_BLANK,
    UNSETTLED,
    Occasion,
    fill_prayer,
    fill_rules,
    fill_text,
    season_of,
    unfilled,
)
from dianli.rites.readings import rites_for
from dianli.rites.resolve import resolve_rite
from dianli.written import MANIFEST


@functools.cache
def _templates() -> dict[str, tuple[tuple[str, ...], str, str]]:
    """Every text of every reading that has something to fill: key → (the witnesses whose reading holds
    it, rite, text id)."""
    found: dict[tuple[str, str, str], list[str]] = {}
    for witness in witness_ids():
        for rite in rites_for(witness).values():
            for text in rite.texts:
                if unfilled(text.text):
                    found.setdefault((rite.id, text.id, text.text), []).append(witness)
    return {
        f"{rite}:{text_id}:{witnesses[0]}": (tuple(witnesses), rite, text_id)
        for (rite, text_id, _), witnesses in found.items()
    }


def test_the_templates_are_many() -> None:
    rites = {rite for _, rite, _ in _templates().values()}
    assert len(_templates()) >= 30
    assert {"xianshi", "chongsheng", "sheji", "shanchuan", "wenchang", "qinghe", "litan", "guandi"} <= rites


SEASON_FORMS = re.compile(r"[春秋二八告報报][(（]或?[春秋二八告報报][)）]|【[春秋]{2}】|【二八】")


PLACES = (
    "臺灣府",
    "福州",
    "鳳山縣",
    "諸羅縣",
    "臺灣縣",
    "汀州府",
    "噶瑪蘭廳",
    "晉江縣",
    "苗栗縣",
    "澎湖廳",
    "金門",
)
YEARS = (1720, 1752, 1830, 1890)


@pytest.mark.parametrize("key", sorted(_templates()))
def test_every_template_is_filled_for_every_occasion_and_place(key: str) -> None:
    witnesses, rite, text_id = _templates()[key]
    checked: set[str] = set()
    readers: set[str] = set()
    for witness, place, year in itertools.product(witnesses, PLACES, YEARS):
        if len(readers) >= 2 and witness not in readers:
            break  # two readings of a shared text are enough; every place and year of them is checked
        try:
            resolved = resolve_rite(rite, place, year, witness)
        except (UnknownValueError, OutOfRangeError, QingRuleEndedError):
            continue
        occurrences = [
            o for o in observances_for(resolved.place.id, year, [rite], witness=witness) if o.part is None
        ]
        for text in (t for t in resolved.texts if t.id == text_id):
            for occ in occurrences:
                filled = fill_text(text, resolved, occ)
                assert unfilled(filled) == [], (witness, place, year, occ.observance_id, filled)
                assert "☒" not in filled and not re.search("[\\ue000-\\uf8ff]", filled)
                month = occ.chinese_date.month if occ.chinese_date else None
                if season_of(month) is not None:
                    assert not SEASON_FORMS.search(filled), filled
                    if SEASON_FORMS.search(text.text) and "仲" in text.text:
                        assert ("仲春" if season_of(month) == "spring" else "仲秋") in filled
                if occ.day is not None:
                    assert not DATE_BLANK.search(filled), filled
                checked.add(place)
                readers.add(witness)
    assert checked, f"{rite} is held nowhere in {PLACES} × {YEARS} in the readings of {witnesses}"


def test_the_xianshi_prayer_of_taiwan_fu_1752_reads_the_spring() -> None:
    resolved = resolve_rite("xianshi", "臺灣府", 1752)
    (occ,) = [
        o
        for o in observances_for(resolved.place.id, 1752, ["xianshi"])
        if o.observance_id == "xianshi-spring" and o.part is None
    ]
    (text,) = [t for t in resolved.texts if t.id == "xianshi-zhu"]
    assert fill_text(text, resolved, occ).startswith(
        "維乾隆十七年，歲次壬申，二月癸巳朔，越五日丁酉，正獻官某〔知府〕、分獻官某〔佐貳、學官〕敢昭告於"
        "至聖先師孔子之神曰：維師道冠古今、德配天地，刪述六經，垂憲萬世。今茲仲春，謹以牲帛"
    )


SPRING = Occasion(
    day=date(1752, 3, 20),
    month=2,
    observance=None,
    place="臺灣府",
    level="府",
    offices={"正獻官": ("知府",), "分獻官（殿上）": ("佐貳",)},
)
AUTUMN = Occasion(
    day=date(1752, 9, 16), month=8, observance=None, place="鳳山縣", level="縣", offices={"主祭官": ("知縣",)}
)


@pytest.mark.parametrize(
    ("template", "occasion", "filled"),
    [
        ("今茲仲春(秋)", SPRING, "今茲仲春"),
        ("今茲仲春(秋)", AUTUMN, "今茲仲秋"),
        ("今茲仲【春秋】", AUTUMN, "今茲仲秋"),
        ("春（秋）仲享祀", AUTUMN, "秋仲享祀"),
        ("今兹仲春(或秋)", SPRING, "今兹仲春"),
        ("礼宜告（报）祀", AUTUMN, "礼宜报祀"),
        ("禮宜告（報）祀", SPRING, "禮宜告祀"),
        (
            "維乾隆某年，歲次某干支，二(八)月某干支朔，越某日某干支，",
            AUTUMN,
            "維乾隆十七年，歲次壬申，八月己丑朔，越九日丁酉，",
        ),
        ("維某年月日、某官某致祭於", SPRING, "維乾隆十七年二月初五日、某〔知府〕致祭於"),
        ("維某年某月某日，某官敢昭告於", AUTUMN, "維乾隆十七年八月初九日，〔知縣〕敢昭告於"),
        (
            "維康熙某年、某甲子二（八）月，某甲子朔，越某日某甲子，某衙門、某官、某等敢昭告",
            SPRING,
            "維乾隆十七年、壬申二月，癸巳朔，越五日丁酉，〔臺灣府〕衙門、〔知府〕、某〔知府〕等敢昭告",
        ),
        ("越某日，（官銜）敢昭告", AUTUMN, "越九日，〔知縣〕敢昭告"),
        ("正獻官某、分獻官某敢昭告", SPRING, "正獻官某〔知府〕、分獻官某〔佐貳〕敢昭告"),
        ("正獻官某、分獻官某敢昭告", AUTUMN, "正獻官某〔官名未載〕、分獻官某〔官名未載〕敢昭告"),
        ("某等飲崇上命", AUTUMN, "某〔知縣〕等飲崇上命"),
        ("專祭本郡（縣）闔境", AUTUMN, "專祭本縣闔境"),
        ("專祭本郡（縣）闔境", SPRING, "專祭本郡闔境"),
    ],
)
def test_fill(template: str, occasion: Occasion, filled: str) -> None:
    assert fill_prayer(template, occasion) == filled
    assert unfilled(fill_prayer(template, occasion)) == []


@pytest.mark.parametrize(
    ("observance", "reading"),
    [("qinghe-wanshou", "聖誕"), ("qinghe-yuandan", "正旦"), ("qinghe-dongzhi", "長至")],
)
def test_an_alternative_read_by_the_occasion(observance: str, reading: str) -> None:
    occasion = Occasion(None, 1, observance, "臺灣府", "府", {})
    assert fill_prayer("欣逢聖誕（或正旦、長至）；", occasion) == f"欣逢{reading}；"


@pytest.mark.parametrize(
    ("template", "occasion"),
    [
        ("今茲仲春(秋)", Occasion(None, 5, None, "臺灣府", "府", {})),  # a summer month settles neither
        ("茲當×月上（中、下）元佳節", Occasion(date(1752, 4, 4), 2, "litan-qingming", "晉江縣", "縣", {})),
        ("專祭本郡（縣）闔境", Occasion(None, 2, None, "噶瑪蘭廳", "廳", {})),
    ],
)
def test_what_the_occasion_does_not_settle_is_labelled(template: str, occasion: Occasion) -> None:
    filled = fill_prayer(template, occasion)
    assert UNSETTLED in filled and unfilled(filled) == []


@pytest.mark.parametrize("left", ["某官某名敢昭告", "歲次某干支", "今茲仲春(秋)", "茲當×月", "維某年月日"])
def test_unfilled_finds_what_is_left(left: str) -> None:
    assert unfilled(left) != []


def test_the_rules_cite_their_witnesses() -> None:
    rules = fill_rules()
    for c in [rules.season.cite, *(a.cite for a in (*rules.occasions, *rules.place_levels))]:
        assert c.resolve()


def test_rites_show_prints_the_prayers_filled() -> None:
    from typer.testing import CliRunner

    from dianli.cli import app

    args = ["rites", "show", "祀先師", "--place", "臺灣府", "--year", "1752"]
    text = CliRunner().invoke(app, args)
    assert text.exit_code == 0, text.output
    flat = re.sub(r"[│\s]", "", text.stdout)
    assert "今茲仲春" in flat and "今茲仲秋" in flat and "仲春(秋)" not in flat
    data = CliRunner().invoke(app, [*args, "--format", "json"])
    prayers = json.loads(data.stdout)["prayers"]
    assert {(p["rite"], p["occasion"][:2]) for p in prayers} >= {("xianshi", "春祭"), ("xianshi", "秋祭")}
    assert all(unfilled(p["filled"]) == [] for p in prayers)


def test_the_program_of_taiwan_fu_1752_reads_the_spring(tmp_path: Path) -> None:
    from typer.testing import CliRunner

    from dianli.cli import app

    args = ["program", "祀先師", "--place", "臺灣府", "--year", "1752", "--no-audio", "--format", "json"]
    result = CliRunner().invoke(app, [*args, "--out", str(tmp_path)])
    assert result.exit_code == 0, result.output
    (written,) = [p for p in tmp_path.iterdir() if p.name != MANIFEST]  # beside dianli's list of its files
    program = json.loads(written.read_text(encoding="utf-8"))
    filled = [p["filled"] for section in program["rites"] for p in section["prayers"]]
    assert filled and all("今茲仲春" in f for f in filled)
    assert all(unfilled(f) == [] for f in filled)
