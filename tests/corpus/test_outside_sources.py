"""The registry of outside sources: every source graded, every web address of the package registered, and
no rule resting on weak sources (web summaries, texts read on a mirror or in a forum) alone where a
witness or a primary or scholarly source states it anywhere in the data, or without saying why."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml
from pydantic import ValidationError

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
from dianli.outside import Support, rule_supports, unregistered_addresses, unsound_supports
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
