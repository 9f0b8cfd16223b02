"""Coverage of the witnesses' ritual sections by cited data (target: 95% per witness and section).

The target is enforced per (witness, section) for every pair that has reached it, so a regression fails CI;
the pairs still below it are listed in KNOWN_GAPS with their figures (as of the last edit of this file);
when one reaches the target, move it to ENFORCED. Every pair of a curated witness (one the data cites)
must be in one list or the other; a witness added as a folder is held to nothing until it is curated.
"""

from __future__ import annotations

import pytest
import yaml

from dianli.comparison.coverage import TARGET_PERCENT, clause_coverage, not_procedural, section_figures
from dianli.corpus.witnesses import witness_ids

ENFORCED: tuple[tuple[str, str], ...] = (
    ("zhuluo-xianzhi-4", "chenghuang"),
    ("fengshan-xianzhi-3", "sheji"),
    ("fengshan-xianzhi-3", "shanchuan"),
    ("fengshan-xianzhi-3", "litan"),
    ("fengshan-xianzhi-3", "chenghuang"),
    ("taiwan-xianzhi-6", "qinghe"),
    ("taiwan-xianzhi-6", "jiezhao"),
    ("taiwan-xianzhi-6", "xianshi"),
    ("taiwan-xianzhi-6", "sheji"),
    ("taiwan-xianzhi-6", "shanchuan"),
    ("taiwan-xianzhi-6", "qidao"),
    ("taiwan-xianzhi-6", "xiangyinjiu"),
    ("taiwan-xianzhi-6", "xiangyue"),
    ("fujian-tongzhi-14", "sheji"),
    ("fujian-tongzhi-14", "shanchuan"),
    ("fujian-tongzhi-14", "xianshi"),
    ("fujian-tongzhi-14", "yue"),
    ("fujian-tongzhi-14", "wupu"),
    ("fujian-tongzhi-14", "guandi"),
    ("fujian-tongzhi-14", "longshen"),
    ("fujian-tongzhi-14", "litan"),
    ("fujian-tongzhi-14", "qidao"),
    ("fujian-tongzhi-14-modern", "qinghe"),
    ("fujian-tongzhi-14-modern", "jiezhao"),
    ("fujian-tongzhi-14-modern", "yingchun"),
    ("fujian-tongzhi-14-modern", "gengji"),
    ("fujian-tongzhi-14-modern", "jiuhu"),
    ("fujian-tongzhi-14-modern", "xiangyinjiu"),
    ("fujian-tongzhi-14-modern", "xiangyue"),
    ("fujian-tongzhi-14-modern", "sheji"),
    ("fujian-tongzhi-14-modern", "shanchuan"),
    ("fujian-tongzhi-14-modern", "xianshi"),
    ("fujian-tongzhi-14-modern", "yue"),
    ("fujian-tongzhi-14-modern", "wupu"),
    ("fujian-tongzhi-14-modern", "guandi"),
    ("fujian-tongzhi-14-modern", "longshen"),
    ("fujian-tongzhi-14-modern", "litan"),
    ("fujian-tongzhi-14-modern", "qidao"),
    ("taiwan-fuzhi-9", "qinghe"),
    ("taiwan-fuzhi-9", "jiezhao"),
    ("taiwan-fuzhi-9", "wanshouting"),
    ("taiwan-fuzhi-9", "yingchun"),
    ("taiwan-fuzhi-9", "gengji"),
    ("taiwan-fuzhi-9", "jiuhu"),
    ("taiwan-fuzhi-9", "xiangyinjiu"),
    ("taiwan-fuzhi-9", "xiangyue"),
    ("taiwan-fuzhi-9", "sheji"),
    ("taiwan-fuzhi-9", "shanchuan"),
    ("taiwan-fuzhi-9", "xianshi"),
    ("taiwan-fuzhi-9", "yue"),
    ("taiwan-fuzhi-9", "wupu"),
    ("taiwan-fuzhi-9", "guandi"),
    ("taiwan-fuzhi-9", "longshen"),
    ("taiwan-fuzhi-9", "litan"),
    ("taiwan-fuzhi-9", "qidao"),
    ("taiwan-fuzhi-9", "cisi"),
    ("tingzhou-fuzhi", "xianshi"),
    ("tingzhou-fuzhi", "yue"),
    ("tingzhou-fuzhi-11", "gengji"),
    ("tingzhou-fuzhi-11", "wupu"),
    ("tingzhou-fuzhi-11", "litan"),
    ("tingzhou-fuzhi-11", "qidao"),
    ("tingzhou-fuzhi-11", "xiangyue"),
    ("chongxiu-fengshan-xianzhi-5", "yingchun"),
    ("chongxiu-fengshan-xianzhi-5", "jiuhu"),
    ("chongxiu-fengshan-xianzhi-5", "xiangyinjiu"),
    ("chongxiu-fengshan-xianzhi-5", "xiangyue"),
    ("chongxiu-fengshan-xianzhi-5", "shanchuan"),
    ("chongxiu-fengshan-xianzhi-5", "xiannong"),
    ("chongxiu-fengshan-xianzhi-5", "chenghuang"),
    ("chongxiu-fengshan-xianzhi-5", "guandi"),
    ("chongxiu-fengshan-xianzhi-5", "tianhou"),
    ("chongxiu-fengshan-xianzhi-5", "bazha"),
    ("chongxiu-fengshan-xianzhi-5", "qidao"),
    ("chongxiu-fengshan-xianzhi-5", "xuegong"),
    ("chongxiu-fengshan-xianzhi-5", "xianshi"),
    ("chongxiu-fengshan-xianzhi-5", "yue"),
    ("penghu-jilue-2", "tianhou"),
    ("penghu-jilue-2", "litan"),
    ("penghu-jilue-2", "xiangyue"),
    ("jinjiang-xianzhi-15", "sheji"),
    ("jinjiang-xianzhi-15", "shanchuan"),
    ("jinjiang-xianzhi-15", "xiannong"),
    ("jinjiang-xianzhi-15", "gengji"),
    ("jinjiang-xianzhi-15", "bazha"),
    ("jinjiang-xianzhi-15", "litan"),
    ("jinjiang-xianzhi-15", "guandi"),
    ("jinjiang-xianzhi-15", "wenchang"),
    ("jinjiang-xianzhi-15", "tianhou"),
    ("jinjiang-xianzhi-15", "chenghuang"),
    ("jinjiang-xianzhi-15", "dongyue"),
    ("jinjiang-xianzhi-15", "longshen"),
    ("jinjiang-xianzhi-15", "zhaozhong"),
    ("jinjiang-xianzhi-15", "qidao"),
    ("jinjiang-xianzhi-15", "cisi"),
    ("jinmen-zhi-4", "cisi"),
    ("jinmen-zhi-4", "chenghuang"),
    ("jinmen-zhi-4", "guandi"),
    ("jinmen-zhi-4", "tianhou"),
    ("jinmen-zhi-4", "zhaozhong"),
    ("jinmen-zhi-4", "wenchang"),
    ("jinmen-zhi-4", "qinghe"),
    ("jinmen-zhi-4", "xiangyue"),
    ("gemalan-tingzhi-3", "sheji"),
    ("gemalan-tingzhi-3", "xiannong"),
    ("gemalan-tingzhi-3", "shanchuan"),
    ("gemalan-tingzhi-3", "changyu"),
    ("gemalan-tingzhi-3", "qidao"),
    ("gemalan-tingzhi-3", "guandi"),
    ("gemalan-tingzhi-3", "wenchang"),
    ("gemalan-tingzhi-3", "cisi"),
    ("gemalan-tingzhi-3", "xiangyue"),
    ("gemalan-tingzhi-3", "xiangyinjiu"),
    ("miaoli-xianzhi-10", "qinghe"),
    ("miaoli-xianzhi-10", "jiezhao"),
    ("miaoli-xianzhi-10", "yingchun"),
    ("miaoli-xianzhi-10", "gengji"),
    ("miaoli-xianzhi-10", "sheji"),
    ("miaoli-xianzhi-10", "litan"),
    ("miaoli-xianzhi-10", "jiuhu"),
    ("miaoli-xianzhi-10", "xiangyue"),
    ("miaoli-xianzhi-10", "cisi"),
    ("miaoli-xianzhi-10", "chenghuang"),
    ("miaoli-xianzhi-10", "wenchang"),
    ("miaoli-xianzhi-10", "guandi"),
    ("miaoli-xianzhi-10", "tianhou"),
    ("penghu-tingzhi-2", "chenghuang"),
    ("penghu-tingzhi-2", "wenchang"),
    ("penghu-tingzhi-2", "guandi"),
    ("penghu-tingzhi-2", "tianhou"),
    ("penghu-tingzhi-2", "longshen"),
    ("gemalan-zhilue-7", "tianhou"),
    ("gemalan-zhilue-7", "wenchang"),
    ("gemalan-zhilue-7", "xiannong"),
    ("gemalan-zhilue-7", "yingchun"),
)
"""(witness, top-level section) pairs at or above the target: held to it."""

