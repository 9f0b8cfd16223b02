"""The registry of outside sources: every source graded, every web address of the package registered, and
no rule resting on weak sources (web summaries, texts read on a mirror or in a forum) alone where a
witness or a primary or scholarly source states it anywhere in the data, or without saying why."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
import yaml
from pydantic import ValidationError

from dianli.calendar.eras import all_eras, dynasties
from dianli.corpus.sources import (
    CopyKind,
    OutsideRef,
    SourceKind,
    outside_source,
    outside_sources,
    source_mention,
    sources_mentioned,
)
from dianli.datafile import load_model_path
from dianli.errors import DataError, UnknownValueError
from dianli.outside import (
    Support,
    rule_supports,
    source_uses_of,
    unregistered_addresses,
    unsound_supports,
)
from dianli.spring_ox.profiles import Profile, check_bases, load_profile


def test_the_registry_grades_every_source() -> None:
    registry = outside_sources()
    assert len(registry) >= 30
    assert {s.kind for s in registry.values()} == set(SourceKind)
    assert all(s.where for s in registry.values())


@pytest.mark.parametrize(
    ("source", "kind", "read", "grade", "weak"),
    [
        (
            "wenxian-tongkao-264",
            "primary",
            "digital-library",
            "primary Qing text, read in a digital library",
            False,
        ),
        (
            "xieji-bianfang-12",
            "primary",
            "digital-library",
            "primary Qing text, read in a digital library",
            False,
        ),
        (
            "shimonoseki-text",
            "primary",
            "mirror",
            "primary Qing text, read on a mirror or copy site",
            True,
        ),
        (
            "qingshigao-10",
            "edition",
            "digital-library",
            "later edition or transcription of a primary text, read in a digital library",
            False,
        ),
        (
            "tuniu-jing",
            "edition",
            "digital-library",
            "later edition or transcription of a primary text, read in a digital library",
            False,
        ),
        ("van-aalst-1884", "scholarly", "scan", "scholarly work, read in a scan of the edition", False),
        (
            "chunniutu-wikipedia-mirror",
            "reference",
            "mirror",
            "reference work, read on a mirror or copy site",
            True,
        ),
        ("almanac-2026-foundry", "news", "publisher", "news report, read on its publisher's page", False),
        ("almanac-forum-youyue", "web-summary", "forum", "web summary, read in a forum post", True),
    ],
)
def test_a_source_has_a_kind_a_copy_and_a_grade(
    source: str, kind: str, read: str, grade: str, weak: bool
) -> None:
    entry = outside_source(source)
    assert (entry.kind, entry.read, entry.grade, entry.weak) == (
        SourceKind(kind),
        CopyKind(read),
        grade,
        weak,
    )


def test_a_quote_of_an_outside_source_shows_its_grade() -> None:
    ref = OutsideRef(source="wenxian-tongkao-264", quote="十二月戊子望月食在鬼宿初度八分食三分五十二秒")
    assert ref.text == (
        "皇朝文獻通考 卷二百六十四 象緯考九 月食上: 「十二月戊子望月食在鬼宿初度八分食三分五十二秒」 "
        "[primary Qing text, read in a digital library] "
        "<https://github.com/kanripo/KR2m0015/blob/f9fca05a9e3df257875b6e2111874daa38dca4de/KR2m0015_264.txt>"
    )
    assert source_mention("wenxian-tongkao-264") == (
        "皇朝文獻通考 卷二百六十四 象緯考九 月食上 [primary Qing text, read in a digital library; "
        "`dianli sources wenxian-tongkao-264`]"
    )


def test_a_source_first_read_on_a_mirror_keeps_that_address_beside_the_library() -> None:
    entry = outside_source("wenxian-tongkao-264")
    assert entry.addresses == (
        "https://github.com/kanripo/KR2m0015/blob/f9fca05a9e3df257875b6e2111874daa38dca4de/KR2m0015_264.txt",
        "https://m.txshulou.com/html/14292/59651.html",
    )
    assert [s.id for s in sources_mentioned("see https://m.txshulou.com/html/14292/59651.html")] == [
        "wenxian-tongkao-264"
    ]


def test_an_unknown_source_is_refused_with_the_accepted_ids() -> None:
    with pytest.raises(
        ValidationError, match="unknown outside source 'forum-42'; accepted: almanac-2006-olddo"
    ):
        OutsideRef(source="forum-42", quote="x")
    with pytest.raises(UnknownValueError, match="accepted: almanac-2006-olddo"):
        outside_source("forum-42")


def test_every_web_address_of_the_package_is_a_registered_source() -> None:
    assert unregistered_addresses() == ()


def test_no_rule_rests_on_weak_sources_alone_where_it_should_not() -> None:
    assert unsound_supports() == ()


def test_the_supports_cover_the_spring_ox_and_the_places() -> None:
    rules = {s.rule.split(" ")[0].split(".")[0] for s in rule_supports()}
    assert rules == {"spring_ox", "places"}


WEB = ("almanac-forum-youyue",)
PRIMARY = ("wenxian-tongkao-264",)


@pytest.mark.parametrize(
    ("supports", "flagged"),
    [
        # a web summary alone, where a witness states the same rule elsewhere: flagged
        (
            [
                Support("r = 1", "a.yaml: x", (), (), WEB, None),
                Support("r = 1", "b.yaml: x", ("taiwan-fuzhi-9",), (), (), None),
            ],
            ["a.yaml: x"],
        ),
        # … even when labelled an addition: a stronger source exists for it
        (
            [
                Support("r = 1", "a.yaml: x", (), (), WEB, "addition"),
                Support("r = 1", "b.yaml: x", (), ("tuniu-jing",), (), None),
            ],
            ["a.yaml: x"],
        ),
        # a web summary beside a primary source: fine
        ([Support("r = 1", "a.yaml: x", (), PRIMARY, WEB, None)], []),
        # a web summary alone, labelled, nothing better anywhere: fine
        ([Support("r = 2", "a.yaml: x", (), (), WEB, "addition")], []),
        # a web summary alone, unlabelled: flagged
        ([Support("r = 2", "a.yaml: x", (), (), WEB, None)], ["a.yaml: x"]),
    ],
)
def test_the_check_flags_a_web_summary_alone(supports: list[Support], flagged: list[str]) -> None:
    assert [s.where for s in unsound_supports(tuple(supports))] == flagged


def test_the_almanac_rule_states_its_basis_for_every_attribute(tmp_path: Path) -> None:
    profile = load_profile("almanac")
    data = profile.model_dump(mode="json", exclude_none=True)
    data["attributes"][0].pop("basis")
    target = tmp_path / "almanac.yaml"
    target.write_text(yaml.safe_dump(data, allow_unicode=True, sort_keys=False), encoding="utf-8")
    with pytest.raises(
        DataError, match=r"attributes\.0 \(ox\.height\): basis: missing; accepted: rule, manual"
    ):
        check_bases(str(target), load_model_path(target, Profile))


def test_a_basis_the_profile_does_not_define_is_refused(tmp_path: Path) -> None:
    data = load_profile("almanac").model_dump(mode="json", exclude_none=True)
    data["attributes"][0]["basis"] = "addition"
    target = tmp_path / "almanac.yaml"
    target.write_text(yaml.safe_dump(data, allow_unicode=True, sort_keys=False), encoding="utf-8")
    with pytest.raises(DataError, match="basis: unknown 'addition'; accepted: rule, manual"):
        check_bases(str(target), load_model_path(target, Profile))


def test_a_manual_basis_quotes_the_manual(tmp_path: Path) -> None:
    data = load_profile("almanac").model_dump(mode="json", exclude_none=True)
    treadle = next(a for a in data["attributes"] if a["id"] == "ox.treadle")
    treadle["sources"] = [s for s in treadle["sources"] if s["source"] != "xieji-bianfang-12"]
    for case in treadle["cases"]:
        case["sources"] = [s for s in case.get("sources", []) if s["source"] != "xieji-bianfang-12"]
    target = tmp_path / "almanac.yaml"
    target.write_text(yaml.safe_dump(data, allow_unicode=True, sort_keys=False), encoding="utf-8")
    with pytest.raises(
        DataError,
        match=r"\(ox\.treadle\): basis manual quotes nothing of xieji-bianfang-12; accepted: "
        r"sources: \[\{source: xieji-bianfang-12, quote: \.\.\.\}\] or basis: rule",
    ):
        check_bases(str(target), load_model_path(target, Profile))


def test_a_rule_basis_cites_the_statutes_witness(tmp_path: Path) -> None:
    data = load_profile("almanac").model_dump(mode="json", exclude_none=True)
    data["attributes"][0]["cite"] = {"witness": "taiwan-fuzhi-9", "quote": "身高四尺(按四時)"}
    target = tmp_path / "almanac.yaml"
    target.write_text(yaml.safe_dump(data, allow_unicode=True, sort_keys=False), encoding="utf-8")
    with pytest.raises(
        DataError, match=r"basis rule cites no passage of gemalan-tingzhi-3; accepted: .* or basis: manual"
    ):
        check_bases(str(target), load_model_path(target, Profile))


@pytest.mark.parametrize(
    ("text", "found"),
    [
        ("36 dancers (https://theme.npm.edu.tw/EchoesoftheCourt114/en/page-3 ; https://phwolf.net/?p=2914)",
         ["npm-echoes-court", "pengzhi-dance-diagrams"]),
        ("(see `dianli sources wenxian-tongkao-264`)", ["wenxian-tongkao-264"]),
        # an address written with its characters or percent-encoded is the same source
        ("https://zh.wikisource.org/zh-hant/土牛經", ["tuniu-jing"]),
        ("nothing outside here", []),
    ],
)  # fmt: skip
def test_the_sources_a_text_names_strongest_first(text: str, found: list[str]) -> None:
    assert [s.id for s in sources_mentioned(text)] == found


# --- the era boundaries (calendar/data/eras.yaml) and the years of a place (calendar/data/year_names.yaml) ---

YEAR_NAMES = Path(__file__).parents[2] / "src" / "dianli" / "calendar" / "data" / "year_names.yaml"
_MENTIONED = re.compile(r"`dianli sources ([a-z0-9-]+)`")


def _era_text(dynasty: str) -> str:
    """What eras.yaml says of a dynasty's years: its table's source, or the note of an era counted on."""
    found = [
        d.source for d in dynasties() if d.id == dynasty and not d.source.startswith("chinesecalendar-py")
    ]
    found += [e.counted_on_note for e in all_eras() if e.dynasty.id == dynasty and e.counted_on_note]
    assert found, f"eras.yaml says nothing of the years of {dynasty}"
    return " ".join(found)


def _quoted_from(text: str, source: str) -> list[str]:
    """The quotations a text gives after naming ``source`` (`dianli sources ID`), up to the next source it
    names or the web summaries it keeps beside (「Beside」, 「Wikipedia」)."""
    quotes: list[str] = []
    for m in _MENTIONED.finditer(text):
        if m.group(1) != source:
            continue
        rest = text[m.end() :]
        nxt = _MENTIONED.search(rest)
        rest = rest[: nxt.start()] if nxt else rest
        for stop in ("Beside", "Wikipedia"):
            rest = rest.split(stop)[0]
        quotes += re.findall(r"「([^」]+)」", rest)
    return quotes


@pytest.mark.parametrize(
    ("dynasty", "source", "quote", "kept_beside"),
    [
        # 天命 begins, 天命 → 天聰, 天聰 → 崇德 in the fourth month of 1636, 崇德 → 順治 (清史稿 本紀)
        ("later-jin", "qingshigao-1", "天命元年丙辰春正月壬申朔，上即位，建元天命，定国号曰金。", "hong-taiji-wikipedia-mirror"),
        ("later-jin", "qingshigao-2", "天命十一年丙寅九月庚午朔，即位于沈阳。诏以明年为天聪元年。", "hong-taiji-wikipedia-mirror"),
        ("later-jin", "qingshigao-2", "夏四月己卯，大贝勒代善", "hong-taiji-wikipedia-mirror"),
        ("later-jin", "qingshigao-3", "崇德元年夏四月乙酉，祭告天地，行受尊号礼，定有天下之号曰大清，改元崇德", "hong-taiji-wikipedia-mirror"),
        ("later-jin", "qingshigao-4", "丁亥，上即皇帝位于笃恭殿。诏以明年为顺治元年", "hong-taiji-wikipedia-mirror"),
        # 鄭成功 kept 隆武 (its fourth year issued by him) until he adopted 永曆 (清史稿 鄭成功傳)
        ("zheng-longwu", "qingshigao-224", "仍用唐王隆武号", "yongli-wikipedia"),
        ("zheng-longwu", "qingshigao-224", "成功颁明年隆武四年大统历", "yongli-wikipedia"),
        ("zheng-longwu", "qingshigao-224", "始改用永历号", "yongli-wikipedia"),
        # … and the 鄭 regime kept 永曆 to its surrender in 1683
        ("southern-ming", "qingshigao-224", "锦仍称永历年号", "yongli-wikipedia"),
        ("southern-ming", "qingshigao-224", "克塽及国轩、锡范率诸将吏出降", "yongli-wikipedia"),
        # 民國元年 and the Gregorian calendar from 1912
        ("roc", "gaili-gaiyuan-tongdian-1912", "以黃帝紀元四千六百九年十一月十三日為中華民國元年元旦", "minguo-jinian"),
        ("roc", "gaili-gaiyuan-tongdian-1912", "中華民國改用陽曆", "minguo-jinian"),
        ("roc", "linshi-gongbao-1912-02-01", "各州縣小學校應於元年三月初四日", "minguo-jinian"),
    ],
)  # fmt: skip
def test_an_era_boundary_cites_a_primary_text_with_its_words(
    dynasty: str, source: str, quote: str, kept_beside: str
) -> None:
    text = _era_text(dynasty)
    assert quote in _quoted_from(text, source)
    entry = outside_source(source)
    assert entry.kind in {SourceKind.PRIMARY, SourceKind.EDITION}
    assert entry.strong and not entry.weak
    # `dianli sources ID` finds the use in eras.yaml, for that dynasty
    uses = source_uses_of(source).uses
    assert any(
        u.supports == f"data: {dynasty}" and u.where.startswith("dianli/calendar/data/eras.yaml:")
        for u in uses
    )
    # the reference work first read (a mirror or a Wikipedia copy) stays beside it, still graded weak
    beside = outside_source(kept_beside)
    assert beside.weak
    assert any(u.supports == f"data: {dynasty}" for u in source_uses_of(kept_beside).uses)


def test_no_era_table_rests_on_weak_sources_alone() -> None:
    """Every era the package's tables lack (a table of eras.yaml, an era counted on beyond its emperor)
    names at least one source that is not a web summary or a copy on a mirror."""
    texts = {d.id: d.source for d in dynasties() if not d.source.startswith("chinesecalendar-py")}
    texts |= {f"{e.dynasty.id} {e.name}": e.counted_on_note for e in all_eras() if e.counted_on_note}
    assert {"later-jin", "zheng-longwu", "roc", "southern-ming 永曆"} <= set(texts)
    for what, text in texts.items():
        named = sources_mentioned(text)
        assert named, f"{what} names no registered source"
        assert not all(s.weak for s in named), f"{what} rests on weak sources alone: {[s.id for s in named]}"


@pytest.mark.parametrize(
    ("region", "from_year", "strong"),
    [
        ("mainland", 1912, {"gaili-gaiyuan-tongdian-1912", "linshi-gongbao-1912-02-01", "prc-jinian-jueyi-1949"}),
        ("mainland", 1950, {"prc-jinian-jueyi-1949"}),
    ],
)  # fmt: skip
def test_the_years_of_the_republic_cite_its_own_texts(region: str, from_year: int, strong: set[str]) -> None:
    data = yaml.safe_load(YEAR_NAMES.read_text(encoding="utf-8"))
    assert {s["id"] for s in data["sources"]} <= set(outside_sources())
    period = next(
        p for r in data["regions"] if r["id"] == region for p in r["periods"] if p["from_year"] == from_year
    )
    cited = {c["source"] for c in period["cite"]}
    assert {s for s in cited if outside_source(s).strong} == strong
