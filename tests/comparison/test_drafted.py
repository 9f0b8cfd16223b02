"""comparison.drafted and comparison.review: a witness's differing days proposed as readings, reviewed one
by one; a drafted witness governs nothing unless asked (``--with-drafts``) and is named as a draft."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path
from types import SimpleNamespace

import pytest
import yaml

from dianli.comparison.drafted import drafted_file, proposals, rule_of
from dianli.comparison.values import rule_text

FIXTURE = Path(__file__).parents[1] / "fixtures" / "drafts" / "jinjiang_excerpt.txt"

RULES = [
    ("二月上丁", {"kind": "stem_day_of_month", "month": 2, "stem": "丁"}),
    ("八月中戊", {"kind": "stem_day_of_month", "month": 8, "stem": "戊", "nth": 2}),
    ("二月上巳", {"kind": "branch_day_of_month", "month": 2, "branch": "巳"}),
    ("霜降前一日", {"kind": "solar_term", "term": "霜降", "days_before": 1}),
    ("惊蛰", {"kind": "solar_term", "term": "驚蟄"}),
    ("冬至後辰日", {"kind": "branch_day_after_term", "term": "冬至", "branch": "辰"}),
    ("七月十五日", {"kind": "lunar_day", "month": 7, "day": 15}),
    ("十月初一日", {"kind": "lunar_day", "month": 10, "day": 1}),
    ("十二月二十日", {"kind": "lunar_day", "month": 12, "day": 20}),
    ("每月朔、望", {"kind": "monthly", "days": [1, 15]}),
    ("無定日", None),
    ("二月", None),
]


@pytest.mark.parametrize(("words", "rule"), RULES)
def test_rule_of(words: str, rule: dict[str, object] | None) -> None:
    assert rule_of(words) == rule


@pytest.mark.parametrize(("words", "rule"), [r for r in RULES if r[1] is not None and r[0] != "惊蛰"])
def test_rule_of_inverts_rule_text(words: str, rule: dict[str, object]) -> None:
    spec = SimpleNamespace(**{"nth": 1, "days_before": 0, **rule})
    assert rule_text(spec) == words


def test_jinjiang_proposes_its_shanchuan_days() -> None:
    """晉江縣志 holds 山川 on 上戊 where its base 福建通志 has 上巳: one proposal, cited in its own words."""
    found = {p.rite: p for p in proposals("jinjiang-xianzhi-15")}
    days = found["shanchuan"]
    assert days.values == ("二月上戊", "八月上戊") and days.base == "fujian-tongzhi-14"
    assert set(days.base_values) == {"二月上巳", "八月上巳"} and days.confidence == "high"
    patch = days.patch("jinjiang-xianzhi-15")
    assert patch["date_rule"][0]["rule"] == {"kind": "stem_day_of_month", "month": 2, "stem": "戊"}
    assert "上戊" in patch["date_rule"][0]["cite"]["quote"]


def test_a_hymn_named_differently_is_proposed_in_its_place() -> None:
    """臺灣縣志's 大成樂 names its movements 咸和, 寧和 … where its base 臺灣府志 has 咸平, 寧平 …: each a
    proposal that puts its name in place of the base's, citing its own clause; the reading it makes sings
    咸和 at the 迎神."""
    from dianli.comparison.review import describe
    from dianli.rites.expand import expand
    from dianli.rites.readings import apply_reading, rites_for

    found = [p for p in proposals("taiwan-xianzhi-6") if p.kind == "hymn"]
    pairs = {(p.replaces, p.values[0]) for p in found}
    assert ("咸平", "咸和") in pairs and ("安平", "安和") in pairs
    hymn = next(p for p in found if p.replaces == "咸平")
    patch = hymn.patch("taiwan-xianzhi-6")
    assert patch["overrides"][0]["replace_text"] == {"field": "all", "old": "咸平", "new": "咸和"}
    assert "咸和" in patch["overrides"][0]["cite"]["quote"]
    assert describe(patch) == ("hymn", ("咸平 → 咸和",), (patch["overrides"][0]["cite"]["quote"],))
    rites = dict(rites_for("taiwan-fuzhi-9"))
    rites["xianshi"] = apply_reading(rites["xianshi"], patch, "test")
    calls = [n.step.call or "" for n in expand("xianshi", rites)]
    assert any("咸和" in c for c in calls) and not any("咸平" in c for c in calls)


def test_every_proposal_of_the_corpus_is_a_reading_that_expands() -> None:
    """Each drafted patch of every curated witness loads as a reading of its base and expands, and says
    in words what it proposes."""
    from dianli.comparison.drafted import _base_reading
    from dianli.comparison.facts import curated_witnesses
    from dianli.comparison.review import describe
    from dianli.rites.expand import expand
    from dianli.rites.readings import apply_reading

    count = 0
    for witness in curated_witnesses():
        _base, rites = _base_reading(witness)
        for proposal in proposals(witness):
            patch = proposal.patch(witness)
            read = dict(rites)
            read[proposal.rite] = apply_reading(rites[proposal.rite], patch, "test")
            expand(proposal.rite, read)  # no error: the patch is a reading of the rite
            assert describe(patch)[0] == proposal.kind and proposal.summary()
            count += 1
    assert count >= 20


def test_agreeing_days_propose_nothing() -> None:
    assert "shanchuan" not in {p.rite for p in proposals("jinjiang-xianzhi-15", base="jinjiang-xianzhi-15")}


def test_drafted_file_is_a_reading() -> None:
    text = drafted_file("jinjiang-xianzhi-15", proposals("jinjiang-xianzhi-15"))
    data = yaml.safe_load(text)
    assert set(data) == {"rites"} and data["rites"][0]["id"]
    assert "# [1] " in text and "high confidence" in text


def _run(args: list[str], env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "dianli", *args], capture_output=True, text=True, env=env, timeout=600
    )


def test_a_draft_is_reviewed_and_governs_only_when_asked(tmp_path: Path) -> None:
    """ingest --drafts → a draft (status: draft) that governs nothing; its proposals reviewed one by one."""
    source = tmp_path / "gazetteers"
    source.mkdir()
    shutil.copy(FIXTURE, source / FIXTURE.name)
    drafts = tmp_path / "drafts"
    env = {**os.environ, "DIANLI_WITNESSES": str(drafts)}
    env.pop("DIANLI_WITH_DRAFTS", None)
    done = _run(["ingest", str(source), "--drafts", str(drafts)], env)
    assert done.returncode == 0, done.stderr
    folder = drafts / "jinjiang-excerpt"
    assert yaml.safe_load((folder / "witness.yaml").read_text(encoding="utf-8"))["status"] == "draft"
    # against the witness that governs 晉江縣 (its curated twin) only the 社稷 posture differs: the text
    # says 「行三跪九叩禮」 where the twin's reading inherits 一跪三叩; against 福建通志, 山川's days too
    drafted = yaml.safe_load((folder / "readings" / "drafted.yaml").read_text(encoding="utf-8"))
    assert [p["id"] for p in drafted["rites"]] == ["sheji"]
    assert drafted["rites"][0]["overrides"][0]["replace_text"] == {
        "field": "all",
        "old": "一跪三叩",
        "new": "三跪九叩",
    }
    script = (
        "import sys; from pathlib import Path\n"
        "from dianli.comparison.drafted import drafted_file, proposals\n"
        "found = proposals('jinjiang-excerpt', base='fujian-tongzhi-14')\n"
        "Path(sys.argv[1]).mkdir(exist_ok=True)\n"
        "from dianli import written\n"
        "written.write(Path(sys.argv[1]) / 'drafted.yaml', drafted_file('jinjiang-excerpt', found).encode())\n"
    )
    made = subprocess.run([sys.executable, "-c", script, str(folder / "readings")], env=env, text=True,
                          capture_output=True, timeout=600)  # fmt: skip
    assert made.returncode == 0, made.stderr
    listed = _run(["align", "jinjiang-excerpt", "--review"], env)
    assert listed.returncode == 0, listed.stderr
    out = " ".join(listed.stdout.split())
    assert "[1] 祭社稷禮 · 禮節 (posture): 一跪三叩 → 三跪九叩" in out and "「行三跪九叩礼」" in out
    assert "[2] 祭山川禮 · 祭期 (day rule): 二月上戊、八月上戊" in out and "（草稿 draft）" in out
    wrong = _run(["align", "jinjiang-excerpt", "--review", "--accept", "9"], env)
    assert wrong.returncode == 2 and "pending: 1, 2" in wrong.stderr + wrong.stdout
    decided = _run(["align", "jinjiang-excerpt", "--review", "--accept", "2", "--reject", "1"], env)
    assert decided.returncode == 0, decided.stderr
    reviewed = yaml.safe_load((folder / "readings" / "reviewed.yaml").read_text(encoding="utf-8"))
    assert [p["id"] for p in reviewed["rites"]] == ["shanchuan"]
    log = yaml.safe_load((folder / "review.yaml").read_text(encoding="utf-8"))
    assert log["decisions"] == [
        {
            "rite": "shanchuan",
            "kind": "date_rule",
            "values": ["二月上戊", "八月上戊"],
            "decision": "accepted",
        },
        {"rite": "sheji", "kind": "posture", "values": ["一跪三叩 → 三跪九叩"], "decision": "rejected"},
    ]
    assert not yaml.safe_load((folder / "readings" / "drafted.yaml").read_text(encoding="utf-8"))["rites"]
    # governance: the draft takes over no real place unless --with-drafts, and is named as a draft there
    plain = json.loads(_run(["places", "--year", "1750", "--format", "json"], env).stdout)
    drafted = json.loads(_run(["--with-drafts", "places", "--year", "1750", "--format", "json"], env).stdout)
    unit = {u["id"]: u for u in plain["units"]}["jinjiang"]
    unit_drafted = {u["id"]: u for u in drafted["units"]}["jinjiang"]
    assert unit["governing_witness"] != "jinjiang-excerpt"
    assert unit_drafted["governing_witness"] == "jinjiang-excerpt"