KNOWN_GAPS: dict[tuple[str, str], str] = {
    ("zhuluo-xianzhi-4", "xianshi"): "206/244",
    ("zhuluo-xianzhi-4", "sheji"): "26/28",
    ("zhuluo-xianzhi-4", "shanchuan"): "25/28",
    ("zhuluo-xianzhi-4", "litan"): "16/19",
    ("zhuluo-xianzhi-4", "yingchun"): "0/6",
    ("zhuluo-xianzhi-4", "qidao"): "10/13",
    ("fengshan-xianzhi-3", "xianshi"): "159/184",
    ("fengshan-xianzhi-3", "qidao"): "8/10",
    ("fengshan-xianzhi-3", "bazha"): "6/7",
    ("taiwan-xianzhi-6", "chenghuang"): "10/11",
    ("taiwan-xianzhi-6", "litan"): "13/19",
    ("taiwan-xianzhi-6", "yingchun"): "8/11",
    ("tingzhou-fuzhi-11", "sheji"): "66/82",
    ("tingzhou-fuzhi-11", "shanchuan"): "26/28",
    ("tingzhou-fuzhi-11", "xianshi"): "127/137",
    ("tingzhou-fuzhi-11", "yue"): "207/291",
    ("tingzhou-fuzhi-11", "guandi"): "77/88",
    ("tingzhou-fuzhi-11", "xiangyinjiu"): "65/82",
    ("chongxiu-fengshan-xianzhi-5", "qinghe"): "16/17",
    ("chongxiu-fengshan-xianzhi-5", "jiezhao"): "25/27",
    ("chongxiu-fengshan-xianzhi-5", "gengji"): "34/43",
    ("chongxiu-fengshan-xianzhi-5", "sheji"): "115/144",
    ("chongxiu-fengshan-xianzhi-5", "litan"): "39/42",
    ("chongxiu-fengshan-xianzhi-5", "wupu"): "0/21",
    ("penghu-jilue-2", "cisi"): "14/15",
    ("penghu-jilue-2", "chenghuang"): "18/19",
    ("penghu-jilue-2", "guandi"): "27/29",
    ("jinjiang-xianzhi-15", "changyu"): "0/12",
    ("gemalan-tingzhi-3", "qinghe"): "0/10",
    ("gemalan-tingzhi-3", "jiezhao"): "7/11",
    ("gemalan-tingzhi-3", "yingchun"): "36/50",
    ("gemalan-tingzhi-3", "gengji"): "17/18",
    ("gemalan-tingzhi-3", "shuowang"): "0/2",
    ("gemalan-tingzhi-3", "jiuhu"): "50/66",
    ("gemalan-tingzhi-3", "huoshen"): "11/12",
    ("gemalan-tingzhi-3", "chenghuang"): "15/24",
    ("gemalan-tingzhi-3", "litan"): "27/29",
    ("gemalan-tingzhi-3", "tianhou"): "21/55",
    ("gemalan-tingzhi-3", "fengjiao"): "7/12",
    ("miaoli-xianzhi-10", "xiangyinjiu"): "6/10",
    ("penghu-tingzhi-2", "cisi"): "4/5",
    ("gemalan-zhilue-7", "guandi"): "1/2",
    ("gemalan-zhilue-7", "sheji"): "1/2",
    ("gemalan-zhilue-7", "shanchuan"): "1/5",
    ("gemalan-zhilue-7", "chenghuang"): "11/14",
    ("gemalan-zhilue-7", "cisi"): "37/38",
}
"""Pairs still below the target (covered/total), not yet enforced; `dianli coverage --uncovered` lists
their clauses."""


def _percent(witness: str, section: str) -> float:
    return next(f.percent for f in section_figures(witness) if f.section == section)


@pytest.mark.parametrize("witness", witness_ids())
def test_figures_are_consistent(witness: str) -> None:
    items = clause_coverage(witness)
    figures = section_figures(witness)
    assert sum(f.total for f in figures) == len(items)
    assert all(0 <= f.covered <= f.total for f in figures)


def test_every_not_procedural_mark_has_a_reason() -> None:
    assert all(reason.strip() for marks in not_procedural().values() for _, _, reason in marks)


@pytest.mark.parametrize(("witness", "section"), ENFORCED)
def test_coverage_target(witness: str, section: str) -> None:
    assert _percent(witness, section) >= TARGET_PERCENT, f"{witness} {section} below {TARGET_PERCENT}%"


def _curated() -> list[str]:
    """The witnesses the rite data cites or that have readings of their own (curated by hand): a witness
    added as a folder and not yet curated is reported by `dianli coverage` and aligned by `dianli align`,
    but held to nothing here; so is one made by the automatic path whose reading files state no rite (the
    ``rites: []`` that `dianli align --review` leaves when every drafted reading was rejected)."""
    from dianli.corpus.witnesses import reading_files
    from dianli.rites.load import all_rites
    from dianli.rites.model import walk_elements

    cited = {c.witness for r in all_rites().values() for e in walk_elements(r) for c in e.citations}

    def states_a_rite(witness: str) -> bool:
        return any(
            (yaml.safe_load(p.read_text(encoding="utf-8")) or {}).get("rites") for p in reading_files(witness)
        )

    return [w for w in witness_ids() if w in cited or states_a_rite(w)]


WITNESS_FLOOR_PERCENT = 80.0
"""Every curated witness as a whole (issue #12: each gazetteer of the corpus at least 80% covered, the
automatic *same* citations counting)."""


def _harvested() -> set[str]:
    """The witnesses whose manifest says they were made by the automatic path of issue #26 (``made: {by:
    harvest}``: dianli harvest → ingest --drafts → align --review): measured, their figures in the corpus
    table (``dianli texts list --format csv``), not held to the floor of the hand-curated ones."""
    from dianli.corpus.witnesses import manifest

    return {info.id for info in manifest() if info.made is not None and info.made.by == "harvest"}


RECORDED: dict[str, str] = {
    "anxi-xianzhi-jiajing-2": "10/163",
    "anxi-xianzhi-kangxi-9": "14/119",
    "bamin-tongzhi-58": "0/341",
    "chongxiu-taiwan-fuzhi-7": "918/1266",
    "chongxiu-taiwan-xianzhi-5": "52/61",
    "chongzuan-fujian-tongzhi-taiwan-28": "123/361",
    "chunxi-sanshan-zhi-8": "4/606",
    "fengshan-xian-caifangce-4": "3/321",
    "fengshan-xianzhi-2": "0/80",
    "fujian-tongzhi-15": "8/94",
    "fuzhou-fuzhi-qianlong-14": "16/290",
    "fuzhou-fuzhi-wanli-14": "7/219",
    "gemalan-zhilue-7": "63/73",
    "hengchun-xianzhi-11": "23/233",
    "liancheng-xianzhi-3": "6/35",
    "linting-zhi": "0/72",
    "nanping-xianzhi-11": "28/214",
    "penghu-xubian-1": "8/111",
    "taiwan-xianzhi-2": "14/168",
    "xiamen-zhi-2": "2/297",
    "xianxi-zhi-1": "3/33",
    "xuxiu-taiwan-xianzhi-2": "294/368",
    "yongan-xianzhi-wanli-3": "26/56",
    "yongding-xianzhi-3": "25/151",
    "yunlin-xian-caifangce": "2/47",
    "zhuluo-xianzhi-5": "0/87",
}
"""Witnesses of the automatic path with their coverage (covered/total) when they were added: each is held to
that figure, so a regression fails. Curating one to the floor moves it out of here (and out of harvest)."""


def _counts(witness: str) -> tuple[int, int]:
    figures = section_figures(witness)
    return sum(f.covered for f in figures), sum(f.total for f in figures)


@pytest.mark.parametrize("witness", [w for w in _curated() if w not in _harvested()])
def test_every_curated_witness_reaches_the_floor(witness: str) -> None:
    covered, total = _counts(witness)
    assert 100.0 * covered / total >= WITNESS_FLOOR_PERCENT, f"{witness}: {covered}/{total}"


@pytest.mark.parametrize(("witness", "recorded"), sorted(RECORDED.items()))
def test_a_witness_of_the_automatic_path_keeps_its_recorded_coverage(witness: str, recorded: str) -> None:
    covered, total = _counts(witness)
    was, of = (int(n) for n in recorded.split("/"))
    assert witness in _harvested() and total == of and covered >= was, f"{witness}: {covered}/{total}"


def test_every_witness_of_the_automatic_path_has_its_coverage_recorded() -> None:
    assert _harvested() == set(RECORDED)


def test_every_section_is_enforced_or_a_known_gap() -> None:
    """Every section of a curated witness is in one list or the other — a witness of the automatic path
    only when its sections are tracked here (any of them listed)."""
    listed = set(ENFORCED) | set(KNOWN_GAPS)
    tracked = {w for w, _ in listed}
    pairs = {
        (w, f.section)
        for w in _curated()
        if w not in _harvested() or w in tracked
        for f in section_figures(w)
    }
    assert pairs == listed


def test_spring_ox_glosses_name_existing_attributes_and_phases() -> None:
    """The further citations of the spring-ox rule (spring_ox/data/glosses.yaml) are linked to what they
    support: every attribute id is one of the gazetteer profile's, every phase one of phases.yaml's."""
    from importlib import resources

    import yaml

    from dianli.spring_ox.profiles import load_phases, load_profile

    raw = yaml.safe_load(
        resources.files("dianli.spring_ox").joinpath("data/glosses.yaml").read_text(encoding="utf-8")
    )
    profile = load_profile(raw["profile"])
    attribute_ids = {a.id for a in profile.attributes}
    elements = {p.element for p in load_phases().phases}
    for gloss in raw["glosses"]:
        assert gloss.get("attributes") or gloss.get("phases"), gloss
        assert set(gloss.get("attributes", ())) <= attribute_ids, gloss
        assert set(gloss.get("phases", ())) <= elements, gloss


@pytest.mark.parametrize(("fraction", "covered"), [(0.3, False), (0.49, False), (0.5, True), (0.9, True)])
def test_a_clause_counts_as_covered_only_when_half_of_it_is_cited(
    monkeypatch: pytest.MonkeyPatch, fraction: float, covered: bool
) -> None:
    """One short quote must not make a long clause count: cited data must account for half of it."""
    from dianli.comparison import coverage
    from dianli.corpus.clauses import clauses

    witness = "tingzhou-fuzhi"
    longest = max((c for c in clauses(witness) if c.section.startswith("yue")), key=lambda c: c.end - c.start)
    cut = longest.start + round(fraction * (longest.end - longest.start))
    monkeypatch.setattr(coverage, "cited_spans", lambda: {witness: ((longest.start, cut),)})
    monkeypatch.setattr(coverage, "not_procedural", lambda: {})
    coverage._masks.cache_clear()
    try:
        item = next(i for i in coverage.clause_coverage(witness) if i.clause == longest)
        assert (item.covered_by == "cited") is covered
    finally:
        coverage._masks.cache_clear()
